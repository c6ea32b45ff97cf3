"""The companion's configuration file: load, validate, describe.

`load_config(path)` reads a YAML file (by default /etc/companion/config.yaml,
used only if it exists) and returns a `Config` of small dataclasses. With no
file the built-in defaults apply, so the box starts without any config.
Everything is validated at start: an unknown key or a bad value raises
`ConfigError` whose message names the file and the key path, e.g.
``config.yaml: buttons.up: 99 is not a BCM pin (0-27)``.

`EXAMPLE_YAML` is a commented example config; the tests load it, so the
documented example always validates.
"""

from __future__ import annotations

import os
import re
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, Callable

from companion.table.bounded import BoundedInputError, clip, load_yaml, read_text, shorten

DEFAULT_PATH = "/etc/companion/config.yaml"
MAX_CONFIG_BYTES = 64 * 1024
DEFAULT_STATE_DIR = "/var/lib/companion"

# The unit's WatchdogSec= (systemd/companion.service; a test keeps them equal).
# A bot may think for at most MAX_BOT_MOVE_TIME seconds per move, a third of
# the watchdog, so a move can never look like a hung daemon.
WATCHDOG_SEC = 30
MAX_BOT_MOVE_TIME = 10.0

# keypad.port: serial devices only (see KeypadConfig). loop:// for tests.
ALLOW_LOOP_ENV = "COMPANION_ALLOW_LOOP"
SERIAL_DEVICE_PREFIXES = ("/dev/serial", "/dev/tty", "/dev/rfcomm", "/dev/pts/")
# Directories the config may never point frames_dir or state_dir into
# (the paths themselves and everything under them).
FORBIDDEN_DIRS = ("/proc", "/sys", "/dev", "/boot", "/etc", "/usr", "/bin", "/sbin",
                  "/lib", "/lib32", "/lib64", "/libx32", "/run/systemd", "/run/dbus",
                  "/var/lib/dpkg", "/var/lib/apt", "/var/lib/systemd", "/var/log",
                  "/var/cache", "/var/spool", "/var/mail")
MAX_PATH_CHARS = 1024
_DEVICE_CHARS = re.compile(r"[A-Za-z0-9._:+@=,/-]+")

DISPLAY_DRIVERS = ("ssd1306", "sh1106", "dummy", "terminal", "png")
BAUDRATES = (1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200)
MAX_BCM_PIN = 27


class ConfigError(ValueError):
    """A config file that cannot be used; the message names the key path."""


