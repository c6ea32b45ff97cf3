"""What the exports say about each game besides its plays, in BG Stats' words: read from its `GameType`.

Each game states its facts once, with their sources, in its own description
(`companion/games/<kind>/about.py`, companion.table.gametype); this module only turns
them into the fields BG Stats and BoardGameGeek files use. A figure nobody could confirm
is 0 there, as BG Stats' own files write an unknown one, and a game without a BGG id gets
no `<item>` in the BGG plays XML (objectid 0 is no item).

A table that knows an id sets it for its exports (`companion export --bgg-id mammut=ID`;
`ids` below); 0 leaves it out.
"""

from __future__ import annotations

from typing import Any, Mapping

__all__ = ["game_info", "game_name", "parse_bgg_ids"]


def game_name(kind: str) -> str:
    """The published name of the game `kind` ("Valley of the Mammoths"); an unregistered game's
    (an old journal's) is its code."""
    from companion.games import GAMES

    return GAMES[kind].name if kind in GAMES else kind


def game_info(kind: str, ids: Mapping[str, int] | None = None) -> dict[str, Any]:
    """The game's facts for the exports: name, bggId (0: none), bggYear, designers, players, time,
    highestWins, noPoints. `ids` (game code -> BGG id) overrides bggId; a game without a BGG id has
    bggYear 0. A game no longer registered (an old journal's) is named by its code, with no facts."""
    from companion.games import GAMES
    from companion.table.gametype import GameType

    game = GAMES.get(kind) or GameType(kind, kind, kind, "")  # unregistered: its code, every fact unknown
    out: dict[str, Any] = {
        "name": game.name, "bggId": game.bgg_id, "bggYear": game.bgg_year, "designers": game.designers,
        "minPlayerCount": game.min_players, "maxPlayerCount": game.max_players, "minPlayTime": game.min_play_time,
        "maxPlayTime": game.max_play_time, "minAge": game.min_age, "highestWins": game.highest_wins,
        "noPoints": game.no_points}
    if ids and kind in ids:
        out["bggId"] = int(ids[kind])
    if not out["bggId"]:
        out["bggYear"] = 0
    return out


def parse_bgg_ids(items: list[str]) -> dict[str, int]:
    """`--bgg-id GAME=ID` options as {game: id}; ValueError naming the item when one is not that."""
    from companion.games import GAMES

    out: dict[str, int] = {}
    for item in items:
        game, _, number = item.partition("=")
        if game not in GAMES or not number.isdigit() or len(number) > 9:
            raise ValueError(f"--bgg-id {item!r}: give GAME=ID, GAME one of {', '.join(sorted(GAMES))} and ID "
                             "the number in the game's boardgamegeek.com address (0: none)")
        out[game] = int(number)
    return out
