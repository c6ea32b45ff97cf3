"""`companion replay FILE --game-id N` (issue 41, item 9): one record of a list such as `companion
export --format json` writes; a list without it says how to pick one, in one line, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.history.test_import import clans_record, mammut_extinct_record, write
from tests.support import run_cli


def exported(tmp_path):
    records = [clans_record(1, 2, ["Ann", "Bo"]), mammut_extinct_record(1_700_000_000.0), clans_record(2, 3)]
    state = tmp_path / "s"
    assert run_cli("import", str(write(tmp_path / "in.json", records)), "--state-dir", str(state))[0] == 0
    status, text, _err = run_cli("export", "--format", "json", "--state-dir", str(state))
    assert status == 0
    return write(tmp_path / "all.json", json.loads(text)), state


def test_replay_of_a_list_says_how_to_pick_one(tmp_path):
    path, _state = exported(tmp_path)
    status, out, err = run_cli("replay", str(path))
    assert (status, out) == (2, "") and err == (f"companion replay: {path}: this file holds 3 games: add --game-id N "
                                                "to replay one (N one of 1, 2, 3)\n")


def test_replay_game_id_replays_that_game_as_its_own_record_does(tmp_path):
    path, state = exported(tmp_path)
    for gid in (1, 3):
        alone = tmp_path / f"game{gid}.json"
        status, text, _ = run_cli("export", "--format", "json", "--game-id", str(gid), "--state-dir", str(state))
        alone.write_text(text)
        for extra in ([], ["--json"]):
            picked = run_cli("replay", str(path), "--game-id", str(gid), *extra)
            assert picked[0] == 0 and picked == run_cli("replay", str(alone), *extra)
    status, out, _ = run_cli("replay", str(path), "--game-id", "3", "--json")
    history = json.loads(run_cli("history", "--json", "--state-dir", str(state))[1])
    (three,) = [g for g in history if g["game_id"] == 3]
    assert json.loads(out)["totals"] == three["totals"] and json.loads(out)["winners"] == three["winners"]


def test_replay_game_id_refusals_are_one_line_exit_2(tmp_path):
    path, _state = exported(tmp_path)
    single = tmp_path / "game.json"
    single.write_text(json.dumps(clans_record(3, 2)))
    for args, said in [([str(path), "--game-id", "9"],
                        "--game-id 9: no game of this file has that id (its games: 1, 2, 3)"),
                       ([str(path), "--game-id", "2"], "--game-id 2: game 2 is a 'mammut' game: replay reads Clans"),
                       ([str(single), "--game-id", "1"], "this file holds one record: leave --game-id out"),
                       ([str(path), "--game-id", "0"], "--game-id: give a whole number of at least 1")]:
        status, out, err = run_cli("replay", *args)
        assert (status, out) == (2, "") and err.count("\n") == 1 and said in err, err


# ----- an export of one game (issue 53, item 8): replayed without --game-id ----------------------
EXAMPLES = Path(__file__).resolve().parents[1] / "data" / "examples"


def test_an_export_of_one_game_is_replayed_without_game_id(tmp_path):
    """`companion export --format json` of a history of one game writes a list of one; replay asked
    for --game-id instead of replaying it. Now the list replays exactly as that game's own record."""
    state = tmp_path / "s"
    assert run_cli("import", str(write(tmp_path / "in.json", [clans_record(5, 3, ["Ann", "Bo", "Cy"])])),
                   "--state-dir", str(state))[0] == 0
    status, text, _ = run_cli("export", "--format", "json", "--state-dir", str(state))
    assert status == 0 and isinstance(json.loads(text), list) and len(json.loads(text)) == 1
    exported = write(tmp_path / "all.json", json.loads(text))
    alone = tmp_path / "alone.json"
    alone.write_text(run_cli("export", "--format", "json", "--game-id", "1", "--state-dir", str(state))[1])
    for extra in ([], ["--json"]):
        replayed = run_cli("replay", str(exported), *extra)
        assert replayed[0] == 0 and replayed[2] == "", replayed
        assert replayed == run_cli("replay", str(alone), *extra) == run_cli("replay", str(exported), "--game-id",
                                                                           "1", *extra)


@pytest.mark.parametrize("name", sorted(p.name.removesuffix(".record.json") for p in EXAMPLES.glob("*.record.json")))
def test_a_list_of_one_example_gives_the_contracts_output_byte_for_byte(tmp_path, name):
    """Contract 2: every example record, as the only game of an exported list, prints its X.expected.json."""
    record = json.loads((EXAMPLES / f"{name}.record.json").read_text(encoding="utf-8"))
    record["companion"] = {"game": "clans", "started": 1_700_000_000.0, "finished": 1_700_001_500.0,
                           "actions": len(record.get("moves", [])), "game_id": 7}
    listed = write(tmp_path / "list.json", [record])
    status, out, err = run_cli("replay", str(listed), "--json")
    assert (status, err) == (0, "") and out == (EXAMPLES / f"{name}.expected.json").read_text(encoding="utf-8")
    assert run_cli("replay", str(listed)) == run_cli("replay", str(EXAMPLES / f"{name}.record.json"))


def test_a_list_of_one_that_is_no_clans_game_is_one_line_exit_2(tmp_path):
    listed = write(tmp_path / "mammut.json", [mammut_extinct_record(1_700_000_000.0)])
    status, out, err = run_cli("replay", str(listed))
    assert (status, out) == (2, "") and err == (f"companion replay: {listed}: the only game of this file is a "
                                                "'mammut' game: replay reads Clans records\n")
