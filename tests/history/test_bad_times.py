"""Issue 41, item 1: times outside a game's range are refused at import, and a row with such
times already in a journal (an older version's import, a hand edit) never breaks the history.

The bad rows are written into the journal with sqlite3 directly, as an older version or a hand
edit would have left them; every reader of the history then leaves them out and names them.
"""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from companion.games import GAMES
from companion.journal.store import Journal
from companion.table.shell import Shell
from tests.history.test_import import clans_record, write
from tests.support import run_cli
from tests.web.webtools import app_for, client, run

# (started, finished) as an older import took them: the 1e18, 1e300, year 10000, a finish in 1e15
BAD_TIMES = [(1e18, 1e18 + 60), (1e300, 1e300), (253_402_300_800.0, 253_402_301_000.0),
             (1_700_000_000.0, 1e15), ("yesterday", 1_700_000_100.0)]


def journal_with_bad_rows(tmp_path: Path) -> tuple[Path, list[int]]:
    """A journal with one good imported game, then one row per BAD_TIMES written by hand."""
    state = tmp_path / "state"
    state.mkdir()
    good = write(tmp_path / "good.json", clans_record(1, 2, ["Ann", "Bo"]))
    assert run_cli("import", str(good), "--state-dir", str(state))[0] == 0
    result = json.loads(sqlite3.connect(state / "journal.sqlite3").execute(
        "SELECT result FROM games").fetchone()[0])
    db = sqlite3.connect(state / "journal.sqlite3")
    ids = []
    with db:
        for n, (started, finished) in enumerate(BAD_TIMES):
            gid = 100 + n
            db.execute("INSERT INTO games(id, kind, started, finished, result) VALUES (?, 'clans', ?, ?, ?)",
                       (gid, started, finished, json.dumps({**result, "names": [f"X{n}", f"Y{n}"]})))
            ids.append(gid)
    db.close()
    return state, ids


@pytest.mark.parametrize("started, finished, why", [
    (1e18, 1e18 + 60, "started 1e+18 is not a time between 2000 and 2100"),
    (1e300, 1e300, "started 1e+300 is not a time between 2000 and 2100"),
    (253_402_300_800, 253_402_301_000, "is not a time between 2000 and 2100"),
    (1_700_000_000, 1e15, "is a day or more after its start"),
    (1_700_000_000, 1_700_000_000 + 86_400, "is a day or more after its start"),
    (1_700_000_000, 1_699_999_000, "the game finished before it started"),
    (900_000_000, 900_000_600, "is not a time between 2000 and 2100"),
])
def test_import_refuses_times_outside_a_games_range_in_one_line(tmp_path, started, finished, why):
    record = clans_record(3, 2, ["Ann", "Bo"])
    record["companion"].update(started=started, finished=finished)
    status, out, err = run_cli("import", str(write(tmp_path / "r.json", [record])), "--state-dir", str(tmp_path))
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "record 1: companion: " in err and why in err
    assert not (tmp_path / "journal.sqlite3").exists() or sqlite3.connect(
        tmp_path / "journal.sqlite3").execute("SELECT count(*) FROM games").fetchone()[0] == 0


def test_bad_rows_in_a_journal_are_named_and_left_out_of_every_command(tmp_path):
    state, ids = journal_with_bad_rows(tmp_path)
    commands = [["history"], ["history", "--json"], ["history", "--all"], ["stats"], ["stats", "--tables"],
                ["stats", "--json"]] + [["export", "--format", f] for f in ("csv", "json", "bgstats", "bgg")]
    for command in commands:
        status, out, err = run_cli(*command, "--state-dir", str(state))
        assert status == 0, (command, err)
        for gid in ids:
            assert f"game {gid}: its " in err and "left out" in err, (command, err)
        assert "X0" not in out and "Ann" in out, command
    status, out, _ = run_cli("history", "--json", "--state-dir", str(state))
    assert [g["game_id"] for g in json.loads(out)] == [1]


def test_bad_rows_never_break_the_page(tmp_path):
    state, ids = journal_with_bad_rows(tmp_path)

    async def fetch() -> dict[str, tuple[int, str]]:
        async with client(app_for(state)) as c:
            got = {}
            for path in ("/history", "/stats", "/api/history", "/api/stats", "/games", "/export/csv"):
                r = await c.get(path)
                got[path] = (r.status, await r.text())
            return got

    got = run(fetch())
    assert {p: s for p, (s, _t) in got.items()} == {p: 200 for p in got}
    assert [g["game_id"] for g in json.loads(got["/api/history"][1])] == [1]
    for gid in ids:
        assert f"game {gid}: its " in got["/history"][1]
    assert "Ann" in got["/stats"][1] and "X0" not in got["/stats"][1]


def test_bad_rows_never_break_the_oleds_history(tmp_path):
    state, ids = journal_with_bad_rows(tmp_path)
    journal = Journal(state)
    try:
        kind = "clans"
        shell = Shell(list(GAMES.values()), kind, GAMES[kind].load().new(random.Random(0)), random.Random(0),
                      history=journal.history)
        lines = shell.history_lines()
    finally:
        journal.close()
    assert any(": P1 " in line for line in lines)  # the good game
    for gid in ids:
        assert any(f"{gid}" in line and "unreadable" in line for line in lines), lines
