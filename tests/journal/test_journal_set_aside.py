"""Actions set aside (issue 31.9, case 1): a journal row the game refuses (its checksum valid) is
set aside with the rest of its game, and the journal's files are first kept as they were, as
`journal-damaged-N.sqlite3` (the name and function a repair uses), named in the table's message.
`truncate_to` is safe right after opening, without room for the copy, and on a failing card."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from companion.kiosk import daemon
from companion.journal import store as journal_mod
from companion.journal.store import Journal

from tests.journal.journal_helpers import journal_with
from tests.journal.test_journal_writes import FailingDb


def _live_files(state: Path) -> dict[str, bytes]:
    return {s: Path(f"{state / 'journal.sqlite3'}{s}").read_bytes() for s in ("", "-wal")}


def _actions_in_copy(copy: Path, scratch: Path) -> list[int]:
    """The moves a kept copy holds, read as a journal of its own (its database and WAL together)."""
    scratch.mkdir()
    for suffix in ("", "-wal"):
        if Path(f"{copy}{suffix}").exists():
            shutil.copyfile(f"{copy}{suffix}", scratch / f"journal.sqlite3{suffix}")
    j = Journal(scratch)
    try:
        assert j.repairs == []
        return [a["n"] for a in j.resume().actions]
    finally:
        j.close()


def test_truncate_to_keeps_the_journals_files_as_they_were_and_names_the_copy(tmp_path):
    state = tmp_path / "state"
    j = journal_with(state, 6)
    r = j.resume()
    assert len(r.actions) == 6
    before = _live_files(state)
    assert j.truncate_to(3, "move 4 refused by the game", r.game_id) == 3
    assert j.repairs == ["Game replays 3 actions: 3 later set aside (move 4 refused by the game). "
                         "Saved as journal-damaged-1.sqlite3"]
    assert j.last_copy == state / "journal-damaged-1.sqlite3"
    assert (state / "journal-damaged-1.sqlite3").read_bytes() == before[""]  # byte for byte
    assert (state / "journal-damaged-1.sqlite3-wal").read_bytes() == before["-wal"]
    assert not (state / "journal-damaged-1.sqlite3-shm").exists()  # an index SQLite rebuilds
    assert not list(state.glob(".journal.sqlite3.salvaging-*"))  # no scratch left
    j.append({"a": "move", "n": 40})
    j.close()
    assert _actions_in_copy(state / "journal-damaged-1.sqlite3", tmp_path / "copy") == [1, 2, 3, 4, 5, 6]
    j = Journal(state)
    assert j.repairs == [] and [a["n"] for a in j.resume().actions] == [1, 2, 3, 40]
    assert [x["seq"] for x in j.set_aside_rows()] == [4, 5, 6]


def test_the_copy_keeps_moves_that_live_in_the_wal_only(tmp_path):
    """A journal the previous version wrote holds its last moves in the WAL alone: the copy keeps it."""
    state = tmp_path / "state"
    j = journal_with(state, 8, checkpoints=False)
    assert j.truncate_to(2, "move 3 refused by the game") == 6
    copy = state / "journal-damaged-1.sqlite3"
    alone = tmp_path / "alone.sqlite3"
    shutil.copyfile(copy, alone)  # the copy's database without its WAL: no move in it
    db = sqlite3.connect(alone)
    tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master")}
    assert "actions" not in tables or db.execute("SELECT count(*) FROM actions").fetchone() == (0,)
    db.close()
    assert _actions_in_copy(copy, tmp_path / "copy") == list(range(1, 9))


def test_truncate_to_right_after_opening_sets_the_newest_game_aside(tmp_path):
    """The crash-loop guard calls it on a journal just opened, maybe before anything is resumed."""
    state = tmp_path / "state"
    journal_with(state, 5, history=True).close()
    j = Journal(state)  # nothing resumed: no game id known
    assert j.truncate_to(4, "it crashed twice here") == 1  # the newest game (the clans one)
    assert j.last_copy.name == "journal-damaged-1.sqlite3"
    assert [a["n"] for a in j.resume().actions] == [1, 2, 3, 4]
    j.append({"a": "move", "n": 50})  # continues from action 4
    assert j.truncate_to(5, "again") == 0 and len(j.repairs) == 1  # nothing after 5: nothing done, nothing said
    assert not (state / "journal-damaged-2.sqlite3").exists()
    assert j.truncate_to(-1, "everything", 2) == 5  # clamped to 0: every action of game 2 set aside
    assert j.repairs[-1].startswith("Game replays 0 actions: 5 later set aside (everything)")
    j.append({"a": "move", "n": 60})  # the game's action 1 again
    j.close()
    j = Journal(state)
    assert j.resume().actions == [{"a": "move", "n": 60}]
    assert j.history()[0]["result"] == {"winners": [1], "totals": [12, 30]}
    assert sorted((r["seq"], r["reason"]) for r in j.set_aside_rows()) == [
        (1, "everything"), (2, "everything"), (3, "everything"), (4, "everything"), (5, "everything"),
        (5, "it crashed twice here")]


def test_no_room_for_the_copy_still_sets_the_actions_aside(tmp_path, monkeypatch):
    state = tmp_path / "state"
    j = journal_with(state, 4)

    def full(path, copy=False):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(journal_mod, "keep_aside", full)
    assert j.truncate_to(2, "move 3 refused by the game") == 2
    assert j.repairs == ["Game replays 2 actions: 2 later set aside (move 3 refused by the game). "
                         "No copy kept (no room?)"]
    assert j.last_copy is None and [a["n"] for a in j.resume().actions] == [1, 2]


def test_a_set_aside_the_card_refuses_is_made_by_the_next_save(tmp_path):
    state = tmp_path / "state"
    j = journal_with(state, 5)
    j.resume()
    j.db = FailingDb(j.db, "INSERT INTO set_aside")  # a failing card: the set-aside cannot be written
    assert j.truncate_to(2, "move 3 refused by the game") == 0  # never raises
    assert j.repairs == ["Game replays 2 actions: the later ones are set aside at the next save "
                         "(move 3 refused by the game)"]
    assert [a["n"] for a in j.resume().actions] == [1, 2]  # the refused ones are never replayed
    try:
        j.append({"a": "move", "n": 30})
        raise AssertionError("a save on a failing card must fail")
    except journal_mod.JournalWriteError:
        pass
    j.db.armed = False  # the card works again
    j.append({"a": "move", "n": 30})  # the set-aside first, then the move, in one transaction
    j.close()
    j = Journal(state)
    assert [a["n"] for a in j.resume().actions] == [1, 2, 30]
    assert [x["action"]["n"] for x in j.set_aside_rows()] == [3, 4, 5]


def _damage_after_the_check(state: Path, seq: int) -> Journal:
    """A journal checked healthy at its start, whose row `seq` goes bad before the game is resumed."""
    j = Journal(state)
    other = sqlite3.connect(state / "journal.sqlite3")
    other.execute("UPDATE actions SET crc=crc+1 WHERE seq=?", (seq,))
    other.commit()
    other.close()
    return j


def test_a_damaged_row_found_while_resuming_is_set_aside_with_a_copy(tmp_path):
    state = tmp_path / "state"
    journal_with(state, 5).close()
    j = _damage_after_the_check(state, 3)
    before = _live_files(state)
    assert [a["n"] for a in j.resume().actions] == [1, 2]
    assert j.repairs == ["Journal: action 3 is damaged, 3 action(s) set aside. Saved as journal-damaged-1.sqlite3"]
    assert (state / "journal-damaged-1.sqlite3").read_bytes() == before[""]
    assert (state / "journal-damaged-1.sqlite3-wal").read_bytes() == before["-wal"]


def test_a_damaged_row_found_while_resuming_is_set_aside_by_the_next_save_when_the_card_refuses(tmp_path):
    state = tmp_path / "state"
    journal_with(state, 5).close()
    j = _damage_after_the_check(state, 3)
    j.db = FailingDb(j.db, "INSERT INTO set_aside")
    assert [a["n"] for a in j.resume().actions] == [1, 2]
    assert j.repairs == ["Journal: action 3 is damaged, 3 action(s) set aside"]
    j.db.armed = False
    j.append({"a": "move", "n": 30})  # without the set-aside first, action 3 would still be there
    j.close()
    j = Journal(state)
    assert [a["n"] for a in j.resume().actions] == [1, 2, 30]
    assert [x["seq"] for x in j.set_aside_rows()] == [3, 4, 5]


def test_the_daemon_says_which_copy_holds_a_refused_move(tmp_path, caplog):
    """A row holding an illegal move (its checksum valid): the game replays up to it and the table is told."""
    state, keys = tmp_path / "state", tmp_path / "keys"
    keys.write_text("12#13#\n")
    args = ["--display", "dummy", "--keys", str(keys), "--state-dir", str(state)]
    assert daemon.build(daemon.parse_args(args + ["--players", "2", "--seed", "1"])).run() == 0
    j = Journal(state)
    actions = j.resume().actions
    j.extend([{"a": "move", "from": 12, "to": 13}, {"a": "move", "from": 1, "to": 2}])  # 12 is empty now
    j.close()
    before = (state / "journal.sqlite3").read_bytes()  # closed: no WAL
    keys.write_text("")
    d = daemon.build(daemon.parse_args(args))
    screen = " ".join(d.shell.screen().text().split())
    d.shell.handle("#", 0.0)  # its second page
    screen += " " + " ".join(d.shell.screen().text().split()[3:])
    assert "Game replays 4 actions: 2 later set aside" in screen and "Saved as journal-damaged-1.sqlite3" in screen
    assert (state / "journal-damaged-1.sqlite3").read_bytes() == before
    assert d.run() == 0
    j = Journal(state)
    assert j.resume().actions == actions
    assert [x["action"] for x in j.set_aside_rows()] == [{"a": "move", "from": 12, "to": 13},
                                                        {"a": "move", "from": 1, "to": 2}]
