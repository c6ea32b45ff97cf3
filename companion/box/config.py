"""The companion's configuration file: load, validate, describe.

`load_config(path)` reads a YAML file (by default /etc/companion/config.yaml,
used only if it exists) and returns a `Config` of small dataclasses. With no
file the built-in defaults apply, so the box starts without any config.
Everything is validated at start: an unknown key or a bad value raises
`ConfigError` whose message names the file and the key path, e.g.
``config.yaml: buttons.up: 99 is not a BCM pin (0-27)``.
Every key is checked and every path and device made safe (`from_mapping(raw, source)` turns
the parsed YAML into a `Config`). The errors are read by whoever sets the box up
(`companion doctor`, `companion run`), so each sentence goes through `companion.i18n` (key
paths, values and commands are placeholders).

`EXAMPLE_YAML` is a commented example config; the tests load it, so the
documented example always validates. The constants that a start needs without a config
file live in `companion.box.config_base`, so a headless run does not pay for the rest; the
hardware's sections (`DisplayConfig`, `ButtonsConfig`, `EncoderConfig`, `KeypadConfig`,
`UsbKeypadConfig`) live beside the adapters that take them, in `companion.hw.settings`.
Both are re-exported here.
"""

from __future__ import annotations

import os
import re
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, Callable

from companion.box.config_base import (KNOWN_OLED_DRIVERS, MAX_BOT_MOVE_TIME, OLED_ADDRESSES,  # noqa: F401
                                       WATCHDOG_SEC, DisplayConfig, display_drivers,
                                       is_display_driver, is_oled, oled_drivers)
from companion.hw.settings import (KEYPAD_PROTOCOLS, ButtonsConfig, EncoderConfig, KeypadConfig,  # noqa: F401
                                   UsbKeypadConfig)
from companion.games import bot_names, default_bot
from companion.hw.sinks import stand_ins, writes_frames
from companion.i18n import LANGUAGES, N_, _
from companion.util.bounded import BoundedInputError, clip, load_yaml, read_text, shorten
from companion.table.keys import KEYS

DEFAULT_PATH = "/etc/companion/config.yaml"
MAX_CONFIG_BYTES = 64 * 1024
DEFAULT_STATE_DIR = "/var/lib/companion"

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


class ConfigError(ValueError):
    """A config file that cannot be used; the message names the key path."""


@dataclass
class GameConfig:
    """Game options."""

    bot_move_time: float = 0.5
    bot: str = field(default_factory=default_bot)  # the registry's: the first game's default bot


@dataclass
class SoundConfig:
    """The table's sound (companion.hw.sound): speech through espeak-ng, an optional buzzer.

    `speech`, `volume` (1-5), `speed` (1-5) are where the table starts; the menu's Sound
    item changes them and a restart keeps that. `buzzer_pin`: the BCM pin of a buzzer
    (None: none fitted), `buzzer_type` "active" (sounds by itself) or "passive" (needs a
    tone). `audio_device`: an ALSA device for espeak-ng (None: the default output)."""

    speech: bool = False
    volume: int = 3
    speed: int = 3
    buzzer_pin: int | None = None
    buzzer_type: str = "active"
    audio_device: str | None = None


@dataclass
class WebConfig:
    """The table's page (`companion web`, companion.web): read-only unless a PIN file is set.

    `enabled` tells `install-service` to start the web service; `bind` and `port` where it
    listens; `pin_file` a file holding the PIN (4-16 digits; fewer than 10 starts the page
    with a warning) that allows changes from a phone, unless the menu's New PIN made one
    (`web-pin` in the state directory, which then wins); `allowed_hosts` more names the page may be reached by (beside the box's own
    name, address and localhost); `key_socket` the Unix socket the daemon reads keys typed
    on a phone from (None: $RUNTIME_DIRECTORY/keys.sock under systemd, else none)."""

    enabled: bool = False
    bind: str = "0.0.0.0"
    port: int = 8080
    pin_file: str | None = None
    allowed_hosts: list[str] = field(default_factory=list)
    key_socket: str | None = None

    def resolved_key_socket(self) -> str | None:
        """key_socket, else $RUNTIME_DIRECTORY/keys.sock when systemd gives one (first entry)."""
        if self.key_socket:
            return self.key_socket
        runtime = os.environ.get("RUNTIME_DIRECTORY", "").split(":")[0]
        return os.path.join(runtime, "keys.sock") if runtime else None


