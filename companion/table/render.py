"""Screen model -> a 128x64 1-bit PIL image for the OLED.

Fixed-width bitmap fonts (X11 misc-fixed, public domain, in companion/table/fonts) drawn at
their real pixel sizes: 5x8 for the status block, titles and hints, 6x10 for text
and menus, 9x15 bold for the move being typed. Three layouts, one per screen kind:

    entry: status (whose turn, epoch, chips left, terrains, 5 scores), the move, a hint
    text:  inverted title bar (with "page/pages"), up to 5 lines, or 4 and an input line
    menu:  inverted title bar, a scrolling list with the choice highlighted
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from companion.table import screen as S
from companion.games.clans.board import COLORS

WIDTH, HEIGHT = 128, 64
FONT_DIR = Path(__file__).resolve().parent / "fonts"
SCORE_LABELS = ("red", "blu", "grn", "yel", "blk")


@lru_cache(maxsize=None)
def font(name: str) -> ImageFont.ImageFont:
    """One of the bundled bitmap fonts: "5x8", "6x10" or "9x15B"."""
    return ImageFont.load(str(FONT_DIR / f"{name}.pil"))


def render(screen: S.Screen) -> Image.Image:
    """Draw one screen; a new mode "1" image of 128x64 (1 = lit pixel)."""
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(image)
    if screen.kind == S.ENTRY:
        _entry(draw, screen)
    elif screen.kind == S.MENU:
        _title(draw, screen)
        _menu(draw, screen)
    else:
        _title(draw, screen)
        _text(draw, screen)
    return image


def _title(draw: ImageDraw.ImageDraw, screen: S.Screen) -> None:
    small = font("5x8")
    draw.rectangle((0, 0, WIDTH - 1, 8), fill=1)
    right = f"{screen.page + 1}/{screen.pages}" if screen.pages > 1 else ""
    if right:
        draw.text((WIDTH - 1 - 5 * len(right), 1), right, font=small, fill=0)
    room = (WIDTH - 2) // 5 - (len(right) + 1 if right else 0)
    draw.text((1, 1), screen.title[:room], font=small, fill=0)


def _text(draw: ImageDraw.ImageDraw, screen: S.Screen) -> None:
    body = font("6x10")
    rows = S.BODY_ROWS - (1 if screen.entry is not None else 0)
    for i, line in enumerate(screen.lines[:rows]):
        draw.text((1, 11 + 10 * i), line, font=body, fill=1)
    if screen.entry is not None:
        draw.text((1, 53), screen.entry, font=body, fill=1)


def _menu(draw: ImageDraw.ImageDraw, screen: S.Screen) -> None:
    body = font("6x10")
    rows = S.BODY_ROWS - (1 if screen.hint else 0)
    n = len(screen.choices)
    top = min(max(0, screen.selected - rows + 1), max(0, n - rows))
    for row, i in enumerate(range(top, min(n, top + rows))):
        y = 10 + 10 * row
        if i == screen.selected:
            draw.rectangle((0, y, WIDTH - 1, y + 9), fill=1)
        draw.text((3, y), screen.choices[i], font=body, fill=0 if i == screen.selected else 1)
    if top > 0:
        draw.text((WIDTH - 6, 10), "^", font=font("5x8"), fill=1)
    if screen.hint:
        draw.text((1, 56), screen.hint, font=font("5x8"), fill=1)


def _entry(draw: ImageDraw.ImageDraw, screen: S.Screen) -> None:
    small = font("5x8")
    s = screen.status
    if s is not None:
        draw.rectangle((0, 0, WIDTH - 1, 8), fill=1)
        draw.text((1, 1), f"{S.player(s.player)} to move", font=small, fill=0)
        right = f"Ep {S.ROMAN[s.epoch]} {s.chips_left} left"
        draw.text((WIDTH - 1 - 5 * len(right), 1), right, font=small, fill=0)
        draw.text((1, 10), S.terrain_line(s)[:25], font=small, fill=1)
        for i, (label, score) in enumerate(zip(SCORE_LABELS, s.scores)):
            cx = 13 + i * 25  # column centres 13, 38, 63, 88, 113
            draw.text((cx - 7, 19), label, font=small, fill=1)
            num = str(score)
            draw.text((cx - (5 * len(num)) // 2, 28), num, font=small, fill=1)
        draw.line((0, 37, WIDTH - 1, 37), fill=1)
    if screen.entry is not None:
        draw.text((1, 39), screen.entry[:14], font=font("9x15B"), fill=1)
    if screen.hint:
        draw.text((1, 56), screen.hint[:25], font=small, fill=1)


assert len(SCORE_LABELS) == len(COLORS)
