"""No crash loop (companion.kiosk.crashguard): a start that dies of an error while rebuilding or
showing the journal's game, twice at the same move, gets that move set aside; a start that just
stops (a pulled plug: SIGKILL here), however often, sets nothing aside.

`companion run` is started through a small wrapper, exactly as the real command would run
otherwise. CRASH_AT injects the error: rebuilding a journal's game of that many actions raises
(a bug in a game's replay of its journal), or aborts with CRASH_HOW=abort (a fatal
signal, as a crash in a C library). HOLD stops the start at a point and says so on
stdout, for the test to pull the plug there: `marked` (the marker just written, the game not
yet rebuilt) or `shown` (the first screens shown, a loaded game journaled, the marker not yet
removed).
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from tests.support import full_game_script

WRAPPER = """
import os, sys, threading
import companion.kiosk.daemon as daemon
from companion.kiosk.crashguard import CrashGuard
real_rebuild, limit = daemon.rebuild, int(os.environ.get("CRASH_AT", "999"))
def rebuild(journal, resumed, kind, rng):
    if resumed is not None and not resumed.finished and len(resumed.actions) >= limit:
        if os.environ.get("CRASH_HOW") == "abort":
            os.abort()  # a fatal signal, as a crash in a C library: no exception to catch
        raise RuntimeError("injected: this game cannot be rebuilt")
    return real_rebuild(journal, resumed, kind, rng)
daemon.rebuild = rebuild
def hold():
    print("HOLD", flush=True)
    threading.Event().wait()
hold_at = os.environ.get("HOLD")
if hold_at == "marked":
    real_before = CrashGuard.before_start
    def before_start(self):
        real_before(self)
        hold()
    CrashGuard.before_start = before_start
elif hold_at == "shown":
    def started(self):
        hold()
    CrashGuard.started = started
