"""`companion doctor`: each check against a fake /sys and /dev under tmp_path, and the key test headless."""

from __future__ import annotations

import io
import subprocess
import sys
import threading
import time
from pathlib import Path

from companion.box import doctor
from companion.box.config import Config, load_config_text
from companion.box.doctor import FAIL, OK, WARN, Probe, Result, run_checks


def pi_tree(root: Path) -> Path:
    """A healthy Pi: i2c-dev loaded, /dev/i2c-1, a gpiochip, a keypad, the groups, a service."""
    for d in ("sys/module/i2c_dev", "run/systemd/system", "dev/serial/by-id", "dev/input/by-id", "etc/systemd/system"):
        (root / d).mkdir(parents=True)
    for f in ("dev/i2c-1", "dev/gpiochip0", "dev/ttyUSB0", "dev/input/event3",
              "etc/systemd/system/companion.service"):
        (root / f).touch()
    (root / "dev/gpiochip0").chmod(0o660)  # the udev rule's mode (group gpio)
    (root / "dev/serial/by-id/usb-1a86_USB_Serial-if00-port0").symlink_to("../../ttyUSB0")
    (root / "dev/input/by-id/usb-05a4_9881-event-kbd").symlink_to("../event3")
    (root / "etc/group").write_text("root:x:0:\ndialout:x:20:companion\ngpio:x:997:companion\n"
                                    "i2c:x:998:companion,pi\ninput:x:105:companion\naudio:x:29:companion\n"
                                    "video:x:44:companion\ncompanion:x:996:\n")
    (root / "etc/passwd").write_text("companion:x:996:996::/nonexistent:/usr/sbin/nologin\n")
    return root


class Runner:
    """A fake command runner: argv[0] -> (status, output), or missing."""

    def __init__(self, answers: dict[str, tuple[int, str]] | None = None) -> None:
        self.answers = answers if answers is not None else {
            "systemctl": (0, "active"), "journalctl": (0, "-- No entries --")}
        self.calls: list[list[str]] = []

    def __call__(self, argv):
        self.calls.append(list(argv))
        if argv[0] not in self.answers:
            raise FileNotFoundError(argv[0])
        return self.answers[argv[0]]


def probe(root: Path, config: str = "keypad: {port: /dev/serial/by-id/usb-1a86_USB_Serial-if00-port0}",
          oled=lambda port, address: address == 0x3C, run=None, lgpio=True) -> Probe:
    p = Probe(root=root, run=run or Runner(), oled=oled, importable=lambda name: lgpio)
    p.config = load_config_text(config, "c.yaml")
    return p


def by_name(results: list[Result]) -> dict[str, Result]:
    return {r.name: r for r in results}


CHECKS_AFTER_CONFIG = doctor.CHECKS[1:]   # the config is given to the probe directly


def test_a_healthy_box_passes_every_check(tmp_path):
    p = probe(pi_tree(tmp_path))
    results = run_checks(p, CHECKS_AFTER_CONFIG)
    assert [r.level for r in results] == [OK] * len(results), results
    out = io.StringIO()
    assert doctor.report(results, out) == 0
    lines = out.getvalue().splitlines()
    assert len(lines) == len(results) + 1 and lines[-1] == "companion doctor: 0 problems, 0 warnings"
    assert "answers at 0x3C on i2c-1" in lines[1]
    assert p.run.calls[0] == ["systemctl", "is-active", "companion"]
    assert p.run.calls[1][:6] == ["journalctl", "-u", "companion", "-p", "warning", "-n"]


def test_i2c_module_and_bus(tmp_path):
    root = pi_tree(tmp_path)
    (root / "dev/i2c-1").unlink()
    (root / "dev/i2c-20").touch()
    r = doctor.check_i2c(probe(root))
    assert r.level == FAIL and "no /dev/i2c-1" in r.line and "i2c-20" in r.line and "display.port" in r.line
    assert doctor.check_oled(probe(root)).level == FAIL
    (root / "sys/module/i2c_dev").rmdir()
    r = doctor.check_i2c(probe(root))
    assert r.level == FAIL and "i2c-dev module is not loaded" in r.line and "raspi-config" in r.line
    assert doctor.check_i2c(probe(root, "display: {driver: dummy}")).level == OK


