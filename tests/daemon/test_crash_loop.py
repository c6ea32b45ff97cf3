"""No crash loop (companion.kiosk.crashguard): a process that dies while showing a move, and dies
again at every start after it, gets that move set aside once two starts in a row died there.

The crash is injected into screen building with os._exit, which no containment can catch
(as an out-of-memory kill or a bug in the interpreter would not be): `companion run` is
started through a small wrapper that patches Clans' build_screen to die once the game has
CRASH_AT moves, exactly as the real command would otherwise run.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from tests.support import full_game_script

CRASHED = 70
WRAPPER = """
import os, sys
import companion.games.clans.screens as screens
real, limit = screens.build_screen, int(os.environ["CRASH_AT"])
def build_screen(state, ui, info):
    game = getattr(state, "game", None)
    if game is not None and game.ply >= limit:
        os._exit(70)
    return real(state, ui, info)
screens.build_screen = build_screen
from companion.cli import main
sys.exit(main(sys.argv[1:]))
"""


def run(tmp_path: Path, *args: str, crash_at: int = 3) -> subprocess.CompletedProcess:
    wrapper = tmp_path / "crashing.py"
    wrapper.write_text(WRAPPER)
    env = dict(os.environ, CRASH_AT=str(crash_at), PYTHONPATH=os.getcwd())
    return subprocess.run([sys.executable, str(wrapper), "run", "--display", "dummy", "--state-dir",
                           str(tmp_path / "state"), *args], capture_output=True, text=True, env=env, timeout=120)


def journal_rows(state: Path) -> tuple[int, int]:
    db = sqlite3.connect(state / "journal.sqlite3")
    try:
        return (db.execute("SELECT COUNT(*) FROM actions").fetchone()[0],
                db.execute("SELECT COUNT(*) FROM set_aside").fetchone()[0])
    finally:
        db.close()


def key_files(tmp_path: Path) -> tuple[Path, Path, list]:
    """A script of a game's first three moves, an empty script, and the moves."""
    script, moves, _ = full_game_script(2, 5)
    keys = tmp_path / "three.keys"
    keys.write_text("\n".join(script.split()[:3]) + "\n")
    empty = tmp_path / "empty.keys"
    empty.write_text("")
    return keys, empty, moves


def test_a_start_that_dies_twice_at_one_move_sets_it_aside(tmp_path):
    keys, empty, moves = key_files(tmp_path)
    state = tmp_path / "state"

    first = run(tmp_path, "--players", "2", "--seed", "5", "--keys", str(keys))
    assert first.returncode == CRASHED, first.stderr  # died showing the third move, journaled before
    actions, aside = journal_rows(state)
    assert aside == 0

    for starts in (1, 2):  # resumes into the same crash: marked, then known to have died there once
        again = run(tmp_path, "--keys", str(empty))
        assert again.returncode == CRASHED, again.stderr
        marker = json.loads((state / "starting.json").read_text())
        assert marker["starts"] == starts and marker["actions"] == actions
        assert journal_rows(state) == (actions, 0)

    out = tmp_path / "after.json"
    third = run(tmp_path, "--keys", str(empty), "--record-out", str(out), "-v")
    assert third.returncode == 0, third.stderr
    assert "Traceback" not in third.stderr
    assert "setting it aside" in third.stderr
    assert journal_rows(state) == (actions - 1, 1)  # set aside, never deleted
    copies = sorted(p.name for p in state.glob("journal-damaged-*.sqlite3"))
    assert len(copies) == 1  # and the journal as it was, byte for byte, beside it
    db = sqlite3.connect(state / copies[0])
    assert db.execute("SELECT COUNT(*) FROM actions").fetchone()[0] == actions
    db.close()
    record = json.loads(out.read_text())
    assert [(m["from"], m["to"]) if isinstance(m, dict) else tuple(m[:2]) for m in record["moves"]] == \
        [tuple(m) for m in moves[:2]]
    assert not (state / "starting.json").exists()  # that start went through

    fourth = run(tmp_path, "--keys", str(empty))  # and the next start is an ordinary one
    assert fourth.returncode == 0, fourth.stderr
    assert journal_rows(state) == (actions - 1, 1)


def test_a_start_that_dies_once_sets_nothing_aside(tmp_path):
    keys, empty, _ = key_files(tmp_path)
    state = tmp_path / "state"
    assert run(tmp_path, "--players", "2", "--seed", "5", "--keys", str(keys)).returncode == CRASHED
    actions, _ = journal_rows(state)
    # a start that goes through (the crash is fixed: an upgrade) clears the marker; nothing is lost
    assert run(tmp_path, "--keys", str(empty), crash_at=99).returncode == 0
    assert run(tmp_path, "--keys", str(empty)).returncode == CRASHED
    assert run(tmp_path, "--keys", str(empty), crash_at=99).returncode == 0
    assert journal_rows(state) == (actions, 0)
