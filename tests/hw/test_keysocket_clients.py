"""The key socket against clients that misbehave: silent ones are closed and never lock the page
out, lines are UTF-8 JSON only, and nesting too deep for the parser drops one line, not the thread."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import socket

import pytest

from companion.hw import keysocket
from companion.hw.keysocket import KeySocket, PhoneUrl
from companion.web.keylink import KeyLink
from tests.hw.waiting import WAIT, wait_until

URL = b'{"url": "HTTP://10.0.0.7:8080"}\n'


@pytest.fixture
def key_socket(tmp_path):
    got: list = []
    sock = KeySocket(str(tmp_path / "k.sock"), got.append)
    sock.start()
    yield sock, got
    sock.close()


def connect(sock: KeySocket) -> socket.socket:
    c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    c.settimeout(WAIT)
    c.connect(sock.path)
    return c


def closed_by_the_daemon(c: socket.socket) -> bool:
    """True once the daemon ended the connection (recv sees the end, or a reset)."""
    try:
        return c.recv(1) == b""
    except ConnectionResetError:
        return True


def keys_of(got: list) -> list[str]:
    return [k for k in got if isinstance(k, str)]


def test_four_silent_clients_never_keep_the_page_out(key_socket):
    sock, got = key_socket
    silent = [connect(sock) for _ in range(keysocket.MAX_CLIENTS)]
    try:
        assert wait_until(lambda: len(sock.clients) == keysocket.MAX_CLIENTS)
        with connect(sock) as page:                     # the page: a fifth connection
            page.sendall(URL + b'{"keys": ["7", "#"]}\n')
            assert wait_until(lambda: keys_of(got) == ["7", "#"])
            assert closed_by_the_daemon(silent[0])      # the one quiet the longest made room
            assert len(sock.clients) <= keysocket.MAX_CLIENTS
    finally:
        for c in silent:
            c.close()


def test_a_silent_client_is_closed_after_a_few_seconds_and_the_quiet_page_is_not(key_socket, monkeypatch, caplog):
    sock, got = key_socket
    monkeypatch.setattr(keysocket, "SILENT_S", 1.0)
    with connect(sock) as page, connect(sock) as silent, connect(sock) as unfinished:
        page.sendall(URL)
        unfinished.sendall(b'{"keys": ["1"')            # a line begun and never finished
        assert wait_until(lambda: PhoneUrl("HTTP://10.0.0.7:8080") in got)
        assert closed_by_the_daemon(silent) and closed_by_the_daemon(unfinished)
        assert wait_until(lambda: len(sock.clients) == 1)  # the page stays, quiet as it is
        page.sendall(b'{"keys": ["9"]}\n')
        assert wait_until(lambda: keys_of(got) == ["9"])
    assert "silent for 1 s" in caplog.text and "Traceback" not in caplog.text


def test_lines_in_utf16_or_utf32_are_refused(key_socket, caplog):
    sock, got = key_socket
    line = '{"keys": ["1", "#"]}'
    with connect(sock) as c:
        for codec in ("utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be", "utf-8-sig"):
            c.sendall(line.encode(codec) + b"\n")
        c.sendall(b'{"keys": ["5"]}\n')                 # UTF-8: the only one taken
        assert wait_until(lambda: keys_of(got) == ["5"])
    warnings = [r for r in caplog.records if "dropped a line" in r.getMessage()]
    assert len(warnings) == 1


@pytest.mark.parametrize("line", [b"[" * 4000, b"[" * 2000 + b"]" * 2000,
                                  b'{"keys": ' + b"[" * 2000 + b"]" * 2000 + b"}"])
def test_a_line_nested_too_deep_is_dropped_with_one_warning(key_socket, caplog, line):
    sock, got = key_socket
    assert len(line) <= keysocket.MAX_LINE
    with connect(sock) as c:
        c.sendall(line + b"\n" + line + b"\n" + b'{"keys": ["3"]}\n')  # the same thread reads on
        assert wait_until(lambda: keys_of(got) == ["3"])
    assert len([r for r in caplog.records if "dropped a line" in r.getMessage()]) == 1
    assert not any(r.exc_info for r in caplog.records) and "RecursionError" not in caplog.text


def test_seeded_garbage_lines_never_end_the_reader(key_socket):
    sock, got = key_socket
    rng = random.Random(45)
    with connect(sock) as c:
        for _ in range(300):
            kind = rng.randrange(4)
            if kind == 0:
                line = rng.randbytes(rng.randrange(1, 300)).replace(b"\n", b"")
            elif kind == 1:
                unit = rng.choice([b"[", b'{"k":', b'{"keys":'])
                line = unit * rng.randrange(1, keysocket.MAX_LINE // len(unit))
            elif kind == 2:
                line = json.dumps({"keys": [rng.choice(["POWER", 7, None, "x", "##"])]}).encode()
            else:
                line = json.dumps({"url": "x"}).encode(rng.choice(["utf-16", "utf-32"]))
            c.sendall(line + b"\n")
        c.sendall(b'{"keys": ["D"]}\n')
        assert wait_until(lambda: "D" in keys_of(got))
    assert keys_of(got) == ["D"]


def test_the_page_reconnects_and_retries_once_when_its_place_was_taken(key_socket):
    sock, got = key_socket

    async def go():
        link = KeyLink(sock.path, "HTTP://10.0.0.7:8080")
        assert await link.send({"keys": ["1"]})
        assert wait_until(lambda: keys_of(got) == ["1"])
        others = [connect(sock) for _ in range(keysocket.MAX_CLIENTS)]  # the page's place goes
        try:
            assert wait_until(lambda: len(sock.clients) == keysocket.MAX_CLIENTS and not sock.told_url)
            sent = await link.send({"keys": ["2"]})                    # on the old connection: fails, retried
            return sent
        finally:
            link.close()
            for c in others:
                c.close()

    assert asyncio.run(go()) is True
    assert wait_until(lambda: keys_of(got) == ["1", "2"])


def test_a_line_trickled_byte_by_byte_is_closed_too(key_socket, monkeypatch):
    sock, got = key_socket
    monkeypatch.setattr(keysocket, "SILENT_S", 1.0)
    with connect(sock) as page, connect(sock) as trickler:
        page.sendall(URL)
        trickler.sendall(URL)                           # it has spoken once ...
        assert wait_until(lambda: len(sock.told_url) == 2)
        for byte in b'{"keys": ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "#"]}\n':
            try:
                trickler.sendall(bytes([byte]))         # ... then never finishes a line
            except OSError:
                break
            if wait_until(lambda: len(sock.clients) == 1, timeout=0.2):  # a byte at most every 0.2 s
                break
        assert wait_until(lambda: len(sock.clients) == 1) and closed_by_the_daemon(trickler)
    assert keys_of(got) == []
