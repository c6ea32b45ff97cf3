"""Key storms in both games, with a restart from the journal after each (issue 31, part 4).

A table that presses keys at random: every key the keypad and the buttons have, the menu
and its long press (REPEAT) included, the power button excluded. Each storm is one
`companion run --keys FILE --state-dir DIR` built and run in-process (as `companion run`
builds it: companion.kiosk.daemon.build), and the next storm starts from the same state dir, so
every storm begins with a restart. After each storm: the run returned 0, nothing logged a
traceback, and the restarted table holds the same game the stopped one held.

COMPANION_STORMS storms a game (default 300; thousands by hand), COMPANION_STORM_KEYS keys
a storm (default 250), COMPANION_STORM_SEED the first seed.
"""

from __future__ import annotations

import logging
import os
import queue
import random
import subprocess
import sys
from pathlib import Path

import pytest

from companion.kiosk import daemon, loop
from tests.cpu_budget import slowness
from companion.table import keys as K

# 300 storms a game here; on a machine several times slower at pure Python (the aarch64 check under
# qemu-user) as many fewer, at least 30, so the run's length does not grow with the slowness
STORMS = int(os.environ.get("COMPANION_STORMS", "0")) or max(30, round(300 / slowness()))
KEYS = int(os.environ.get("COMPANION_STORM_KEYS", "250"))
SEED = int(os.environ.get("COMPANION_STORM_SEED", "20261127"))
# weighted: # and digits make moves and answers, A/B scroll, * C D and the long press less often
ALPHABET = "#" * 6 + "0123456789" * 2 + "AB" * 4 + "*" * 2 + "C" * 2 + "D" + "R"


def storm(rnd: random.Random, n: int) -> list[str]:
    """One storm: the keypad's keys and the menu's long press (a key file cannot hold REPEAT)."""
    return [K.REPEAT if k == "R" else k for k in (rnd.choice(ALPHABET) for _ in range(n))]


def table(tmp: Path, keys: list[str], first: list[str]) -> loop.Daemon:
    """`companion run --keys FILE --state-dir DIR` as the command builds it, the storm as its script."""
    args = daemon.parse_args(["--display", "dummy", "--state-dir", str(tmp / "state"), "--keys", os.devnull,
                              "--bot", "random", "--bot-time", "0.01", *first])
    d = daemon.build(args)
    d.queue = queue.Queue()  # the script's keys in place of the empty file's
    for key in keys:
        d.put_script(key)
    d.put_script(loop.EOF)
    return d


def held(d: loop.Daemon) -> tuple[str, str | None]:
    return d.shell.kind, d.shell.game.record_json()


class Tracebacks(logging.Handler):
    """Every log record that carries a traceback (containment logs one for each failure)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info or "Traceback" in record.getMessage():
            self.seen.append(self.format(record))


@pytest.fixture
def tracebacks():
    handler = Tracebacks()
    handler.setFormatter(logging.Formatter("%(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    yield handler
    root.removeHandler(handler)


@pytest.mark.parametrize("game", ["clans", "mammut"])
def test_key_storms_with_restarts(game, tmp_path, tracebacks):
    rnd = random.Random(f"{SEED}-{game}")
    before = None
    for i in range(STORMS):
        d = table(tmp_path, storm(rnd, rnd.randint(KEYS // 4, KEYS)), ["--game", game] if i == 0 else [])
        if before is not None and before[1] is not None:  # the restart resumed the game as it was
            assert held(d) == before, f"storm {i}: the restart did not resume the game"
        assert d.run() == 0, f"storm {i}"
        assert not tracebacks.seen, f"storm {i} (seed {SEED}-{game}):\n" + "\n".join(tracebacks.seen[:3])
        before = held(d)


def test_the_repro_storm_ends_cleanly_and_restarts(tmp_path):
    """../shared/repro/mammut-storm-49883202.keys, copied into the tests' data: the KeyError of
    an order never decided ended the process and every start after it."""
    keys = Path(__file__).resolve().parent.parent / "data" / "storms" / "mammut-storm-49883202.keys"
    state = tmp_path / "state"
    for extra in (["--game", "mammut", "--seed", "49883202", "--keys", str(keys)], ["--keys", os.devnull]):
        done = subprocess.run([sys.executable, "-m", "companion", "run", "--display", "dummy", "--state-dir",
                               str(state), *extra], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        assert "Traceback" not in done.stderr, done.stderr[-2000:]
