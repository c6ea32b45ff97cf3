"""`companion history` and `companion stats` on the fixture's journal, and on a game played at a real table."""

from __future__ import annotations

import datetime as dt
import json
import random

import pytest

from companion import cli
from companion.history.plays import read_history
from tests.history.fixture import ABANDONED_ID, EXPECTED_HISTORY, build_journal, finished, started


@pytest.fixture
def state(tmp_path):
    build_journal(tmp_path / "state")
    return str(tmp_path / "state")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def epoch(text: str) -> float:
    when = dt.datetime.fromisoformat(text)
    assert when.tzinfo is not None, f"{text} has no UTC offset"
    return when.timestamp()


def test_history_json_is_the_fixture_oldest_first(capsys, state):
    code, out, err = run(capsys, "history", "--state-dir", state, "--json")
    assert code == 0
    got = json.loads(out)
    for entry in got:
        entry["started"], entry["finished"] = epoch(entry["started"]), epoch(entry["finished"])
    assert got == EXPECTED_HISTORY
    assert err == "companion history: game 9: its result is not readable (left out)\n"


def test_history_all_marks_the_abandoned_game(capsys, state):
    code, out, _ = run(capsys, "history", "--state-dir", state, "--json", "--all")
    got = json.loads(out)
    assert code == 0 and [e["game_id"] for e in got] == [1, 2, 3, 4, 5, 6, 7, 8, 10, 11]
    assert [e["game_id"] for e in got if e.get("abandoned")] == [ABANDONED_ID]
    assert epoch(got[3]["started"]) == started(ABANDONED_ID)
    code, text, _ = run(capsys, "history", "--state-dir", state, "--all")
    assert [line for line in text.splitlines() if "(abandoned)" in line] == [
        dt.datetime.fromtimestamp(started(ABANDONED_ID)).strftime("%Y-%m-%d %H:%M") + "  #4 Clans  (abandoned)"]
    _, plain, _ = run(capsys, "history", "--state-dir", state)
    assert "abandoned" not in plain


def test_history_text_is_one_readable_line_per_game(capsys, state):
    code, out, err = run(capsys, "history", "--state-dir", state)
    lines = out.splitlines()
    assert code == 0 and len(lines) == 9
    when = dt.datetime.fromtimestamp(started(2)).strftime("%Y-%m-%d %H:%M")
    assert lines[1] == f"{when}  #2 Clans  60 min  Anna 30, Bruno 45, Carla 45  winners: Bruno, Carla"
    assert lines[5].endswith("#7 Valley of the Mammoths  30 min  Anna 2 camps, Bruno 4 camps, Dario 1 camp  "
                             "winner: Bruno")
    assert lines[6].endswith("Anna 1 camp, Dario 2 camps  extinct: no winner")
    assert "Bot 3 (mcts) 40  winner: Anna" in lines[3]
    assert "game 9" in err and "(left out)" in err


def test_stats_json_is_an_object_keyed_by_name(capsys, state):
    code, out, err = run(capsys, "stats", "--state-dir", state, "--json")
    got = json.loads(out)
    assert code == 0 and "game 9" in err
    assert list(got) == ["Anna", "Bruno", "Carla", "Dario"]  # a bot, a guest and "Player N" are no one
    for entry in got.values():
        assert {"games", "wins", "average_total", "best_total"} <= set(entry)
    # Anna: 7 games, 3 wins, (40 + 30 + 50 + 60 + 52) / 5 = 46.4, best 60
    assert {k: got["Anna"][k] for k in ("games", "wins", "average_total", "best_total")} == {
        "games": 7, "wins": 3, "average_total": 46.4, "best_total": 60}
    assert epoch(got["Anna"]["last_played"]) == finished(10)


