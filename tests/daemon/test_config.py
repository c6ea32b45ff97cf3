"""Config loading: defaults, the documented example, and errors that name the key."""

from __future__ import annotations

import pytest

from companion import config as config_mod
from companion.config import (EXAMPLE_YAML, Config, ConfigError, load_config,
                              load_config_text)


def test_no_file_gives_defaults(monkeypatch, tmp_path):
    monkeypatch.setattr(config_mod, "DEFAULT_PATH", str(tmp_path / "absent.yaml"))
    cfg = load_config(None)
    assert cfg == Config()
    assert cfg.display.driver == "ssd1306" and cfg.display.address == 0x3C
    assert cfg.buttons.up == 17 and cfg.buttons.menu == 24 and cfg.buttons.enabled == "auto"
    assert cfg.keypad is None and cfg.encoder is None
    assert cfg.idle_dim_seconds == 120
    assert cfg.game.bot_move_time == 0.5 and cfg.game.bot == "mcts"


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
    assert cfg.buttons.menu is None
    assert cfg.encoder.a == 5 and cfg.encoder.push == 13
    assert cfg.keypad.port.startswith("/dev/serial/by-id/")
    assert cfg.keypad.baudrate == 9600
    assert cfg.pixel_shift is True
    # Every section of Config appears in the example, so the doc covers all.
    for name in ("display", "buttons", "encoder", "keypad", "idle_dim_seconds",
                 "idle_off_seconds", "pixel_shift", "state_dir", "game"):
        assert f"\n{name}:" in "\n" + EXAMPLE_YAML


def test_full_file_round_trip(tmp_path):
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

    assert config_mod.BOT_NAMES == tuple(BOTS)
    assert load_config_text(EXAMPLE_YAML).game.bot == "mcts"


def test_address_as_quoted_hex_string():
    assert load_config_text('display: {address: "0x3D"}').display.address == 0x3D


@pytest.mark.parametrize("text, path, words", [
    ("buttons: {up: 99}", "buttons.up", "99 is not a BCM pin (0-27)"),
    ("buttons: {menu: -1}", "buttons.menu", "not a BCM pin"),
    ("buttons: {up: true}", "buttons.up", "not a BCM pin"),
    ("colour: red", "colour", "unknown key"),
    ("display: {drivr: dummy}", "display.drivr", "unknown key"),
    ("display: {driver: lcd}", "display.driver", "'lcd' is not one of"),
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
    ("game: {bot: alphazero}", "game.bot", "'alphazero' is not one of random, greedy, mcts"),
    ("- a list", "(top)", "mapping"),
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
    assert "menu=" not in text          # menu: null in the example
    assert "keypad none" in Config().describe()
