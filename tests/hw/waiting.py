"""Waiting for the adapters' threads in tests: for an event, never for a fixed time.

`take` waits for keys on a queue, `wait_until` for a condition, `Backoff` stands in for a
keypad's `sleep` between reconnects so every retry is one step the test sees and releases.
"""

from __future__ import annotations

import queue
import threading
import time

WAIT = 30.0  # generous upper bound for any event; a passing test never waits it out


def take(q: queue.Queue, n: int, timeout: float = WAIT) -> list[str]:
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


def wait_until(pred, timeout: float = WAIT) -> bool:
    deadline = time.monotonic() + timeout
    event = threading.Event()
    while not pred():
        if time.monotonic() > deadline:
            return False
        event.wait(0.005)  # polling an event, not a pace the test depends on
    return True


class Backoff:
    """The keypad's `sleep` between reconnects, driven by the test: every call records its
    delay and blocks until the test lets it go, so each retry is one step the test sees."""

    def __init__(self) -> None:
        self.delays: list[float] = []
        self._cond = threading.Condition()
        self._go = 0
        self._closed = False

    def sleep(self, seconds: float) -> None:
        with self._cond:
            self.delays.append(seconds)
            self._cond.notify_all()
            self._cond.wait_for(lambda: self._go > 0 or self._closed, timeout=WAIT)
            if self._go:
                self._go -= 1

    def wait_for(self, n: int) -> list[float]:
        """Until the keypad has asked for its n-th backoff (and is blocked in it)."""
        with self._cond:
            assert self._cond.wait_for(lambda: len(self.delays) >= n, timeout=WAIT), self.delays
            return list(self.delays)

    def release(self) -> None:
        with self._cond:
            self._go += 1
            self._cond.notify_all()

    def step(self) -> None:
        """Let one backoff end and wait for the next one (the next open failed)."""
        n = len(self.delays)
        self.release()
        self.wait_for(n + 1)

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()
