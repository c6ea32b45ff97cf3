"""A third game is one module and one registry line: the daemon plays the test-only
counter game headless, journals it, resumes it, and offers it in every game's menu,
without a line of table/ or the daemon knowing it."""

from __future__ import annotations

import ast
import json
import sqlite3
from pathlib import Path

import pytest

from companion import games
from companion.kiosk import daemon
from companion.table.protocol import GameEntry

PACKAGE = Path(games.__file__).resolve().parents[1]
COUNTER = GameEntry("counter", "Counter", "counter_game", "a counter to 20", searcher="counter_game:make_searcher")


@pytest.fixture
def counter(monkeypatch):
    monkeypatch.setitem(games.GAMES, "counter", COUNTER)  # the one registry line


def run(tmp_path: Path, keys: str, *args: str) -> daemon.Daemon:
    script = tmp_path / "keys.txt"
    script.write_text(keys)
    d = daemon.build(daemon.parse_args(["--display", "dummy", "--keys", str(script), *args]))
    assert d.run() == 0
    return d


def test_daemon_plays_journals_and_resumes_a_registered_game(counter, tmp_path, caplog):
    state, out = tmp_path / "state", tmp_path / "out.json"
    caplog.set_level("INFO", logger="companion.run")
    d = run(tmp_path, "#5#7#", "--game", "counter", "--state-dir", str(state), "-v")
    assert d.shell.kind == "counter" and d.shell.screen().text().splitlines()[1] == "Counter  12/20"
    assert [m for m in caplog.messages if m.startswith("confirmed")] == [
        'confirmed {"a":"start"}', 'confirmed {"a":"add","n":5}', 'confirmed {"a":"add","n":7}']
    caplog.clear()
    d = run(tmp_path, "C" + "9#", "--state-dir", str(state), "--record-out", str(out))  # no --game: resumes
    assert "resumed game 1 (3 actions)" in caplog.messages
    assert json.loads(out.read_text()) == {"adds": [5, 9]}
    d = run(tmp_path, "D2#" + "6#", "--state-dir", str(state))  # the menu's Ask is a Hint, answered: add 6
    assert [f for f in caplog.messages if f.startswith("hint for P1: 6")]
    db = sqlite3.connect(state / "journal.sqlite3")
    kind, result = db.execute("SELECT kind, result FROM games").fetchone()
    assert kind == "counter" and json.loads(result) == {"total": 20, "adds": 3}


def test_every_game_offers_the_third_one_and_switches_to_it(counter, tmp_path):
    d = run(tmp_path, "D", "--game", "mammut")
    menu = d.shell.screen().choices
    assert "7 Play Counter" in menu and "6 Play Clans" in menu and menu[-4] == "9 Shut down"
    d = run(tmp_path, "D7#" + "#3#", "--game", "mammut", "--no-journal")
    assert d.shell.kind == "counter" and d.shell.screen().header.right == "3/20"  # 3 added in the new game


def test_run_help_lists_every_registered_game(counter, capsys):
    with pytest.raises(SystemExit):
        daemon.parse_args(["--help"])
    text = capsys.readouterr().out
    assert all(kind in text for kind in ("clans", "mammut", "counter"))
    with pytest.raises(SystemExit):
        daemon.parse_args(["--game", "chess"])
    assert "invalid choice: 'chess'" in capsys.readouterr().err


def imports_of(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return names


def test_the_table_and_the_daemon_know_no_game():
    for path in sorted((PACKAGE / "table").glob("*.py")):
        assert not any(m.startswith("companion.games") for m in imports_of(path)), path
    for name in ("kiosk/daemon.py", "kiosk/loop.py", "cli.py"):
        text = (PACKAGE / name).read_text().lower()
        assert "clans" not in text and "mammut" not in text, name
        assert not any(m.startswith("companion.games.") for m in imports_of(PACKAGE / name)), name
