"""Unplugging the kiosk's hardware while the whole daemon runs, with the libraries' own mocks.

The daemon is built from a config file as on the box (`companion run --config ...`) and runs
its loop on a thread. Its serial keypad is a real pty behind a /dev/serial/by-id-like link,
read by pyserial; its OLED is luma's `dummy` device, made to fail like an I2C panel whose
cable came loose (DeviceNotFoundError when made, OSError 121 on a write). Every wait is for
an event (a log line, a connection, a frame), with a generous timeout, never a fixed time.

The last test pulls the plug on the daemon itself (SIGKILL mid-game) and then the card loses
the journal's -wal and -shm files: every confirmed move comes back all the same.
"""

from __future__ import annotations

import dataclasses
import errno
import io
import logging
import os
import random
import sys
import threading
import time

import pytest

pytest.importorskip("serial")
pytest.importorskip("luma.core")
import luma.core.device  # noqa: E402
from luma.core.error import DeviceNotFoundError  # noqa: E402

from companion.kiosk import daemon  # noqa: E402
from companion.kiosk import loop as loop_mod  # noqa: E402
from companion.games.clans.controller import Controller  # noqa: E402
from companion.table.effects import Persist  # noqa: E402
from companion.hw.keyframe import encode  # noqa: E402
from companion.journal.store import Journal  # noqa: E402
from companion.table.render import render  # noqa: E402

from tests.support import full_game_script  # noqa: E402

WAIT = 60.0  # an upper bound for any one event; a passing run never waits it out


def wait_until(pred, what: str, timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    tick = threading.Event()
    while not pred():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        tick.wait(0.01)  # polling for the event; nothing depends on this pace


class Cable:
    """The OLED's I2C cable; luma's own `dummy` class is made to fail like a panel whose
    cable is out: DeviceNotFoundError when made, OSError 121 (EREMOTEIO) on a write."""

    def __init__(self) -> None:
        self.plugged = True
        self.made = 0

    def patch(self, monkeypatch) -> None:
        cls = luma.core.device.dummy
        real_init, real_display = cls.__init__, cls.display
        cable = self

        def __init__(dev, *args, **kwargs):
            if not cable.plugged:
                raise DeviceNotFoundError("I2C device not found on address: 0x3C")
            cable.made += 1
            real_init(dev, *args, **kwargs)

        def display(dev, image):
            if not cable.plugged:
                raise OSError(errno.EREMOTEIO, "Remote I/O error")
            real_display(dev, image)

        monkeypatch.setattr(cls, "__init__", __init__)
        monkeypatch.setattr(cls, "display", display)


def _pty_link(link: str) -> int:
    """A new pty whose slave `link` points at (as udev's by-id link does); the master fd."""
    master, slave = os.openpty()
    name = os.ttyname(slave)
    os.close(slave)
    os.symlink(name, link + ".new")
    os.replace(link + ".new", link)
    return master


def _occupy(tty: str) -> list[int]:
    """Open ptys until one holds the name `tty` (the lowest free number is handed out)."""
    fds: list[int] = []
    while not os.path.exists(tty):
        assert len(fds) < 256, f"{tty} never came back"
        fds += list(os.openpty())
    return fds


def _frame_on(dev) -> bytes | None:
    """The frame a (dummy) panel shows; None with no panel, or one made but not yet drawn on."""
    image = None if dev is None else getattr(dev, "image", None)
    return None if image is None else image.convert("1").tobytes()


def test_unplug_and_replug_keypad_and_oled_while_the_daemon_runs(tmp_path, monkeypatch, caplog):
    caplog.set_level(logging.INFO)
    cable = Cable()
    cable.patch(monkeypatch)                                     # what the dummy driver makes
    monkeypatch.setattr(loop_mod, "TICK_S", 0.05)                # idle ticks come often
    monkeypatch.setattr(sys, "stdin", io.StringIO())             # no terminal keyboard
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)

    link = str(tmp_path / "usb-1a86_USB_Serial-if00-port0")
    master: int | None = _pty_link(link)
    old_tty = os.path.realpath(link)
    config = tmp_path / "config.yaml"
    config.write_text("display:\n  driver: dummy\n  retry_seconds: 0.1\n"
                      "buttons: null\nencoder: null\n"
                      "keypad:\n  port: /dev/serial/by-id/usb-1a86_USB_Serial-if00-port0\n  baudrate: 9600\n"
                      "idle_dim_seconds: null\nidle_off_seconds: null\npixel_shift: false\n")
    real_load = daemon.load_config

    def load_config(path):  # the box's config, its by-id path moved into tmp_path
        cfg = real_load(path)
        return dataclasses.replace(cfg, keypad=dataclasses.replace(cfg.keypad, port=link))

    monkeypatch.setattr(daemon, "load_config", load_config)
    state = tmp_path / "state"
    d = daemon.build(daemon.parse_args(["--config", str(config), "--state-dir", str(state),
                                        "--players", "2", "--seed", "1"]))
    (keypad,) = d.inputs
    sink = d.panel.sink

    # The same game, played beside the daemon: what it must show and journal.
    twin = Controller.quick_start(2, random.Random(1), walkthrough=True)  # at a table: the walkthrough first
    steps = ["#" * 14] + full_game_script(2, 1)[0].split()
    journaled = [0]

    def count_persisted() -> None:
        journaled[0] += sum(len(e.actions) for e in twin.pop_effects() if isinstance(e, Persist))

    def confirmed() -> int:
        return sum(1 for r in caplog.records if r.getMessage().startswith("confirmed "))

    def play(step: str) -> None:
        os.write(master, b"".join(encode(k, i) for i, k in enumerate(step)))  # as firmware/serial-keypad sends
        for key in step:
            twin.handle(key, 0)
        count_persisted()

    def expected() -> bytes:
        return render(twin.screen()).convert("1").tobytes()

    def logged(text: str) -> bool:
        return any(text in r.getMessage() for r in caplog.records)

    count_persisted()
    result: list[int] = []
    loop = threading.Thread(target=lambda: result.append(d.run()), name="daemon", daemon=True)
    loop.start()
    spacers: list[int] = []
    try:
        assert keypad.connected.wait(WAIT)
        wait_until(lambda: _frame_on(sink.device) == expected(), "the first frame")

        play(steps[0])                                   # keypad and OLED both in
        wait_until(lambda: _frame_on(sink.device) == expected(), "the frame after step 1")
        assert confirmed() == journaled[0]

        cable.plugged = False                 # the OLED's cable comes loose
        play(steps[1])                                   # the next frame cannot be written
        wait_until(lambda: logged("display dummy: lost"), "the OLED's loss logged")
        wait_until(lambda: confirmed() == journaled[0], "step 2 journaled without a display")
        assert sink.device is None

        os.unlink(link)                                  # the keypad is pulled: its link and tty go
        os.close(master)
        master = None
        wait_until(lambda: logged(f"keypad {link}: lost") and not keypad.connected.is_set(), "the keypad's loss")
        wait_until(lambda: keypad.connection is None, "the old port closed")
        spacers = _occupy(old_tty)                       # another device takes the old tty's number
        master = _pty_link(link)                         # plugged back: a new tty under the same link
        assert os.path.realpath(link) != old_tty
        wait_until(lambda: keypad.connects == 2 and keypad.connected.is_set(), "the keypad back")
        assert logged("reconnected")

        play(steps[2])                                   # typed on the re-plugged keypad
        wait_until(lambda: confirmed() == journaled[0], "step 3 journaled")
        assert sink.device is None                       # still no OLED

        made = cable.made
        cable.plugged = True                  # the OLED is back; nobody presses a key
        wait_until(lambda: _frame_on(sink.device) == expected(), "the current screen on the re-made OLED")
        assert cable.made == made + 1 and sink.reconnects == 1
        assert logged("display dummy: back after")
        assert loop.is_alive() and not result

        d.put(loop_mod.EOF)
        loop.join(WAIT)
        assert result == [0]
    finally:
        if loop.is_alive():
            d.put(loop_mod.EOF)
            loop.join(WAIT)
        for fd in spacers + ([master] if master is not None else []):
            os.close(fd)
    resumed = Journal(state).resume()
    assert resumed is not None and len(resumed.actions) == journaled[0]
    assert [(m.frm, m.to) for m in Controller.from_actions(resumed.actions).record().moves] == \
        [(m.frm, m.to) for m in twin.record().moves]
    assert len(twin.record().moves) >= 2
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], [r.getMessage() for r in errors]


