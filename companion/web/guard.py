"""What keeps the table's page safe on a shared network: Host checks, headers, the PIN and sessions.

- `HostCheck`: a request must name the box itself in `Host` (its address as the client
  reached it, its host name, `<name>.local`, localhost, or a name the config allows);
  anything else is a DNS-rebinding attempt and gets 421.
- `SECURITY_HEADERS`: a strict Content-Security-Policy (every asset from the box, no
  inline script, no frames), nosniff, no referrer, on every response, errors included
  (a page with a changing form without script: a same-origin referrer, `FORM_REFERRER_POLICY`).
- `PinGuard`: changes need the PIN (`PIN_MIN_DIGITS` to `PIN_MAX_DIGITS` digits; the box's
  menu, New PIN, makes `PIN_DIGITS`). Failed attempts back off per client (1, 2, 4 ... 60 s
  during which the PIN is not even checked); all clients together get at most one checked
  guess a second, in turns (companion.web.logins), so nobody can lock the table out and
  ~86,400 guesses a day find a 10-digit PIN with a chance below 1 in 100,000. A shorter PIN
  still works (boxes set up with 4-12 digits keep theirs) but starts the page with a warning
  saying how long guessing takes (`short_pin_warning`). Failures are logged (at a bounded rate). A right PIN opens
  a session: a random token in an `HttpOnly; SameSite=Strict` cookie that
  expires, with its own CSRF token that every changing request repeats in a header,
  beside an `Origin` that matches the `Host`.
The clock is injected, so tests need no waiting.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import os
import secrets
import socket
import stat
import time
from dataclasses import dataclass
from typing import Callable, Iterable

from companion.table.pagelink import PIN_DIGITS, PIN_MAX_DIGITS, PIN_MIN_DIGITS
from companion.web.lograte import RateLimitedLog

log = logging.getLogger(__name__)

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "frame-ancestors 'none'; object-src 'none'; base-uri 'none'; form-action 'self'")
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Resource-Policy": "same-origin",
}
# A page with a form that changes something (no script) is served with this policy instead: a form's
# POST is a navigation, and under "no-referrer" browsers send it with `Origin: null` (the Fetch
# standard), which `origin_matches` refuses; "same-origin" sends the page's own Origin, and a Referer
# only to the box itself. The handler sets it in its response's headers; the app keeps it there.
FORM_REFERRER_POLICY = "same-origin"
SESSION_COOKIE = "companion_session"
CSRF_HEADER = "X-CSRF-Token"
SESSION_TTL_S = 4 * 3600
MAX_SESSIONS = 64
BACKOFF_MAX_S = 60.0


def split_host(host: str) -> str:
    """The name or address of a Host header, without its port and brackets, lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


class HostCheck:
    """Which Host headers name this box (see the module docstring)."""

    def __init__(self, allowed: Iterable[str] = (), hostname: str | None = None) -> None:
        name = (hostname or socket.gethostname()).lower()
        self.names = {"localhost", "127.0.0.1", "::1", name, f"{name}.local"} | {h.lower() for h in allowed}

    def allows(self, host: str | None, local_address: str | None) -> bool:
        if not host:
            return False
        name = split_host(host)
        if name in self.names:
            return True
        try:  # an address literal is the box only when it is the address the client connected to
            return local_address is not None and ipaddress.ip_address(name) == ipaddress.ip_address(
                local_address.split("%")[0])
        except ValueError:
            return False


def origin_matches(origin: str | None, host: str | None) -> bool:
    """True when a changing request comes from the page itself: Origin is http(s)://<Host>."""
    if not origin or not host:
        return False
    return origin.lower() in (f"http://{host.lower()}", f"https://{host.lower()}")


def read_pin(path: str) -> str:
    """The PIN in `path` (`PIN_MIN_DIGITS`-`PIN_MAX_DIGITS` digits); ValueError saying what is wrong."""
    want = f"the PIN file {path} must hold {PIN_MIN_DIGITS} to {PIN_MAX_DIGITS} digits"
    try:
        # O_NONBLOCK and fstat before any read: a FIFO (or a device) put there would block the
        # open or the read, and with it the page's one thread and its SIGTERM.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
        kind = os.fstat(fd).st_mode
        if not stat.S_ISREG(kind):
            os.close(fd)
            raise ValueError(f"the PIN file {path} is not a regular file ({file_kind(kind)}): "
                             f"give a text file holding {PIN_MIN_DIGITS} to {PIN_MAX_DIGITS} digits")
        with open(fd, "rb") as f:
            pin = f.read(64).decode("utf-8").strip()
    except OSError as exc:
        raise ValueError(f"cannot read the PIN file {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{want} (it is not text)") from None
    if not (pin.isascii() and pin.isdigit() and PIN_MIN_DIGITS <= len(pin) <= PIN_MAX_DIGITS):
        raise ValueError(f"{want} (and nothing else; the box's menu, New PIN, makes one of {PIN_DIGITS})")
    return pin