from companion.cli import main
sys.exit(main(sys.argv[1:]))
"""


def command(tmp_path: Path, *args: str) -> list[str]:
    wrapper = tmp_path / "wrapper.py"
    wrapper.write_text(WRAPPER)
    return [sys.executable, str(wrapper), "run", "--display", "dummy", "--state-dir", str(tmp_path / "state"), *args]


def env(**extra: object) -> dict:
    return dict(os.environ, PYTHONPATH=os.getcwd(), **{k: str(v) for k, v in extra.items()})


def run(tmp_path: Path, *args: str, crash_at: int = 999, how: str = "raise") -> subprocess.CompletedProcess:
    return subprocess.run(command(tmp_path, *args), capture_output=True, text=True,
                          env=env(CRASH_AT=crash_at, CRASH_HOW=how), timeout=120)


def pull_the_plug(tmp_path: Path, at: str, *args: str) -> None:
    """Start `companion run`, wait until it says it is held at `at`, and SIGKILL it there."""
    proc = subprocess.Popen(command(tmp_path, *args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env(HOLD=at))
    try:
        line = proc.stdout.readline()  # blocks until the start reached the point (or the process ended)
        assert line.strip() == "HOLD", (line, proc.stderr.read() if proc.poll() is not None else "")
        proc.send_signal(signal.SIGKILL)
        assert proc.wait(timeout=60) == -signal.SIGKILL
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()


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


def played(record_file: Path) -> list[tuple]:
    record = json.loads(record_file.read_text())
    return [(m["from"], m["to"]) if isinstance(m, dict) else tuple(m[:2]) for m in record["moves"]]


def marker(state: Path) -> dict:
    return json.loads((state / "starting.json").read_text())


def test_a_start_that_dies_of_an_error_twice_at_one_move_sets_it_aside(tmp_path):
    keys, empty, moves = key_files(tmp_path)
    state = tmp_path / "state"
    assert run(tmp_path, "--players", "2", "--seed", "5", "--keys", str(keys)).returncode == 0
    actions, aside = journal_rows(state)
    assert aside == 0

    for errors in (1, 2):  # resumes into the same error; a pulled plug between them counts for nothing
        again = run(tmp_path, "--keys", str(empty), crash_at=actions)
        assert again.returncode == 1, again.stderr
        assert "internal error: RuntimeError: injected" in again.stderr
        assert marker(state) == {"game": 1, "actions": actions, "errors": errors,
                                 "error": "RuntimeError: injected: this game cannot be rebuilt"}
        assert journal_rows(state) == (actions, 0)
        if errors == 1:
            for at in ("marked", "marked"):
                pull_the_plug(tmp_path, at, "--keys", str(empty))
                assert marker(state)["errors"] == 1

    out = tmp_path / "after.json"
    third = run(tmp_path, "--keys", str(empty), "--record-out", str(out), "-v", crash_at=actions)
    assert third.returncode == 0, third.stderr
    assert "Traceback" not in third.stderr
    assert "setting it aside" in third.stderr
    assert journal_rows(state) == (actions - 1, 1)  # set aside, never deleted
    copies = sorted(p.name for p in state.glob("journal-damaged-*.sqlite3"))
    assert len(copies) == 1  # and the journal as it was, byte for byte, beside it
    db = sqlite3.connect(state / copies[0])
    assert db.execute("SELECT COUNT(*) FROM actions").fetchone()[0] == actions
    db.close()
    assert played(out) == [tuple(m) for m in moves[:2]]
    assert not (state / "starting.json").exists()  # that start went through

    fourth = run(tmp_path, "--keys", str(empty), crash_at=actions)  # and the next start is an ordinary one
    assert fourth.returncode == 0, fourth.stderr
    assert journal_rows(state) == (actions - 1, 1)


def test_a_start_that_dies_of_a_fatal_signal_twice_sets_the_move_aside(tmp_path):
    keys, empty, _ = key_files(tmp_path)
    state = tmp_path / "state"
    assert run(tmp_path, "--players", "2", "--seed", "5", "--keys", str(keys)).returncode == 0
    actions, _ = journal_rows(state)
    died = run(tmp_path, "--keys", str(empty), crash_at=actions, how="abort")
    assert died.returncode == -signal.SIGABRT, died.stderr
    assert marker(state)["errors"] == 0  # no JSON written on the way down: the traceback beside it
    assert "Fatal Python error" in (state / "starting-fatal.txt").read_text()
    pull_the_plug(tmp_path, "marked", "--keys", str(empty))  # the next start counts it; a power cut adds nothing
    assert marker(state)["errors"] == 1 and not (state / "starting-fatal.txt").read_text()
    died = run(tmp_path, "--keys", str(empty), crash_at=actions, how="abort")
    assert died.returncode == -signal.SIGABRT and marker(state)["errors"] == 1
    third = run(tmp_path, "--keys", str(empty), "-v", crash_at=actions, how="abort")  # finds two: sets it aside
    assert third.returncode == 0, third.stderr
    assert journal_rows(state) == (actions - 1, 1)
    assert not (state / "starting-fatal.txt").exists() and not (state / "starting.json").exists()


def test_a_start_that_dies_once_sets_nothing_aside(tmp_path):
    keys, empty, _ = key_files(tmp_path)
    state = tmp_path / "state"
    assert run(tmp_path, "--players", "2", "--seed", "5", "--keys", str(keys)).returncode == 0
    actions, _ = journal_rows(state)
    assert run(tmp_path, "--keys", str(empty), crash_at=actions).returncode == 1
    # a start that goes through (the bug is fixed: an upgrade) clears the marker; nothing is lost
    assert run(tmp_path, "--keys", str(empty)).returncode == 0
    assert run(tmp_path, "--keys", str(empty), crash_at=actions).returncode == 1
    assert run(tmp_path, "--keys", str(empty)).returncode == 0
    assert journal_rows(state) == (actions, 0)


def test_power_cuts_during_start_never_set_a_move_aside(tmp_path):
    keys, empty, moves = key_files(tmp_path)
    state = tmp_path / "state"
    assert run(tmp_path, "--players", "2", "--seed", "5", "--keys", str(keys)).returncode == 0
    actions, _ = journal_rows(state)
    for at in ("marked", "shown", "marked", "marked", "shown", "shown"):  # a flaky supply, twice and more in a row
        pull_the_plug(tmp_path, at, "--keys", str(empty))
        assert marker(state) == {"game": 1, "actions": actions, "errors": 0}
    out = tmp_path / "after.json"
    last = run(tmp_path, "--keys", str(empty), "--record-out", str(out))
    assert last.returncode == 0, last.stderr
    assert journal_rows(state) == (actions, 0)
    assert played(out) == [tuple(m) for m in moves[:3]]
    assert not (state / "starting.json").exists()


def test_power_cuts_while_a_loaded_game_starts_lose_none_of_it(tmp_path):
    keys, empty, moves = key_files(tmp_path)
    record = tmp_path / "three.json"
    made = subprocess.run([sys.executable, "-m", "companion.cli", "run", "--display", "dummy", "--players", "2",
                           "--seed", "5", "--keys", str(keys), "--record-out", str(record)],
                          capture_output=True, text=True, env=env(), timeout=120)
    assert made.returncode == 0, made.stderr
    state = tmp_path / "state"
    pull_the_plug(tmp_path, "shown", "--load", str(record), "--keys", str(empty))  # the loaded game is journaled
    loaded, _ = journal_rows(state)
    assert loaded > 0
    for _ in range(3):  # and the box keeps losing power while it starts again
        pull_the_plug(tmp_path, "shown", "--keys", str(empty))
    out = tmp_path / "after.json"
    last = run(tmp_path, "--keys", str(empty), "--record-out", str(out))
    assert last.returncode == 0, last.stderr
    assert journal_rows(state) == (loaded, 0)
    assert played(out) == [tuple(m) for m in moves[:3]]


def test_only_errors_of_the_program_count(tmp_path):
    """Bad input (exit 2), a failing card (an OSError) and Ctrl-C are not the game's fault: the
    marker counts none of them; an error of the program counts once per start."""
    from companion.journal.store import Journal, JournalWriter
    from companion.kiosk.crashguard import CrashGuard
    from companion.util.errors import UsageError

    writer = JournalWriter(Journal(str(tmp_path)))
    writer.journal.start_game("clans", [{"a": "players", "n": 2}])
    guard = CrashGuard(writer)
    for exc in (UsageError("bad record"), OSError(5, "Input/output error"), KeyboardInterrupt()):
        guard.before_start()
        guard.died(exc)
        assert json.loads((tmp_path / "starting.json").read_text())["errors"] == 0
    guard.before_start()
    guard.died(RuntimeError("a bug"))
    guard.died(RuntimeError("the same start, told twice"))  # one start counts once
    assert json.loads((tmp_path / "starting.json").read_text())["errors"] == 1
    guard.before_start()
    guard.started()
    assert not (tmp_path / "starting.json").exists()
    guard.died(RuntimeError("after the first screens"))  # the loop's own failures are contained, not counted
    assert not (tmp_path / "starting.json").exists()
