"""`companion doctor`: what a hobbyist gets wrong, one line each with the fix.

Each check is a small function taking a `Probe` (where to look and how to ask)
and returning `Result(level, name, line)` with level ok | warn | fail. The
command prints one line per check and exits 1 when any check failed (warnings
alone exit 0). Everything the checks touch is injectable, so the tests run on a
fake /sys and /dev under tmp_path:

- `Probe.root`: the file system root (``/``); /sys/module/i2c_dev, /dev/i2c-N,
  /dev/gpiochip*, /dev/serial/by-id, /dev/input/by-id, /etc/group and
  /etc/passwd are read under it;
- `Probe.oled(port, address)`: True when an OLED acknowledges at that address
  (default: luma's i2c interface and a no-op command); raises for a bus that
  cannot be opened;
- `Probe.run(argv)`: a command runner returning (status, output); raises
  FileNotFoundError when the program is missing (the check is then skipped);
- `Probe.importable(name)`: whether a Python module imports (lgpio).

`companion doctor --keys` is the interactive key test (companion.doctor_keys).
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from companion.config import OLED_ADDRESSES, Config, ConfigError, is_oled, load_config

OK, WARN, FAIL = "ok", "warn", "fail"
SERVICE = "companion"
USER = "companion"
# group -> what needs it (the unit's SupplementaryGroups= gives gpio i2c dialout)
GROUPS = {"gpio": "GPIO buttons", "i2c": "the OLED", "dialout": "a serial keypad",
          "input": "a USB keypad"}
ENABLE_I2C = "sudo raspi-config nonint do_i2c 0 (or dtparam=i2c_arm=on in /boot/firmware/config.txt), then reboot"

Runner = Callable[[Sequence[str]], tuple[int, str]]
OledProber = Callable[[int, int], bool]


@dataclass
class Result:
    """One check's verdict: `level` ok | warn | fail, and one line saying what to do."""

    level: str
    name: str
    line: str

    def __str__(self) -> str:
        return f"{self.level.upper():<4}  {self.name}: {self.line}"


def run_command(argv: Sequence[str]) -> tuple[int, str]:
    """Run `argv` (10 s at most); (exit status, stdout+stderr). FileNotFoundError when missing."""
    try:
        done = subprocess.run(list(argv), capture_output=True, text=True, timeout=10, check=False)
    except subprocess.TimeoutExpired:
        return 124, f"{argv[0]} timed out"
    return done.returncode, (done.stdout + done.stderr).strip()


def probe_oled(port: int, address: int) -> bool:
    """True when something acknowledges a no-op command at `address` on /dev/i2c-`port`."""
    from companion.hw.display import find_oled, no_answer

    try:
        _, serial = find_oled(port, (address,))
    except Exception as e:
        if no_answer(e):      # nothing acknowledged (the bus itself was checked before)
            return False
        raise
    try:
        serial.cleanup()
    except Exception:
        pass
    return True


def importable(name: str) -> bool:
    """True when module `name` imports."""
    try:
        importlib.import_module(name)
    except Exception:
        return False
    return True


@dataclass
class Probe:
    """Where the checks look and how they ask (all injectable for tests)."""

    root: Path = Path("/")
    run: Runner = run_command
    oled: OledProber = probe_oled
    importable: Callable[[str], bool] = importable
    user: str = USER
    config_path: str | None = None
    config: Config | None = field(default=None)

    def path(self, absolute: str) -> Path:
        """`absolute` under the probed root."""
        return self.root / absolute.lstrip("/")


# --- the checks -----------------------------------------------------------------

def check_config(p: Probe) -> Result:
    """The config loads (it is kept in `p.config` for the other checks)."""
    try:
        p.config = load_config(p.config_path)
    except ConfigError as e:
        p.config = Config()
        return Result(FAIL, "config", f"{e} (fix that key; the defaults are checked below)")
    return Result(OK, "config", f"{p.config.source} loads")


