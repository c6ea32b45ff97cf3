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

`companion doctor --keys` runs the interactive key test (companion.box.keytest).
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Sequence

from companion.box.config import (OLED_ADDRESSES, Config, ConfigError, display_drivers, is_display_driver, is_oled,
                                  load_config)
from companion import i18n
from companion.hw.platform import prepare_lgpio
from companion.hw.sinks import writes_frames
from companion.i18n import N_, _, ngettext

OK, WARN, FAIL = "ok", "warn", "fail"
CAMERA_WAIT_S = 5.0  # `doctor --camera` waits this long for the camera's first frame
SERVICE = "companion"
USER = "companion"
# group -> what needs it (the unit's SupplementaryGroups= gives gpio i2c dialout input audio video)
GROUPS = {"gpio": N_("GPIO buttons"), "i2c": N_("the OLED"), "dialout": N_("a serial keypad"),
          "input": N_("a USB keypad"), "audio": N_("the voice (speech)"), "video": N_("the camera")}
# the level word that starts each line of `companion doctor`
# NOTE: max 4 characters (the lines are aligned)
LEVELS = {OK: N_("OK"), WARN: N_("WARN"), FAIL: N_("FAIL")}
# what each check is called at the start of its line
# NOTE: the name of a check of `companion doctor`, one short word
CHECK_NAMES = {"config": N_("config"), "i2c": N_("i2c"), "oled": N_("oled"), "groups": N_("groups"),
               "gpio": N_("gpio"), "keypad": N_("keypad"), "service": N_("service"), "journal": N_("journal"),
               "keys": N_("keys"), "sound": N_("sound")}


def enable_i2c() -> str:
    """How to switch the I2C bus on (the commands stay as they are)."""
    return _("{command} (or {setting} in {file}), then reboot").format(
        command="sudo raspi-config nonint do_i2c 0", setting="dtparam=i2c_arm=on", file="/boot/firmware/config.txt")


Runner = Callable[[Sequence[str]], tuple[int, str]]
OledProber = Callable[[int, int], bool]


@dataclass
class Result:
    """One check's verdict: `level` ok | warn | fail (an id), `name` the check's id, and one line
    (in the table's language) saying what to do."""

    level: str
    name: str
    line: str

    def __str__(self) -> str:
        level = _(LEVELS[self.level]) if self.level in LEVELS else self.level.upper()
        name = _(CHECK_NAMES[self.name]) if self.name in CHECK_NAMES else self.name
        return f"{level:<4}  {name}: {self.line}"


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
        return Result(FAIL, "config", _("{error} (fix that key; the defaults are checked below)").format(error=e))
    return Result(OK, "config", _("{file} loads").format(file=p.config.source))


def _cfg(p: Probe) -> Config:
    return p.config if p.config is not None else Config()


def check_i2c(p: Probe) -> Result:
    """i2c-dev loaded and /dev/i2c-N there (only for an OLED)."""
    d = _cfg(p).display
    if not is_oled(d.driver):
        return Result(OK, "i2c", _("display driver {driver}: no I2C needed").format(driver=d.driver))
    if not p.path("/sys/module/i2c_dev").exists():
        return Result(FAIL, "i2c", _("the i2c-dev module is not loaded: {fix}").format(fix=enable_i2c()))
    bus = p.path(f"/dev/i2c-{d.port}")
    if not bus.exists():
        others = sorted(x.name for x in p.path("/dev").glob("i2c-*"))
        if others:
            return Result(FAIL, "i2c", _("no {device} (there is {others}: set display.port)").format(
                device=f"/dev/i2c-{d.port}", others=", ".join(others)))
        return Result(FAIL, "i2c", _("no {device}: {fix}").format(device=f"/dev/i2c-{d.port}", fix=enable_i2c()))
    return Result(OK, "i2c", _("i2c-dev loaded, {device} present").format(device=f"/dev/i2c-{d.port}"))


