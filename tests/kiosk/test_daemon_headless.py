"""`companion run` headless (spec section 5): key scripts on luma's dummy display, records out."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from companion.kiosk import daemon, loop
from companion.table.render import render

from tests.support import full_game_script
from companion.games.clans.record import Record, summary

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT.parent / "shared" / "spec" / "examples"
if not EXAMPLES.exists():
    EXAMPLES = ROOT / "tests" / "data" / "examples"
IN_PROGRESS = EXAMPLES / "in-progress.record.json"


def run(argv: list[str]) -> loop.Daemon:
    d = daemon.build(daemon.parse_args(argv))
    assert d.run() == 0
    return d


def test_whole_scripted_game_on_the_dummy_display(tmp_path):
    script, moves, colors = full_game_script(3, 4)
    keys = tmp_path / "game.keys"
    keys.write_text(script)
    out = tmp_path / "game.record.json"
    d = run(["--display", "dummy", "--players", "3", "--seed", "4", "--keys", str(keys), "--record-out", str(out)])
    rec = Record.load(out)
    assert [(m.frm, m.to) for m in rec.moves] == moves
    assert rec.colors == colors
    game = rec.play()
    assert game.is_over
    # companion replay accepts it
    r = subprocess.run([sys.executable, "-m", "companion", "replay", str(out), "--json"], capture_output=True,
                       text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == summary(game, colors)
    # the last frame on luma's dummy device is the final screen: the totals and the winner
    screen = d.shell.screen()
    assert screen.name == "final"
    frame = d.device.image
    assert frame.size == (128, 64) and frame.tobytes() == render(screen).convert(frame.mode).tobytes()
    # pixel check: an inverted title bar across the top
    lit = sum(frame.getpixel((x, 0)) > 0 for x in range(128))
    assert lit > 120


def test_load_goes_straight_on_with_the_next_move(tmp_path):
    g = Record.load(IN_PROGRESS).play()
    frm = g.movable()[0]
    to = g.targets(frm)[0]
    keys = tmp_path / "k"
    keys.write_bytes(f"{frm}#{to}#".encode())
    out = tmp_path / "out.json"
    d = run(["--display", "dummy", "--keys", str(keys), "--load", str(IN_PROGRESS), "--record-out", str(out)])
    rec = Record.load(out)
    assert len(rec.moves) == 21 and (rec.moves[-1].frm, rec.moves[-1].to) == (frm, to)
    assert rec.moves[:20] == Record.load(IN_PROGRESS).moves
    assert d.shell.screen().name in ("result", "village")


def test_entry_frame_shows_whose_turn(tmp_path):
    keys = tmp_path / "k"
    keys.write_bytes(b"1")
    d = run(["--display", "dummy", "--keys", str(keys), "--load", str(IN_PROGRESS)])
    s = d.shell.screen()
    assert s.name == "entry" and s.header.left == "P1 to move" and s.entry == "1_"
    assert d.device.image.tobytes() == render(s).tobytes()


def test_junk_bytes_and_unknown_keys_change_nothing(tmp_path, caplog):
    keys = tmp_path / "junk"
    keys.write_bytes(bytes(b for b in range(256) if chr(b) not in "0123456789#*ABCDabcd") * 3)
    out = tmp_path / "out.json"
    run(["--display", "dummy", "--keys", str(keys), "--load", str(IN_PROGRESS), "--record-out", str(out)])
    assert Record.load(out).to_dict() == Record.load(IN_PROGRESS).to_dict()  # its unknown keys kept (issue 14)
    assert sum("ignored unknown bytes" in r.message for r in caplog.records) == 1


@pytest.mark.parametrize("seed", range(6))
def test_key_storm_never_crashes_and_moves_stay_legal(tmp_path, seed):
    rnd = random.Random(seed)
    alphabet = b"0123456789#*ABCabc\r\n \x00\xff~"  # no menu key: see the storm below for that
    keys = tmp_path / "storm"
    keys.write_bytes(bytes(rnd.choice(alphabet) for _ in range(3000)))
    out = tmp_path / "out.json"
    d = run(["--display", "dummy", "--keys", str(keys), "--load", str(IN_PROGRESS), "--record-out", str(out)])
    rec = Record.load(out)
    game = rec.play()  # every move legal
    assert rec.moves[:20] == Record.load(IN_PROGRESS).moves[:20] or game.ply < 20  # undo may take moves back
    assert d.device.image.size == (128, 64)


def test_same_keys_twice_same_record(tmp_path):
    rnd = random.Random(9)
    keys = tmp_path / "k"
    keys.write_bytes(bytes(rnd.choice(b"0123456789##AB") for _ in range(2000)))
    outs = []
    for i in range(2):
        out = tmp_path / f"out{i}.json"
        run(["--display", "dummy", "--players", "4", "--seed", "12", "--keys", str(keys), "--record-out", str(out)])
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]


def test_new_game_questions_from_the_key_script(tmp_path):
    keys = tmp_path / "k"
    keys.write_text("3#2##" + "#" * 14)
    out = tmp_path / "out.json"
    run(["--display", "dummy", "--seed", "5", "--keys", str(keys), "--record-out", str(out)])
    rec = Record.load(out)
    assert rec.players == 3 and rec.first_player == 1 and rec.moves == []


def test_save_frames_writes_each_distinct_frame(tmp_path):
    keys = tmp_path / "k"
    keys.write_text("1#2#D4#")
    frames = tmp_path / "frames"
    run(["--display", "dummy", "--keys", str(keys), "--load", str(IN_PROGRESS), "--save-frames", str(frames)])
    pngs = sorted(frames.glob("*.png"))
    assert len(pngs) >= 5
    assert len({p.read_bytes() for p in pngs}) == len(pngs)


def test_journal_resumes_the_pending_question(tmp_path):
    """A power cut in the middle of the village-order question: the next start asks it again."""
    rec = Record.load(EXAMPLES / "order-matters.record.json")
    idx = next(i for i, m in enumerate(rec.moves) if m.order == (37, 29))
    partial = Record(rec.players, rec.first_player, rec.setup, rec.moves[:idx])
    start = tmp_path / "start.json"
    partial.save(start)
    state = tmp_path / "state"
    keys = tmp_path / "k1"
    keys.write_text("30#29#")
    run(["--display", "dummy", "--keys", str(keys), "--load", str(start), "--state-dir", str(state)])
    keys2 = tmp_path / "k2"
    keys2.write_text("")
    d = run(["--display", "dummy", "--keys", str(keys2), "--state-dir", str(state)])
    assert d.shell.screen().name == "order"
    keys3 = tmp_path / "k3"
    keys3.write_text("37#")
    out = tmp_path / "out.json"
    run(["--display", "dummy", "--keys", str(keys3), "--state-dir", str(state), "--record-out", str(out)])
    assert Record.load(out).moves[-1].order == (37, 29)


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion", "run", *args], capture_output=True, text=True,
                          cwd=ROOT, stdin=subprocess.DEVNULL, timeout=60)


def test_bad_arguments_and_records_exit_2_with_one_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"players": 3, "setup": {}}')
    keys = tmp_path / "k"
    keys.write_text("")
    r = cli("--display", "dummy", "--keys", str(keys), "--load", str(bad))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "setup" in r.stderr
    r = cli("--display", "dummy", "--keys", str(tmp_path / "missing"))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    r = cli("--display", "dummy", "--keys", str(keys), "--players", "5")
    assert r.returncode == 2


def test_cli_headless_run_is_quiet_and_writes_the_record(tmp_path):
    keys = tmp_path / "k"
    keys.write_text("1#2#\n")
    out = tmp_path / "o.json"
    r = cli("--display", "dummy", "--keys", str(keys), "--load", str(IN_PROGRESS), "--record-out", str(out))
    assert r.returncode == 0 and r.stdout == "" and r.stderr == ""
    assert len(Record.load(out).moves) == 21


def test_terminal_mode_with_piped_stdin_plays_and_ends(tmp_path):
    """No hardware, no --keys: keys line-wise from a non-tty stdin, each screen's words as text."""
    out = tmp_path / "o.json"
    r = subprocess.run([sys.executable, "-m", "companion", "run", "--display", "terminal", "--players", "2",
                        "--seed", "3", "--no-journal", "--record-out", str(out)],
                       input="", capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "P1 to move" in r.stdout and "\u2588" not in r.stdout and "\u2580" not in r.stdout
    assert Record.load(out).players == 2


@pytest.mark.parametrize("seed", range(3))
def test_key_storm_with_the_menu_never_crashes(tmp_path, seed):
    """With D in the storm, the menu may start a new game or switch games: all fine, nothing crashes."""
    rnd = random.Random(100 + seed)
    keys = tmp_path / "storm"
    keys.write_bytes(bytes(rnd.choice(b"0123456789#*ABCD#D#") for _ in range(3000)))
    out = tmp_path / "out.json"
    d = run(["--display", "dummy", "--keys", str(keys), "--load", str(IN_PROGRESS), "--record-out", str(out)])
    assert d.device.image.size == (128, 64)
    if out.exists():
        data = json.loads(out.read_text())
        if data.get("game") == "mammut":
            from companion.games.mammut.game import MammutGame

            MammutGame.replay(data["log"])
        else:
            Record.from_dict(data).play()  # a Clans record, every move legal


def test_menu_switches_to_mammut_and_the_journal_resumes_it(tmp_path):
    keys = tmp_path / "k"
    # Play Mammut from the menu (no game yet: no question), then 3 tribes, first game, standard, tribe 1 first
    keys.write_text("D7#" + "3#")
    state = tmp_path / "state"
    d = run(["--display", "dummy", "--keys", str(keys), "--state-dir", str(state)])
    assert d.shell.kind == "mammut"
    # resume from the journal in a new process-like build: still Mammut (nothing journaled yet: new-game questions)
    keys.write_text("")
    d2 = run(["--display", "dummy", "--keys", str(keys), "--state-dir", str(state), "--game", "mammut"])
    assert d2.shell.kind == "mammut"


def test_mammut_headless_game_log_out(tmp_path):
    from companion.games.mammut.controller import MammutTable

    # answer the new-game questions the way the controller asks them, found by driving it
    c = MammutTable.new(random.Random(3))
    typed = []
    for _ in range(40):
        if c.game is not None:
            break
        for k in "2#":
            c.handle(k, 0)
        typed.append("2#")
    assert c.game is not None
    keys = tmp_path / "k"
    keys.write_text("".join(typed) + "#")
    out = tmp_path / "mammut.json"
    state = tmp_path / "state"
    run(["--display", "dummy", "--game", "mammut", "--seed", "3", "--keys", str(keys), "--record-out", str(out),
             "--state-dir", str(state)])
    data = json.loads(out.read_text())
    assert data["game"] == "mammut" and data["log"][0]["action"] == "new_game"
    # the journal holds the game under its kind, and a restart resumes it
    keys.write_text("")
    d2 = run(["--display", "dummy", "--keys", str(keys), "--state-dir", str(state), "--record-out", str(out)])
    assert d2.shell.kind == "mammut"
    assert json.loads(out.read_text())["log"] == data["log"]


def test_log_lines_never_draw_over_the_terminal_screen(tmp_path):
    import logging
    import os
    import pty

    master, slave = pty.openpty()
    screen = os.fdopen(os.dup(slave), "w")
    errors = os.fdopen(os.dup(slave), "w")
    root = logging.getLogger()
    saved = root.handlers[:]
    stream = logging.StreamHandler(errors)
    root.handlers = [stream]
    log_file = tmp_path / "companion.log"
    try:
        assert daemon.route_logs("dummy", None, screen, errors) is None  # not drawn on the terminal
        assert daemon.route_logs("terminal", str(log_file), screen, errors) == str(log_file)
        assert stream not in root.handlers
        logging.getLogger("companion.run").warning("a line for the file")
        for h in root.handlers:
            h.flush()
        assert "a line for the file" in log_file.read_text()
        with open(tmp_path / "plain", "w") as other:  # stderr to a file: it keeps the log lines
            root.handlers = [stream]
            assert daemon.route_logs("terminal", None, screen, other) is None
    finally:
        for h in root.handlers:
            if h not in saved:
                h.close()
        root.handlers = saved
        screen.close(), errors.close(), os.close(master), os.close(slave)


def test_bot_time_on_the_command_line_stays_inside_the_watchdog(capsys):
    with pytest.raises(SystemExit):
        daemon.parse_args(["--bot-time", "30"])
    assert "--bot-time: seconds in (0, 10]" in capsys.readouterr().err
    assert daemon.parse_args(["--bot-time", "10"]).bot_time == 10


def test_log_lines_carry_their_level_for_journald(tmp_path, monkeypatch):
    import logging
    import os

    err = open(tmp_path / "stderr", "w")
    try:
        st = os.fstat(err.fileno())
        assert not daemon.to_journald(err)
        monkeypatch.setenv("JOURNAL_STREAM", f"{st.st_dev}:{st.st_ino}")
        assert daemon.to_journald(err)
        monkeypatch.setenv("JOURNAL_STREAM", f"{st.st_dev}:{st.st_ino + 1}")
        assert not daemon.to_journald(err)  # stderr was redirected elsewhere
    finally:
        err.close()
    fmt = daemon.JournaldFormatter("%(levelname)s %(name)s: %(message)s")

    def line(level: int, msg: str) -> str:
        return fmt.format(logging.LogRecord("companion.run", level, __file__, 1, msg, None, None))

    assert line(logging.WARNING, "keypad gone") == "<4>WARNING companion.run: keypad gone"
    assert line(logging.ERROR, "a\nb") == "<3>ERROR companion.run: a\n<3>b"
    assert line(logging.INFO, "resumed game 1 (3 actions)").startswith("<6>")
