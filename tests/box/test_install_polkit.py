"""The polkit rule, run: only the companion service may power off, nothing else (issue 11 item 9).

The rule is plain ES5 (polkit's duktape engine); node runs it here with the
same `polkit.Result` table and rule loop as polkit's init.js. Subjects are
what polkit passes: Bookworm's polkit 122 has no `system_unit`; polkit >= 124
sets it (null when it cannot tell) with `no_new_privileges`.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULE = ROOT / "systemd" / "50-companion-poweroff.rules"

HARNESS = """
var polkit = {
    _ruleFuncs: [],
    addRule: function(f) { this._ruleFuncs.push(f); },
    log: function() {},
    Result: {NO: "no", YES: "yes", AUTH_SELF: "auth_self", AUTH_SELF_KEEP: "auth_self_keep",
             AUTH_ADMIN: "auth_admin", AUTH_ADMIN_KEEP: "auth_admin_keep", NOT_HANDLED: null},
    _runRules: function(action, subject) {
        for (var n = 0; n < this._ruleFuncs.length; n++) {
            var r = this._ruleFuncs[n](action, subject);
            if (r) return r;
        }
        return null;
    }
};
var fs = require("fs");
eval(fs.readFileSync(process.argv[2], "utf8"));
var cases = JSON.parse(fs.readFileSync(0, "utf8"));
var out = cases.map(function(c) { return polkit._runRules({id: c[0]}, c[1]); });
process.stdout.write(JSON.stringify(out));
"""

POWER_OFF = "org.freedesktop.login1.power-off"
MULTI = "org.freedesktop.login1.power-off-multiple-sessions"
OTHER_ACTIONS = [
    "org.freedesktop.login1.power-off-ignore-inhibit",
    "org.freedesktop.login1.reboot",
    "org.freedesktop.login1.reboot-multiple-sessions",
    "org.freedesktop.login1.reboot-ignore-inhibit",
    "org.freedesktop.login1.halt",
    "org.freedesktop.login1.suspend",
    "org.freedesktop.login1.set-reboot-to-firmware-setup",
    "org.freedesktop.systemd1.manage-units",
    "org.freedesktop.packagekit.upgrade-system",
]

# polkit 122 (Bookworm): no system_unit attribute at all.
OLD = {"user": "companion", "uid": 998, "pid": 1234, "local": False, "active": False}
# polkit >= 124, the service's own process.
SERVICE = dict(OLD, system_unit="companion.service", no_new_privileges=True)


def run_rule(cases: list[tuple[str, dict]], tmp_path: Path) -> list[str | None]:
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("node (nodejs) is not installed: the polkit rule cannot be run here "
                    "(apt install nodejs to run these tests)")
    harness = tmp_path / "harness.js"
    harness.write_text(HARNESS)
    result = subprocess.run([node, str(harness), str(RULE)], input=json.dumps(cases),
                            capture_output=True, text=True, check=False, timeout=60)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_the_service_may_power_off(tmp_path: Path) -> None:
    cases = [(POWER_OFF, OLD), (MULTI, OLD), (POWER_OFF, SERVICE), (MULTI, SERVICE),
             (POWER_OFF, dict(OLD, system_unit=None))]  # polkit >= 124 without a pidfd from D-Bus
    assert run_rule(cases, tmp_path) == ["yes"] * len(cases)


@pytest.mark.parametrize("action", OTHER_ACTIONS)
def test_nothing_but_power_off_is_granted(action: str, tmp_path: Path) -> None:
    assert run_rule([(action, OLD), (action, SERVICE)], tmp_path) == [None, None]


def test_other_users_and_units_are_not_granted(tmp_path: Path) -> None:
    cases = [
        (POWER_OFF, dict(OLD, user="pi")),
        (POWER_OFF, dict(SERVICE, user="root")),
        # polkit >= 124: the companion user, but not from the service
        (POWER_OFF, dict(SERVICE, system_unit="session-3.scope")),            # sudo -u companion over ssh
        (POWER_OFF, dict(SERVICE, system_unit="other.service")),
        (MULTI, dict(SERVICE, system_unit="companion.service.d")),
        # the service without NoNewPrivileges=yes (or polkit cannot tell)
        (POWER_OFF, dict(SERVICE, no_new_privileges=False)),
        (POWER_OFF, dict(OLD, system_unit="companion.service")),
    ]
    assert run_rule(cases, tmp_path) == [None] * len(cases)
