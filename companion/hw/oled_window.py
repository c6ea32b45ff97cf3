"""Only what changed goes on the I2C bus: windowed updates for SSD1306-family and SH1106 OLEDs.

luma.oled's `display()` sends the whole frame for every change (8 pages of 128 bytes
plus commands, ~23 ms at 400 kHz) although a typed digit changes a few bytes. A
`WindowWriter` keeps the controller's RAM as it last sent it (in the controller's own
layout: a byte per column of each 8-row page, its lowest bit the top row) and, for the
next frame, sends per changed page only the runs of changed columns (runs closer than a
window's own cost joined): SSD1306 through its column and page address window (COLUMNADDR, PAGEADDR, in the
horizontal addressing mode luma's init sets), SH1106 through its page and column
address commands (page addressing; its RAM is 132 columns wide, luma's
`page_address_offset` of visible column 0 kept). The first frame after the device is
made (a new or re-plugged panel) is sent whole (an SSD1306's in one window, as luma's own `display()`
sends it); `forget()` asks for that again.

Frames go through the device's own `preprocess` (its rotation) first, exactly as
luma's `display()` does, so the panel shows the same picture.

The pixel shift against burn-in (`display(image, shift)`) is done where it costs
nothing: a move across the RAM's rows (up or down on the glass) by the controller's
display start line (0x40|n: RAM row n is shown on the first line, the rows wrap
around), so the RAM keeps the unmoved picture, aligned to its pages, with the one row
that wraps round cleared. The panel then shows exactly what drawing the moved picture
would show. A move along the rows is drawn. A panel that is not 64 rows high draws both.
"""

from __future__ import annotations

from typing import Any

from companion.hw.panel import shift_image

__all__ = ["WindowWriter", "changed_spans", "page_bytes", "supports", "writer_for"]

_REVERSED = bytes(int(f"{b:08b}"[::-1], 2) for b in range(256))  # MSB-first pixels -> LSB = top row


def supports(device: Any) -> bool:
    """True for the luma devices whose RAM windows this module knows: ssd1306 and its kin that
    draw as it does (ssd1309, ssd1315 ...: the same display()), and sh1106 (not sh1107: another
    page layout)."""
    if not type(device).__module__.startswith("luma.oled"):
        return False  # luma's dummy device and the others: nothing to import for them
    try:
        from luma.oled.device import sh1106, ssd1306
    except ImportError:  # pragma: no cover - luma.oled is a dependency
        return False
    for cls in (ssd1306, sh1106):
        if isinstance(cls, type) and isinstance(device, cls):  # (tests may stand in for the classes)
            # a kin that draws its own way (its own display()) keeps luma's whole-frame display
            return type(device).display is cls.display and getattr(device, "mode", None) == "1"
    return False


def writer_for(device: Any) -> "WindowWriter | None":
    """A WindowWriter for `device` when `supports` it, else None (luma's own display() then)."""
    return WindowWriter(device) if supports(device) else None


def page_bytes(image: Any, width: int, pages: int) -> bytes:
    """A 1-bit image (width x pages*8) in the controller's layout: page by page, a byte per column,
    bit 0 the page's top row (what luma's ssd1306.display builds pixel by pixel)."""
    from PIL import Image

    out = bytearray()
    for p in range(pages):
        strip = image.crop((0, p * 8, width, p * 8 + 8)).transpose(Image.Transpose.TRANSPOSE)
        out += strip.tobytes().translate(_REVERSED)  # one row of 8 pixels per column, top row first
    return bytes(out)


# A new window costs a command write (address, control, 3-6 command bytes) and a data write's
# address and control bytes: unchanged bytes shorter than this between two changes go along.
JOIN_GAP = 10


def changed_spans(row: bytes, before: bytes, gap: int = JOIN_GAP) -> list[tuple[int, int]]:
    """The (first, last) column spans where `row` differs from `before`, spans closer than `gap`
    joined (sending a few unchanged bytes is cheaper than opening another window)."""
    spans: list[tuple[int, int]] = []
    for i, (a, b) in enumerate(zip(row, before)):
        if a != b:
            if spans and i - spans[-1][1] <= gap:
                spans[-1] = (spans[-1][0], i)
            else:
                spans.append((i, i))
    return spans


class WindowWriter:
    """Shows frames on `device` (a luma ssd1306/sh1106) sending only the changed columns of each page."""

    def __init__(self, device: Any) -> None:
        from luma.oled.device import sh1106

        self.device = device
        self.width = device._w
        self.pages = device._h // 8
        self.sh1106 = isinstance(device, sh1106)
        self.shown: bytes | None = None  # what the controller's RAM holds, as we last sent it
        self.start_line = 0  # the controller's display start line: luma's init sets 0

    def forget(self) -> None:
        """The controller's RAM is unknown (cleared by someone else): the next frame goes whole."""
        self.shown = None

    def display(self, image: Any, shift: tuple[int, int] = (0, 0)) -> None:
        """Show `image` (the device's mode and size) moved by `shift` (dx right, dy down, as
        `companion.hw.panel.shift_image`): the changed windows only, or all of it first."""
        ram, start = self._placed(self.device.preprocess(image), shift)
        self._send(page_bytes(ram, self.width, self.pages))
        if start != self.start_line:
            self.device.command(0x40 | start)
            self.start_line = start

    def _placed(self, image: Any, shift: tuple[int, int]) -> tuple[Any, int]:
        """What the RAM gets for the rotated `image` moved by `shift`, and the start line."""
        dx, dy = shift
        across, down = _RAM_SHIFT[self.device.rotate % 4](dx, dy)  # the move in the RAM's own axes
        if not down or self.pages != 8:
            return shift_image(image, across, down), 0
        image = shift_image(image, across, 0).copy()
        image.paste(0, (0, 63 if down > 0 else 0, self.width, 64 if down > 0 else 1))  # the row that wraps
        return image, -down % 64

    def _send(self, buf: bytes) -> None:
        old, w = self.shown, self.width
        self.shown = None  # a write cut short leaves the RAM unknown
        if old is None and not self.sh1106:  # the whole RAM in one window, as luma's display() sends it
            self._window(0, 0, w - 1, self.pages - 1)
            self.device.data(list(buf))
            self.shown = buf
            return
        for p in range(self.pages):
            row = buf[p * w:(p + 1) * w]
            before = None if old is None else old[p * w:(p + 1) * w]
            if row == before:
                continue
            spans = [(0, w - 1)] if before is None else changed_spans(row, before)
            for first, last in spans:
                self._window(p, first, last)
                self.device.data(list(row[first:last + 1]))
        self.shown = buf

    def _window(self, page: int, first: int, last: int, last_page: int | None = None) -> None:
        d = self.device
        if self.sh1106:
            col = first + d._page_address_offset
            d.command(0xB0 | page, col & 0x0F, 0x10 | (col >> 4))
        else:
            start = getattr(d, "_colstart", 0)
            d.command(d._const.COLUMNADDR, start + first, start + last, d._const.PAGEADDR, page,
                      page if last_page is None else last_page)


# luma's preprocess turns the picture `rotate` quarter turns clockwise: a move (dx, dy) in the
# picture is this move in the RAM's columns and rows
_RAM_SHIFT = (lambda dx, dy: (dx, dy), lambda dx, dy: (-dy, dx), lambda dx, dy: (-dx, -dy),
              lambda dx, dy: (dy, -dx))
