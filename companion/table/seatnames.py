"""The players' names at the table: the roster, each seat's name, and how a name shows on 128x64.

Names are the table's, not a game's: the shell asks for them at a new game (only when
a roster exists), journals them as a table action `{"a": "names", "names": [...]}` in
the game's journal entry (Shell.split_journal keeps it out of the game's actions), and
hands them to the game (`set_names`). A game shows a seat through `shown(seat)` while
its screen is built (`using(names)` around it): the name, cut to fit, when a person's
name was given; None for "Player N", "Bot N (level)" and "Guest N", where the game keeps
its short seat label (P1). Records and the history keep the full names (spec section 8:
at most MAX_NAME characters; a game without names has "Player 1" ... "Player N").

What a name may be is ONE rule, `check_name`, used at every door a name comes in by: a
record (`companion run --load`, `companion replay`), `companion import`, the config's and
the page's roster (`check_roster`), the keypad's naming (companion.table.naming); a game's names
(`check_names`) and the roster also refuse two names alike (`same_key`: case and spaces aside) and
the names the table gives itself (in a game's names, only at the seat the table gives them). A refused
name is a NameRefused whose message is one line: which name, why, what to do. What reads
names already kept (the journal, the history) reads them leniently (`names_problem`), so a
name saved before the rule still loads; `printable` (companion.util.safe_text) shows what such a
name may not hold as its code, and `spoken` leaves it out of what the voice says.
"""

from __future__ import annotations

import contextvars
import re
import unicodedata
from contextlib import contextmanager
from functools import lru_cache
from typing import Any, Iterator, Sequence

from companion.util.safe_text import char_fault, printable

__all__ = ["MAX_NAME", "SHOWN", "NAMES_ACTION", "NameRefused", "check_name", "check_names", "default_name",
           "bot_name", "guest_name", "is_guest", "is_placeholder", "check_roster", "names_problem", "shown", "spoken",
           "using", "shorten", "same_key"]

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


class NameRefused(ValueError):
    """A name the table does not take; the message is one line: which name, why, what to do."""


_QUOTED = 32  # characters of a refused name echoed in its message
_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")  # UTF-16 surrogate pair: one character written in two


def _quoted(text: str) -> str:
    """`text` in quotes for a message: `printable`, clipped to _QUOTED characters."""
    shown = printable(text[:_QUOTED])
    return '"' + (shown if len(shown) <= _QUOTED else shown[:_QUOTED - 3] + "...") + '"'


def _kind(value: object) -> str:
    """What a value that is not text is, in a word or two (never the value: it may be huge)."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "true" if value else "false"
    kinds = {int: "a number", float: "a number", list: "a list", dict: "a mapping"}
    return next((w for t, w in kinds.items() if isinstance(value, t)), f"a {type(value).__name__}")


def check_name(raw: object) -> str:
    """THE rule for a player's name, the same at every door (a record, an import, the page's roster,
    the config's roster, the keypad's naming): the name as kept, or NameRefused saying which name,
    why and what to do, in one line.

    A name is text, NFC-normalised, with surrounding whitespace stripped, of 1-MAX_NAME characters
    (code points), holding no control (Cc), format (Cf: zero-width characters, joiners, the
    bidirectional controls), surrogate (Cs), private-use (Co) or unassigned (Cn) code point and no
    line or paragraph separator. A UTF-16 surrogate pair (what YAML makes of "\\ud83d\\ude00") is
    joined into the one character it stands for first; a lone surrogate is refused. The verdict is
    the same for a text and its NFC form."""
    return _checked(raw, characters=True)


def _checked(raw: object, characters: bool) -> str:
    """`check_name`; without `characters`, only text, not blank, not too long (`names_problem`)."""
    if not isinstance(raw, str):
        raise NameRefused(f"{_kind(raw)} is not a name: write each name as text in quotes, e.g. \"Anna\"")
    if _PAIR.search(raw):  # YAML's "\\ud83d\\ude00" gives the pair, not the emoji it stands for
        raw = _PAIR.sub(lambda m: chr(0x10000 + (ord(m[0][0]) - 0xD800) * 0x400 + ord(m[0][1]) - 0xDC00), raw)
    name = unicodedata.normalize("NFC", raw).strip()
    if not name:
        raise NameRefused(f"{_quoted(raw)} is blank: a name needs 1-{MAX_NAME} characters")
    for at, ch in enumerate(name if characters else "", start=1):
        why = char_fault(ch)
        if why is not None:
            label = unicodedata.name(ch, "")
            raise NameRefused(f"{_quoted(raw)} holds U+{ord(ch):04X}{f' {label}' if label else ''} "
                              f"(character {at}), {why}: leave it out of the name")
    if len(name) > MAX_NAME:
        raise NameRefused(f"{_quoted(raw)} has {len(name)} characters: a name has at most {MAX_NAME}; "
                          f"shorten it")
    return name


def same_key(name: str) -> str:
    """What makes two names one person's: case and spaces aside ("Anna", "ANNA", " anna ", "An  na"
    is not "Anna" but "an na")."""
    return " ".join(name.split()).casefold()


def _own_seat(name: str) -> int | None:
    """The seat (1-based) the table gives `name` itself ("Guest 2", "Bot 2 (mcts)", "Player 2": 2);
    None for a person's name."""
    if not is_placeholder(name):
        return None
    return int(re.search(r"\d+", name)[0])