def check_oled(p: Probe) -> Result:
    """An OLED answers at 0x3C or 0x3D (both probed) and the config agrees."""
    d = _cfg(p).display
    if not is_oled(d.driver):
        return Result(OK, "oled", _("display driver {driver}: no OLED to probe").format(driver=d.driver))
    if not p.path(f"/dev/i2c-{d.port}").exists():
        return Result(FAIL, "oled", _("not probed: no {device} (see i2c above)").format(device=f"/dev/i2c-{d.port}"))
    found = []
    for address in OLED_ADDRESSES:
        try:
            if p.oled(d.port, address):
                found.append(address)
        except Exception as e:
            why = _("permission denied") if "permission" in str(e).lower() else f"{type(e).__name__}: {e}"
            return Result(FAIL, "oled", _("cannot open {device}: {why}: add the user to group i2c "
                                          "({command}), log in again").format(
                device=f"/dev/i2c-{d.port}", why=why, command="sudo usermod -aG i2c $USER"))
    names = [f"0x{a:02X}" for a in found]
    # NOTE: two I2C addresses, e.g. "0x3C and 0x3D"
    shown = _("{first} and {second}").format(first=names[0], second=names[1]) if len(names) == 2 else "".join(names)
    if not found:
        return Result(FAIL, "oled", _("nothing answers at 0x3C or 0x3D on i2c-{port}: check the wiring "
                                      "(SDA pin 3, SCL pin 5, VCC 3.3 V, GND) and run {command}").format(
            port=d.port, command=f"i2cdetect -y {d.port}"))
    if d.address is not None and d.address not in found:
        return Result(FAIL, "oled", _("the OLED answers at {found} but display.address is {address}: "
                                      "set address: {first} or leave it out").format(
            found=shown, address=f"0x{d.address:02X}", first=f"0x{found[0]:02X}"))
    return Result(OK, "oled", _("{driver} answers at {found} on i2c-{port}").format(
        driver=d.driver, found=shown, port=d.port))


def _account_rows(p: Probe, file: str, number: int) -> list[list[str]]:
    """The colon-separated rows of <root>/etc/group or /etc/passwd whose field `number` is
    numeric (a gid); none when the file cannot be read."""
    try:
        text = p.path(file).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    rows = [line.split(":") for line in text.splitlines()]
    return [r for r in rows if len(r) >= 4 and r[number].isdigit()]


def _groups(p: Probe) -> dict[str, tuple[int, set[str]]]:
    """group name -> (gid, members) from <root>/etc/group."""
    return {r[0]: (int(r[2]), {m for m in r[3].split(",") if m}) for r in _account_rows(p, "/etc/group", 2)}


def _primary_gid(p: Probe) -> int | None:
    for parts in _account_rows(p, "/etc/passwd", 3):
        if parts[0] == p.user:
            return int(parts[3])
    return None


def check_groups(p: Probe) -> Result:
    """The hardware groups exist and the service user is in them."""
    groups = _groups(p)
    missing = [g for g in GROUPS if g not in groups]
    if missing:
        return Result(FAIL, "groups", _("group {groups} does not exist: {command} (Raspberry Pi OS has them; "
                                        "a udev rule gives it the devices)").format(
            groups=", ".join(missing), command=f"sudo groupadd --system {missing[0]}"))
    gid = _primary_gid(p)
    if gid is None:
        return Result(FAIL, "groups", _("no user {user}: run {command}").format(
            user=p.user, command="sudo companion install-service"))
    outside = [g for g, (g_id, members) in groups.items()
               if g in GROUPS and p.user not in members and g_id != gid]
    if outside:
        needs = ", ".join(f"{g} ({_(GROUPS[g])})" for g in outside)
        return Result(WARN, "groups", _("{user} is not in {groups}: {command} (the unit's "
                                        "SupplementaryGroups= covers gpio i2c dialout)").format(
            user=p.user, groups=needs, command=f"sudo usermod -aG {','.join(outside)} {p.user}"))
    return Result(OK, "groups", _("{user} is in {groups}").format(user=p.user, groups=" ".join(GROUPS)))