def test_oled_probes_both_addresses_and_names_the_fix(tmp_path):
    root = pi_tree(tmp_path)
    asked = []

    def at_3d(port, address):
        asked.append((port, address))
        return address == 0x3D

    r = doctor.check_oled(probe(root, oled=at_3d))
    assert r.level == OK and "0x3D" in r.line and asked == [(1, 0x3C), (1, 0x3D)]
    r = doctor.check_oled(probe(root, "display: {address: 0x3C}", oled=at_3d))
    assert r.level == FAIL and "set address: 0x3D" in r.line
    r = doctor.check_oled(probe(root, oled=lambda port, address: False))
    assert r.level == FAIL and "0x3C or 0x3D" in r.line and "i2cdetect -y 1" in r.line

    def denied(port, address):
        raise PermissionError(13, "I2C device permission denied: /dev/i2c-1")

    r = doctor.check_oled(probe(root, oled=denied))
    assert r.level == FAIL and "permission denied" in r.line and "usermod -aG i2c" in r.line


def test_groups(tmp_path):
    root = pi_tree(tmp_path)
    assert doctor.check_groups(probe(root)).level == OK
    (root / "etc/group").write_text("dialout:x:20:\ngpio:x:997:companion\ni2c:x:998:companion\ninput:x:105:\n"
                                    "audio:x:29:companion\nvideo:x:44:companion\n")
    r = doctor.check_groups(probe(root))
    assert r.level == WARN and "dialout" in r.line and "input" in r.line
    assert "sudo usermod -aG dialout,input companion" in r.line
    (root / "etc/group").write_text("dialout:x:20:\ninput:x:105:\naudio:x:29:\nvideo:x:44:\n")
    r = doctor.check_groups(probe(root))
    assert r.level == FAIL and "gpio, i2c does not exist" in r.line
    (root / "etc/group").write_text("dialout:x:20:\ngpio:x:997:\ni2c:x:998:\ninput:x:105:\naudio:x:29:\nvideo:x:44:\n")
    (root / "etc/passwd").write_text("pi:x:1000:1000::/home/pi:/bin/bash\n")
    r = doctor.check_groups(probe(root))
    assert r.level == FAIL and "install-service" in r.line


def test_gpio(tmp_path):
    root = pi_tree(tmp_path)
    r = doctor.check_gpio(probe(root, lgpio=False))
    assert r.level == FAIL and "lgpio does not import" in r.line and "sudo ./install.sh" in r.line
    assert "python3-lgpio" in r.line and "PYPI=1" in r.line and "--no-binary lgpio lgpio" in r.line
    (root / "dev/gpiochip0").chmod(0o600)  # Debian without the udev rule
    r = doctor.check_gpio(probe(root))
    assert r.level == FAIL and "/dev/gpiochip0 is root-only" in r.line and "60-companion-gpio.rules" in r.line
    (root / "dev/gpiochip0").unlink()
    r = doctor.check_gpio(probe(root))
    assert r.level == FAIL and "/dev/gpiochip" in r.line and "buttons.enabled: false" in r.line
    assert doctor.check_gpio(probe(root, "buttons: {enabled: false}")).level == OK


def test_keypads(tmp_path):
    root = pi_tree(tmp_path)
    r = doctor.check_keypad(probe(root, "keypad: {port: /dev/serial/by-id/usb-other-if00}"))
    assert r.level == FAIL and "is not there" in r.line and "usb-1a86_USB_Serial-if00-port0" in r.line
    r = doctor.check_keypad(probe(root, "usb_keypad: {}"))
    assert r.level == OK and "usb-05a4_9881-event-kbd" in r.line
    r = doctor.check_keypad(probe(root, "usb_keypad: {device: /dev/input/by-id/gone-event-kbd}"))
    assert r.level == FAIL and "plug it in" in r.line
    r = doctor.check_keypad(probe(root, "display: {driver: dummy}"))
    assert r.level == WARN and "not configured" in r.line and "keypad: {port" in r.line
    (root / "dev/input/by-id/usb-05a4_9881-event-kbd").unlink()
    r = doctor.check_keypad(probe(root, "usb_keypad: {}"))
    assert r.level == FAIL and "*-event-kbd" in r.line
    (root / "dev/serial/by-id/usb-1a86_USB_Serial-if00-port0").unlink()
    r = doctor.check_keypad(probe(root, "display: {driver: dummy}"))
    assert r.level == WARN and "buttons alone" in r.line


