"""Helpers for the journal tests: journals with known actions, power-cut snapshots, page damage."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import threading
from pathlib import Path
from typing import Callable

from companion.journal.store import Journal


def moves(n: int, pad: int = 0) -> list[dict]:
    return [{"a": "move", "n": i, **({"pad": "x" * pad} if pad else {})} for i in range(1, n + 1)]


def wal_only(j: Journal) -> Journal:
    """`j` writes its commits to the WAL and never checkpoints them, as the previous version did
    (and as a commit does while the table's page holds the checkpoint back): a damaged or lost
    WAL then loses commits, which is what the repair must detect."""
    j._checkpoint = lambda: None
    return j


def journal_with(state: Path, n: int, *, history: bool = False, pad: int = 0, one_tx: bool = False,
                 checkpoints: bool = True) -> Journal:
    """A journal holding an unfinished game of `n` moves (each its own transaction unless `one_tx`),
    after a finished game and a brightness setting when `history`; without `checkpoints`, the
    moves are in the WAL only (`wal_only`)."""
    j = Journal(state)
    if not checkpoints:
        wal_only(j)
    if history:
        j.start_game("mammut", [{"a": "new"}, {"a": "roll"}])
        j.finish({"winners": [1], "totals": [12, 30]})
        j.set_setting("brightness", 2)
    j.start_game("clans", [])
    if one_tx:
        j.extend(moves(n, pad))
    else:
        for action in moves(n, pad):
            j.append(action)
    return j


def power_cut_copy(state: Path, dest: Path, shm: bool = False) -> Path:
    """The journal's files as a power cut would leave them (copied while the journal is open)."""
    dest.mkdir(parents=True, exist_ok=True)
    for suffix in ("", "-wal") + (("-shm",) if shm else ()):
        src = state / f"journal.sqlite3{suffix}"
        if src.exists():
            shutil.copyfile(src, dest / src.name)
    return dest


def page_size(path: Path) -> int:
    size = int.from_bytes(path.read_bytes()[16:18], "big")
    return 65536 if size == 1 else size


def root_page(path: Path, table: str) -> int:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT rootpage FROM sqlite_master WHERE name=?", (table,)).fetchone()[0]
    finally:
        db.close()


def overwrite(path: Path, offset: int, data: bytes) -> None:
    with open(path, "r+b") as fh:
        fh.seek(offset)
        fh.write(data)


def files(state: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(state.iterdir()) if p.is_file()}


def plain_read(state: Path, scratch: Path) -> int:
    """How many valid actions plain SQLite reads from a copy of the journal: one scan, up to the first error."""
    from companion.journal.repair import valid_action

    scratch.mkdir(parents=True, exist_ok=True)
    for suffix in ("", "-wal"):
        src = state / f"journal.sqlite3{suffix}"
        if src.exists():
            shutil.copyfile(src, scratch / src.name)
    n = 0
    try:
        db = sqlite3.connect(scratch / "journal.sqlite3")
        try:
            for payload, crc in db.execute("SELECT payload, crc FROM actions ORDER BY rowid"):
                n += valid_action(payload, crc) is not None
        finally:
            db.close()
    except (sqlite3.Error, ValueError):  # ValueError: SQLite's error message itself is not UTF-8
        pass
    return n


def kept_rows(state: Path) -> tuple[list[dict], list[dict]]:
    """The fresh journal's actions in play and set aside (payload dicts), read without the Journal class."""
    import json

    db = sqlite3.connect(state / "journal.sqlite3")
    try:
        play = [json.loads(r[0]) for r in db.execute("SELECT payload FROM actions ORDER BY game, seq")]
        aside = [json.loads(r[0]) for r in db.execute("SELECT payload FROM set_aside ORDER BY game, seq")]
    finally:
        db.close()
    return play, aside


def kill_after(proc: subprocess.Popen, n: int, counts: Callable[[str], bool] = lambda line: True) -> str:
    """Read `proc`'s output until its `n`th line that `counts` (an event, never a time), SIGKILL it
    there, and return everything it wrote. A writer that ends first, or hangs, fails the test."""
    seen, lines = 0, []
    timer = threading.Timer(300, proc.kill)  # a hung writer fails the test, never the run
    timer.start()
    try:
        for line in proc.stdout:
            lines.append(line)
            seen += counts(line)
            if seen == n:
                os.kill(proc.pid, signal.SIGKILL)
                break
        out, _ = proc.communicate()
    finally:
        timer.cancel()
    assert seen == n, "the writer ended before it was killed"
    return "".join(lines) + out
