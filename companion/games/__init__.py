"""The registry of games: `GAMES`, one `GameType` a game. Adding a game is its folder here and one line below.

Each game describes itself once, in `<its folder>/about.py` (`GAME = GameType(...)`:
companion.table.gametype); `register_game` checks that description and enters it.
Everything that needs a game's facts or code asks this registry (`find_game`, `GAMES`,
`commands`, `bot_names`) and names no game itself; a game's code is named by strings, so
nothing of it is imported until it is played.
"""

from __future__ import annotations

import importlib

from companion.util.errors import UsageError
from companion.table.gametype import GameType

GAMES: dict[str, GameType] = {}


def register_game(about: str | GameType) -> GameType:
    """Enter a game: its `GameType`, or the name of the module that holds it as `GAME`.
    ValueError when the description is wrong or its kind is taken."""
    game = getattr(importlib.import_module(about), "GAME", None) if isinstance(about, str) else about
    if not isinstance(game, GameType):
        raise ValueError(f"{about!r}: a game is registered by its GameType")
    problems = game.problems() + ([f"kind {game.kind!r} is registered already"] if game.kind in GAMES else [])
    if not problems:  # a statistic's name is one game's only (every game's are in every entry)
        taken = {(s.per, s.name): other.kind for other in GAMES.values() for s in other.statistics}
        problems = [f"statistic {s.name!r} per {s.per} is {taken[(s.per, s.name)]!r}'s already"
                    for s in game.statistics if (s.per, s.name) in taken]
    if problems:
        raise ValueError(f"game {game.kind!r}: " + "; ".join(problems))
    GAMES[game.kind] = game
    return game


register_game("companion.games.clans.about")
register_game("companion.games.mammut.about")
DEFAULT_GAME = "clans"


def find_game(name: str) -> GameType:
    """The registered game called `name`; UsageError naming the known ones otherwise."""
    try:
        return GAMES[name]
    except KeyError:
        raise UsageError(f"unknown game {name!r}: known games are {', '.join(GAMES)}") from None


def commands() -> dict[str, tuple[str, str]]:
    """Every game's subcommands of `companion`: name -> ("module:function", one-line help)."""
    out: dict[str, tuple[str, str]] = {}
    for game in GAMES.values():
        out.update(game.commands)
    return out


def quick_player_counts() -> tuple[int, ...]:
    """The player counts `--players` accepts: those of every game that starts without the questions."""
    return tuple(sorted({n for game in GAMES.values() if game.quick_start for n in game.player_counts}))


def default_bot() -> str:
    """The bot of the bot seats when neither --bot nor the config names one: the first game's that has bots."""
    return next((game.default_bot for game in GAMES.values() if game.default_bot), "")


def bot_names() -> tuple[str, ...]:
    """Every registered game's bot names, in order and once each (`--bot`, `game.bot`)."""
    return tuple(dict.fromkeys(name for game in GAMES.values() for name in game.bots))
