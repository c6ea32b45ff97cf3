"""The screen model: what the OLED shows, as plain data, with no game in it.

A game decides *what* is on screen by building a `Screen`; the renderer
(`companion.table.render`) only draws it. Text is wrapped here, to the column count
of the fixed-width fonts the renderer uses, so paging ("1/3", A/B) is decided by
the game and a test can read a screen without looking at pixels.

Four kinds of screen, each with its own layout in the renderer:

    ENTRY    a header the game fills in (title bar left/right, one line, labelled
             columns) + the number being typed + a hint line
    TEXT     title bar + wrapped lines (+ an input line)
    MENU     title bar + a list with one highlighted row
    PICTURE  the left half: a short title bar + lines in the small font; the right half:
             a 64x64 lit square with a picture of dark cells on it (a QR code)
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, replace
from typing import Sequence

from companion.i18n import _

SMALL_COLS = 25  # 5x8 font on 128 px
BODY_COLS = SMALL_COLS  # text screens: 5x8 too, a row per 8-pixel page of the panel
BODY_ROWS = 7  # under the title bar (page 0): pages 1-7
ROW_PX = 8  # a row of text or menu: one page of the controller

ENTRY = "entry"
TEXT = "text"
MENU = "menu"
PICTURE = "picture"

PICTURE_SIZE = 64  # the lit square on the right, in pixels
PICTURE_QUIET = 2  # lit pixels at least around the picture inside its square
PICTURE_COLS = 12  # 5x8 font on the left half: title bar and lines
PICTURE_ROWS = 6  # lines under the title bar


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
    picture: tuple[str, ...] | None = None  # PICTURE: rows of cells, "1" dark, "0" lit; None: none
    picture_scale: int = 1  # pixels per cell, each way
    alt: str = ""  # what the picture says, in words (text() only, never drawn)
    confirm: bool = False  # a confirmation: only a key pressed after it showed answers it (never drawn)

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
        if self.alt:
            parts.append(f"[{self.alt}]")
        return "\n".join(parts)


_TIED = re.compile(r" (?=[:;!?»](?:\s|$))")  # French spacing: " :" never starts a line


def wrap(paragraphs: Sequence[str], cols: int = BODY_COLS) -> list[str]:
    """Paragraphs -> lines of at most `cols` characters, broken at spaces only: a word longer
    than a line stays whole (and `overflows` reports it), never cut in the middle; the space
    before a French colon, semicolon, ! or ? holds like a no-break space."""
    out: list[str] = []
    for p in paragraphs:
        lines = textwrap.wrap(_TIED.sub("\u00a0", p), cols, break_on_hyphens=False, break_long_words=False)
        out += [line.replace("\u00a0", " ") for line in lines] or [""]
    return out


def paginate(paragraphs: Sequence[str], rows: int = BODY_ROWS, cols: int = BODY_COLS) -> list[tuple[str, ...]]:
    """Wrapped lines cut into pages of `rows` lines; at least one (possibly empty) page."""
    lines = wrap(paragraphs, cols)
    return [tuple(lines[i:i + rows]) for i in range(0, len(lines), rows)] or [()]


def text_screen(name: str, title: str, paragraphs: Sequence[str], entry: str | None = None) -> Screen:
    """A TEXT screen of one page: the paragraphs wrapped (a row less with an entry; lines past
    the last row are not drawn, and `overflows` reports them)."""
    return Screen(TEXT, name, title, tuple(wrap(paragraphs)), entry=entry)


def confirm_screen(name: str, title: str, text: str, yes_no: str | None = None) -> Screen:
    """A yes/no question: # = yes, * = no (a confirmation: keys typed before it showed do not answer it)."""
    screen = text_screen(name, title, [text, yes_no if yes_no is not None else _("# = yes  * = no")])
    return replace(screen, confirm=True)


TITLE_COLS = SMALL_COLS  # the inverted bar, 5x8 font
MENU_COLS = 23  # 5x8 font from x=3; a scrolling list keeps the right margin for its arrows
ENTRY_COLS = 14  # 9x15 bold


def overflows(screen: Screen) -> list[str]:
    """Every text of `screen` the renderer would clip (too long for its place, or past the last
    row), as "where: text" lines; empty when everything shows whole. Mirrors render.py's layout."""
    out: list[str] = []

    def check(where: str, text: str, cols: int) -> None:
        if len(text) > cols:
            out.append(f"{where} ({len(text)} > {cols}): {text}")

    paging = f"{screen.page + 1}/{screen.pages}" if screen.pages > 1 else ""
    if screen.kind == ENTRY:
        h = screen.header
        if h is not None:
            check("header bar", f"{h.left} {h.right}" if h.right else h.left, TITLE_COLS)
            check("header line", h.line, SMALL_COLS)
            for label, value in h.columns:
                width = SMALL_COLS // len(h.columns)
                check("column label", label, width)
                check("column value", value, width)
        if screen.entry is not None:
            check("entry", screen.entry, ENTRY_COLS)
        check("hint", screen.hint, SMALL_COLS)
        return out
    if screen.kind == PICTURE:
        check("title", screen.title, PICTURE_COLS)
        for i, line in enumerate(screen.lines):
            if i >= PICTURE_ROWS:
                out.append(f"line {i + 1} past the last row: {line}")
            check("line", line, PICTURE_COLS)
        rows = screen.picture or ()
        side = max([len(rows)] + [len(r) for r in rows]) * screen.picture_scale
        if side > PICTURE_SIZE - 2 * PICTURE_QUIET:
            out.append(f"picture ({side} px > {PICTURE_SIZE - 2 * PICTURE_QUIET} px)")
        return out
    check("title", screen.title, TITLE_COLS - (len(paging) + 1 if paging else 0))
    if screen.kind == MENU:
        rows = BODY_ROWS - (1 if screen.hint else 0)
        cols = MENU_COLS - (1 if len(screen.choices) > rows else 0)
        for choice in screen.choices:
            check("choice", choice, cols)
        check("hint", screen.hint, SMALL_COLS)
        return out
    rows = BODY_ROWS - (1 if screen.entry is not None else 0)
    for i, line in enumerate(screen.lines):
        if i >= rows:
            out.append(f"line {i + 1} past the last row: {line}")
        check("line", line, BODY_COLS)
    if screen.entry is not None:
        check("entry", screen.entry, BODY_COLS)
    return out
