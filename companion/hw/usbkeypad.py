"""A plain USB numeric keypad (any USB HID number pad), read through evdev on a
background thread.

`open_usb_keypad(cfg, put)` returns a `UsbKeypad`; `start()` begins reading,
`close()` stops, `connected` is a threading.Event set while the pad is open.
Only key-down events count (value 1). Releases (0) and the keyboard's
auto-repeat while a key is held (2) are ignored for every key, A and B
included: one press is one key, as with the serial keypad and the buttons
(a held key repeating at 30 per second would overshoot any menu). The one
exception is the key mapped to MENU ("D"): it counts on release, as "D", or
as "REPEAT" (say the last announcement again) when held `LONG_PRESS_S`.

Default key map (evdev key name -> key token, companion.table.keys):

    KEY_KP0 .. KEY_KP9, KEY_0 .. KEY_9     "0" .. "9"
    KEY_KPENTER, KEY_ENTER                 "#"  OK
    KEY_BACKSPACE, KEY_DELETE, KEY_KPDOT   "*"  BACK
    KEY_KPMINUS                            "A"  UP   (the upper of the two keys on the right)
    KEY_KPPLUS                             "B"  DOWN (the tall key below it)
    KEY_KPASTERISK                         "C"  UNDO
    KEY_KPSLASH                            "D"  MENU
    KEY_NUMLOCK and anything else          ignored (counted in `ignored`)

`usb_keypad.keymap` in the config adds to this map or overrides single
entries (``KEY_KPDOT: "#"``); names evdev does not know are logged and
skipped. On connecting the adapter switches the pad's NumLock LED on, which
makes most pads with their own NumLock logic send digits; a pad that still
sends KEY_END, KEY_DOWN ... with NumLock off can be mapped via keymap.

The device: ``device: auto`` is the first ``/dev/input/by-id/*-event-kbd``
(sorted by name) whose keys include all of KEY_KP0 .. KEY_KP9 (a full
keyboard with a number block qualifies too: give a path to choose), else an
explicit path (prefer /dev/input/by-id/...). With ``grab: true`` the device
is grabbed (EVIOCGRAB), so its keys never reach a console or another reader;
a pad someone else has grabbed counts as unavailable.

Unplugging gives ENODEV on read. Reconnecting is exactly the serial keypad's
policy, reused (this class is a `SerialKeypad` whose "port" is the evdev
device): the loss is logged once, then the device is searched for and opened
afresh with exponential backoff (0.5 s doubling to 10 s, reset only after a
connection that lasted 5 s), so a re-plugged pad with a new eventN number is
found again.

python-evdev is imported only inside the adapter's thread (and by
`find_numpad`), never at module import: the engines, the daemon and the tests
load this module without it. Linux only.
"""

from __future__ import annotations

import importlib.util

import errno
import glob
import logging
import select
from typing import Any, Callable, Iterable, Mapping

from companion.hw.keypad import Put, SerialKeypad
from companion.table.keys import MENU, REPEAT, is_key

log = logging.getLogger(__name__)

BY_ID_GLOB = "/dev/input/by-id/*-event-kbd"
READ_TIMEOUT_S = 0.2
VALUE_DOWN = 1        # evdev key event values: 0 up, 1 down, 2 auto-repeat
VALUE_UP = 0
LONG_PRESS_S = 1.0    # the MENU key held this long gives REPEAT (as the buttons' long_press_s)

DEFAULT_KEYMAP: dict[str, str] = {
    **{f"KEY_KP{d}": str(d) for d in range(10)},
    **{f"KEY_{d}": str(d) for d in range(10)},
    "KEY_KPENTER": "#",
    "KEY_ENTER": "#",
    "KEY_BACKSPACE": "*",
    "KEY_DELETE": "*",
    "KEY_KPDOT": "*",
    "KEY_KPMINUS": "A",
    "KEY_KPPLUS": "B",
    "KEY_KPASTERISK": "C",
    "KEY_KPSLASH": "D",
}
# What `device: auto` requires of a candidate: the ten keypad digits.
NUMPAD_DIGITS = tuple(f"KEY_KP{d}" for d in range(10))


