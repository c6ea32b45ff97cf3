"""Config loading: defaults, the documented example, and errors that name the key."""

from __future__ import annotations

import pytest

from companion.box import config as config_mod
from companion.box.config import (EXAMPLE_YAML, Config, ConfigError, load_config,
                                  load_config_text)


def test_no_file_gives_defaults(monkeypatch, tmp_path):
    monkeypatch.setattr(config_mod, "DEFAULT_PATH", str(tmp_path / "absent.yaml"))
    cfg = load_config(None)
    assert cfg == Config()
    assert cfg.display.driver == "ssd1306" and cfg.display.address is None   # probe 0x3C, 0x3D
    assert cfg.usb_keypad is None
    assert cfg.buttons.up == 17 and cfg.buttons.menu == 24 and cfg.buttons.enabled == "auto"
    assert cfg.keypad is None and cfg.encoder is None
    assert cfg.idle_dim_seconds == 120
    assert cfg.game.bot_move_time == 0.5 and cfg.game.bot == "normal" and cfg.game.hint == "normal"


def test_default_path_used_when_it_exists(monkeypatch, tmp_path):
    p = tmp_path / "config.yaml"
    p.write_text("display: {driver: dummy}\n")
    monkeypatch.setattr(config_mod, "DEFAULT_PATH", str(p))
    cfg = load_config(None)
    assert cfg.display.driver == "dummy"
    assert cfg.source == str(p)


def test_example_yaml_loads_and_means_what_it_says():
    cfg = load_config_text(EXAMPLE_YAML, "example")
    assert cfg.display.rotate == 2
    assert cfg.buttons.menu == 24
    assert cfg.encoder.a == 5 and cfg.encoder.push == 13
    assert cfg.keypad.port.startswith("/dev/serial/by-id/")
    assert cfg.keypad.baudrate == 9600
    assert cfg.pixel_shift is True
    # Every section of Config appears in the example, so the doc covers all.
    for name in ("display", "buttons", "encoder", "keypad", "idle_dim_seconds",
                 "idle_off_seconds", "pixel_shift", "state_dir", "game"):
        assert f"\n{name}:" in "\n" + EXAMPLE_YAML