@dataclass
class DisplayConfig:
    """The OLED (or a stand-in). `retry_seconds`: how often to try to
    re-create an unplugged OLED; `dim_contrast`: contrast when idle."""

    driver: str = "ssd1306"
    port: int = 1
    address: int = 0x3C
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
    when the environment has ``COMPANION_ALLOW_LOOP=1``, for tests."""

    port: str
    baudrate: int = 9600


# The names companion.games.clans.bots.make_bot knows (kept here so the config loads without the bots).
BOT_NAMES = ("random", "greedy", "mcts")


@dataclass
class GameConfig:
    """Game options."""

    bot_move_time: float = 0.5
    bot: str = "mcts"


@dataclass
class Config:
    """The whole configuration. `source` is the file it came from."""

    display: DisplayConfig = field(default_factory=DisplayConfig)
    buttons: ButtonsConfig | None = field(default_factory=ButtonsConfig)
    encoder: EncoderConfig | None = None
    keypad: KeypadConfig | None = None
    idle_dim_seconds: float | None = 120
    idle_off_seconds: float | None = 900
    pixel_shift: bool = True
    state_dir: str | None = None
    game: GameConfig = field(default_factory=GameConfig)
    source: str = "<defaults>"

    def resolved_state_dir(self) -> str:
        """state_dir, else systemd's $STATE_DIRECTORY (first entry), else
        /var/lib/companion."""
        if self.state_dir:
            return self.state_dir
        env = os.environ.get("STATE_DIRECTORY", "")
        first = env.split(":")[0]
        return first or DEFAULT_STATE_DIR

    def describe(self) -> str:
        """One line for the log: what hardware and timings are in use."""
        d = self.display
        if d.driver in ("ssd1306", "sh1106"):
            disp = f"{d.driver} i2c-{d.port}@0x{d.address:02X}"
        elif d.driver == "png":
            disp = f"png -> {d.frames_dir}"
        else:
            disp = d.driver
        disp += f" {d.width}x{d.height} rotate={d.rotate} contrast={d.contrast}"
        b = self.buttons
        if b is None or b.enabled is False:
            btn = "off"
        else:
            pins = " ".join(f"{k}={v}" for k, v in b.pins().items())
            btn = f"{b.enabled} ({pins}; bounce {b.bounce_ms} ms)"
        e = self.encoder
        enc = f"a={e.a} b={e.b} push={e.push}" if e else "none"
        k = self.keypad
        kp = f"{k.port}@{k.baudrate}" if k else "none"
        return (f"config {self.source}: display {disp}; buttons {btn}; "
                f"encoder {enc}; keypad {kp}; idle dim {self.idle_dim_seconds} s, "
                f"off {self.idle_off_seconds} s; pixel_shift {self.pixel_shift}; "
                f"state_dir {self.resolved_state_dir()}; "
                f"bot {self.game.bot}, bot_move_time {self.game.bot_move_time} s")


EXAMPLE_YAML = """\
# /etc/companion/config.yaml -- every key is optional; these are examples.
display:
  driver: ssd1306        # ssd1306 | sh1106 | dummy | terminal | png
  port: 1                # I2C bus: /dev/i2c-1
  address: 0x3C          # 0x3C or 0x3D (i2cdetect -y 1)
  rotate: 2              # 0-3, quarter turns clockwise (2: mounted upside down)
  contrast: 200          # 0-255
  dim_contrast: 16       # contrast after idle_dim_seconds
  retry_seconds: 5       # re-try an unplugged OLED this often
  # frames_dir: /tmp/frames   # driver png: where frame_00001.png... go (absolute path)
buttons:                 # BCM pin numbers, buttons wired to ground
  enabled: auto          # auto: only on a Raspberry Pi | true | false
  up: 17
  down: 27
  ok: 22
  back: 23               # long press: menu; hold power_press_s: shut down
  menu: null             # no MENU button fitted
  bounce_ms: 30
  long_press_s: 1.0
  power_press_s: 4.0
encoder:                 # optional rotary encoder (omit or null if none)
  a: 5
  b: 6
  push: 13
keypad:                  # optional serial keypad (omit or null if none)
  port: /dev/serial/by-id/usb-1a86_USB_Serial-if00-port0   # a device under /dev only
  baudrate: 9600
idle_dim_seconds: 120    # null: never dim
idle_off_seconds: 900    # null: never switch the panel off
pixel_shift: true        # move the picture a pixel now and then (burn-in)
state_dir: null          # null: $STATE_DIRECTORY, else /var/lib/companion (absolute path)
game:
  bot_move_time: 0.5     # seconds a bot may think per move (and a hint); at most 10
  bot: mcts              # who plays the bot seats: mcts | greedy | random
"""


# --- validation helpers -----------------------------------------------------

class _Ctx:
    """Where a value came from, for error messages."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, path: str, msg: str) -> ConfigError:
        return ConfigError(f"{self.source}: {shorten(path, 60)}: {msg}")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _int_range(lo: int, hi: int, what: str = "") -> Callable[[_Ctx, str, Any], int]:
    def check(ctx: _Ctx, path: str, v: Any) -> int:
        if not _is_int(v) or not lo <= v <= hi:
            raise ctx.fail(path, f"{clip(v)} is not {what or 'an integer'} ({lo}-{hi})")
        return v
    return check


def _pin(ctx: _Ctx, path: str, v: Any) -> int:
    if not _is_int(v) or not 0 <= v <= MAX_BCM_PIN:
        raise ctx.fail(path, f"{clip(v)} is not a BCM pin (0-{MAX_BCM_PIN})")
    return v


