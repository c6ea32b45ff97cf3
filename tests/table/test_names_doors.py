"""The names' rule at the table's doors: a record (`companion run --load`, `companion replay`), the
config's roster, the keypad's naming; and the OLED drawing every name a door lets in (the crash of
issue 31: a roster name the 5x8 font lacks raised UnicodeEncodeError in render's menu).

Each door refuses a bad name with one line naming it (exit 2 for a command), and an accepted name
is kept as written (NFC) in the journal and the record it writes, while the OLED draws it in
Latin letters. Names an old journal holds that break the rule still draw.
"""

from __future__ import annotations

import json
import logging
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.kiosk import daemon, loop
from companion.box.config import ConfigError, load_config
from companion.games.clans.record import Record
from companion.table.naming import SeatNaming
from companion.table.render import drawable, render
from companion.table.seatnames import shorten

ROOT = Path(__file__).resolve().parents[2]
IN_PROGRESS = ROOT / "tests" / "data" / "examples" / "in-progress.record.json"
NAMES = ["Łukasz", "שלום", "Ana😀"]  # the names of issue 31, none in the font


def record_with(tmp_path: Path, names) -> Path:
    data = json.loads(IN_PROGRESS.read_text())
    data["names"] = names
    path = tmp_path / "named.record.json"
    path.write_text(json.dumps(data))
    return path


def keys_file(tmp_path: Path, keys: str = "") -> Path:
    path = tmp_path / "keys"
    path.write_text(keys)
    return path


def run_table(*argv: str) -> loop.Daemon:
    d = daemon.build(daemon.parse_args(["--display", "dummy", "--bot", "random", *argv]))
    assert d.run() == 0
    return d


def drawn_without_a_failure(d: loop.Daemon) -> None:
    """The frame on the dummy device is the screen, drawn; nothing failed on the way."""
    assert d.failures.count == 0 and not d.failed
    assert d.device.image.tobytes() == render(d.shell.screen()).convert(d.device.image.mode).tobytes()


