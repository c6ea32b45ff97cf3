"""./install.sh: its firmware step (through --firmware-only, no root needed) and what the
script promises. The whole script runs on a real Debian in tests/system/test_debian_systemd.py."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "install.sh"
FRAGMENT = (ROOT / "firmware_config" / "config.txt").read_text()
BEGIN = "# >>> companion"
END = "# <<< companion"


def firmware(config: Path, modules: Path) -> subprocess.CompletedProcess[str]:
    res = subprocess.run(["bash", str(SCRIPT), "--firmware-only", str(config), str(modules)],
                         capture_output=True, text=True, timeout=60, check=False)
    assert res.returncode == 0, res.stderr
    return res


def test_script_is_executable_and_parses() -> None:
    assert SCRIPT.stat().st_mode & 0o111
    subprocess.run(["bash", "-n", str(SCRIPT)], check=True)


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck not installed (Debian package: shellcheck)")
def test_shellcheck_is_clean() -> None:
    res = subprocess.run(["shellcheck", str(SCRIPT)], capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stdout


def test_fragment_is_added_once_and_a_rerun_changes_nothing(tmp_path: Path) -> None:
    config, modules = tmp_path / "config.txt", tmp_path / "modules-load.d" / "companion.conf"
    config.write_text("# the Pi's own settings\n[pi4]\narm_boost=1")  # no final newline
    first = firmware(config, modules)
    assert "reboot=1" in first.stdout
    text = config.read_text()
    assert text.startswith("# the Pi's own settings\n[pi4]\narm_boost=1\n")
    assert text.count(BEGIN) == 1 and text.count(END) == 1
    assert FRAGMENT.rstrip("\n") in text
    assert "dtparam=i2c_arm=on" in text and "[all]" in text
    assert modules.read_text() == (ROOT / "firmware_config" / "modules-load.conf").read_text()
    assert "\ni2c-dev\n" in modules.read_text()
    backups = list(tmp_path.glob("config.txt.bak-*"))
    assert len(backups) == 1 and backups[0].read_text() == "# the Pi's own settings\n[pi4]\narm_boost=1"

    second = firmware(config, modules)
    assert "reboot=0" in second.stdout
    assert config.read_text() == text
    assert len(list(tmp_path.glob("config.txt.bak-*"))) == 1


def test_a_changed_block_is_replaced_in_place(tmp_path: Path) -> None:
    config, modules = tmp_path / "config.txt", tmp_path / "companion.conf"
    config.write_text(f"before\n{BEGIN} (an older install.sh)\ndtparam=i2c_arm=off\n{END}\nafter\n")
    out = firmware(config, modules)
    assert "replaced" in out.stdout and "reboot=1" in out.stdout
    text = config.read_text()
    assert text.startswith("before\n") and text.endswith(f"{END}\nafter\n")
    assert "i2c_arm=off" not in text and text.count(END) == 1


def test_a_fragment_appended_by_hand_is_left_alone(tmp_path: Path) -> None:
    """The old manual steps appended the fragment without markers: the same settings."""
    config, modules = tmp_path / "config.txt", tmp_path / "companion.conf"
    old = "# Clans companion: append to /boot/firmware/config.txt (see README.md here).\n[all]\ndtparam=i2c_arm=on\n"
    config.write_text(old)
    out = firmware(config, modules)
    assert "by hand" in out.stdout
    assert config.read_text() == old
    assert modules.exists()  # i2c-dev was the missing part


def test_fragment_documents_the_optional_lines_commented_out() -> None:
    active = [ln for ln in FRAGMENT.splitlines() if ln and not ln.startswith("#")]
    assert active == ["[all]", "dtparam=i2c_arm=on", "dtparam=i2c_arm_baudrate=400000"]
    assert "#dtparam=act_led_trigger=" in FRAGMENT
    assert "#dtoverlay=gpio-shutdown,gpio_pin=26" in FRAGMENT


def test_script_promises() -> None:
    text = SCRIPT.read_text()
    code = "\n".join(ln for ln in text.splitlines() if not ln.lstrip().startswith("#"))
    # Never touches the state directory (journal, game in progress).
    assert "/var/lib/companion" not in code
    assert "install-service --allow-poweroff" in code
    assert "PREFIX=/opt/companion\n" in code and "VENV=$PREFIX/venv\n" in code
    # piwheels only on 32-bit ARM.
    piwheels = [i for i, ln in enumerate(code.splitlines()) if "piwheels.org/simple" in ln]
    assert len(piwheels) == 1
    assert re.search(r"armv7l\|armv6l\)[^;]*\n(.*\n){0,3}.*piwheels.org/simple", code)