def check_gpio(p: Probe) -> Result:
    """lgpio imports and a /dev/gpiochip* exists (only with buttons or an encoder)."""
    c = _cfg(p)
    if (c.buttons is None or c.buttons.enabled is False) and c.encoder is None:
        return Result(OK, "gpio", _("no buttons or encoder configured"))
    prepare_lgpio()  # as the buttons do: lgpio's import needs a directory it can write
    if not p.importable("lgpio"):
        return Result(FAIL, "gpio", _("lgpio does not import, so the buttons cannot work: run {install} again "
                                      "(Raspberry Pi OS: it installs {apt}; Debian 13: it builds lgpio into "
                                      "the venv); by hand: {build}").format(
            install="sudo ./install.sh", apt="python3-lgpio", build=lgpio_build_command()))
    chips = sorted(x.name for x in p.path("/dev").glob("gpiochip*"))
    if not chips:
        return Result(FAIL, "gpio", _("no /dev/gpiochip*: this is not a Raspberry Pi (or its kernel has no "
                                      "GPIO character device): set {setting}").format(
            setting="buttons.enabled: false"))
    closed = [c for c in chips if p.path(f"/dev/{c}").stat().st_mode & 0o060 != 0o060]
    if closed:
        # Debian has no udev rule for the GPIO chips: root-only (0600), the service's user cannot open them
        return Result(FAIL, "gpio", _("{chip} is root-only, so the service cannot read the buttons: the udev rule "
                                      "{rule} is missing: run {install} again, then reboot").format(
            chip=f"/dev/{closed[0]}", rule="60-companion-gpio.rules", install="sudo ./install.sh"))
    return Result(OK, "gpio", _("lgpio imports, {chips} present").format(chips=", ".join(chips)))


def lgpio_build_command() -> str:
    """How to build lgpio into this venv where PyPI has no wheel (Python 3.13) and apt no
    python3-lgpio (plain Debian): its sdist, linked with its own C library (PYPI=1)."""
    return (f"sudo apt install swig gcc python3-dev && sudo PYPI=1 {sys.prefix}/bin/pip install "
            "--no-binary lgpio lgpio")


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
            if serial:
                return Result(FAIL, "keypad", _("{port} is not there: plug the keypad in, or set keypad.port "
                                                "to its /dev/serial/by-id/ name (plugged in: {devices})").format(
                    port=port, devices=", ".join(serial)))
            return Result(FAIL, "keypad", _("{port} is not there: plug the keypad in, or set keypad.port "
                                            "to its /dev/serial/by-id/ name").format(port=port))
        lines.append(_("serial keypad {port} present").format(port=port))
    if c.usb_keypad is not None:
        dev = c.usb_keypad.device
        if dev == "auto" and not kbds:
            return Result(FAIL, "keypad", _("usb_keypad: device auto but no /dev/input/by-id/*-event-kbd: "
                                            "plug the USB keypad in ({command})").format(
                command="ls /dev/input/by-id/"))
        if dev != "auto" and not p.path(dev).exists():
            return Result(FAIL, "keypad", _("usb_keypad.device {device} is not there: plug it in or use "
                                            "auto").format(device=dev))
        lines.append(_("USB keypad {device} present").format(device=kbds[0] if dev == "auto" else dev))
    if lines:
        return Result(OK, "keypad", "; ".join(lines))
    if serial or kbds:
        what = f"/dev/serial/by-id/{serial[0]}" if serial else f"/dev/input/by-id/{kbds[0]}"
        key = "keypad: {port: ...}" if serial else "usb_keypad: {}"
        return Result(WARN, "keypad", _("{device} is plugged in but not configured: add {setting} to the "
                                        "config").format(device=what, setting=key))
    return Result(WARN, "keypad", _("no keypad configured nor found under /dev/serial/by-id or "
                                    "/dev/input/by-id (buttons alone work too)"))


def check_service(p: Probe) -> Result:
    """`systemctl is-active companion` (skipped without systemd)."""
    if not p.path("/run/systemd/system").exists():
        return Result(WARN, "service", _("systemd is not running here: skipped"))
    try:
        status, out = p.run(["systemctl", "is-active", SERVICE])
    except (FileNotFoundError, PermissionError):
        return Result(WARN, "service", _("systemctl not found: skipped"))
    state = (out.splitlines() or ["unknown"])[-1].strip()
    if status == 0 and state == "active":
        return Result(OK, "service", _("{unit} is active").format(unit=f"{SERVICE}.service"))
    if state in ("inactive", "unknown") and status in (3, 4):
        unit = p.path(f"/etc/systemd/system/{SERVICE}.service")
        if not unit.exists():
            return Result(WARN, "service", _("{unit} is not installed: {command}").format(
                unit=f"{SERVICE}.service", command=f"sudo {sys.prefix}/bin/companion install-service"))
    # NOTE: {state} is systemd's word (failed, activating ...), as systemctl prints it
    return Result(FAIL, "service", _("{unit} is {state}: {command}; why: {why}").format(
        unit=f"{SERVICE}.service", state=state, command=f"sudo systemctl restart {SERVICE}",
        why=f"journalctl -u {SERVICE} -b"))


