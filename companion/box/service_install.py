"""`companion install-service`: install this venv's companion as a systemd kiosk service.

Fills the unit template with the venv it runs from (sys.prefix) and the config
path, writes it to the unit directory, creates the `companion` system user,
the hardware groups the unit names that this OS lacks (gpio and i2c
on plain Debian), puts the user in them (so `companion doctor` and a
`sudo -u companion` shell see what the unit's SupplementaryGroups= gives the
service), and a starter config file if there is none, and runs `systemctl daemon-reload` and `systemctl enable --now companion`.
It also writes the phone view's unit, companion-web.service, and enables it (with
the avahi file that announces it on the LAN) only when the config has
`web: {enabled: true}` (companion/box/service_web.py).
`--dry-run` only prints the kiosk unit. The template is embedded here because an
installed wheel does not carry the repository's systemd/ folder; the shipped
systemd/companion.service must stay identical (tests/box/test_service_unit.py).

Before writing anything it refuses an unsafe existing `companion` account, a
venv anyone but root can change, and paths systemd would misread; files are
written atomically, never through a symlink, with fixed modes, and a replaced
unit is kept as a backup (companion/box/install_checks.py has the details).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from companion.argtypes import directory
from companion.box import install_checks, service_web
from companion.box.install_checks import InstallError
from companion.box.service_web import WEB_UNIT_TEMPLATE, render_web_unit, web_settings

__all__ = ["WEB_UNIT_TEMPLATE", "InstallError", "install", "main", "render_unit", "render_web_unit",
           "starter_config", "web_settings"]

UNIT_NAME = "companion.service"
SERVICE_USER = "companion"
DEFAULT_UNIT_DIR = Path("/etc/systemd/system")
DEFAULT_CONFIG = Path("/etc/companion/config.yaml")
DEFAULT_POLKIT_DIR = Path("/etc/polkit-1/rules.d")
POLKIT_RULE_NAME = "50-companion-poweroff.rules"
# The unit's SupplementaryGroups= (install-service creates the missing ones).
HARDWARE_GROUPS = ("gpio", "i2c", "dialout", "input", "audio", "video")

# Keep identical to systemd/companion.service.
UNIT_TEMPLATE = """# The Clans companion kiosk: referees the game beside the board.
# Installed by `companion install-service`, which fills in the venv it runs
# from and the config file path. Keep this file identical to UNIT_TEMPLATE in
# companion/box/service_install.py (a test checks it).

[Unit]
Description=Clans companion (board game referee, buttons in, OLED out)
# Restart=on-failure gives up after StartLimitBurst starts within the interval.
StartLimitIntervalSec=120
StartLimitBurst=10

[Service]
Type=notify
NotifyAccess=main
WatchdogSec=30
Restart=on-failure
RestartSec=2
TimeoutStopSec=15
ExecStart=@VENV@/bin/companion run --config @CONFIG@
Environment=PYTHONUNBUFFERED=1
Environment=GPIOZERO_PIN_FACTORY=lgpio
# lgpio creates .lgd-nfy* pipes in its working directory: / is read-only here.
Environment=LG_WD=%t/companion

# A dedicated static system user, not DynamicUser=yes: the polkit rule that
# lets the daemon power off the Pi (50-companion-poweroff.rules) matches the
# user by name, and a dynamic user's name only resolves while the service runs
# and only where nss-systemd is configured. install-service creates the user
# (locked, no shell) or refuses an existing one that is not such an account.
User=companion
Group=companion
# Raspberry Pi OS has these groups; install-service creates the ones that are
# missing (plain Debian has no gpio or i2c), else the unit fails with 216/GROUP.
SupplementaryGroups=gpio i2c dialout input audio video

# Game journal (SQLite); the daemon reads $STATE_DIRECTORY.
StateDirectory=companion
StateDirectoryMode=0700
RuntimeDirectory=companion
ConfigurationDirectory=companion
UMask=0077

