"""A burst of connections to the key socket: none is refused by the kernel.

The socket's listen backlog is the queue of connections the kernel holds until the daemon's thread
accepts them. When it was the client limit (4), a fifth connection arriving before the thread
accepted the first got EAGAIN (a non-blocking client, as asyncio's) or hung (a blocking one): the
page's phones, a reconnect, a fuzz. Now the backlog has room for a burst; every connection is
accepted, and of those over the limit the server turns away the ones quiet the longest, politely
(an orderly close), as it always did.
"""

from __future__ import annotations

import json
import socket
import threading
import types

from companion.hw import keysocket
from companion.hw.keysocket import KeySocket
from tests.hw.test_keysocket_clients import closed_by_the_daemon, keys_of
from tests.hw.waiting import WAIT, wait_until

BURST = 32  # connections opened at once, before the daemon's thread accepts any (8 times its client limit)


class _Held:
    """threading.Thread's stand-in while the socket starts: its accept thread is made, not started."""

    made: list["_Held"] = []

    def __init__(self, target=None, args=(), name=None, daemon=None) -> None:
        self.target, self.args, self.name = target, args, name
        _Held.made.append(self)

    def start(self) -> None:
        pass


def test_a_burst_of_connections_is_accepted_and_the_extra_ones_turned_away_by_the_server(tmp_path, monkeypatch):
    got: list = []
    sock = KeySocket(str(tmp_path / "k.sock"), got.append)
    _Held.made.clear()
    monkeypatch.setattr(keysocket, "threading", types.SimpleNamespace(Thread=_Held))
    sock.start()                                          # listening, its accept thread not running yet
    monkeypatch.setattr(keysocket, "threading", threading)
    (accept,) = _Held.made
    assert sock.sock is not None and accept.target == sock._accept
    clients = []
    try:
        for _ in range(BURST):                            # all at once: nobody accepts them meanwhile
            c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            c.setblocking(False)
            clients.append(c)
            assert c.connect_ex(sock.path) == 0, f"connection {len(clients)} of {BURST} refused by the kernel"
        for c in clients:
            c.settimeout(WAIT)
        threading.Thread(target=accept.target, daemon=True).start()  # the daemon's thread gets to them
        kept = clients[-keysocket.MAX_CLIENTS:]
        for c in clients[:-keysocket.MAX_CLIENTS]:
            assert closed_by_the_daemon(c)                # turned away by the server: an orderly close
        assert wait_until(lambda: len(sock.clients) == keysocket.MAX_CLIENTS)
        for i, c in enumerate(kept):
            c.sendall(json.dumps({"keys": [str(i)]}).encode() + b"\n")
        assert wait_until(lambda: sorted(keys_of(got)) == [str(i) for i in range(keysocket.MAX_CLIENTS)])
    finally:
        for c in clients:
            c.close()
        sock.close()


def test_a_burst_against_the_running_daemon_is_never_refused(tmp_path):
    """The same burst while the accept thread runs: every connect succeeds, the page still gets in."""
    got: list = []
    sock = KeySocket(str(tmp_path / "k.sock"), got.append)
    sock.start()
    clients = []
    try:
        for _ in range(BURST):
            c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            c.setblocking(False)
            clients.append(c)
            assert c.connect_ex(sock.path) == 0
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as page:
            page.settimeout(WAIT)
            page.connect(sock.path)
            page.sendall(b'{"keys": ["7"]}\n')
            assert wait_until(lambda: keys_of(got) == ["7"])
        assert len(sock.clients) <= keysocket.MAX_CLIENTS
    finally:
        for c in clients:
            c.close()
        sock.close()
