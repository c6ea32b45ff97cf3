"""The journal: durable appends, resume, damaged rows and files, and SIGKILL in the middle of writing."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time

from companion.table.journal import Journal, default_state_dir


def test_append_and_resume(tmp_path):
    j = Journal(tmp_path)
    j.start_game("clans", [{"a": "new", "players": 3}])
    j.append({"a": "move", "from": 12, "to": 13})
    j.extend([{"a": "undo"}, {"a": "move", "from": 1, "to": 2}])
    j.close()
    r = Journal(tmp_path).resume()
    assert r is not None and r.kind == "clans" and r.dropped == []
    assert r.actions == [{"a": "new", "players": 3}, {"a": "move", "from": 12, "to": 13}, {"a": "undo"},
                         {"a": "move", "from": 1, "to": 2}]


def test_resume_continues_the_same_game(tmp_path):
    j = Journal(tmp_path)
    j.start_game("clans", [{"a": "new"}])
    j.close()
    j = Journal(tmp_path)
    assert len(j.resume().actions) == 1
    j.append({"a": "move"})
    j.close()
    assert [a["a"] for a in Journal(tmp_path).resume().actions] == ["new", "move"]


def test_finished_games_become_history_and_do_not_resume(tmp_path):
    j = Journal(tmp_path)
    j.start_game("clans", [{"a": "new"}])
    j.finish({"winners": [1], "totals": [20, 31]})
    assert j.resume() is None
    (h,) = j.history()
    assert h["kind"] == "clans" and h["result"] == {"winners": [1], "totals": [20, 31]}
    j.start_game("mammut", [{"a": "new"}])
    j.start_game("clans", [{"a": "new"}])  # abandons the mammut game
    assert [g["kind"] for g in j.history()] == ["mammut", "clans"]
    assert j.history()[0]["result"] == {"abandoned": True}


def test_damaged_row_is_dropped_with_everything_after_it(tmp_path):
    j = Journal(tmp_path)
    j.start_game("clans", [{"a": "new"}] + [{"a": "move", "n": n} for n in range(1, 6)])
    j.close()
    db = sqlite3.connect(tmp_path / "journal.sqlite3")
    db.execute("UPDATE actions SET payload='{\"a\":\"move\",\"n\":9}' WHERE seq=4")  # crc no longer matches
    db.commit()
    db.close()
    j = Journal(tmp_path)
    r = j.resume()
    assert [a.get("n") for a in r.actions] == [None, 1, 2]
    assert r.dropped == ["action 4 is damaged (checksum mismatch); dropped it and 2 later action(s)"]
    j.append({"a": "move", "n": 3})  # the game goes on from the good prefix
    j.close()
    assert [a.get("n") for a in Journal(tmp_path).resume().actions] == [None, 1, 2, 3]


def test_unreadable_file_is_moved_aside_not_deleted(tmp_path):
    (tmp_path / "journal.sqlite3").write_bytes(b"this is not a database" * 100)
    j = Journal(tmp_path)
    assert j.resume() is None
    assert any("moved aside" in n for n in j.notes)
    assert [p.name for p in tmp_path.glob("journal.sqlite3.damaged-*")]
    j.start_game("clans", [{"a": "new"}])
    assert Journal(tmp_path).resume().actions == [{"a": "new"}]


def test_default_state_dir(monkeypatch):
    monkeypatch.setenv("STATE_DIRECTORY", "/run/x:/run/y")
    assert str(default_state_dir()) == "/run/x"
    monkeypatch.delenv("STATE_DIRECTORY")
    assert str(default_state_dir()) == "/var/lib/companion"


WRITER = """
import sys
from companion.table.journal import Journal
j = Journal(sys.argv[1])
r = j.resume()
n = len(r.actions) if r else 0
if r is None:
    j.start_game("clans", [{"a": "new"}]); n = 1
    print("confirmed 1", flush=True)
while True:
    n += 1
    j.append({"a": "move", "n": n})
    print(f"confirmed {n}", flush=True)
"""


def test_sigkill_while_appending_never_loses_or_invents_actions(tmp_path):
    rng = random.Random(11)
    confirmed = 0
    for _ in range(8):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path)], stdout=subprocess.PIPE, text=True)
        time.sleep(rng.uniform(0.05, 0.4))
        os.kill(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        lines = [ln for ln in out.splitlines() if ln.startswith("confirmed")]
        if lines:
            confirmed = int(lines[-1].split()[1])
        r = Journal(tmp_path).resume()
        got = [a.get("n", 1) for a in r.actions]
        assert r.dropped == []
        # everything confirmed is there, in order; at most the one action being written when
        # the kill came is there too (committed, its confirmation not yet printed)
        assert got[:confirmed] == list(range(1, confirmed + 1))
        assert len(got) in (confirmed, confirmed + 1)
        assert got == list(range(1, len(got) + 1))
        confirmed = len(got)
    assert confirmed > 8
