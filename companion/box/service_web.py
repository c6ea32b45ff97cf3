"""The phone view's systemd unit and avahi announcement, for `companion install-service`.

`companion web` serves a read-only page to phones on the LAN. Its unit,
companion-web.service, runs as the kiosk's `companion` user (it reads the
0700 journal directory and talks to the kiosk's 0600 key socket) in a tighter
sandbox than the kiosk: no devices, LAN addresses only, nothing writable.
install-service always writes the unit, but enables and starts it only when
the config file says `web: {enabled: true}` (`web_settings`); the avahi
service file, which announces `http://<hostname>.local:PORT` to phones and
laptops, goes into /etc/avahi/services only then too.

The templates are embedded because an installed wheel does not carry the
repository's systemd/ folder; systemd/companion-web.service and
systemd/companion-web.avahi.xml must stay identical (tests/box/test_web_unit.py).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from companion.box import install_checks
from companion.box.install_checks import InstallError

__all__ = ["AVAHI_TEMPLATE", "WEB_UNIT_TEMPLATE", "avahi_is_ours", "enable_hint", "render_avahi",
           "render_web_unit", "web_settings"]

WEB_SERVICE = "companion-web"
WEB_UNIT_NAME = "companion-web.service"
# avahi-daemon reads every *.service file in its services directory.
DEFAULT_AVAHI_DIR = Path("/etc/avahi/services")
AVAHI_FILE_NAME = "companion.service"
DEFAULT_WEB_PORT = 8080
# The unit grants no CAP_NET_BIND_SERVICE: a port below this one cannot be bound.
FIRST_UNPRIVILEGED_PORT = 1024
_AVAHI_MARK = "Clans companion on %h"

# Keep identical to systemd/companion-web.service.
WEB_UNIT_TEMPLATE = """# The Clans companion phone view: a read-only web page for phones on the LAN.
# Installed by `companion install-service`, which fills in the venv it runs
# from and the config file path, and enables it only when the config says
# `web: {enabled: true}`. Keep this file identical to WEB_UNIT_TEMPLATE in
# companion/box/service_web.py (a test checks it).

[Unit]
Description=Clans companion phone view (read-only web page on the LAN)
# Ordered after the kiosk (its journal and key socket) but not bound to it:
# no Requires=/BindsTo=, the two start, fail and restart independently.
After=network-online.target companion.service
Wants=network-online.target
StartLimitIntervalSec=120
StartLimitBurst=10

[Service]
Type=exec
Restart=on-failure
RestartSec=2
TimeoutStopSec=15
# The kiosk's key socket, in its RuntimeDirectory= (%t is /run): this unit has no runtime
# directory of its own, so without the option the page would find no socket and answer every
# PIN holder's keys with 503 "the table is not running".
ExecStart=@VENV@/bin/companion web --config @CONFIG@ --key-socket %t/companion/keys.sock
Environment=PYTHONUNBUFFERED=1

# The kiosk's static user: the journal directory is companion:companion 0700
# and the key socket /run/companion/keys.sock companion 0600. No groups: no
# hardware.
User=companion
Group=companion
UMask=0077

# Writes nothing anywhere: no StateDirectory= (that would make the journal
# writable), no RuntimeDirectory= (the kiosk owns /run/companion and removes
# it when it stops).
ProtectSystem=strict
# Already read-only under ProtectSystem=strict; named to say that the journal
# is read, never written. "-": not an error before the kiosk's first start
# made the directory (the page then says there is no game yet). The PIN the
# kiosk's menu makes (New PIN) is there too: /var/lib/companion/web-pin,
# companion 0600, written by the kiosk (its StateDirectory=, where it may
# write: not /etc) and read here; while it exists it wins over web.pin_file.
ReadOnlyPaths=-/var/lib/companion
# /run named too: systemd 252 left /run writable under ProtectSystem=strict
# once ProtectProc= was set (seen in the booted Debian container of
# tests/system). The kiosk's /run/companion/keys.sock stays reachable:
# connect() needs no writable mount. Not /run/companion itself: the kiosk
# makes that directory anew at each start, and a bind mount of it made here
# would go on showing the old, empty one.
ReadOnlyPaths=/run
ProtectHome=yes
PrivateTmp=yes
PrivateDevices=yes
PrivateMounts=yes
# Only the service user, root and nobody are mapped: companion still owns the
# journal and the key socket in here, so both stay readable.
PrivateUsers=yes
NoNewPrivileges=yes
# AF_UNIX: journald and the kiosk's key socket; AF_INET(6): the page.
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6
# LAN only: loopback, link-local, multicast and the private ranges (RFC 1918,
# IPv6 ULA and link-local); anything routed from the internet is dropped.
IPAddressAllow=localhost link-local multicast 10.0.0.0/8 172.16.0.0/12 192.168.0.0/16 fc00::/7 fe80::/10
IPAddressDeny=any
# Port 8080 (>= 1024): no CAP_NET_BIND_SERVICE, no capability at all.
CapabilityBoundingSet=
# A cap, so a flood of phones cannot starve the kiosk on a 1 GB Pi (the
# kernel kills this service, not the referee). The default thread pool is
# cpu+4 threads: 32 tasks leave room.
MemoryMax=128M
TasksMax=32
ProtectKernelModules=yes
ProtectKernelLogs=yes
ProtectKernelTunables=yes
ProtectControlGroups=yes
ProtectClock=yes
ProtectHostname=yes
ProtectProc=invisible
ProcSubset=pid
RestrictNamespaces=yes
RestrictRealtime=yes
RestrictSUIDSGID=yes
LockPersonality=yes
# aiohttp's C extensions (HTTP parser, websocket mask) and yaml/sqlite map no
# writable-executable memory: no JIT, no ctypes callbacks (checked with
# prctl(PR_SET_MDWE) serving and fetching a page through aiohttp).
MemoryDenyWriteExecute=yes
RemoveIPC=yes
SystemCallArchitectures=native
SystemCallFilter=@system-service
# As the kiosk: no set*id, chown, clock, reboot(), swap, raw I/O, priorities.
SystemCallFilter=~@privileged @resources
SystemCallErrorNumber=EPERM
# `systemd-analyze security companion-web.service`: 1.0 OK (what is left: it
# has the network, AF_INET sockets and a non-localhost IPAddressAllow=, all
# the point of a LAN page; the host root; ProtectClock='s char-rtc r entry).

