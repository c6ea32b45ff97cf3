"""The terminal screen: the cell mode chosen from the terminal's size, braille keeping every pixel,
the legend, and the one line that says when nothing fits."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from companion.hw.terminal_sink import TerminalSink
from companion.hw.terminal_screen import BRAILLE_BITS, choose_cells, frame_size, legend, render


class TtyOut(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize("columns, rows, mode, fits", [
    (200, 60, "half", True),       # a big window: half blocks
    (130, 36, "half", True),       # exactly enough for half blocks, legend and cursor line
    (129, 36, "quad", True),       # one column short: quadrants
    (130, 35, "braille", True),    # one row short of the 34-row frame + 2: braille
    (80, 24, "braille", True),     # the classic terminal: the whole screen in braille
    (66, 20, "braille", True),     # the smallest that holds it
    (65, 24, "braille", False),    # too narrow: nothing fits
    (80, 19, "braille", False),    # too low
    (40, 10, "braille", False),
])
def test_mode_from_the_terminal_size(columns, rows, mode, fits):
    assert choose_cells(columns, rows, 128, 64) == (mode, fits)


def random_frame(seed: int) -> Image.Image:
    rng = random.Random(seed)
    img = Image.new("1", (128, 64))
    for _ in range(3000):
        img.putpixel((rng.randrange(128), rng.randrange(64)), 1)
    return img


def decode_braille(lines: list[str], width: int, height: int) -> Image.Image:
    decoded = Image.new("1", (width, height))
    for row, line in enumerate(lines[1:-1]):
        for col, ch in enumerate(line[1:-1]):
            bits = ord(ch) - 0x2800
            assert 0 <= bits <= 0xFF, ch
            for (dx, dy), bit in BRAILLE_BITS.items():
                x, y = 2 * col + dx, 4 * row + dy
                if x < width and y < height:
                    decoded.putpixel((x, y), 1 if bits & bit else 0)
    return decoded


@pytest.mark.parametrize("seed", range(3))
def test_braille_maps_every_pixel(seed):
    img = random_frame(seed)
    lines = render(img, "braille")
    assert len(lines) == 16 + 2 and all(len(line) == 64 + 2 for line in lines)
    assert (len(lines[0]), len(lines)) == frame_size("braille", 128, 64)
    assert decode_braille(lines, 128, 64).tobytes() == img.tobytes()


def test_braille_dot_order_is_unicode_s():
    """Dots 1-2-3 down the left, 4-5-6 down the right, 7 and 8 at the bottom (U+28FF: all eight)."""
    img = Image.new("1", (2, 4))
    img.putpixel((0, 0), 1)
    assert render(img, "braille")[1] == "\u2502\u2801\u2502"
    img.putpixel((1, 3), 1)
    assert render(img, "braille")[1] == "\u2502\u2881\u2502"
    assert render(Image.new("1", (2, 4), 1), "braille")[1] == "\u2502\u28ff\u2502"


def test_an_80x24_terminal_shows_the_whole_screen_and_the_legend():
    out = TtyOut()
    sink = TerminalSink(128, 64, out, size=lambda: (80, 24))
    img = random_frame(7)
    sink.show(img)
    lines = out.getvalue().rstrip("\n").split("\n")
    assert sink.cells == "braille" and len(lines) + 1 <= 24
    assert lines[-1] == legend() and len(legend()) <= 66
    assert decode_braille(lines[:-1], 128, 64).tobytes() == img.tobytes()


def test_when_nothing_fits_one_line_says_so_and_the_mode_follows_a_resize():
    size = [60, 15]
    out = TtyOut()
    sink = TerminalSink(128, 64, out, size=lambda: tuple(size))
    sink.show(random_frame(1))
    assert out.getvalue() == "Terminal 60x15 is too small: the screen needs 66x20.\n"  # that line alone
    assert not sink.fits
    size[:] = [200, 60]                    # the window grew
    sink.show(random_frame(2))
    assert sink.cells == "half" and sink.fits
    assert "too small" not in out.getvalue().split("\x1b[J")[-1]


def test_fixed_modes_and_a_bad_one():
    assert TerminalSink(128, 64, TtyOut(), cells="braille", size=lambda: (300, 100)).cells == "braille"
    with pytest.raises(ValueError, match="cells"):
        TerminalSink(128, 64, io.StringIO(), cells="tiny")


def test_the_legend_names_the_keys_the_terminal_reads():
    from companion.hw.terminal import KeyDecoder
    from companion.table.keys import BACK, DOWN, MENU, OK, QUIT, REPEAT, UNDO, UP

    d = KeyDecoder(tty=True)
    assert d.feed(b"\r\x7f\x1b[A\x1b[Bumrq") == [OK, BACK, UP, DOWN, UNDO, MENU, REPEAT, QUIT]
    for word in ("Enter=#", "Esc/Bksp=*", "Up/Down=A/B", "u=undo", "m=menu", "r=again", "q=quit"):
        assert word in legend()


def test_a_dimmed_or_dark_panel_shows_as_such_on_the_terminal():
    """On a terminal no contrast can be seen: dimmed is drawn faint and says the next key counts,
    dark is drawn blank and says the next key only wakes it (the Panel tells the sink)."""
    from companion.hw.panel import Panel
    from companion.hw.terminal_screen import idle_note

    class Clock:
        t = 0.0

        def __call__(self):
            return self.t

    out, clock = TtyOut(), Clock()
    sink = TerminalSink(128, 64, out, size=lambda: (80, 24))
    panel = Panel(sink, dim_after=60, off_after=600, clock=clock)
    img = random_frame(3)
    panel.show(img)
    clock.t = 61
    panel.tick()
    shown = out.getvalue().split("\x1b[J")[-1].rstrip("\n").split("\n")
    assert shown[-1] == idle_note("dim") and all(line.startswith("\x1b[2m") for line in shown[:-1])
    assert panel.key() is False  # a dimmed panel was readable: the key counts
    shown = out.getvalue().split("\x1b[J")[-1].rstrip("\n").split("\n")
    assert shown[-1] == legend() and decode_braille(shown[:-1], 128, 64).tobytes() == img.tobytes()
    clock.t = 700
    panel.tick()
    shown = out.getvalue().split("\x1b[J")[-1].rstrip("\n").split("\n")
    assert shown[-1] == idle_note("off") and "\u28ff" not in "".join(shown) and "\u2801" not in "".join(shown)
    assert panel.key() is True  # dark: the key only wakes it


def test_a_pipe_gets_each_screens_words_once_as_text():
    from companion.table.render import render
    from companion.table.screen import text_screen

    out = io.StringIO()
    sink = TerminalSink(128, 64, out, size=lambda: (80, 24), tty=False)
    first = render(text_screen("a", "Village on 14", ["Remove the single green hut."]))
    sink.show(first)
    sink.set_shift(1, 0)  # the same screen moved (burn-in care): nothing new to say
    sink.show(render(text_screen("b", "P2 to move", [])))
    assert out.getvalue() == "Village on 14\nRemove the single green\nhut.\n\nP2 to move\n\n"  # the OLED's lines
    sink.show(random_frame(6))  # a frame without words (drawn by hand): its pixels, in half blocks
    assert "\u2580" in out.getvalue() or "\u2584" in out.getvalue()


def test_a_closed_pipe_drops_frames_quietly(caplog):
    """`companion run | head -1`: the reader left; no warning on the table's stderr, the game goes on."""

    class Closed(io.StringIO):
        def write(self, text):
            raise BrokenPipeError(32, "Broken pipe")

    sink = TerminalSink(128, 64, Closed(), size=lambda: (80, 24), tty=False)
    with caplog.at_level("WARNING", logger="companion.hw.display"):
        sink.show(random_frame(4))
        sink.show(random_frame(5))
    assert caplog.records == []
