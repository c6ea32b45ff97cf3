"""Keys from the table's page: a Unix socket the daemon listens on, one more key source.

The web service (`companion web`, another process, the only one that may open the socket:
it is made mode 0600 for the daemon's own user) sends JSON lines, read by
companion.table.pagelink.decode (the messages are listed there).

Like every adapter it only puts events on the daemon's queue: key tokens go through the
same queue and the same checks as the keypad's; the URL goes as a `PhoneUrl` event (a game to take
out as `RemoveGame`: only a whole number from 1 to 2**63 - 1, nothing else, is passed on), and
`PhoneUrl(None)` when the web service goes away. Lines are UTF-8 JSON only (UTF-16 or -32 is
refused); anything else on a line (bad JSON, nesting too deep for the parser, an unknown
message) is dropped and logged once per connection; lines are capped so a client cannot grow
the daemon's memory. A client that says nothing for `SILENT_S` after connecting, or leaves a
line unfinished that long, is closed; when all `MAX_CLIENTS` places are taken, a new connection
takes the place of the one quiet the longest, so the page (which reconnects) always gets in. The
kernel holds up to `BACKLOG` connections not yet accepted (far more than `MAX_CLIENTS`): a burst of
connections is accepted and the ones over the limit turned away here, with an orderly close, never
refused by the kernel (EAGAIN) before this thread could see them.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from typing import Any, Callable

from companion.hw.keyevents import CameraCorners, PhoneUrl, RemoveGame, RosterUpdate  # noqa: F401  (re-exported)
from companion.table import pagelink as link

log = logging.getLogger(__name__)

MAX_LINE = link.MAX_LINE
MAX_CLIENTS = 4
BACKLOG = 64  # connections the kernel queues until they are accepted: room for a burst, not the client limit
SILENT_S = 5.0  # a connection's first line, and the rest of any line begun, must come within this


class KeySocket:
    """Listens on `path` (see the module docstring); `start()` and `close()` like the other adapters."""

    def __init__(self, path: str, put: Callable[[Any], Any]) -> None:
        self.path = path
        self.put = put
        self.sock: socket.socket | None = None
        self.clients: dict[socket.socket, float] = {}  # each client and when it last sent a whole line
        self.told_url: set[socket.socket] = set()        # the clients that said where the page is
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
        sock.listen(BACKLOG)
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
                    quiet = min(self.clients, key=self.clients.__getitem__)
                    del self.clients[quiet]
                    log.info("key socket: %d clients: the one quiet the longest makes room", MAX_CLIENTS)
                    _shut(quiet)  # its thread sees the end and closes it
                self.clients[conn] = time.monotonic()
            conn.settimeout(SILENT_S)
            threading.Thread(target=self._serve, args=(conn,), name="key-socket-client", daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        spoken = warned = False
        buffer = b""
        line_began = time.monotonic()  # of the line being received (the first one: at connecting)
        try:
            while True:
                try:
                    chunk = conn.recv(4096)
                except socket.timeout:
                    chunk = None
                if chunk == b"":
                    break
                if (buffer or not spoken) and time.monotonic() - line_began >= SILENT_S:
                    log.warning("key socket: a client silent for %g s (no whole line): connection closed", SILENT_S)
                    break
                if chunk is None:
                    continue  # the page's connection waits quietly for keys
                if not buffer:
                    line_began = time.monotonic()
                buffer += chunk
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    line_began = time.monotonic()
                    kind = self._line(line)
                    if kind is None:
                        if not warned:
                            log.warning("key socket: dropped a line that is not UTF-8 JSON keys, url, roster "
                                        "or remove_game")
                            warned = True
                        continue
                    spoken = True
                    with self._lock:
                        if conn in self.clients:
                            self.clients[conn] = time.monotonic()
                        if kind == "url":
                            self.told_url.add(conn)
                if len(buffer) > MAX_LINE:
                    log.warning("key socket: a line longer than %d bytes: connection closed", MAX_LINE)
                    break
        except OSError:
            pass
        finally:
            with self._lock:
                self.clients.pop(conn, None)
                gone = conn in self.told_url
                self.told_url.discard(conn)
                page_gone = gone and not self.told_url and not self._closed.is_set()
                if page_gone:  # under the lock: a page that has just reconnected says its url after this
                    self.put(PhoneUrl(None))
            conn.close()

    def _line(self, line: bytes) -> str | None:
        """Put what one line says on the daemon's queue; its kind, or None when it was dropped."""
        message = link.decode(line)
        if isinstance(message, link.Keys):
            for key in message.keys:
                self.put(key)
            return "keys"
        if isinstance(message, link.Url):
            self.put(PhoneUrl(message.url))
            return "url"
        if isinstance(message, link.Roster):
            self.put(RosterUpdate(message.names))
            return "roster"
        if isinstance(message, link.RemoveGame):
            self.put(RemoveGame(message.game_id))
            return "remove_game"
        if isinstance(message, link.CameraCorners):
            self.put(CameraCorners(message.corners))
            return "camera_corners"
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
                _shut(conn)


def _shut(conn: socket.socket) -> None:
    """End a client's connection; its own thread then closes it."""
    try:
        conn.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
