"""Journals written by the previous version (brightness kept among a game's actions) still
resume: same position, same question, same brightness. The kiosk is upgraded in place.

tests/data/journals/*.sql are dumps of journals the previous version wrote (a Clans game
with a brightness change, a Clans game with a bot seat, a Mammut game with a brightness
change); expected.json holds what that version showed after resuming them, except the
Mammut order line, which now names tribes by their tag ("T1 T2 T3", or colors) as the books do.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from companion.kiosk import daemon

DATA = Path(__file__).resolve().parents[1] / "data" / "journals"
EXPECTED = json.loads((DATA / "expected.json").read_text())


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_previous_versions_journal_resumes(tmp_path, name, caplog):
    state = tmp_path / "state"
    state.mkdir()
    db = sqlite3.connect(state / "journal.sqlite3")
    db.executescript((DATA / f"{name}.sql").read_text())
    db.close()
    actions = (DATA / f"{name}.sql").read_text().count('INSERT INTO "actions"')
    keys, out = tmp_path / "keys", tmp_path / "out.json"
    keys.write_text("")
    caplog.set_level("INFO", logger="companion.run")
    d = daemon.build(daemon.parse_args(["--display", "dummy", "--keys", str(keys), "--state-dir", str(state),
                                        "--record-out", str(out)]))
    assert d.run() == 0
    want = EXPECTED[name]
    assert f"resumed game 1 ({actions} actions)" in caplog.messages
    # the words, not where lines break: text screens wrap at the renderer's width (25 columns
    # since issue 19, 21 when these were recorded)
    assert d.shell.screen().text().split() == want["text"].split()
    assert d.shell.brightness == d.panel.brightness == want["brightness"]
    assert as_previous_version(json.loads(out.read_text()), want["record"]) == want["record"]


def as_previous_version(record: dict, old: dict) -> dict:
    """A record as the previous version wrote it: a Mammut record is now version 2, with the
    same log and the same books plus what version 2 adds (tribe colors, the battle, the event
    decks, the notes), which are dropped here."""
    if record.get("game") != "mammut" or old.get("version") != 1:
        return record
    assert record["version"] == 2 and record["log"] == old["log"]
    state = {k: v for k, v in record["state"].items() if k in old["state"]}
    state["tribes"] = [{k: v for k, v in t.items() if k != "color"} for t in state["tribes"]]
    return {**record, "version": 1, "state": state}


def test_brightness_is_kept_beside_the_games_now(tmp_path):
    state, keys = tmp_path / "state", tmp_path / "keys"
    keys.write_text("D6#2#")  # Clans menu: 6 Brightness, level 2
    d = daemon.build(daemon.parse_args(["--display", "dummy", "--keys", str(keys), "--state-dir", str(state)]))
    d.run()
    keys.write_text("D7#")  # Play Mammut: a new game, and the brightness stays
    d = daemon.build(daemon.parse_args(["--display", "dummy", "--keys", str(keys), "--state-dir", str(state)]))
    assert d.panel.brightness == 2
    d.run()
    assert d.shell.kind == "mammut"
    keys.write_text("")
    d = daemon.build(daemon.parse_args(["--display", "dummy", "--keys", str(keys), "--state-dir", str(state)]))
    assert d.shell.brightness == d.panel.brightness == 2
