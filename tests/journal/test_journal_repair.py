"""Damaged journals (issue 11): a damaged file is kept aside byte for byte under a name that
never collides, every readable action is salvaged into a fresh, writable journal, and the
repair is one short sentence for the OLED (`Journal.repairs`)."""

from __future__ import annotations

import os

from companion.journal import repair as journal_repair
from companion.journal.store import Journal

from tests.journal.journal_helpers import (files, journal_with, kept_rows, moves, overwrite, page_size, plain_read,
                                         power_cut_copy, root_page)


def test_overwritten_root_page_of_actions_is_kept_aside_and_the_new_journal_is_writable(tmp_path):
    """Issue 11.1: the daemon started a new game and every later write failed, at every restart."""
    state = tmp_path / "state"
    journal_with(state, 25, history=True).close()
    db = state / "journal.sqlite3"
    size = page_size(db)
    overwrite(db, (root_page(db, "actions") - 1) * size, bytes([0xA5]) * size)
    damaged = db.read_bytes()
    j = Journal(state)
    # the actions' index still counts them: 25 moves + the finished game's 2 actions, none readable
    assert j.repairs == ["Journal damaged: kept 0 actions, lost 27. Saved as journal-damaged-1.sqlite3"]
    assert (state / "journal-damaged-1.sqlite3").read_bytes() == damaged
    assert j.history()[0]["result"] == {"winners": [1], "totals": [12, 30]}  # the history is salvaged
    assert j.setting("brightness") == 2
    r = j.resume()
    assert (r.kind, r.actions) == ("clans", [])
    j.start_game("clans", [{"a": "new"}])
    j.extend(moves(3))  # writes work again
    j.close()
    j = Journal(state)  # and the next start is clean
    assert j.repairs == [] and len(j.resume().actions) == 4
    assert len(j.history()) == 2  # the mammut game, and the emptied clans game abandoned


def _frame_offset(wal: bytes, frame: int) -> int:
    page = int.from_bytes(wal[8:12], "big")
    return 32 + frame * (page + 24)


def test_damaged_wal_is_reported_and_kept_not_checkpointed_away(tmp_path):
    """Issue 11.3: a damaged WAL lost committed moves without a word, then was deleted at exit."""
    live = tmp_path / "live"
    j = journal_with(live, 25, checkpoints=False)
    state = power_cut_copy(live, tmp_path / "state")
    j.close()
    wal = state / "journal.sqlite3-wal"
    overwrite(wal, _frame_offset(wal.read_bytes(), 30) + 24 + 40, b"\xff" * 64)  # a page in the middle
    before = files(state)
    baseline = plain_read(state, tmp_path / "plain")
    assert 0 < baseline < 25  # SQLite itself stops reading the log at the damaged frame
    j = Journal(state)
    (sentence,) = j.repairs
    assert sentence.startswith(f"Journal damaged: kept {baseline} actions, lost 0 + ")
    assert "later save(s)" in sentence and sentence.endswith("Saved as journal-damaged-1.sqlite3")
    assert len(j.resume().actions) == baseline
    j.append({"a": "move", "n": 99})
    j.close()  # a clean exit checkpoints the NEW journal only
    assert (state / "journal-damaged-1.sqlite3").read_bytes() == before["journal.sqlite3"]
    assert (state / "journal-damaged-1.sqlite3-wal").read_bytes() == before["journal.sqlite3-wal"]


def test_wal_cut_short_is_reported_when_the_shared_memory_saw_the_commits(tmp_path):
    live = tmp_path / "live"
    j = journal_with(live, 25, checkpoints=False)
    state = power_cut_copy(live, tmp_path / "state", shm=True)
    j.close()
    wal = state / "journal.sqlite3-wal"
    data = wal.read_bytes()
    wal.write_bytes(data[:_frame_offset(data, 30)])  # 11 committed moves gone with the log's end
    j = Journal(state)
    assert j.repairs == ["Journal damaged: kept 14 actions, lost 0 + at least 1 later save(s). "
                         "Saved as journal-damaged-1.sqlite3"]
    assert (state / "journal-damaged-1.sqlite3-wal").read_bytes() == data[:_frame_offset(data, 30)]


def test_wal_torn_by_a_power_cut_is_no_damage(tmp_path):
    live = tmp_path / "live"
    j = journal_with(live, 25, checkpoints=False)
    state = power_cut_copy(live, tmp_path / "state")
    j.close()
    wal = state / "journal.sqlite3-wal"
    data = wal.read_bytes()
    wal.write_bytes(data[:len(data) - 3000])  # the last frame half written
    j = Journal(state)
    assert j.repairs == [] and len(j.resume().actions) == 24


