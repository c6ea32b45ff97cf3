"""Only what changed goes on the bus, and the panel still shows exactly the frame: the real luma
ssd1306 / sh1106 classes on a fake I2C bus whose controller model applies every command and data
byte to its own RAM (companion.hw.fake_oled), compared with the frame after every key of a whole
scripted game, after a contrast change, after the panel is unplugged and a new one plugged in,
and after power saving switched it off and on."""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageChops, ImageDraw

from companion.kiosk import loop
from companion.box.config import DisplayConfig
from companion.games import GAMES
from companion.games.clans.controller import Controller
from companion.hw.display import open_display
from companion.hw.fake_oled import FakeOledBus, fake_device
from companion.hw.oled_window import WindowWriter
from companion.hw.oled_window import page_bytes
from companion.hw.panel import SHIFT_EVERY_S, SHIFTS, Panel, shift_image
from companion.table.shell import Shell
from tests.support import full_game_script


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a.convert("1"), b.convert("1")).getbbox() is None


class Rig:
    """A daemon whose panel is a real luma device on a fake bus (a new bus for a new panel)."""

    def __init__(self, chip: str, rotate: int, seed: int, pixel_shift: bool = False) -> None:
        self.chip, self.rotate = chip, rotate
        self.bus = FakeOledBus(chip)
        self.clock = Clock()
        self.sink = open_display(DisplayConfig(driver=chip, rotate=rotate, retry_seconds=1),
                                 device_factory=self.plug, clock=self.clock)
        idle = (None, None) if pixel_shift else (60, 120)
        self.panel = Panel(self.sink, dim_after=idle[0], off_after=idle[1], pixel_shift=pixel_shift, clock=self.clock)
        shell = Shell(list(GAMES.values()), "clans", Controller.quick_start(3, random.Random(seed)), random.Random(0))
        self.d = loop.Daemon(shell, self.panel, headless=True, clock=self.clock)
        self.d.show()

    def plug(self):
        device = fake_device(self.bus, self.rotate)
        self.bus.ram[:] = random.Random(5).randbytes(len(self.bus.ram))  # nothing may rely on what init sent
        return device

    def shows_the_frame(self) -> bool:
        """The panel shows the last frame, moved by the sink's pixel shift as drawing it would."""
        device = self.sink.device
        return same(self.bus.image(), device.preprocess(shift_image(self.sink._fit(self.sink._last), *self.sink.shift)))


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
@pytest.mark.parametrize("rotate", [0, 2])
def test_the_panel_shows_exactly_every_frame_of_a_whole_game(chip, rotate):
    rig = Rig(chip, rotate, seed=3)
    assert rig.shows_the_frame()  # a new panel (garbage in its RAM) got its first frame whole
    script, _, _ = full_game_script(3, 3)
    sent, keys = [], 0
    for key in script.replace("\n", ""):
        before = rig.bus.bytes_sent
        rig.d.step(key)
        keys += 1
        sent.append(rig.bus.bytes_sent - before)
        assert rig.shows_the_frame(), f"after key {keys} ({key!r})"
    assert keys > 100
    print(f"{chip} rotate {rotate}: {keys} keys, mean {sum(sent) / keys:.0f} bytes, most {max(sent)}")


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
def test_contrast_unplugging_and_power_saving_keep_the_picture(chip):
    rig = Rig(chip, 2, seed=4)
    for key in "12#":
        rig.d.step(key)
    rig.panel.set_brightness(2)  # contrast only: no pixel resent
    assert rig.bus.contrast is not None and rig.shows_the_frame()
    rig.bus.gone = True  # the cable comes loose: the next frame fails, the sink drops the device
    rig.d.step("1")
    assert rig.sink.device is None
    rig.bus = FakeOledBus(chip)  # another panel is plugged in, its RAM full of noise
    rig.clock.t += 2
    rig.d.step("3")
    assert rig.sink.device is not None and rig.shows_the_frame()  # re-made: the whole frame again
    rig.d.step("#")
    assert rig.shows_the_frame()
    rig.clock.t += 200
    rig.panel.tick()  # idle: dimmed, then switched off (the controller keeps its RAM)
    assert rig.bus.on is False
    rig.d.step("*")  # the key that wakes it is swallowed; the picture is still the frame
    assert rig.bus.on is True and rig.shows_the_frame()
    rig.d.step("5")
    assert rig.shows_the_frame()


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
@pytest.mark.parametrize("rotate", [0, 1, 2, 3])
def test_the_pixel_shift_shows_the_moved_frame_through_a_whole_game(chip, rotate):
    rig = Rig(chip, rotate, seed=5, pixel_shift=True)
    script, _, _ = full_game_script(3, 5)
    seen = set()
    for keys, key in enumerate(script.replace("\n", "")):
        if keys % 15 == 14:  # the panel moves the picture on round its square
            rig.clock.t += SHIFT_EVERY_S
            rig.panel.tick()
            seen.add(rig.sink.shift)
            assert rig.shows_the_frame(), f"after the shift to {rig.sink.shift}"
        rig.d.step(key)
        assert rig.shows_the_frame(), f"after key {keys + 1} ({key!r}), shift {rig.sink.shift}"
    assert seen == set(SHIFTS)


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
@pytest.mark.parametrize("rotate", [0, 2])
def test_a_move_up_or_down_keeps_the_ram_aligned_to_its_pages(chip, rotate):
    """The controller moves the rows (display start line): its RAM keeps the unmoved picture,
    the wrapping row cleared, so a key costs what it costs unmoved."""
    plain, moved = Rig(chip, rotate, seed=6), Rig(chip, rotate, seed=6)
    moved.sink.set_shift(0, 1)
    assert moved.bus.start_line in (1, 63) and moved.shows_the_frame()
    script, _, _ = full_game_script(2, 6)
    cost = {id(plain): 0, id(moved): 0}
    for key in script.replace("\n", "")[:150]:
        for rig in (plain, moved):
            before = rig.bus.bytes_sent
            rig.d.step(key)
            cost[id(rig)] += rig.bus.bytes_sent - before
        assert moved.shows_the_frame()
        unmoved = moved.sink.device.preprocess(moved.sink._fit(moved.sink._last)).copy()
        wrap = 63 if moved.bus.start_line == 63 else 0
        unmoved.paste(0, (0, wrap, 128, wrap + 1))
        visible = moved.bus.ram if chip == "ssd1306" else bytes(
            b for p in range(8) for b in moved.bus.ram[p * 132 + 2:p * 132 + 130])
        assert visible == page_bytes(unmoved, 128, 8)
    assert cost[id(moved)] <= cost[id(plain)] * 1.02
    moved.bus.gone = True  # unplugged: the next move fails and the sink drops the device
    moved.sink.set_shift(1, 1)
    assert moved.sink.device is None
    moved.bus = FakeOledBus(chip)  # a new panel (luma's init: line 0) gets the moved frame whole
    moved.clock.t += 2
    moved.panel.tick()
    assert moved.sink.device is not None and moved.bus.start_line in (1, 63) and moved.shows_the_frame()


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
@pytest.mark.parametrize("rotate", [0, 2])
def test_the_row_that_leaves_the_moved_picture_does_not_come_back_round(chip, rotate):
    bus = FakeOledBus(chip)
    writer = WindowWriter(fake_device(bus, rotate))
    frame = Image.new("1", (128, 64))
    ImageDraw.Draw(frame).rectangle((0, 0, 127, 63), outline=1)  # the top and bottom rows lit
    for shift in ((0, 1), (1, 1), (0, 0), (0, 1)):
        writer.display(frame, shift)
        assert same(bus.image(), writer.device.preprocess(shift_image(frame, *shift))), shift
    assert bus.start_line in (1, 63)


