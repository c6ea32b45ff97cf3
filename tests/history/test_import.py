"""`companion import`: exported records back into a table's history, checked like `companion replay`.

Real finished games: Clans from the engine (`play_random_game`) with a record made by
`Record.from_game`; a Valley of the Mammoths game played to extinction by its engine
(the one ending a test can reach through logged actions only, so the log replays).
"""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

from tests.support import run_cli
from companion.games.clans.board import COLORS
from companion.games.clans.commands import play_random_game
from companion.games.clans.record import Record
from companion.games.mammut.game import MammutGame, Phase
from companion.history.plays import read_history
from tests.games.mammut.test_mammut_game import advance_to

BASE = 1_700_000_000.25


def clans_record(seed: int, players: int, names: list[str] | None = None, started: float | None = None) -> dict:
    """A finished Clans game's record with names and the export's "companion" metadata."""
    game = play_random_game(random.Random(seed), players)
    names = names or [f"P{seed}-{i}" for i in range(players)]
    record = Record.from_game(game, list(COLORS)[:players], extra={"names": names}).to_dict()
    start = BASE + seed * 3600 if started is None else started
    record["companion"] = {"game": "clans", "started": start, "finished": start + 1500.5, "actions": len(game.moves)}
    return record


def mammut_extinct_record(started: float) -> dict:
    """A Valley of the Mammoths game that ended in extinction, as its log plus the export's keys."""
    g = MammutGame(2, roll=random.Random(1), names=["Ann", "Bo"])
    advance_to(g, Phase.COMBAT)  # the books kept as they stand (the Mammut tests' own walk)
    g.remove_tokens(1, warriors=5, women=2)
    g.remove_tokens(2, warriors=5, women=2)
    for _ in range(3):  # the game ends at the first advance with every tribe gone (at most a phase more)
        if g.over:
            break
        g.advance()
    assert g.over and g.extinct
    log = {"game": "mammut", **g.to_dict()}
    return {**log, "names": ["Ann", "Bo"],
            "companion": {"game": "mammut", "started": started, "finished": started + 600.0, "actions": 7}}


def write(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data))
    return path


def game_rows(state_dir: Path) -> list[tuple]:
    db = sqlite3.connect(state_dir / "journal.sqlite3")
    try:
        return db.execute("SELECT id, kind, started, finished FROM games ORDER BY id").fetchall()
    finally:
        db.close()


def comparable(play: Any) -> dict:
    out = play.history_json()
    del out["game_id"]
    return {**out, "colors": play.colors, "extras": play.extras, "first_player": play.first_player}


def test_import_a_list_then_export_json_round_trips(tmp_path):
    records = [clans_record(1, 2), clans_record(2, 3), clans_record(3, 4), mammut_extinct_record(BASE + 9 * 3600)]
    code, out, err = run_cli("import", "--state-dir", str(tmp_path / "a"), str(write(tmp_path / "in.json", records)))
    assert code == 0, err
    assert "4 game(s) added" in out
    first = read_history(tmp_path / "a")
    assert [p.game for p in first.finished] == ["clans", "clans", "clans", "mammut"] and not first.damaged
    clans = first.finished[0]
    assert clans.players == ("P1-0", "P1-1") and clans.colors == ("red", "blue")
    assert clans.started == BASE + 3600 and clans.finished == BASE + 3600 + 1500.5
    assert clans.actions == records[0]["companion"]["actions"]
    mammut = first.finished[3]
    assert mammut.extras["extinct"] and mammut.winners == () and mammut.players == ("Ann", "Bo") and mammut.actions == 7

    code, text, err = run_cli("export", "--state-dir", str(tmp_path / "a"), "--format", "json")
    assert code == 0, err
    exported = json.loads(text)
    assert [r["companion"]["game"] for r in exported] == ["clans", "clans", "clans", "mammut"]
    code, _, err = run_cli("import", "--state-dir", str(tmp_path / "b"), str(write(tmp_path / "x.json", exported)))
    assert code == 0, err
    second = read_history(tmp_path / "b")
    assert [comparable(p) for p in second.finished] == [comparable(p) for p in first.finished]
    assert [p.source_id for p in second.finished] == [p.source_id for p in first.finished]


