"""Display sinks: luma devices (real classes on a fake bus), faults, terminal, png."""

from __future__ import annotations

import errno
import io
import logging

import pytest

pytest.importorskip("luma.oled")
from luma.core.device import dummy  # noqa: E402
from luma.core.error import DeviceNotFoundError  # noqa: E402
from luma.core.interface.serial import noop  # noqa: E402
import luma.oled.device  # noqa: E402
from PIL import Image, ImageDraw  # noqa: E402

from companion.box.config import Config, DisplayConfig  # noqa: E402
from companion.hw.display import open_display  # noqa: E402

SETCONTRAST = 0x81


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


class BusRecorder:
    """A luma serial interface that records what is sent to the panel."""

    def __init__(self, fail_with: BaseException | None = None) -> None:
        self.commands: list[tuple[int, ...]] = []
        self.sent: list[bytes] = []
        self.cleaned = False
        self.fail_with = fail_with

    def command(self, *cmd: int) -> None:
        if self.fail_with is not None:
            raise self.fail_with
        self.commands.append(cmd)

    def data(self, data) -> None:
        self.sent.append(bytes(data))

    def cleanup(self) -> None:
        self.cleaned = True


def frame(text: str, size=(128, 64)) -> Image.Image:
    img = Image.new("1", size)
    d = ImageDraw.Draw(img)
    d.text((2, 2), text, fill=1)
    d.rectangle((0, 0, size[0] - 1, size[1] - 1), outline=1)
    return img


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.mode == b.mode and a.size == b.size and a.tobytes() == b.tobytes()


# --- dummy and real luma classes ---------------------------------------------

def test_dummy_shows_the_image():
    sink = open_display(Config(display=DisplayConfig(driver="dummy")))
    img = frame("12#13#")
    sink.show(img)
    assert isinstance(sink.device, dummy)
    assert same(sink.device.image, img)
    other = frame("villages")
    sink.show(other)
    assert same(sink.device.image, other)
    assert sink.frames_shown == 2


def test_dummy_converts_mode_and_applies_rotation():
    sink = open_display(DisplayConfig(driver="dummy", rotate=2))
    img = frame("upside down")
    sink.show(img.convert("RGB"))
    assert sink.device.image.mode == "1"
    assert same(sink.device.image, img.rotate(180))
    assert not same(sink.device.image, img)


def test_identical_frames_are_skipped_unless_forced():
    sink = open_display(DisplayConfig(driver="dummy"))
    img = frame("x")
    sink.show(img)
    sink.show(img.copy())
    assert sink.frames_shown == 1
    sink.show(img, force=True)
    assert sink.frames_shown == 2


@pytest.mark.parametrize("driver, cls", [("ssd1306", luma.oled.device.ssd1306),
                                         ("sh1106", luma.oled.device.sh1106)])
def test_oled_classes_get_port_address_rotate_contrast(driver, cls):
    bus = BusRecorder()
    opened = []

    def serial_factory(port, address):
        opened.append((port, address))
        return bus

    cfg = DisplayConfig(driver=driver, port=3, address=0x3D, rotate=1, contrast=77)
    sink = open_display(cfg, serial_factory=serial_factory)
    assert type(sink.device) is cls
    assert opened == [(3, 0x3D)]
    assert sink.device.rotate == 1
    assert sink.size == (64, 128)          # quarter turn: draw portrait
    assert sink.device.persist is True     # a restart must not blank it
    assert bus.commands[-1] == (SETCONTRAST, 77)
    sink.set_contrast(9)
    assert bus.commands[-1] == (SETCONTRAST, 9)
    bus.sent.clear()
    sink.show(frame("portrait", size=(64, 128)))
    assert sum(len(b) for b in bus.sent) == 128 * 64 // 8
    sink.close()
    assert bus.cleaned
    assert bus.commands[-1] == (sink_off := cls(noop())._const.DISPLAYOFF,) and sink_off


def test_oled_with_luma_noop_interface():
    sink = open_display(DisplayConfig(driver="sh1106"), serial_factory=lambda p, a: noop())
    assert isinstance(sink.device, luma.oled.device.sh1106)
    assert sink.size == (128, 64)
    sink.show(frame("ok"))
    assert sink.frames_shown == 1