def merged_keymap(overrides: Mapping[str, str] | None = None) -> dict[str, str]:
    """DEFAULT_KEYMAP with `overrides` (evdev key name -> token) on top.
    Raises ValueError for a token that is not a key."""
    out = dict(DEFAULT_KEYMAP)
    for name, token in (overrides or {}).items():
        if not is_key(token):
            raise ValueError(f"usb_keypad.keymap.{name}: {token!r} is not a key")
        out[str(name)] = token
    return out


def resolve_keymap(names: Mapping[str, str], ecodes: Any) -> dict[int, str]:
    """evdev key name -> token  =>  key code -> token, using evdev's `ecodes`.
    Names evdev does not know are logged and left out."""
    out: dict[int, str] = {}
    for name, token in names.items():
        code = ecodes.ecodes.get(name)
        if code is None or not name.startswith(("KEY_", "BTN_")):
            log.warning("usb keypad: %s is not an evdev key name; ignored (evtest shows the names)", name)
            continue
        out[code] = token
    return out


def _open_evdev(path: str) -> Any:
    from evdev import InputDevice  # lazy: only when a USB keypad is configured
    return InputDevice(path)


def find_numpad(pattern: str = BY_ID_GLOB, opener: Callable[[str], Any] | None = None) -> str:
    """The first device matching `pattern` (sorted) that has the keys
    KEY_KP0 .. KEY_KP9. Raises FileNotFoundError when there is none."""
    from evdev import ecodes

    opener = opener or _open_evdev
    wanted = {ecodes.ecodes[n] for n in NUMPAD_DIGITS}
    seen = []
    for path in sorted(glob.glob(pattern)):
        try:
            dev = opener(path)
        except OSError as e:
            seen.append(f"{path} ({e.strerror or e})")
            continue
        try:
            keys = set(dev.capabilities().get(ecodes.EV_KEY, ()))
        finally:
            dev.close()
        if wanted <= keys:
            return path
        seen.append(f"{path} (no number keys)")
    raise FileNotFoundError(errno.ENOENT, "no USB number pad: "
                            + ("; ".join(seen) if seen else "nothing plugged in"), pattern)