def test_importing_twice_doubles_nothing(tmp_path):
    state = tmp_path / "state"
    path = write(tmp_path / "in.json", [clans_record(4, 3), clans_record(5, 2)])
    assert run_cli("import", "--state-dir", str(state), str(path))[0] == 0
    code, out, err = run_cli("import", "--state-dir", str(state), str(path))
    assert code == 0 and "0 game(s) added" in out
    assert err.count("already in the history: skipped") == 2
    assert len(game_rows(state)) == 2
    # one record alone (not a list), already there: skipped too
    code, out, err = run_cli("import", "--state-dir", str(state), str(write(tmp_path / "one.json", clans_record(4, 3))))
    assert code == 0 and "record 1: already in the history" in err and len(game_rows(state)) == 2


def test_an_invalid_record_refuses_the_file_with_replays_message(tmp_path):
    state = tmp_path / "state"
    bad = clans_record(7, 3)
    bad["moves"][4] = {"from": 1, "to": 1}
    path = write(tmp_path / "in.json", [clans_record(6, 2), clans_record(8, 2), bad])
    # replay's own message for the same record (metadata removed: a plain record)
    plain = write(tmp_path / "plain.json", {k: v for k, v in bad.items() if k != "companion"})
    code, _, replay_err = run_cli("replay", str(plain))
    assert code == 2
    replay_message = replay_err.strip().split(f"{plain}: ", 1)[1]
    code, out, err = run_cli("import", "--state-dir", str(state), str(path))
    assert code == 2 and out == ""
    assert err.strip() == f"companion import: {path}: record 3: {replay_message}"
    assert len(err.strip().splitlines()) == 1
    assert not (state / "journal.sqlite3").exists() or game_rows(state) == []


def test_refusals_in_one_line(tmp_path):
    state = tmp_path / "state"
    assert run_cli("import", "--state-dir", str(state), str(write(tmp_path / "ok.json", clans_record(9, 2))))[0] == 0
    cases = {
        "not json": "{nope",
        "not an object": json.dumps([clans_record(10, 2), 5]),
        "bad names": json.dumps({**clans_record(11, 2), "names": ["only one"]}),
        "bad metadata": json.dumps({**clans_record(12, 2), "companion": {"game": "clans", "started": "yesterday"}}),
        "unknown game": json.dumps({**clans_record(13, 2), "companion": {"game": "chess"}}),
        "bad mammut": json.dumps({"game": "mammut", "version": 99}),
    }
    for what, text in cases.items():
        path = tmp_path / "bad.json"
        path.write_text(text)
        code, _, err = run_cli("import", "--state-dir", str(state), str(path))
        assert code == 2, what
        assert err.startswith(f"companion import: {path}: ") and len(err.strip().splitlines()) == 1, (what, err)
    assert "record 2: a record must be a JSON object" in run_cli("import", "--state-dir", str(state),
                                                               str(write(tmp_path / "b2.json",
                                                                         [clans_record(14, 2), 5])))[2]
    assert len(game_rows(state)) == 1  # nothing of the refused files came in


def test_an_unfinished_game_is_skipped_with_a_note(tmp_path):
    state = tmp_path / "state"
    unfinished = clans_record(15, 3)
    unfinished["moves"] = unfinished["moves"][:5]
    code, out, err = run_cli("import", "--state-dir", str(state),
                             str(write(tmp_path / "in.json", [unfinished, clans_record(16, 2)])))
    assert code == 0 and "1 game(s) added" in out
    assert "record 1: the game is not finished: skipped" in err
    assert [p.players for p in read_history(state).finished] == [("P16-0", "P16-1")]


def test_a_record_without_metadata_is_dated_now(tmp_path):
    state = tmp_path / "state"
    record = {k: v for k, v in clans_record(17, 2).items() if k not in ("companion", "names")}
    code, _, err = run_cli("import", "--state-dir", str(state), str(write(tmp_path / "in.json", record)))
    assert code == 0, err
    (play,) = read_history(state).finished
    assert play.players == ("Player 1", "Player 2") and play.started == play.finished > BASE


