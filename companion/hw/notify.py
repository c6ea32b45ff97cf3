"""The systemd notify protocol (sd_notify) without dependencies.

The daemon runs as a `Type=notify` service with a watchdog: it sends READY=1
once the display and keys are up, STATUS=... for `systemctl status`, WATCHDOG=1
from the main loop (so a hung loop gets restarted) and STOPPING=1 on shutdown.

Messages are datagrams of newline-separated KEY=VALUE lines sent to the
AF_UNIX socket named by $NOTIFY_SOCKET; a name starting with '@' is an abstract
socket. Without $NOTIFY_SOCKET (run from a terminal, in tests) every call is a
no-op. Sending never raises: a vanished socket is logged, and the game goes on.
"""

from __future__ import annotations

import logging
import os
import socket

log = logging.getLogger(__name__)

# A full socket buffer must not stall the main loop for long.
SEND_TIMEOUT_S = 1.0

_last_error: str | None = None


def _address(name: str) -> str | bytes:
    if name.startswith("@"):
        # Abstract namespace: a leading NUL byte instead of a filesystem path.
        return b"\0" + name[1:].encode()
    return name


def send(*fields: str) -> bool:
    """Send KEY=VALUE fields in one datagram; True if it was delivered to systemd.

    False when $NOTIFY_SOCKET is unset (not under systemd) or the send failed;
    failures are logged, never raised.
    """
    global _last_error
    name = os.environ.get("NOTIFY_SOCKET", "")
    if not name or not fields:
        return False
    if not (name.startswith("/") or name.startswith("@")):
        _log_once(f"NOTIFY_SOCKET={name!r} is neither a path nor an abstract name; not notifying")
        return False
    payload = "\n".join(fields).encode()
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.settimeout(SEND_TIMEOUT_S)
            sock.sendto(payload, _address(name))
    except OSError as exc:
        _log_once(f"cannot notify systemd via {name}: {exc}")
        return False
    if _last_error is not None:
        log.info("notifying systemd via %s works again", name)
        _last_error = None
    return True


def _log_once(message: str) -> None:
    # The watchdog pings every few seconds; one warning per distinct failure
    # keeps the journal readable.
    global _last_error
    if message != _last_error:
        log.warning("%s", message)
        _last_error = message


def _one_line(text: str) -> str:
    # A newline would start a new KEY=VALUE field.
    return " ".join(text.splitlines())


def ready(status: str | None = None) -> bool:
    """Tell systemd start-up is complete (READY=1), optionally with a status line."""
    if status is None:
        return send("READY=1")
    return send("READY=1", f"STATUS={_one_line(status)}")


def status(text: str) -> bool:
    """Set the one-line status shown by `systemctl status companion`."""
    return send(f"STATUS={_one_line(text)}")


def watchdog() -> bool:
    """Ping the service watchdog (WATCHDOG=1); call at least every watchdog_interval()."""
    return send("WATCHDOG=1")


def stopping(status: str | None = None) -> bool:
    """Tell systemd the daemon is shutting down (STOPPING=1)."""
    if status is None:
        return send("STOPPING=1")
    return send("STOPPING=1", f"STATUS={_one_line(status)}")


def watchdog_interval() -> float | None:
    """Seconds between watchdog pings: half of $WATCHDOG_USEC, or None if no watchdog.

    None also when $WATCHDOG_PID names another process (the watchdog is not
    ours) or the variables are malformed, as sd_watchdog_enabled() does.
    """
    raw = os.environ.get("WATCHDOG_USEC", "")
    if not raw:
        return None
    pid = os.environ.get("WATCHDOG_PID", "")
    if pid:
        try:
            if int(pid) != os.getpid():
                return None
        except ValueError:
            log.warning("ignoring malformed WATCHDOG_PID=%r", pid)
            return None
    try:
        usec = int(raw)
    except ValueError:
        log.warning("ignoring malformed WATCHDOG_USEC=%r", raw)
        return None
    if usec <= 0:
        return None
    return usec / 2_000_000
