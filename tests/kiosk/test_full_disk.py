"""A write that fails is never confirmed on screen: the key is refused, the game stays as the
journal holds it, the table is told what to do, and play goes on once writing works (issue 11 item 2)."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

from companion.kiosk import daemon
from companion.games.clans.record import Record
from companion.journal.store import JOURNAL_EFFECTS, Journal, JournalWriter

from tests.support import full_game_script

ROOT = Path(__file__).resolve().parents[2]


def moves_of(script: str) -> list[str]:
    return [line for line in script.splitlines() if line.count("#") == 2]


def test_a_refused_write_refuses_the_key_and_play_goes_on_when_writing_works(tmp_path, monkeypatch):
    script, moves, _ = full_game_script(2, 3)
    lines = script.splitlines()
    state = tmp_path / "state"
    keys = tmp_path / "k"
    keys.write_text("")
    d = daemon.build(daemon.parse_args(["--display", "dummy", "--players", "2", "--seed", "3", "--keys", str(keys),
                                        "--state-dir", str(state)]))
    d.shell.handle("#", 0.0)  # nothing: the walkthrough is skipped by --players; keeps the loop's state
    d.drain()
    for line in lines[:4]:
        for k in line:
            d.step(k)
    before = d.shell.game.record().to_dict()
    real = JournalWriter.write_all
    failing = {"on": True}

    def full_disk(self, effects):
        effects = list(effects)
        if failing["on"] and any(isinstance(e, JOURNAL_EFFECTS) for e in effects):  # the rest never touches the disk
            raise OSError(28, "No space left on device")
        return real(self, effects)

    monkeypatch.setattr(JournalWriter, "write_all", full_disk)
    for k in lines[4]:
        d.step(k)
    screen = d.shell.screen()
    assert screen.name == "unsaved" and "not taken" in " ".join(screen.lines)
    assert d.shell.game.record().to_dict() == before  # nothing changed
    d.step("*")  # dismisses the message only (# would turn its page)
    assert d.shell.game.record().to_dict() == before
    failing["on"] = False  # room again
    for line in lines[4:6]:
        for k in line:
            d.step(k)
    assert d.shell.screen().name != "unsaved"
    d.journal.journal.close()
    resumed = Journal(state).resume()
    rebuilt = d.shell.game.from_actions(resumed.actions)
    assert rebuilt.record().to_dict() == d.shell.game.record().to_dict()
    assert len(rebuilt.record().moves) == len(before["moves"]) + len(moves_of("\n".join(lines[4:6])))


def _limit_files(size: int):
    def preexec() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return preexec


def test_under_a_file_size_limit_nothing_unsaved_is_confirmed_and_nothing_is_lost(tmp_path):
    """The tester's measurement: `ulimit -f` after 10 moves showed 18 moves and 11 came back."""
    script, moves, _ = full_game_script(2, 5)
    lines = script.splitlines()
    state, keys, out = tmp_path / "state", tmp_path / "k", tmp_path / "r.json"
    base = [sys.executable, "-m", "companion", "run", "--display", "dummy", "--state-dir", str(state), "-v",
            "--keys", str(keys), "--record-out", str(out)]
    keys.write_text("\n".join(lines[:10]) + "\n")
    first = subprocess.run(base + ["--players", "2", "--seed", "5"], capture_output=True, text=True, cwd=ROOT,
                           timeout=120)
    assert first.returncode == 0, first.stderr
    saved = Record.load(out).moves
    assert len(saved) == len(moves_of("\n".join(lines[:10])))
    limit = max(f.stat().st_size for f in state.iterdir()) + 1
    keys.write_text("\n".join(lines[10:20]) + "\n")
    second = subprocess.run(base, capture_output=True, text=True, cwd=ROOT, timeout=120,
                            preexec_fn=_limit_files(limit))
    assert second.returncode == 0, second.stderr[-2000:]
    assert "cannot write" in second.stderr and "Traceback" not in second.stderr.split("cannot write")[0]
    shown = Record.load(out).moves  # what the box showed at exit
    confirmed = [ln for ln in second.stderr.splitlines() if " confirmed {" in ln]
    keys.write_text("")
    third = subprocess.run(base, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert third.returncode == 0, third.stderr
    back = Record.load(out).moves
    assert back == shown  # what was shown is exactly what came back
    assert back[:len(saved)] == saved and len(back) - len(saved) == sum('"a":"move"' in c for c in confirmed)
    os.environ.get("CI")  # (keeps flake8 quiet about os when the limit helper changes)


def test_a_journal_that_cannot_be_opened_refuses_every_key_until_it_can(tmp_path):
    state = tmp_path / "state"
    (state / "journal.sqlite3").mkdir(parents=True)  # a directory where the journal's file should be
    keys = tmp_path / "k"
    keys.write_text("")
    d = daemon.build(daemon.parse_args(["--display", "dummy", "--keys", str(keys), "--state-dir", str(state)]))
    assert d.shell.screen().name == "unsaved" and d.shell.screen().title == "Cannot save"  # told at once
    d.step("*")
    for k in "3#":  # players: a journaled answer, refused
        d.step(k)
    assert d.shell.screen().name == "unsaved" and d.shell.game.mode() == "players"
    d.step("*")
    (state / "journal.sqlite3").rmdir()  # the storage works again
    for k in "3#":
        d.step(k)
    assert d.shell.screen().name != "unsaved" and d.shell.game.mode() == "first"
    d.journal.journal.close()
    assert Journal(state).resume().actions == [{"a": "players", "n": 3}]


def test_after_a_power_cut_on_the_final_screen_the_totals_come_back_and_the_history_has_the_game(tmp_path):
    script, _, colors = full_game_script(3, 8)
    state, keys = tmp_path / "state", tmp_path / "k"
    keys.write_text(script)
    d = daemon.build(daemon.parse_args(["--display", "dummy", "--players", "3", "--seed", "8", "--keys", str(keys),
                                        "--state-dir", str(state)]))
    assert d.run() == 0
    final = d.shell.screen()
    assert final.name == "final"
    keys.write_text("")
    again = daemon.build(daemon.parse_args(["--display", "dummy", "--keys", str(keys), "--state-dir", str(state)]))
    assert again.shell.screen() == final  # the totals and the winners, as before the cut
    assert again.shell.pop_effects() == []  # filed once, not again
    for k in "D":
        again.step(k)
    items = again.shell.screen().choices
    history = next(i for i, item in enumerate(items, start=1) if item.endswith("History"))
    for k in f"{history}#":
        again.step(k)
    text = " ".join(again.shell.screen().lines)
    assert again.shell.screen().name == "history" and "Clans: P1 " in text and " won" in text
    for k in "#D1#":  # dismiss; a new game from the menu is a new journal entry
        again.step(k)
    again.journal.journal.close()
    assert len(Journal(state).history()) == 1
