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
from dataclasses import dataclass, field, fields
from typing import Any

from companion.box.config_base import (HINT_LEVELS, KNOWN_OLED_DRIVERS, MAX_BOT_MOVE_TIME, OLED_ADDRESSES,  # noqa: F401
                                       WATCHDOG_SEC, DisplayConfig, display_drivers,
                                       is_display_driver, is_oled, oled_drivers)
from companion.checks import (ConfigError, Ctx, boolean, choice, data_dir, file_path, int_range,  # noqa: F401
                              is_num, no_control_chars, opt, seconds, section, text)
from companion.games import bot_names, default_bot
from companion.hw.settings import (KEYPAD_PROTOCOLS, ButtonsConfig, CameraConfig, EncoderConfig,  # noqa: F401
                                   KeypadConfig, UsbKeypadConfig)
from companion.hw.settings_checks import (BUTTON_CHECKS, CAMERA_CHECKS, DISPLAY_CHECKS, ENCODER_CHECKS, KEYPAD_CHECKS,
                                          USB_KEYPAD_CHECKS, audio_device, check_pins, pin)
from companion.hw.sinks import writes_frames
from companion.i18n import LANGUAGES, N_, _
from companion.util.bounded import BoundedInputError, clip, load_yaml, read_text, shorten

DEFAULT_PATH = "/etc/companion/config.yaml"
MAX_CONFIG_BYTES = 64 * 1024
DEFAULT_STATE_DIR = "/var/lib/companion"



@dataclass
class GameConfig:
    """Game options."""

    bot_move_time: float = 0.5
    bot: str = field(default_factory=default_bot)  # the registry's: the first game's default bot
    hint: str = "normal"  # the level the menu's Hint searches at (companion.games.clans.levels)
    teach: bool = False  # a new game starts with "teach rules: yes" (a first game; --teach)


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
    camera: CameraConfig | None = None
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
                f"bot {self.game.bot}, hint {self.game.hint}, bot_move_time {self.game.bot_move_time} s; "
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
# camera:                # optional camera above the board (a game that uses one): it proposes the move it sees
#   source: v4l2         # v4l2: a USB webcam (pip install '.[camera]') | picamera2: the Pi camera | folder
#   device: auto         # v4l2: auto (the first USB camera) or its /dev path; folder: the newest picture in it
#   width: 1280
#   height: 960
#   corners: [212, 96, 1090, 104, 1124, 700, 180, 690]   # where the board file's corners (0,0) (1200,0)
#                        #   (1200,800) (0,800) are in the picture, in pixels (companion doctor --camera);
#                        #   leave out to tap them on the table's page (/camera, with the PIN)
#   fps: 4               # frames looked at per second
#   still_s: 1.0         # the picture still this long: the box judges it
idle_dim_seconds: 120    # null: never dim
idle_off_seconds: 900    # null: never switch the panel off
pixel_shift: true        # move the picture a pixel now and then (burn-in)
state_dir: null          # null: $STATE_DIRECTORY, else /var/lib/companion (absolute path)
language: null           # it | es | fr | de | en; null: the system locale's, else English
                         #   (the menu's Language item overrides it, and a restart keeps that)
