"""The OLED's 1-bit frame as text on a terminal: the cell mode that fits, and the key legend.

Three cell modes, every pixel shown in each, a border around the frame:

- ``half``: Unicode half blocks, 1x2 pixels a cell (128x64 -> 130 columns, 34 rows);
- ``quad``: quadrant blocks, 2x2 pixels a cell (66 columns, 34 rows);
- ``braille``: braille cells U+2800..U+28FF, 2x4 pixels a cell (66 columns, 18 rows),
  so 128x64 fits an 80x24 terminal with the legend under it.

`choose_cells` picks the best mode the terminal's real size holds; when none fits it
falls back to braille and the sink says so in one line (`too_small`).
"""

from __future__ import annotations

import os
import shutil
from typing import Any, TextIO

from companion.i18n import _

MODES = ("half", "quad", "braille")  # best first
CELL = {"half": (1, 2), "quad": (2, 2), "braille": (2, 4)}  # pixels a character holds (x, y)
EXTRA_ROWS = 2  # under the frame: the legend line, and the line the cursor rests on

HALF = {(0, 0): " ", (1, 0): "\u2580", (0, 1): "\u2584", (1, 1): "\u2588"}
# index = top-left*8 + top-right*4 + bottom-left*2 + bottom-right
QUAD = " \u2597\u2596\u2584\u259d\u2590\u259e\u259f\u2598\u259a\u258c\u2599\u2580\u259c\u259b\u2588"
BRAILLE_BASE = 0x2800
# the braille dot bit of the pixel at (dx, dy) in a 2x4 cell (dots 1-2-3-7 left, 4-5-6-8 right)
BRAILLE_BITS = {(0, 0): 0x01, (0, 1): 0x02, (0, 2): 0x04, (0, 3): 0x40,
                (1, 0): 0x08, (1, 1): 0x10, (1, 2): 0x20, (1, 3): 0x80}


def frame_size(mode: str, width: int, height: int) -> tuple[int, int]:
    """Columns and rows of a frame of `width`x`height` pixels drawn in `mode`, border included."""
    cx, cy = CELL[mode]
    return -(-width // cx) + 2, -(-height // cy) + 2


def choose_cells(columns: int, rows: int, width: int = 128, height: int = 64) -> tuple[str, bool]:
    """The best mode whose frame and legend fit `columns`x`rows`; (mode, True), else ("braille", False)."""
    for mode in MODES:
        need_cols, need_rows = frame_size(mode, width, height)
        if need_cols <= columns and need_rows + EXTRA_ROWS <= rows:
            return mode, True
    return "braille", False


def terminal_size(stream: TextIO | None) -> tuple[int, int]:
    """The real size (columns, rows) of the terminal `stream` writes to; else what shutil finds (80x24)."""
    try:
        size = os.get_terminal_size(stream.fileno())  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        size = shutil.get_terminal_size((80, 24))
    return size.columns, size.lines


def render(image: Any, mode: str) -> list[str]:
    """The frame as text lines in `mode`, framed by a border."""
    if mode not in CELL:
        raise ValueError(f"terminal cells must be 'half', 'quad', 'braille' or 'auto', got {mode!r}")
    img = image if image.mode == "1" else image.convert("1")
    w, h = img.size
    px = img.load()

    def on(x: int, y: int) -> int:
        return 1 if x < w and y < h and px[x, y] else 0

    rows = []
    if mode == "half":
        for y in range(0, h, 2):
            rows.append("".join(HALF[on(x, y), on(x, y + 1)] for x in range(w)))
    elif mode == "quad":
        for y in range(0, h, 2):
            rows.append("".join(QUAD[on(x, y) * 8 + on(x + 1, y) * 4 + on(x, y + 1) * 2 + on(x + 1, y + 1)]
                                for x in range(0, w, 2)))
    else:
        for y in range(0, h, 4):
            rows.append("".join(chr(BRAILLE_BASE + sum(bit for (dx, dy), bit in BRAILLE_BITS.items()
                                                      if on(x + dx, y + dy)))
                                for x in range(0, w, 2)))
    width = len(rows[0]) if rows else 0
    return ["\u250c" + "\u2500" * width + "\u2510"] + ["\u2502" + r + "\u2502" for r in rows] + \
           ["\u2514" + "\u2500" * width + "\u2518"]


def legend() -> str:
    """Which keyboard keys are the keypad's (the screens name keypad keys: #=ok, *=back, A/B, D=menu)."""
    # NOTE: max 66 characters (one line under the 66-column screen). Key names stay as they are:
    # Enter, Esc, Bksp (Backspace), Up/Down (arrow keys), u, m, r, q and the keypad keys # * A/B.
    # r says the last announcement again.
    return _("Enter=#  Esc/Bksp=*  Up/Down=A/B  u=undo  m=menu  r=again  q=quit")


def faint(lines: list[str]) -> list[str]:
    """`lines` drawn faint (SGR 2): a dimmed panel."""
    return [f"\x1b[2m{line}\x1b[0m" for line in lines]


def idle_note(state: str) -> str:
    """The line under a dimmed or dark panel, in place of the legend."""
    if state == "off":
        # NOTE: max 66 characters: the panel went dark after a while without a key
        return _("Screen off: the next key only wakes it.")
    # NOTE: max 66 characters: the panel dimmed after a while without a key
    return _("Screen dimmed: the next key counts.")


def too_small(columns: int, rows: int, need_columns: int, need_rows: int) -> str:
    """One line: the terminal cannot show the whole screen, and the size it needs."""
    # NOTE: max 66 characters with the numbers filled in (e.g. 60x15, 66x20)
    return _("Terminal {columns}x{rows} is too small: the screen needs {need_columns}x{need_rows}.").format(
        columns=columns, rows=rows, need_columns=need_columns, need_rows=need_rows)


def physical_rows(lines: list[str], columns: int) -> int:
    """Terminal rows that `lines` take once the terminal wraps those longer than `columns`."""
    columns = max(1, columns)
    return sum(max(1, -(-len(line) // columns)) for line in lines)
