"""`echo 12#13# | companion run` on a laptop: the keys are played like --keys, no escape code goes
into the pipe, nothing is journaled for the next run; a game resumed in the terminal says so."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from companion.hw.terminal import read_piped_keys, stdin_is_tty
from companion.table.keys import MENU, OK, QUIT, UNDO

ROOT = Path(__file__).resolve().parents[2]
PIXEL_ART = set("\u2580\u2584\u2588\u2502\u250c") | {chr(c) for c in range(0x2801, 0x2900)}  # blocks, borders, braille


def run_piped(keys: str, home: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, HOME=str(home), XDG_STATE_HOME=str(home / "state"))
    env.pop("COMPANION_CONFIG", None)
    return subprocess.run([sys.executable, "-m", "companion", "run", *args], input=keys,
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)


def test_piped_keys_play_like_a_key_script_and_leave_no_game_behind(tmp_path):
    r = run_piped("12#13#\n", tmp_path)
    assert r.returncode == 0, r.stderr
    assert "\x1b" not in r.stdout            # plain text frames, no cursor movement
    assert "New game: players?\n> 2 players\n" in r.stdout  # each screen's words, as text
    assert not PIXEL_ART & set(r.stdout)      # not the frame's pixels in block characters
    state = tmp_path / "state" / "companion"
    assert not state.exists() or not any(state.iterdir()), "a piped run must not journal a game"
    again = run_piped("", tmp_path)           # the next run starts fresh, it resumes nothing
    assert again.returncode == 0, again.stderr
    assert "resumed" not in again.stderr.lower()


def test_piped_keys_with_a_record(tmp_path):
    out = tmp_path / "o.json"
    r = run_piped("1#2#\n", tmp_path, "--players", "2", "--seed", "3", "--record-out", str(out))
    assert r.returncode == 0, r.stderr
    assert out.exists() and "\x1b" not in r.stdout


def test_keys_dash_reads_the_key_script_from_standard_input(tmp_path):
    out = tmp_path / "o.json"
    r = run_piped("12#13#\n", tmp_path, "--keys", "-", "--players", "2", "--seed", "3", "--record-out", str(out))
    assert r.returncode == 0, r.stderr
    assert json.loads(out.read_text())["moves"] == [[12, 13]] or \
        [(m["from"], m["to"]) for m in json.loads(out.read_text())["moves"]] == [(12, 13)]
    assert "12 -> 13" in r.stdout and not PIXEL_ART & set(r.stdout)


def test_keys_dash_with_an_empty_or_no_standard_input(tmp_path, monkeypatch):
    import io

    import pytest

    from companion.util.errors import UsageError
    from companion.table.keyscript import read_key_script

    env = dict(os.environ, HOME=str(tmp_path))
    r = subprocess.run([sys.executable, "-m", "companion", "run", "--keys", "-", "--players", "2"],
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert r.returncode == 0, r.stderr  # no keys: the first screen, then the end
    assert " to move" in r.stdout
    assert read_key_script("-", stdin=io.BytesIO(b"12#\n13#")) == ["1", "2", "#", "1", "3", "#"]
    monkeypatch.setattr(sys, "stdin", None)  # started with standard input closed
    with pytest.raises(UsageError, match="no standard input"):
        read_key_script("-")


def test_read_piped_keys_mapping_and_bound():
    import io

    import pytest

    from companion.util.errors import UsageError

    assert read_piped_keys(io.BytesIO(b"1#\n2#\r\numq")) == ["1", OK, "2", OK, UNDO, MENU, QUIT]
    assert read_piped_keys(io.StringIO("3#\n")) == ["3", OK]
    with pytest.raises(UsageError, match="KB"):
        read_piped_keys(io.BytesIO(b"1" * 2048), max_bytes=1024)
    assert not stdin_is_tty(io.StringIO())


def test_a_game_resumed_in_the_terminal_says_so(tmp_path, monkeypatch):
    from companion.kiosk import daemon

    state = tmp_path / "state"
    keys = tmp_path / "k"
    keys.write_text("")
    first = daemon.build(daemon.parse_args(["--display", "dummy", "--keys", str(keys), "--players", "2",
                                            "--seed", "3", "--state-dir", str(state)]))
    first.run()
    monkeypatch.setattr("companion.hw.terminal.stdin_is_tty", lambda stream=None: True)
    monkeypatch.setattr(daemon, "open_inputs", lambda d, cfg, emulated: None)
    dummy_sink = daemon.open_sink
    monkeypatch.setattr(daemon, "open_sink", lambda driver, cfg, frames=None: dummy_sink("dummy", None))
    d = daemon.build(daemon.parse_args(["--display", "terminal", "--state-dir", str(state)]))
    screen = d.shell.screen()
    assert screen.title == "Game resumed"
    assert screen.name == "resumed" and "D: menu for a new game" in " ".join(screen.lines)
    assert screen.pages == 1
    # on the box's display (or a dummy) nothing is added
    monkeypatch.undo()
    d2 = daemon.build(daemon.parse_args(["--display", "dummy", "--keys", str(keys), "--state-dir", str(state)]))
    assert d2.shell.screen().title != "Game resumed"


def run_in_pty(args: list[str], home: Path, columns: int = 80, rows: int = 24, until: str | None = None) -> str:
    """`companion run ARGS` on a pseudo-terminal of columns x rows: everything it drew until `until`
    (default: the legend) appeared, then q (quit) and its exit."""
    import fcntl
    import pty
    import select
    import struct
    import termios
    import time

    from companion.hw.terminal_screen import legend

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    env = dict(os.environ, HOME=str(home), XDG_STATE_HOME=str(home / "state"), TMPDIR=str(home))
    env.pop("COLUMNS", None)
    env.pop("LINES", None)
    proc = subprocess.Popen([sys.executable, "-m", "companion", "run", *args], stdin=slave, stdout=slave,
                            stderr=slave, cwd=ROOT, env=env, close_fds=True)
    os.close(slave)
    out = b""
    deadline = time.monotonic() + 60
    try:
        while (until or legend()).encode() not in out and time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 1.0)
            if ready:
                try:
                    out += os.read(master, 65536)
                except OSError:
                    break
        # q until it quits: a key typed before the reader put the terminal in cbreak mode is flushed
        while proc.poll() is None and time.monotonic() < deadline:
            os.write(master, b"q")
            ready, _, _ = select.select([master], [], [], 0.5)
            if ready:
                try:
                    out += os.read(master, 65536)
                except OSError:
                    break
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    assert proc.returncode == 0
    return out.decode("utf-8", "replace")


def test_an_80x24_terminal_draws_braille_with_the_legend_and_a_resumed_game_says_so(tmp_path):
    from companion.hw.terminal_screen import legend

    first = run_in_pty(["--players", "2", "--seed", "3"], tmp_path)
    assert legend() in first
    cells = {ch for ch in first if 0x2800 <= ord(ch) <= 0x28FF}
    assert len(cells) > 3, "the screen is drawn in braille cells"
    assert "too small" not in first
    again = run_in_pty([], tmp_path)       # the same journal: the game is resumed, and it says so
    assert "\u2588" not in again            # still braille, not blocks
    log_file = tmp_path / "companion.log"
    assert "resumed game" in again + (log_file.read_text() if log_file.exists() else "")


def test_a_small_terminal_is_told_in_one_line(tmp_path):
    out = run_in_pty(["--players", "2", "--seed", "3", "--no-journal"], tmp_path, columns=60, rows=15,
                     until="too small")
    assert "Terminal 60x15 is too small: the screen needs 66x20." in out
    assert not PIXEL_ART & set(out)  # the line alone, not a frame wrapped into garble above it
