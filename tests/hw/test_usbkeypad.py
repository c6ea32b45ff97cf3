"""USB number pad (companion/hw/usbkeypad.py): evdev events -> keys, grab, device search,
unplug -> ENODEV -> reconnect. Most tests feed evdev's real InputEvent/ecodes through a fake
device; the UInput tests at the end need /dev/uinput and skip without it."""

from __future__ import annotations

import errno
import logging
import os
import queue
import subprocess
import sys
from types import SimpleNamespace

import pytest

from tests.hw.waiting import WAIT, Backoff, take

from companion.hw.usbkeypad import (BY_ID_GLOB, DEFAULT_KEYMAP, UsbKeypad, find_numpad,
                                    merged_keymap, open_usb_keypad)


# The documented default map (module docstring), written out independently of DEFAULT_KEYMAP.
DOCUMENTED = {
    **{f"KEY_KP{d}": str(d) for d in range(10)}, **{f"KEY_{d}": str(d) for d in range(10)},
    "KEY_KPENTER": "#", "KEY_ENTER": "#",
    "KEY_BACKSPACE": "*", "KEY_DELETE": "*", "KEY_KPDOT": "*",
    "KEY_KPMINUS": "A", "KEY_KPPLUS": "B", "KEY_KPASTERISK": "C", "KEY_KPSLASH": "D",
}


@pytest.fixture
def ec():
    evdev = pytest.importorskip("evdev", reason="python-evdev is Linux-only")
    return evdev.ecodes


def ev(ec, name, value=1, type_=None, sec=1, usec=0):
    from evdev import InputEvent
    return InputEvent(sec, usec, ec.EV_KEY if type_ is None else type_,
                      ec.ecodes[name] if isinstance(name, str) else name, value)


class FakeDevice:
    """An evdev InputDevice stand-in: events are queued by the test; `unplug()` makes the
    next read fail with ENODEV, as the kernel does for a removed device."""

    def __init__(self, ec, path: str, *, digits: bool = True, grab_error: OSError | None = None):
        self.ec = ec
        self.path = path
        self.name = f"fake numpad {path}"
        self.fd = -1
        self.grabbed = False
        self.closed = False
        self.leds: dict[int, int] = {}
        self.grab_error = grab_error
        keys = [ec.ecodes[n] for n in DOCUMENTED] + [ec.KEY_NUMLOCK]
        if not digits:
            keys = [ec.KEY_A, ec.KEY_B]
        self.caps = {ec.EV_KEY: keys, ec.EV_LED: [ec.LED_NUML, ec.LED_CAPSL]}
        self._q: queue.Queue = queue.Queue()
        self._pending = None

    def capabilities(self):
        return self.caps

    def grab(self):
        if self.grab_error is not None:
            raise self.grab_error
        self.grabbed = True

    def set_led(self, led, value):
        self.leds[led] = value

    def close(self):
        self.closed = True

    def feed(self, *events):
        self._q.put(list(events))

    def unplug(self):
        self._q.put(OSError(errno.ENODEV, "No such device"))

    # the adapter's injected wait(device, timeout), then device.read()
    def wait(self, timeout):
        if self._pending is None:
            try:
                self._pending = self._q.get(timeout=timeout)
            except queue.Empty:
                return False
        return True

    def read(self):
        item, self._pending = self._pending, None
        if item is None:
            raise BlockingIOError(errno.EAGAIN, "no events")
        if isinstance(item, BaseException):
            raise item
        return iter(item)


def fake_wait(dev, timeout):
    return dev.wait(timeout)


def adapter(put=None, **kw) -> UsbKeypad:
    kw.setdefault("wait", fake_wait)
    return UsbKeypad(kw.pop("device", "auto"), put or (lambda k: None), **kw)


# ----- the module stays importable without evdev -----------------------------------------

def test_importing_the_adapter_does_not_import_evdev():
    code = ("import sys, companion.hw.usbkeypad, companion.kiosk.daemon, companion.box.config; "
            "assert 'evdev' not in sys.modules, 'evdev imported at module level'")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr


# ----- the key map ------------------------------------------------------------------------

def test_default_keymap_is_the_documented_one():
    assert DEFAULT_KEYMAP == DOCUMENTED


