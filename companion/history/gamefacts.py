"""What the exports say about each game besides its plays: title, BoardGameGeek id, year, players, time.

Every figure has a source a reader can check (below); a figure nobody could confirm is left
out (0, as BG Stats' own files write an unknown one) rather than guessed.

* Clans (Leo Colovini; Winning Moves, Rio Grande Games, Venice Connection, 2002), 2-4
  players, 10 and up, 30-45 minutes: the German Wikipedia article (de.zxc.wiki/wiki/Clans)
  and the publishers' boxes as reviewed on rareboardgames.com and boardgamegeek.com
  (thread 136214). Its BoardGameGeek id, 4636: a club's play log of 28 November 2002,
  "Clans ( Winning Moves ) BGG Id: 4636" (trickylight.co.uk/session_detail.php?sessionid=175).
  The 4226 this file said before had no source.
* Valley of the Mammoths (La Vallée des Mammouths, Bruno Faidutti; Ludodélire 1991, Jeux
  Descartes 2001), 3-6 players, 12 and up, 2 hours (fr.wikipedia via fr-academic.com,
  bdml.free.fr fiche 330). It is on BoardGameGeek, but no stored source gives its id:
  `bggId` 0, `bggYear` 0 (what a BG Stats file holds for a game it has no BGG link for), and
  no `<item>` in the BGG plays XML (objectid 0 is no item).

A table that knows an id sets it for its exports (`companion export --bgg-id clans=4636`;
`ids` below); 0 leaves it out.
"""

from __future__ import annotations

from typing import Any, Mapping

__all__ = ["FACTS", "game_info", "parse_bgg_ids"]

FACTS: dict[str, dict[str, Any]] = {
    "clans": {"name": "Clans", "bggId": 4636, "bggYear": 2002, "designers": "Leo Colovini",
              "minPlayerCount": 2, "maxPlayerCount": 4, "minPlayTime": 30, "maxPlayTime": 45, "minAge": 10},
    "mammut": {"name": "Valley of the Mammoths", "bggId": 0, "bggYear": 0, "designers": "Bruno Faidutti",
               "minPlayerCount": 3, "maxPlayerCount": 6, "minPlayTime": 120, "maxPlayTime": 120, "minAge": 12},
}
_EMPTY = {"bggId": 0, "bggYear": 0, "designers": "", "minPlayerCount": 0, "maxPlayerCount": 0, "minPlayTime": 0,
          "maxPlayTime": 0, "minAge": 0}


def game_info(kind: str, ids: Mapping[str, int] | None = None) -> dict[str, Any]:
    """The game's facts for the exports: name, bggId (0: none), bggYear, designers, players, time,
    highestWins, noPoints (from its history plug-in). `ids` (game code -> BGG id) overrides bggId;
    a game without a BGG id has bggYear 0."""
    from companion.games import GAMES

    module = GAMES[kind].history_module() if kind in GAMES and GAMES[kind].history else None
    out = {**_EMPTY, "name": getattr(module, "TITLE", kind), **FACTS.get(kind, {})}
    if kind not in FACTS:
        out["bggId"] = int(getattr(module, "BGG_ID", None) or 0)
    if ids and kind in ids:
        out["bggId"] = int(ids[kind])
    if not out["bggId"]:
        out["bggYear"] = 0
    out["highestWins"] = bool(getattr(module, "HIGHEST_WINS", True))
    out["noPoints"] = bool(getattr(module, "NO_POINTS", False))
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
