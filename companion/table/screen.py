"""The screen model: what the OLED shows, as plain data, with no game in it.

A game decides *what* is on screen by building a `Screen`; the renderer
(`companion.table.render`) only draws it. Text is wrapped here, to the column count
of the fixed-width fonts the renderer uses, so paging ("1/3", A/B) is decided by
the game and a test can read a screen without looking at pixels.

Three kinds of screen, each with its own layout in the renderer:

    ENTRY  a header the game fills in (title bar left/right, one line, labelled
           columns) + the number being typed + a hint line
    TEXT   title bar + wrapped lines (+ an input line)
    MENU   title bar + a list with one highlighted row
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Sequence

BODY_COLS = 21  # 6x10 font on 128 px
BODY_ROWS = 5  # under the 9 px title bar
SMALL_COLS = 25  # 5x8 font on 128 px

ENTRY = "entry"
TEXT = "text"
MENU = "menu"


@dataclass(frozen=True)
class Header:
    """The at-a-glance block of an ENTRY screen, in words the game chose.

    Drawn as an inverted bar with `left` and `right` (right-aligned), one `line`
    under it, then `columns` of (label, value) side by side, evenly spaced.
    """

    left: str
    right: str = ""
    line: str = ""
    columns: tuple[tuple[str, str], ...] = ()

    def lines(self) -> list[str]:
        """The header as text lines (logs, tests, the terminal fallback)."""
        out = [f"{self.left}  {self.right}" if self.right else self.left, self.line]
        if self.columns:
            out.append(" ".join(label + value for label, value in self.columns))
        return out


@dataclass(frozen=True)
class Screen:
    """One frame's content. `name` says which screen it is (tests, gallery), never drawn."""

    kind: str
    name: str
    title: str = ""
    lines: tuple[str, ...] = ()
    page: int = 0
    pages: int = 1
    entry: str | None = None  # an input line ("> 12_"); None when nothing is asked
    hint: str = ""
    header: Header | None = None
    choices: tuple[str, ...] = ()
    selected: int = 0

    def text(self) -> str:
        """Everything readable on the screen, as text (logs, tests, the terminal fallback)."""
        parts = [self.title + (f" {self.page + 1}/{self.pages}" if self.pages > 1 else "")]
        if self.header is not None:
            parts += self.header.lines()
        parts += list(self.lines)
        parts += [("> " if i == self.selected else "  ") + c for i, c in enumerate(self.choices)]
        if self.entry is not None:
            parts.append(self.entry)
        if self.hint:
            parts.append(self.hint)
        return "\n".join(parts)


def wrap(paragraphs: Sequence[str], cols: int = BODY_COLS) -> list[str]:
    """Paragraphs -> lines of at most `cols` characters (long words are broken)."""
    out: list[str] = []
    for p in paragraphs:
        out += textwrap.wrap(p, cols, break_on_hyphens=False) or [""]
    return out


def paginate(paragraphs: Sequence[str], rows: int = BODY_ROWS, cols: int = BODY_COLS) -> list[tuple[str, ...]]:
    """Wrapped lines cut into pages of `rows` lines; at least one (possibly empty) page."""
    lines = wrap(paragraphs, cols)
    return [tuple(lines[i:i + rows]) for i in range(0, len(lines), rows)] or [()]


def text_screen(name: str, title: str, paragraphs: Sequence[str], entry: str | None = None) -> Screen:
    """A TEXT screen of one page: the paragraphs wrapped and cut to what fits (a row less with an entry)."""
    rows = BODY_ROWS - (1 if entry is not None else 0)
    return Screen(TEXT, name, title, tuple(wrap(paragraphs)[:rows]), entry=entry)


def confirm_screen(name: str, title: str, text: str, yes_no: str = "# = yes  * = no") -> Screen:
    """A yes/no question: # = yes, * = no."""
    return text_screen(name, title, [text, yes_no])