def check_journal(p: Probe) -> Result:
    """The service's last warnings and errors (skipped without journalctl)."""
    try:
        status, out = p.run(["journalctl", "-u", SERVICE, "-p", "warning", "-n", "5",
                             "--no-pager", "-o", "cat"])
    except (FileNotFoundError, PermissionError):
        return Result(WARN, "journal", _("journalctl not found: skipped"))
    lines = [ln for ln in out.splitlines() if ln.strip() and not ln.startswith("-- ")]
    if status != 0:
        return Result(WARN, "journal", _("journalctl failed ({error}): run it as root or add the user to "
                                         "group adm").format(error=lines[-1] if lines else status))
    if not lines:
        return Result(OK, "journal", _("no warnings from the service"))
    # NOTE: {last} is the service's own log line (English)
    return Result(WARN, "journal", ngettext("{n} recent warning, last: {last} (all: {command})",
                                            "{n} recent warnings, last: {last} (all: {command})", len(lines)).format(
        n=len(lines), last=lines[-1][:120], command=f"journalctl -u {SERVICE} -p warning"))


def check_sound(p: Probe) -> Result:
    """The voice's espeak-ng and an audio output (when speech is on in the config), the buzzer's pin."""
    s = _cfg(p).sound
    buzzer = (_("buzzer ({kind}) on BCM {pin}").format(kind=s.buzzer_type, pin=s.buzzer_pin)
              if s.buzzer_pin is not None else _("no buzzer"))
    if not s.speech:
        return Result(OK, "sound", _("speech off (the menu's Sound item turns it on); {buzzer}").format(buzzer=buzzer))
    try:
        status, _out = p.run(["espeak-ng", "--version"])
    except FileNotFoundError:
        status = 127
    if status != 0:
        return Result(WARN, "sound", _("speech is on but espeak-ng is missing: {command}").format(
            command="sudo apt install espeak-ng"))
    outputs = _listing(p, "/dev/snd", "pcmC*p")
    if not outputs:
        return Result(WARN, "sound", _("speech is on but there is no audio output in /dev/snd: plug in a USB "
                                       "speaker, or see hardware.md (I2S amplifier, HDMI)"))
    return Result(OK, "sound", _("speech on, audio output {devices}; {buzzer}").format(
        devices=", ".join(outputs), buzzer=buzzer))


def check_camera(p: Probe) -> Result:
    """The camera above the board (when the config has one): its device and its library."""
    c = _cfg(p).camera
    if c is None:
        return Result(OK, "camera", _("none configured (the moves come from the keys)"))
    see = _("what it sees: {command}").format(command="companion doctor --camera /tmp/camera.png")
    if c.source == "folder":
        there = p.path(c.device).is_dir()
    elif c.source == "v4l2":
        if not (p.importable("linuxpy") or p.importable("cv2")):  # companion.hw.camera takes either
            return Result(FAIL, "camera", _("camera.source v4l2 needs linuxpy: {command}").format(
                command="pip install '.[webcam]'"))
        if c.device == "auto":  # as companion.hw.camera.find_webcam: the first USB camera udev named, else video0
            found = [f"/dev/v4l/by-id/{name}" for name in _listing(p, "/dev/v4l/by-id", "*-video-index0")]
            if not found and not p.path("/dev/video0").exists():
                return Result(FAIL, "camera", _("camera.device {device} is not there: plug the camera in "
                                                "({command})").format(device="auto", command="ls /dev/v4l/by-id"))
            return Result(OK, "camera", _("{source} {device}; {see}").format(
                source=c.source, device=f"auto: {(found or ['/dev/video0'])[0]}", see=see))
        there = p.path(c.device).exists() or "%" in c.device
    else:
        if not p.importable("picamera2"):
            return Result(FAIL, "camera", _("camera.source picamera2 needs Picamera2: {command}").format(
                command="sudo apt install python3-picamera2"))
        return Result(OK, "camera", _("the Pi camera (Picamera2); {see}").format(see=see))
    if not there:
        return Result(FAIL, "camera", _("camera.device {device} is not there: plug the camera in ({command})").format(
            device=c.device, command="ls /dev/video*"))
    return Result(OK, "camera", _("{source} {device}; {see}").format(source=c.source, device=c.device, see=see))


