"""The hardware's sections of the config file: what the display and each input adapter take.

Plain dataclasses with their defaults, and the OLED's addresses: `open_display` takes a
`DisplayConfig`, `open_buttons` a `ButtonsConfig` (and an `EncoderConfig`), `open_keypad` a
`KeypadConfig`, `open_usb_keypad` a `UsbKeypadConfig` (each, or the whole config that holds
them). They live here, beside the adapters, so the adapters import nothing of the box's
set-up; the config file's loader (companion.box.config) fills them in, checks every value
and re-exports them. Nothing here imports a hardware library: a headless start reads
`DisplayConfig` without them.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from companion.hw.sinks import stand_ins

# An OLED with no address configured is looked for at these, in this order.
OLED_ADDRESSES = (0x3C, 0x3D)
# The serial keypad's protocols (companion.hw.keyframe): checked frames, or an old keypad's bare bytes.
KEYPAD_PROTOCOLS = ("framed", "one-byte")


@dataclass
class DisplayConfig:
    """The OLED (or a stand-in). `driver`: any luma.oled device name
    (`oled_drivers()`) or dummy / terminal / png (companion.hw.sinks).
    `address`: the OLED's I2C address, None to probe 0x3C then 0x3D. `retry_seconds`: how
    often to try to re-create an unplugged OLED; `dim_contrast`: contrast when idle."""

    driver: str = "ssd1306"
    port: int = 1
    address: int | None = None      # None: probe 0x3C, then 0x3D (OLED_ADDRESSES)
    rotate: int = 0
    width: int = 128
    height: int = 64
    contrast: int = 200
    dim_contrast: int = 16
    frames_dir: str | None = None
    retry_seconds: float = 5.0


@dataclass
class ButtonsConfig:
    """GPIO buttons by BCM pin number, wired to ground (internal pull-up).

    `enabled`: "auto" opens them only on a Raspberry Pi, True always, False
    never. `menu` may be None when there is no MENU button (a long press on
    BACK opens the menu anyway).
    """

    up: int = 17
    down: int = 27
    ok: int = 22
    back: int = 23
    menu: int | None = 24
    bounce_ms: int = 30
    long_press_s: float = 1.0
    power_press_s: float = 4.0
    enabled: bool | str = "auto"

    def pins(self) -> dict[str, int]:
        """Role -> BCM pin of every configured button."""
        roles = {"up": self.up, "down": self.down, "ok": self.ok,
                 "back": self.back, "menu": self.menu}
        return {k: v for k, v in roles.items() if v is not None}


@dataclass
class EncoderConfig:
    """A rotary encoder: A/B quadrature pins and an optional push switch."""

    a: int
    b: int
    push: int | None = None


@dataclass
class KeypadConfig:
    """The serial keypad: a device path (prefer /dev/serial/by-id/...).

    The loader accepts only serial device paths: pyserial also takes URLs,
    and ``spy://...?file=PATH`` writes files while ``socket://`` opens
    network connections. ``loop://`` (an in-memory loopback) is accepted only
    when the environment has ``COMPANION_ALLOW_LOOP=1``, for tests. `protocol`: "framed" (checked
    frames, companion.hw.keyframe, what firmware/serial-keypad sends) or "one-byte" (an old
    keypad's bare key bytes: noise can play keys, so it is taken only when named, with a warning)."""

    port: str
    baudrate: int = 9600
    protocol: str = "framed"


@dataclass
class UsbKeypadConfig:
    """A USB (HID) keypad read through evdev, as `cfg.usb_keypad`.

    `device`: "auto" (the first ``/dev/input/by-id/*-event-kbd``) or a path
    under /dev/input (prefer /dev/input/by-id/...). `grab`: take the device
    for the companion alone (its keys then never reach a console). `keymap`:
    evdev key name -> key token (companion.table.keys.KEYS), e.g.
    ``{KEY_KPENTER: "#"}``, added to (or overriding entries of) the adapter's
    built-in number-pad map; empty: the built-in map alone."""

    device: str = "auto"
    grab: bool = True
    keymap: dict[str, str] = field(default_factory=dict)


@dataclass
class CameraConfig:
    """The camera above the board (companion.hw.camera; for a game whose GameType has a camera), as `cfg.camera` (None: none).

    `source`: v4l2 (a USB webcam, read by linuxpy, else OpenCV), picamera2 (the Pi camera) or folder
    (the newest picture in a folder: a stand-in camera). `device`: v4l2's auto (the first USB camera
    udev names under /dev/v4l/by-id, else /dev/video0) or a /dev path, or the folder.
    `width` x `height`: the frames asked for. `corners`: where the board's corners (0,0),
    (1200,0), (1200,800), (0,800) of the board file's frame lie in the picture, 8 numbers
    x1, y1 ... x4, y4 in pixels. `fps`: frames looked at per second; `still_s`: how long the
    picture must be still before the box judges it."""

    source: str = "v4l2"
    device: str = "auto"
    width: int = 1280
    height: int = 960
    corners: list[float] = field(default_factory=list)
    fps: float = 4.0
    still_s: float = 1.0


# The OLED drivers of luma.oled 3.16 (luma.oled.device.__all__); `oled_drivers()` asks the
# installed luma.oled itself and falls back to this list only when it cannot be imported.
KNOWN_OLED_DRIVERS = ("ssd1305", "ssd1306", "ssd1309", "ssd1315", "ssd1316", "ssd1322",
                      "ssd1322_nhd", "ssd1325", "ssd1327", "ssd1331", "ssd1351", "ssd1362",
                      "ssd1363", "sh1106", "sh1107", "ws0010", "winstar_weh", "ch1115")


@functools.lru_cache(maxsize=1)
def oled_drivers() -> tuple[str, ...]:
    """The OLED device names the installed luma.oled provides (luma.oled.device.__all__),
    else KNOWN_OLED_DRIVERS. Imports luma.oled.device, which touches no hardware."""
    try:
        import luma.oled.device as devices
    except ImportError:
        return KNOWN_OLED_DRIVERS
    names = tuple(n for n in getattr(devices, "__all__", ()) if isinstance(getattr(devices, n, None), type))
    return names or KNOWN_OLED_DRIVERS


def display_drivers() -> tuple[str, ...]:
    """Every accepted `display.driver`: luma.oled's devices, then the stand-ins (dummy, terminal,
    png: companion.hw.sinks)."""
    return oled_drivers() + stand_ins()


def is_display_driver(name: object) -> bool:
    """True for an accepted `display.driver`; asks luma.oled's list (an import of luma.oled.device)
    only for a name that is not a stand-in, so a headless start never imports it."""
    return isinstance(name, str) and (name in stand_ins() or name in oled_drivers())