def test_stats_tables(capsys, state):
    code, out, _ = run(capsys, "stats", "--state-dir", state, "--json", "--tables")
    got = json.loads(out)
    assert code == 0 and list(got) == ["players", "games", "colors", "head_to_head"]
    assert got["players"]["Carla"]["wins"] == 3
    assert got["games"]["clans"]["2"]["first_player_win_rate"] == 0.333  # 1 of games 1, 6, 11
    assert got["colors"]["red"] == 48.83  # 293 / 6
    assert got["head_to_head"]["Anna|Bruno"] == {"games": 6, "Anna": 3, "Bruno": 2, "ties": 0}
    code, text, _ = run(capsys, "stats", "--state-dir", state, "--tables")
    assert code == 0
    assert "head to head:" in text and "  Anna 3 - 2 Bruno (6 games, 0 shared)" in text.splitlines()
    assert "average total by colour: black 26.5, blue 44.25, green 33, red 48.83, yellow 34.5" in text


def test_stats_text_has_a_line_per_player(capsys, state):
    code, out, _ = run(capsys, "stats", "--state-dir", state)
    lines = out.splitlines()
    assert code == 0 and lines[0].split() == ["player", "games", "wins", "win%", "avg", "best", "streak", "nemesis"]
    assert lines[1].split() == ["Anna", "7", "3", "43%", "46.4", "60", "1", "Bruno"]
    assert not any(line.startswith("Guest") for line in lines)


@pytest.mark.parametrize("command", ["history", "stats"])
def test_no_journal_is_one_line_and_exit_1(capsys, tmp_path, command):
    code, out, err = run(capsys, command, "--state-dir", str(tmp_path / "nowhere"), "--json")
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"companion {command}: no journal yet in ")


def test_an_empty_journal_lists_nothing(capsys, tmp_path):
    from companion.journal.store import Journal
    Journal(tmp_path / "state").close()
    assert run(capsys, "history", "--state-dir", str(tmp_path / "state"), "--json")[:2] == (0, "[]\n")
    assert run(capsys, "stats", "--state-dir", str(tmp_path / "state"), "--json")[:2] == (0, "{}\n")
    assert run(capsys, "history", "--state-dir", str(tmp_path / "state"))[1] == "no finished games yet\n"


def test_a_game_played_at_the_table_matches_replay(capsys, tmp_path):
    from tests.web.webtools import play_to_the_end, table

    state_dir = tmp_path / "state"
    d = table(state_dir, "--players", "3", "--bots", "2")
    rnd = random.Random(4)
    play_to_the_end(d, rnd, state_dir)  # through the reveal of the colors to the end of the game
    code, out, _ = run(capsys, "history", "--state-dir", str(state_dir), "--json")
    listed = json.loads(out)
    assert code == 0 and len(listed) == 1
    play = read_history(state_dir).plays[0]
    record = tmp_path / "game.json"
    record.write_text(json.dumps(play.record))
    code, out, _ = run(capsys, "replay", str(record), "--json")
    replayed = json.loads(out)
    assert code == 0 and replayed["status"] in ("finished", "stalled")
    assert (listed[0]["totals"], listed[0]["winners"]) == (replayed["totals"], replayed["winners"])
    assert listed[0]["players"][1] == "Bot 2 (random)"
    code, out, _ = run(capsys, "stats", "--state-dir", str(state_dir), "--json", "--tables")
    tables = json.loads(out)  # the seats the table named itself are no one: counted as seats, not people
    assert code == 0 and tables["players"] == {} and tables["games"]["clans"]["3"]["games"] == 1


@pytest.mark.parametrize("full", [True, False])
def test_a_row_that_is_not_even_text_leaves_the_rest_of_the_history(capsys, state, full):
    import sqlite3
    from pathlib import Path

    before = [p.history_json() for p in read_history(state, full=full).finished]
    db = sqlite3.connect(Path(state) / "journal.sqlite3")
    db.execute("INSERT INTO games(kind, started, finished, result) VALUES ('clans', 1, 2, CAST(X'7B80FF22' AS TEXT))")
    db.commit()
    db.close()
    hist = read_history(state, full=full)
    assert [p.history_json() for p in hist.finished] == before
    assert any(d.startswith("game 12:") for d in hist.damaged)
    code, out, err = run(capsys, "history", "--state-dir", state, "--json")
    assert code == 0 and len(json.loads(out)) == len(before) and "game 12" in err