CHECKS: tuple[Callable[[Probe], Result], ...] = (
    check_config, check_i2c, check_oled, check_groups, check_gpio, check_keypad, check_sound, check_camera,
    check_service, check_journal)


def run_checks(p: Probe, checks: Sequence[Callable[[Probe], Result]] = CHECKS) -> list[Result]:
    """Every check in order; a check that crashes is a failure line, never a traceback."""
    results = []
    for check in checks:
        try:
            results.append(check(p))
        except Exception as e:  # a doctor must never crash on a strange machine
            name = check.__name__.removeprefix("check_")
            results.append(Result(FAIL, name, _("the check itself failed: {error}").format(
                error=f"{type(e).__name__}: {e}")))
    return results


def report(results: Sequence[Result], out: Any = None) -> int:
    """Print the results and a summary; 1 when any failed, else 0."""
    out = sys.stdout if out is None else out
    for r in results:
        print(r, file=out)
    fails = sum(r.level == FAIL for r in results)
    warns = sum(r.level == WARN for r in results)
    problems = ngettext("{n} problem", "{n} problems", fails).format(n=fails)
    warnings = ngettext("{n} warning", "{n} warnings", warns).format(n=warns)
    # NOTE: {problems} and {warnings}: the two counts above ("2 problems", "1 warning")
    print(_("companion doctor: {problems}, {warnings}").format(problems=problems, warnings=warnings), file=out)
    return 1 if fails else 0


def main_keys(args: argparse.Namespace) -> int:
    """`companion doctor --keys`: exit 0 when every key arrived, 1 otherwise."""
    from companion.box.keytest import INPUT_ENDED, NO_SOURCE, run_key_test
    from companion.hw.display import open_display
    from companion.hw.platform import is_raspberry_pi

    try:
        cfg = load_config(args.config)
    except ConfigError as e:
        print(f"companion doctor: {e}", file=sys.stderr)
        return 2
    driver = args.display
    if driver is not None and not is_display_driver(driver):
        print(f"companion doctor: --display {driver}: one of {', '.join(display_drivers())}", file=sys.stderr)
        return 2
    if driver is None and cfg.source == "<defaults>" and not is_raspberry_pi():
        driver = "dummy"     # a laptop without config: the lines printed here are the screen
    dcfg = cfg.display if driver is None else replace(cfg.display, driver=driver)
    if writes_frames(dcfg.driver) and not dcfg.frames_dir:
        dcfg = replace(dcfg, driver="dummy")
    sink = open_display(dcfg)
    try:
        test = run_key_test(cfg, sink, timeout=args.timeout, out=sys.stdout)
    finally:
        sink.close()
    if test.missing and test.ended == NO_SOURCE:
        print("companion doctor: --keys: no key source: no keypad, buttons or USB keypad could be opened and standard "
              "input is no terminal: run it in a terminal (ssh -t), or check the inputs with companion doctor",
              file=sys.stderr)
        return 2
    if test.missing and test.ended == INPUT_ENDED:
        print(f"companion doctor: --keys: standard input ended before every key came (never seen: "
              f"{' '.join(test.missing)}): run it in a terminal and press them, or pipe them all in "
              f"(printf '{''.join(test.expected)}' | companion doctor --keys)", file=sys.stderr)
        return 2
    if test.missing:
        print(Result("fail", "keys", _("never seen: {keys}: check the wiring of those buttons (BCM pin to GND) "
                                       "or the keypad's cable").format(keys=" ".join(test.missing))))
        return 1
    print(Result("ok", "keys", ngettext("the {n} key works", "all {n} keys work", len(test.expected)).format(
        n=len(test.expected))))
    return 0