def _opt(check: Callable[[_Ctx, str, Any], Any]) -> Callable[[_Ctx, str, Any], Any]:
    def opt(ctx: _Ctx, path: str, v: Any) -> Any:
        return None if v is None else check(ctx, path, v)
    return opt


def _seconds(lo: float, hi: float) -> Callable[[_Ctx, str, Any], float]:
    def check(ctx: _Ctx, path: str, v: Any) -> float:
        if not _is_num(v) or not lo <= v <= hi:
            raise ctx.fail(path, f"{clip(v)} is not a number of seconds ({lo}-{hi})")
        return v
    return check


def _bool(ctx: _Ctx, path: str, v: Any) -> bool:
    if not isinstance(v, bool):
        raise ctx.fail(path, f"{clip(v)} is not true or false")
    return v


def _choice(options: tuple) -> Callable[[_Ctx, str, Any], Any]:
    def check(ctx: _Ctx, path: str, v: Any) -> Any:
        # bool is an int in Python: `true` must not pass for a baud rate of 1.
        if isinstance(v, bool) or v not in options:
            raise ctx.fail(path, f"{clip(v)} is not one of {', '.join(map(str, options))}")
        return v
    return check


def _text(ctx: _Ctx, path: str, v: Any) -> str:
    if not isinstance(v, str) or not v.strip():
        raise ctx.fail(path, f"{clip(v)} is not a non-empty string")
    return v


def _no_control_chars(ctx: _Ctx, path: str, v: str) -> None:
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in v):
        raise ctx.fail(path, f"{clip(v, 40)} contains a control character")
    if len(v) > MAX_PATH_CHARS:
        raise ctx.fail(path, f"is longer than {MAX_PATH_CHARS} characters")


def _is_under(path: str, top: str) -> bool:
    return path == top or path.startswith(top.rstrip("/") + "/")


def _normal_absolute(ctx: _Ctx, path: str, v: str) -> None:
    """An absolute path written plainly: no '.' or '..' part, no '//', no trailing '/'."""
    if not v.startswith("/"):
        raise ctx.fail(path, f"{clip(v, 40)} is not an absolute path (start it with /)")
    parts = v.split("/")[1:]
    if any(p in (".", "..") for p in parts):
        raise ctx.fail(path, f"{clip(v, 40)} contains '.' or '..': write the path without them")
    if v != "/" and any(p == "" for p in parts):
        raise ctx.fail(path, f"{clip(v, 40)} contains '//' or ends with '/': write it plainly")


def _data_dir(ctx: _Ctx, path: str, v: Any) -> str:
    """A directory the daemon writes into: absolute, plain, and outside the system's own trees."""
    v = _text(ctx, path, v)
    _no_control_chars(ctx, path, v)
    _normal_absolute(ctx, path, v)
    # Also where it leads today: a symlink must not smuggle it into /etc.
    for candidate in (v, os.path.realpath(v)):
        if candidate == "/":
            raise ctx.fail(path, f"{clip(v, 40)} is the root directory: use a directory of its own, "
                                 "e.g. /var/lib/companion")
        for top in FORBIDDEN_DIRS:
            if _is_under(candidate, top):
                shown = "" if candidate == v else f" (it leads to {clip(candidate, 40)})"
                raise ctx.fail(path, f"{clip(v, 40)} is under {top}{shown}: "
                                     "use a directory of its own, e.g. /var/lib/companion")
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
        raise ctx.fail(path, f"loop:// is for tests ({ALLOW_LOOP_ENV}=1): "
                             "use the keypad's /dev/serial/by-id/... path")
    if "://" in v or not v.startswith("/dev/"):
        raise ctx.fail(path, f"{clip(v, 40)} is not a device path: use /dev/serial/by-id/... "
                             "(URLs can write files or open sockets)")
    _normal_absolute(ctx, path, v)
    if not _DEVICE_CHARS.fullmatch(v):
        raise ctx.fail(path, f"{clip(v, 40)} has characters a device name does not: "
                             "use the name listed by ls /dev/serial/by-id/")
    if not any(v.startswith(p) for p in SERIAL_DEVICE_PREFIXES):
        raise ctx.fail(path, f"{clip(v, 40)} is not a serial device: use /dev/serial/by-id/..., "
                             "/dev/ttyACM0 or /dev/serial0")
    return v


