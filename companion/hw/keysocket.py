"""Keys from the table's page: a Unix socket the daemon listens on, one more key source.

The web service (`companion web`, another process, the only one that may open the socket:
it is made mode 0600 for the daemon's own user) sends JSON lines:

    {"keys": ["1", "2", "#"]}     keys typed on a phone: the keypad's 16 keys only
    {"url": "HTTP://192.168.1.23:8080"}   where the page is (the OLED's Phone view shows it)
    {"roster": ["Anna", "Ben"]}   the players' names, set on the page with the PIN

Like every adapter it only puts events on the daemon's queue: key tokens go through the
same queue and the same checks as the keypad's; the URL goes as a `PhoneUrl` event, and
`PhoneUrl(None)` when the web service goes away. Anything else on a line is ignored and
logged once per connection; lines are capped so a client cannot grow the daemon's memory.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import threading
from typing import Any, Callable

from companion.hw.keyevents import PhoneUrl, RosterUpdate  # noqa: F401  (re-exported: callers name them here)
from companion.table.keys import KEYPAD

log = logging.getLogger(__name__)

MAX_LINE = 4096
MAX_KEYS_PER_LINE = 64
MAX_CLIENTS = 4


def _keypad(key: Any) -> bool:
    """One of the keypad's 16 keys (never POWER or QUIT from a phone)."""
    return isinstance(key, str) and len(key) == 1 and key in KEYPAD


class KeySocket:
    """Listens on `path` (see the module docstring); `start()` and `close()` like the other adapters."""

    def __init__(self, path: str, put: Callable[[Any], Any]) -> None:
        self.path = path
        self.put = put
        self.sock: socket.socket | None = None
        self.clients: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._closed = threading.Event()

    def start(self) -> None:
        try:
            os.unlink(self.path)  # a socket left by a crash; never anything else (bind would fail)
        except FileNotFoundError:
            pass
        except OSError as exc:
            log.error("key socket: cannot replace %s: %s", self.path, exc)
            return
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o177)
        try:
            sock.bind(self.path)
        except OSError as exc:
            log.error("key socket: cannot listen on %s: %s (no keys from phones)", self.path, exc)
            sock.close()
            return
        finally:
            os.umask(old)
        os.chmod(self.path, 0o600)
        sock.listen(MAX_CLIENTS)
        self.sock = sock
        threading.Thread(target=self._accept, name="key-socket", daemon=True).start()
        log.info("key socket: listening on %s", self.path)

    def _accept(self) -> None:
        while not self._closed.is_set() and self.sock is not None:
            try:
                conn, _addr = self.sock.accept()
            except OSError:
                return
            with self._lock:
                if len(self.clients) >= MAX_CLIENTS:
                    conn.close()
                    continue
                self.clients.add(conn)
            threading.Thread(target=self._serve, args=(conn,), name="key-socket-client", daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        told_url = warned = False
        buffer = b""
        try:
            while True:
                chunk = conn.recv(4096)
                if not chunk:
                    break
                buffer += chunk
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    kind = self._line(line)
                    told_url = told_url or kind == "url"
                    if kind is None and not warned:
                        log.warning("key socket: ignored a line that is not keys or url")
                        warned = True
                if len(buffer) > MAX_LINE:
                    log.warning("key socket: a line longer than %d bytes: connection closed", MAX_LINE)
                    break
        except OSError:
            pass
        finally:
            with self._lock:
                self.clients.discard(conn)
            conn.close()
            if told_url and not self._closed.is_set():
                self.put(PhoneUrl(None))

    def _line(self, line: bytes) -> str | None:
        try:
            message = json.loads(line)
        except ValueError:
            return None
        if not isinstance(message, dict):
            return None
        if "keys" in message:
            keys = message["keys"]
            if not isinstance(keys, list) or len(keys) > MAX_KEYS_PER_LINE or not all(_keypad(k) for k in keys):
                return None
            for key in keys:
                self.put(key)
            return "keys"
        if "url" in message:
            url = message["url"]
            if url is not None and (not isinstance(url, str) or len(url) > 200 or not url.isprintable()):
                return None
            self.put(PhoneUrl(url))
            return "url"
        if "roster" in message:
            names = message["roster"]
            if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
                return None
            self.put(RosterUpdate(tuple(names)))
            return "roster"
        return None

    def close(self) -> None:
        self._closed.set()
        if self.sock is not None:
            try:
                self.sock.close()
            finally:
                self.sock = None
                try:
                    os.unlink(self.path)
                except OSError:
                    pass
        with self._lock:
            for conn in list(self.clients):
                try:
                    conn.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
