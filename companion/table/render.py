"""Screen model -> a 128x64 1-bit PIL image for the OLED.

Fixed-width bitmap fonts (X11 misc-fixed, public domain, in companion/table/fonts) drawn at
their real pixel sizes: 5x8 for everything but the move being typed, in 9x15 bold. Four
layouts, one per screen kind; no game is named here:

    entry:   the game's header (bar, one line, labelled columns), the number typed, a hint
    text:    inverted title bar (with "page/pages"), up to 7 lines, or 6 and an input line
    menu:    inverted title bar, a scrolling list with the choice highlighted, a hint
    picture: on the left half a title bar and up to 6 lines (5x8); on the right a lit 64x64
             square with the picture's dark cells centred on it (a QR code: dark on light,
             as phone readers expect)

Every text is drawn through `drawable`: the fonts hold Latin-1's printable characters only, so
any other character is written in Latin letters (anyascii: "Łukasz" -> "Lukasz", "שלום" ->
"slvm", "😀" -> ":grinning:"), a combining mark the font lacks is left to its letter, and what
has no Latin form (a control, a lone surrogate, a private-use or unassigned code point) is "?".
Whatever text a screen holds, drawing it never raises; widths and cuts count what is drawn.

Text and menu rows sit each in one of the controller's 8-pixel pages (the title bar in page
0, row i in page i + 1): a line that changes then costs the bus one page's columns, not the
two pages a 10-pixel line straddles (companion.hw.oled_window sends only what changed).
"""

from __future__ import annotations

from functools import lru_cache
import os
import re
import unicodedata

from PIL import Image, ImageDraw, ImageFont

from companion.table import screen as S

WIDTH, HEIGHT = 128, 64
FONT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fonts")  # no pathlib: start-up


MISSING = "?"  # drawn for a character with no glyph and no Latin form
MAX_DRAWN = 256  # characters of one text looked at: no row of 128 pixels shows more than 25
_LACKING = re.compile(r"[^\x20-\x7e\xa0-\xff]")  # what the fonts have no glyph for (both: the same set)
_MARKS = ("Mn", "Mc", "Me")  # combining marks: with no Latin form of their own, the letter before shows


@lru_cache(maxsize=None)
def font(name: str) -> ImageFont.ImageFont:
    """One of the bundled bitmap fonts: "5x8" or "9x15B"."""
    return ImageFont.load(os.path.join(FONT_DIR, f"{name}.pil"))


@lru_cache(maxsize=4096)
def _latin(ch: str) -> str:
    """What the fonts draw for `ch`, a character they lack: its Latin letters, "" for a combining
    mark without any, MISSING for the rest."""
    try:
        from anyascii import anyascii  # only when a screen holds such a character: start-up stays as fast

        text = anyascii(ch)
    except Exception:  # noqa: BLE001 - not installed (an old venv) or failing: the letter without its marks
        text = "".join(c for c in unicodedata.normalize("NFKD", ch) if c.isascii())
    text = _LACKING.sub(MISSING, text)  # anyascii passes ASCII controls through
    if text:
        return text
    return "" if unicodedata.category(ch) in _MARKS else MISSING


def drawable(text: str) -> str:
    """`text` (its first MAX_DRAWN characters) as the bitmap fonts can draw it (see the module
    docstring); unchanged when it is Latin-1's printable characters only, as almost every screen is."""
    if not isinstance(text, str):
        text = str(text)
    text = text[:MAX_DRAWN]
    if _LACKING.search(text) is None:
        return text
    return _LACKING.sub(lambda m: _latin(m.group()), text)


def render(screen: S.Screen) -> Image.Image:
    """Draw one screen; a new mode "1" image of 128x64 (1 = lit pixel), its `info["text"]` the screen's words."""
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(image)
    if screen.kind == S.ENTRY:
        _entry(draw, screen)
    elif screen.kind == S.MENU:
        _title(draw, screen)
        _menu(draw, screen)
    elif screen.kind == S.PICTURE:
        _picture(draw, screen)
    else:
        _title(draw, screen)
        _text(draw, screen)
    image.info["text"] = screen.text()  # its words, for a sink that shows text (a pipe); never drawn nor saved
    return image


def _bar(draw: ImageDraw.ImageDraw, left: str, right: str = "") -> None:
    """The inverted bar in page 0: `left` from the left edge, `right` against the right one."""
    small = font("5x8")
    left, right = drawable(left), drawable(right)
    draw.rectangle((0, 0, WIDTH - 1, S.ROW_PX - 1), fill=1)
    draw.text((1, 0), left, font=small, fill=0)
    if right:
        draw.text((WIDTH - 1 - 5 * len(right), 0), right, font=small, fill=0)