ProtectSystem=strict
ProtectHome=yes
PrivateTmp=yes
PrivateMounts=yes
# The menu's "History to USB" writes to a stick mounted there (only when asked).
ReadWritePaths=-/media -/run/media -/mnt
# Also what polkit >= 124 checks (subject.no_new_privileges) before it lets
# this unit power the machine off.
NoNewPrivileges=yes
PrivateNetwork=yes
IPAddressDeny=any
# AF_UNIX only: journald, the sd_notify socket and D-Bus (systemctl poweroff).
RestrictAddressFamilies=AF_UNIX
CapabilityBoundingSet=
# Not PrivateDevices=yes: it would hide /dev/i2c-*, /dev/gpiochip* and the
# USB keypads. Instead the device cgroup allows exactly those devices on top
# of the basic /dev/null, /dev/urandom, ... A group name (char-ttyACM) is
# looked up in /proc/devices once, when the service starts, and is dropped if
# its driver is not loaded yet: a keypad plugged in later would get EPERM.
# So fixed majors (Linux's Documentation/admin-guide/devices.txt) wherever the
# kernel has one: 89 i2c-dev (/dev/i2c-*), 166 USB ACM (/dev/ttyACM*, native
# USB boards), 188 USB serial (/dev/ttyUSB*, CH340/FTDI), 13 input
# (/dev/input/event*, a USB numeric keypad; read only), 116 ALSA (/dev/snd/*,
# the voice through a USB speaker, an I2S amplifier or HDMI; audio group), 81 video4linux
# (/dev/video*, the USB camera above the board; video group). gpiochip has no fixed
# major; it is built into the Pi kernel, so its name is always there.
DevicePolicy=closed
DeviceAllow=char-89 rw
DeviceAllow=char-gpiochip rw
DeviceAllow=char-166 rw
DeviceAllow=char-188 rw
DeviceAllow=char-13 r
DeviceAllow=char-116 rw
DeviceAllow=char-81 rw
ProtectKernelModules=yes
ProtectKernelLogs=yes
# /sys read-only: fine for lgpio (character device); the old sysfs GPIO
# backends would need it writable.
ProtectKernelTunables=yes
ProtectControlGroups=yes
ProtectClock=yes
ProtectHostname=yes
# Not ProcSubset=pid: gpiozero identifies the Pi model from /proc/cpuinfo and
# /proc/device-tree.
ProtectProc=invisible
RestrictNamespaces=yes
RestrictRealtime=yes
RestrictSUIDSGID=yes
LockPersonality=yes
RemoveIPC=yes
SystemCallArchitectures=native
SystemCallFilter=@system-service
# Minus what an unprivileged Python daemon never needs: set*id, chown, clock,
# reboot(), swap, raw I/O (@privileged) and priorities, affinity, rlimits
# (@resources; reading limits, prlimit64, stays allowed in @default).
SystemCallFilter=~@privileged @resources
SystemCallErrorNumber=EPERM
# Not PrivateUsers=yes (the gpio/i2c/dialout groups would be unmapped inside
# the user namespace), not MemoryDenyWriteExecute=yes (libffi callbacks:
# ctypes, used by smbus2 for the OLED) and not ProcSubset=pid (see above).
# `systemd-analyze security companion.service`: 0.6 SAFE (1.0 before
# PrivateMounts= and the ~@privileged @resources filter).

