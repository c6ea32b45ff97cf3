"""Shared by the page's tests: a daemon playing into a state dir, the page's app on aiohttp's test client."""

from __future__ import annotations

import asyncio
import json
import random
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator

from aiohttp.test_utils import TestClient, TestServer

from companion.kiosk import daemon
from companion.journal.reader import JournalReader
from companion.web.app import make_app
from companion.web.guard import HostCheck, PinGuard
from companion.web.keylink import KeyLink
from companion.web.views import Views

WAIT_S = 10.0


def table(state_dir: Path, *args: str) -> Any:
    """A daemon as `companion run --display dummy --state-dir DIR ARGS` builds it, driven key by key."""
    keys = state_dir.parent / "no-keys"
    keys.write_text("")
    d = daemon.build(daemon.parse_args(["--display", "dummy", "--state-dir", str(state_dir), "--keys", str(keys),
                                        "--bot", "random", *args]))
    d.drain()
    d.show()
    return d


def advance(d: Any, rnd: random.Random) -> None:
    """One move on the board, whoever's it is: a person's random legal move (with any founding
    order asked), or a bot's proposal played with #; through the deal of colors first."""
    c = d.shell.game
    ply = c.game.ply
    for _ in range(20):
        if c.game.ply > ply or c.game.is_over:
            return
        mode = c.mode()
        if mode == "move":
            frm, to = c.game.random_move(rnd.random)
            for key in f"{frm}#{to}#":
                d.step(key)
        elif mode == "order":
            for key in f"{rnd.choice(c.order_choices())}#":
                d.step(key)
        else:
            d.step("#")
    raise AssertionError(f"no move was made (mode {c.mode()}, screen {d.shell.screen().name})")


def play_to_the_end(d: Any, rnd: random.Random, state_dir: Path) -> None:
    """Moves until the game is over, then # through the reveal until the journal lists it finished."""
    from companion.history.plays import read_history

    while not d.shell.game.game.is_over:
        advance(d, rnd)
    for _ in range(10):
        if read_history(state_dir).plays:
            return
        d.step("#")
    raise AssertionError("the finished game never reached the history")


def app_for(state_dir: Path, pin: str | None = None, clock: Any = None, hosts: tuple = (), **kw: Any) -> Any:
    guard = PinGuard(pin, clock) if clock is not None else PinGuard(pin)
    keys = KeyLink(kw.pop("key_socket", None), "HTTP://127.0.0.1:8080")
    return make_app(Views(JournalReader(state_dir)), guard, HostCheck(hosts, hostname="clansbox"), keys, **kw)


@asynccontextmanager
async def client(app: Any) -> AsyncIterator[TestClient]:
    async with TestClient(TestServer(app, handler_cancellation=True)) as c:
        yield c


async def next_event(response: Any, timeout: float = WAIT_S) -> tuple[str | None, dict]:
    """The next Server-Sent Event on `response`: (event name, its data as JSON)."""
    event, data = None, None
    while True:
        line = (await asyncio.wait_for(response.content.readline(), timeout)).decode().rstrip("\r\n")
        if line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:"):
            data = line[5:].strip()
        elif line == "" and data is not None:
            return event, json.loads(data)


def run(coro: Any) -> Any:
    return asyncio.run(coro)
