"""A card that lost the journal's -wal file, with or without its -shm (issue 31.9, case 2).

Before: every commit lived in the WAL until SQLite's automatic checkpoint (1,000 pages,
some 450 moves), so a lost WAL took every move since silently (24 of 24 here). Now each
commit is checkpointed into the database file before the writer confirms it; when a reader
holds a checkpoint back, the `journal.sqlite3-behind` marker says so until one completes,
and a start that finds it without the WAL says saves were lost."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from companion.journal import store as journal_mod
from companion.table.effects import Persist
from companion.journal.store import Journal, JournalWriter

from tests.journal.journal_helpers import files, journal_with, kill_after, moves, power_cut_copy

WAIT = 60.0  # an upper bound for any one event; a passing run never waits it out


def lose(live: Path, dest: Path, keep_shm: bool) -> Path:
    """The journal's files as a card that lost its -wal (and its -shm unless `keep_shm`) leaves
    them, copied while the journal is open (a power cut, then the files gone)."""
    dest.mkdir(parents=True)
    for suffix in ("", "-behind") + (("-shm",) if keep_shm else ()):
        if (live / f"journal.sqlite3{suffix}").exists():
            shutil.copyfile(live / f"journal.sqlite3{suffix}", dest / f"journal.sqlite3{suffix}")
    return dest


def write_24(live: Path) -> Journal:
    j = Journal(live)
    w = JournalWriter(j)
    w.write(Persist("clans", ({"a": "new"},), new_game=True))
    for action in moves(24):
        w.write(Persist("clans", (action,)))
    return j


@pytest.mark.parametrize("keep_shm", [False, True], ids=["wal-and-shm-lost", "wal-lost-alone"])
def test_24_confirmed_moves_survive_a_lost_wal(tmp_path, keep_shm):
    j = write_24(tmp_path / "live")
    assert (tmp_path / "live" / "journal.sqlite3-wal").stat().st_size > 0  # the log is there, and not needed
    state = lose(tmp_path / "live", tmp_path / "state", keep_shm)
    j.close()
    j = Journal(state)
    assert j.repairs == []
    assert [a.get("n") for a in j.resume().actions] == [None] + list(range(1, 25))  # 24 of 24


def test_a_journal_the_previous_version_left_in_its_wal_is_checkpointed_at_the_next_start(tmp_path):
    """An upgraded kiosk, killed by a power cut: its moves are in the WAL only until the next start."""
    old = journal_with(tmp_path / "old", 10, checkpoints=False)  # as the previous version wrote it
    state = power_cut_copy(tmp_path / "old", tmp_path / "state", shm=True)
    old.close()
    j = Journal(state)  # the new version starts, and nobody presses a key
    lost = lose(state, tmp_path / "lost", keep_shm=False)
    j.close()
    assert [a["n"] for a in Journal(lost).resume().actions] == list(range(1, 11))


class Reader:
    """The table's page reading an older snapshot: a read transaction open on its own connection,
    which holds any checkpoint back from the frames committed after it began."""

    def __init__(self, state: Path) -> None:
        self.db = sqlite3.connect(state / "journal.sqlite3", isolation_level=None, check_same_thread=False)
        self.db.execute("BEGIN")
        self.db.execute("SELECT count(*) FROM actions").fetchone()

    def done(self) -> None:
        self.db.execute("COMMIT")
        self.db.close()


@pytest.mark.parametrize("keep_shm", [False, True], ids=["wal-and-shm-lost", "wal-lost-alone"])
def test_a_lost_wal_holding_saves_a_reader_kept_from_the_database_is_detected(tmp_path, monkeypatch, keep_shm):
    monkeypatch.setattr(journal_mod, "CHECKPOINT_WAIT_MS", 0)  # the reader never ends: do not wait for it
    live = tmp_path / "live"
    j = Journal(live)
    j.start_game("clans", [{"a": "new"}])
    assert not (live / "journal.sqlite3-behind").exists()
    reader = Reader(live)
    for action in moves(5):
        j.append(action)
    assert j.behind and (live / "journal.sqlite3-behind").exists()  # confirmed, in the WAL only
    state = lose(live, tmp_path / "state", keep_shm)
    before = files(state)
    reader.done()
    j.close()
    assert not (live / "journal.sqlite3-behind").exists()  # the close copied the WAL in
    j = Journal(state)
    assert j.repairs == ["Journal damaged: kept 1 actions, lost 0 + at least 1 later save(s). "
                         "Saved as journal-damaged-1.sqlite3"]
    assert (state / "journal-damaged-1.sqlite3").read_bytes() == before["journal.sqlite3"]
    assert (state / "journal-damaged-1.sqlite3-behind").exists()  # the evidence, kept
    assert j.resume().actions == [{"a": "new"}]
    j.close()
    assert Journal(state).repairs == []  # said once


def test_a_held_back_checkpoint_catches_up_at_the_next_commit(tmp_path, monkeypatch):
    monkeypatch.setattr(journal_mod, "CHECKPOINT_WAIT_MS", 0)
    live = tmp_path / "live"
    j = Journal(live)
    j.start_game("clans", [{"a": "new"}])
    reader = Reader(live)
    j.append({"a": "move", "n": 1})
    assert j.behind
    assert (live / "journal.sqlite3-behind").exists()
    reader.done()
    j.append({"a": "move", "n": 2})
    assert not j.behind and not (live / "journal.sqlite3-behind").exists()
    state = lose(live, tmp_path / "state", keep_shm=False)
    j.close()
    assert [a.get("n") for a in Journal(state).resume().actions] == [None, 1, 2]


def test_the_checkpoint_waits_for_a_reader_of_an_older_snapshot(tmp_path, monkeypatch):
    """The page's reads are short: the checkpoint waits for one to end rather than leave the save in the WAL."""
    monkeypatch.setattr(journal_mod, "CHECKPOINT_WAIT_MS", 30_000)  # generous on a loaded machine
    live = tmp_path / "live"
    j = Journal(live)
    j.start_game("clans", [{"a": "new"}])
    reader = Reader(live)
    probe = sqlite3.connect(live / "journal.sqlite3", isolation_level=None, timeout=0, check_same_thread=False)
    checkpointing, waited = threading.Event(), threading.Event()
    j.db.set_trace_callback(lambda sql: checkpointing.set() if "wal_checkpoint" in sql else None)

    def end_the_read_once_the_checkpoint_waits() -> None:
        checkpointing.wait(WAIT)
        deadline = time.monotonic() + WAIT
        tick = threading.Event()
        while time.monotonic() < deadline:  # polling for the event: the waiting checkpoint holds the write lock
            try:
                probe.execute("BEGIN IMMEDIATE")
                probe.execute("ROLLBACK")
            except sqlite3.OperationalError:
                waited.set()
                break
            tick.wait(0.005)
        reader.done()

    ender = threading.Thread(target=end_the_read_once_the_checkpoint_waits)
    ender.start()
    j.append({"a": "move", "n": 1})
    ender.join(WAIT)
    probe.close()
    assert waited.is_set() and not j.behind
    state = lose(live, tmp_path / "state", keep_shm=False)
    j.close()
    assert [a.get("n") for a in Journal(state).resume().actions] == [None, 1]