@dataclass
class Config:
    """The whole configuration. `source` is the file it came from."""

    display: DisplayConfig = field(default_factory=DisplayConfig)
    buttons: ButtonsConfig | None = field(default_factory=ButtonsConfig)
    encoder: EncoderConfig | None = None
    keypad: KeypadConfig | None = None
    usb_keypad: UsbKeypadConfig | None = None
    idle_dim_seconds: float | None = 120
    idle_off_seconds: float | None = 900
    pixel_shift: bool = True
    state_dir: str | None = None
    game: GameConfig = field(default_factory=GameConfig)
    language: str | None = None  # it | es | fr | de | en; None: the system locale's, else English
    sound: SoundConfig = field(default_factory=SoundConfig)
    web: WebConfig = field(default_factory=WebConfig)
    roster: list[str] = field(default_factory=list)  # the players' names a seat picks at a new game
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
        if is_oled(d.driver):
            where = "auto (0x3C, 0x3D)" if d.address is None else f"0x{d.address:02X}"
            disp = f"{d.driver} i2c-{d.port}@{where}"
        elif writes_frames(d.driver):
            disp = f"{d.driver} -> {d.frames_dir}"
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
        u = self.usb_keypad
        usb = (f"{u.device} grab={u.grab} keymap={len(u.keymap) or 'built-in'}"
               f"{' keys' if u.keymap else ''}" if u else "none")
        return (f"config {self.source}: display {disp}; buttons {btn}; "
                f"encoder {enc}; keypad {kp}; usb_keypad {usb}; idle dim {self.idle_dim_seconds} s, "
                f"off {self.idle_off_seconds} s; pixel_shift {self.pixel_shift}; "
                f"state_dir {self.resolved_state_dir()}; "
                f"bot {self.game.bot}, bot_move_time {self.game.bot_move_time} s; "
                f"language {self.language or 'from the locale'}; "
                f"speech {'on' if self.sound.speech else 'off'}, buzzer "
                f"{'none' if self.sound.buzzer_pin is None else f'{self.sound.buzzer_type} on BCM {self.sound.buzzer_pin}'}")