def main_camera(args: argparse.Namespace) -> int:
    """`companion doctor --camera OUT`: one frame of the config's camera, with the territories drawn
    where its corners put them (by the first game that has a camera); exit 2 with one line when it cannot."""
    from companion.games import GAMES
    from companion.hw.camera import CameraError, open_camera

    def fail(why: str) -> int:
        print(f"companion doctor --camera: {why}", file=sys.stderr)
        return 2

    try:
        c = load_config(args.config).camera
    except ConfigError as e:
        return fail(str(e))
    if c is None:
        return fail(_("the config has no camera section (docs/box.md, the camera)"))
    try:
        cam = open_camera(c.source, c.device, (c.width, c.height), c.fps)
        try:
            frame, give_up = None, time.monotonic() + CAMERA_WAIT_S  # a webcam's first frame takes a moment
            while frame is None and time.monotonic() < give_up:
                frame = cam.grab()
        finally:
            cam.close()
    except CameraError as e:
        return fail(str(e))
    if frame is None:
        return fail(_("camera {source} {device}: no frame came").format(source=c.source, device=c.device))
    picture = frame
    if not c.corners:  # tapped on the page (the journal keeps them): the picture as the camera sees it
        print(_("no corners in the config: the territories are not drawn (tap the corners on the page, /camera)"))
    corners = [(c.corners[i], c.corners[i + 1]) for i in range(0, len(c.corners), 2)]
    for game in GAMES.values() if corners else ():
        try:
            watcher = game.make_camera_watcher(corners, 1.0)
        except ValueError as e:
            print(f"camera.corners: {e}")
            break
        if watcher is not None:
            picture = watcher.outlined(frame)
            break
    try:
        picture.save(args.camera)
    except (OSError, ValueError) as e:
        return fail(f"{args.camera}: {e}")
    print(_("{file}: {width}x{height} from camera {source} {device}").format(
        file=args.camera, width=frame.width, height=frame.height, source=c.source, device=c.device))
    return 0


def _parser() -> argparse.ArgumentParser:
    from companion.argtypes import existing_directory, given, seconds

    ap = argparse.ArgumentParser(prog="companion doctor",
                                 description="Check the box's set-up; one line per check with the fix.")
    ap.add_argument("--config", metavar="PATH", type=given("a config file"),
                    help="config file (default /etc/companion/config.yaml if present)")
    ap.add_argument("--root", metavar="DIR", type=existing_directory, default="/", help=argparse.SUPPRESS)
    ap.add_argument("--user", type=given("a user name"), default=USER, help="the service's user (default companion)")
    ap.add_argument("--keys", action="store_true",
                    help="interactive test: press each button / key as the screen asks")
    ap.add_argument("--timeout", type=seconds(), default=120.0, metavar="S",
                    help="with --keys: give up after S seconds, above 0 and up to 3600 (default 120)")
    ap.add_argument("--display", metavar="DRIVER", type=given("a display driver"),
                    help="with --keys: display driver (default: the config's)")
    ap.add_argument("--camera", metavar="OUT",
                    help="write what the config's camera sees to OUT (.png, .jpg), the board's territories drawn "
                         "where camera.corners put them")
    ap.add_argument("--lang", choices=i18n.LANGUAGES, metavar="CODE",
                    help=f"the language of the output ({', '.join(i18n.LANGUAGES)}; default: the config's, "
                         "else the system locale's, else English)")
    return ap


def start_language(explicit: str | None, config_path: str | None) -> None:
    """The doctor speaks the table's language: --lang, else the config's, else the system locale's.
    A config that does not load is reported by the checks (in the system locale's language)."""
    configured = None
    if not explicit:
        try:
            configured = load_config(config_path).language
        except (ConfigError, AttributeError):
            pass
    i18n.set_language(i18n.choose(explicit, configured))


def main(argv: list[str]) -> int:
    """`companion doctor [--keys]`; exit 1 on a problem."""
    args = _parser().parse_args(argv)
    start_language(args.lang, args.config)
    if args.keys:
        return main_keys(args)
    if args.camera:
        return main_camera(args)
    probe = Probe(root=Path(args.root), user=args.user, config_path=args.config)
    return report(run_checks(probe))
