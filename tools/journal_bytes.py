"""Bytes written to the card per journaled move, through the real JournalWriter.

    python tools/journal_bytes.py [--moves 200] [--dir DIR] [--seed 1]

Plays random whole Clans games (2-4 players, the engine's own legal moves and order
answers) and hands every key's effects to a `JournalWriter` on a journal in a fresh
folder under DIR (default: the current directory; give a folder on the filesystem to
measure, e.g. the SD card: /tmp is often a tmpfs that writes nothing to a disk). It
stops after --moves keys that changed the game (each is one commit: a move, an order
answer, the reveal) and prints one JSON object with two runs of the same games:
`checkpointed`, the journal as it is (each commit copied into the database file before
it is confirmed), and `wal_only`, the same journal with that checkpoint switched off (as
the previous version wrote: every commit in the WAL until SQLite's own checkpoint at
1,000 pages). Each is counted from this process's /proc/self/io over the journaling alone:

- `write_bytes_per_move`: what the kernel counted as sent to the storage layer (pages
  dirtied: 4 KB each, once per fsync), the closest to what reaches the card;
- `wchar_per_move`: what SQLite handed to write() (WAL frames, database pages, headers);
- `ms_per_move_p50` / `p99`: how long `write_all` took (commit, fsyncs, checkpoint);
- the journal's files at the end (the WAL stays small when each commit is checkpointed).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from companion.games.clans.controller import Controller
from companion.table.effects import Persist
from companion.journal.store import Journal, JournalWriter


def io_counters() -> dict[str, int]:
    """This process's /proc/self/io counters (Linux)."""
    out = {}
    for line in Path("/proc/self/io").read_text().splitlines():
        key, _, value = line.partition(":")
        out[key.strip()] = int(value)
    return out


def keys_of_a_game(players: int, rnd: random.Random):
    """A whole game's keys, as (controller, typed keys) steps: random legal moves, order answers, the reveal."""
    c = Controller.quick_start(players, random.Random(rnd.random()))
    yield c, ""  # the game's first actions (setup)
    while not c.game.is_over:
        frm, to = c.game.random_move(rnd.random)
        yield c, f"{frm}#{to}#"
        while c.mode() == "order":
            yield c, f"{rnd.choice(c.order_choices())}#"
    for i in rnd.sample(range(1, 6), players):
        yield c, f"{i}#"


def measure(folder: Path, moves: int, seed: int, checkpoints: bool = True) -> dict:
    """Journal `moves` game-changing keys in `folder`; what was written (see the module doc)."""
    journal = Journal(folder)
    if not checkpoints:
        journal._checkpoint = lambda: None  # the previous version: SQLite's own checkpoint only
    writer = JournalWriter(journal)
    times: list[float] = []
    rnd = random.Random(seed)
    commits = actions = games = 0
    before = io_counters()
    while commits < moves:
        games += 1
        for c, typed in keys_of_a_game(rnd.choice((2, 3, 4)), rnd):
            for key in typed:
                c.handle(key, 0)
            effects = c.pop_effects()
            persisted = sum(len(e.actions) for e in effects if isinstance(e, Persist))
            start = time.perf_counter()
            writer.write_all(effects)
            if persisted:
                times.append((time.perf_counter() - start) * 1000)
                commits += 1
                actions += persisted
            if commits >= moves:
                break
    after = io_counters()
    sizes = {p.name: p.stat().st_size for p in sorted(folder.iterdir()) if p.is_file()}
    journal.close()
    written = after["write_bytes"] - before["write_bytes"]
    wchar = after["wchar"] - before["wchar"]
    return {"moves": commits, "actions": actions, "games": games,
            "write_bytes": written, "write_bytes_per_move": round(written / commits, 1),
            "wchar": wchar, "wchar_per_move": round(wchar / commits, 1),
            "write_calls_per_move": round((after["syscw"] - before["syscw"]) / commits, 2),
            "ms_per_move_p50": round(statistics.median(times), 3),
            "ms_per_move_p99": round(statistics.quantiles(times, n=100)[98], 3),
            "files_at_the_end": sizes}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=200, help="game-changing keys to journal (default 200)")
    ap.add_argument("--dir", default=".", help="where to make the scratch journal (default: here)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    out = {}
    for name, checkpoints in (("checkpointed", True), ("wal_only", False)):
        with tempfile.TemporaryDirectory(prefix="journal-bytes-", dir=args.dir) as tmp:
            out[name] = measure(Path(tmp) / "state", args.moves, args.seed, checkpoints)
    out["ratio_write_bytes"] = round(out["checkpointed"]["write_bytes"] / max(1, out["wal_only"]["write_bytes"]), 2)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
