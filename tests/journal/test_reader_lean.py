"""The journal knows no game's result: a lean read of the finished games leaves out what its caller
names, per game kind, and the history names what each game's statistics never read (its history
module's `HEAVY`: Clans' huts, setup and moves).

Thousands of finished games are read for a list or the statistics in a fraction of a second because
SQLite (in C) drops the heavy parts of each result before Python parses it; which parts those are is
the game's to say, not the journal's.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from companion.history import plays
from companion.journal.reader import JournalReader
from companion.journal.store import Journal

JOURNAL = Path(__file__).resolve().parents[2] / "companion" / "journal"


def clans_result() -> dict:
    return {"status": "finished", "totals": [40, 35], "winners": [0], "huts": [[1, 2], [3, 4]],
            "villages": [{"founder": 0, "territory": 1, "epoch": 1}],
            "record": {"board": "clans-r1", "players": 2, "first_player": 0, "colors": ["red", "blue"],
                       "setup": {"1": "red"}, "moves": [[1, 2], [3, 4]], "names": ["Anna", "Ben"]}}


@pytest.fixture
def state(tmp_path: Path) -> Path:
    """A finished Clans game, and a finished game of another kind whose result also has "huts"."""
    j = Journal(tmp_path)
    j.start_game("clans", [])
    j.finish(clans_result())
    j.start_game("mammut", [])
    j.finish({"winners": [1], "huts": "the other game's own", "record": {"moves": [9]}})
    j.close()
    return tmp_path


def results(rows: list[tuple]) -> dict[str, dict]:
    return {row[1]: json.loads(row[4]) for row in rows}


def test_a_lean_read_leaves_out_what_the_caller_names_for_that_kind_only(state):
    reader = JournalReader(state)
    full = results(reader.finished_games())
    assert full["clans"] == clans_result()
    lean = results(reader.finished_games(leave_out={"clans": ("huts", "record.setup", "record.moves")}))
    assert "huts" not in lean["clans"] and set(lean["clans"]["record"]) == {"board", "players", "first_player",
                                                                            "colors", "names"}
    assert lean["clans"]["totals"] == [40, 35] and lean["clans"]["villages"] == clans_result()["villages"]
    assert lean["mammut"] == full["mammut"]  # another game's "huts" and moves are its own: kept
    assert results(reader.finished_games(leave_out={})) == full


@pytest.mark.parametrize("bad", ["", "$.huts", "huts'); DROP TABLE games; --", "a..b", ".a", "a[0]", "a b"])
def test_a_part_to_leave_out_is_a_dotted_key_nothing_else(state, bad):
    with pytest.raises(ValueError):
        JournalReader(state).finished_games(leave_out={"clans": (bad,)})


def test_the_history_asks_each_game_for_its_heavy_parts(state):
    assert plays.lean_parts()["clans"] == ("huts", "record.setup", "record.moves")
    lean = plays.read_history(state, full=False).finished
    full = plays.read_history(state).finished
    clans = next(p for p in lean if p.game == "clans")
    assert "setup" not in clans.record and "moves" not in clans.record
    assert [(p.players, p.totals, p.winners, p.extras) for p in lean] == \
        [(p.players, p.totals, p.winners, p.extras) for p in full]


def test_the_journal_names_no_part_of_a_games_result():
    """The only JSON paths written in companion/journal/ are the journal's own marks on a result
    (an imported game, a game taken out of the history), never a part of a game's (`'$.huts'`)."""
    own = {"$.imported", "$.removed"}
    paths = []
    for path in sorted(JOURNAL.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                paths += [f"{path.name}:{node.lineno}: {p}" for p in re.findall(r"\$\.[A-Za-z_][\w.]*", node.value)
                          if p not in own]
    assert not paths, "the journal names parts of a game's result:\n" + "\n".join(paths)
    for kind, parts in plays.lean_parts().items():
        assert all(re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", part) for part in parts), kind