def test_bad_checksum_keeps_the_17_later_rows_and_same_second_repairs_do_not_collide(tmp_path, monkeypatch):
    """Issue 11.4: one bad row dropped every later row; two repairs in one second overwrote each other."""
    monkeypatch.setattr(journal_repair.time, "time", lambda: 1_700_000_000.0)  # a Pi without network
    state = tmp_path / "state"
    journal_with(state, 25).close()
    import sqlite3

    for round_, seq in ((1, 8), (2, 3)):
        db = sqlite3.connect(state / "journal.sqlite3")
        db.execute("UPDATE actions SET crc=crc+1 WHERE seq=?", (seq,))
        db.commit()
        db.close()
        damaged = (state / "journal.sqlite3").read_bytes()
        j = Journal(state)
        assert (state / f"journal-damaged-{round_}.sqlite3").read_bytes() == damaged
        assert len(j.resume().actions) == seq - 1
        if round_ == 1:
            assert j.repairs == ["Journal damaged: kept 7 actions, lost 1, set 17 aside. "
                                 "Saved as journal-damaged-1.sqlite3"]
        j.close()
    assert j.repairs == ["Journal damaged: kept 2 actions, lost 1, set 4 aside. Saved as journal-damaged-2.sqlite3"]
    j = Journal(state)
    # round 1 set moves 9..25 aside, round 2 moves 4..7: all kept, out of play
    assert sorted(r["action"]["n"] for r in j.set_aside_rows()) == list(range(4, 8)) + list(range(9, 26))
    assert (state / "journal-damaged-1.sqlite3").read_bytes() != (state / "journal-damaged-2.sqlite3").read_bytes()


def test_a_damaged_page_in_the_middle_keeps_every_row_on_the_other_pages(tmp_path):
    state = tmp_path / "state"
    journal_with(state, 300, pad=150, one_tx=True).close()
    db = state / "journal.sqlite3"
    data, size = db.read_bytes(), page_size(db)
    page = data.index(b'"n":150,') // size
    overwrite(db, page * size, bytes(size))  # a zeroed leaf page
    baseline = plain_read(state, tmp_path / "plain")
    j = Journal(state)
    j.close()
    play, aside = kept_rows(state)
    lost = 300 - len(play) - len(aside)
    assert 0 < lost < 30 and len(play) + len(aside) > baseline
    assert [a["n"] for a in play] == list(range(1, len(play) + 1))  # the unbroken prefix is in play
    assert aside and aside[0]["n"] > len(play) + 1 and aside[-1]["n"] == 300
    assert j.repairs == [f"Journal damaged: kept {len(play)} actions, lost {lost}, set {len(aside)} aside. "
                         "Saved as journal-damaged-1.sqlite3"]


def test_rows_between_two_damaged_pages_are_salvaged_one_by_one(tmp_path):
    state = tmp_path / "state"
    journal_with(state, 300, pad=150, one_tx=True).close()
    db = state / "journal.sqlite3"
    data, size = db.read_bytes(), page_size(db)
    for n in (60, 240):  # no scan in rowid order, from either end, gets past these
        overwrite(db, data.index(b'"n":%d,' % n) // size * size, bytes(size))
    j = Journal(state)
    j.close()
    play, aside = kept_rows(state)
    assert any(100 < a["n"] < 200 for a in aside)  # read by rowid, one by one
    assert len(play) + len(aside) > 300 - 60


def test_truncate_to_sets_the_refused_rest_aside(tmp_path):
    state = tmp_path / "state"
    journal_with(state, 6).close()
    j = Journal(state)
    r = j.resume()
    assert len(r.actions) == 6
    assert j.truncate_to(3, "move 4 refused by the game") == 3  # the daemon replayed only 3
    assert j.repairs == ["Game replays 3 actions: 3 later set aside (move 4 refused by the game). "
                         "Saved as journal-damaged-1.sqlite3"]
    j.append({"a": "move", "n": 40})
    j.close()
    j = Journal(state)
    assert [a["n"] for a in j.resume().actions] == [1, 2, 3, 40]
    assert [(r["seq"], r["reason"]) for r in j.set_aside_rows()] == [(s, "move 4 refused by the game")
                                                                    for s in (4, 5, 6)]


def test_a_repair_cut_short_after_the_move_aside_is_finished_at_the_next_start(tmp_path):
    state = tmp_path / "state"
    journal_with(state, 3).close()
    os.replace(state / "journal.sqlite3", state / "journal.sqlite3.salvaged")  # the power cut came here
    assert len(Journal(state).resume().actions) == 3


def test_healthy_journal_is_not_touched(tmp_path):
    state = tmp_path / "state"
    journal_with(state, 5, history=True).close()
    (state / ".journal-check-crashed").mkdir()  # left by a power cut during an earlier check
    (state / ".journal.sqlite3.salvaging-12").write_bytes(b"half")
    before = files(state)
    j = Journal(state)
    assert j.repairs == [] and files(state)["journal.sqlite3"] == before["journal.sqlite3"]  # checked on a copy
    assert sorted(p.name for p in state.iterdir()) == ["journal.sqlite3", "journal.sqlite3-shm",
                                                       "journal.sqlite3-wal"]  # no scratch copy left
    j.close()
    assert sorted(p.name for p in state.iterdir()) == ["journal.sqlite3"]
