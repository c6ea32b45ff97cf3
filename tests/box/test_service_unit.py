"""The systemd unit: it verifies cleanly, keeps its hardening, and install-service writes it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from tests.box.install_helpers import fake_venv, no_such_user, parse_unit, pretend_root, trust_tmp

from companion.box import install_checks, service_install
from companion.box.service_install import main, render_unit

ROOT = Path(__file__).resolve().parents[2]
REAL_HIDDEN_PREFIXES = service_install._HIDDEN_PREFIXES
SHIPPED_UNIT = ROOT / "systemd" / "companion.service"
SHIPPED_RULE = ROOT / "systemd" / "50-companion-poweroff.rules"


@pytest.fixture(autouse=True)
def tmp_is_not_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    trust_tmp(monkeypatch)


def test_template_in_module_is_the_shipped_file() -> None:
    assert service_install.UNIT_TEMPLATE == SHIPPED_UNIT.read_text(encoding="utf-8")
    assert service_install.POLKIT_RULE == SHIPPED_RULE.read_text(encoding="utf-8")


def test_rendered_unit_equals_shipped_file_after_substitution(tmp_path: Path) -> None:
    venv = fake_venv(tmp_path)
    shipped = SHIPPED_UNIT.read_text(encoding="utf-8")
    expected = shipped.replace("@VENV@", str(venv)).replace("@CONFIG@", "/etc/companion/c.yaml")
    rendered = render_unit(venv, "/etc/companion/c.yaml")
    assert rendered == expected
    assert f"ExecStart={venv}/bin/companion run --config /etc/companion/c.yaml\n" in rendered
    assert "@VENV@" not in rendered and "@CONFIG@" not in rendered


def test_percent_in_path_is_escaped_for_systemd(tmp_path: Path) -> None:
    unit = render_unit(Path("/opt/50%/venv"), "/etc/companion/config.yaml")
    assert "ExecStart=/opt/50%%/venv/bin/companion run" in unit


def test_path_with_space_is_refused() -> None:
    with pytest.raises(service_install.InstallError, match="contains ' '"):
        render_unit(Path("/opt/my venv"))


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze not installed (Debian package: systemd)")
def test_systemd_analyze_verify_is_silent(tmp_path: Path) -> None:
    venv = fake_venv(tmp_path)
    unit = tmp_path / "companion.service"
    unit.write_text(render_unit(venv, "/etc/companion/config.yaml"))
    result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, check=False)
    # verify exits 0 on unknown keys and only warns: stderr must be empty too.
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze not installed (Debian package: systemd)")
def test_systemd_analyze_verify_would_catch_a_typo(tmp_path: Path) -> None:
    """Guards the test above: a misspelt key does produce stderr output."""
    venv = fake_venv(tmp_path)
    unit = tmp_path / "companion.service"
    unit.write_text(render_unit(venv).replace("ProtectHome=yes", "ProtectHom=yes"))
    result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, check=False)
    assert "ProtectHom" in result.stderr


def test_required_keys_are_present() -> None:
    service = parse_unit(SHIPPED_UNIT.read_text(encoding="utf-8"))["Service"]
    required = {
        "Type": "notify",
        "NotifyAccess": "main",
        "WatchdogSec": "30",
        "Restart": "on-failure",
        "RestartSec": "2",
        "StateDirectory": "companion",
        "RuntimeDirectory": "companion",
        "ProtectSystem": "strict",
        "ProtectHome": "yes",
        "PrivateTmp": "yes",
        "NoNewPrivileges": "yes",
        "PrivateNetwork": "yes",
        "IPAddressDeny": "any",
        "User": "companion",
    }
    for key, value in required.items():
        assert service.get(key) == [value], f"{key}={service.get(key)}"
    assert set(service["SupplementaryGroups"][0].split()) == {"gpio", "i2c", "dialout", "input", "audio", "video"}
    env = set(service["Environment"])
    assert {"LG_WD=%t/companion", "GPIOZERO_PIN_FACTORY=lgpio", "PYTHONUNBUFFERED=1"} <= env
    assert service["ExecStart"] == ["@VENV@/bin/companion run --config @CONFIG@"]


def test_devices_the_hardware_needs_stay_reachable() -> None:
    service = parse_unit(SHIPPED_UNIT.read_text(encoding="utf-8"))["Service"]
    # PrivateDevices=yes would hide /dev/i2c-*, /dev/gpiochip* and the keypad's tty.
    assert service.get("PrivateDevices", ["no"]) == ["no"]
    assert service["DevicePolicy"] == ["closed"]
    allowed = dict(v.split() for v in service.get("DeviceAllow", []))
    # Fixed majors, not /proc/devices names: a name is resolved once when the service starts,
    # so a keypad plugged in after boot (its driver loaded later) would get EPERM (issue 12).
    assert allowed == {
        "char-89": "rw",        # i2c-dev: /dev/i2c-1, the OLED
        "char-gpiochip": "rw",  # dynamic major, built into the Pi kernel
        "char-166": "rw",       # USB ACM: /dev/ttyACM*, a native-USB keypad board
        "char-188": "rw",       # USB serial: /dev/ttyUSB*, CH340/FTDI keypad boards
        "char-13": "r",         # input: /dev/input/event*, a USB numeric keypad
        "char-116": "rw",       # ALSA: /dev/snd/*, the voice
        "char-81": "rw",        # video4linux: /dev/video*, the USB camera
    }


def test_every_supplementary_group_is_one_install_service_creates() -> None:
    service = parse_unit(SHIPPED_UNIT.read_text(encoding="utf-8"))["Service"]
    assert tuple(service["SupplementaryGroups"][0].split()) == service_install.HARDWARE_GROUPS


def _groups(existing: set[str]):
    import grp

    def getgrnam(name: str):
        if name not in existing:
            raise KeyError(name)
        return grp.struct_group((name, "x", 900, []))
    return install_checks.Accounts(getpwnam=no_such_user, getgrnam=getgrnam)


def test_missing_groups_are_created_on_plain_debian(monkeypatch: pytest.MonkeyPatch) -> None:
    """Debian has dialout and i2c but no gpio: systemd would fail the unit with 216/GROUP."""
    monkeypatch.setattr(shutil, "which", lambda name: f"/usr/sbin/{name}")
    ran: list[list[str]] = []
    monkeypatch.setattr(service_install, "_run", ran.append)
    service_install._ensure_groups(_groups({"dialout", "i2c", "input", "audio", "video"}))
    assert ran == [["groupadd", "--system", "gpio"]]
    ran.clear()
    service_install._ensure_groups(_groups({"dialout", "i2c", "gpio", "input", "audio", "video"}))  # Raspberry Pi OS
    assert ran == []


def test_missing_groups_without_groupadd_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(service_install.InstallError, match="gpio, i2c do not exist"):
        service_install._ensure_groups(_groups({"dialout", "input", "audio", "video"}))


def test_enable_creates_the_groups_after_the_user_and_before_starting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = pretend_root(monkeypatch, fake_venv(tmp_path), groups=False)
    monkeypatch.setattr(install_checks, "default_accounts", lambda: _groups({"dialout", "input", "audio", "video"}))
    assert main(["--unit-dir", str(tmp_path / "u"), "--config", str(tmp_path / "etc" / "c.yaml")]) == 0
    assert ran == [["groupadd", "--system", "gpio"], ["groupadd", "--system", "i2c"],
                   ["usermod", "-aG", "dialout,input,audio,video", "companion"],
                   ["systemctl", "daemon-reload"], ["systemctl", "enable", "--now", "companion"]]


def test_no_enable_names_the_missing_groups(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    venv = fake_venv(tmp_path)
    monkeypatch.setattr(sys, "prefix", str(venv))
    monkeypatch.setattr(install_checks, "default_accounts", lambda: _groups({"dialout", "i2c", "input", "audio",
                                                                                         "video"}))
    assert main(["--no-enable", "--unit-dir", str(tmp_path / "u")]) == 0
    assert "sudo groupadd --system gpio" in capsys.readouterr().err


def test_install_section_enables_at_boot() -> None:
    assert parse_unit(SHIPPED_UNIT.read_text(encoding="utf-8"))["Install"]["WantedBy"] == ["multi-user.target"]


def test_polkit_rule_names_the_unit_user_and_poweroff() -> None:
    rule = SHIPPED_RULE.read_text(encoding="utf-8")
    user = parse_unit(SHIPPED_UNIT.read_text(encoding="utf-8"))["Service"]["User"][0]
    assert f'subject.user != "{user}"' in rule
    assert '"org.freedesktop.login1.power-off"' in rule
    assert 'subject.system_unit != "companion.service"' in rule


def test_polkit_rule_grants_power_off_only() -> None:
    """No reboot, no -ignore-inhibit (a power-off in the middle of an OS upgrade)."""
    code = "\n".join(line for line in SHIPPED_RULE.read_text(encoding="utf-8").splitlines()
                     if not line.lstrip().startswith("//"))
    actions = set(re.findall(r'"(org\.freedesktop\.[a-z0-9.-]+)"', code))
    assert actions == {"org.freedesktop.login1.power-off", "org.freedesktop.login1.power-off-multiple-sessions"}
    assert "reboot" not in code and "inhibit" not in code and "indexOf" not in code


def test_dry_run_prints_the_unit_for_this_venv(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["--dry-run", "--unit-dir", str(tmp_path), "--config", "/etc/companion/alt.yaml"]) == 0
    out = capsys.readouterr().out
    assert out == render_unit(sys.prefix, "/etc/companion/alt.yaml")
    assert f"ExecStart={sys.prefix}/bin/companion run --config /etc/companion/alt.yaml\n" in out
    assert list(tmp_path.iterdir()) == [], "--dry-run must not write anything"


def test_install_into_unit_dir_without_enabling(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    venv = fake_venv(tmp_path)
    monkeypatch.setattr(sys, "prefix", str(venv))
    ran: list[list[str]] = []
    monkeypatch.setattr(service_install, "_run", ran.append)
    unit_dir = tmp_path / "units"
    assert main(["--unit-dir", str(unit_dir), "--no-enable"]) == 0
    written = (unit_dir / "companion.service").read_text(encoding="utf-8")
    assert written == render_unit(venv, "/etc/companion/config.yaml")
    assert (unit_dir / "companion.service").stat().st_mode & 0o777 == 0o644
    assert ran == [], "--no-enable must not run systemctl or useradd"
    assert "systemctl enable --now companion" in capsys.readouterr().out


def test_install_with_poweroff_rule(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    venv = fake_venv(tmp_path)
    monkeypatch.setattr(sys, "prefix", str(venv))
    polkit = tmp_path / "rules.d"
    rc = main(["--unit-dir", str(tmp_path / "u"), "--no-enable", "--allow-poweroff", "--polkit-dir", str(polkit)])
    assert rc == 0
    assert (polkit / "50-companion-poweroff.rules").read_text() == SHIPPED_RULE.read_text()


def test_enable_runs_systemctl_in_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ran = pretend_root(monkeypatch, fake_venv(tmp_path))
    config = tmp_path / "etc" / "config.yaml"
    assert main(["--unit-dir", str(tmp_path / "u"), "--config", str(config)]) == 0
    assert ran == [["systemctl", "daemon-reload"], ["systemctl", "enable", "--now", "companion"]]
    # The unit passes --config, so a fresh install must get a file; all
    # commented out, it gives the defaults.
    from companion.box.config import Config, load_config

    assert load_config(str(config)).describe() == Config(source=str(config)).describe()
    assert "display:" in config.read_text()


def test_enable_keeps_an_existing_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pretend_root(monkeypatch, fake_venv(tmp_path), groups=False)
    config = tmp_path / "config.yaml"
    config.write_text("display: {driver: sh1106}\n")
    assert main(["--unit-dir", str(tmp_path / "u"), "--config", str(config)]) == 0
    assert config.read_text() == "display: {driver: sh1106}\n"


def test_not_root_is_a_clear_error_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    venv = fake_venv(tmp_path)
    monkeypatch.setattr(sys, "prefix", str(venv))
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    unit_dir = tmp_path / "units"
    assert main(["--unit-dir", str(unit_dir)]) == 1
    err = capsys.readouterr().err
    assert "root" in err and "sudo" in err
    assert not unit_dir.exists()


def test_missing_executable_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "no-venv"))
    assert main(["--unit-dir", str(tmp_path / "u"), "--no-enable"]) == 1
    assert "not an executable" in capsys.readouterr().err


@pytest.mark.parametrize("config", ["relative.yaml", *(str(top / "config.yaml") for top in REAL_HIDDEN_PREFIXES)])
def test_config_the_service_cannot_read_exits_2(config: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(service_install, "_HIDDEN_PREFIXES", REAL_HIDDEN_PREFIXES)
    with pytest.raises(SystemExit) as exc:
        main(["--dry-run", "--config", config])
    assert exc.value.code == 2


def test_cli_dispatches_install_service(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main as cli_main

    assert cli_main(["install-service", "--dry-run"]) == 0
    assert "Type=notify" in capsys.readouterr().out


def test_venv_under_home_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "prefix", str(REAL_HIDDEN_PREFIXES[0] / "venv"))  # the unit hides it
    assert main(["--unit-dir", str(tmp_path), "--no-enable"]) == 1
    assert "ProtectHome" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_extra_hardening_is_present() -> None:
    service = parse_unit(SHIPPED_UNIT.read_text(encoding="utf-8"))["Service"]
    assert service["PrivateMounts"] == ["yes"]
    assert "~@privileged @resources" in service["SystemCallFilter"]
    assert service["CapabilityBoundingSet"] == [""]


def _security_score(unit: Path) -> float | None:
    result = subprocess.run(["systemd-analyze", "security", "--offline=true", "--no-pager", str(unit)],
                            capture_output=True, text=True, check=False)
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    return float(found.group(1)) if found else None


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze not installed (Debian package: systemd)")
def test_security_exposure_stays_low(tmp_path: Path) -> None:
    """systemd-analyze security --offline=true (systemd >= 250): 0.6 SAFE for this unit (was 1.0)."""
    unit = tmp_path / "companion.service"
    unit.write_text(render_unit(fake_venv(tmp_path), "/etc/companion/config.yaml"))
    score = _security_score(unit)
    if score is None:
        pytest.skip("this systemd-analyze has no `security --offline=true` (systemd < 250)")
    assert score <= 0.6, score