def test_missing_panel_probe_frees_the_bus_and_retries():
    clock = Clock()
    buses = []

    def serial_factory(port, address):
        buses.append(BusRecorder(fail_with=DeviceNotFoundError("I2C device not found on address: 0x3C")))
        return buses[-1]

    sink = open_display(DisplayConfig(driver="ssd1306", address=0x3C, retry_seconds=5),
                        serial_factory=serial_factory, clock=clock)
    assert sink.device is None
    assert len(buses) == 1 and buses[0].cleaned
    sink.show(frame("a"))
    clock.t += 4
    sink.tick()
    assert len(buses) == 1                 # not before retry_seconds
    clock.t += 1
    sink.tick()
    assert len(buses) == 2 and buses[1].cleaned


# --- any luma.oled driver; the address probed when not configured (issue 12) ---

class I2CBus:
    """Stands for /dev/i2c-N: one BusRecorder per luma i2c() call; a panel answers
    only at the addresses in `present` (elsewhere the no-op fails as luma's i2c does)."""

    def __init__(self, present: set[int]) -> None:
        self.present = present
        self.opened: list[tuple[int, int, BusRecorder]] = []

    def __call__(self, port: int, address: int) -> BusRecorder:
        fail = None if address in self.present else DeviceNotFoundError(
            f"I2C device not found on address: 0x{address:02X}")
        self.opened.append((port, address, BusRecorder(fail_with=fail)))
        return self.opened[-1][2]

    def addresses(self) -> list[int]:
        return [a for _, a, _ in self.opened]


@pytest.mark.parametrize("driver", luma.oled.device.__all__)
def test_every_luma_oled_driver_is_made_by_name(driver):
    cls = getattr(luma.oled.device, driver)
    made = []

    def fake(serial, **kwargs):
        made.append((serial, kwargs))
        return dummy(width=128, height=64, mode="1", serial_interface=serial)

    bus = I2CBus({0x3C})
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(luma.oled.device, driver, fake)
        sink = open_display(DisplayConfig(driver=driver, port=1), serial_factory=bus)
    assert cls is not None and len(made) == 1
    assert made[0][1] == {"width": 128, "height": 64, "rotate": 0}
    assert sink.address == 0x3C and bus.addresses() == [0x3C]


@pytest.mark.parametrize("driver, cls", [("ssd1309", luma.oled.device.ssd1309),
                                         ("ssd1315", luma.oled.device.ssd1315),
                                         ("sh1107", luma.oled.device.sh1107)])
def test_other_oled_classes_for_real_on_a_recording_bus(driver, cls):
    bus = I2CBus({0x3D})
    height = 128 if driver == "sh1107" else 64
    sink = open_display(DisplayConfig(driver=driver, height=height), serial_factory=bus)
    assert type(sink.device) is cls
    sink.show(frame("x", size=sink.size))
    assert sink.frames_shown == 1


def test_no_address_probes_3c_then_3d_and_remembers_the_answer():
    clock = Clock()
    bus = I2CBus({0x3D})
    sink = open_display(DisplayConfig(driver="ssd1306", retry_seconds=1),
                        serial_factory=bus, clock=clock)
    assert isinstance(sink.device, luma.oled.device.ssd1306)
    assert bus.addresses() == [0x3C, 0x3D] and sink.address == 0x3D
    assert bus.opened[0][2].cleaned and not bus.opened[1][2].cleaned   # the silent one is freed
    # unplugged, then back: the address that answered is tried first
    sink._drop(OSError(errno.EREMOTEIO, "Remote I/O error"))
    clock.t += 1
    sink.tick()
    assert bus.addresses()[2:] == [0x3D] and sink.device is not None


def test_no_address_and_no_panel_anywhere_keeps_retrying_both():
    clock = Clock()
    bus = I2CBus(set())
    sink = open_display(DisplayConfig(driver="sh1106", retry_seconds=1),
                        serial_factory=bus, clock=clock)
    assert sink.device is None and sink.address is None
    assert bus.addresses() == [0x3C, 0x3D] and all(b.cleaned for _, _, b in bus.opened)
    bus.present.add(0x3C)
    clock.t += 1
    sink.tick()
    assert sink.device is not None and sink.address == 0x3C


def test_configured_address_is_the_only_one_tried():
    bus = I2CBus({0x3C})
    sink = open_display(DisplayConfig(driver="ssd1306", address=0x3D), serial_factory=bus)
    assert sink.device is None and bus.addresses() == [0x3D]


def test_missing_bus_is_not_probed_twice():
    from companion.hw.display import find_oled

    calls = []

    def no_bus(port, address):
        calls.append(address)
        raise DeviceNotFoundError("I2C device not found: /dev/i2c-1")

    with pytest.raises(DeviceNotFoundError):
        find_oled(1, serial_factory=no_bus)
    assert calls == [0x3C]