[Install]
WantedBy=multi-user.target
"""

# Keep identical to systemd/50-companion-poweroff.rules.
POLKIT_RULE = """// polkit rule: let the Clans companion service power off the Pi through
// logind (`systemctl poweroff` from the menu or a long press on BACK).
// Install: sudo install -m 644 50-companion-poweroff.rules /etc/polkit-1/rules.d/
// (or `companion install-service --allow-poweroff`).
//
// Only power-off: never reboot, and never the -ignore-inhibit variants, so a
// power-off request waits for nothing and breaks nothing: while an inhibitor
// lock is held (an OS upgrade, say) logind refuses it. -multiple-sessions is
// what logind asks for when someone else is logged in (e.g. over ssh).
//
// Only the service: the user must be "companion", and where polkit names the
// asking process's systemd unit (polkit >= 124, subject.system_unit, when
// D-Bus hands it a pidfd) it must be companion.service with
// NoNewPrivileges=yes. Older polkit (Debian Bookworm's 122) has no
// system_unit: there the user name is the whole check.
polkit.addRule(function(action, subject) {
    if (action.id != "org.freedesktop.login1.power-off" &&
        action.id != "org.freedesktop.login1.power-off-multiple-sessions") {
        return polkit.Result.NOT_HANDLED;
    }
    if (subject.user != "companion") {
        return polkit.Result.NOT_HANDLED;
    }
    if (subject.system_unit) {
        if (subject.system_unit != "companion.service" || subject.no_new_privileges !== true) {
            return polkit.Result.NOT_HANDLED;
        }
    }
    return polkit.Result.YES;
});
"""

# Paths the unit's sandbox hides from the service (ProtectHome=, PrivateTmp=).
_HIDDEN_PREFIXES = (Path("/home"), Path("/root"), Path("/run/user"), Path("/tmp"), Path("/var/tmp"))


def _unit_path_value(path: Path, what: str) -> str:
    return install_checks.unit_path_value(path, what)


def render_unit(prefix: str | Path | None = None, config: str | Path = DEFAULT_CONFIG) -> str:
    """The unit text for the venv at `prefix` (default: the running one) and config file."""
    venv = Path(sys.prefix if prefix is None else prefix)
    return UNIT_TEMPLATE.replace("@VENV@", _unit_path_value(venv, "venv path")).replace(
        "@CONFIG@", _unit_path_value(Path(config), "config path")
    )


def _is_hidden_from_service(path: Path) -> bool:
    return any(path == p or p in path.parents for p in _HIDDEN_PREFIXES)


def directory_path(text: str) -> Path:
    """An argparse type: a directory, or a path where one may be made (companion.argtypes), as a Path."""
    return Path(directory(text))


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion install-service",
        description="Write the systemd unit for this venv's companion and enable it at boot.",
    )
    parser.add_argument("--unit-dir", type=directory_path, default=DEFAULT_UNIT_DIR,
                        help=f"where to write {UNIT_NAME} (default: %(default)s)")
    parser.add_argument("--config", type=Path, default=DEFAULT_CONFIG,
                        help="config file the daemon reads (default: %(default)s)")
    parser.add_argument("--no-enable", action="store_true",
                        help="only write the unit: no user creation, daemon-reload or enable")
    parser.add_argument("--dry-run", action="store_true", help="print the unit and change nothing")
    parser.add_argument("--allow-poweroff", action="store_true",
                        help="also install the polkit rule that lets the service power off the Pi")
    parser.add_argument("--polkit-dir", type=directory_path, default=DEFAULT_POLKIT_DIR,
                        help="where --allow-poweroff puts the rule (default: %(default)s)")
    parser.add_argument("--avahi-dir", type=directory_path, default=None,
                        help="avahi-daemon's services directory, for the phone view's announcement when "
                             f"the config has web: {{enabled: true}} and it exists "
                             f"(default: {service_web.DEFAULT_AVAHI_DIR})")
    return parser


def _run(cmd: list[str]) -> None:
    print("+ " + " ".join(cmd))
    result = subprocess.run(cmd, check=False)
    if result.returncode != 0:
        raise InstallError(f"{' '.join(cmd)} failed with exit status {result.returncode}")


def offline() -> bool:
    """Installing into a root that is not running (the SD-card image's chroot): systemd's own
    switch, SYSTEMD_OFFLINE=1, under which systemctl enables units but starts nothing."""
    return os.environ.get("SYSTEMD_OFFLINE") == "1"


def _enable(unit: str) -> None:
    _run(["systemctl", "enable", unit] if offline() else ["systemctl", "enable", "--now", unit])


def _ensure_user(accounts: install_checks.Accounts | None = None) -> None:
    """Reuse a safe existing account, refuse an unsafe one, else create a locked system user."""
    if install_checks.check_account(SERVICE_USER, accounts):
        return
    if shutil.which("useradd") is None:
        raise InstallError(f"user {SERVICE_USER!r} does not exist and useradd is not available; create it")
    _run(["useradd", "--system", "--user-group", "--no-create-home",
          "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", SERVICE_USER])
    if not install_checks.check_account(SERVICE_USER, accounts):
        raise InstallError(f"useradd did not create {SERVICE_USER!r}; create it by hand and re-run")


def missing_groups(accounts: install_checks.Accounts | None = None) -> list[str]:
    """The unit's SupplementaryGroups= that do not exist here (plain Debian has no gpio, i2c)."""
    accounts = accounts or install_checks.default_accounts()
    missing = []
    for name in HARDWARE_GROUPS:
        try:
            accounts.getgrnam(name)
        except KeyError:
            missing.append(name)
    return missing


def _ensure_groups(accounts: install_checks.Accounts | None = None) -> None:
    """Create the hardware groups the unit names but this OS lacks: systemd refuses to start a
    unit whose SupplementaryGroups= names a group that does not exist (status=216/GROUP).
    An empty group changes nothing else; on Raspberry Pi OS they all exist already."""
    missing = missing_groups(accounts)
    if missing and shutil.which("groupadd") is None:
        raise InstallError(f"the groups {', '.join(missing)} do not exist and groupadd is not available; "
                           "create them (the unit's SupplementaryGroups= names them)")
    for name in missing:
        _run(["groupadd", "--system", name])


def _ensure_membership(accounts: install_checks.Accounts | None = None) -> None:
    """Put the service user into the hardware groups it is not in yet (useradd made it with
    none). The unit's SupplementaryGroups= gives the service the devices either way; the
    membership is what `companion doctor` checks and what `sudo -u companion` tools get."""
    accounts = accounts or install_checks.default_accounts()
    outside = []
    for name in HARDWARE_GROUPS:
        try:
            if SERVICE_USER not in accounts.getgrnam(name).gr_mem:
                outside.append(name)
        except KeyError:
            continue  # a group this account database does not have: nothing to join
    if outside:
        if shutil.which("usermod") is None:
            raise InstallError(f"usermod is not available: sudo usermod -aG {','.join(outside)} {SERVICE_USER}")
        _run(["usermod", "-aG", ",".join(outside), SERVICE_USER])


def _write(path: Path, text: str, mode: int = 0o644, *, backup: bool = False) -> install_checks.Written:
    try:
        result = install_checks.write_file(path, text, mode, backup=backup)
    except PermissionError:
        raise InstallError(f"cannot write {path}: permission denied (run as root: sudo {sys.argv[0]} "
                           "install-service)") from None
    except OSError as exc:
        raise InstallError(f"cannot write {path}: {exc.strerror or exc}") from None
    if not result.changed:
        print(f"unchanged {path}")
    elif result.backup is not None:
        print(f"replaced {path}; the previous one is kept as {result.backup}")
    else:
        print(f"wrote {path}")
    return result


def starter_config() -> str:
    """A config file whose settings are all commented out: the defaults apply until edited."""
    try:
        from companion.box.config import EXAMPLE_YAML
    except ImportError:  # the config module is optional for installing the unit
        EXAMPLE_YAML = ""
    lines = [
        "# Clans companion configuration, written by `companion install-service`.",
        "# Everything is commented out, so the built-in defaults apply (the pins in",
        "# hardware.md). Uncomment and edit, then: sudo systemctl restart companion",
        "",
    ]
    lines += [line if line.startswith("#") or not line.strip() else "#" + line for line in EXAMPLE_YAML.splitlines()]
    return "\n".join(lines) + "\n"


def _ensure_config(config: Path) -> None:
    # The unit passes --config explicitly, and the daemon refuses a missing
    # explicit file: a restart loop on a fresh install. Write a starter instead.
    if config.exists():
        return
    _write(config, starter_config(), 0o644)


def _web_service(unit_dir: Path, avahi_dir: Path, config: Path, executable: Path,
                 web: dict[str, Any], replaced: bool) -> None:
    """The phone view, after the kiosk: on (avahi file, enable --now) or off (disabled)."""
    avahi = avahi_dir / service_web.AVAHI_FILE_NAME
    if not web["enabled"]:
        if (unit_dir / "multi-user.target.wants" / service_web.WEB_UNIT_NAME).is_symlink():
            _run(["systemctl", "disable", "--now", service_web.WEB_SERVICE])
        if avahi.is_file() and not avahi.is_symlink() and service_web.avahi_is_ours(avahi.read_text("utf-8")):
            avahi.unlink()
            print(f"removed {avahi} (the phone view is off)")
        print(service_web.enable_hint(config, executable))
        return
    if avahi_dir.is_dir():
        _write(avahi, service_web.render_avahi(web["port"]), 0o644, backup=True)
    else:
        print(f"note: {avahi_dir} does not exist, so the page is not announced as <hostname>.local "
              "(Raspberry Pi OS has avahi-daemon; elsewhere: sudo apt-get install avahi-daemon)")
    if replaced:
        _run(["systemctl", "try-restart", service_web.WEB_SERVICE])
    _enable(service_web.WEB_SERVICE)
    print(f"phone view on: http://{os.uname().nodename}.local:{web['port']}/ (systemctl status "
          f"{service_web.WEB_SERVICE}; after editing its config: sudo systemctl restart {service_web.WEB_SERVICE})")


def install(unit_dir: Path, config: Path, *, enable: bool = True, allow_poweroff: bool = False,
            polkit_dir: Path = DEFAULT_POLKIT_DIR, prefix: str | Path | None = None,
            accounts: install_checks.Accounts | None = None,
            avahi_dir: Path | None = None) -> Path:
    """Write the kiosk and phone view units (and optionally the polkit rule); with `enable`,
    create the user and start the kiosk, and the phone view if the config turns it on.

    A unit it replaces is kept as NAME.service.bak-TIMESTAMP, and a running
    service is restarted on the new one. Returns the path of the kiosk unit.
    `avahi_dir` defaults to avahi-daemon's /etc/avahi/services.
    """
    venv = Path(sys.prefix if prefix is None else prefix)
    unit = render_unit(venv, config)
    web_unit = render_web_unit(venv, config)
    executable = venv / "bin" / "companion"
    if _is_hidden_from_service(venv):
        raise InstallError(f"the venv {venv} is hidden from the service (ProtectHome=yes, PrivateTmp=yes), "
                           "so systemd could not start it: create the venv under /opt (see hardware.md), "
                           "e.g. sudo python3 -m venv --system-site-packages /opt/companion/venv")
    if not os.access(executable, os.X_OK):
        raise InstallError(f"{executable} is not an executable: install the package into this venv first "
                           "(pip install .) and run install-service with that venv's companion")
    if enable and os.geteuid() != 0:
        raise InstallError(f"install-service must run as root to create the {SERVICE_USER!r} user and "
                           f"enable the service: sudo {executable} install-service "
                           "(or --dry-run to see the unit, --no-enable --unit-dir DIR to only write it)")
    if enable and shutil.which("systemctl") is None:
        raise InstallError("systemctl not found: this system does not run systemd (use --no-enable)")
    install_checks.check_venv(venv)
    if enable:
        # Before writing anything: an unsafe existing account stops the install, and so
        # does a web.port the phone view could not bind.
        install_checks.check_account(SERVICE_USER, accounts)
    web = web_settings(config) if enable else {}
    written = _write(unit_dir / UNIT_NAME, unit, 0o644, backup=True)
    web_written = _write(unit_dir / service_web.WEB_UNIT_NAME, web_unit, 0o644, backup=True)
    if allow_poweroff:
        _write(polkit_dir / POLKIT_RULE_NAME, POLKIT_RULE, 0o644, backup=True)
    replaced = written.changed and written.backup is not None
    if not enable:
        if not config.exists():
            print(f"note: {config} does not exist yet; the service needs it (see hardware.md)", file=sys.stderr)
        missing = missing_groups(accounts)
        if missing:
            print(f"note: the unit needs the groups {' '.join(missing)}, which do not exist here: "
                  f"sudo groupadd --system {' && sudo groupadd --system '.join(missing)}", file=sys.stderr)
        print(f"not enabled; to start it: sudo useradd --system --user-group --no-create-home "
              f"--shell /usr/sbin/nologin {SERVICE_USER}; sudo systemctl daemon-reload; "
              "sudo systemctl enable --now companion")
        if replaced:
            print("a running service keeps the old unit until: sudo systemctl daemon-reload && "
                  "sudo systemctl try-restart companion")
        print(f"the phone view's unit {service_web.WEB_UNIT_NAME} is written too, not enabled "
              "(install-service without --no-enable turns it on when the config has web: {enabled: true})")
        return unit_dir / UNIT_NAME
    _ensure_config(config)
    _ensure_user(accounts)
    _ensure_groups(accounts)
    _ensure_membership(accounts)
    _run(["systemctl", "daemon-reload"])
    if replaced:
        # try-restart: only if it is running, so it runs the unit just written.
        _run(["systemctl", "try-restart", "companion"])
    _enable("companion")
    print("companion is enabled and starts at boot" if offline() else
          "companion is running: systemctl status companion, journalctl -u companion -f")
    _web_service(unit_dir, avahi_dir or service_web.DEFAULT_AVAHI_DIR, config, executable, web,
                 web_written.changed and web_written.backup is not None)
    return unit_dir / UNIT_NAME


def main(argv: list[str]) -> int:
    parser = _build_parser()
    args = parser.parse_args(argv)
    config: Path = args.config
    if not config.is_absolute():
        parser.error(f"--config {config} must be an absolute path (the service does not run in this directory)")
    if _is_hidden_from_service(config):
        parser.error(f"--config {config} is hidden from the service (ProtectHome=yes, PrivateTmp=yes); "
                     f"put it under /etc/companion/")
    try:
        if args.dry_run:
            print(render_unit(sys.prefix, config), end="")
            if _is_hidden_from_service(Path(sys.prefix)):
                print(f"warning: {sys.prefix} is hidden from the service (ProtectHome=yes, PrivateTmp=yes); "
                      "install into a venv under /opt", file=sys.stderr)
            return 0
        install(args.unit_dir, config, enable=not args.no_enable,
                allow_poweroff=args.allow_poweroff, polkit_dir=args.polkit_dir, avahi_dir=args.avahi_dir)
    except InstallError as exc:
        print(f"companion install-service: error: {exc}", file=sys.stderr)
        return 1
    return 0