def test_up_and_down_are_the_tables_up_and_down():
    from companion.table.keys import DOWN, UP
    assert DEFAULT_KEYMAP["KEY_KPMINUS"] == UP      # the upper key on a numpad's right
    assert DEFAULT_KEYMAP["KEY_KPPLUS"] == DOWN


def test_every_default_key_gives_its_token(ec):
    got = []
    kp = adapter(got.append)
    for name, token in DOCUMENTED.items():
        if token == "D":  # the MENU key counts on release (a long press is REPEAT)
            assert kp.handle_event(ev(ec, name)) is None
            assert kp.handle_event(ev(ec, name, 0, usec=200_000)) == token, name
        else:
            assert kp.handle_event(ev(ec, name)) == token, name
    assert got == list(DOCUMENTED.values())
    assert kp.ignored == 0


def test_menu_held_a_second_says_the_last_announcement_again(ec):
    """The MENU key decides on release: short is D, held LONG_PRESS_S (its auto-repeats in between
    ignored) is REPEAT; a release without its press (the pad plugged in mid-press) gives nothing."""
    got = []
    kp = adapter(got.append)
    kp.handle_events([ev(ec, "KEY_KPSLASH", 1, sec=5), ev(ec, "KEY_KPSLASH", 2, sec=5, usec=500_000),
                      ev(ec, "KEY_KPSLASH", 0, sec=6, usec=100_000)])
    kp.handle_events([ev(ec, "KEY_KPSLASH", 1, sec=7), ev(ec, "KEY_KPSLASH", 0, sec=7, usec=900_000)])
    kp.handle_events([ev(ec, "KEY_KPSLASH", 0, sec=9)])
    assert got == ["REPEAT", "D"]


def test_releases_and_repeats_are_ignored(ec):
    got = []
    kp = adapter(got.append)
    events = [ev(ec, "KEY_KP1", 1), ev(ec, "KEY_KP1", 2), ev(ec, "KEY_KP1", 2), ev(ec, "KEY_KP1", 0),
              ev(ec, "KEY_KPPLUS", 1), ev(ec, "KEY_KPPLUS", 2), ev(ec, "KEY_KPPLUS", 0),
              ev(ec, "KEY_KPMINUS", 2), ev(ec, "KEY_KPMINUS", 0)]
    assert kp.handle_events(events) == ["1", "B"]
    assert got == ["1", "B"]


def test_events_that_are_not_keys_are_ignored(ec):
    got = []
    kp = adapter(got.append)
    # A HID keyboard sends EV_MSC/MSC_SCAN before each key and EV_SYN after it. Code 4 is
    # also KEY_3, and value 1 a key-down: only the type tells them apart.
    scan = ev(ec, ec.MSC_SCAN, 1, type_=ec.EV_MSC)
    assert scan.code == ec.KEY_3
    syn = ev(ec, ec.SYN_REPORT, 1, type_=ec.EV_SYN)
    led = ev(ec, ec.LED_NUML, 1, type_=ec.EV_LED)
    assert kp.handle_events([scan, syn, led, ev(ec, "KEY_KP7"), syn]) == ["7"]
    assert got == ["7"]


def test_unknown_keys_and_numlock_are_ignored_and_counted(ec):
    got = []
    kp = adapter(got.append)
    events = [ev(ec, "KEY_NUMLOCK"), ev(ec, "KEY_A"), ev(ec, "KEY_F1"), ev(ec, "KEY_KP9")]
    assert kp.handle_events(events) == ["9"]
    assert got == ["9"]
    assert kp.ignored == 3


def test_keymap_overrides_and_extends_the_defaults(ec):
    got = []
    cfg = SimpleNamespace(device="auto", grab=True,
                          keymap={"KEY_KPDOT": "#", "KEY_F1": "POWER", "KEY_KPPLUS": "A"})
    kp = open_usb_keypad(SimpleNamespace(usb_keypad=cfg), got.append, wait=fake_wait)
    names = ["KEY_KPDOT", "KEY_F1", "KEY_KPPLUS", "KEY_KPMINUS", "KEY_KP5", "KEY_BACKSPACE"]
    assert kp.handle_events([ev(ec, n) for n in names]) == ["#", "POWER", "A", "A", "5", "*"]
    assert got == ["#", "POWER", "A", "A", "5", "*"]


