"""The sd_notify client against a real AF_UNIX datagram socket standing in for systemd."""

from __future__ import annotations

import logging
import os
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.hw import notify


@pytest.fixture
def listener(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[socket.socket]:
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    yield sock
    sock.close()


def receive(sock: socket.socket) -> list[str]:
    return sock.recv(4096).decode().split("\n")


def test_ready_watchdog_status_stopping_arrive_as_datagrams(listener: socket.socket) -> None:
    assert notify.ready() is True
    assert receive(listener) == ["READY=1"]
    assert notify.watchdog() is True
    assert receive(listener) == ["WATCHDOG=1"]
    assert notify.status("epoch 2, red to move") is True
    assert receive(listener) == ["STATUS=epoch 2, red to move"]
    assert notify.stopping() is True
    assert receive(listener) == ["STOPPING=1"]


def test_ready_with_status_is_one_datagram(listener: socket.socket) -> None:
    notify.ready("display up")
    assert receive(listener) == ["READY=1", "STATUS=display up"]


def test_newline_in_status_cannot_inject_a_field(listener: socket.socket) -> None:
    notify.status("line one\nREADY=1")
    assert receive(listener) == ["STATUS=line one READY=1"]


def test_noop_without_notify_socket(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert notify.ready() is False
    assert notify.watchdog() is False
    assert notify.status("x") is False


def test_abstract_socket_name(monkeypatch: pytest.MonkeyPatch) -> None:
    name = f"companion-test-{uuid.uuid4().hex}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(b"\0" + name.encode())
    sock.settimeout(2)
    try:
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        assert notify.watchdog() is True
        assert receive(sock) == ["WATCHDOG=1"]
    finally:
        sock.close()


def test_vanished_socket_is_logged_not_raised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "gone"))
    with caplog.at_level(logging.WARNING, logger="companion.hw.notify"):
        assert notify.watchdog() is False
        assert notify.watchdog() is False
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 1, "a repeated failure is logged once, not every ping"
    assert "gone" in messages[0]


def test_socket_recovers_after_vanishing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "later"
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    assert notify.watchdog() is False
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(path))
        sock.settimeout(2)
        assert notify.watchdog() is True
        assert receive(sock) == ["WATCHDOG=1"]


@pytest.mark.parametrize(
    ("usec", "pid", "expected"),
    [
        ("30000000", None, 15.0),
        ("30000000", "self", 15.0),
        ("30000000", "other", None),
        (None, None, None),
        ("", None, None),
        ("zero", None, None),
        ("0", None, None),
    ],
)
def test_watchdog_interval(
    monkeypatch: pytest.MonkeyPatch, usec: str | None, pid: str | None, expected: float | None
) -> None:
    for var, value in (("WATCHDOG_USEC", usec), ("WATCHDOG_PID", pid)):
        if value is None:
            monkeypatch.delenv(var, raising=False)
        else:
            pids = {"self": str(os.getpid()), "other": str(os.getpid() + 1)}
            monkeypatch.setenv(var, pids.get(value, value))
    assert notify.watchdog_interval() == expected
