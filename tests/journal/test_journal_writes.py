"""Writes that fail or are cut short (issue 11): one clear error, the journal as before the
write, writing again once there is room; a game's last action and its "finished" entry in
one transaction; a finished game's final screen back after a power cut."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys

import pytest

from companion.table.effects import Announce, GameOver, Persist, SetBrightness
from companion.journal.store import Journal, JournalError, JournalWriteError, JournalWriter


class FailingDb:
    """The journal's connection, failing (or dying) on the statements that start with `prefix`."""

    def __init__(self, db: sqlite3.Connection, prefix: str, die: bool = False) -> None:
        self.db, self.prefix, self.die, self.armed = db, prefix, die, True

    def execute(self, sql: str, *args):
        if self.armed and sql.startswith(self.prefix):
            if self.die:
                import os

                os._exit(0)  # a power cut: no rollback, no close
            raise sqlite3.OperationalError("database or disk is full")
        return self.db.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self.db, name)


def test_a_failed_batch_is_rolled_back_whole_and_writing_works_again(tmp_path, caplog):
    caplog.set_level("INFO", logger="companion.run")
    j = Journal(tmp_path)
    w = JournalWriter(j)
    w.write(Persist("clans", ({"a": "new"},), new_game=True))
    game = j.game_id
    j.db = FailingDb(j.db, "UPDATE games SET finished")
    batch = [Persist("clans", ({"a": "move", "n": 1},)), Announce("clans", "end", {"reason": "twelfth"}),
             GameOver("clans", {"totals": [3, 4]}), SetBrightness(4)]
    with pytest.raises(JournalWriteError) as err:
        w.write_all(batch)
    assert isinstance(err.value, OSError) and isinstance(err.value, JournalError)
    assert j.game_id == game and [m for m in caplog.messages if m.startswith("confirmed")] == ['confirmed {"a":"new"}']
    assert j.resume().actions == [{"a": "new"}] and j.setting("brightness") is None  # nothing of the batch
    j.db.armed = False
    assert w.write_all(batch) == [Announce("clans", "end", {"reason": "twelfth"})]  # the effects it did not take, in order
    assert j.game_id is None and j.history()[0]["result"] == {"totals": [3, 4]} and j.setting("brightness") == 4
    r = j.resume(include_finished=True)
    assert r.finished and r.actions == [{"a": "new"}, {"a": "move", "n": 1}]


POWER_CUT = """
import sys
from companion.table.effects import GameOver, Persist
from companion.journal.store import Journal, JournalWriter
sys.path.insert(0, sys.argv[2])
from test_journal_writes import FailingDb
j = Journal(sys.argv[1])
w = JournalWriter(j)
w.write(Persist("clans", ({"a": "new"}, {"a": "move", "n": 1}), new_game=True))
if sys.argv[3] == "between":
    j.db = FailingDb(j.db, "UPDATE games SET finished", die=True)  # the power goes after the last action
w.write_all([Persist("clans", ({"a": "move", "n": 2},)), GameOver("clans", {"totals": [9, 7]})])
import os
os._exit(0)  # the power goes on the final screen
"""


def _power_cut(tmp_path, where: str) -> Journal:
    here = str(__import__("pathlib").Path(__file__).parent)
    res = subprocess.run([sys.executable, "-c", POWER_CUT, str(tmp_path), here, where], capture_output=True,
                         text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    return Journal(tmp_path)


def test_power_cut_between_the_last_action_and_finished_keeps_them_together(tmp_path):
    """Issue 11.5: the last action was committed, "finished" not: the game was filed as abandoned."""
    j = _power_cut(tmp_path, "between")
    r = j.resume(include_finished=True)
    assert not r.finished and r.actions == [{"a": "new"}, {"a": "move", "n": 1}]  # neither, as before the batch


def test_power_cut_on_the_final_screen_brings_the_finished_game_back(tmp_path):
    """Issue 11.5: the box showed "New game" and the totals were gone."""
    j = _power_cut(tmp_path, "after")
    r = j.resume(include_finished=True)
    assert r.finished and r.result == {"totals": [9, 7]} and r.kind == "clans"
    assert r.actions == [{"a": "new"}, {"a": "move", "n": 1}, {"a": "move", "n": 2}]
    (h,) = j.history()
    assert h["kind"] == "clans" and h["result"] == {"totals": [9, 7]} and h["finished"] >= h["started"]


DISK_FULL = """
import json, os, resource, signal, sys
from companion.journal.store import Journal, JournalWriteError, JournalWriter
from companion.table.effects import Persist
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a full disk: write() fails with EFBIG
j = Journal(sys.argv[1])
w = JournalWriter(j)
w.write(Persist("clans", ({"a": "new"},), new_game=True))
soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
resource.setrlimit(resource.RLIMIT_FSIZE, (os.path.getsize(j.path) + 64 * 1024, hard))
written, errors = 1, []
for n in range(1, 400):
    try:
        w.write(Persist("clans", ({"a": "move", "n": n, "pad": "x" * 2000},)))
        written += 1
    except JournalWriteError as exc:
        errors.append(type(exc).__name__)
        if len(errors) == 3:
            break
resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))  # room again
w.write(Persist("clans", ({"a": "after"},)))
written += 1
j.close()
print(json.dumps({"written": written, "errors": errors}))
"""


def test_a_full_disk_raises_one_clear_error_and_writing_resumes_when_there_is_room(tmp_path):
    res = subprocess.run([sys.executable, "-c", DISK_FULL, str(tmp_path)], capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["errors"] == ["JournalWriteError"] * 3 and out["written"] > 2
    j = Journal(tmp_path)
    assert j.repairs == []  # consistent: no repair needed
    actions = j.resume().actions
    assert len(actions) == out["written"] and actions[-1] == {"a": "after"}
    assert [a["n"] for a in actions[1:-1]] == list(range(1, out["written"] - 1))  # no gap, nothing half-written