def test_keymap_name_evdev_does_not_know_is_logged_and_skipped(ec, caplog):
    with caplog.at_level(logging.WARNING, logger="companion.hw.usbkeypad"):
        kp = adapter(keymap={"KEY_NOT_A_KEY": "1", "KEY_KPSLASH": "C"})
        assert kp.handle_event(ev(ec, "KEY_KPSLASH")) == "C"
    assert "KEY_NOT_A_KEY" in caplog.text


def test_keymap_token_that_is_not_a_key_is_refused():
    with pytest.raises(ValueError, match="KEY_KP1"):
        merged_keymap({"KEY_KP1": "x"})
    with pytest.raises(ValueError):
        open_usb_keypad(SimpleNamespace(device="auto", grab=True, keymap={"KEY_KP1": "QUIT"}),
                        lambda k: None)


def test_put_failure_is_counted_and_reading_goes_on(ec):
    got = []

    def put(key):
        got.append(key)
        if key == "1":
            raise RuntimeError("consumer bug")

    kp = adapter(put)
    assert kp.handle_events([ev(ec, "KEY_KP1"), ev(ec, "KEY_KP2")]) == ["1", "2"]
    assert got == ["1", "2"]
    assert kp.put_errors == 1


# ----- open_usb_keypad and the config ----------------------------------------------------

def test_open_usb_keypad_takes_the_config_section():
    pytest.importorskip("evdev", reason="python-evdev is not installed here (a Pi takes apt's python3-evdev)")
    from companion.box.config import Config, UsbKeypadConfig

    cfg = Config(usb_keypad=UsbKeypadConfig(device="/dev/input/by-id/usb-pad-event-kbd", grab=False,
                                            keymap={"KEY_KPDOT": "#"}))
    kp = open_usb_keypad(cfg, lambda k: None)
    assert (kp.device, kp.grab, kp.keymap["KEY_KPDOT"], kp.keymap["KEY_KP1"]) == \
        ("/dev/input/by-id/usb-pad-event-kbd", False, "#", "1")
    assert not kp.connected.is_set()
    with pytest.raises(ValueError, match="no usb_keypad"):
        open_usb_keypad(Config(), lambda k: None)


# ----- the reader thread with fake devices -----------------------------------------------

class Pads:
    """The fake `finder` and `opener`: `plugged` is the by-id path of the pad now plugged in
    (None: nothing). Every device opened is kept, in order."""

    def __init__(self, ec, plugged: str | None = "/dev/input/by-id/usb-pad-event-kbd", **dev_kw):
        self.ec = ec
        self.plugged = plugged
        self.dev_kw = dev_kw
        self.opened: list[FakeDevice] = []
        self.finds = 0

    def finder(self) -> str:
        self.finds += 1
        if self.plugged is None:
            raise FileNotFoundError(errno.ENOENT, "no USB number pad", BY_ID_GLOB)
        return self.plugged

    def opener(self, path: str) -> FakeDevice:
        if path != self.plugged:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", path)
        dev = FakeDevice(self.ec, path, **self.dev_kw)
        self.opened.append(dev)
        return dev


@pytest.fixture
def running(ec):
    made = []

    def make(pads: Pads, **kw):
        q: queue.Queue = queue.Queue()
        backoff = Backoff()  # each reconnect attempt waits until the test releases it
        kp = UsbKeypad(kw.pop("device", "auto"), q.put, finder=pads.finder, opener=pads.opener,
                       wait=fake_wait, sleep=backoff.sleep, **kw)
        kp.backoff = backoff
        made.append(kp)
        kp.start()
        return kp, q

    yield make
    for kp in made:
        kp.backoff.close()
        kp.close()


def test_auto_finds_grabs_and_reads_in_order(ec, running):
    pads = Pads(ec)
    kp, q = running(pads)
    assert kp.connected.wait(WAIT)
    dev = pads.opened[0]
    assert dev.grabbed, "the pad must be grabbed so its keys do not reach the console"
    assert dev.leds == {ec.LED_NUML: 1}
    assert kp.path == pads.plugged
    dev.feed(ev(ec, "KEY_KP1"), ev(ec, "KEY_KP1", 0), ev(ec, "KEY_KP2"), ev(ec, "KEY_KP2", 2))
    dev.feed(ev(ec, "KEY_KPENTER"), ev(ec, "KEY_NUMLOCK"), ev(ec, "KEY_KPSLASH"), ev(ec, "KEY_KPSLASH", 0))
    assert take(q, 4) == ["1", "2", "#", "D"]
    assert q.empty()


