"""The checks of the hardware's settings (the display, the buttons, the encoder, the serial and
USB keypads, the buzzer's pin and the sound device), beside the adapters that take them.

Each `*_CHECKS` maps a key of its section (`companion.hw.settings`) to its check
(`companion.checks`); `check_pins` refuses a pin used twice, or one the OLED's I2C bus or a
HAT's ID EEPROM needs. `companion.box.config` reads the file and calls these for its sections.
"""

from __future__ import annotations

import os
import re
from typing import Any

from companion.checks import (DEVICE_CHARS, Ctx, boolean, choice, data_dir, int_range,
                              is_int, is_num, no_control_chars, normal_absolute, opt, seconds, text, enabled)
from companion.hw.settings import KEYPAD_PROTOCOLS, is_display_driver, oled_drivers
from companion.hw.sinks import stand_ins
from companion.i18n import N_, _
from companion.table.keys import KEYS
from companion.util.bounded import clip, shorten

# keypad.port: serial devices only (see KeypadConfig). loop:// for tests.
ALLOW_LOOP_ENV = "COMPANION_ALLOW_LOOP"
SERIAL_DEVICE_PREFIXES = ("/dev/serial", "/dev/tty", "/dev/rfcomm", "/dev/pts/")
BAUDRATES = (1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200)
MAX_BCM_PIN = 27
# Pins a button or the encoder must not take: the OLED's I2C bus and the HAT ID EEPROM bus.
RESERVED_PINS = {
    2: "GPIO2 is I2C SDA (header pin 3), the OLED's data line: a button there breaks the display",
    3: "GPIO3 is I2C SCL (header pin 5), the OLED's clock line: a button there breaks the display",
    0: "GPIO0 is ID_SD (header pin 27), kept for a HAT's ID EEPROM that the firmware reads at boot",
    1: "GPIO1 is ID_SC (header pin 28), kept for a HAT's ID EEPROM that the firmware reads at boot",
}
# Pins free on a bare Pi (no SPI 7-11, no UART 14/15), suggested in that order.
SPARE_PINS = (5, 6, 12, 13, 16, 19, 20, 21, 26, 4, 17, 22, 23, 24, 25, 27)

# usb_keypad: evdev key names (KEY_KP1, KEY_ENTER ...) and device paths.
USB_KEYPAD_PREFIX = "/dev/input/"
_EVDEV_NAME = re.compile(r"KEY_[A-Z0-9_]+")


def pin(ctx: Ctx, path: str, v: Any) -> int:
    if not is_int(v) or not 0 <= v <= MAX_BCM_PIN:
        raise ctx.fail(path, _("{value} is not a BCM pin (0-{hi})").format(value=clip(v), hi=MAX_BCM_PIN))
    return v


def _device_path(ctx: Ctx, path: str, v: str, command: str) -> None:
    """A device path written plainly, in the characters device names have (`command` lists them)."""
    normal_absolute(ctx, path, v)
    if not DEVICE_CHARS.fullmatch(v):
        raise ctx.fail(path, _("{value} has characters a device name does not: "
                               "use the name listed by {command}").format(value=clip(v, 40), command=command))


def loop_allowed() -> bool:
    """True when the environment allows keypad.port: loop:// (tests only)."""
    return os.environ.get(ALLOW_LOOP_ENV) == "1"


def serial_port(ctx: Ctx, path: str, v: Any) -> str:
    v = text(ctx, path, v)
    no_control_chars(ctx, path, v)
    if v == "loop://":
        if loop_allowed():
            return v
        raise ctx.fail(path, _("loop:// is for tests ({setting}): use the keypad's /dev/serial/by-id/... "
                               "path").format(setting=f"{ALLOW_LOOP_ENV}=1"))
    if "://" in v or not v.startswith("/dev/"):
        raise ctx.fail(path, _("{value} is not a device path: use /dev/serial/by-id/... "
                               "(URLs can write files or open sockets)").format(value=clip(v, 40)))
    _device_path(ctx, path, v, "ls /dev/serial/by-id/")
    if not any(v.startswith(p) for p in SERIAL_DEVICE_PREFIXES):
        raise ctx.fail(path, _("{value} is not a serial device: use /dev/serial/by-id/..., "
                               "/dev/ttyACM0 or /dev/serial0").format(value=clip(v, 40)))
    return v


def audio_device(ctx: Ctx, path: str, v: Any) -> str:
    v = text(ctx, path, v)
    if not DEVICE_CHARS.fullmatch(v) or v.startswith("-"):
        raise ctx.fail(path, _("{value} has characters a device name does not: "
                               "use the name listed by {command}").format(value=clip(v, 40), command="aplay -L"))
    return v


def address(ctx: Ctx, path: str, v: Any) -> int:
    # YAML 1.1 reads 0x3C as an int already; a quoted "0x3C" is accepted too.
    if isinstance(v, str):
        try:
            v = int(v, 0)
        except ValueError:
            raise ctx.fail(path, _("{value} is not an I2C address (0x03-0x77)").format(value=clip(v))) from None
    if not is_int(v) or not 0x03 <= v <= 0x77:
        raise ctx.fail(path, _("{value} is not an I2C address (0x03-0x77)").format(value=clip(v)))
    return v


def display_driver(ctx: Ctx, path: str, v: Any) -> str:
    if not is_display_driver(v):
        raise ctx.fail(path, _("{value} is not a luma.oled driver ({examples} ... {n} in all: luma.oled.device) "
                               "nor {others}").format(value=clip(v, 30), examples="ssd1306, sh1106, ssd1309, "
                                                      "ssd1315, sh1107", n=len(oled_drivers()),
                                                      others=", ".join(stand_ins())))
    return v