def test_service_and_journal(tmp_path):
    root = pi_tree(tmp_path)
    r = doctor.check_service(probe(root, run=Runner({"systemctl": (3, "failed")})))
    assert r.level == FAIL and "failed" in r.line and "systemctl restart companion" in r.line
    (root / "etc/systemd/system/companion.service").unlink()
    r = doctor.check_service(probe(root, run=Runner({"systemctl": (4, "inactive")})))
    assert r.level == WARN and "install-service" in r.line
    assert doctor.check_service(probe(root, run=Runner({}))).line.startswith("systemctl not found")
    (root / "run/systemd/system").rmdir()
    assert doctor.check_service(probe(root)).level == WARN
    journal = "WARNING companion.hw.display: display ssd1306: lost\nERROR companion.run: keypad: gone\n"
    r = doctor.check_journal(probe(root, run=Runner({"journalctl": (0, journal)})))
    assert r.level == WARN and "2 recent warnings" in r.line and "keypad: gone" in r.line
    r = doctor.check_journal(probe(root, run=Runner({})))
    assert r.level == WARN and "skipped" in r.line


def test_config_check_and_a_crashing_check(tmp_path):
    bad = tmp_path / "c.yaml"
    bad.write_text("buttons: {up: 2}\n")
    p = Probe(root=tmp_path, config_path=str(bad))
    r = doctor.check_config(p)
    assert r.level == FAIL and "I2C SDA" in r.line and p.config == Config()

    def broken(p):
        raise RuntimeError("odd machine")

    assert run_checks(p, [broken])[0].level == FAIL


def test_the_command_runs_here_without_crashing(tmp_path, capsys):
    """On this (non-Pi) machine most checks fail or warn; it must print one line each and exit 1 or 0."""
    from companion.cli import main

    status = main(["doctor", "--root", str(tmp_path)])
    out = capsys.readouterr().out.splitlines()
    assert status == 1
    assert len(out) == len(doctor.CHECKS) + 1 and out[-1].startswith("companion doctor: ")
    assert all(line.split()[0] in ("OK", "WARN", "FAIL") for line in out[:-1])


def test_the_doctor_speaks_the_chosen_language(tmp_path, capsys):
    """--lang switches the doctor's lines (no catalog yet: English comes back, through the same calls);
    the levels and check names are looked up by id, never compared translated."""
    from companion import i18n
    from companion.cli import main

    for code in ("de", "it"):
        status = main(["doctor", "--root", str(tmp_path), "--lang", code])
        assert i18n.language() == code and status == 1
        out = capsys.readouterr().out.splitlines()
        assert len(out) == len(doctor.CHECKS) + 1
    i18n.set_language("en")
    assert str(Result(WARN, "keypad", "x")) == "WARN  keypad: x"
    assert str(Result(OK, "unknown-check", "y")) == "OK    unknown-check: y"


def test_the_summary_counts_each_kind_in_its_own_plural():
    import io

    out = io.StringIO()
    doctor.report([Result(FAIL, "i2c", "a"), Result(WARN, "gpio", "b")], out)
    assert out.getvalue().splitlines()[-1] == "companion doctor: 1 problem, 1 warning"


# --- the key test, headless ------------------------------------------------------

def test_expected_keys_follow_the_inputs():
    from companion.box.keytest import expected_keys

    assert expected_keys(load_config_text("keypad: null")) == list("#*ABD")   # keypad order
    assert expected_keys(load_config_text("buttons: {menu: null}")) == list("#*AB")
    assert expected_keys(load_config_text("buttons: null\nencoder: {a: 5, b: 6}")) == list("AB")
    assert len(expected_keys(load_config_text("keypad: {port: /dev/ttyUSB0}"))) == 16
    usb = load_config_text("buttons: null\nusb_keypad: {keymap: {KEY_KP1: 1, KEY_ESC: POWER}}")
    assert expected_keys(usb) == list("0123456789#*ABCD")   # the keymap adds to the built-in map


def test_key_test_ticks_keys_off_on_the_dummy_oled():
    from companion.box.keytest import KeyTest
    from companion.hw.display import open_display
    from companion.box.config import DisplayConfig

    sink = open_display(DisplayConfig(driver="dummy"))
    out = io.StringIO()
    test = KeyTest(list("AB#"), sink, timeout=30, out=out)
    first = test.screen()
    assert "Press A / UP" in first.text() and "0/3 keys OK" in first.text()
    for key in ("B", "x", "a", "B", "#"):
        test.put(key)
    assert test.run() is True
    assert test.seen == ["B", "A", "#"] and test.strays == ["x"]
    assert "All keys work." in test.screen().text()
    from companion.table.render import render

    assert sink.device.image.tobytes() == render(test.screen()).tobytes()
    assert "ok    # (3/3)" in out.getvalue()