def check_names(raw: Any, players: int) -> list[str]:
    """A game's names from outside (a record's or an import's `"names"`): one per player, each by
    `check_name`, no two alike (`same_key`: "Anna", "ANNA", " Anna "), and a name the table gives
    itself only where it gives it ("Guest 2", "Bot 2 (mcts)", "Player 2" at seat 2: what the
    table's own exports hold); the names as kept, or NameRefused ("names: player 2: ...")."""
    names = _names(raw, players, characters=True)
    seen: dict[str, int] = {}
    for seat, name in enumerate(names, start=1):
        own = _own_seat(name)
        if own is not None and own != seat:
            raise NameRefused(f"names: player {seat}: {_quoted(name)} is a name the table gives seat {own} "
                              f"itself; choose another")
        first = seen.setdefault(same_key(name), seat)
        if first != seat:
            raise NameRefused(f"names: player {seat}: {_quoted(name)} is player {first}'s name too "
                              f"({_quoted(names[first - 1])}, case and spaces aside): give each seat its own name")
    return names


def names_problem(raw: Any, players: int) -> str | None:
    """Why `raw` cannot be read as a game's names (one text per player, not blank, at most MAX_NAME
    characters; in `check_names`' words), or None. Lenient on purpose, it does not look at the
    characters: it reads what the table kept (an old journal's names stay readable, and show through
    `printable`); what comes in from outside goes through `check_names`."""
    try:
        _names(raw, players, characters=False)
    except NameRefused as exc:
        return str(exc)
    return None


def _names(raw: Any, players: int, characters: bool) -> list[str]:
    if type(raw) is not list or len(raw) != players:
        raise NameRefused(f"names: must list one name per player ({players}), each 1-{MAX_NAME} characters")
    out = []
    for seat, item in enumerate(raw, start=1):
        try:
            out.append(_checked(item, characters))
        except NameRefused as exc:
            raise NameRefused(f"names: player {seat}: {exc}") from None
    return out


def check_roster(raw: Any) -> tuple[list[str], str | None]:
    """(the roster's names, None) or ([], why not, in one line) for a list of names: each by
    `check_name`, none the table gives itself, none twice (`same_key`: case and spaces aside), at most
    MAX_ROSTER."""
    if not isinstance(raw, list):
        return [], "expected a list of names, e.g. [Anna, Ben]"
    if len(raw) > MAX_ROSTER:
        return [], f"at most {MAX_ROSTER} names"
    out: list[str] = []
    for item in raw:
        try:
            name = check_name(item)
        except NameRefused as exc:
            return [], str(exc)
        if is_placeholder(name):
            return [], f"{_quoted(name)} is a name the table gives itself; choose another"
        if same_key(name) in (same_key(n) for n in out):
            return [], f"{_quoted(name)} is on the roster twice (case and spaces aside)"
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


def _given(seat: int) -> str | None:
    """Seat `seat`'s name within `using`, as kept; None for a made-up one or without names."""
    names = _current.get()
    if names is None or not 0 <= seat < len(names) or is_placeholder(names[seat]):
        return None
    return names[seat]


def spoken(seat: int) -> str | None:
    """The name the voice says for seat `seat` (the whole name, not cut), or None (say the seat).
    A name the rule accepts is said as it is; from one kept before the rule (an old journal's), what
    a name may not hold is left out (a NUL or a lone surrogate cannot even reach espeak-ng)."""
    name = _given(seat)
    if name is None or not any(char_fault(c) for c in name):
        return name
    return "".join(c for c in name if not char_fault(c)).strip() or None


def shown(seat: int) -> str | None:
    """The name seat `seat` shows as on the OLED (cut to fit; the renderer draws any text), or None
    (keep the seat's own label)."""
    name = _given(seat)
    return None if name is None else shorten(name)