def file_kind(mode: int) -> str:
    """What a file that is not a regular one is, in words."""
    for test, name in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a device"),
                       (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a plain file"


def guessing_time(digits: int, per_s: float = 1.0) -> str:
    """How long trying every PIN of `digits` digits takes at `per_s` guesses a second, in words."""
    seconds = 10 ** digits / per_s
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.0f} hours"
    if seconds < 2 * 365 * 86400:
        return f"{seconds / 86400:.0f} days"
    return f"{seconds / (365 * 86400):.0f} years"


def short_pin_warning(pin: str, where: str) -> str | None:
    """One line for a PIN shorter than `PIN_DIGITS` (from the file `where`), or None."""
    if len(pin) >= PIN_DIGITS:
        return None
    return (f"web: the PIN in {where} has {len(pin)} digits: at one guess a second, guessing tries every "
            f"{len(pin)}-digit PIN within {guessing_time(len(pin))} (half that on average); make a "
            f"{PIN_DIGITS}-digit one at the box: D (menu), New PIN")


@dataclass
class Session:
    csrf: str
    expires: float


@dataclass
class LoginAnswer:
    """What a login attempt gets: a session token, or a refusal with a status and a wait."""

    token: str | None = None
    csrf: str | None = None
    status: int = 200
    message: str = ""
    retry_after: float | None = None


class PinGuard:
    """PIN checks with back-off and lock-out, and the sessions it opens (see the module docstring)."""

    def __init__(self, pin: str | None, clock: Callable[[], float] = time.monotonic) -> None:
        self.pin = pin
        self.clock = clock
        self.sessions: dict[str, Session] = {}
        self.failures: dict[str, tuple[int, float]] = {}  # client -> (failures in a row, not before)
        self.warn = RateLimitedLog(log)

    @property
    def enabled(self) -> bool:
        return self.pin is not None

    def set_pin(self, pin: str | None) -> None:
        """A new PIN (the box's menu made one): every session and back-off ends."""
        self.pin = pin
        self.sessions.clear()
        self.failures.clear()

    def refused(self, client: str) -> LoginAnswer | None:
        """Why `client` may not try a PIN now (no PIN set, or its back-off), or None."""
        if self.pin is None:
            return LoginAnswer(status=403, message="this table's page is read-only: no PIN is set in its config")
        now = self.clock()
        count, not_before = self.failures.get(client, (0, 0.0))
        if now < not_before:
            return LoginAnswer(status=429, message="wait before the next try", retry_after=not_before - now)
        return None

    def login(self, client: str, pin: str) -> LoginAnswer:
        """Check `pin` for `client` now (companion.web.logins decides when: one a second in all)."""
        refused = self.refused(client)
        if refused is not None:
            return refused
        now = self.clock()
        assert self.pin is not None
        if not hmac.compare_digest(str(pin).encode(), self.pin.encode()):
            count = self.failures.get(client, (0, 0.0))[0] + 1
            wait = min(BACKOFF_MAX_S, 2.0 ** (count - 1))
            self.failures[client] = (count, now + wait)
            self.warn.warning("pin", "web: wrong PIN from %s (%d in a row; next try in %.0f s)", client, count, wait)
            return LoginAnswer(status=403, message="wrong PIN", retry_after=wait)
        self.failures.pop(client, None)
        token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
        self._expire(now)
        if len(self.sessions) >= MAX_SESSIONS:
            del self.sessions[min(self.sessions, key=lambda t: self.sessions[t].expires)]
        self.sessions[token] = Session(csrf, now + SESSION_TTL_S)
        log.info("web: PIN accepted from %s", client)
        return LoginAnswer(token=token, csrf=csrf)

    def _expire(self, now: float) -> None:
        for token in [t for t, s in self.sessions.items() if s.expires <= now]:
            del self.sessions[token]

    def session(self, token: str | None) -> Session | None:
        """The live session of a cookie's token, or None."""
        if not token:
            return None
        self._expire(self.clock())
        return self.sessions.get(token)

    def logout(self, token: str | None) -> None:
        self.sessions.pop(token or "", None)

    def may_change(self, token: str | None, csrf: str | None, origin: str | None, host: str | None) -> str | None:
        """None when a changing request may go ahead; else why not (the answer is 403)."""
        if self.pin is None:
            return "this table's page is read-only: no PIN is set in its config"
        session = self.session(token)
        if session is None:
            return "enter the PIN first (or again: the session has expired)"
        if not csrf or not hmac.compare_digest(csrf.encode(), session.csrf.encode()):
            return "the request lacks this session's CSRF token: reload the page"
        if not origin_matches(origin, host):
            return "the request does not come from this page (Origin does not match Host)"
        return None
