"""Validation of the config file's values: every key checked, every path and device made safe,
errors that name the key path (`config.yaml: buttons.up: 99 is not a BCM pin (0-27)`).
The errors are read by whoever sets the box up (`companion doctor`, `companion run`), so each
sentence goes through `companion.i18n` (key paths, values and commands are placeholders).

`from_mapping(raw, source)` turns the parsed YAML into a `companion.config.Config`.
"""

from __future__ import annotations

import os
from dataclasses import MISSING, fields
from typing import Any, Callable

from companion.config import (ALLOW_LOOP_ENV, BAUDRATES, BOT_NAMES, FORBIDDEN_DIRS, MAX_BCM_PIN, MAX_BOT_MOVE_TIME,
                              MAX_PATH_CHARS, RESERVED_PINS, SERIAL_DEVICE_PREFIXES, SPARE_PINS, STAND_IN_DRIVERS,
                              USB_KEYPAD_PREFIX, WATCHDOG_SEC, _DEVICE_CHARS, _EVDEV_NAME, ButtonsConfig, Config,
                              ConfigError, DisplayConfig, EncoderConfig, GameConfig, KeypadConfig, SoundConfig, WebConfig,
                              UsbKeypadConfig, is_display_driver, oled_drivers)
from companion.i18n import LANGUAGES, N_, _
from companion.table.bounded import clip, shorten
from companion.table.keys import KEYS

# --- validation helpers -----------------------------------------------------

class _Ctx:
    """Where a value came from, for error messages."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, path: str, msg: str) -> ConfigError:
        return ConfigError(f"{self.source}: {shorten(path, 32)}: {msg}")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _int_range(lo: int, hi: int, sentence: str = N_("{value} is not an integer ({lo}-{hi})")
               ) -> Callable[[_Ctx, str, Any], int]:
    """A check of an integer in lo..hi; `sentence` (marked with N_) says what it is not."""
    def check(ctx: _Ctx, path: str, v: Any) -> int:
        if not _is_int(v) or not lo <= v <= hi:
            raise ctx.fail(path, _(sentence).format(value=clip(v), lo=lo, hi=hi))
        return v
    return check


def _pin(ctx: _Ctx, path: str, v: Any) -> int:
    if not _is_int(v) or not 0 <= v <= MAX_BCM_PIN:
        raise ctx.fail(path, _("{value} is not a BCM pin (0-{hi})").format(value=clip(v), hi=MAX_BCM_PIN))
    return v


def _opt(check: Callable[[_Ctx, str, Any], Any]) -> Callable[[_Ctx, str, Any], Any]:
    def opt(ctx: _Ctx, path: str, v: Any) -> Any:
        return None if v is None else check(ctx, path, v)
    return opt


def _seconds(lo: float, hi: float) -> Callable[[_Ctx, str, Any], float]:
    def check(ctx: _Ctx, path: str, v: Any) -> float:
        if not _is_num(v) or not lo <= v <= hi:
            raise ctx.fail(path, _("{value} is not a number of seconds ({lo}-{hi})").format(
                value=clip(v), lo=lo, hi=hi))
        return v
    return check


def _bool(ctx: _Ctx, path: str, v: Any) -> bool:
    if not isinstance(v, bool):
        raise ctx.fail(path, _("{value} is not true or false").format(value=clip(v)))
    return v


def _choice(options: tuple) -> Callable[[_Ctx, str, Any], Any]:
    def check(ctx: _Ctx, path: str, v: Any) -> Any:
        # bool is an int in Python: `true` must not pass for a baud rate of 1.
        if isinstance(v, bool) or v not in options:
            raise ctx.fail(path, _("{value} is not one of {options}").format(
                value=clip(v), options=", ".join(map(str, options))))
        return v
    return check


def _text(ctx: _Ctx, path: str, v: Any) -> str:
    if not isinstance(v, str) or not v.strip():
        raise ctx.fail(path, _("{value} is not a non-empty string").format(value=clip(v)))
    return v


def _no_control_chars(ctx: _Ctx, path: str, v: str) -> None:
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in v):
        raise ctx.fail(path, _("{value} contains a control character").format(value=clip(v, 40)))
    if len(v) > MAX_PATH_CHARS:
        raise ctx.fail(path, _("is longer than {n} characters").format(n=MAX_PATH_CHARS))


def _is_under(path: str, top: str) -> bool:
    return path == top or path.startswith(top.rstrip("/") + "/")


def _normal_absolute(ctx: _Ctx, path: str, v: str) -> None:
    """An absolute path written plainly: no '.' or '..' part, no '//', no trailing '/'."""
    if not v.startswith("/"):
        raise ctx.fail(path, _("{value} is not an absolute path (start it with /)").format(value=clip(v, 40)))
    parts = v.split("/")[1:]
    if any(p in (".", "..") for p in parts):
        raise ctx.fail(path, _("{value} contains '.' or '..': write the path without them").format(
            value=clip(v, 40)))
    if v != "/" and any(p == "" for p in parts):
        raise ctx.fail(path, _("{value} contains '//' or ends with '/': write it plainly").format(value=clip(v, 40)))


def _data_dir(ctx: _Ctx, path: str, v: Any) -> str:
    """A directory the daemon writes into: absolute, plain, and outside the system's own trees."""
    v = _text(ctx, path, v)
    _no_control_chars(ctx, path, v)
    _normal_absolute(ctx, path, v)
    # Also where it leads today: a symlink must not smuggle it into /etc.
    for candidate in (v, os.path.realpath(v)):
        if candidate == "/":
            raise ctx.fail(path, _("{value} is the root directory: use a directory of its own, "
                                   "e.g. {example}").format(value=clip(v, 40), example="/var/lib/companion"))
        for top in FORBIDDEN_DIRS:
            if _is_under(candidate, top):
                if candidate == v:
                    raise ctx.fail(path, _("{value} is under {top}: use a directory of its own, "
                                           "e.g. {example}").format(value=clip(v, 40), top=top,
                                                                    example="/var/lib/companion"))
                raise ctx.fail(path, _("{value} is under {top} (it leads to {target}): use a directory of "
                                       "its own, e.g. {example}").format(
                    value=clip(v, 40), top=top, target=clip(candidate, 40), example="/var/lib/companion"))
    return v


