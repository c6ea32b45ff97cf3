"""Hostile odds and ends, seen from outside a real `companion web` (issue 32, parts 3-5).

- a deeply nested JSON body is a 400, never a 500 with a traceback in the log;
- a flood of refusals is logged at a bounded rate;
- a journal whose daemon is not running is read without creating anything beside it;
- replay links work for any game id the journal holds and say clearly when there is none.
"""

from __future__ import annotations

import logging
import os
import random
import sqlite3
from pathlib import Path

from companion.web.lograte import RateLimitedLog
from tests.web.realweb import RealWeb, post_json, raw_request
from tests.web.webtools import advance, table

PIN = "4711471147"


def closed_journal(tmp_path: Path, moves: int = 4) -> Path:
    """A state dir with a Clans game of `moves` moves, its daemon gone (no -wal, no -shm)."""
    state_dir = tmp_path / "state"
    d = table(state_dir, "--players", "3", "--seed", "7")
    rnd = random.Random(3)
    for _ in range(moves):
        advance(d, rnd)
    d.journal.journal.close()
    assert sorted(p.name for p in state_dir.iterdir() if p.name.startswith("journal")) == ["journal.sqlite3"]
    return state_dir


def snapshot(directory: Path) -> dict[str, tuple[int, int]]:
    return {p.name: (p.stat().st_size, p.stat().st_mtime_ns) for p in directory.iterdir()}


def test_malformed_bodies_are_400_and_never_a_traceback(tmp_path):
    state_dir = closed_journal(tmp_path, moves=1)
    (tmp_path / "pin").write_text(PIN + "\n")
    with RealWeb(state_dir, "--pin-file", str(tmp_path / "pin")) as web:
        for body in (b"[" * 5000 + b"]" * 5000, b'{"pin": ' + b"[" * 8000 + b"]" * 8000 + b"}",
                     b"\xff\xfe", b"not json", b"[1, 2]", b'"1234"', b'{"pin": ["1234"]}', b'{"pin": {"a": 1}}',
                     b'{"pin": true}', b'{"pin": null}'):
            status, _h, _b = post_json(web.port, "/api/login", body)
            assert status == 400, (body[:20], status)
        status, _h, _b = post_json(web.port, "/api/roster", b"[" * 5000)
        assert status == 403  # no session: refused before the body is read
        assert "Traceback" not in web.log() and "ERROR" not in web.log(), web.log()


def test_refusals_are_logged_at_a_bounded_rate(tmp_path):
    state_dir = closed_journal(tmp_path, moves=1)
    with RealWeb(state_dir) as web:
        for _ in range(200):
            status, _h, _b = raw_request(web.port, "GET", "/", headers={"Host": "evil.example"})
            assert status == 421
        assert web.log().count("refused Host") <= 2, web.log()


def test_rate_limited_log_says_how_many_it_left_out(caplog):
    now = [0.0]
    limited = RateLimitedLog(logging.getLogger("test.lograte"), every_s=10.0, clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, "test.lograte"):
        written = [limited.warning("viewer", "refused %s", i) for i in range(100)]
        now[0] = 11.0
        assert limited.warning("viewer", "refused %s", "later")
        assert limited.warning("host", "other kind")
    assert written.count(True) == 1
    lines = [r.getMessage() for r in caplog.records]
    assert lines == ["refused 0", "refused later (and 99 more like it in the last 11 s)", "other kind"]


def test_a_journal_without_its_daemon_is_read_and_nothing_is_created(tmp_path):
    state_dir = closed_journal(tmp_path)
    os.chmod(state_dir, 0o700)  # writable: SQLite could make -wal/-shm here if the page let it
    before = snapshot(state_dir)
    with RealWeb(state_dir) as web:
        for path in ("/", "/api/state", "/api/view", "/games", "/replay/1", "/replay/1?step=2", "/api/record/1",
                     "/history", "/stats"):
            status, _h, body = raw_request(web.port, "GET", path)
            assert status == 200, (path, status, body[:200])
        status, _h, body = raw_request(web.port, "GET", "/api/state")
        assert b'"game_id":1' in body and b'"actions"' in body
    assert snapshot(state_dir) == before


def test_replay_links_work_for_any_id_and_an_unknown_one_says_so(tmp_path):
    state_dir = closed_journal(tmp_path)
    big = 12345678901
    with sqlite3.connect(state_dir / "journal.sqlite3") as db:  # as an import may number a game
        db.execute("PRAGMA foreign_keys=OFF")
        db.execute("UPDATE actions SET game=? WHERE game=1", (big,))
        db.execute("UPDATE games SET id=? WHERE id=1", (big,))
    db.close()
    for leftover in ("-wal", "-shm"):
        Path(f"{state_dir}/journal.sqlite3{leftover}").unlink(missing_ok=True)
    with RealWeb(state_dir) as web:
        status, _h, body = raw_request(web.port, "GET", "/games")
        assert status == 200 and f'href="/replay/{big}"'.encode() in body
        status, _h, body = raw_request(web.port, "GET", f"/replay/{big}?step=1")
        assert status == 200 and b"Waiting for a new game" not in body
        status, _h, body = raw_request(web.port, "GET", f"/api/record/{big}")
        assert status == 200 and b'"moves"' in body
        for unknown in ("1", "999999999", "99999999999999999999", "-3", "0"):
            status, _h, body = raw_request(web.port, "GET", f"/replay/{unknown}")
            assert status == 404 and f"there is no game {unknown} in the journal".encode() in body, (unknown, body)