def _cfg(p: Probe) -> Config:
    return p.config if p.config is not None else Config()


def check_i2c(p: Probe) -> Result:
    """i2c-dev loaded and /dev/i2c-N there (only for an OLED)."""
    d = _cfg(p).display
    if not is_oled(d.driver):
        return Result(OK, "i2c", f"display driver {d.driver}: no I2C needed")
    if not p.path("/sys/module/i2c_dev").exists():
        return Result(FAIL, "i2c", f"the i2c-dev module is not loaded: {ENABLE_I2C}")
    bus = p.path(f"/dev/i2c-{d.port}")
    if not bus.exists():
        others = sorted(x.name for x in p.path("/dev").glob("i2c-*"))
        hint = f" (there is {', '.join(others)}: set display.port)" if others else f": {ENABLE_I2C}"
        return Result(FAIL, "i2c", f"no /dev/i2c-{d.port}{hint}")
    return Result(OK, "i2c", f"i2c-dev loaded, /dev/i2c-{d.port} present")


def check_oled(p: Probe) -> Result:
    """An OLED answers at 0x3C or 0x3D (both probed) and the config agrees."""
    d = _cfg(p).display
    if not is_oled(d.driver):
        return Result(OK, "oled", f"display driver {d.driver}: no OLED to probe")
    if not p.path(f"/dev/i2c-{d.port}").exists():
        return Result(FAIL, "oled", f"not probed: no /dev/i2c-{d.port} (see i2c above)")
    found = []
    for address in OLED_ADDRESSES:
        try:
            if p.oled(d.port, address):
                found.append(address)
        except Exception as e:
            why = "permission denied" if "permission" in str(e).lower() else f"{type(e).__name__}: {e}"
            return Result(FAIL, "oled", f"cannot open /dev/i2c-{d.port}: {why}: "
                                        f"add the user to group i2c (sudo usermod -aG i2c $USER), log in again")
    shown = " and ".join(f"0x{a:02X}" for a in found)
    if not found:
        return Result(FAIL, "oled", f"nothing answers at 0x3C or 0x3D on i2c-{d.port}: check the wiring "
                                    f"(SDA pin 3, SCL pin 5, VCC 3.3 V, GND) and run i2cdetect -y {d.port}")
    if d.address is not None and d.address not in found:
        return Result(FAIL, "oled", f"the OLED answers at {shown} but display.address is "
                                    f"0x{d.address:02X}: set address: 0x{found[0]:02X} or leave it out")
    return Result(OK, "oled", f"{d.driver} answers at {shown} on i2c-{d.port}")


def _groups(p: Probe) -> dict[str, tuple[int, set[str]]]:
    """group name -> (gid, members) from <root>/etc/group."""
    out: dict[str, tuple[int, set[str]]] = {}
    try:
        text = p.path("/etc/group").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return out
    for line in text.splitlines():
        parts = line.split(":")
        if len(parts) >= 4 and parts[2].isdigit():
            out[parts[0]] = (int(parts[2]), {m for m in parts[3].split(",") if m})
    return out


def _primary_gid(p: Probe) -> int | None:
    try:
        text = p.path("/etc/passwd").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    for line in text.splitlines():
        parts = line.split(":")
        if len(parts) >= 4 and parts[0] == p.user and parts[3].isdigit():
            return int(parts[3])
    return None