game:
  bot_move_time: 0.5     # seconds a bot may think per move (and a hint); at most 10
  bot: {bot:<18}# who plays a bot seat at first: {bots}
                         #   (easy, normal, hard: the levels the Bots? question cycles; the others for tests)
  hint: normal           # how well the menu's Hint plays: easy | normal | hard
  teach: false           # true: a new game starts as a first game, each rule explained when it first matters
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
""".format(  # the bots: the registry's, its default first, then the rest in the registry's order
    bot=default_bot(), bots=" | ".join([default_bot()] + [b for b in bot_names() if b != default_bot()]))


# --- the box's own sections' checks (the hardware's: companion.hw.settings_checks) ---

def _bot_move_time(ctx: Ctx, path: str, v: Any) -> float:
    if not is_num(v) or v < 0:
        raise ctx.fail(path, _("{value} is not a number of seconds ({lo}-{hi})").format(
            value=clip(v), lo=0, hi=f"{MAX_BOT_MOVE_TIME:g}"))
    if v > MAX_BOT_MOVE_TIME:
        raise ctx.fail(path, _("{value} s is too long: at most {most} s, well inside the service's "
                               "{watchdog} s watchdog (WatchdogSec=)").format(
            value=clip(v, 20), most=f"{MAX_BOT_MOVE_TIME:g}", watchdog=WATCHDOG_SEC))
    return v


_GAME_CHECKS = {"bot_move_time": _bot_move_time, "bot": choice(bot_names), "hint": choice(HINT_LEVELS), "teach": boolean}
_SOUND_CHECKS = {
    "speech": boolean,
    "volume": int_range(1, 5, N_("{value} is not a level ({lo}-{hi})")),
    "speed": int_range(1, 5, N_("{value} is not a level ({lo}-{hi})")),
    "buzzer_pin": opt(pin),
    "buzzer_type": choice(("active", "passive")),
    "audio_device": opt(audio_device),
}


def _hosts(ctx: Ctx, path: str, v: Any) -> list[str]:
    if not isinstance(v, list):
        raise ctx.fail(path, _("expected a list of names, e.g. [clans.lan], got {value}").format(value=clip(v)))
    out = []
    for i, host in enumerate(v):
        host = text(ctx, f"{path}[{i}]", host)
        no_control_chars(ctx, f"{path}[{i}]", host)
        out.append(host.strip().lower())
    return out


_WEB_CHECKS = {
    "enabled": boolean,
    "bind": text,
    "port": int_range(1, 65535),
    "pin_file": opt(file_path),
    "allowed_hosts": _hosts,
    "key_socket": opt(file_path),
}


def _roster(ctx: Ctx, path: str, v: Any) -> list[str]:
    from companion.table.seatnames import check_roster

    names, why = check_roster([] if v is None else v)
    if why is not None:
        raise ctx.fail(path, why)
    return names


def from_mapping(raw: Any, source: str) -> Config:
    ctx = Ctx(source)
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise ctx.fail("(top)", _("expected a mapping of keys, got {value}").format(value=type(raw).__name__))
    top = {f.name for f in fields(Config)} - {"source"}
    cfg = Config(source=source)
    for key, value in raw.items():
        if key not in top:
            raise ctx.fail(shorten(str(key), 12), _("unknown key (known: {keys})").format(keys=", ".join(sorted(top))))
        if key == "display":
            cfg.display = section(ctx, key, value or {}, DisplayConfig, DISPLAY_CHECKS)
        elif key == "buttons":
            cfg.buttons = None if value is None else section(ctx, key, value, ButtonsConfig, BUTTON_CHECKS)
        elif key == "encoder":
            cfg.encoder = None if value is None else section(ctx, key, value, EncoderConfig, ENCODER_CHECKS)
        elif key == "keypad":
            cfg.keypad = None if value is None else section(ctx, key, value, KeypadConfig, KEYPAD_CHECKS)
        elif key == "usb_keypad":
            cfg.usb_keypad = (None if value is None
                              else section(ctx, key, value or {}, UsbKeypadConfig, USB_KEYPAD_CHECKS))
        elif key == "camera":
            cfg.camera = None if value is None else section(ctx, key, value or {}, CameraConfig, CAMERA_CHECKS)
        elif key == "game":
            cfg.game = section(ctx, key, value or {}, GameConfig, _GAME_CHECKS)
        elif key == "sound":
            cfg.sound = section(ctx, key, value or {}, SoundConfig, _SOUND_CHECKS)
        elif key == "web":
            cfg.web = section(ctx, key, value or {}, WebConfig, _WEB_CHECKS)
        elif key in ("idle_dim_seconds", "idle_off_seconds"):
            setattr(cfg, key, opt(seconds(1, 7 * 86400))(ctx, key, value))
        elif key == "pixel_shift":
            cfg.pixel_shift = boolean(ctx, key, value)
        elif key == "state_dir":
            cfg.state_dir = opt(data_dir)(ctx, key, value)
        elif key == "language":
            cfg.language = opt(choice(LANGUAGES))(ctx, key, value)
        elif key == "roster":
            cfg.roster = _roster(ctx, key, value)
    _cross_checks(ctx, cfg)
    return cfg


def _cross_checks(ctx: Ctx, cfg: Config) -> None:
    d = cfg.display
    if writes_frames(d.driver) and not d.frames_dir:
        raise ctx.fail("display.frames_dir", _("is required for driver {driver}").format(driver=d.driver))
    b = cfg.buttons
    if b is not None and b.long_press_s >= b.power_press_s:
        raise ctx.fail("buttons.power_press_s",
                       _("{value} must be longer than {other} ({other_value})").format(
                           value=b.power_press_s, other="long_press_s", other_value=b.long_press_s))
    uses: list[tuple[str, int | None]] = []
    if b is not None and b.enabled is not False:
        uses += [(f"buttons.{role}", pin) for role, pin in b.pins().items()]
    if cfg.encoder is not None:
        uses += [(f"encoder.{role}", getattr(cfg.encoder, role)) for role in ("a", "b", "push")]
    uses.append(("sound.buzzer_pin", cfg.sound.buzzer_pin))
    check_pins(ctx, uses)
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
