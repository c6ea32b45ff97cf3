"""Issue 41, item 4: one rule for names at every door. Two seats with one name ("Anna", "ANNA",
" Anna ") and the table's own names at another seat ("Guest 2", "Bot 2 (mcts)", "Player 3" at
seat 1) are refused with one line by the roster (the config's, the page's), `companion import`,
`companion replay` and `companion run --load`; the table's own names where the table gives them
(what its exports hold) still come in, and the shipped examples replay as they always did."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.kiosk import daemon
from companion.table.seatnames import NameRefused, check_names, check_roster
from tests.history.test_import import clans_record, write
from tests.support import run_cli
from tests.table.test_names_doors import IN_PROGRESS, keys_file, record_with
from tests.web.webtools import app_for, client, run

EXAMPLES = Path(__file__).resolve().parents[1] / "data" / "examples"

# (names of a three-seat game, what the one line says)
REFUSED = [
    (["Anna", "ANNA", "Cy"], 'names: player 2: "ANNA" is player 1\'s name too ("Anna", case and spaces aside)'),
    (["Anna", "Bo", " Anna "], 'names: player 3: "Anna" is player 1\'s name too'),
    (["anna  bo", "Anna Bo", "Cy"], "names: player 2: \"Anna Bo\" is player 1's name too"),
    (["Guest 2", "Anna", "Cy"], 'names: player 1: "Guest 2" is a name the table gives seat 2 itself; choose another'),
    (["Bot 2 (mcts)", "Anna", "Cy"], 'names: player 1: "Bot 2 (mcts)" is a name the table gives seat 2 itself'),
    (["Anna", "Bo", "Player 1"], 'names: player 3: "Player 1" is a name the table gives seat 1 itself'),
]
TAKEN = [["Anna", "Guest 2", "Bot 3 (mcts)"], ["Player 1", "Player 2", "Player 3"], ["Anna", "Anne", "Ann a"]]


@pytest.mark.parametrize("names, why", REFUSED)
def test_the_rule_refuses_duplicates_and_the_tables_names_at_another_seat(names, why):
    with pytest.raises(NameRefused) as caught:
        check_names(names, 3)
    assert str(caught.value).startswith(why) and "\n" not in str(caught.value)


@pytest.mark.parametrize("names", TAKEN)
def test_the_rule_takes_the_tables_names_at_their_own_seat(names):
    assert check_names(names, 3) == names


@pytest.mark.parametrize("names, why", REFUSED)
def test_replay_refuses_them_in_one_line_exit_2(tmp_path, names, why):
    bad = record_with(tmp_path, names)
    status, out, err = run_cli("replay", str(bad))
    assert (status, out) == (2, "") and err == f"companion replay: {bad}: {err.split(': ', 2)[2]}"
    assert why in err and err.count("\n") == 1


@pytest.mark.parametrize("names, why", REFUSED[:1] + REFUSED[3:4])
def test_run_load_refuses_them_in_one_line_exit_2(tmp_path, capsys, names, why):
    bad = record_with(tmp_path, names)
    code = daemon.main(["--display", "dummy", "--keys", str(keys_file(tmp_path)), "--load", str(bad),
                        "--state-dir", str(tmp_path / "state")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and why in err[0]


@pytest.mark.parametrize("names, why", [
    (["Anna", " ANNA "], 'names: player 2: "ANNA" is player 1\'s name too'),
    (["Guest 2", "Anna"], 'names: player 1: "Guest 2" is a name the table gives seat 2 itself'),
    (["Bot 1 (mcts)", "Player 1"], 'names: player 2: "Player 1" is a name the table gives seat 1 itself'),
])
def test_import_refuses_them_in_one_line_exit_2(tmp_path, names, why):
    record = clans_record(4, 2, names)
    status, out, err = run_cli("import", str(write(tmp_path / "r.json", [record])), "--state-dir", str(tmp_path))
    assert (status, out) == (2, "") and err.count("\n") == 1 and f"record 1: {why}" in err
    assert not (tmp_path / "journal.sqlite3").exists()


def test_import_takes_the_tables_own_export_with_a_guest_and_a_bot(tmp_path):
    record = clans_record(6, 3, ["Anna", "Guest 2", "Bot 3 (mcts)"])
    status, out, _ = run_cli("import", str(write(tmp_path / "r.json", [record])), "--state-dir", str(tmp_path))
    assert status == 0 and "1 game(s) added" in out


@pytest.mark.parametrize("roster, why", [(["Anna", " anna "], '"anna" is on the roster twice'),
                                         (["Anna", "Guest 2"], '"Guest 2" is a name the table gives itself')])
def test_the_roster_refuses_them_too_and_the_page_says_so(tmp_path, roster, why):
    names, said = check_roster(roster)
    assert names == [] and said.startswith(why)
    state = tmp_path / "state"
    state.mkdir()

    async def post() -> tuple[int, dict]:
        async with client(app_for(state, pin="2468")) as c:
            origin = {"Origin": f"http://{c.host}:{c.port}"}
            csrf = (await (await c.post("/api/login", json={"pin": "2468"}, headers=origin)).json())["csrf"]
            r = await c.post("/api/roster", json={"names": roster}, headers={**origin, "X-CSRF-Token": csrf})
            return r.status, await r.json()

    status, body = run(post())
    assert status == 400 and body["error"].startswith(why)


def test_every_example_replays_exactly_as_expected():
    for record in sorted(EXAMPLES.glob("*.record.json")):
        status, out, err = run_cli("replay", str(record), "--json")
        expected = json.loads(record.with_name(record.name.replace(".record.", ".expected.")).read_text())
        assert status == 0 and err == "" and json.loads(out) == expected, record.name
    assert IN_PROGRESS.exists()


def test_import_checks_the_names_a_valley_of_the_mammoths_log_holds(tmp_path):
    from tests.history.test_import import mammut_extinct_record

    record = mammut_extinct_record(1_700_000_000.0)
    del record["names"]
    record["log"][0]["args"]["names"] = ["Ann", "ANN"]
    record["state"]["tribes"][1]["name"] = "ANN"  # the books agree with the log
    status, out, err = run_cli("import", str(write(tmp_path / "m.json", record)), "--state-dir", str(tmp_path))
    assert (status, out) == (2, "") and "record 1: names: player 2: \"ANN\" is player 1's name too" in err
