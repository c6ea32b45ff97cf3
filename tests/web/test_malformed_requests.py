"""Anyone on the network can send the page broken HTTP: each is refused, and the page's log stays
short (issue 52, part 5). 120 seeded malformed requests without a login, each on a connection of its
own, to a real `companion web`: a 4xx or a closed connection each time, no traceback in the log and a
few lines in all (at most one per kind every 10 s, with the count of those left out); the page then
still answers."""

from __future__ import annotations

import random
import socket

from tests.web.realweb import RealWeb, connect, raw_request, wait_until
from tests.web.webtools import table


def malformed(rnd: random.Random, port: int) -> bytes:
    host = f"Host: 127.0.0.1:{port}\r\n"
    kind = rnd.randrange(6)
    if kind == 0:
        return f"POST /api/login HTTP/1.1\r\n{host}Content-Length: 5\r\nContent-Length: 7\r\n\r\nhello".encode()
    if kind == 1:
        return f"POST /api/login HTTP/1.1\r\n{host}Content-Length: -{rnd.randint(1, 99)}\r\n\r\n".encode()
    if kind == 2:
        return f"GET / HTTP/1.1\r\n{host}X-A: a\0b\r\n\r\n".encode()
    if kind == 3:
        return f"GET / HTTP/1.1\r\n{host}X-Long: {'a' * rnd.randint(9000, 20000)}\r\n\r\n".encode()
    if kind == 4:
        return (f"POST /api/login HTTP/1.1\r\n{host}Transfer-Encoding: chunked\r\n\r\n"
                f"{rnd.choice(['zz', '-1', '1x', 'ffffffffffffffffff'])}\r\nabc\r\n0\r\n\r\n").encode()
    return bytes(rnd.randrange(1, 256) for _ in range(rnd.randint(20, 200))) + b"\r\n\r\n"


def answer(s: socket.socket) -> bytes:
    data = b""
    try:
        while chunk := s.recv(65536):
            data += chunk
    except (ConnectionError, socket.timeout):
        pass
    return data


def test_a_flood_of_malformed_requests_is_refused_in_a_few_lines(tmp_path) -> None:
    table(tmp_path / "state", "--players", "2", "--seed", "1")
    rnd = random.Random(52)
    with RealWeb(tmp_path / "state") as web:
        for _ in range(120):
            with connect(web.port) as s:
                try:
                    s.sendall(malformed(rnd, web.port))
                except ConnectionError:
                    continue
                got = answer(s)
            assert got == b"" or got.startswith(b"HTTP/1.1 4") or got.startswith(b"HTTP/1.0 4"), got[:80]
        status, _, _ = raw_request(web.port, "GET", "/api/state")
        assert status in (200, 503)
        # the log is read by a thread: wait for the line, not for a time
        log = wait_until("the malformed request's log line", lambda: "malformed request" in web.log() and web.log())
    assert "malformed request" in log, log
    assert "Traceback" not in log, log[-3000:]
    lines = [line for line in log.splitlines() if "malformed" in line or "Error handling" in line]
    assert 1 <= len(lines) <= 12, lines
    assert all(len(line) < 400 for line in log.splitlines()), "no line carries a 20 KB header"