def _title(draw: ImageDraw.ImageDraw, screen: S.Screen) -> None:
    right = f"{screen.page + 1}/{screen.pages}" if screen.pages > 1 else ""
    room = (WIDTH - 2) // 5 - (len(right) + 1 if right else 0)
    _bar(draw, drawable(screen.title)[:room], right)


def _row_y(row: int) -> int:
    """The top pixel row of body row `row` (0 = the first under the title bar): page row + 1."""
    return S.ROW_PX * (row + 1)


def _text(draw: ImageDraw.ImageDraw, screen: S.Screen) -> None:
    small = font("5x8")
    rows = S.BODY_ROWS - (1 if screen.entry is not None else 0)
    for i, line in enumerate(screen.lines[:rows]):
        draw.text((1, _row_y(i)), drawable(line), font=small, fill=1)
    if screen.entry is not None:
        draw.text((1, _row_y(S.BODY_ROWS - 1)), drawable(screen.entry), font=small, fill=1)


def _menu(draw: ImageDraw.ImageDraw, screen: S.Screen) -> None:
    small = font("5x8")
    rows = S.BODY_ROWS - (1 if screen.hint else 0)
    n = len(screen.choices)
    top = min(max(0, screen.selected - rows + 1), max(0, n - rows))
    for row, i in enumerate(range(top, min(n, top + rows))):
        y = _row_y(row)
        if i == screen.selected:
            draw.rectangle((0, y, WIDTH - 1, y + S.ROW_PX - 1), fill=1)
        draw.text((3, y), drawable(screen.choices[i]), font=small, fill=0 if i == screen.selected else 1)
    # arrows in the right margin: more items above / below the visible rows
    if top > 0:
        draw.text((WIDTH - 6, _row_y(0)), "^", font=small, fill=0 if top == screen.selected else 1)
    if top + rows < n:
        last = top + rows - 1
        draw.text((WIDTH - 6, _row_y(rows - 1)), "v", font=small, fill=0 if last == screen.selected else 1)
    if screen.hint:
        draw.text((1, _row_y(S.BODY_ROWS - 1)), drawable(screen.hint), font=small, fill=1)


def _picture(draw: ImageDraw.ImageDraw, screen: S.Screen) -> None:
    small = font("5x8")
    half = WIDTH - S.PICTURE_SIZE
    draw.rectangle((0, 0, half - 2, 8), fill=1)
    draw.text((1, 1), drawable(screen.title)[:S.PICTURE_COLS], font=small, fill=0)
    for i, line in enumerate(screen.lines[:S.PICTURE_ROWS]):
        draw.text((1, 11 + 9 * i), drawable(line)[:S.PICTURE_COLS], font=small, fill=1)
    draw.rectangle((half, 0, WIDTH - 1, S.PICTURE_SIZE - 1), fill=1)
    rows, scale = screen.picture or (), screen.picture_scale
    if not rows:
        return
    x0 = half + (S.PICTURE_SIZE - scale * max(len(r) for r in rows)) // 2
    y0 = (S.PICTURE_SIZE - scale * len(rows)) // 2
    for y, row in enumerate(rows):
        for x, cell in enumerate(row):
            if cell == "1":
                left, top = x0 + scale * x, y0 + scale * y
                draw.rectangle((left, top, left + scale - 1, top + scale - 1), fill=0)


def _entry(draw: ImageDraw.ImageDraw, screen: S.Screen) -> None:
    small = font("5x8")
    h = screen.header
    if h is not None:  # bar, line, labels and values: pages 0-3, a page each
        _bar(draw, h.left, h.right)
        draw.text((1, _row_y(0)), drawable(h.line)[:S.SMALL_COLS], font=small, fill=1)
        if h.columns:
            w = WIDTH // len(h.columns)
            for i, (label, value) in enumerate(h.columns):
                cx = w // 2 + 1 + i * w  # 5 columns: centres 13, 38, 63, 88, 113
                label, value = drawable(label), drawable(value)
                draw.text((cx - (5 * len(label)) // 2, _row_y(1)), label, font=small, fill=1)
                draw.text((cx - (5 * len(value)) // 2, _row_y(2)), value, font=small, fill=1)
        draw.line((0, 33, WIDTH - 1, 33), fill=1)
    if screen.entry is not None:  # the 9x15 glyphs' ink (rows 2-12) in pages 4 and 5, a pixel spare each way
        draw.text((1, 34), drawable(screen.entry)[:S.ENTRY_COLS], font=font("9x15B"), fill=1)
    if screen.hint:
        draw.text((1, _row_y(S.BODY_ROWS - 1)), drawable(screen.hint)[:S.SMALL_COLS], font=small, fill=1)