[Install]
WantedBy=multi-user.target
"""

# Keep identical to systemd/companion-web.avahi.xml.
AVAHI_TEMPLATE = """<?xml version="1.0" standalone='no'?><!--*-nxml-*-->
<!DOCTYPE service-group SYSTEM "avahi-service.dtd">
<!-- The Clans companion phone view, announced on the LAN by avahi-daemon
     (DNS-SD), next to the <hostname>.local name avahi already publishes.
     `companion install-service` installs it as /etc/avahi/services/companion.service
     (when that directory exists and the config has web: {enabled: true}),
     with @PORT@ replaced by web.port (default 8080). Keep this file identical
     to AVAHI_TEMPLATE in companion/box/service_web.py (a test checks it). -->
<service-group>
  <name replace-wildcards="yes">Clans companion on %h</name>
  <service>
    <type>_http._tcp</type>
    <port>@PORT@</port>
    <txt-record>path=/</txt-record>
  </service>
</service-group>
"""


def render_web_unit(prefix: str | Path | None = None, config: str | Path = "/etc/companion/config.yaml") -> str:
    """The phone view's unit for the venv at `prefix` (default: the running one) and config file."""
    venv = Path(sys.prefix if prefix is None else prefix)
    return WEB_UNIT_TEMPLATE.replace("@VENV@", install_checks.unit_path_value(venv, "venv path")).replace(
        "@CONFIG@", install_checks.unit_path_value(Path(config), "config path"))


def render_avahi(port: int = DEFAULT_WEB_PORT) -> str:
    """The avahi service group announcing the page on `port`."""
    return AVAHI_TEMPLATE.replace("@PORT@", str(int(port)))


def avahi_is_ours(text: str) -> bool:
    """Whether an existing avahi file is one install-service wrote (so it may replace or remove it)."""
    return _AVAHI_MARK in text and "<type>_http._tcp</type>" in text


def web_settings(config_path: str | Path) -> dict[str, Any]:
    """`{"enabled": bool, "port": int}` from the config's `web:` section, with the defaults
    (off, 8080) for a missing file, a missing section or missing keys.

    Read here with yaml.safe_load, not through companion.box.config, so that installing the
    unit does not depend on the config schema. A file that is not valid YAML, or a
    `web:` that is not a mapping, leaves the phone view off; a port the unit cannot
    bind (not an integer, outside 1024-65535) is an InstallError.
    """
    settings: dict[str, Any] = {"enabled": False, "port": DEFAULT_WEB_PORT}
    try:
        import yaml

        with open(config_path, encoding="utf-8") as f:
            data = yaml.safe_load(f)
    except (OSError, UnicodeDecodeError):
        return settings
    except Exception as exc:  # yaml.YAMLError: the daemon will say more; the view stays off
        print(f"note: {config_path} is not valid YAML ({type(exc).__name__}); phone view left off",
              file=sys.stderr)
        return settings
    web = data.get("web") if isinstance(data, dict) else None
    if not isinstance(web, dict):
        return settings
    settings["enabled"] = web.get("enabled") is True
    port = web.get("port", DEFAULT_WEB_PORT)
    if isinstance(port, bool) or not isinstance(port, int) or not FIRST_UNPRIVILEGED_PORT <= port <= 65535:
        raise InstallError(f"{config_path}: web.port {port!r} must be a number from "
                           f"{FIRST_UNPRIVILEGED_PORT} to 65535 (the phone view runs without privileges, "
                           f"so it cannot bind a lower port); the default is {DEFAULT_WEB_PORT}")
    settings["port"] = port
    return settings


def enable_hint(config: Path, executable: Path) -> str:
    """The one line that says how to turn the phone view on."""
    return (f"phone view (companion-web) installed but off: to turn it on, put `web: {{enabled: true}}` "
            f"into {config} and run sudo {executable} install-service again")
