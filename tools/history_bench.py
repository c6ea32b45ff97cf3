"""A club's years in one journal: build N finished games (default 5,000) and time what reads them.

    python tools/history_bench.py [--games 5000] [--runs 5] [--keep DIR]

Builds a journal of N finished 2-4 player Clans games (real engine games, names from a
club of 12, a game every ~5 hours over the last years, each with its full record) by
`companion import` of their records, then prints one JSON object: the journal's size,
how long `companion history --json` and `companion stats --json` take as processes
(median of --runs), the same reading in-process (read_history + statistics), and the
kiosk's start-up to its first frame (`companion run --display dummy` resuming that
journal) next to the same start-up with an empty journal.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from companion.games.clans.board import COLORS
from companion.games.clans.commands import play_random_game
from companion.games.clans.record import Record
from companion.history.importer import import_records
from companion.history.plays import read_history
from companion.history.stats import table_stats

CLUB = ["Anna", "Ben", "Chiara", "Dario", "Elena", "Franz", "Greta", "Hugo", "Ines", "Jonas", "Katia", "Luca"]


def records(n: int, seed: int) -> list[dict]:
    rnd = random.Random(seed)
    start = time.time() - n * 5 * 3600
    out = []
    for i in range(n):
        players = rnd.choice((2, 3, 3, 4))
        game = play_random_game(rnd, players)
        colors = rnd.sample(COLORS, players)
        names = rnd.sample(CLUB, players)
        record = Record.from_game(game, colors, extra={"names": names}).to_dict()
        began = start + i * 5 * 3600 + rnd.random()
        record["companion"] = {"game": "clans", "started": began, "finished": began + rnd.randint(20, 60) * 60,
                               "actions": len(game.moves) + 3}
        out.append(record)
    return out


def timed(cmd: list[str], runs: int) -> dict:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        times.append(time.perf_counter() - t0)
    return {"median_s": round(statistics.median(times), 3), "min_s": round(min(times), 3),
            "max_s": round(max(times), 3)}


def start_up(state: Path, runs: int) -> dict:
    keys = state.parent / "no-keys"
    keys.write_text("")
    cmd = [sys.executable, "-m", "companion", "run", "--display", "dummy", "--keys", str(keys),
           "--state-dir", str(state)]
    subprocess.run(cmd, check=True, capture_output=True)  # warm the file cache and .pyc files
    return timed(cmd, runs)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", help="build the journal in DIR (kept) instead of a temporary folder")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(args.keep or tmp)
        state, empty = base / "club", base / "empty"
        t0 = time.perf_counter()
        report = import_records(state, records(args.games, args.seed))
        built = time.perf_counter() - t0
        t0 = time.perf_counter()
        history = read_history(state, full=False)
        table_stats(history.finished)
        in_process = time.perf_counter() - t0
        journal = state / "journal.sqlite3"
        companion = [sys.executable, "-m", "companion"]
        out = {
            "games": len(report.imported), "journal_mb": round(journal.stat().st_size / 1e6, 1),
            "build_s": round(built, 1),
            "read_and_stats_in_process_s": round(in_process, 3),
            "history_json": timed(companion + ["history", "--state-dir", str(state), "--json"], args.runs),
            "stats_json": timed(companion + ["stats", "--state-dir", str(state), "--json"], args.runs),
            "stats_tables_json": timed(companion + ["stats", "--state-dir", str(state), "--json", "--tables"],
                                       args.runs),
            "start_up_with_history": start_up(state, args.runs),
            "start_up_empty_journal": start_up(empty, args.runs),
        }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
