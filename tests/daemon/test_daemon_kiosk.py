"""Kiosk behaviour of the daemon: systemd notify, and power cuts (SIGKILL). Dimming and pixel shift: tests/hw/test_panel.py."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion import daemon
from companion.games.clans.controller import Controller
from companion.games.clans.record import Record
from companion.table.journal import Journal

from support import full_game_script


def test_daemon_tells_systemd_ready_status_watchdog(tmp_path, monkeypatch):
    sock_path = tmp_path / "notify"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(str(sock_path))
    server.settimeout(2)
    monkeypatch.setenv("NOTIFY_SOCKET", str(sock_path))
    monkeypatch.setenv("WATCHDOG_USEC", "4000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    keys = tmp_path / "k"
    keys.write_text("12#")
    d = daemon.build(daemon.parse_args(["--display", "dummy", "--load", str(IN_PROGRESS), "--keys", str(keys)]))
    assert d.run() == 0
    got = []
    try:
        while True:
            got.append(server.recv(4096).decode())
    except socket.timeout:
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


@pytest.mark.parametrize("seed", range(5))
def test_sigkill_at_a_random_point_resumes_exactly_the_confirmed_moves(tmp_path, seed):
    script, _, _ = full_game_script(3, 4)
    keys = tmp_path / "game.keys"
    keys.write_text(script)
    state = tmp_path / "state"
    cmd = [sys.executable, "-m", "companion", "run", "--display", "dummy", "--state-dir", str(state), "-v"]
    proc = subprocess.Popen(cmd + ["--players", "3", "--seed", "4", "--keys", str(keys), "--key-delay", "0.003"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    time.sleep(random.Random(seed).uniform(0.3, 1.5))  # the game takes about 1.5 s at this pace
    proc.send_signal(signal.SIGKILL)
    _, err = proc.communicate()
    confirmed = _confirmed(err)
    resumed = Journal(state).resume()
    if resumed is None:  # the kill came after the game was over: it is in the history, whole
        (last,) = Journal(state).history(1)
        assert last["result"]["record"]["moves"] == Controller.from_actions(confirmed).record().to_dict()["moves"]
        return
    journal_actions = resumed.actions
    assert resumed.dropped == []
    # everything confirmed is on disk; at most the batch being written at the kill is there too
    assert journal_actions[: len(confirmed)] == confirmed
    assert len(journal_actions) - len(confirmed) <= 4
    # restart with the same state dir: the game resumes at exactly that position
    empty = tmp_path / "none.keys"
    empty.write_text("")
    out = tmp_path / "resumed.json"
    res = subprocess.run(cmd + ["--keys", str(empty), "--record-out", str(out)], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    expected = Controller.from_actions(journal_actions, random.Random(0)).record()
    assert Record.load(out).moves == expected.moves
    assert Record.load(out).setup == expected.setup