def test_full_file_round_trip(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_ALLOW_LOOP", "1")
    p = tmp_path / "c.yaml"
    p.write_text(
        "display: {driver: sh1106, port: 0, address: 0x3D, rotate: 1, contrast: 10}\n"
        "buttons: null\n"
        "keypad: {port: 'loop://', baudrate: 115200}\n"
        "idle_dim_seconds: null\n"
        "idle_off_seconds: 60\n"
        "pixel_shift: false\n"
        "state_dir: /tmp/x\n"
        "game: {bot_move_time: 2, bot: greedy}\n")
    cfg = load_config(str(p))
    assert (cfg.display.driver, cfg.display.port, cfg.display.address) == ("sh1106", 0, 0x3D)
    assert cfg.display.rotate == 1 and cfg.display.contrast == 10
    assert cfg.buttons is None
    assert cfg.keypad.port == "loop://" and cfg.keypad.baudrate == 115200
    assert cfg.idle_dim_seconds is None and cfg.idle_off_seconds == 60
    assert cfg.pixel_shift is False
    assert cfg.resolved_state_dir() == "/tmp/x"
    assert cfg.game.bot_move_time == 2 and cfg.game.bot == "greedy"


def test_bot_names_are_the_bots_the_package_has():
    from companion.games.clans.bots import BOTS

    from companion.games import GAMES, bot_names

    assert GAMES["clans"].bots == tuple(BOTS) == bot_names()
    assert load_config_text(EXAMPLE_YAML).game.bot == "normal"
    assert load_config_text(EXAMPLE_YAML).game.hint == "normal"
    from companion.box.config_base import HINT_LEVELS
    from companion.games.clans.levels import LEVELS

    assert HINT_LEVELS == LEVELS and load_config_text("game: {hint: hard}").game.hint == "hard"
    assert load_config_text(EXAMPLE_YAML).game.teach is False and load_config_text("game: {teach: true}").game.teach


def test_address_as_quoted_hex_string():
    assert load_config_text('display: {address: "0x3D"}').display.address == 0x3D


@pytest.mark.parametrize("text, path, words", [
    ("buttons: {up: 99}", "buttons.up", "99 is not a BCM pin (0-27)"),
    ("buttons: {menu: -1}", "buttons.menu", "not a BCM pin"),
    ("buttons: {up: true}", "buttons.up", "not a BCM pin"),
    ("colour: red", "colour", "unknown key"),
    ("display: {drivr: dummy}", "display.drivr", "unknown key"),
    ("display: {driver: lcd}", "display.driver", "'lcd' is not a luma.oled driver"),
    ("display: {rotate: 4}", "display.rotate", "4"),
    ("display: {contrast: 256}", "display.contrast", "256"),
    ("display: {address: 0x80}", "display.address", "I2C address"),
    ("display: {address: banana}", "display.address", "I2C address"),
    ("display: {driver: png}", "display.frames_dir", "required"),
    ("keypad: {baudrate: 9600}", "keypad.port", "required"),
    ("keypad: {port: /dev/ttyUSB0, baudrate: 1234}", "keypad.baudrate", "1234"),
    ("keypad: {port: /dev/ttyUSB0, baudrate: true}", "keypad.baudrate", "True"),
    ("keypad: /dev/ttyUSB0", "keypad", "mapping"),
    ("encoder: {a: 5}", "encoder.b", "required"),
    ("encoder: {a: 5, b: 17}", "encoder.b", "already used by buttons.up"),
    ("buttons: {up: 22}", "buttons.ok", "already used by buttons.up"),
    ("buttons: {enabled: maybe}", "buttons.enabled", "auto, true or false"),
    ("buttons: {long_press_s: 5, power_press_s: 4}", "buttons.power_press_s", "longer"),
    ("buttons: {bounce_ms: 2000}", "buttons.bounce_ms", "2000"),
    ("idle_dim_seconds: 300\nidle_off_seconds: 200", "idle_off_seconds", "longer"),
    ("idle_dim_seconds: soon", "idle_dim_seconds", "seconds"),
    ("pixel_shift: 1", "pixel_shift", "true or false"),
    ("game: {bot_move_time: -1}", "game.bot_move_time", "-1"),
    ("game: {bot: alphazero}", "game.bot", "'alphazero' is not one of easy, normal, hard, random, greedy, mcts"),
    ("game: {hint: greedy}", "game.hint", "'greedy' is not one of easy, normal, hard"),
    ("- a list", "(top)", "mapping"),
    ("usb_keypad: {device: /dev/ttyUSB0}", "usb_keypad.device", "/dev/input/by-id/"),
    ("usb_keypad: {device: 'spy:///dev/input/event0'}", "usb_keypad.device", "not an input device"),
    ("usb_keypad: {device: /dev/input/../sda}", "usb_keypad.device", "'.' or '..'"),
    ("usb_keypad: {grab: 1}", "usb_keypad.grab", "true or false"),
    ("usb_keypad: {keymap: [KEY_KP1]}", "usb_keypad.keymap", "mapping"),
    ("usb_keypad: {keymap: {kp1: '1'}}", "usb_keypad.keymap.kp1", "not an evdev key name"),
    ("usb_keypad: {keymap: {KEY_kp1: '1'}}", "usb_keypad.keymap.KEY_kp1", "not an evdev key name"),
    ("usb_keypad: {keymap: {KEY_KP1: E}}", "usb_keypad.keymap.KEY_KP1", "'E' is not a key"),
    ("usb_keypad: {keymap: {KEY_Q: QUIT}}", "usb_keypad.keymap.KEY_Q", "not a key"),
    ("usb_keypad: {keymap: {KEY_KP1: 12}}", "usb_keypad.keymap.KEY_KP1", "not a key"),
    ("usb_keypad: {port: /dev/input/event0}", "usb_keypad.port", "unknown key"),
])
def test_bad_values_name_the_key_path(tmp_path, text, path, words):
    p = tmp_path / "config.yaml"
    p.write_text(text + "\n")
    with pytest.raises(ConfigError) as e:
        load_config(str(p))
    msg = str(e.value)
    assert msg.startswith(f"{p}: {path}: "), msg
    assert words in msg, msg


def test_config_error_is_a_value_error():
    assert issubclass(ConfigError, ValueError)


def test_disabled_buttons_free_their_pins_for_the_encoder():
    cfg = load_config_text("buttons: {enabled: false}\nencoder: {a: 17, b: 27}")
    assert cfg.encoder.a == 17


def test_broken_yaml_and_unreadable_file(tmp_path):
    p = tmp_path / "config.yaml"
    p.write_text("display: {driver: [\n")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_config(str(p))
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(str(tmp_path / "missing.yaml"))


def test_empty_file_is_defaults(tmp_path):
    p = tmp_path / "config.yaml"
    p.write_text("# nothing yet\n")
    cfg = load_config(str(p))
    assert cfg.display == Config().display and cfg.source == str(p)


def test_state_dir_resolution(monkeypatch):
    monkeypatch.setenv("STATE_DIRECTORY", "/var/lib/companion-a:/var/lib/other")
    assert Config().resolved_state_dir() == "/var/lib/companion-a"
    monkeypatch.delenv("STATE_DIRECTORY")
    assert Config().resolved_state_dir() == "/var/lib/companion"
    assert Config(state_dir="/srv/c").resolved_state_dir() == "/srv/c"


def test_describe_mentions_the_hardware():
    cfg = load_config_text(EXAMPLE_YAML, "example")
    text = cfg.describe()
    for part in ("ssd1306", "0x3C", "rotate=2", "up=17", "a=5", "by-id", "9600"):
        assert part in text, part
    assert "menu=24" in text            # the wiring diagram's MENU button
    assert "menu=" not in load_config_text("buttons: {menu: null}").describe()
    assert "keypad none" in Config().describe()
    assert "usb_keypad none" in Config().describe()
    assert "i2c-1@auto (0x3C, 0x3D)" in Config().describe()
    usb = load_config_text("usb_keypad: {keymap: {KEY_KP1: '1'}}").describe()
    assert "usb_keypad auto grab=True keymap=1 keys" in usb


# --- usb_keypad (issue 12): the shape the evdev adapter reads ------------------

def test_usb_keypad_defaults_and_shape():
    from companion.box.config import UsbKeypadConfig

    cfg = load_config_text("usb_keypad: {}")
    assert cfg.usb_keypad == UsbKeypadConfig(device="auto", grab=True, keymap={})
    assert load_config_text("usb_keypad: null").usb_keypad is None
    assert load_config_text("display: {driver: dummy}").usb_keypad is None


def test_usb_keypad_full_section():
    cfg = load_config_text(
        "usb_keypad:\n"
        "  device: /dev/input/by-id/usb-05a4_9881-event-kbd\n"
        "  grab: false\n"
        "  keymap: {KEY_KP1: 1, KEY_KPENTER: '#', KEY_KPASTERISK: '*', KEY_KPSLASH: D, KEY_ESC: POWER}\n")
    u = cfg.usb_keypad
    assert u.device == "/dev/input/by-id/usb-05a4_9881-event-kbd" and u.grab is False
    # an unquoted digit is YAML's int: it is read as the key "1"
    assert u.keymap == {"KEY_KP1": "1", "KEY_KPENTER": "#", "KEY_KPASTERISK": "*",
                        "KEY_KPSLASH": "D", "KEY_ESC": "POWER"}
    assert all(isinstance(v, str) for v in u.keymap.values())


def test_usb_keypad_example_is_commented_out_and_valid_when_uncommented():
    assert "\nusb_keypad:" not in EXAMPLE_YAML
    lines = EXAMPLE_YAML.splitlines()
    start = lines.index(next(line for line in lines if line.startswith("# usb_keypad:")))
    block = []
    for line in lines[start:]:
        if not line.startswith("#"):
            break
        block.append(line[2:])
    cfg = load_config_text("\n".join(block), "example")
    assert cfg.usb_keypad.device == "auto" and cfg.usb_keypad.grab is True
    assert cfg.usb_keypad.keymap["KEY_KPENTER"] == "#"


# --- pins the OLED (I2C) and a HAT's EEPROM need (issue 12) ---------------------

BUTTON_PINS = {17, 27, 22, 23, 24}


@pytest.mark.parametrize("text, path, pin, why, used", [
    ("buttons: {up: 2}", "buttons.up", 2, "I2C SDA", BUTTON_PINS - {17}),
    ("buttons: {menu: 3}", "buttons.menu", 3, "I2C SCL", BUTTON_PINS - {24}),
    ("encoder: {a: 0, b: 6}", "encoder.a", 0, "HAT's ID EEPROM", BUTTON_PINS | {6}),
    ("encoder: {a: 5, b: 6, push: 1}", "encoder.push", 1, "HAT's ID EEPROM", BUTTON_PINS | {5, 6}),
    ("buttons: {enabled: false}\nencoder: {a: 3, b: 6}", "encoder.a", 3, "OLED's clock line", {6}),
])
def test_i2c_and_eeprom_pins_are_refused_with_the_reason_and_a_free_pin(text, path, pin, why, used):
    with pytest.raises(ConfigError) as e:
        load_config_text(text, "c.yaml")
    msg = str(e.value)
    assert msg.startswith(f"c.yaml: {path}: pin {pin}: "), msg
    assert why in msg and "use a free pin instead, e.g. " in msg, msg
    suggested = [int(p) for p in msg.rsplit("e.g. ", 1)[1].split(", ")]
    assert suggested and not set(suggested) & (used | {0, 1, 2, 3}), msg   # only pins still free
    assert len(msg) <= 200, msg


def test_disabled_buttons_may_keep_i2c_pins_in_the_file():
    assert load_config_text("buttons: {enabled: false, up: 2}").buttons.up == 2


# --- display drivers: whatever luma.oled provides (issue 12) --------------------

def test_every_luma_oled_driver_is_accepted():
    luma_devices = pytest.importorskip("luma.oled.device")
    names = list(luma_devices.__all__)
    assert {"ssd1306", "ssd1309", "ssd1315", "sh1106", "sh1107", "ssd1322"} <= set(names)
    assert set(config_mod.oled_drivers()) == set(names)
    assert set(config_mod.KNOWN_OLED_DRIVERS) == set(names)   # the fallback list is current
    for name in names + ["dummy", "terminal"]:
        assert load_config_text(f"display: {{driver: {name}}}").display.driver == name
    assert config_mod.is_oled("ssd1309") and not config_mod.is_oled("dummy")


def test_address_may_be_left_out_or_set():
    assert load_config_text("display: {driver: ssd1309}").display.address is None
    assert load_config_text("display: {address: null}").display.address is None
    assert load_config_text("display: {address: 0x3D}").display.address == 0x3D


# --- hostile values (issue 11): every path and URL in the config is checked ---

@pytest.mark.parametrize("port", [
    "spy:///dev/ttyUSB0?file=/var/lib/companion/journal.sqlite3",   # truncated a file
    "socket://10.0.0.1:7777",                                        # opened a connection
    "rfc2217://localhost:2217",
    "hwgrep://.*",
    "alt:///dev/ttyUSB0?class=PosixPollSerial",
    "loop://",                                                       # not without the env switch
    "ttyUSB0",
    "/etc/shadow",
    "/dev/sda",
    "/dev/serial/../sda",
    "/dev//ttyUSB0",
    "/dev/ttyUSB0\n",
    "/dev/tty USB0",
])
def test_keypad_port_must_be_a_serial_device(monkeypatch, port):
    monkeypatch.delenv("COMPANION_ALLOW_LOOP", raising=False)
    with pytest.raises(ConfigError) as e:
        load_config_text(f"keypad: {{port: {port!r}}}", "c.yaml")
    msg = str(e.value)
    assert msg.startswith("c.yaml: keypad.port: "), msg
    assert "/dev/serial/by-id/" in msg or "'.' or '..'" in msg or "'//'" in msg or "control" in msg, msg
    assert "\n" not in msg.replace("\\n", "") and len(msg) <= 200, msg


@pytest.mark.parametrize("port", ["/dev/serial/by-id/usb-Arduino_LLC_Arduino_Micro-if00",
                                  "/dev/serial/by-path/platform-3f980000.usb-usb-0:1.2:1.0-port0",
                                  "/dev/ttyACM0", "/dev/ttyUSB1", "/dev/serial0", "/dev/ttyAMA0", "/dev/pts/3"])
def test_keypad_device_paths_are_accepted(monkeypatch, port):
    monkeypatch.delenv("COMPANION_ALLOW_LOOP", raising=False)
    assert load_config_text(f"keypad: {{port: {port!r}}}").keypad.port == port


def test_loop_url_only_with_the_test_switch(monkeypatch):
    monkeypatch.setenv("COMPANION_ALLOW_LOOP", "1")
    assert load_config_text("keypad: {port: 'loop://'}").keypad.port == "loop://"
    # The switch allows loop:// and nothing else.
    with pytest.raises(ConfigError, match="not a device path"):
        load_config_text("keypad: {port: 'socket://localhost:1'}")
    monkeypatch.setenv("COMPANION_ALLOW_LOOP", "yes")
    with pytest.raises(ConfigError, match="COMPANION_ALLOW_LOOP=1"):
        load_config_text("keypad: {port: 'loop://'}")


@pytest.mark.parametrize("key", ["state_dir", "display.frames_dir"])
@pytest.mark.parametrize("value, words", [
    ("relative/dir", "not an absolute path"),
    ("/var/lib/companion/../../../etc", "'.' or '..'"),
    ("/var/lib/./companion", "'.' or '..'"),
    ("/var//lib/companion", "'//'"),
    ("/var/lib/companion/", "'//'"),
    ("/", "root directory"),
    ("/proc/self", "under /proc"),
    ("/sys/class/gpio", "under /sys"),
    ("/dev/shm/x", "under /dev"),
    ("/boot/firmware", "under /boot"),
    ("/etc/companion", "under /etc"),
    ("/etc", "under /etc"),
    ("/usr/lib/python3", "under /usr"),
    ("/var/log", "under /var/log"),
    ("/var/lib/x\\ty", "control character"),
])
def test_data_dirs_must_be_plain_absolute_and_outside_the_system(key, value, words):
    if key == "state_dir":
        text = f'state_dir: "{value}"'
    else:
        text = f'display: {{driver: png, frames_dir: "{value}"}}'
    with pytest.raises(ConfigError) as e:
        load_config_text(text, "c.yaml")
    msg = str(e.value)
    assert msg.startswith(f"c.yaml: {key}: "), msg
    assert words in msg, msg
    assert len(msg) <= 200, msg


def test_data_dir_symlink_into_the_system_is_refused(tmp_path):
    link = tmp_path / "frames"
    link.symlink_to("/etc")
    with pytest.raises(ConfigError, match="leads to '/etc/x'"):
        load_config_text(f"display: {{driver: png, frames_dir: {str(link / 'x')!r}}}", "c.yaml")
    with pytest.raises(ConfigError, match="under /etc"):
        load_config_text(f"state_dir: {str(link)!r}", "c.yaml")


@pytest.mark.parametrize("value", ["/var/lib/companion", "/srv/companion", "/tmp/frames", "/var/lib/companion-2"])
def test_ordinary_data_dirs_are_accepted(value):
    cfg = load_config_text(f"state_dir: {value}\ndisplay: {{driver: png, frames_dir: {value}}}")
    assert cfg.state_dir == value and cfg.display.frames_dir == value


def test_bot_move_time_stays_well_inside_the_watchdog():
    assert load_config_text("game: {bot_move_time: 10}").game.bot_move_time == 10
    for bad in (10.5, 30, 600):
        with pytest.raises(ConfigError) as e:
            load_config_text(f"game: {{bot_move_time: {bad}}}", "c.yaml")
        msg = str(e.value)
        assert msg.startswith("c.yaml: game.bot_move_time: ") and "watchdog" in msg and "WatchdogSec" in msg, msg


def test_bot_time_cap_matches_the_shipped_units_watchdog():
    """The cap is a third of WatchdogSec at most; both come from the unit file."""
    import re
    from pathlib import Path

    unit = (Path(__file__).resolve().parents[2] / "systemd" / "companion.service").read_text()
    watchdog = int(re.search(r"^WatchdogSec=(\d+)$", unit, re.M).group(1))
    assert config_mod.WATCHDOG_SEC == watchdog
    assert config_mod.MAX_BOT_MOVE_TIME <= watchdog / 3