def test_probe_treats_raw_remote_io_error_as_no_answer():
    from companion.hw.display import find_oled

    def factory(port, address):
        return BusRecorder(fail_with=OSError(errno.EREMOTEIO, "Remote I/O error") if address == 0x3C else None)

    address, serial = find_oled(1, serial_factory=factory)
    assert address == 0x3D and not serial.cleaned


# --- shutting down blanks the panel (issue 12) ----------------------------------

def test_close_clears_and_switches_an_oled_off_before_releasing_it():
    bus = BusRecorder()
    dev = dummy(width=128, height=64, mode="1", serial_interface=bus)
    sink = open_display(DisplayConfig(driver="ssd1306"), device_factory=lambda: dev)
    sink.show(frame("game over"))
    assert dev.image.getbbox() is not None
    sink.close()
    assert dev.image.getbbox() is None                 # the last frame is blank
    assert bus.commands[-1] == (dev._const.DISPLAYOFF,)  # then display-off
    assert bus.cleaned and sink.device is None and sink.powered is False
    sink.close()                                       # twice is harmless


def test_close_on_a_real_class_sends_blank_data_then_display_off():
    bus = BusRecorder()
    sink = open_display(DisplayConfig(driver="sh1106"), serial_factory=lambda p, a: bus)
    sink.show(frame("x"))
    bus.sent.clear()
    sink.close()
    assert bus.sent and not any(any(chunk) for chunk in bus.sent)   # all-zero pages
    assert bus.commands[-1] == (luma.oled.device.sh1106(noop())._const.DISPLAYOFF,)
    assert bus.cleaned


def test_close_on_a_vanished_panel_still_releases_it():
    class Gone(BusRecorder):
        def data(self, data):
            raise OSError(errno.EREMOTEIO, "Remote I/O error")

    bus = Gone()
    dev = dummy(width=128, height=64, mode="1", serial_interface=bus)
    dev.display = bus.data                             # every write fails like a pulled cable
    sink = open_display(DisplayConfig(driver="ssd1306"), device_factory=lambda: dev)
    sink.close()                                       # never raises
    assert bus.cleaned


def test_dummy_driver_keeps_its_last_frame_unless_asked():
    sink = open_display(DisplayConfig(driver="dummy"))
    img = frame("final")
    sink.show(img)
    dev = sink.device
    sink.close()
    assert same(dev.image, img)                        # headless runs read it afterwards
    sink2 = open_display(DisplayConfig(driver="dummy"))
    sink2.show(img)
    dev2 = sink2.device
    sink2.close(blank=True)
    assert dev2.image.getbbox() is None


# --- unplugging and plugging back -----------------------------------------

class Cable:
    plugged = True


class FlakyDummy(dummy):
    """luma's dummy that fails like an unplugged I2C OLED."""

    def __init__(self, cable: Cable, bus: BusRecorder) -> None:
        if not cable.plugged:
            raise DeviceNotFoundError("I2C device not found: /dev/i2c-1")
        self.cable = cable
        super().__init__(width=128, height=64, mode="1", serial_interface=bus)

    def display(self, image):
        if not self.cable.plugged:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        super().display(image)


@pytest.fixture
def flaky():
    cable, clock = Cable(), Clock()
    made: list[FlakyDummy] = []
    attempts = []
    buses: list[BusRecorder] = []

    def factory():
        attempts.append(clock.t)
        buses.append(BusRecorder())
        dev = FlakyDummy(cable, buses[-1])
        made.append(dev)
        return dev

    return cable, clock, factory, made, attempts, buses


def test_oserror_121_then_recovery_reshows_last_frame(flaky, caplog):
    cable, clock, factory, made, attempts, buses = flaky
    sink = open_display(DisplayConfig(driver="dummy", retry_seconds=5),
                        device_factory=factory, clock=clock)
    first = frame("move 1")
    sink.show(first)
    assert same(made[0].image, first)

    cable.plugged = False
    caplog.set_level(logging.DEBUG, logger="companion.hw.display")
    second = frame("move 2")
    sink.show(second)                      # must not raise
    assert sink.device is None
    for i in range(3):
        clock.t += 2
        sink.show(frame(f"move {3 + i}"))  # keeps failing quietly
    sink.set_contrast(40)                  # remembered while unplugged
    lost = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(lost) == 1 and "lost" in lost[0].getMessage()
    gaps = [b - a for a, b in zip(attempts, attempts[1:])]
    assert all(g >= 5 for g in gaps)       # at most one try per retry_seconds

    cable.plugged = True
    clock.t += 5
    sink.tick()                            # no new frame: tick reconnects
    assert sink.device is made[-1] and len(made) == 2
    assert same(made[-1].image, frame("move 5"))
    assert (SETCONTRAST, 40) in buses[-1].commands
    assert sink.reconnects == 1
    # and it goes on normally
    sink.show(frame("move 6"))
    assert same(made[-1].image, frame("move 6"))


