"""`companion bench`: how fast the companion answers, as numbers (not a pass/fail test).

- key -> frame: for each key of scripted whole games, the time from handing the key to
  the controller to a finished 128x64 frame image (journal and bus transfer excluded);
  prints p50/p99/max in milliseconds. Target: p99 <= 5 ms.
- the whole path (companion.bench_path): every stage a key takes through the real daemon,
  journal commit (fsync) and the bytes handed to a real luma ssd1306 on a counting fake I2C
  bus included: `stages` (p50/p99 each), `key_to_bus`, `bus_bytes_per_key`,
  `full_frame_bytes`, `peak_rss_mb`, `rss_mb_after_games` (first, half-way, last: one
  display for the whole run, as on the box). `--journal-dir DIR`: where the journals go (the state
  directory's filesystem; default a temporary folder).
- cold start: wall time of `companion run --display dummy --keys EMPTY --players 2`
  as a fresh process (interpreter start, imports, first frame, exit). Target <= 0.35 s.

Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def key_to_frame(games: int, seed: int) -> dict:
    from companion.games.clans.controller import Controller
    from companion.table.render import render
    from companion.games.clans.board import COLORS

    times: list[float] = []
    clock = time.perf_counter

    def press(c: Controller, keys: str) -> None:
        for k in keys:
            t0 = clock()
            c.handle(k, t0)
            c.pop_effects()
            render(c.screen())
            times.append(clock() - t0)

    for g in range(games):
        rnd = random.Random(seed + g)
        c = Controller.quick_start(2 + g % 3, random.Random(seed + g))
        render(c.screen())
        while not c.game.is_over:
            frm, to = c.game.random_move(rnd.random)
            if rnd.random() < 0.1:  # some buttons-only entry and some undo, as at a real table
                press(c, "BA*")
            press(c, f"{frm}#{to}#")
            while c.mode() == "order":
                press(c, f"{rnd.choice(c.order_choices())}#")
            if rnd.random() < 0.05 and not c.game.is_over:
                press(c, "C#")
        for col in rnd.sample(COLORS, c.game.players):
            press(c, f"{COLORS.index(col) + 1}#")
        press(c, "AB")
    ms = [t * 1000 for t in times]
    return {"keys": len(ms), "p50_ms": round(percentile(ms, 50), 3), "p99_ms": round(percentile(ms, 99), 3),
            "max_ms": round(max(ms), 3), "mean_ms": round(statistics.fmean(ms), 3)}


def cold_start(runs: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        keys = os.path.join(tmp, "empty.keys")
        open(keys, "w").close()
        cmd = [sys.executable, "-m", "companion", "run", "--display", "dummy", "--keys", keys,
               "--players", "2", "--seed", "1"]
        subprocess.run(cmd, check=True, capture_output=True)  # warm the OS file cache and .pyc files
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True)
            times.append(time.perf_counter() - t0)
    return {"runs": runs, "median_s": round(statistics.median(times), 3), "min_s": round(min(times), 3),
            "max_s": round(max(times), 3)}


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="companion bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=20, help="scripted games for key -> frame (default 20)")
    ap.add_argument("--runs", type=int, default=10, help="process starts for cold start (default 10)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", choices=("latency", "path", "cold"), help="run one benchmark only")
    ap.add_argument("--journal-dir", help="a folder on the state directory's filesystem for the journals")
    args = ap.parse_args(argv)
    out: dict = {}
    if args.only in (None, "latency"):
        out["key_to_frame"] = key_to_frame(args.games, args.seed)
    if args.only in (None, "path"):
        from companion.bench_path import whole_path

        out.update(whole_path(max(1, args.games // 2), args.seed, args.journal_dir))
    if args.only in (None, "cold"):
        out["cold_start"] = cold_start(args.runs)
    print(json.dumps(out))
    return 0
