"""A card without its data partition: the image's companion-data puts a stand-in in RAM on
/data and leaves /run/companion-box/data-stand-in; the kiosk's first screen then says the games
last only until power off, before any other notice (companion.kiosk.daemon.tell_data_stand_in).
The boot itself is tests/image/test_image_boot.py's."""

from __future__ import annotations

import random

from companion.box.data_stand_in import read_stand_in
from companion.games import GAMES
from companion.kiosk.daemon import tell_card_problems, tell_data_stand_in
from companion.table.shell import Shell


def a_shell() -> Shell:
    return Shell(list(GAMES.values()), "clans", GAMES["clans"].load()(random.Random(0)), random.Random(0))


def test_no_file_no_notice(tmp_path):
    shell = a_shell()
    tell_data_stand_in(shell, str(tmp_path / "data-stand-in"))
    assert read_stand_in(str(tmp_path / "data-stand-in")) is None
    assert not shell.notice.shown


def test_a_missing_partition_is_told_first_and_the_card_problems_wait(tmp_path):
    (tmp_path / "data-stand-in").write_text("missing\n")
    (tmp_path / "problems.json").write_text('[{"line": 3, "key": "language", "message": "bad"}]')
    shell = a_shell()
    tell_data_stand_in(shell, str(tmp_path / "data-stand-in"))
    tell_card_problems(shell, str(tmp_path / "problems.json"))
    assert shell.notice.shown and shell.notice.name == "data-stand-in"
    screen = shell.screen()
    assert screen.title == "Games not saved" and "no data partition" in " ".join(screen.lines)


def test_a_damaged_partition_says_so(tmp_path):
    (tmp_path / "data-stand-in").write_text("damaged\n")
    shell = a_shell()
    tell_data_stand_in(shell, str(tmp_path / "data-stand-in"))
    assert "does not mount" in " ".join(shell.screen().lines)


def test_a_stray_byte_still_warns(tmp_path):
    (tmp_path / "data-stand-in").write_bytes(b"\xff\x00garbage")
    assert read_stand_in(str(tmp_path / "data-stand-in")) == "missing"
    folder = tmp_path / "a-folder"
    folder.mkdir()
    assert read_stand_in(str(folder)) == "missing", "unreadable counts as missing"