def loop_allowed() -> bool:
    """True when the environment allows keypad.port: loop:// (tests only)."""
    return os.environ.get(ALLOW_LOOP_ENV) == "1"


def _serial_port(ctx: _Ctx, path: str, v: Any) -> str:
    v = _text(ctx, path, v)
    _no_control_chars(ctx, path, v)
    if v == "loop://":
        if loop_allowed():
            return v
        raise ctx.fail(path, _("loop:// is for tests ({setting}): use the keypad's /dev/serial/by-id/... "
                               "path").format(setting=f"{ALLOW_LOOP_ENV}=1"))
    if "://" in v or not v.startswith("/dev/"):
        raise ctx.fail(path, _("{value} is not a device path: use /dev/serial/by-id/... "
                               "(URLs can write files or open sockets)").format(value=clip(v, 40)))
    _normal_absolute(ctx, path, v)
    if not _DEVICE_CHARS.fullmatch(v):
        raise ctx.fail(path, _("{value} has characters a device name does not: "
                               "use the name listed by {command}").format(
            value=clip(v, 40), command="ls /dev/serial/by-id/"))
    if not any(v.startswith(p) for p in SERIAL_DEVICE_PREFIXES):
        raise ctx.fail(path, _("{value} is not a serial device: use /dev/serial/by-id/..., "
                               "/dev/ttyACM0 or /dev/serial0").format(value=clip(v, 40)))
    return v


def _audio_device(ctx: _Ctx, path: str, v: Any) -> str:
    v = _text(ctx, path, v)
    if not _DEVICE_CHARS.fullmatch(v) or v.startswith("-"):
        raise ctx.fail(path, _("{value} has characters a device name does not: "
                               "use the name listed by {command}").format(value=clip(v, 40), command="aplay -L"))
    return v


