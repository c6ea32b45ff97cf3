"""The players' names at the table: the roster, each seat's name, and how a name shows on 128x64.

Names are the table's, not a game's: the shell asks for them at a new game (only when
a roster exists), journals them as a table action `{"a": "names", "names": [...]}` in
the game's journal entry (Shell.split_journal keeps it out of the game's actions), and
hands them to the game (`set_names`). A game shows a seat through `shown(seat)` while
its screen is built (`using(names)` around it): the name, cut to fit, when a person's
name was given; None for "Player N", "Bot N (level)" and "Guest N", where the game keeps
its short seat label (P1). Records and the history keep the full names (spec section 8:
at most MAX_NAME characters; a game without names has "Player 1" ... "Player N").
"""

from __future__ import annotations

import contextvars
import re
import unicodedata
from contextlib import contextmanager
from functools import lru_cache
from typing import Any, Iterator, Sequence

__all__ = ["MAX_NAME", "SHOWN", "NAMES_ACTION", "default_name", "bot_name", "guest_name", "is_guest", "is_placeholder",
           "check_roster", "names_problem", "shown", "spoken", "using", "shorten"]

MAX_NAME = 24  # spec section 8
SHOWN = 7  # characters of a name on the OLED: "Colores secretos: Massim." fits a 25-character title
MAX_ROSTER = 40
NAMES_ACTION = "names"
_GUEST = re.compile(r"Guest \d+")
_PLACEHOLDER = re.compile(r"(Player|Guest) \d+|Bot \d+ \([^()]*\)")
_current: contextvars.ContextVar[tuple[str, ...] | None] = contextvars.ContextVar("seat_names", default=None)


def default_name(seat: int) -> str:
    """Seat `seat` (0-based) in a game without names: "Player 1"."""
    return f"Player {seat + 1}"


def bot_name(seat: int, level: str) -> str:
    """A bot seat's name: "Bot 2 (mcts)"."""
    return f"Bot {seat + 1} ({level})"


def guest_name(seat: int) -> str:
    """A seat whose player is not on the roster: "Guest 3" (never counted as one person)."""
    return f"Guest {seat + 1}"


@lru_cache(maxsize=4096)
def is_guest(name: str) -> bool:
    """True for a guest seat's name ("Guest 2"): not one person, never counted as one."""
    return bool(_GUEST.fullmatch(name))


def is_placeholder(name: str) -> bool:
    """True for the names the table makes up (Player N, Bot N (level), Guest N)."""
    return bool(_PLACEHOLDER.fullmatch(name))


def clean_name(raw: Any) -> str | None:
    """`raw` as a roster name (spaces collapsed, NFC), or None when it cannot be one."""
    if not isinstance(raw, str):
        return None
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if not name or len(name) > MAX_NAME or any(unicodedata.category(c).startswith("C") for c in name):
        return None
    return name


def names_problem(raw: Any, players: int) -> str | None:
    """Why `raw` is not a game's names (spec section 8: one per player, each 1-MAX_NAME characters
    and not blank), or None when it is."""
    if type(raw) is not list or len(raw) != players or not all(
            type(n) is str and n.strip() and len(n) <= MAX_NAME for n in raw):
        return f"names: must list one name per player ({players}), each 1-{MAX_NAME} characters"
    return None


def check_roster(raw: Any) -> tuple[list[str], str | None]:
    """(the roster's names, None) or ([], why not, in a few words) for a list of names."""
    if not isinstance(raw, list):
        return [], "expected a list of names, e.g. [Anna, Ben]"
    if len(raw) > MAX_ROSTER:
        return [], f"at most {MAX_ROSTER} names"
    out: list[str] = []
    for item in raw:
        name = clean_name(item)
        if name is None:
            return [], f"{str(item)[:30]!r} is not a name (1-{MAX_NAME} characters, no control characters)"
        if is_placeholder(name):
            return [], f"{name!r} is a name the table gives itself; choose another"
        if name.casefold() in (n.casefold() for n in out):
            return [], f"{name!r} is on the roster twice"
        out.append(name)
    return out, None


def shorten(name: str, width: int = SHOWN) -> str:
    """`name` in at most `width` characters: the first name when it fits, else cut with a dot."""
    if len(name) <= width:
        return name
    first = name.split(" ")[0]
    if len(first) <= width:
        return first
    return name[:width - 1] + "."


@contextmanager
def using(names: Sequence[str] | None) -> Iterator[None]:
    """Within the block, `shown(seat)` answers from `names` (None: no names)."""
    token = _current.set(tuple(names) if names else None)
    try:
        yield
    finally:
        _current.reset(token)


def spoken(seat: int) -> str | None:
    """The name the voice says for seat `seat` (the whole name, not cut), or None (say the seat)."""
    names = _current.get()
    if names is None or not 0 <= seat < len(names) or is_placeholder(names[seat]):
        return None
    return names[seat]


def shown(seat: int) -> str | None:
    """The name seat `seat` shows as on the OLED, or None (keep the seat's own label)."""
    name = spoken(seat)
    return None if name is None else shorten(name)
