"""The panel between frames and the display: brightness -> contrast, idle dim and off
(the waking key is swallowed), pixel shift against burn-in."""

from __future__ import annotations

from PIL import Image, ImageDraw

from companion.box.config import load_config_text
from companion.hw.panel import CONTRAST, SHIFT_EVERY_S, Panel, shift_image

from conftest import Clock


class RecordingSink:
    """A display sink that keeps what it was asked."""

    def __init__(self) -> None:
        self.frames: list[Image.Image] = []
        self.contrast: list[int] = []
        self.power: list[bool] = []
        self.shifts: list[tuple[int, int]] = []
        self.ticks = 0

    def show(self, image, force=False):
        self.frames.append(image)

    def set_contrast(self, level):
        self.contrast.append(level)

    def set_power(self, on):
        self.power.append(on)

    def set_shift(self, dx, dy):
        self.shifts.append((dx, dy))

    def tick(self):
        self.ticks += 1

    def close(self, blank=False):
        pass


def frame() -> Image.Image:
    image = Image.new("1", (128, 64), 0)
    ImageDraw.Draw(image).rectangle((10, 10, 40, 30), fill=1)
    return image


def panel(text: str = "", headless: bool = False) -> tuple[Panel, RecordingSink, Clock]:
    cfg = load_config_text(text or "idle_dim_seconds: 60\nidle_off_seconds: 600\npixel_shift: true\n")
    sink, clock = RecordingSink(), Clock()
    p = Panel.from_config(sink, cfg, headless=headless, brightness=4, clock=clock)
    p.show(frame())
    return p, sink, clock


def test_idle_dims_then_turns_off_and_the_waking_key_is_swallowed():
    p, sink, clock = panel()
    clock.t += 59
    p.tick()
    assert p.idle == "awake" and sink.contrast == [] and sink.ticks == 1
    clock.t += 2
    p.tick()
    assert p.idle == "dim" and sink.contrast[-1] == p.dim_contrast
    clock.t += 600
    p.tick()
    assert p.idle == "off" and sink.power == [False]
    assert p.key() is True  # wakes the panel only
    assert p.idle == "awake" and sink.power == [False, True] and sink.contrast[-1] == CONTRAST[3]
    assert p.key() is False  # now keys count


def test_the_first_key_on_a_dimmed_panel_counts():
    """Dimmed, the screen was still readable: the key wakes it and is not swallowed."""
    p, sink, clock = panel()
    clock.t += 61
    p.tick()
    assert p.idle == "dim"
    assert p.key() is False
    assert p.idle == "awake" and sink.contrast[-1] == CONTRAST[3] and sink.power == []


def test_brightness_sets_the_contrast_unless_dimmed():
    p, sink, clock = panel()
    p.start()
    p.set_brightness(2)
    assert sink.contrast == [CONTRAST[3], CONTRAST[1]]
    clock.t += 61
    p.tick()
    p.set_brightness(5)  # dimmed: kept for the wake-up
    assert sink.contrast[-1] == p.dim_contrast
    p.key()
    assert sink.contrast[-1] == CONTRAST[4]


def test_pixel_shift_moves_the_picture_round_a_square_now_and_then():
    p, sink, clock = panel()
    clock.t += SHIFT_EVERY_S - 1
    p.tick()
    assert sink.shifts == []
    for _ in range(5):
        clock.t += SHIFT_EVERY_S
        p.tick()
    assert sink.shifts == [(1, 0), (1, 1), (0, 1), (0, 0), (1, 0)]  # the sink moves its frames
    p.show(frame())
    assert len(sink.frames) == 2 and sink.frames[-1].tobytes() == frame().tobytes()  # drawn unmoved


def test_shift_image_moves_the_picture_and_loses_what_leaves_it():
    moved = shift_image(frame(), 1, 0)
    # column x of the moved picture is column x-1 of the frame; column 0 is dark
    assert [moved.getpixel((x, 20)) for x in range(1, 128)] == [frame().getpixel((x, 20)) for x in range(127)]
    assert all(moved.getpixel((0, y)) == 0 for y in range(64))
    down, up = shift_image(frame(), 0, 1), shift_image(frame(), 0, -1)
    assert down.getbbox() == (10, 11, 41, 32) and up.getbbox() == (10, 9, 41, 30)
    assert shift_image(frame(), 0, 0).tobytes() == frame().tobytes()


def test_no_pixel_shift_nor_dimming_when_disabled_or_headless():
    for p, sink, clock in (panel("pixel_shift: false\nidle_dim_seconds: null\nidle_off_seconds: null\n"),
                           panel(headless=True)):
        clock.t += 10 * SHIFT_EVERY_S
        p.tick()
        assert len(sink.frames) == 1 and p.idle == "awake" and sink.contrast == [] and sink.shifts == []