def _bot_move_time(ctx: _Ctx, path: str, v: Any) -> float:
    if not _is_num(v) or v < 0:
        raise ctx.fail(path, _("{value} is not a number of seconds ({lo}-{hi})").format(
            value=clip(v), lo=0, hi=f"{MAX_BOT_MOVE_TIME:g}"))
    if v > MAX_BOT_MOVE_TIME:
        raise ctx.fail(path, _("{value} s is too long: at most {most} s, well inside the service's "
                               "{watchdog} s watchdog (WatchdogSec=)").format(
            value=clip(v, 20), most=f"{MAX_BOT_MOVE_TIME:g}", watchdog=WATCHDOG_SEC))
    return v


def _address(ctx: _Ctx, path: str, v: Any) -> int:
    # YAML 1.1 reads 0x3C as an int already; a quoted "0x3C" is accepted too.
    if isinstance(v, str):
        try:
            v = int(v, 0)
        except ValueError:
            raise ctx.fail(path, _("{value} is not an I2C address (0x03-0x77)").format(value=clip(v))) from None
    if not _is_int(v) or not 0x03 <= v <= 0x77:
        raise ctx.fail(path, _("{value} is not an I2C address (0x03-0x77)").format(value=clip(v)))
    return v


def _display_driver(ctx: _Ctx, path: str, v: Any) -> str:
    if not is_display_driver(v):
        raise ctx.fail(path, _("{value} is not a luma.oled driver ({examples} ... {n} in all: luma.oled.device) "
                               "nor {others}").format(value=clip(v, 30), examples="ssd1306, sh1106, ssd1309, "
                                                      "ssd1315, sh1107", n=len(oled_drivers()),
                                                      others=", ".join(STAND_IN_DRIVERS)))
    return v


def _input_device(ctx: _Ctx, path: str, v: Any) -> str:
    v = _text(ctx, path, v)
    if v == "auto":
        return v
    _no_control_chars(ctx, path, v)
    if "://" in v or not v.startswith(USB_KEYPAD_PREFIX):
        raise ctx.fail(path, _("{value} is not an input device: use auto or "
                               "/dev/input/by-id/...-event-kbd ({command})").format(
            value=clip(v, 40), command="ls /dev/input/by-id/"))
    _normal_absolute(ctx, path, v)
    if not _DEVICE_CHARS.fullmatch(v):
        raise ctx.fail(path, _("{value} has characters a device name does not: "
                               "use the name listed by {command}").format(
            value=clip(v, 40), command="ls /dev/input/by-id/"))
    return v


def _keymap(ctx: _Ctx, path: str, v: Any) -> dict[str, str]:
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
        if _is_int(key) and 0 <= key <= 9:
            key = str(key)     # KEY_KP1: 1 reads as an int in YAML
        if not isinstance(key, str) or key not in KEYS:
            raise ctx.fail(where, _("{value} is not a key ({keys}; quote # and *)").format(
                value=clip(key), keys=tokens))
        out[name] = key
    return out


def _enabled(ctx: _Ctx, path: str, v: Any) -> bool | str:
    if v is True or v is False or v == "auto":
        return v
    raise ctx.fail(path, _("{value} is not auto, true or false").format(value=clip(v)))


def _section(ctx: _Ctx, path: str, raw: Any, cls: type,
             checks: dict[str, Callable[[_Ctx, str, Any], Any]]) -> Any:
    """Build dataclass `cls` from mapping `raw`, checking each key."""
    if not isinstance(raw, dict):
        raise ctx.fail(path, _("expected a mapping of keys, got {value}").format(value=clip(raw)))
    names = {f.name for f in fields(cls)}
    kwargs = {}
    for key, value in raw.items():
        if key not in names:
            raise ctx.fail(f"{path}.{key}", _("unknown key (known: {keys})").format(keys=", ".join(sorted(names))))
        kwargs[key] = checks[key](ctx, f"{path}.{key}", value)
    required = [f.name for f in fields(cls)
                if f.default is MISSING and f.default_factory is MISSING and f.name not in kwargs]
    if required:
        raise ctx.fail(f"{path}.{required[0]}", _("is required"))
    return cls(**kwargs)


