"""Does the table's page slow the referee down? Key-to-frame of the daemon, idle and under page load.

    python tools/web_load.py [--games 3] [--seed 1] [--streams 20] [--rate 50]

Plays scripted 3-player Clans games key by key through a real daemon (journal on disk, so
each move's time includes its commit) and times every key to its finished frame: once with
no page, once while `companion web` serves the same state directory to `--streams` open
event streams and a client that loads the page `--rate` times a second (both in processes
of their own, as phones would be). Rounds alternate idle / loaded to even out the noise.
Prints one JSON object: p50/p99 of key-to-frame idle and loaded, their ratio, the event
latency (a move's commit, as the journal logs it, to its event at every stream, moves 0.3 s apart), and the web process's memory (RSS).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.bench.path import percentile  # noqa: E402  (the bench's own percentile, from this checkout)

LOADER = r"""
import asyncio, json, sys, time
import aiohttp
url, streams, rate = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
arrivals = {}
async def stream(session):
    async with session.get(url + "/api/events") as r:
        async for line in r.content:
            if line.startswith(b"data:"):
                data = json.loads(line[5:])
                arrivals.setdefault(f"{data.get('game_id')}:{data.get('actions')}", []).append(time.monotonic())
async def pages(session):
    while True:
        t = time.monotonic()
        async with session.get(url + "/") as r:
            await r.read()
        await asyncio.sleep(max(0.0, 1 / rate - (time.monotonic() - t)))
async def main():
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=streams + 5)) as s:
        tasks = [asyncio.create_task(stream(s)) for _ in range(streams)] + [asyncio.create_task(pages(s))]
        await asyncio.sleep(0.5)
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        print(json.dumps(arrivals), flush=True)
        for t in tasks:
            t.cancel()
asyncio.run(main())
"""


class CommitClock(logging.Handler):
    """The moment of the last commit: the journal logs `confirmed ...` right after each one."""

    last = 0.0

    def emit(self, record: logging.LogRecord) -> None:
        if record.getMessage().startswith("confirmed"):
            CommitClock.last = time.monotonic()


def play(state_dir: Path, seed: int, games: int, commits: dict[str, float], pause: float = 0.0,
         moves: int | None = None) -> list[float]:
    """Key-to-frame times (ms) of `games` random games played into `state_dir` (the first `moves`
    moves only when given, `pause` seconds after each: a table's pace, for the event latency)."""
    from companion.kiosk import daemon

    empty = state_dir.parent / "no-keys"
    empty.write_text("")
    times: list[float] = []
    for g in range(games):
        d = daemon.build(daemon.parse_args(["--display", "dummy", "--state-dir", str(state_dir), "--keys", str(empty),
                                            "--players", "3", "--seed", str(seed + g)]))
        d.drain()
        d.show()
        rnd = random.Random(seed + g)
        c = d.shell.game
        while not c.game.is_over and (moves is None or c.game.ply < moves):
            if c.mode() == "order":
                keys = f"{rnd.choice(c.order_choices())}#"
            elif c.mode() == "move":
                frm, to = c.game.random_move(rnd.random)
                keys = f"{frm}#{to}#"
            else:
                keys = "#"
            for key in keys:
                t0 = time.perf_counter()
                d.step(key)
                times.append((time.perf_counter() - t0) * 1000)
            journal = d.journal.journal
            gid = journal.game_id or journal.resumed_id
            row = journal.db.execute("SELECT count(*) FROM actions WHERE game=?", (gid,)).fetchone()
            commits.setdefault(f"{gid}:{row[0]}", CommitClock.last or time.monotonic())
            time.sleep(pause)
        d.journal.journal.close()
    return times


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid: int) -> tuple[float, float]:
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--streams", type=int, default=200)
    ap.add_argument("--rate", type=float, default=50.0)
    args = ap.parse_args()
    run_log = logging.getLogger("companion.run")
    run_log.addHandler(CommitClock())
    run_log.setLevel(logging.INFO)
    tmp = Path(tempfile.mkdtemp(prefix="web-load-"))
    state = tmp / "state"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    web = subprocess.Popen([sys.executable, "-m", "companion", "web", "--state-dir", str(state), "--port", str(port)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": str(ROOT)})
    idle: list[float] = []
    loaded: list[float] = []
    latencies: list[float] = []
    try:
        for r in range(2):
            idle += play(state, args.seed + 100 * r, args.games, {})
            loader = subprocess.Popen([sys.executable, "-c", LOADER, url, str(args.streams), str(args.rate)],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            assert loader.stdout.readline().strip() == "ready", "the load client did not start"
            commits: dict[str, float] = {}
            loaded += play(state, args.seed + 100 * r + 50, args.games, {})
            play(state, args.seed + 100 * r + 70, 1, commits, pause=0.3, moves=30)
            loader.stdin.write("\n")
            loader.stdin.flush()
            arrivals = json.loads(loader.stdout.readline())
            loader.wait(timeout=10)
            latencies += [(a - t) * 1000 for n, t in commits.items() for a in arrivals.get(n, ())]
        rss, peak = rss_mb(web.pid)
    finally:
        web.terminate()
        web.wait(timeout=10)
    out = {
        "idle": {"p50_ms": round(percentile(idle, 50), 3), "p99_ms": round(percentile(idle, 99), 3), "keys": len(idle)},
        "loaded": {"p50_ms": round(percentile(loaded, 50), 3), "p99_ms": round(percentile(loaded, 99), 3),
                   "keys": len(loaded), "streams": args.streams, "page_loads_per_s": args.rate},
        "p99_ratio": round(percentile(loaded, 99) / percentile(idle, 99), 3),
        "event_latency_ms": {"p50": round(percentile(latencies, 50), 1), "p99": round(percentile(latencies, 99), 1),
                             "events": len(latencies), "streams": args.streams} if latencies else None,
        "web_rss_mb": round(rss, 1), "web_peak_rss_mb": round(peak, 1),
    }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
