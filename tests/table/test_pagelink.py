"""The kiosk/page link (companion.table.pagelink): what the page writes is what the kiosk reads,
and the kiosk reads nothing else. The socket itself, its clients and hostile lines:
tests/hw/test_keysocket_clients.py and tests/web."""

from __future__ import annotations

import pytest

from companion.table import pagelink as link


@pytest.mark.parametrize("sent, read", [
    (link.keys("12#13#"), link.Keys(("1", "2", "#", "1", "3", "#"))),
    (link.url("HTTP://192.168.1.23:8080"), link.Url("HTTP://192.168.1.23:8080")),
    (link.url(None), link.Url(None)),
    (link.roster(["Anna", "Ben"]), link.Roster(("Anna", "Ben"))),
    (link.remove_game(7), link.RemoveGame(7)),
])
def test_each_message_the_page_writes_is_read_back_by_the_kiosk(sent, read):
    line = link.encode(sent)
    assert line.endswith(b"\n") and line.count(b"\n") == 1 and len(line) <= link.MAX_LINE
    assert link.decode(line.rstrip(b"\n")) == read


@pytest.mark.parametrize("line", [
    b"", b"[]", b"7", b"{}", b'{"other": 1}',
    b'{"keys": ["P"]}', b'{"keys": "12#"}', b'{"keys": ["12"]}', b'{"keys": [' + b'"1",' * 64 + b'"1"]}',
    b'{"url": 8080}', b'{"url": "a\\u0000b"}', b'{"url": "' + b"x" * 201 + b'"}',
    b'{"roster": "Anna"}', b'{"roster": ["Anna", 1]}',
    b'{"remove_game": true}', b'{"remove_game": "7"}', b'{"remove_game": 0}', b'{"remove_game": 7.0}',
    b'{"remove_game": 9223372036854775808}', b'{"remove_game": 7, "other": 1}',
    '{"keys": ["1"]}'.encode("utf-16"), b"\xff\xfe", b"[" * 100_000,
])
def test_anything_else_is_dropped(line):
    assert link.decode(line) is None


def test_the_game_ids_are_a_journals():
    assert link.game_id(1) == 1 and link.game_id(link.MAX_GAME_ID) == link.MAX_GAME_ID
    assert link.game_id(True) is None and link.game_id(link.MAX_GAME_ID + 1) is None
