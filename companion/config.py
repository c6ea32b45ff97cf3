"""The companion's configuration file: load, validate, describe.

`load_config(path)` reads a YAML file (by default /etc/companion/config.yaml,
used only if it exists) and returns a `Config` of small dataclasses. With no
file the built-in defaults apply, so the box starts without any config.
Everything is validated at start: an unknown key or a bad value raises
`ConfigError` whose message names the file and the key path, e.g.
``config.yaml: buttons.up: 99 is not a BCM pin (0-27)``.

`EXAMPLE_YAML` is a commented example config; the tests load it, so the
documented example always validates. The constants and `DisplayConfig` that a start
needs without a config file live in `companion.config_base` (re-exported here), so a
headless run does not pay for the rest.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from companion.config_base import (BOT_NAMES, KNOWN_OLED_DRIVERS, MAX_BOT_MOVE_TIME, OLED_ADDRESSES,  # noqa: F401
                                   STAND_IN_DRIVERS, WATCHDOG_SEC, DisplayConfig, display_drivers,
                                   is_display_driver, is_oled, oled_drivers)
from companion.table.bounded import BoundedInputError, load_yaml, read_text

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
class GameConfig:
    """Game options."""

    bot_move_time: float = 0.5
    bot: str = "mcts"


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
        if d.driver not in STAND_IN_DRIVERS:
            where = "auto (0x3C, 0x3D)" if d.address is None else f"0x{d.address:02X}"
            disp = f"{d.driver} i2c-{d.port}@{where}"
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
  bot: mcts              # who plays the bot seats: mcts | greedy | random
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
"""


def load_config_text(text: str, source: str = "<string>") -> Config:
    """Parse and validate YAML `text`; `source` names it in error messages."""
    try:
        raw = load_yaml(text, source)
    except BoundedInputError as e:
        raise ConfigError(str(e)) from None
    from companion.config_checks import from_mapping

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
