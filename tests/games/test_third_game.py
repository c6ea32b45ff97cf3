"""A third game is its folder and one registration line: the daemon plays the test-only
counter game (tests/games/counter_game/) headless, journals it, resumes it, offers it in
every game's menu, and the history, statistics and exports count it with the facts of its
`GameType`, without a line of the table, the daemon or the history knowing it."""

from __future__ import annotations

import ast
import re
import dataclasses
import json
import sqlite3
from pathlib import Path

import pytest

from companion import games
from tests.support import run_cli
from companion.kiosk import daemon, loop

PACKAGE = Path(games.__file__).resolve().parents[1]


def run(tmp_path: Path, keys: str, *args: str) -> loop.Daemon:
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
    assert "7 Play Counter" in menu and "6 Play Clans" in menu and menu[-5] == "9 Shut down" and menu[-4] == "10 About"
    d = run(tmp_path, "D7#" + "#3#", "--game", "mammut", "--no-journal")
    assert d.shell.kind == "counter" and d.shell.screen().header.right == "3/20"  # 3 added in the new game


def test_run_help_lists_every_registered_game(counter, capsys):
    with pytest.raises(SystemExit):
        daemon.parse_args(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert all(kind in text for kind in ("clans", "mammut", "counter (Counter to Twenty (The test suite))"))
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


def test_no_module_outside_a_game_imports_its_code():
    """Only a game's own folder (and the benchmarks, which time Clans and Mammut by name) import
    a game's modules: everything else goes through the registry and the game's GameType."""
    for path in sorted(PACKAGE.rglob("*.py")):
        part = path.relative_to(PACKAGE).parts[0]
        if part in ("games", "bench"):
            continue
        named = [m for m in imports_of(path) if m.startswith("companion.games.")]
        assert not named, f"{path} imports {named}"


def test_the_table_and_the_daemon_know_no_game():
    for path in sorted((PACKAGE / "table").glob("*.py")):
        assert not any(m.startswith("companion.games") for m in imports_of(path)), path
    for name in ("kiosk/daemon.py", "kiosk/loop.py", "cli.py"):
        text = (PACKAGE / name).read_text().lower()
        assert "clans" not in text and "mammut" not in text, name
        assert not any(m.startswith("companion.games.") for m in imports_of(PACKAGE / name)), name


def cli(*argv: str) -> str:
    status, out, err = run_cli(*argv)
    assert status == 0, err
    return out


def test_history_statistics_and_exports_count_it_with_its_description(counter, tmp_path):
    state = tmp_path / "state"
    run(tmp_path, "#9#9#2#", "--game", "counter", "--state-dir", str(state), "--bot", "counter")
    assert "Counter to Twenty" in cli("history", "--state-dir", str(state))
    tables = json.loads(cli("stats", "--state-dir", str(state), "--tables", "--json"))
    assert list(tables["games"]) == ["counter"]
    bgstats = json.loads(cli("export", "--state-dir", str(state), "--format", "bgstats"))
    [game] = bgstats["games"]
    assert (game["name"], game["bggId"], game["bggYear"], game["designers"]) == (
        "Counter to Twenty", 99999, 2026, "The test suite")
    assert (game["minPlayerCount"], game["maxPlayerCount"], game["minPlayTime"], game["minAge"]) == (1, 4, 1, 6)
    assert [p["score"] for p in bgstats["plays"][0]["playerScores"]] == ["20"]
    xml = cli("export", "--state-dir", str(state), "--format", "bgg")
    assert 'objectid="99999"' in xml and 'name="Counter to Twenty"' in xml


def test_a_wrong_description_is_refused_at_registration(counter):
    with pytest.raises(ValueError, match="registered already"):
        games.register_game("counter_game.about")
    for wrong, why in [({"kind": "Counter!"}, "lower-case"), ({"min_players": 5}, "min_players <= max_players"),
                       ({"searcher": None}, "bots need a searcher"), ({"title": ""}, "required")]:
        bad = dataclasses.replace(counter, **{"kind": "other", **wrong})
        with pytest.raises(ValueError, match=why):
            games.register_game(bad)
    assert "other" not in games.GAMES
    with pytest.raises(ValueError, match="by its GameType"):
        games.register_game("counter_game.history")  # a module without GAME


GAME_WORDS = re.compile(r"villages?|camps?|extinct\w*|mammo\w*|mammut|clans|mcts|tribes?", re.I)
# the product's own name and the box's default host name carry "Clans": they name the companion, no game
PRODUCT = re.compile(r"clans[ -]companion|clans\.lan|https://github\.com/clans-companion/\S*", re.I)
# What still knows a game, and why (each entry: a path under companion/ and the words it may hold):
KNOWN = {
    "history/cli_export.py": {"clans"},  # --bgg-id's help gives an example ("clans=4636"): the help stays as it was
    "box/card.py": {"clans"},  # the card's default host name, clans.local, is the product's
}


def words_in(path: Path) -> set[str]:
    """The game words a module holds as identifiers or strings (its docstrings and comments left out),
    or a stylesheet anywhere but in its comments."""
    text = path.read_text()
    if path.suffix == ".css":
        return {m.lower() for m in GAME_WORDS.findall(PRODUCT.sub("", re.sub(r"/\*.*?\*/", "", text, flags=re.S)))}
    tree = ast.parse(text)
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and n.body
            and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            found |= {m.lower() for m in GAME_WORDS.findall(PRODUCT.sub("", node.value))}
        name = getattr(node, "id", None) or getattr(node, "attr", None) or getattr(node, "arg", None)
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            name = node.name
        if isinstance(name, str):
            found |= {m.lower() for m in GAME_WORDS.findall(name)}
    return found


def test_no_game_word_outside_the_games():
    """The table, the daemon, the page (its CSS too), the history, the box and the hardware name no
    game's things: those come from the registry and each game's folder."""
    for part in ("table", "kiosk", "web", "history", "box", "hw"):
        for path in sorted((PACKAGE / part).rglob("*")):
            if path.suffix not in (".py", ".css"):
                continue
            name = str(path.relative_to(PACKAGE))
            extra = words_in(path) - KNOWN.get(name, set())
            assert not extra, f"{name} names {sorted(extra)}"