WRITER = """
import sys
from companion.table.effects import Persist
from companion.journal.store import Journal, JournalWriter
j = Journal(sys.argv[1])
w = JournalWriter(j)
r = j.resume()
n = len(r.actions) if r else 0
if r is None:
    w.write(Persist("clans", ({"a": "new"},), new_game=True)); n = 1
    print("confirmed 1", flush=True)
while True:
    n += 1
    w.write(Persist("clans", ({"a": "move", "n": n},)))
    print(f"confirmed {n}", flush=True)
"""


def test_kill_9_mid_game_then_the_wal_lost_keeps_every_confirmed_move(tmp_path):
    """SIGKILL right after a confirmation, then the card loses the WAL (and, every other time, the -shm)."""
    import random

    rng = random.Random(31)
    state = tmp_path / "state"
    confirmed = torn = 0
    for round_ in range(6):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(state)], stdout=subprocess.PIPE, text=True)
        confirmed = int(kill_after(proc, rng.randint(1, 30)).split()[-1])
        for suffix in ("-wal",) + (("-shm",) if round_ % 2 else ()):
            (state / f"journal.sqlite3{suffix}").unlink()
        j = Journal(state)
        got = [a.get("n", 1) for a in j.resume().actions]
        j.close()
        if j.repairs:  # the kill tore the checkpoint of the save it cut short, then its WAL went: said
            (sentence,) = j.repairs
            assert sentence.startswith("Journal damaged: kept "), sentence
            torn += 1
        else:
            assert got[:confirmed] == list(range(1, confirmed + 1))  # every confirmed move
            assert len(got) in (confirmed, confirmed + 1)  # and at most the one being confirmed at the kill
        confirmed = len(got)
    assert confirmed > 6 and torn <= 1
