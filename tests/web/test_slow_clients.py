"""Slow and greedy clients against a real `companion web` on loopback (issue 32, part 1).

A hostile crowd on other addresses (127.0.0.2 ...) keeps hundreds of connections open,
trickling header lines or body bytes, while a phone on 127.0.0.1 loads the state: at
least 95% of its requests must be answered within 2 s. A slow body is cut off with 408.
One client holding every event stream must give one up to the next phone, and `/` must
still be served to that phone.
"""

from __future__ import annotations

import random
import socket
import threading
import time
from pathlib import Path

import pytest

from companion.web.http import BODY_S
from tests.web.realweb import RealWeb, connect, raw_request, read_response
from tests.web.test_hostile_small import closed_journal


class SlowCrowd:
    """`n` connections from 127.0.0.2-127.0.0.51, each sending one more header line (or body byte)
    every `every` s, reconnecting whenever the server closes one (as a hostile tester would)."""

    def __init__(self, port: int, n: int, mode: str, every: float = 1.0, seed: int = 1) -> None:
        self.port, self.n, self.mode, self.every = port, n, mode, every
        self.rnd = random.Random(seed)
        self.stop = threading.Event()
        self.opened = 0
        self.ready = threading.Event()
        self.socks: list[socket.socket | None] = [None] * n
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _start(self, i: int) -> None:
        source = f"127.0.0.{2 + i % 50}"
        try:
            s = connect(self.port, source, timeout=2)
        except OSError:
            self.socks[i] = None
            return
        s.setblocking(False)
        host = f"Host: 127.0.0.1:{self.port}\r\n"
        head = (f"GET /api/state HTTP/1.1\r\n{host}" if self.mode == "headers" else
                f"POST /api/login HTTP/1.1\r\n{host}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{")
        try:
            s.send(head.encode())
        except OSError:
            s.close()
            return
        self.socks[i] = s
        self.opened += 1

    def _tick(self, i: int) -> None:
        s = self.socks[i]
        if s is None:
            self._start(i)
            return
        try:
            if s.recv(4096, socket.MSG_DONTWAIT) == b"":
                raise ConnectionError
        except BlockingIOError:
            pass
        except OSError:
            s.close()
            self._start(i)
            return
        line = f"X-Slow-{self.rnd.randrange(10 ** 6)}: 1\r\n" if self.mode == "headers" else " "
        try:
            s.send(line.encode())
        except OSError:
            s.close()
            self._start(i)

    def _run(self) -> None:
        for i in range(self.n):
            self._start(i)
        self.ready.set()
        while not self.stop.wait(self.every):
            for i in range(self.n):
                self._tick(i)

    def __enter__(self) -> "SlowCrowd":
        self.thread.start()
        assert self.ready.wait(60)
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(10)
        for s in self.socks:
            if s is not None:
                s.close()


def phone_times(port: int, n: int = 60) -> list[float | None]:
    """`n` loads of /api/state by a phone on 127.0.0.1: seconds each, None when not answered."""
    times: list[float | None] = []
    for _ in range(n):
        t0 = time.monotonic()
        try:
            status, _h, _b = raw_request(port, "GET", "/api/state", timeout=2.0)
            times.append(time.monotonic() - t0 if status in (200, 503) else None)
        except OSError:
            times.append(None)
    return times


@pytest.mark.parametrize("n, mode", [(200, "headers"), (200, "bodies"), (700, "headers")])
def test_a_phone_is_answered_while_a_crowd_trickles(tmp_path: Path, n: int, mode: str):
    state_dir = closed_journal(tmp_path, moves=1)
    with RealWeb(state_dir) as web, SlowCrowd(web.port, n, mode) as crowd:
        times = phone_times(web.port)
        assert crowd.opened >= n
    fast = [t for t in times if t is not None and t <= 2.0]
    assert len(fast) >= 0.95 * len(times), (n, mode, times)


def test_a_slow_body_is_cut_off_with_408(tmp_path: Path):
    state_dir = closed_journal(tmp_path, moves=1)
    with RealWeb(state_dir) as web:
        with connect(web.port, "127.0.0.9", timeout=BODY_S + 5) as s:
            t0 = time.monotonic()
            s.sendall(f"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1:{web.port}\r\nContent-Length: 100\r\n\r\n{{"
                      .encode())
            status, _h, _b = read_response(s)
            took = time.monotonic() - t0
            assert s.recv(100) == b""  # and the connection is closed
    assert status == 408 and BODY_S - 0.5 <= took <= BODY_S + 2


def test_one_client_cannot_hold_every_event_stream(tmp_path: Path):
    state_dir = closed_journal(tmp_path, moves=1)
    hog: list[socket.socket] = []
    with RealWeb(state_dir) as web:
        try:
            for _ in range(400):  # until refused: the cap, all for the one client nobody competes with
                s = connect(web.port, "127.0.0.2")
                s.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{web.port}\r\n\r\n".encode())
                status, _h, _b = read_response(s)
                if status != 200:
                    s.close()
                    break
                hog.append(s)
            assert status == 503 and len(hog) >= 200
            status, _h, body = raw_request(web.port, "GET", "/", source="127.0.0.3")
            assert status == 200 and b"Too many viewers" not in body
            with connect(web.port, "127.0.0.3") as phone:
                phone.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{web.port}\r\n\r\n".encode())
                status, _h, rest = read_response(phone)
                assert status == 200
                while b"event: state" not in rest:
                    rest += phone.recv(65536)
                status, _h, _b = raw_request(web.port, "GET", "/api/events", source="127.0.0.2")
                assert status == 503  # the hog gets no more while the phone watches
        finally:
            for s in hog:
                s.close()
