"""The Pi's own devices for the service's user (issue 40): the udev rule that gives
/dev/gpiochip* to group gpio (Debian has none; /dev/i2c-* comes from i2c-tools' own rule),
install.sh putting it into /etc/udev/rules.d, and install-service putting the `companion`
user into the hardware groups. No account is created and no rule loaded on this machine."""

from __future__ import annotations

import fnmatch
import re
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest

from companion.box import install_checks, service_install

ROOT = Path(__file__).resolve().parents[2]
RULE = ROOT / "systemd" / "60-companion-gpio.rules"
SCRIPT = ROOT / "install.sh"
# key{attribute} OP "value" -- the subset of udev's syntax (udev(7)) a rule here may use
PAIR = re.compile(r'\s*([A-Z]+)(?:\{[^}]*\})?\s*(==|!=|\+=|-=|:=|=)\s*"([^"]*)"\s*$')
MATCH_KEYS = {"ACTION", "SUBSYSTEM", "KERNEL", "DEVPATH", "DRIVER"}
ASSIGN_KEYS = {"GROUP", "MODE", "OWNER"}


def rules(text: str) -> list[dict[str, tuple[str, str]]]:
    """Each rule line as key -> (operator, value); a line udev would not read fails the test."""
    parsed = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        rule = {}
        for pair in line.split(","):
            found = PAIR.fullmatch(pair)
            assert found, f"not a udev key/value pair: {pair!r} in {line!r}"
            key, op, value = found.groups()
            assert key in MATCH_KEYS | ASSIGN_KEYS, f"unexpected key {key} in {line!r}"
            assert (op in ("==", "!=")) == (key in MATCH_KEYS), f"{key}{op}: match keys compare, others assign"
            rule[key] = (op, value)
        parsed.append(rule)
    return parsed


def udev_matches(rule: dict[str, tuple[str, str]], subsystem: str, kernel: str) -> bool:
    """udev's glob match (fnmatch's *, ? and [...]) of the rule's SUBSYSTEM and KERNEL."""
    return (fnmatch.fnmatchcase(subsystem, rule["SUBSYSTEM"][1])
            and fnmatch.fnmatchcase(kernel, rule["KERNEL"][1]))


def test_the_rule_gives_the_gpio_chips_to_group_gpio_and_nothing_else() -> None:
    [rule] = rules(RULE.read_text(encoding="utf-8"))
    assert rule["GROUP"] == ("=", "gpio") and rule["MODE"] == ("=", "0660")
    assert "OWNER" not in rule
    assert rule["GROUP"][1] in service_install.HARDWARE_GROUPS, "a group the unit's SupplementaryGroups= names"
    for chip in ("gpiochip0", "gpiochip4", "gpiochip10"):
        assert udev_matches(rule, "gpio", chip)
    assert not udev_matches(rule, "gpio", "gpio17"), "not the sysfs export lines"
    assert not udev_matches(rule, "i2c-dev", "i2c-1"), "i2c comes from i2c-tools' own rule"


def _udevadm_version() -> int:
    out = subprocess.run(["udevadm", "--version"], capture_output=True, text=True, check=False).stdout
    found = re.match(r"\s*(\d+)", out)
    return int(found.group(1)) if found else 0


def test_udevadm_verify_accepts_the_rule() -> None:
    """systemd 255+ checks a rules file's syntax itself (Debian 13 has 257)."""
    if shutil.which("udevadm") is None or _udevadm_version() < 255:
        pytest.skip("no udevadm verify here (needs systemd 255 or newer, e.g. Debian 13's udev): "
                    "the rule's syntax is checked by the parser above")
    out = subprocess.run(["udevadm", "verify", "--resolve-names=never", str(RULE)],
                         capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stdout + out.stderr


def test_install_sh_puts_the_rule_in_place_once(tmp_path: Path) -> None:
    rules_dir = tmp_path / "etc" / "udev" / "rules.d"

    def run() -> str:
        res = subprocess.run(["bash", str(SCRIPT), "--udev-only", str(rules_dir)],
                             capture_output=True, text=True, timeout=60, check=False)
        assert res.returncode == 0, res.stderr
        return res.stdout

    assert "wrote" in run()
    installed = rules_dir / RULE.name
    assert installed.read_bytes() == RULE.read_bytes()
    assert installed.stat().st_mode & 0o777 == 0o644
    assert "unchanged" in run()


def test_install_sh_installs_the_rule_on_a_pi_and_i2c_tools_everywhere() -> None:
    code = "\n".join(ln for ln in SCRIPT.read_text(encoding="utf-8").splitlines() if not ln.lstrip().startswith("#"))
    # i2c-tools ships 60-i2c-tools.rules (/dev/i2c-* to group i2c, 0660) and creates the group
    assert re.search(r"^PKGS=\(.*\bi2c-tools\b", code, re.M)
    pi_branch = code[code.index("if [ $PI = 1 ]; then\n  udev_rule /etc/udev/rules.d\n"):]
    assert "udevadm trigger --subsystem-match=gpio" in pi_branch.split("\nelse\n")[0]
    assert '[ $PI = 1 ] && ensure_lgpio "$VENV"' in code


def _accounts(members: dict[str, list[str]]) -> install_checks.Accounts:
    def getgrnam(name: str):
        if name not in members:
            raise KeyError(name)
        return SimpleNamespace(gr_name=name, gr_passwd="x", gr_gid=900, gr_mem=members[name])
    return install_checks.Accounts(getgrnam=getgrnam)


def test_the_service_user_joins_the_hardware_groups(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: f"/usr/sbin/{name}")
    ran: list[list[str]] = []
    monkeypatch.setattr(service_install, "_run", ran.append)
    # plain Debian after groupadd: the user (made by useradd) is in none of them
    service_install._ensure_membership(_accounts({g: [] for g in service_install.HARDWARE_GROUPS}))
    assert ran == [["usermod", "-aG", "gpio,i2c,dialout,input,audio,video", "companion"]]
    ran.clear()
    # a re-run, or Raspberry Pi OS where some were joined already: only the missing ones
    service_install._ensure_membership(_accounts({"gpio": ["companion"], "i2c": ["companion"],
                                                  "dialout": ["pi", "companion"], "input": ["pi"],
                                                  "audio": ["companion"], "video": ["companion"]}))
    assert ran == [["usermod", "-aG", "input", "companion"]]
    ran.clear()
    service_install._ensure_membership(_accounts({g: ["companion"] for g in service_install.HARDWARE_GROUPS}))
    assert ran == []


def test_the_joined_groups_pass_the_account_check() -> None:
    """install-service must accept its own work on the next run: the hardware groups are allowed."""
    user = SimpleNamespace(pw_name="companion", pw_passwd="x", pw_uid=998, pw_gid=998,
                           pw_gecos="", pw_dir="/nonexistent", pw_shell="/usr/sbin/nologin")
    groups = [SimpleNamespace(gr_name="companion", gr_passwd="x", gr_gid=998, gr_mem=[])]
    groups += [SimpleNamespace(gr_name=g, gr_passwd="x", gr_gid=900 + i, gr_mem=["companion"])
               for i, g in enumerate(service_install.HARDWARE_GROUPS)]

    def getgrgid(gid: int):
        return next(g for g in groups if g.gr_gid == gid)

    accounts = install_checks.Accounts(getpwnam=lambda name: user, getgrall=lambda: groups, getgrgid=getgrgid,
                                       shadow_password=lambda name: "!", sys_uid_max=lambda: 999)
    assert install_checks.check_account("companion", accounts) is True