def check_groups(p: Probe) -> Result:
    """The hardware groups exist and the service user is in them."""
    groups = _groups(p)
    missing = [g for g in GROUPS if g not in groups]
    if missing:
        return Result(FAIL, "groups", f"group {', '.join(missing)} does not exist: sudo groupadd --system "
                                      f"{missing[0]} (Raspberry Pi OS has them; a udev rule gives it the devices)")
    gid = _primary_gid(p)
    if gid is None:
        return Result(FAIL, "groups", f"no user {p.user}: run sudo companion install-service")
    outside = [g for g, (g_id, members) in groups.items()
               if g in GROUPS and p.user not in members and g_id != gid]
    if outside:
        needs = ", ".join(f"{g} ({GROUPS[g]})" for g in outside)
        return Result(WARN, "groups", f"{p.user} is not in {needs}: sudo usermod -aG {','.join(outside)} "
                                      f"{p.user} (the unit's SupplementaryGroups= covers gpio i2c dialout)")
    return Result(OK, "groups", f"{p.user} is in {' '.join(GROUPS)}")


def check_gpio(p: Probe) -> Result:
    """lgpio imports and a /dev/gpiochip* exists (only with buttons or an encoder)."""
    c = _cfg(p)
    if (c.buttons is None or c.buttons.enabled is False) and c.encoder is None:
        return Result(OK, "gpio", "no buttons or encoder configured")
    if not p.importable("lgpio"):
        return Result(FAIL, "gpio", "lgpio does not import: install it in the venv (pip install lgpio; "
                                    "on Bookworm: sudo apt install python3-lgpio and a venv with "
                                    "--system-site-packages)")
    chips = sorted(x.name for x in p.path("/dev").glob("gpiochip*"))
    if not chips:
        return Result(FAIL, "gpio", "no /dev/gpiochip*: this is not a Raspberry Pi (or its kernel has no "
                                    "GPIO character device): set buttons.enabled: false")
    return Result(OK, "gpio", f"lgpio imports, {', '.join(chips)} present")


def _listing(p: Probe, folder: str, pattern: str = "*") -> list[str]:
    return sorted(x.name for x in p.path(folder).glob(pattern))


def check_keypad(p: Probe) -> Result:
    """The serial keypad under /dev/serial/by-id, or a USB keypad under /dev/input/by-id."""
    c = _cfg(p)
    serial = _listing(p, "/dev/serial/by-id")
    kbds = _listing(p, "/dev/input/by-id", "*-event-kbd")
    lines: list[str] = []
    if c.keypad is not None:
        port = c.keypad.port
        if "://" not in port and not p.path(port).exists():
            seen = f" (plugged in: {', '.join(serial)})" if serial else ""
            return Result(FAIL, "keypad", f"{port} is not there: plug the keypad in, or set keypad.port to "
                                          f"its /dev/serial/by-id/ name{seen}")
        lines.append(f"serial keypad {port} present")
    if c.usb_keypad is not None:
        dev = c.usb_keypad.device
        if dev == "auto" and not kbds:
            return Result(FAIL, "keypad", "usb_keypad: device auto but no /dev/input/by-id/*-event-kbd: "
                                          "plug the USB keypad in (ls /dev/input/by-id/)")
        if dev != "auto" and not p.path(dev).exists():
            return Result(FAIL, "keypad", f"usb_keypad.device {dev} is not there: plug it in or use auto")
        lines.append(f"USB keypad {kbds[0] if dev == 'auto' else dev} present")
    if lines:
        return Result(OK, "keypad", "; ".join(lines))
    if serial or kbds:
        what = f"/dev/serial/by-id/{serial[0]}" if serial else f"/dev/input/by-id/{kbds[0]}"
        key = "keypad: {port: ...}" if serial else "usb_keypad: {}"
        return Result(WARN, "keypad", f"{what} is plugged in but not configured: add {key} to the config")
    return Result(WARN, "keypad", "no keypad configured nor found under /dev/serial/by-id or "
                                  "/dev/input/by-id (buttons alone work too)")