def test_key_test_times_out_naming_the_missing_keys():
    from companion.box.keytest import KeyTest

    t = [0.0]
    test = KeyTest(list("AB"), None, timeout=5, clock=lambda: t[0])
    test.put("A")

    def later():
        t[0] = 10.0

    threading.Timer(0.05, later).start()
    assert test.run() is False and test.missing == ["B"]
    assert "Press B / DOWN" in test.screen().text()


def test_key_test_with_gpio_buttons_through_the_adapters_queue(factory):
    """The whole path: gpiozero's MockFactory pins -> the Buttons adapter -> KeyTest.put -> dummy OLED."""
    from companion.box.keytest import run_key_test
    from companion.hw.display import open_display
    from companion.box.config import DisplayConfig

    from companion.hw.buttons import open_buttons
    from conftest import Clock

    cfg = load_config_text("buttons: {enabled: true, menu: null}")
    sink = open_display(DisplayConfig(driver="dummy"))
    pins = {"up": 17, "down": 27, "ok": 22, "back": 23}
    clock = Clock()  # the buttons' debounce clock, stepped by hand: no real time passes

    def press_all(buttons) -> None:
        for pin in pins.values():
            for drive in (factory.pin(pin).drive_low, factory.pin(pin).drive_high):
                drive()
                clock.t += 0.05  # longer than the 30 ms debounce
                buttons.poll()  # the key (on press, or BACK on release) goes to the test's queue now

    def opener(shim, cfg, emulated) -> None:
        buttons = open_buttons(cfg, shim.put, clock=clock)  # the same adapter open_inputs opens
        shim.inputs.append(buttons)
        threading.Thread(target=press_all, args=(buttons,), daemon=True).start()

    test = run_key_test(cfg, sink, timeout=20, emulated=False, opener=opener)
    assert sorted(test.seen) == sorted("AB#*") and not test.missing
    assert "All keys work." in test.screen().text()


# ----- doctor --keys with no key to come (issue 53, item 6) -------------------------------------
def doctor_keys(tmp_path: Path, stdin: str | None) -> tuple[subprocess.CompletedProcess, float]:
    """`companion doctor --keys` as a real process on a laptop's config, standard input a pipe
    holding `stdin` (None: /dev/null); (the process, how long it ran). Its own limit is 120 s."""
    config = tmp_path / "config.yaml"
    config.write_text("display: {driver: dummy}\n")
    start = time.monotonic()
    res = subprocess.run([sys.executable, "-m", "companion", "doctor", "--keys", "--config", str(config)],
                         input=stdin, stdin=subprocess.DEVNULL if stdin is None else None,
                         capture_output=True, text=True, timeout=300, check=False)
    return res, time.monotonic() - start


def test_doctor_keys_stops_at_once_when_standard_input_ends(tmp_path):
    res, took = doctor_keys(tmp_path, None)
    assert took < 40, f"it waited {took:.0f} s of its 120 for keys that could never come"
    assert res.returncode == 2 and res.stderr.count("\n") == 1, res.stderr
    assert res.stderr.startswith("companion doctor: --keys: standard input ended before every key came "
                                 "(never seen: # * A B D): run it in a terminal"), res.stderr
    assert "Traceback" not in res.stdout + res.stderr


def test_doctor_keys_takes_the_piped_keys_then_stops_at_the_end(tmp_path):
    res, took = doctor_keys(tmp_path, "#*\n")
    assert took < 40 and res.returncode == 2
    assert "ok    # (1/5)" in res.stdout and "ok    * (2/5)" in res.stdout
    assert "(never seen: A B D)" in res.stderr and res.stderr.count("\n") == 1
    res, _ = doctor_keys(tmp_path, "#*ABD")
    assert (res.returncode, res.stderr) == (0, "") and "all 5 keys work" in res.stdout


def test_doctor_keys_without_any_key_source_says_so_and_stops(tmp_path, monkeypatch):
    """A Pi with no buttons, keypad or USB keypad, its standard input no terminal: nothing is opened."""
    from companion.box.keytest import NO_SOURCE, run_key_test
    from companion.hw import inputs
    from tests.support import run_cli

    test = run_key_test(load_config_text("keypad: null"), None, timeout=120, opener=lambda shim, cfg, emulated: None)
    assert test.ended == NO_SOURCE and test.missing == test.expected
    monkeypatch.setattr(inputs, "open_inputs", lambda daemon, cfg, emulated: None)
    (tmp_path / "c.yaml").write_text("display: {driver: dummy}\n")
    start = time.monotonic()
    status, out, err = run_cli("doctor", "--keys", "--config", str(tmp_path / "c.yaml"))
    assert time.monotonic() - start < 40
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert err.startswith("companion doctor: --keys: no key source: "), err