_DISPLAY_CHECKS = {
    "driver": _display_driver,
    "port": _int_range(0, 99, N_("{value} is not an I2C bus number ({lo}-{hi})")),
    "address": _opt(_address),
    "rotate": _int_range(0, 3, N_("{value} is not a rotation ({lo}-{hi})")),
    "width": _int_range(8, 4096, N_("{value} is not a width in pixels ({lo}-{hi})")),
    "height": _int_range(8, 4096, N_("{value} is not a height in pixels ({lo}-{hi})")),
    "contrast": _int_range(0, 255, N_("{value} is not a contrast level ({lo}-{hi})")),
    "dim_contrast": _int_range(0, 255, N_("{value} is not a contrast level ({lo}-{hi})")),
    "frames_dir": _opt(_data_dir),
    "retry_seconds": _seconds(0.1, 3600),
}
_BUTTON_CHECKS = {
    "up": _pin, "down": _pin, "ok": _pin, "back": _pin, "menu": _opt(_pin),
    "bounce_ms": _int_range(0, 1000, N_("{value} is not a time in ms ({lo}-{hi})")),
    "long_press_s": _seconds(0.1, 60),
    "power_press_s": _seconds(0.5, 120),
    "enabled": _enabled,
}
_ENCODER_CHECKS = {"a": _pin, "b": _pin, "push": _opt(_pin)}
_KEYPAD_CHECKS = {"port": _serial_port, "baudrate": _choice(BAUDRATES)}
_USB_KEYPAD_CHECKS = {"device": _input_device, "grab": _bool, "keymap": _keymap}
_GAME_CHECKS = {"bot_move_time": _bot_move_time, "bot": _choice(BOT_NAMES)}
_SOUND_CHECKS = {
    "speech": _bool,
    "volume": _int_range(1, 5, N_("{value} is not a level ({lo}-{hi})")),
    "speed": _int_range(1, 5, N_("{value} is not a level ({lo}-{hi})")),
    "buzzer_pin": _opt(_pin),
    "buzzer_type": _choice(("active", "passive")),
    "audio_device": _opt(_audio_device),
}


def _file_path(ctx: _Ctx, path: str, v: Any) -> str:
    """A file the program reads or a socket it opens: an absolute, plain path."""
    v = _text(ctx, path, v)
    _no_control_chars(ctx, path, v)
    _normal_absolute(ctx, path, v)
    return v


def _hosts(ctx: _Ctx, path: str, v: Any) -> list[str]:
    if not isinstance(v, list):
        raise ctx.fail(path, _("expected a list of names, e.g. [clans.lan], got {value}").format(value=clip(v)))
    out = []
    for i, host in enumerate(v):
        host = _text(ctx, f"{path}[{i}]", host)
        _no_control_chars(ctx, f"{path}[{i}]", host)
        out.append(host.strip().lower())
    return out


_WEB_CHECKS = {
    "enabled": _bool,
    "bind": _text,
    "port": _int_range(1, 65535),
    "pin_file": _opt(_file_path),
    "allowed_hosts": _hosts,
    "key_socket": _opt(_file_path),
}


def _roster(ctx: _Ctx, path: str, v: Any) -> list[str]:
    from companion.table.seatnames import check_roster

    names, why = check_roster([] if v is None else v)
    if why is not None:
        raise ctx.fail(path, why)
    return names