def test_grab_false_leaves_the_device_shared(ec, running):
    pads = Pads(ec)
    kp, q = running(pads, grab=False)
    assert kp.connected.wait(WAIT)
    assert not pads.opened[0].grabbed


def test_explicit_path_is_opened_without_searching(ec, running):
    pads = Pads(ec, plugged="/dev/input/by-id/usb-other-event-kbd")
    kp, q = running(pads, device="/dev/input/by-id/usb-other-event-kbd")
    assert kp.connected.wait(WAIT)
    assert pads.finds == 0
    pads.opened[0].feed(ev(ec, "KEY_KP3"))
    assert take(q, 1) == ["3"]


def test_unplug_gives_enodev_then_the_pad_is_found_again(ec, running):
    pads = Pads(ec, plugged="/dev/input/by-id/usb-pad-if00-event-kbd")
    kp, q = running(pads)
    assert kp.connected.wait(WAIT)
    first = pads.opened[0]
    first.feed(ev(ec, "KEY_KP1"))
    assert take(q, 1) == ["1"]

    pads.plugged = None          # pulled out: the read fails, and so does every search
    first.unplug()
    kp.backoff.wait_for(1)       # the connection is closed before the first backoff
    assert not kp.connected.is_set() and first.closed
    kp.backoff.step()
    kp.backoff.step()
    assert kp.backoff.delays == [0.5, 1.0, 2.0], "backoff doubles from 0.5 s"
    assert kp.failed_attempts == 2

    pads.plugged = "/dev/input/by-id/usb-pad-if00-event-kbd"   # back, as a new eventN
    kp.backoff.release()
    assert kp.connected.wait(WAIT)
    assert len(pads.opened) == 2
    second = pads.opened[1]
    assert second.grabbed
    assert kp.connects == 2
    second.feed(ev(ec, "KEY_KP2"), ev(ec, "KEY_KPPLUS"))
    assert take(q, 2) == ["2", "B"]


def test_a_pad_grabbed_by_someone_else_is_retried(ec, running):
    pads = Pads(ec, grab_error=OSError(errno.EBUSY, "Device or resource busy"))
    kp, q = running(pads)
    kp.backoff.wait_for(1)
    kp.backoff.step()            # the second attempt fails the same way
    assert len(pads.opened) == 2
    assert not kp.connected.is_set()
    assert all(d.closed for d in pads.opened[:2]), "a device that could not be grabbed is closed"
    pads.dev_kw = {}
    kp.backoff.release()
    assert kp.connected.wait(WAIT)
    pads.opened[-1].feed(ev(ec, "KEY_KP0"))
    assert take(q, 1) == ["0"]


def test_close_stops_the_thread_and_closes_the_device(ec, running):
    pads = Pads(ec)
    kp, q = running(pads)
    assert kp.connected.wait(WAIT)
    kp.close()
    assert not kp._thread.is_alive()
    assert pads.opened[0].closed
    assert not kp.connected.is_set()


# ----- find_numpad (device: auto) --------------------------------------------------------

def test_find_numpad_takes_the_first_device_with_keypad_digits(ec, tmp_path):
    for name in ("usb-a_mouse-event-kbd", "usb-b_numpad-event-kbd", "usb-c_numpad-event-kbd",
                 "usb-0_broken-event-kbd", "usb-b_numpad-event-mouse"):
        (tmp_path / name).touch()
    opened = []

    def opener(path):
        opened.append(os.path.basename(path))
        if "broken" in os.path.basename(path):
            raise PermissionError(errno.EACCES, "Permission denied", path)
        return FakeDevice(ec, path, digits="numpad" in os.path.basename(path))

    found = find_numpad(str(tmp_path / "*-event-kbd"), opener=opener)
    assert found == str(tmp_path / "usb-b_numpad-event-kbd")
    assert opened == ["usb-0_broken-event-kbd", "usb-a_mouse-event-kbd", "usb-b_numpad-event-kbd"]


