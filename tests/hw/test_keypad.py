"""Serial keypad: byte filtering over loop://, a real pty, unplug/replug."""

from __future__ import annotations

import os
import queue
import random
import threading
import time

import pytest

pytest.importorskip("serial")

from companion.config import Config, KeypadConfig  # noqa: E402
from companion.hw.keypad import open_keypad  # noqa: E402

VALID = {**{c: chr(c) for c in b"0123456789#*ABCD"}, **{c: chr(c).upper() for c in b"abcd"}}


def take(q: queue.Queue, n: int, timeout: float = 3.0) -> list[str]:
    out = []
    deadline = time.monotonic() + timeout
    while len(out) < n:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        try:
            out.append(q.get(timeout=left))
        except queue.Empty:
            break
    return out


def assert_quiet(q: queue.Queue, wait: float = 0.3) -> None:
    time.sleep(wait)
    assert q.empty(), f"unexpected keys: {list(q.queue)}"


@pytest.fixture
def loop_keypad():
    q: queue.Queue = queue.Queue()
    kp = open_keypad(Config(keypad=KeypadConfig(port="loop://")), q.put)
    kp.start()
    assert kp.connected.wait(3)
    yield kp, q
    kp.close()


def test_loop_only_valid_keys_in_order(loop_keypad):
    kp, q = loop_keypad
    kp.connection.write(b"12#13#\r\n xyz\x00\xff")
    assert take(q, 6) == ["1", "2", "#", "1", "3", "#"]
    assert_quiet(q)
    assert kp.filter.dropped == 5      # x y z NUL 0xff; CR LF space ignored


def test_loop_lowercase_letters_and_star(loop_keypad):
    kp, q = loop_keypad
    kp.connection.write(b"abcd*ABCD")
    assert take(q, 9) == list("ABCD*ABCD")
    assert kp.filter.dropped == 0


def test_key_storm_never_raises_and_keeps_every_valid_key(loop_keypad):
    kp, q = loop_keypad
    rng = random.Random(1234)
    data = bytes(rng.randrange(256) for _ in range(10_000))
    expected = [VALID[b] for b in data if b in VALID]
    for i in range(0, len(data), 700):
        kp.connection.write(data[i:i + 700])
    got = take(q, len(expected), timeout=10)
    assert got == expected
    assert kp._thread.is_alive()
    ignored = sum(b in b"\r\n " for b in data)
    assert kp.filter.dropped == len(data) - len(expected) - ignored


def test_put_exception_does_not_stop_reader(loop_keypad):
    kp, _ = loop_keypad
    got = []

    def put(key):
        got.append(key)
        if key == "1":
            raise RuntimeError("consumer bug")

    kp._put = put
    kp.connection.write(b"123")
    deadline = time.monotonic() + 3
    while len(got) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert got == ["1", "2", "3"]
    assert kp.put_errors == 1


def _pty_link(link: str) -> int:
    """A new pty pair; `link` (like a /dev/serial/by-id name) points at its
    slave. Returns the master fd."""
    master, slave = os.openpty()
    name = os.ttyname(slave)
    os.close(slave)   # pyserial opens its own slave fd through the link
    tmp = link + ".new"
    os.symlink(name, tmp)
    os.replace(tmp, link)
    return master


def test_pty_unplug_backoff_and_replug(tmp_path):
    link = str(tmp_path / "usb-keypad-if00-port0")
    master = _pty_link(link)
    q: queue.Queue = queue.Queue()
    delays: list[float] = []

    def sleep(s: float) -> None:
        delays.append(s)
        time.sleep(0.01)

    kp = open_keypad(KeypadConfig(port=link), q.put, sleep=sleep)
    kp.start()
    try:
        assert kp.connected.wait(3)
        os.write(master, b"7#\n")
        assert take(q, 2) == ["7", "#"]

        os.close(master)          # like pulling the USB adapter
        master = None
        deadline = time.monotonic() + 5
        while len(delays) < 7 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert kp._thread.is_alive()
        assert not kp.connected.is_set()
        # Exponential backoff from 0.5 s, capped at 10 s.
        assert delays[:7] == [0.5, 1.0, 2.0, 4.0, 8.0, 10.0, 10.0]
        assert kp.failed_attempts >= 6

        master = _pty_link(link)  # plugged back in (maybe another tty)
        deadline = time.monotonic() + 5
        while kp.connects < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert kp.connects == 2
        assert kp.connected.wait(3)
        os.write(master, b"12#")
        assert take(q, 3) == ["1", "2", "#"]
    finally:
        kp.close()
        if master is not None:
            os.close(master)
    assert not kp._thread.is_alive()


def test_missing_port_at_start_retries_then_connects(tmp_path):
    link = str(tmp_path / "not-yet")
    q: queue.Queue = queue.Queue()
    tries = threading.Event()
    delays: list[float] = []

    def sleep(s: float) -> None:
        delays.append(s)
        if len(delays) >= 3:
            tries.set()
        time.sleep(0.005)

    kp = open_keypad(KeypadConfig(port=link), q.put, sleep=sleep, backoff_start=0.1,
                     backoff_max=0.3)
    kp.start()
    master = None
    try:
        assert tries.wait(3)
        assert kp.connects == 0
        assert delays[:3] == [0.1, 0.2, 0.3]
        master = _pty_link(link)
        assert kp.connected.wait(3)
        os.write(master, b"C")
        assert take(q, 1) == ["C"]
    finally:
        kp.close()
        if master is not None:
            os.close(master)


def test_close_is_prompt_during_backoff(tmp_path):
    kp = open_keypad(KeypadConfig(port=str(tmp_path / "absent")), lambda k: None,
                     backoff_start=10.0)
    kp.start()
    time.sleep(0.1)
    t0 = time.monotonic()
    kp.close()
    assert time.monotonic() - t0 < 1.0
    assert not kp._thread.is_alive()


def test_open_keypad_without_config_is_an_error():
    with pytest.raises(ValueError):
        open_keypad(Config(), lambda k: None)
