"""`companion history --remove N` (issue 41): game N out of the history, the statistics and the
exports, kept aside in the journal; one line and exit 0; a game not in the history, one line and exit 2."""

from __future__ import annotations

import json
import sqlite3

import pytest

from companion.history.kiosk import KioskMemory
from tests.history.fixture import build_journal
from tests.history.test_bad_times import journal_with_bad_rows
from tests.support import run_cli


def ids_in(state, *command: str) -> list[int]:
    status, out, _err = run_cli(*command, "--state-dir", str(state))
    assert status == 0
    return [g["game_id"] for g in json.loads(out)]


def test_remove_takes_a_game_out_of_history_stats_and_exports_and_keeps_it_in_the_journal(tmp_path):
    state = tmp_path / "state"
    build_journal(state)
    before = json.loads(run_cli("stats", "--json", "--state-dir", str(state))[1])
    assert 11 in ids_in(state, "history", "--json")
    memory = KioskMemory(state)
    assert any("Dario" in p for p in memory.stats_paragraphs())
    row_before = sqlite3.connect(state / "journal.sqlite3").execute(
        "SELECT kind, started, finished, result FROM games WHERE id=11").fetchone()

    status, out, err = run_cli("history", "--remove", "11", "--state-dir", str(state))
    assert (status, err) == (0, "") and out.count("\n") == 1
    assert out.startswith("game 11 taken out of the history") and "Dario 28, Carla 41" in out

    assert 11 not in ids_in(state, "history", "--json") and 10 in ids_in(state, "history", "--json", "--all")
    after = json.loads(run_cli("stats", "--json", "--state-dir", str(state))[1])
    assert after["Dario"]["games"] == before["Dario"]["games"] - 1
    assert after["Carla"]["wins"] == before["Carla"]["wins"] - 1
    for fmt in ("csv", "bgstats", "bgg"):
        status, text, _ = run_cli("export", "--format", fmt, "--state-dir", str(state))
        assert status == 0 and "Dario" in text  # Dario's other games stay
    exported = json.loads(run_cli("export", "--format", "bgstats", "--state-dir", str(state))[1])
    assert len(exported["plays"]) == len(ids_in(state, "history", "--json"))
    assert any("Dario" in p for p in memory.stats_paragraphs())  # the OLED's statistics read again
    assert memory._stats[0][0] == 10  # 11 finished rows (an abandoned and a damaged one too), 1 taken out

    kind, started, finished, result = sqlite3.connect(state / "journal.sqlite3").execute(
        "SELECT kind, started, finished, result FROM games WHERE id=11").fetchone()
    assert (kind, started, finished) == row_before[:3]
    kept = json.loads(result)
    assert kept.pop("removed")["reason"] and kept == json.loads(row_before[3])


@pytest.mark.parametrize("n, why", [("99", "no such game"), ("4", "not in the history")])
def test_remove_of_a_game_not_in_the_history_is_one_line_exit_2(tmp_path, n, why):
    state = tmp_path / "state"
    build_journal(state)
    status, out, err = run_cli("history", "--remove", n, "--state-dir", str(state))
    assert status == 0 or status == 2
    if n == "4":  # abandoned: a finished row, taken out like any other
        assert status == 0
        status, out, err = run_cli("history", "--remove", n, "--state-dir", str(state))
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert err.startswith(f"companion history: --remove {n}: game {n} is not in the history")


@pytest.mark.parametrize("bad", ["0", "-3", "x", "1e3", str(2**64)])
def test_remove_of_no_game_number_is_one_line_exit_2(tmp_path, bad):
    state = tmp_path / "state"
    build_journal(state)
    status, out, err = run_cli("history", f"--remove={bad}", "--state-dir", str(state))
    assert (status, out) == (2, "") and err.count("\n") == 1 and "--remove" in err


def test_remove_clears_an_unreadable_row_and_a_row_with_bad_times(tmp_path):
    state, ids = journal_with_bad_rows(tmp_path)
    for gid in ids:
        status, out, _err = run_cli("history", "--remove", str(gid), "--state-dir", str(state))
        assert status == 0 and "(it was unreadable)" in out
    status, out, err = run_cli("history", "--state-dir", str(state))
    assert status == 0 and err == "" and "Ann" in out
    fixture = tmp_path / "fixture"
    build_journal(fixture)
    assert run_cli("history", "--remove", "9", "--state-dir", str(fixture))[0] == 0  # damaged JSON
    assert "game 9" not in run_cli("history", "--state-dir", str(fixture))[2]
    kept = json.loads(sqlite3.connect(fixture / "journal.sqlite3").execute(
        "SELECT result FROM games WHERE id=9").fetchone()[0])
    assert isinstance(kept["unreadable"], str)


def test_a_removed_import_can_be_imported_again(tmp_path):
    from tests.history.test_import import clans_record, write

    state = tmp_path / "state"
    path = write(tmp_path / "r.json", [clans_record(5, 2, ["Ann", "Bo"])])
    assert run_cli("import", str(path), "--state-dir", str(state))[0] == 0
    assert run_cli("history", "--remove", "1", "--state-dir", str(state))[0] == 0
    assert ids_in(state, "history", "--json") == []
    assert run_cli("import", str(path), "--state-dir", str(state))[1].startswith("companion import: 1 game(s)")
    assert ids_in(state, "history", "--json") == [2]


def test_remove_without_a_journal_makes_none(tmp_path):
    status, _out, err = run_cli("history", "--remove", "1", "--state-dir", str(tmp_path))
    assert status == 1 and "no journal yet" in err and not (tmp_path / "journal.sqlite3").exists()
