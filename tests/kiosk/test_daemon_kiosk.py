"""Kiosk behaviour of the daemon: systemd notify, and power cuts (SIGKILL). Dimming and pixel shift: tests/hw/test_panel.py."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from companion.kiosk import daemon, loop
from companion.games.clans.controller import Controller
from companion.games.clans.record import Record
from companion.journal.store import Journal

from tests.support import full_game_script, headless_daemon


def test_daemon_tells_systemd_ready_status_watchdog(tmp_path, monkeypatch):
    sock_path = tmp_path / "notify"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(str(sock_path))
    monkeypatch.setenv("NOTIFY_SOCKET", str(sock_path))
    monkeypatch.setenv("WATCHDOG_USEC", "4000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    keys = tmp_path / "k"
    keys.write_text("12#")
    d = daemon.build(daemon.parse_args(["--display", "dummy", "--load", str(IN_PROGRESS), "--keys", str(keys)]))
    assert d.run() == 0
    got = []
    server.setblocking(False)  # run() has returned: every datagram is already queued
    try:
        while True:
            got.append(server.recv(4096).decode())
    except BlockingIOError:
        pass
    finally:
        server.close()
    fields = [f for msg in got for f in msg.split("\n")]
    assert "READY=1" in fields and "WATCHDOG=1" in fields and "STOPPING=1" in fields
    assert any(f.startswith("STATUS=clans: ") for f in fields)
    assert fields.index("READY=1") < fields.index("WATCHDOG=1") < fields.index("STOPPING=1")


IN_PROGRESS = Path(__file__).resolve().parents[1] / "data" / "examples" / "in-progress.record.json"


def _confirmed(stderr: str) -> list[dict]:
    return [json.loads(line.split("confirmed ", 1)[1]) for line in stderr.splitlines() if " confirmed {" in line]


KILL_TIMEOUT_S = 300  # generous: an emulated aarch64 (about 4x slower than this machine) needs far less


def _run_until_confirmed(cmd: list[str], kill_after: int) -> tuple[list[dict], bool]:
    """Start the daemon, SIGKILL it right after its `kill_after`-th confirmed action (an event,
    not a time, so the kill point does not depend on the machine's speed). Returns the confirmed
    actions and whether the kill came before the daemon ended on its own."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    timer = threading.Timer(KILL_TIMEOUT_S, proc.kill)  # a hung daemon fails the test, never the run
    timer.start()
    lines, seen, killed = [], 0, False
    try:
        for line in proc.stderr:
            lines.append(line)
            if " confirmed {" in line:
                seen += 1
                if seen == kill_after:
                    proc.send_signal(signal.SIGKILL)
                    killed = True
                    break
        lines += proc.stderr.read().splitlines(keepends=True)  # what was already in the pipe
        proc.wait()
    finally:
        timer.cancel()
        proc.stderr.close()
    assert killed or proc.returncode == 0, "".join(lines)[-3000:]
    return _confirmed("".join(lines)), killed


FULL_GAME_ACTIONS = 45  # confirmed actions of full_game_script(3, 4), `--players 3 --seed 4`


@pytest.mark.parametrize("seed", range(5))
def test_sigkill_at_a_random_point_resumes_exactly_the_confirmed_moves(tmp_path, seed):
    script, _, _ = full_game_script(3, 4)
    keys = tmp_path / "game.keys"
    keys.write_text(script)
    state = tmp_path / "state"
    cmd = [sys.executable, "-m", "companion", "run", "--display", "dummy", "--state-dir", str(state), "-v"]
    # seed 0..3: a kill somewhere in the game; seed 4: past the end (the game finishes first)
    kill_after = (random.Random(seed).randint(1, FULL_GAME_ACTIONS - 1) if seed < 4 else FULL_GAME_ACTIONS + 1)
    confirmed, killed = _run_until_confirmed(
        cmd + ["--players", "3", "--seed", "4", "--keys", str(keys), "--key-delay", "0.003"], kill_after)
    assert killed == (seed < 4)
    if killed:
        assert len(confirmed) >= kill_after
    resumed = Journal(state).resume()
    if resumed is None:  # the game was over: it is in the history, whole
        assert not killed
        assert len(confirmed) == FULL_GAME_ACTIONS
        (last,) = Journal(state).history(1)
        assert last["result"]["record"]["moves"] == Controller.from_actions(confirmed).record().to_dict()["moves"]
        return
    assert killed, "the daemon ended on its own with the game unfinished"
    journal_actions = resumed.actions
    assert resumed.dropped == []
    # everything confirmed is on disk; at most the batch being written at the kill is there too
    assert journal_actions[: len(confirmed)] == confirmed
    assert len(journal_actions) - len(confirmed) <= 4
    # restart with the same state dir: the game resumes at exactly that position
    empty = tmp_path / "none.keys"
    empty.write_text("")
    out = tmp_path / "resumed.json"
    res = subprocess.run(cmd + ["--keys", str(empty), "--record-out", str(out)], capture_output=True, text=True,
                         timeout=KILL_TIMEOUT_S)
    assert res.returncode == 0, res.stderr
    expected = Controller.from_actions(journal_actions, random.Random(0)).record()
    assert Record.load(out).moves == expected.moves
    assert Record.load(out).setup == expected.setup


def test_a_game_that_raises_on_a_key_is_logged_and_the_loop_goes_on(caplog):
    """daemon.step's catch-all: a bug in the game's handle() costs that key, never the kiosk."""
    game = Controller.quick_start(2, random.Random(1))
    d = headless_daemon(game)
    real_handle, calls = game.handle, []

    def handle(key, now):
        calls.append(key)
        if len(calls) == 1:
            raise RuntimeError("a bug in the game")
        return real_handle(key, now)

    game.handle = handle
    script, _, _ = full_game_script(2, 1)
    first_move = script.split()[0]           # e.g. "12#13#"
    for key in "9" + first_move:             # "9" hits the bug, then the first move
        d.put(key)
    d.put(loop.EOF)
    with caplog.at_level("ERROR", logger="companion.run"):
        assert d.run() == 0
    assert calls == list("9" + first_move)
    assert any("a bug in the game" in r.getMessage() or (r.exc_info and "a bug in the game" in str(r.exc_info[1]))
               for r in caplog.records)
    frm, to = (int(t) for t in first_move.split("#")[:2])
    assert [(m.frm, m.to) for m in game.record().moves] == [(frm, to)]  # the keys after the bug still count