# ----- a record: companion run --load, companion replay ------------------------------------------
def test_run_load_refuses_a_bad_name_in_one_line_exit_2(tmp_path, capsys):
    bad = record_with(tmp_path, ["Anna", "Ana\u200b", "Cy"])
    code = daemon.main(["--display", "dummy", "--keys", str(keys_file(tmp_path)), "--load", str(bad)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert err[0] == (f'companion run: {bad}: names: player 2: "Ana\\u200b" holds U+200B ZERO WIDTH SPACE '
                      f"(character 4), an invisible formatting character: leave it out of the name")


@pytest.mark.parametrize("names, why", [
    (["\u202eAnna", "B", "C"], r'names: player 1: "\\u202eAnna" holds U\+202E RIGHT-TO-LEFT OVERRIDE'),
    (["A", "B", "C\x00"], r'names: player 3: "C\\u0000" holds U\+0000 \(character 2\), a control character'),
    (["A", "B"], r"names: must list one name per player \(3\)"),
    (["A", "B", "x" * 30], r"names: player 3: \"x{30}\" has 30 characters: a name has at most 24; shorten it"),
])
def test_replay_refuses_the_same_names_with_the_same_line(tmp_path, names, why):
    bad = record_with(tmp_path, names)
    r = subprocess.run([sys.executable, "-m", "companion", "replay", str(bad)], capture_output=True, text=True,
                       cwd=ROOT, timeout=60)
    assert r.returncode == 2 and r.stdout == ""
    (line,) = r.stderr.splitlines()
    assert line.startswith(f"companion replay: {bad}: ") and re.search(why, line), line


def test_run_load_as_a_process_exits_2_with_one_line(tmp_path):
    bad = record_with(tmp_path, ["Anna", "Ben", "\U0004abcd"])
    r = subprocess.run([sys.executable, "-m", "companion", "run", "--display", "dummy", "--keys",
                        str(keys_file(tmp_path)), "--load", str(bad)], capture_output=True, text=True, cwd=ROOT,
                       timeout=60)
    lines = [ln for ln in r.stderr.splitlines() if not ln.startswith(("INFO", "DEBUG"))]
    assert r.returncode == 2 and len(lines) == 1 and "names: player 3:" in lines[0] and "unassigned" in lines[0]
    assert "Traceback" not in r.stderr


def test_run_load_keeps_the_real_names_and_the_oled_draws_them(tmp_path):
    good = record_with(tmp_path, [" Łukasz", "שלום", "Zoe\u0308😀"])  # kept stripped and in NFC
    out = tmp_path / "out.json"
    g = Record.load(IN_PROGRESS).play()
    frm = g.movable()[0]
    d = run_table("--keys", str(keys_file(tmp_path, f"{frm}#")), "--load", str(good), "--record-out", str(out),
                  "--state-dir", str(tmp_path / "state"))
    kept = ["Łukasz", "שלום", "Zoë😀"]
    assert d.shell.game.names == kept and json.loads(out.read_text())["names"] == kept
    drawn_without_a_failure(d)
    mover = kept[g.to_move]
    assert d.shell.screen().header.left.startswith(mover.split(" ")[0][:7])  # the real name on the screen ...
    assert drawable(mover) in ("Lukasz", "slvm", "Zoe:grinning:")  # ... in Latin letters on the OLED


# ----- the config's roster ---------------------------------------------------------------------
def config_file(tmp_path: Path, roster) -> Path:
    path = tmp_path / "config.yaml"
    path.write_text(json.dumps({"roster": roster, "display": {"driver": "dummy"}}))
    return path


def test_the_config_check_refuses_a_bad_roster_name_in_one_line(tmp_path, capsys):
    path = config_file(tmp_path, ["Anna", "Bo\u2066b"])
    with pytest.raises(ConfigError) as caught:
        load_config(str(path))
    said = str(caught.value)
    assert "\n" not in said and said == (f'{path}: roster: "Bo\\u2066b" holds U+2066 LEFT-TO-RIGHT ISOLATE '
                                         f"(character 3), a bidirectional control, which turns the text around it: "
                                         f"leave it out of the name")
    code = daemon.main(["--config", str(path), "--keys", str(keys_file(tmp_path)), "--players", "2"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "Bo\\u2066b" in err[0]


def test_the_config_keeps_accepted_names_as_written(tmp_path):
    assert load_config(str(config_file(tmp_path, NAMES + [" Zoe\u0308 "]))).roster == NAMES + ["Zoë"]


# ----- the keypad's naming ---------------------------------------------------------------------
def test_keypad_naming_offers_only_names_the_rule_accepts(caplog):
    with caplog.at_level(logging.WARNING, logger="companion.table.naming"):
        naming = SeatNaming(["Łukasz", "Ana\u200b", "Zoe\u0308", "Player 1", "Zoë", 7], [None, "bot"], "mcts")
    assert naming.choices() == ["Łukasz", "Zoë", None]
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 2 and '"Ana\\u200b" holds U+200B' in said[0] and "a number is not a name" in said[1]
    assert render(naming.screen()).size == (128, 64)
    for key in "2#":
        naming.key(key)
    assert naming.result() == ["Zoë", "Bot 2 (mcts)"]


def test_a_roster_of_every_script_is_asked_drawn_journaled_and_recorded(tmp_path):
    """Issue 31's crash: the names question's menu with names the font lacks."""
    state, out, cfg = tmp_path / "state", tmp_path / "out.json", str(config_file(tmp_path, NAMES))
    d = run_table("--config", cfg, "--state-dir", str(state), "--players", "3",
                  "--keys", str(keys_file(tmp_path, "3#2#")))
    assert d.shell.screen().name == "names" and d.shell.screen().choices == ("1 Łukasz", "2 Guest")
    drawn_without_a_failure(d)  # the question's menu, the last frame
    d = run_table("--config", cfg, "--state-dir", str(state), "--keys", str(keys_file(tmp_path, "3#2#1#")),
                  "--record-out", str(out))  # asked again (nothing journaled before every seat had its name)
    assert d.shell.game.names == ["Ana😀", "שלום", "Łukasz"]
    drawn_without_a_failure(d)
    again = run_table("--config", cfg, "--state-dir", str(state), "--keys", str(keys_file(tmp_path)))
    assert again.shell.game.names == ["Ana😀", "שלום", "Łukasz"]  # from the journal, as written
    assert json.loads(out.read_text())["names"] == ["Ana😀", "שלום", "Łukasz"]
    drawn_without_a_failure(again)
    mover = again.shell.game.names[again.shell.game.game.to_move]
    header = again.shell.screen().header.left
    assert header == f"{shorten(mover)} to move"  # the real name on the screen, in Latin letters on the OLED
    assert drawable(header) in ("Ana:grinning: to move", "slvm to move", "Lukasz to move")


# ----- names an old journal holds ---------------------------------------------------------------
def test_names_an_old_journal_holds_against_the_rule_still_draw(tmp_path):
    state = tmp_path / "state"
    old = ["\u202eAnna", "B\x00\n\ud800", "\ue000\u200d" + "x" * 40]
    d = daemon.build(daemon.parse_args(["--display", "dummy", "--bot", "random", "--state-dir", str(state),
                                        "--players", "3", "--keys", str(keys_file(tmp_path))]))
    d.drain()
    d.shell._give_names(old)  # as a version before the rule journaled them
    d.drain()
    d.journal.journal.close()
    again = run_table("--state-dir", str(state), "--keys", str(keys_file(tmp_path, "D")))
    assert again.shell.game.names == old and again.shell.screen().name == "menu"
    drawn_without_a_failure(again)
    back = run_table("--state-dir", str(state), "--keys", str(keys_file(tmp_path)))
    assert back.shell.game.names == old
    drawn_without_a_failure(back)