def test_a_typed_digit_costs_tens_of_bytes_not_a_frame():
    bus = FakeOledBus("ssd1306")
    writer = WindowWriter(fake_device(bus))
    frame = Image.new("1", (128, 64))
    ImageDraw.Draw(frame).text((2, 2), "> 1", fill=1)
    writer.display(frame)
    full = bus.bytes_sent
    ImageDraw.Draw(frame).text((20, 2), "2", fill=1)
    start = bus.bytes_sent
    writer.display(frame)
    assert 0 < bus.bytes_sent - start < 64 and same(bus.image(), frame)
    assert full > 1024
    writer.forget()  # someone cleared the panel: the next frame goes whole
    start = bus.bytes_sent
    writer.display(frame)
    assert bus.bytes_sent - start > 1024


def test_only_the_controllers_it_knows_get_windows():
    from luma.core.interface.serial import i2c
    from luma.oled.device import sh1107, ssd1306

    from companion.hw.oled_window import supports

    class OwnWay(ssd1306):
        def display(self, image):  # a kin that draws its own way keeps luma's display()
            super().display(image)

    assert supports(fake_device(FakeOledBus("ssd1306"))) and supports(fake_device(FakeOledBus("sh1106")))
    assert not supports(OwnWay(i2c(bus=FakeOledBus(), address=0x3C)))
    assert not supports(sh1107(i2c(bus=FakeOledBus(), address=0x3C), width=128, height=128))


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106"])
def test_the_fake_bus_carries_data_as_luma_sends_it_on_the_box(chip):
    """luma opens the box's bus itself (managed): a data() call is one transfer, however long;
    a bus handed to luma gets 32-byte blocks. Either way the RAM ends up the same."""
    frame = Image.new("1", (128, 64))
    ImageDraw.Draw(frame).text((4, 20), "Clans 12#13#", fill=1)
    counts = {}
    for managed in (True, False):
        bus = FakeOledBus(chip)
        device = fake_device(bus, managed=managed)
        writes, sent = bus.writes, bus.bytes_sent
        device.display(frame)  # luma's own whole frame
        counts[managed] = (bus.writes - writes, bus.bytes_sent - sent)
        assert same(bus.image(), frame)
    pages = 8
    commands = 1 if chip == "ssd1306" else pages  # one window, or a page address per page
    data = 1 if chip == "ssd1306" else pages  # one transfer per data() call
    assert counts[True][0] == commands + data
    assert counts[False][0] == commands + 1024 // 32
    assert counts[True][1] < counts[False][1]


def test_a_new_ssd1306_gets_its_first_frame_in_one_window_as_luma_would_send_it():
    frame = Image.new("1", (128, 64))
    ImageDraw.Draw(frame).rectangle((0, 0, 127, 8), fill=1)
    luma_bus, bus = FakeOledBus("ssd1306"), FakeOledBus("ssd1306")
    luma_device = fake_device(luma_bus)
    before = luma_bus.bytes_sent
    luma_device.display(frame)
    luma_frame = luma_bus.bytes_sent - before
    writer = WindowWriter(fake_device(bus))
    before = bus.bytes_sent
    writer.display(frame)
    assert bus.bytes_sent - before == luma_frame == 2 + 6 + 2 + 1024  # COLUMNADDR/PAGEADDR, then the data
    assert same(bus.image(), frame)