def test_not_found_at_start_then_later_success(flaky):
    cable, clock, factory, made, attempts, _ = flaky
    cable.plugged = False
    sink = open_display(DisplayConfig(driver="dummy", retry_seconds=3),
                        device_factory=factory, clock=clock)
    assert sink.device is None and made == []
    waiting = frame("new game")
    sink.show(waiting)
    cable.plugged = True
    clock.t += 1
    sink.show(waiting)
    assert sink.device is None             # too early to retry
    clock.t += 2
    sink.show(waiting)                     # the same frame, now shown
    assert sink.device is made[0]
    assert same(made[0].image, waiting)
    assert len(attempts) == 2


def test_power_state_survives_reconnect(flaky):
    cable, clock, factory, made, _, buses = flaky
    sink = open_display(DisplayConfig(driver="dummy", retry_seconds=1),
                        device_factory=factory, clock=clock)
    sink.show(frame("a"))
    cable.plugged = False
    sink.show(frame("b"))
    sink.set_power(False)
    cable.plugged = True
    clock.t += 1
    sink.tick()
    hide = made[-1]._const.DISPLAYOFF
    assert (hide,) in buses[-1].commands


def test_unexpected_factory_error_is_logged_not_raised(caplog):
    def factory():
        raise RuntimeError("driver bug")

    sink = open_display(DisplayConfig(driver="dummy"), device_factory=factory, clock=Clock())
    sink.show(frame("x"))
    assert sink.device is None
    assert any("driver bug" in r.getMessage() or r.exc_info for r in caplog.records)


# --- terminal and png ------------------------------------------------------

class TtyOut(io.StringIO):
    """A StringIO that says it is a terminal."""

    def isatty(self):
        return True


def test_terminal_half_blocks_and_in_place_redraw():
    from companion.hw.terminal_sink import TerminalSink
    from companion.hw.terminal_screen import legend

    out = TtyOut()
    sink = TerminalSink(4, 4, out, size=lambda: (200, 60))
    assert sink.cells == "half"
    img = Image.new("1", (4, 4))
    for xy in [(0, 0), (1, 1), (2, 0), (2, 1), (3, 3)]:
        img.putpixel(xy, 1)
    sink.show(img)
    lines = out.getvalue().split("\n")
    assert lines[0] == "\u250c" + "\u2500" * 4 + "\u2510"
    assert lines[1] == "\u2502\u2580\u2584\u2588 \u2502"
    assert lines[2] == "\u2502   \u2584\u2502"
    assert lines[3] == "\u2514" + "\u2500" * 4 + "\u2518"
    assert lines[4] == legend()            # which keyboard keys are the keypad's
    first = out.getvalue()
    sink.show(img.copy())
    assert out.getvalue() == first         # identical frame: no output
    img2 = Image.new("1", (4, 4), 1)
    sink.show(img2)
    rest = out.getvalue()[len(first):]
    assert rest.startswith("\x1b[5A\r\x1b[J")    # back over the 5 lines drawn, cleared
    assert "\u2502\u2588\u2588\u2588\u2588\u2502" in rest


def test_terminal_into_a_pipe_writes_plain_frames_without_escape_codes():
    out = io.StringIO()                    # not a tty
    sink = open_display(DisplayConfig(driver="terminal", width=4, height=4), stream=out)
    sink.show(Image.new("1", (4, 4)))
    sink.show(Image.new("1", (4, 4), 1))
    text = out.getvalue()
    assert "\x1b" not in text
    frames = text.split("\n\n")
    assert len(frames) == 3 and frames[2] == ""
    assert frames[1].split("\n")[1] == "\u2502" + "\u2588" * 4 + "\u2502"


def test_terminal_broken_stream_never_raises():
    out = io.StringIO()
    sink = open_display(DisplayConfig(driver="terminal", width=8, height=8), stream=out)
    out.close()
    sink.show(Image.new("1", (8, 8), 1))
    assert sink.frames_shown == 0


