"""Checked PIN guesses: at most one a second for everyone together, each client in its turn.

A global lock-out let anybody on the Wi-Fi lock the table out (13 addresses tripped it in
0.03 s). Instead, every login waits in one queue: a check every `INTERVAL_S`, the clients
served first come first, and a client has at most one guess waiting, so with N clients
guessing the right PIN is checked within about N seconds, never refused outright. Each
client's own back-off (companion.web.guard) still applies before it may queue. Guessing
stays slow for everyone together: `INTERVAL_S` bounds the guesses a day, from which the
PIN's length is chosen (guard.PIN_DIGITS). A waiting client that goes away gives up its
turn without spending a check.
"""

from __future__ import annotations

import asyncio
from collections import deque

from companion.web.guard import LoginAnswer, PinGuard
from companion.web.limits import client_key

INTERVAL_S = 1.0
MAX_WAITING = 256  # clients waiting at once; one more is told to come back


class LoginQueue:
    """The one queue of PIN checks in front of a `PinGuard` (see the module docstring)."""

    def __init__(self, guard: PinGuard, interval_s: float = INTERVAL_S) -> None:
        self.guard = guard
        self.interval_s = interval_s
        self.waiting: dict[str, asyncio.Future] = {}
        self.turns: deque[tuple[str, str, asyncio.Future]] = deque()
        self.next_at = 0.0
        self.worker: asyncio.Task | None = None

    async def login(self, address: str | None, pin: str) -> LoginAnswer:
        """Wait for this client's turn, then check `pin`; refusals (no PIN, back-off, a guess already
        waiting, a full queue) come at once."""
        client = client_key(address)
        refused = self.guard.refused(client)
        if refused is not None:
            return refused
        if client in self.waiting:
            return LoginAnswer(status=429, message="one try at a time: the last one is still being checked",
                               retry_after=self.interval_s * (len(self.turns) + 1))
        if len(self.waiting) >= MAX_WAITING:
            return LoginAnswer(status=429, message="many phones are trying: try again in a moment",
                               retry_after=self.interval_s * len(self.turns))
        answer: asyncio.Future = asyncio.get_running_loop().create_future()
        self.waiting[client] = answer
        self.turns.append((client, pin, answer))
        if self.worker is None or self.worker.done():
            self.worker = asyncio.create_task(self._work())
        try:
            return await answer
        finally:
            self.waiting.pop(client, None)
            if not answer.done():
                answer.cancel()

    async def _work(self) -> None:
        loop = asyncio.get_running_loop()
        while self.turns:
            client, pin, answer = self.turns.popleft()
            if answer.done():  # the client went away: its turn costs nothing
                continue
            wait = self.next_at - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            if answer.done():
                continue
            answer.set_result(self.guard.login(client, pin))
            self.next_at = loop.time() + self.interval_s

    def close(self) -> None:
        if self.worker is not None:
            self.worker.cancel()
