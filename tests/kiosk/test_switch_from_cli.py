"""`companion run --game KIND` while the journal holds an unfinished game of another kind: the table
asks first, as the menu's switch does ("Other game? This game will be abandoned."). BACK (*) keeps
the game, and `run --game` of its own kind resumes it; OK (#) switches and abandons it, as the
menu does. Both ways, with moves in each game."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from companion.kiosk import daemon
from tests.support import full_game_script


def run(tmp_path: Path, keys: str, *argv: str) -> daemon.Daemon:
    script = tmp_path / "k"
    script.write_text(keys)
    d = daemon.build(daemon.parse_args(["--display", "dummy", "--state-dir", str(tmp_path / "state"),
                                        "--keys", str(script), *argv]))
    assert d.run() == 0
    return d


def games(tmp_path: Path) -> list[tuple[str, int, bool]]:
    """(kind, journaled actions, abandoned) of each game in the journal, oldest first."""
    db = sqlite3.connect(tmp_path / "state" / "journal.sqlite3")
    try:
        rows = db.execute("SELECT g.id, g.kind, g.result, (SELECT COUNT(*) FROM actions a WHERE a.game = g.id) "
                          "FROM games g ORDER BY g.id").fetchall()
    finally:
        db.close()
    return [(kind, n, '"abandoned": true' in (result or "")) for _, kind, result, n in rows]


def mammut_keys() -> str:
    """Keys that answer Mammut's new-game questions and make its first moves (found by driving it)."""
    from companion.games.mammut.controller import MammutTable

    c = MammutTable.new(random.Random(3))
    typed = []
    while c.game is None:
        for k in "2#":
            c.handle(k, 0)
        typed.append("2#")
    return "".join(typed) + "#"


def test_run_game_with_another_game_unfinished_asks_both_ways(tmp_path):
    script, _, _ = full_game_script(2, 5)
    run(tmp_path, "\n".join(script.split()[:3]) + "\n", "--players", "2", "--seed", "5")
    [(kind, clans_actions, abandoned)] = games(tmp_path)
    assert kind == "clans" and not abandoned

    d = run(tmp_path, "", "--game", "mammut")  # asked, and nothing answered: the Clans game stays
    assert d.shell.kind == "clans" and d.shell.question == "switch"
    assert d.shell.screen().name == "switch?"
    d = run(tmp_path, "*", "--game", "mammut")  # BACK: no
    assert d.shell.kind == "clans" and d.shell.question is None
    d = run(tmp_path, "", "--game", "clans")  # and --game clans resumes it, every move
    assert d.shell.kind == "clans" and d.shell.question is None
    assert games(tmp_path) == [("clans", clans_actions, False)]

    d = run(tmp_path, "#" + mammut_keys(), "--game", "mammut", "--seed", "3")  # OK: as the menu, it is abandoned
    assert d.shell.kind == "mammut" and d.shell.game.in_progress()
    (_, _, clans_abandoned), (kind, mammut_actions, abandoned) = games(tmp_path)
    assert clans_abandoned and kind == "mammut" and mammut_actions > 0 and not abandoned

    d = run(tmp_path, "*", "--game", "clans")  # the other way: asked, BACK keeps the Mammut game
    assert d.shell.kind == "mammut" and d.shell.question is None
    d = run(tmp_path, "", "--game", "mammut")
    assert d.shell.kind == "mammut" and d.shell.game.in_progress()
    assert games(tmp_path)[-1] == ("mammut", mammut_actions, False)

    d = run(tmp_path, "#", "--game", "clans")  # OK: a new Clans game at its questions
    assert d.shell.kind == "clans" and not d.shell.game.in_progress()


def test_run_game_with_a_game_not_yet_begun_switches_without_asking(tmp_path):
    run(tmp_path, "")  # a Clans game at its new-game questions: nothing to abandon
    d = run(tmp_path, "", "--game", "mammut")
    assert d.shell.kind == "mammut" and d.shell.question is None