def _bot_move_time(ctx: _Ctx, path: str, v: Any) -> float:
    if not _is_num(v) or v < 0:
        raise ctx.fail(path, f"{clip(v)} is not a number of seconds (0-{MAX_BOT_MOVE_TIME:g})")
    if v > MAX_BOT_MOVE_TIME:
        raise ctx.fail(path, f"{clip(v, 20)} s is too long: at most {MAX_BOT_MOVE_TIME:g} s, well "
                             f"inside the service's {WATCHDOG_SEC} s watchdog (WatchdogSec=)")
    return v


def _address(ctx: _Ctx, path: str, v: Any) -> int:
    # YAML 1.1 reads 0x3C as an int already; a quoted "0x3C" is accepted too.
    if isinstance(v, str):
        try:
            v = int(v, 0)
        except ValueError:
            raise ctx.fail(path, f"{clip(v)} is not an I2C address (0x03-0x77)") from None
    if not _is_int(v) or not 0x03 <= v <= 0x77:
        raise ctx.fail(path, f"{clip(v)} is not an I2C address (0x03-0x77)")
    return v


def _enabled(ctx: _Ctx, path: str, v: Any) -> bool | str:
    if v is True or v is False or v == "auto":
        return v
    raise ctx.fail(path, f"{clip(v)} is not auto, true or false")


def _section(ctx: _Ctx, path: str, raw: Any, cls: type,
             checks: dict[str, Callable[[_Ctx, str, Any], Any]]) -> Any:
    """Build dataclass `cls` from mapping `raw`, checking each key."""
    if not isinstance(raw, dict):
        raise ctx.fail(path, f"expected a mapping of keys, got {clip(raw)}")
    names = {f.name for f in fields(cls)}
    kwargs = {}
    for key, value in raw.items():
        if key not in names:
            raise ctx.fail(f"{path}.{key}", f"unknown key (known: {', '.join(sorted(names))})")
        kwargs[key] = checks[key](ctx, f"{path}.{key}", value)
    required = [f.name for f in fields(cls)
                if f.default is MISSING and f.default_factory is MISSING and f.name not in kwargs]
    if required:
        raise ctx.fail(f"{path}.{required[0]}", "is required")
    return cls(**kwargs)


_DISPLAY_CHECKS = {
    "driver": _choice(DISPLAY_DRIVERS),
    "port": _int_range(0, 99, "an I2C bus number"),
    "address": _address,
    "rotate": _int_range(0, 3, "a rotation"),
    "width": _int_range(8, 4096, "a width in pixels"),
    "height": _int_range(8, 4096, "a height in pixels"),
    "contrast": _int_range(0, 255, "a contrast level"),
    "dim_contrast": _int_range(0, 255, "a contrast level"),
    "frames_dir": _opt(_data_dir),
    "retry_seconds": _seconds(0.1, 3600),
}
_BUTTON_CHECKS = {
    "up": _pin, "down": _pin, "ok": _pin, "back": _pin, "menu": _opt(_pin),
    "bounce_ms": _int_range(0, 1000, "a time in ms"),
    "long_press_s": _seconds(0.1, 60),
    "power_press_s": _seconds(0.5, 120),
    "enabled": _enabled,
}
_ENCODER_CHECKS = {"a": _pin, "b": _pin, "push": _opt(_pin)}
_KEYPAD_CHECKS = {"port": _serial_port, "baudrate": _choice(BAUDRATES)}
_GAME_CHECKS = {"bot_move_time": _bot_move_time, "bot": _choice(BOT_NAMES)}


