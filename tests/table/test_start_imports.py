"""Start-up stays light: the shipped Clans board is the same from its JSON copy as from its YAML
source, and the first frame of a headless run and `companion replay` do not import what they
do not need (yaml, luma.oled, the journal, the key socket, the search worker's pool).
Fresh interpreters, so the test's own imports do not count; no timing asserts."""

from __future__ import annotations

import json
import subprocess
import sys

from companion.games.clans import board

# (socket and multiprocessing are not listed for a run: luma.core, which the dummy display is, imports them)
HEAVY_FOR_RUN = ("yaml", "companion.box.config", "luma.oled.device", "companion.journal.store", "companion.journal.repair",
                 "companion.hw.keysocket", "concurrent.futures", "sqlite3", "segno")
HEAVY_FOR_REPLAY = HEAVY_FOR_RUN + ("companion.table.protocol", "companion.table.screen", "PIL.Image", "socket",
                                    "multiprocessing", "luma.core.device")


def test_the_json_copy_is_the_yaml_board():
    assert board.load_board() == board.load_board_file(board.SOURCE_YAML)
    with open(board.SHIPPED_JSON, encoding="utf-8") as fh:
        assert fh.read() == board.json_copy_text(), "run: python -m companion.games.clans.board"


def loaded_after(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys, json; print(json.dumps(sorted(sys.modules)))"],
                         check=True, capture_output=True, text=True).stdout
    return set(json.loads(out.splitlines()[-1]))


def test_a_headless_first_frame_imports_only_what_it_needs(tmp_path):
    keys = tmp_path / "empty.keys"
    keys.write_text("")
    loaded = loaded_after(f"from companion import cli; cli.main(['run', '--display', 'dummy', '--keys', {str(keys)!r},"
                          " '--players', '2', '--seed', '1'])")
    assert "companion.kiosk.loop" in loaded  # it did run
    assert sorted(loaded & set(HEAVY_FOR_RUN)) == []


def test_replay_imports_no_screen_nor_yaml(tmp_path):
    record = tmp_path / "game.json"
    subprocess.run([sys.executable, "-m", "companion", "new", "--players", "3", "--seed", "2", "--out", str(record)],
                   check=True)
    loaded = loaded_after(f"from companion import cli; cli.main(['replay', {str(record)!r}])")
    assert "companion.games.clans.record" in loaded
    assert sorted(loaded & set(HEAVY_FOR_REPLAY)) == []