EXAMPLE_YAML = """\
# /etc/companion/config.yaml -- every key is optional; these are examples.
display:
  driver: ssd1306        # any luma.oled name: ssd1306 | sh1106 | ssd1309 | ssd1315 | sh1107 ...
                         #   or dummy | terminal | png (no OLED)
  port: 1                # I2C bus: /dev/i2c-1
  address: 0x3C          # 0x3C or 0x3D (i2cdetect -y 1); leave out to probe both
  rotate: 2              # 0-3, quarter turns clockwise (2: mounted upside down)
  contrast: 200          # 0-255
  dim_contrast: 16       # contrast after idle_dim_seconds
  retry_seconds: 5       # re-try an unplugged OLED this often
  # frames_dir: /tmp/frames   # driver png: where frame_00001.png... go (absolute path)
buttons:                 # BCM pin numbers, buttons wired to ground; never 0-3 (I2C, HAT EEPROM)
  enabled: auto          # auto: only on a Raspberry Pi | true | false
  up: 17
  down: 27
  ok: 22
  back: 23               # long press: menu; hold power_press_s: shut down
  menu: 24               # null: no MENU button fitted (a long press on BACK opens the menu)
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
  protocol: framed       # framed: firmware/serial-keypad's checked frames | one-byte: an old keypad (noise plays keys)
# usb_keypad:            # optional USB (HID) number pad, read through evdev
#   device: auto         # auto: the first /dev/input/by-id/*-event-kbd | a /dev/input/... path
#   grab: true           # keep its keys away from the console
#   keymap:              # evdev key name -> key (0-9 # * A B C D POWER), on top of the built-in map
#     KEY_KPENTER: "#"
#     KEY_KPASTERISK: "*"
#     KEY_KPSLASH: D
idle_dim_seconds: 120    # null: never dim
idle_off_seconds: 900    # null: never switch the panel off
pixel_shift: true        # move the picture a pixel now and then (burn-in)
state_dir: null          # null: $STATE_DIRECTORY, else /var/lib/companion (absolute path)
language: null           # it | es | fr | de | en; null: the system locale's, else English
                         #   (the menu's Language item overrides it, and a restart keeps that)
game:
  bot_move_time: 0.5     # seconds a bot may think per move (and a hint); at most 10
  bot: {bot:<18}# who plays the bot seats: {bots}
sound:                   # the menu's Sound item changes these, and a restart keeps that
  speech: false          # speak the moves, phases and results (espeak-ng, in the table's language)
  volume: 3              # 1-5
  speed: 3               # 1-5, how fast the voice speaks
  buzzer_pin: null       # BCM pin of a buzzer (e.g. 18); null: none fitted
  buzzer_type: active    # active (beeps by itself) | passive (needs a tone)
  audio_device: null     # an ALSA device for the voice (aplay -L), e.g. plughw:CARD=Device; null: the default
roster: []               # the players' names, e.g. [Anna, Ben, Chiara]: at a new game each seat picks one
                         #   (or Guest); the table's page changes it with the PIN. []: seats are Player 1..N
web:                     # the table's page for phones (companion web; README: Phone view)
  enabled: false         # true: install-service starts the page's own service
  bind: 0.0.0.0          # 0.0.0.0: every network of the box; 127.0.0.1: this box only
  port: 8080
  pin_file: null         # a file holding a PIN (4-16 digits): phones may then play keys; null: read-only
                         #   until the menu's New PIN makes one (10 digits, kept in the state directory)
  allowed_hosts: []      # more names the page is reached by (its own name, address and localhost always work)
  key_socket: null       # null: $RUNTIME_DIRECTORY/keys.sock under systemd (/run/companion/keys.sock)
""".format(  # the bots: the registry's, its default first, then the rest strongest first
    bot=default_bot(), bots=" | ".join([default_bot()] + [b for b in reversed(bot_names()) if b != default_bot()]))


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


def _choice(choices: tuple | Callable[[], tuple]) -> Callable[[_Ctx, str, Any], Any]:
    """A check that `v` is one of `choices` (or of what `choices()` says when the check runs)."""
    def check(ctx: _Ctx, path: str, v: Any) -> Any:
        options = choices() if callable(choices) else choices
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
                                                      others=", ".join(stand_ins())))
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
_KEYPAD_CHECKS = {"port": _serial_port, "baudrate": _choice(BAUDRATES), "protocol": _choice(KEYPAD_PROTOCOLS)}
_USB_KEYPAD_CHECKS = {"device": _input_device, "grab": _bool, "keymap": _keymap}
_GAME_CHECKS = {"bot_move_time": _bot_move_time, "bot": _choice(bot_names)}
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
    if writes_frames(d.driver) and not d.frames_dir:
        raise ctx.fail("display.frames_dir", _("is required for driver {driver}").format(driver=d.driver))
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
            # NOTE: {reason} says what the pin is for (English, from companion/box/config.py)
            raise ctx.fail(where, _("pin {pin}: {reason}; use a free pin instead, e.g. {pins}").format(
                pin=pin, reason=RESERVED_PINS[pin], pins=", ".join(map(str, spare))))
    if (cfg.idle_dim_seconds is not None and cfg.idle_off_seconds is not None
            and cfg.idle_off_seconds <= cfg.idle_dim_seconds):
        raise ctx.fail("idle_off_seconds",
                       _("{value} must be longer than {other} ({other_value})").format(
                           value=cfg.idle_off_seconds, other="idle_dim_seconds", other_value=cfg.idle_dim_seconds))


def load_config_text(text: str, source: str = "<string>") -> Config:
    """Parse and validate YAML `text`; `source` names it in error messages."""
    try:
        raw = load_yaml(text, source)
    except BoundedInputError as e:
        raise ConfigError(str(e)) from None
    return from_mapping(raw, source)


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