def _kill_after(cmd: list[str], kill_after: int) -> list[dict]:
    """Run the daemon, SIGKILL it right after its `kill_after`-th `confirmed` line (an event, never a
    time); the actions it confirmed."""
    import json
    import signal
    import subprocess

    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    timer = threading.Timer(300, proc.kill)  # a hung daemon fails the test, never the run
    timer.start()
    lines, seen = [], 0
    try:
        for line in proc.stderr:
            lines.append(line)
            seen += " confirmed {" in line
            if seen == kill_after:
                proc.send_signal(signal.SIGKILL)
                break
        lines += proc.stderr.read().splitlines(keepends=True)
        proc.wait()
    finally:
        timer.cancel()
        proc.stderr.close()
    assert seen == kill_after, "".join(lines)[-3000:]
    return [json.loads(ln.split("confirmed ", 1)[1]) for ln in "".join(lines).splitlines() if " confirmed {" in ln]


@pytest.mark.parametrize("seed", range(3))
def test_the_plug_pulled_mid_game_and_the_wal_lost_keeps_every_confirmed_move(tmp_path, seed):
    """Issue 31.9: a card that lost the -wal and -shm after a power cut gave back 12 of 24 moves, silently."""
    import subprocess

    from companion.games.clans.record import Record

    script, _, _ = full_game_script(3, 4)
    keys = tmp_path / "game.keys"
    keys.write_text(script)
    state = tmp_path / "state"
    cmd = [sys.executable, "-m", "companion", "run", "--display", "dummy", "--state-dir", str(state), "-v"]
    kill_after = random.Random(seed).randint(5, 40)
    confirmed = _kill_after(cmd + ["--players", "3", "--seed", "4", "--keys", str(keys), "--key-delay", "0.003"],
                            kill_after)
    assert (state / "journal.sqlite3-wal").exists()  # the daemon died with its journal open
    for lost in ("journal.sqlite3-wal", "journal.sqlite3-shm"):
        (state / lost).unlink()
    journal = Journal(state)
    resumed = journal.resume()
    journal.close()
    # (a kill that tore the checkpoint of the save it cut short leaves a database only its lost WAL
    # made whole: SQLite's check finds it and the table is told)
    assert journal.repairs == [] or journal.repairs[0].startswith("Journal damaged: "), journal.repairs
    assert resumed.actions[:len(confirmed)] == confirmed  # every confirmed move
    assert len(resumed.actions) - len(confirmed) <= 4  # at most the batch being written at the kill
    empty, out = tmp_path / "none.keys", tmp_path / "resumed.json"
    empty.write_text("")
    res = subprocess.run(cmd + ["--keys", str(empty), "--record-out", str(out)], capture_output=True, text=True,
                         timeout=300)
    assert res.returncode == 0 and "damaged" not in res.stderr, res.stderr
    assert Record.load(out).moves == Controller.from_actions(resumed.actions, random.Random(0)).record().moves
