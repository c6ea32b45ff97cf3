"""The registry of games: one `GameEntry` a game. Adding a game is one folder here and one line below.

The daemon and the command line ask this registry (`find_game`, `GAMES`, `commands`)
and name no game themselves; modules are named as strings, so nothing of a game is
imported until it is played.
"""

from __future__ import annotations

from companion.table.errors import UsageError
from companion.table.gameentry import GameEntry

_CLANS_COMMANDS = {
    "replay": ("companion.games.clans.commands:replay", "check and play a game record, print the result"),
    "selfplay": ("companion.games.clans.commands:selfplay", "play random games: the engine's throughput benchmark"),
    "new": ("companion.games.clans.commands:new", "write a fresh game record with a random R1 setup"),
    "board": ("companion.games.clans.boardmap:main", "draw a printable numbered map of the board"),
    "arena": ("companion.games.clans.bots.arena:main", "play bots against each other and print win rates"),
}

GAMES: dict[str, GameEntry] = {
    "clans": GameEntry("clans", "Clans", "companion.games.clans.controller", "Clans (Leo Colovini)",
                       searcher="companion.games.clans.bots.runner:make_searcher", commands=_CLANS_COMMANDS,
                       speech="companion.games.clans.speech", web="companion.games.clans.web",
                       history="companion.games.clans.history"),
    "mammut": GameEntry("mammut", "Mammut", "companion.games.mammut.controller",
                        "Valley of the Mammoths (Bruno Faidutti)", speech="companion.games.mammut.speech",
                        web="companion.games.mammut.web", history="companion.games.mammut.history"),
}
DEFAULT_GAME = "clans"


def find_game(name: str) -> GameEntry:
    """The registered game called `name`; UsageError naming the known ones otherwise."""
    try:
        return GAMES[name]
    except KeyError:
        raise UsageError(f"unknown game {name!r}: known games are {', '.join(GAMES)}") from None


def commands() -> dict[str, tuple[str, str]]:
    """Every game's subcommands of `companion`: name -> ("module:function", one-line help)."""
    out: dict[str, tuple[str, str]] = {}
    for entry in GAMES.values():
        out.update(entry.commands)
    return out
