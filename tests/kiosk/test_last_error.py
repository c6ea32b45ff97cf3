"""The first screen after the companion died of an error says so (companion.kiosk.crashguard's
LAST_ERROR, companion.kiosk.daemon.tell_last_error); a pulled plug or a refused input says
nothing, and the notice shows once."""

from __future__ import annotations

import random

from companion.games import GAMES
from companion.journal.store import Journal, JournalWriter
from companion.kiosk import crashguard
from companion.kiosk.crashguard import LAST_ERROR, CrashGuard, start_died
from companion.kiosk.daemon import tell_last_error
from companion.util.errors import UsageError
from companion.table.shell import Shell


def start(state) -> tuple[CrashGuard, Shell]:
    """One start of the kiosk on `state`: the guard looks at the last run, the table's first screen."""
    guard = CrashGuard(JournalWriter(Journal(state)))
    guard.before_start()
    shell = Shell(list(GAMES.values()), "clans", GAMES["clans"].load()(random.Random(0)), random.Random(0))
    tell_last_error(shell, guard)
    return guard, shell


def shows_the_notice(shell: Shell) -> bool:
    return shell.notice.shown and shell.notice.name == "last-error"


def test_an_error_after_the_start_is_told_at_the_next_start(tmp_path, monkeypatch):
    guard, shell = start(tmp_path)
    assert not shows_the_notice(shell)
    guard.started()  # the first screens showed; the run goes on, then dies of a bug
    start_died(RuntimeError("a bug in a screen"))
    assert (tmp_path / LAST_ERROR).exists()
    guard, shell = start(tmp_path)
    assert guard.last_error == "RuntimeError: a bug in a screen"
    assert shows_the_notice(shell)
    assert "stopped with an error" in " ".join(shell.screen().lines)
    guard.started()
    assert not (tmp_path / LAST_ERROR).exists(), "told once"
    _, shell = start(tmp_path)
    assert not shows_the_notice(shell)


def test_an_error_during_the_start_is_told_too(tmp_path):
    start(tmp_path)
    start_died(ValueError("cannot rebuild"))  # before started(): the crash guard's own count as well
    guard, shell = start(tmp_path)
    assert guard.last_error == "ValueError: cannot rebuild" and shows_the_notice(shell)


def test_a_pulled_plug_or_a_refused_input_says_nothing(tmp_path):
    guard, _ = start(tmp_path)
    guard.started()
    # a pulled plug: the process just ends, nothing is recorded
    _, shell = start(tmp_path)
    assert not shows_the_notice(shell)
    start_died(UsageError("--players must be 2, 3 or 4"))
    _, shell = start(tmp_path)
    assert not shows_the_notice(shell)


def test_an_unreadable_record_is_an_error_all_the_same(tmp_path):
    (tmp_path / LAST_ERROR).write_bytes(b"\xff\x00{")
    guard, shell = start(tmp_path)
    assert guard.last_error == "unknown" and shows_the_notice(shell)


def teardown_function() -> None:
    crashguard._starting = None

