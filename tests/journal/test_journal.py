"""The journal: durable appends, resume, damaged rows and files, and SIGKILL in the middle of writing."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys

from companion.box.config import Config
from companion.table.effects import GameOver, Persist, SetBrightness, SwitchGame
from companion.journal.store import Journal, JournalWriter, find_state_dir

from tests.journal.journal_helpers import kill_after


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


def test_finished_games_become_history_and_come_back_only_when_asked(tmp_path):
    j = Journal(tmp_path)
    j.start_game("clans", [{"a": "new"}])
    j.finish({"winners": [1], "totals": [20, 31]})
    assert j.resume() is None  # the default: only an unfinished game
    r = j.resume(include_finished=True)  # the final screen after a power cut
    assert r.finished and r.result == {"winners": [1], "totals": [20, 31]} and r.actions == [{"a": "new"}]
    assert j.game_id is None  # nothing is appended to a finished game
    (h,) = j.history()
    assert h["kind"] == "clans" and h["result"] == {"winners": [1], "totals": [20, 31]}
    j.start_game("mammut", [{"a": "new"}])
    j.start_game("clans", [{"a": "new"}])  # abandons the mammut game
    assert [g["kind"] for g in j.history()] == ["mammut", "clans"]
    assert j.history()[0]["result"] == {"abandoned": True}
    j.finish({"winners": [0]})
    j.start_game("mammut", [{"a": "new"}])
    assert j.resume(include_finished=True).finished is False  # a newer game was started


def test_damaged_row_keeps_every_valid_row_after_it(tmp_path):
    j = Journal(tmp_path)
    j.start_game("clans", [{"a": "new"}] + [{"a": "move", "n": n} for n in range(1, 6)])
    j.close()
    db = sqlite3.connect(tmp_path / "journal.sqlite3")
    db.execute("UPDATE actions SET payload='{\"a\":\"move\",\"n\":9}' WHERE seq=4")  # crc no longer matches
    db.commit()
    db.close()
    damaged = (tmp_path / "journal.sqlite3").read_bytes()
    j = Journal(tmp_path)
    assert j.repairs == ["Journal damaged: kept 3 actions, lost 1, set 2 aside. Saved as journal-damaged-1.sqlite3"]
    assert (tmp_path / "journal-damaged-1.sqlite3").read_bytes() == damaged
    r = j.resume()
    assert [a.get("n") for a in r.actions] == [None, 1, 2] and r.dropped == []
    assert [(x["seq"], x["action"]["n"]) for x in j.set_aside_rows()] == [(5, 4), (6, 5)]
    j.append({"a": "move", "n": 3})  # the game goes on from the good prefix
    j.close()
    j = Journal(tmp_path)
    assert j.repairs == [] and [a.get("n") for a in j.resume().actions] == [None, 1, 2, 3]


def test_unreadable_file_is_moved_aside_not_deleted(tmp_path):
    junk = b"this is not a database" * 100
    (tmp_path / "journal.sqlite3").write_bytes(junk)
    j = Journal(tmp_path)
    assert j.resume() is None
    assert j.repairs == ["Journal damaged: kept 0 actions, lost 0. Saved as journal-damaged-1.sqlite3"]
    assert (tmp_path / "journal-damaged-1.sqlite3").read_bytes() == junk
    j.start_game("clans", [{"a": "new"}])
    assert Journal(tmp_path).resume().actions == [{"a": "new"}]


def test_find_state_dir_one_way(monkeypatch, tmp_path):
    monkeypatch.setenv("STATE_DIRECTORY", "/run/x:/run/y")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert find_state_dir("/explicit", Config(), on_box=True) == "/explicit"
    assert find_state_dir(None, Config(), on_box=True) == "/run/x"  # systemd's StateDirectory=
    assert find_state_dir(None, Config(state_dir="/srv/c"), on_box=False) == "/srv/c"
    assert find_state_dir(None, Config(), on_box=False) == str(tmp_path / "companion")  # a laptop
    assert find_state_dir(None, None, on_box=False) == str(tmp_path / "companion")
    monkeypatch.delenv("STATE_DIRECTORY")
    assert find_state_dir(None, Config(), on_box=True) == "/var/lib/companion"


def test_writer_opens_entries_finishes_and_keeps_settings(tmp_path, caplog):
    j = Journal(tmp_path)
    w = JournalWriter(j)
    caplog.set_level("INFO", logger="companion.run")
    w.write(Persist("clans", ({"a": "players", "n": 2}, {"a": "new"}), new_game=True))
    w.write(Persist("clans", ({"a": "move", "from": 1, "to": 2},)))
    assert w.write(SetBrightness(2)) and not w.write(SwitchGame("mammut"))
    first = j.game_id
    w.write(GameOver("clans", {"winners": [0]}))
    assert j.game_id is None
    w.write(Persist("mammut", ({"a": "new", "tribes": 3},), new_game=True))
    assert j.game_id != first
    j.close()
    j2 = Journal(tmp_path)
    r = j2.resume()
    assert (r.kind, r.actions) == ("mammut", [{"a": "new", "tribes": 3}])
    assert j2.history()[0]["result"] == {"winners": [0]}
    assert j2.setting("brightness") == 2 and j2.setting("other") is None
    lines = [m for m in caplog.messages if m.startswith("confirmed ")]
    assert lines == ['confirmed {"a":"players","n":2}', 'confirmed {"a":"new"}',
                     'confirmed {"a":"move","from":1,"to":2}', 'confirmed {"a":"new","tribes":3}']


WRITER = """
import sys
from companion.journal.store import Journal
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
        # Kill after a random number of new confirmations (an event, not a time: on a slow
        # machine a fixed sleep ends before the writer has even imported the journal).
        written = kill_after(proc, rng.randint(1, 40), lambda line: line.startswith("confirmed"))
        lines = [ln for ln in written.splitlines() if ln.startswith("confirmed")]
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