def test_find_numpad_without_a_numpad_says_what_it_saw(ec, tmp_path):
    (tmp_path / "usb-a_keyboard-event-kbd").touch()
    with pytest.raises(FileNotFoundError, match="usb-a_keyboard-event-kbd .no number keys"):
        find_numpad(str(tmp_path / "*-event-kbd"), opener=lambda p: FakeDevice(ec, p, digits=False))
    with pytest.raises(FileNotFoundError, match="nothing plugged in"):
        find_numpad(str(tmp_path / "none" / "*-event-kbd"))


# ----- a real (virtual) input device: needs /dev/uinput ----------------------------------

@pytest.fixture
def uinput(ec):
    if not os.path.exists("/dev/uinput"):
        pytest.skip("no /dev/uinput on this machine (sudo modprobe uinput): "
                    "the real-device tests need it; the fake-device tests above cover the logic")
    if not os.access("/dev/uinput", os.R_OK | os.W_OK):
        pytest.skip("/dev/uinput is not writable for this user (root or a udev rule needed)")
    from evdev import UInput
    caps = {ec.EV_KEY: sorted({ec.ecodes[n] for n in DOCUMENTED} | {ec.KEY_NUMLOCK}),
            ec.EV_LED: [ec.LED_NUML]}
    made = []

    def make():
        ui = UInput(caps, name="companion test numpad")  # returns once its event node opens
        made.append(ui)
        assert os.path.exists(ui.device.path)
        return ui

    yield make
    for ui in made:
        try:
            ui.close()
        except OSError:
            pass


def press(ui, ec, *names):
    for n in names:
        ui.write(ec.EV_KEY, ec.ecodes[n], 1)
        ui.write(ec.EV_KEY, ec.ecodes[n], 0)
        ui.syn()


def test_uinput_pad_is_grabbed_and_read(ec, uinput, tmp_path):
    from evdev import InputDevice
    ui = uinput()
    link = tmp_path / "usb-test_numpad-event-kbd"
    link.symlink_to(ui.device.path)
    q: queue.Queue = queue.Queue()
    kp = UsbKeypad("auto", q.put, finder=lambda: find_numpad(str(tmp_path / "*-event-kbd")))
    try:
        kp.start()
        assert kp.connected.wait(WAIT)
        other = InputDevice(str(link))
        try:
            with pytest.raises(OSError):
                other.grab()      # EBUSY: the adapter holds it
        finally:
            other.close()
        press(ui, ec, "KEY_KP4", "KEY_NUMLOCK", "KEY_KPENTER", "KEY_KPMINUS")
        assert take(q, 3) == ["4", "#", "A"]
    finally:
        kp.close()


def test_uinput_unplug_and_replug_is_found_again(ec, uinput, tmp_path):
    link = tmp_path / "usb-test_numpad-event-kbd"
    ui = uinput()
    link.symlink_to(ui.device.path)
    q: queue.Queue = queue.Queue()
    backoff = Backoff()
    kp = UsbKeypad("auto", q.put, finder=lambda: find_numpad(str(tmp_path / "*-event-kbd")), sleep=backoff.sleep)
    try:
        kp.start()
        assert kp.connected.wait(WAIT)
        press(ui, ec, "KEY_KP1")
        assert take(q, 1) == ["1"]
        link.unlink()
        ui.close()                                  # unplugged: ENODEV on read
        backoff.wait_for(1)
        assert not kp.connected.is_set()
        ui2 = uinput()
        link.symlink_to(ui2.device.path)
        backoff.release()
        assert kp.connected.wait(WAIT)
        assert kp.connects == 2
        press(ui2, ec, "KEY_KP2")
        assert take(q, 1) == ["2"]
    finally:
        backoff.close()
        kp.close()


def test_without_python_evdev_the_message_says_what_to_install(monkeypatch):
    import importlib.util

    from companion.box.config import UsbKeypadConfig
    from companion.hw import usbkeypad

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "evdev" else real(name, *a))
    with pytest.raises(ValueError, match="apt install python3-evdev"):
        usbkeypad.open_usb_keypad(UsbKeypadConfig(), [].append)