def _from_mapping(raw: Any, source: str) -> Config:
    ctx = _Ctx(source)
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise ctx.fail("(top)", f"expected a mapping of keys, got {type(raw).__name__}")
    top = {f.name for f in fields(Config)} - {"source"}
    cfg = Config(source=source)
    for key, value in raw.items():
        if key not in top:
            raise ctx.fail(str(key), f"unknown key (known: {', '.join(sorted(top))})")
        if key == "display":
            cfg.display = _section(ctx, key, value or {}, DisplayConfig, _DISPLAY_CHECKS)
        elif key == "buttons":
            cfg.buttons = None if value is None else _section(ctx, key, value, ButtonsConfig, _BUTTON_CHECKS)
        elif key == "encoder":
            cfg.encoder = None if value is None else _section(ctx, key, value, EncoderConfig, _ENCODER_CHECKS)
        elif key == "keypad":
            cfg.keypad = None if value is None else _section(ctx, key, value, KeypadConfig, _KEYPAD_CHECKS)
        elif key == "game":
            cfg.game = _section(ctx, key, value or {}, GameConfig, _GAME_CHECKS)
        elif key in ("idle_dim_seconds", "idle_off_seconds"):
            setattr(cfg, key, _opt(_seconds(1, 7 * 86400))(ctx, key, value))
        elif key == "pixel_shift":
            cfg.pixel_shift = _bool(ctx, key, value)
        elif key == "state_dir":
            cfg.state_dir = _opt(_data_dir)(ctx, key, value)
    _cross_checks(ctx, cfg)
    return cfg


def _cross_checks(ctx: _Ctx, cfg: Config) -> None:
    d = cfg.display
    if d.driver == "png" and not d.frames_dir:
        raise ctx.fail("display.frames_dir", "is required for driver png")
    b = cfg.buttons
    if b is not None and b.long_press_s >= b.power_press_s:
        raise ctx.fail("buttons.power_press_s",
                       f"{b.power_press_s} must be longer than long_press_s ({b.long_press_s})")
    used: dict[int, str] = {}
    if b is not None and b.enabled is not False:
        for role, pin in b.pins().items():
            used.setdefault(pin, f"buttons.{role}")
            if used[pin] != f"buttons.{role}":
                raise ctx.fail(f"buttons.{role}", f"pin {pin} is already used by {used[pin]}")
    e = cfg.encoder
    if e is not None:
        for role in ("a", "b", "push"):
            pin = getattr(e, role)
            if pin is None:
                continue
            if pin in used:
                raise ctx.fail(f"encoder.{role}", f"pin {pin} is already used by {used[pin]}")
            used[pin] = f"encoder.{role}"
    if (cfg.idle_dim_seconds is not None and cfg.idle_off_seconds is not None
            and cfg.idle_off_seconds <= cfg.idle_dim_seconds):
        raise ctx.fail("idle_off_seconds",
                       f"{cfg.idle_off_seconds} must be longer than idle_dim_seconds "
                       f"({cfg.idle_dim_seconds})")


def load_config_text(text: str, source: str = "<string>") -> Config:
    """Parse and validate YAML `text`; `source` names it in error messages."""
    try:
        raw = load_yaml(text, source)
    except BoundedInputError as e:
        raise ConfigError(str(e)) from None
    return _from_mapping(raw, source)


def load_config(path: str | None = None) -> Config:
    """Load the config from `path`, or from /etc/companion/config.yaml if it
    exists, else return the built-in defaults. Raises ConfigError."""
    if path is None:
        if not os.path.exists(DEFAULT_PATH):
            return Config()
        path = DEFAULT_PATH
    try:
        text = read_text(path, MAX_CONFIG_BYTES)
    except OSError as e:
        raise ConfigError(f"{path}: cannot read: {e.strerror or e}") from None
    except BoundedInputError as e:
        raise ConfigError(str(e)) from None
    return load_config_text(text, source=path)