def test_png_writes_only_changed_frames(tmp_path):
    d = tmp_path / "frames"
    sink = open_display(DisplayConfig(driver="png", frames_dir=str(d)))
    a, b = frame("a"), frame("b")
    for img in (a, a, b, b, b, a):
        sink.show(img)
    names = sorted(p.name for p in d.iterdir())
    assert names == ["frame_00001.png", "frame_00002.png", "frame_00003.png"]
    for name, expected in zip(names, (a, b, a)):
        with Image.open(d / name) as got:
            assert same(got.convert("1"), expected)
    # A second run numbers on instead of overwriting.
    sink2 = open_display(DisplayConfig(driver="png", frames_dir=str(d)))
    sink2.show(b)
    assert (d / "frame_00004.png").exists()


def test_terminal_quadrant_mode_keeps_every_pixel_in_66_columns():
    import random as _random

    from companion.hw.terminal_sink import TerminalSink

    rng = _random.Random(4)
    img = Image.new("1", (128, 64))
    for _ in range(2000):
        img.putpixel((rng.randrange(128), rng.randrange(64)), 1)
    sink = TerminalSink(128, 64, io.StringIO(), cells="quad")
    lines = sink.render(img)
    assert len(lines) == 32 + 2 and all(len(line) == 64 + 2 for line in lines)
    decoded = Image.new("1", (128, 64))
    for row, line in enumerate(lines[1:-1]):
        for col, ch in enumerate(line[1:-1]):
            bits = TerminalSink._QUAD.index(ch)
            for dx, dy, bit in ((0, 0, 8), (1, 0, 4), (0, 1, 2), (1, 1, 1)):
                decoded.putpixel((2 * col + dx, 2 * row + dy), 1 if bits & bit else 0)
    assert decoded.tobytes() == img.tobytes()
    with pytest.raises(ValueError, match="cells"):
        TerminalSink(128, 64, io.StringIO(), cells="tiny")


# --- show() never raises, whatever the sink -----------------------------------

class ExplodingStream(io.StringIO):
    def write(self, s):
        raise RuntimeError("a terminal library bug")


@pytest.mark.parametrize("driver", ["dummy", "terminal", "png", "ssd1306"])
def test_show_never_raises_on_a_bad_frame_or_a_sink_bug(driver, tmp_path, caplog):
    """The catch-all in show(): neither a frame that is not an image nor an unexpected
    exception inside a sink reaches the daemon's loop; the next good frame is shown."""
    cfg = DisplayConfig(driver=driver, frames_dir=str(tmp_path / "f"))
    sink = open_display(cfg, stream=ExplodingStream(), serial_factory=lambda p, a: noop())
    with caplog.at_level(logging.ERROR, logger="companion.hw.display"):
        sink.show(None)                   # not an image
        sink.show("frame")
        if driver == "terminal":
            sink.show(frame("x"))         # the stream raises something unexpected
    assert sink.frames_shown == 0
    assert any(r.exc_info for r in caplog.records)
    if driver != "terminal":
        sink.show(frame("after"))
        assert sink.frames_shown == 1


# --- the pixel shift against burn-in ----------------------------------------------

def test_sinks_without_a_controller_that_moves_rows_draw_the_moved_picture(tmp_path):
    """luma's dummy (as any luma device without windows), the terminal and png sinks show the
    last frame moved at once when the panel asks, and every later frame moved too."""
    from companion.hw.panel import shift_image

    out = io.StringIO()  # a pipe: the terminal sink writes each frame's text, a blank line after it
    sinks = {d: open_display(DisplayConfig(driver=d, frames_dir=str(tmp_path / "f")), stream=out)
             for d in ("dummy", "terminal", "png")}

    def shown(driver: str) -> str:
        """The last picture the sink put out, as the terminal sink would draw it."""
        if driver == "terminal":
            return out.getvalue().split("\n\n")[-2]
        if driver == "dummy":
            return "\n".join(sinks["terminal"].render(sinks[driver].device.image))
        with Image.open(max((tmp_path / "f").iterdir())) as got:
            return "\n".join(sinks["terminal"].render(got.convert("1")))

    def drawn(image: Image.Image) -> str:
        return "\n".join(sinks["terminal"].render(image))

    for driver, sink in sinks.items():
        sink.show(frame("a"))
        sink.set_shift(1, 1)
        assert shown(driver) == drawn(shift_image(frame("a"), 1, 1)) != drawn(frame("a")), driver
        sink.show(frame("b"))
        assert shown(driver) == drawn(shift_image(frame("b"), 1, 1)), driver
        sink.set_shift(1, 1)  # no move: nothing is drawn again
        assert sink.frames_shown == 3, driver