def from_mapping(raw: Any, source: str) -> Config:
    ctx = _Ctx(source)
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise ctx.fail("(top)", _("expected a mapping of keys, got {value}").format(value=type(raw).__name__))
    top = {f.name for f in fields(Config)} - {"source"}
    cfg = Config(source=source)
    for key, value in raw.items():
        if key not in top:
            raise ctx.fail(shorten(str(key), 20), _("unknown key (known: {keys})").format(keys=", ".join(sorted(top))))
        if key == "display":
            cfg.display = _section(ctx, key, value or {}, DisplayConfig, _DISPLAY_CHECKS)
        elif key == "buttons":
            cfg.buttons = None if value is None else _section(ctx, key, value, ButtonsConfig, _BUTTON_CHECKS)
        elif key == "encoder":
            cfg.encoder = None if value is None else _section(ctx, key, value, EncoderConfig, _ENCODER_CHECKS)
        elif key == "keypad":
            cfg.keypad = None if value is None else _section(ctx, key, value, KeypadConfig, _KEYPAD_CHECKS)
        elif key == "usb_keypad":
            cfg.usb_keypad = (None if value is None
                              else _section(ctx, key, value or {}, UsbKeypadConfig, _USB_KEYPAD_CHECKS))
        elif key == "game":
            cfg.game = _section(ctx, key, value or {}, GameConfig, _GAME_CHECKS)
        elif key == "sound":
            cfg.sound = _section(ctx, key, value or {}, SoundConfig, _SOUND_CHECKS)
        elif key == "web":
            cfg.web = _section(ctx, key, value or {}, WebConfig, _WEB_CHECKS)
        elif key in ("idle_dim_seconds", "idle_off_seconds"):
            setattr(cfg, key, _opt(_seconds(1, 7 * 86400))(ctx, key, value))
        elif key == "pixel_shift":
            cfg.pixel_shift = _bool(ctx, key, value)
        elif key == "state_dir":
            cfg.state_dir = _opt(_data_dir)(ctx, key, value)
        elif key == "language":
            cfg.language = _opt(_choice(LANGUAGES))(ctx, key, value)
        elif key == "roster":
            cfg.roster = _roster(ctx, key, value)
    _cross_checks(ctx, cfg)
    return cfg


def _cross_checks(ctx: _Ctx, cfg: Config) -> None:
    d = cfg.display
    if d.driver == "png" and not d.frames_dir:
        raise ctx.fail("display.frames_dir", _("is required for driver {driver}").format(driver="png"))
    b = cfg.buttons
    if b is not None and b.long_press_s >= b.power_press_s:
        raise ctx.fail("buttons.power_press_s",
                       _("{value} must be longer than {other} ({other_value})").format(
                           value=b.power_press_s, other="long_press_s", other_value=b.long_press_s))
    used: dict[int, str] = {}
    if b is not None and b.enabled is not False:
        for role, pin in b.pins().items():
            used.setdefault(pin, f"buttons.{role}")
            if used[pin] != f"buttons.{role}":
                raise ctx.fail(f"buttons.{role}", _("pin {pin} is already used by {user}").format(
                    pin=pin, user=used[pin]))
    e = cfg.encoder
    if e is not None:
        for role in ("a", "b", "push"):
            pin = getattr(e, role)
            if pin is None:
                continue
            if pin in used:
                raise ctx.fail(f"encoder.{role}", _("pin {pin} is already used by {user}").format(
                    pin=pin, user=used[pin]))
            used[pin] = f"encoder.{role}"
    if cfg.sound.buzzer_pin is not None:
        pin = cfg.sound.buzzer_pin
        if pin in used:
            raise ctx.fail("sound.buzzer_pin", _("pin {pin} is already used by {user}").format(pin=pin, user=used[pin]))
        used[pin] = "sound.buzzer_pin"
    for pin, where in sorted(used.items(), key=lambda item: item[1]):
        if pin in RESERVED_PINS:
            spare = [p for p in SPARE_PINS if p not in used][:4]
            # NOTE: {reason} says what the pin is for (English, from companion/config.py)
            raise ctx.fail(where, _("pin {pin}: {reason}; use a free pin instead, e.g. {pins}").format(
                pin=pin, reason=RESERVED_PINS[pin], pins=", ".join(map(str, spare))))
    if (cfg.idle_dim_seconds is not None and cfg.idle_off_seconds is not None
            and cfg.idle_off_seconds <= cfg.idle_dim_seconds):
        raise ctx.fail("idle_off_seconds",
                       _("{value} must be longer than {other} ({other_value})").format(
                           value=cfg.idle_off_seconds, other="idle_dim_seconds", other_value=cfg.idle_dim_seconds))


