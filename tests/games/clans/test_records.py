"""Game records and the commands replay, new and selfplay (spec sections 1-3)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from companion.games.clans.record import MAX_MESSAGE, Record, RecordError, summary
from companion.cli import main as cli

from conftest import example_dir

EXAMPLES = sorted(p.name[: -len(".record.json")] for p in example_dir().glob("*.record.json"))


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True)


def test_there_are_examples():
    assert len(EXAMPLES) >= 6


@pytest.mark.parametrize("name", EXAMPLES)
def test_replay_matches_expected_output(name, examples, capsys):
    assert cli(["replay", str(examples / f"{name}.record.json"), "--json"]) == 0
    out = capsys.readouterr().out
    assert out == (examples / f"{name}.expected.json").read_text(encoding="utf-8")  # byte for byte


@pytest.mark.parametrize("name", EXAMPLES)
def test_records_round_trip_unchanged(name, examples, tmp_path):
    src = examples / f"{name}.record.json"
    rec = Record.load(src)
    rec.save(tmp_path / "copy.json")
    assert (tmp_path / "copy.json").read_bytes() == src.read_bytes()


def test_replay_of_a_record_built_from_a_game(tmp_path):
    rec = Record.load(example_dir() / "order-matters.record.json")
    game = rec.play()
    again = Record.from_game(game, rec.colors)
    assert summary(again.play(), rec.colors) == summary(game, rec.colors)
    assert [m for m in again.moves] == rec.moves


def test_text_replay_is_readable(examples, capsys):
    assert cli(["replay", str(examples / "13th-village.record.json")]) == 0
    out = capsys.readouterr().out
    assert "status: finished" in out and "winner: player 2" in out and "destroyed" in out


def _bad(tmp_path, data) -> subprocess.CompletedProcess:
    path = tmp_path / "bad.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return run("replay", str(path), "--json")


def _base(examples) -> dict:
    return json.loads((examples / "in-progress.record.json").read_text())


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d["moves"].__setitem__(4, {"from": 1, "to": 59}), "move 5 (1->59): 59 is not next to 1"),
        (lambda d: d["moves"].append({"from": 60, "to": 60}), "move 21 (60->60):"),
        (lambda d: d["setup"].__setitem__("3", "purple"), "unknown color 'purple'"),
        (lambda d: d["setup"].__setitem__("3", d["setup"]["4"]), "setup: region 1 (territories 1-5) must hold one"),
        (lambda d: d["setup"].pop("17"), "setup: territory 17 has no hut"),
        (lambda d: d.__setitem__("players", 5), "players: must be 2, 3 or 4"),
        (lambda d: d.__setitem__("first_player", 3), "first_player: must be a player index 0..2"),
        (lambda d: d.__setitem__("colors", ["red", "red", "blue"]), "colors: each player owns a different color"),
        (lambda d: d.__setitem__("colors", ["red", "pink", "blue"]), "colors: unknown color 'pink'"),
        (lambda d: d["moves"].__setitem__(0, {"from": "12", "to": 13}), "move 1: must be an object with integer"),
        (lambda d: d["moves"].__setitem__(0, dict(d["moves"][0], order=[99])), "move 1 (|): order lists 99, but move"),
    ],
)
def test_bad_records_exit_2_with_one_clear_line(tmp_path, examples, change, message):
    data = _base(examples)
    change(data)
    res = _bad(tmp_path, data)
    assert res.returncode == 2 and res.stdout == ""
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1
    assert all(part in lines[0] for part in message.split("|")), lines[0]


def test_a_record_error_is_always_one_short_line():
    """The last guard: whatever a check says, the message is one line of at most MAX_MESSAGE characters."""
    message = str(RecordError("move 1: " + "why\n" * 1000))
    assert "\n" not in message and len(message) == MAX_MESSAGE and message.startswith("move 1: why why")


@pytest.mark.parametrize("key", ["\u00b2", "\u0661", "01", "0", "+1", " 1", "1 ", "1\n", "", "100"])
def test_setup_keys_are_ascii_territory_numbers(examples, key):
    data = _base(examples)
    data["setup"][key] = data["setup"].pop("1")
    with pytest.raises(RecordError, match=r"^setup: key .* is not a territory number \(1-60\)$"):
        Record.from_dict(data)


def test_setup_key_61_is_named_by_the_rules(examples):
    data = _base(examples)
    data["setup"]["61"] = "red"
    with pytest.raises(RecordError, match=r"^setup: 61 is not a territory \(1-60\)$"):
        Record.from_dict(data)


def test_bad_json_and_missing_file(tmp_path):
    res = _bad(tmp_path, '{"players": 3,')
    assert res.returncode == 2 and "not valid JSON" in res.stderr
    res = run("replay", str(tmp_path / "nope.json"))
    assert res.returncode == 2 and "cannot read" in res.stderr


def test_order_on_a_move_that_founds_nothing_must_be_empty(examples):
    data = _base(examples)
    data["moves"][0]["order"] = []
    Record.from_dict(data).play()  # [] is exactly the (empty) isolated set
    data["moves"][0]["order"] = [5]
    with pytest.raises(RecordError, match="move 1"):
        Record.from_dict(data).play()


def test_new_writes_a_valid_seeded_record(tmp_path, capsys):
    assert cli(["new", "--players", "3", "--seed", "42", "--out", str(tmp_path / "n.json")]) == 0
    rec = Record.load(tmp_path / "n.json")
    assert rec.players == 3 and rec.moves == [] and 0 <= rec.first_player < 3
    assert cli(["new", "--players", "3", "--seed", "42"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads((tmp_path / "n.json").read_text())
    assert cli(["new", "--players", "3", "--seed", "43"]) == 0
    assert json.loads(capsys.readouterr().out)["setup"] != rec.to_dict()["setup"]


def test_selfplay_reports_and_is_deterministic(capsys):
    assert cli(["selfplay", "--games", "40", "--seed", "7"]) == 0
    a = json.loads(capsys.readouterr().out)
    assert set(a) == {"games", "seconds", "games_per_second", "plies", "finished", "stalled"}
    assert a["games"] == 40 and a["finished"] + a["stalled"] == 40 and a["plies"] > 40 * 30
    assert cli(["selfplay", "--games", "40", "--seed", "7", "--players", "2"]) == 0
    b = json.loads(capsys.readouterr().out)
    assert cli(["selfplay", "--games", "40", "--seed", "7", "--players", "2"]) == 0
    c = json.loads(capsys.readouterr().out)
    assert (b["plies"], b["finished"]) == (c["plies"], c["finished"])


def test_unknown_command_exits_2(capsys):
    assert cli(["frobnicate"]) == 2
    assert "unknown command" in capsys.readouterr().err