def test_imported_games_take_positive_ids_and_a_game_in_progress_still_resumes(tmp_path):
    """Imported games take the next ids (never 0 or below); the table's own game in progress stays
    the one the daemon resumes, and the history lists every game in play order (by its start)."""
    from companion.journal.store import Journal

    state = tmp_path / "state"
    journal = Journal(state)
    journal.start_game("clans", [{"type": "setup"}])
    journal.db.close()
    assert run_cli("import", "--state-dir", str(state),
                   str(write(tmp_path / "in.json", [clans_record(18, 2), clans_record(19, 3)])))[0] == 0
    rows = game_rows(state)
    assert [r[0] for r in rows] == [1, 2, 3] and rows[0][3] is None  # the game in progress keeps id 1
    journal = Journal(state)
    resumed = journal.resume()
    journal.db.close()
    assert resumed is not None and resumed.game_id == 1 and not resumed.finished
    assert resumed.actions == [{"type": "setup"}]
    assert [(p.game_id, p.players[0]) for p in read_history(state).finished] == [(2, "P18-0"), (3, "P19-0")]
    # a game started after the import takes the next id, and is the one resumed
    journal = Journal(state)
    assert journal.start_game("clans", [{"type": "setup"}]) == 4
    journal.db.close()
    journal = Journal(state)
    assert journal.resume().game_id == 4 and [g["id"] for g in journal.history()] == [1, 3, 2]  # newest first
    journal.db.close()


def test_a_finished_last_game_is_still_the_one_shown_after_an_import(tmp_path):
    """resume(include_finished) (the final screen after a restart) never takes an imported game."""
    from companion.journal.store import Journal

    state = tmp_path / "state"
    journal = Journal(state)
    journal.start_game("clans", [{"type": "setup"}])
    journal.finish({"status": "finished", "totals": [1, 2], "winners": [1]})
    journal.db.close()
    assert run_cli("import", "--state-dir", str(state), str(write(tmp_path / "in.json", [clans_record(20, 2)])))[0] == 0
    journal = Journal(state)
    resumed = journal.resume(include_finished=True)
    journal.db.close()
    assert resumed is not None and resumed.game_id == 1 and resumed.finished


def test_history_lists_imported_games_in_play_order(tmp_path):
    """Older imported games come before the table's own newer ones in the history, ids all positive."""
    state = tmp_path / "state"
    assert run_cli("import", "--state-dir", str(state),
                   str(write(tmp_path / "a.json", [clans_record(30, 2, started=BASE + 10 * 86400)])))[0] == 0
    assert run_cli("import", "--state-dir", str(state),
                   str(write(tmp_path / "b.json", [clans_record(31, 2, started=BASE)])))[0] == 0
    plays = read_history(state).finished
    assert [(p.game_id, p.players[0]) for p in plays] == [(2, "P31-0"), (1, "P30-0")]


def untimed(seed: int, players: int, names: list[str] | None = None) -> dict:
    """A finished record with names but without the export's times (another program's record)."""
    return {k: v for k, v in clans_record(seed, players, names).items() if k != "companion"}


def test_records_without_times_are_never_taken_for_one_another(tmp_path):
    """Issue 33, part 1: three different finished games without times are three games."""
    state = tmp_path / "state"
    path = write(tmp_path / "in.json", [untimed(41, 2), untimed(42, 3), untimed(43, 4)])
    code, out, err = run_cli("import", "--state-dir", str(state), str(path))
    assert code == 0 and "3 game(s) added" in out and "skipped" not in err, (out, err)
    plays = read_history(state).finished
    assert [p.players[0] for p in plays] == ["P41-0", "P42-0", "P43-0"]
    assert len({p.source_id for p in plays}) == 3 and [p.game_id for p in plays] == [1, 2, 3]
    # the same file again: every game is already there (compared by the game, not by a time)
    code, out, err = run_cli("import", "--state-dir", str(state), str(path))
    assert code == 0 and "0 game(s) added" in out and err.count("already in the history: skipped") == 3


def test_same_start_different_game_is_a_new_game(tmp_path):
    """Two boxes' games that started in the same millisecond are two games, each with its own play id."""
    state = tmp_path / "state"
    assert run_cli("import", "--state-dir", str(state),
                   str(write(tmp_path / "a.json", [clans_record(44, 2, started=BASE)])))[0] == 0
    code, out, err = run_cli("import", "--state-dir", str(state),
                             str(write(tmp_path / "b.json", [clans_record(45, 2, started=BASE)])))
    assert code == 0 and "1 game(s) added" in out, err
    plays = read_history(state).finished
    assert len(plays) == 2 and plays[0].source_id != plays[1].source_id


def test_same_game_with_other_names_is_another_game(tmp_path):
    """The names are part of the game: the same moves played by other people are not skipped."""
    state = tmp_path / "state"
    path = write(tmp_path / "in.json", [untimed(46, 2, ["Anna", "Bo"]), untimed(46, 2, ["anna", "Bo"])])
    code, out, err = run_cli("import", "--state-dir", str(state), str(path))
    assert code == 0 and "2 game(s) added" in out, err