def check_service(p: Probe) -> Result:
    """`systemctl is-active companion` (skipped without systemd)."""
    if not p.path("/run/systemd/system").exists():
        return Result(WARN, "service", "systemd is not running here: skipped")
    try:
        status, out = p.run(["systemctl", "is-active", SERVICE])
    except (FileNotFoundError, PermissionError):
        return Result(WARN, "service", "systemctl not found: skipped")
    state = (out.splitlines() or ["unknown"])[-1].strip()
    if status == 0 and state == "active":
        return Result(OK, "service", f"{SERVICE}.service is active")
    if state in ("inactive", "unknown") and status in (3, 4):
        unit = p.path(f"/etc/systemd/system/{SERVICE}.service")
        if not unit.exists():
            return Result(WARN, "service", f"{SERVICE}.service is not installed: sudo "
                                           f"{sys.prefix}/bin/companion install-service")
    return Result(FAIL, "service", f"{SERVICE}.service is {state}: sudo systemctl restart {SERVICE}; "
                                   f"why: journalctl -u {SERVICE} -b")


def check_journal(p: Probe) -> Result:
    """The service's last warnings and errors (skipped without journalctl)."""
    try:
        status, out = p.run(["journalctl", "-u", SERVICE, "-p", "warning", "-n", "5",
                             "--no-pager", "-o", "cat"])
    except (FileNotFoundError, PermissionError):
        return Result(WARN, "journal", "journalctl not found: skipped")
    lines = [ln for ln in out.splitlines() if ln.strip() and not ln.startswith("-- ")]
    if status != 0:
        return Result(WARN, "journal", f"journalctl failed ({lines[-1] if lines else status}): "
                                       "run it as root or add the user to group adm")
    if not lines:
        return Result(OK, "journal", "no warnings from the service")
    return Result(WARN, "journal", f"{len(lines)} recent warnings, last: {lines[-1][:120]} "
                                   f"(all: journalctl -u {SERVICE} -p warning)")


CHECKS: tuple[Callable[[Probe], Result], ...] = (
    check_config, check_i2c, check_oled, check_groups, check_gpio, check_keypad,
    check_service, check_journal)


def run_checks(p: Probe, checks: Sequence[Callable[[Probe], Result]] = CHECKS) -> list[Result]:
    """Every check in order; a check that crashes is a failure line, never a traceback."""
    results = []
    for check in checks:
        try:
            results.append(check(p))
        except Exception as e:  # a doctor must never crash on a strange machine
            name = check.__name__.removeprefix("check_")
            results.append(Result(FAIL, name, f"the check itself failed: {type(e).__name__}: {e}"))
    return results


def report(results: Sequence[Result], out: Any = None) -> int:
    """Print the results and a summary; 1 when any failed, else 0."""
    out = sys.stdout if out is None else out
    for r in results:
        print(r, file=out)
    fails = sum(r.level == FAIL for r in results)
    warns = sum(r.level == WARN for r in results)
    print(f"companion doctor: {fails} problem{'s' * (fails != 1)}, {warns} warning{'s' * (warns != 1)}",
          file=out)
    return 1 if fails else 0


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="companion doctor",
                                 description="Check the box's set-up; one line per check with the fix.")
    ap.add_argument("--config", metavar="PATH", help="config file (default /etc/companion/config.yaml if present)")
    ap.add_argument("--root", metavar="DIR", default="/", help=argparse.SUPPRESS)
    ap.add_argument("--user", default=USER, help="the service's user (default companion)")
    ap.add_argument("--keys", action="store_true",
                    help="interactive test: press each button / key as the screen asks")
    ap.add_argument("--timeout", type=float, default=120.0, metavar="S",
                    help="with --keys: give up after S seconds (default 120)")
    ap.add_argument("--display", metavar="DRIVER", help="with --keys: display driver (default: the config's)")
    return ap


def main(argv: list[str]) -> int:
    """`companion doctor [--keys]`; exit 1 on a problem."""
    args = _parser().parse_args(argv)
    if args.keys:
        from companion.doctor_keys import main_keys

        return main_keys(args)
    probe = Probe(root=Path(args.root), user=args.user, config_path=args.config)
    return report(run_checks(probe))