def input_device(ctx: Ctx, path: str, v: Any) -> str:
    v = text(ctx, path, v)
    if v == "auto":
        return v
    no_control_chars(ctx, path, v)
    if "://" in v or not v.startswith(USB_KEYPAD_PREFIX):
        raise ctx.fail(path, _("{value} is not an input device: use auto or "
                               "/dev/input/by-id/...-event-kbd ({command})").format(
            value=clip(v, 40), command="ls /dev/input/by-id/"))
    _device_path(ctx, path, v, "ls /dev/input/by-id/")
    return v


def keymap(ctx: Ctx, path: str, v: Any) -> dict[str, str]:
    if v is None:
        return {}
    if not isinstance(v, dict):
        raise ctx.fail(path, _("expected a mapping of evdev key names to keys, got {value}").format(value=clip(v)))
    tokens = " ".join(sorted(KEYS, key=lambda k: (len(k), k)))
    out: dict[str, str] = {}
    for name, key in v.items():
        where = f"{path}.{shorten(str(name), 30)}"
        if not isinstance(name, str) or not _EVDEV_NAME.fullmatch(name):
            raise ctx.fail(where, _("{value} is not an evdev key name like KEY_KP1 or KEY_ENTER "
                                    "(evtest shows them)").format(value=clip(name, 30)))
        if is_int(key) and 0 <= key <= 9:
            key = str(key)     # KEY_KP1: 1 reads as an int in YAML
        if not isinstance(key, str) or key not in KEYS:
            raise ctx.fail(where, _("{value} is not a key ({keys}; quote # and *)").format(
                value=clip(key), keys=tokens))
        out[name] = key
    return out


DISPLAY_CHECKS = {
    "driver": display_driver,
    "port": int_range(0, 99, N_("{value} is not an I2C bus number ({lo}-{hi})")),
    "address": opt(address),
    "rotate": int_range(0, 3, N_("{value} is not a rotation ({lo}-{hi})")),
    "width": int_range(8, 4096, N_("{value} is not a width in pixels ({lo}-{hi})")),
    "height": int_range(8, 4096, N_("{value} is not a height in pixels ({lo}-{hi})")),
    "contrast": int_range(0, 255, N_("{value} is not a contrast level ({lo}-{hi})")),
    "dim_contrast": int_range(0, 255, N_("{value} is not a contrast level ({lo}-{hi})")),
    "frames_dir": opt(data_dir),
    "retry_seconds": seconds(0.1, 3600),
}
BUTTON_CHECKS = {
    "up": pin, "down": pin, "ok": pin, "back": pin, "menu": opt(pin),
    "bounce_ms": int_range(0, 1000, N_("{value} is not a time in ms ({lo}-{hi})")),
    "long_press_s": seconds(0.1, 60),
    "power_press_s": seconds(0.5, 120),
    "enabled": enabled,
}
ENCODER_CHECKS = {"a": pin, "b": pin, "push": opt(pin)}
KEYPAD_CHECKS = {"port": serial_port, "baudrate": choice(BAUDRATES), "protocol": choice(KEYPAD_PROTOCOLS)}
USB_KEYPAD_CHECKS = {"device": input_device, "grab": boolean, "keymap": keymap}


def camera_corners(ctx: Ctx, path: str, v: Any) -> list[float]:
    """8 numbers, the board's corners in the camera's picture (pixels)."""
    if v is None or v == []:
        return []  # none: tapped on the table's page
    if not isinstance(v, list) or len(v) != 8 or not all(is_num(x) and -1e5 < x < 1e5 for x in v):
        raise ctx.fail(path, _("{value}: give the board's 4 corners in the picture as 8 numbers "
                               "[x1, y1, x2, y2, x3, y3, x4, y4] (companion doctor --camera helps)").format(
            value=clip(v)))
    return [float(x) for x in v]


def camera_device(ctx: Ctx, path: str, v: Any) -> str:
    v = text(ctx, path, v)
    no_control_chars(ctx, path, v)
    return v


MIN_FPS, MAX_FPS = 0.5, 30.0  # the camera's frames looked at per second


def camera_fps(ctx: Ctx, path: str, v: Any) -> float:
    if not is_num(v) or not MIN_FPS <= v <= MAX_FPS:
        raise ctx.fail(path, _("{value} is not a number of frames a second ({lo}-{hi})").format(
            value=clip(v), lo=0.5, hi=30))
    return float(v)


CAMERA_CHECKS = {
    "source": choice(("v4l2", "picamera2", "folder")),
    "device": camera_device,
    "width": int_range(160, 4096),
    "height": int_range(120, 4096),
    "corners": camera_corners,
    "fps": camera_fps,
    "still_s": seconds(0.2, 10),
}


def check_pins(ctx: Ctx, uses: list[tuple[str, int | None]]) -> None:
    """Refuse a pin that two settings name (`uses`: key path and pin, in the file's order) or
    that the OLED's bus or a HAT's EEPROM needs, suggesting free ones."""
    used: dict[int, str] = {}
    for where, number in uses:
        if number is None:
            continue
        if number in used:
            raise ctx.fail(where, _("pin {pin} is already used by {user}").format(pin=number, user=used[number]))
        used[number] = where
    for number, where in sorted(used.items(), key=lambda item: item[1]):
        if number in RESERVED_PINS:
            spare = [p for p in SPARE_PINS if p not in used][:4]
            # NOTE: {reason} says what the pin is for (English, from companion/hw/settings_checks.py)
            raise ctx.fail(where, _("pin {pin}: {reason}; use a free pin instead, e.g. {pins}").format(
                pin=number, reason=RESERVED_PINS[number], pins=", ".join(map(str, spare))))
