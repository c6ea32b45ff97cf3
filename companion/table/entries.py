"""A journal entry, decoded: the one place that reads a game's journaled actions back.

A game's journal entry holds the game's own actions and the table's (the seats' names,
`{"a": "names"}`; in older journals the brightness, `{"a": "brightness"}`). The kiosk
(resuming, taking keys back) and the table's page (the live view, the replays) rebuild a
game from an entry through these functions alone, so both read an entry the same way.
"""

from __future__ import annotations

import random
from typing import Any, Iterable, Sequence

from companion.table import seatnames
from companion.table.protocol import TableGame

__all__ = ["BRIGHTNESS_LEVELS", "DEFAULT_BRIGHTNESS", "LEGACY_BRIGHTNESS", "split_journal", "journal_names",
           "named", "journal_index", "rebuild_game"]

BRIGHTNESS_LEVELS = 5
DEFAULT_BRIGHTNESS = 4
LEGACY_BRIGHTNESS = "brightness"  # journals before the shell kept brightness among a game's actions


def split_journal(actions: Iterable[dict], brightness: int | None = None) -> tuple[list[dict], int]:
    """A journal entry's game actions, and the brightness: `brightness` (a stored setting) if
    given, else the last level an older journal kept among the actions, else the default."""
    game_actions, legacy = [], None
    for a in actions:
        if a.get("a") == LEGACY_BRIGHTNESS:
            legacy = a.get("level")
        elif a.get("a") == seatnames.NAMES_ACTION:
            continue  # the table's: journal_names
        else:
            game_actions.append(a)
    level = brightness if brightness is not None else legacy
    ok = type(level) is int and 1 <= level <= BRIGHTNESS_LEVELS
    return game_actions, level if ok else DEFAULT_BRIGHTNESS


def journal_names(actions: Iterable[dict]) -> list[str] | None:
    """The seats' names a journal entry holds (the last given), None without."""
    names = None
    for a in actions:
        if a.get("a") == seatnames.NAMES_ACTION and isinstance(a.get("names"), list):
            names = [str(n) for n in a["names"]]
    return names


def named(game: TableGame, actions: Iterable[dict]) -> TableGame:
    """`game` (rebuilt from a journal entry's `actions`) with the seats' names the entry holds."""
    names, seats = journal_names(actions), game.seats()
    if names and seats is not None and len(names) == len(seats):
        game.set_names(names)
    return game


def journal_index(actions: Sequence[dict], n: int) -> int:
    """How many of a journal entry's `actions` hold its first `n` game actions (see split_journal)."""
    seen = 0
    for i, a in enumerate(actions):
        if seen == n:
            return i
        seen += a.get("a") not in (LEGACY_BRIGHTNESS, seatnames.NAMES_ACTION)
    return len(actions)


def rebuild_game(cls: Any, actions: Sequence[dict], rng: random.Random, upto: int | None = None) -> TableGame:
    """The game of class `cls` (its `from_actions`) that a journal entry's `actions` hold, its seats
    named as the entry names them; `upto`: its first `upto` game actions only. ValueError (from the
    game) when it refuses an action."""
    game_actions, _level = split_journal(actions)
    if upto is not None:
        game_actions = game_actions[:upto]
    return named(cls.from_actions(game_actions, rng), actions)