class UsbKeypad(SerialKeypad):
    """A reader thread for a USB number pad; build with `open_usb_keypad`.

    `device`: "auto" or a path. Injectable for tests: `finder()` -> path (for
    auto; default `find_numpad`), `opener(path)` -> an evdev InputDevice-like
    object (default ``evdev.InputDevice``), `wait(device, timeout)` -> True
    when the device has events (default: select on its fd), and `sleep`,
    `backoff_start`, `backoff_max` as for `SerialKeypad`.
    """

    def __init__(self, device: str, put: Put, *, grab: bool = True,
                 keymap: Mapping[str, str] | None = None,
                 finder: Callable[[], str] | None = None,
                 opener: Callable[[str], Any] | None = None,
                 wait: Callable[[Any, float], bool] | None = None,
                 sleep: Callable[[float], Any] | None = None,
                 backoff_start: float = 0.5, backoff_max: float = 10.0) -> None:
        self.device = device
        self.grab = grab
        self.keymap = merged_keymap(keymap)
        self._finder = finder or find_numpad
        self._dev_opener = opener or _open_evdev
        self._wait = wait or self._select
        self._codes: dict[int, str] | None = None
        self._menu_down: float | None = None  # when the MENU key went down (it counts on release)
        self._ecodes: Any = None
        self.ignored = 0           # key-down events of keys not in the map
        self.path: str | None = None   # the device last opened
        # The serial keypad's reconnect loop calls opener(port, baudrate); "port"
        # is what its log lines name: the pattern or path until a device is open.
        super().__init__(self._spec(), 0, put, opener=self._connect, sleep=sleep,
                         backoff_start=backoff_start, backoff_max=backoff_max)

    def _spec(self) -> str:
        return BY_ID_GLOB if self.device == "auto" else self.device

    @staticmethod
    def _select(dev: Any, timeout: float) -> bool:
        return bool(select.select([dev.fd], [], [], timeout)[0])

    def _load_ecodes(self) -> Any:
        if self._ecodes is None:
            from evdev import ecodes  # lazy
            self._ecodes = ecodes
        if self._codes is None:
            self._codes = resolve_keymap(self.keymap, self._ecodes)
        return self._ecodes

    def _connect(self, _port: str, _baudrate: int) -> Any:
        """Find and open the pad, grab it, switch NumLock on; raise OSError if it is not there."""
        ecodes = self._load_ecodes()
        self.port = self._spec()
        path = self._finder() if self.device == "auto" else self.device
        dev = self._dev_opener(path)
        try:
            if self.grab:
                dev.grab()      # EBUSY when someone else holds it: retried with backoff
            if ecodes.LED_NUML in dev.capabilities().get(ecodes.EV_LED, ()):
                try:
                    dev.set_led(ecodes.LED_NUML, 1)
                except OSError:
                    log.debug("usb keypad: cannot set NumLock", exc_info=True)
        except BaseException:
            dev.close()
            raise
        self.path = self.port = path
        log.info("usb keypad %s: %s", path, getattr(dev, "name", "?"))
        return dev

    def handle_event(self, event: Any) -> str | None:
        """One evdev event: the key token it gives (already passed to `put`), or None."""
        ecodes = self._load_ecodes()
        if event.type != ecodes.EV_KEY or event.value not in (VALUE_DOWN, VALUE_UP):
            return None
        assert self._codes is not None
        key = self._codes.get(event.code)
        if key == MENU:  # decided on release: held LONG_PRESS_S or more it says the last announcement again
            if event.value == VALUE_DOWN:
                self._menu_down = event.timestamp()
                return None
            if self._menu_down is None:
                return None
            held, self._menu_down = event.timestamp() - self._menu_down, None
            key = REPEAT if held >= LONG_PRESS_S else MENU
        elif event.value != VALUE_DOWN:
            return None
        if key is None:
            self.ignored += 1
            log.debug("usb keypad: ignored key %s", ecodes.KEY.get(event.code, event.code))
            return None
        try:
            self._put(key)
        except Exception:
            self.put_errors += 1
            log.exception("usb keypad: put(%r) failed", key)
        return key

    def handle_events(self, events: Iterable[Any]) -> list[str]:
        """`handle_event` for each; the keys given, in order."""
        return [k for k in map(self.handle_event, events) if k is not None]

    def _read_loop(self, dev: Any) -> None:
        # OSError ENODEV (unplugged) propagates: the reconnect loop logs it and
        # searches for the pad again.
        while not self._stop.is_set():
            if not self._wait(dev, READ_TIMEOUT_S):
                continue
            try:
                events = list(dev.read())
            except BlockingIOError:
                continue
            self.handle_events(events)


def open_usb_keypad(cfg: Any, put: Put, **kwargs: Any) -> UsbKeypad:
    """A `UsbKeypad` for the configured device (not started yet).

    `cfg` is the whole Config (its usb_keypad section must be set) or the
    section itself (anything with device, grab, keymap). Extra keyword
    arguments (finder, opener, wait, sleep, backoff_start, backoff_max) go
    to `UsbKeypad`.
    """
    ucfg = cfg.usb_keypad if hasattr(cfg, "usb_keypad") else cfg
    if ucfg is None:
        raise ValueError("no usb_keypad configured")
    if "opener" not in kwargs and importlib.util.find_spec("evdev") is None:
        raise ValueError("python-evdev is not installed: sudo apt install python3-evdev (install.sh does), "
                         "or pip install evdev in the venv")
    return UsbKeypad(ucfg.device, put, grab=ucfg.grab, keymap=ucfg.keymap, **kwargs)
