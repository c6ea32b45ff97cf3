"""The table's page over HTTP (aiohttp's test client): it follows the journal a real daemon writes.

State equals `companion replay --json` after every move; events after every confirmed
action; a daemon restart; a missing or damaged journal; replays and record downloads.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import sqlite3
import sys
from pathlib import Path

from companion.games.clans.commands import replay as replay_command
from companion.web.http import VIEWS
from tests.web.webtools import advance, app_for, client, next_event, run, table

PUBLIC_EXTRAS = {"first_player", "players", "mode", "bots", "levels", "teach", "moves", "last_move", "colors"}


def replay_json(record_text: str, tmp: Path) -> dict:
    path = tmp / "record.json"
    path.write_text(record_text)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert replay_command([str(path), "--json"]) == 0
    return json.loads(out.getvalue())


def test_state_equals_replay_json_after_every_move(tmp_path):
    state_dir = tmp_path / "state"
    d = table(state_dir, "--players", "3", "--seed", "11")
    rnd = random.Random(5)
    app = app_for(state_dir)

    async def go():
        async with client(app) as c:
            while not d.shell.game.game.is_over:
                advance(d, rnd)
                app[VIEWS].refresh()
                got = await (await c.get("/api/state")).json()
                expected = replay_json(d.shell.game.record_json(), tmp_path)
                state = got["state"]
                assert {k: v for k, v in state.items() if k not in PUBLIC_EXTRAS} == expected
                assert state["first_player"] == d.shell.game.game.first_player
                assert got["game"] == "clans" and got["actions"] >= state["moves"]
            return state

    final = run(go())
    assert final["status"] in ("finished", "stalled") and "totals" not in final  # colors not given yet


def test_an_event_after_each_confirmed_action_and_across_a_daemon_restart(tmp_path):
    state_dir = tmp_path / "state"
    d = table(state_dir, "--players", "2", "--seed", "3")
    rnd = random.Random(8)
    app = app_for(state_dir, poll_s=0.02)

    async def go():
        async with client(app) as c:
            stream = await c.get("/api/events")
            assert stream.headers["Content-Type"].startswith("text/event-stream")
            event, first = await next_event(stream)
            assert event == "state"
            seen = [first["actions"]]
            for _ in range(4):
                advance(d, rnd)
                while True:  # one event per change the poll saw; the last one has the move
                    _, data = await next_event(stream)
                    if data.get("state", {}).get("moves") == d.shell.game.game.ply:
                        break
                seen.append(data["actions"])
            ply = d.shell.game.game.ply
            d.journal.journal.close()  # the daemon stops (power cut or restart) ...
            d2 = table(state_dir)  # ... and comes back: the same game, resumed from the journal
            assert d2.shell.game.game.ply == ply
            advance(d2, rnd)
            while True:
                _, data = await next_event(stream)
                if data.get("state", {}).get("moves") == ply + 1:
                    break
            return seen

    seen = run(go())
    assert seen == sorted(seen) and len(set(seen)) == len(seen)


def test_a_missing_or_damaged_journal_gives_a_clear_page_never_a_traceback(tmp_path):
    state_dir = tmp_path / "state"
    state_dir.mkdir()

    async def bodies():
        app = app_for(state_dir)
        async with client(app) as c:
            out = {}
            for path in ("/", "/api/state", "/games", "/replay/1", "/api/record/1"):
                r = await c.get(path)
                out[path] = (r.status, await r.text())
            return out

    missing = run(bodies())
    assert missing["/api/state"][0] == 503 and "no journal yet" in missing["/api/state"][1]
    assert missing["/"][0] == 200 and "no journal yet" in missing["/"][1]
    (state_dir / "journal.sqlite3").write_bytes(b"this is not a database" * 100)
    garbage = run(bodies())
    for status, text in list(missing.values()) + list(garbage.values()):
        assert "Traceback" not in text and status != 500
    assert "not a companion journal" in garbage["/api/state"][1] or "cannot be read" in garbage["/api/state"][1]


def test_a_damaged_row_ends_the_game_at_the_last_good_action(tmp_path):
    state_dir = tmp_path / "state"
    d = table(state_dir, "--players", "2", "--seed", "3")
    rnd = random.Random(2)
    for _ in range(4):
        advance(d, rnd)
    d.journal.journal.close()
    db = sqlite3.connect(state_dir / "journal.sqlite3")
    n = db.execute("SELECT count(*) FROM actions").fetchone()[0]
    db.execute("UPDATE actions SET crc = crc + 1 WHERE seq = ?", (n,))
    db.commit()
    db.close()

    async def go():
        app = app_for(state_dir)
        async with client(app) as c:
            return await (await c.get("/api/state")).json()

    got = run(go())
    assert got["actions"] == n - 1


def test_replay_steps_and_a_record_that_companion_replay_accepts(tmp_path):
    state_dir = tmp_path / "state"
    d = table(state_dir, "--players", "3", "--seed", "21", "--bots", "3")
    rnd = random.Random(4)
    for _ in range(5):
        advance(d, rnd)

    async def go():
        app = app_for(state_dir)
        async with client(app) as c:
            pages = [await (await c.get(f"/replay/1?step={k}")).text() for k in range(6)]
            end = await (await c.get("/replay/1")).text()
            record = await c.get("/api/record/1")
            return pages, end, record.headers["Content-Disposition"], await record.text()

    pages, end, disposition, record = run(go())
    assert "attachment" in disposition
    assert replay_json(record, tmp_path)["huts"] == replay_json(d.shell.game.record_json(), tmp_path)["huts"]
    assert 'class="last-move"' not in pages[0] and 'class="last-move"' in pages[1]
    assert pages[5] == end and "Step 5 of 5" in end
    first_move = d.shell.game.game.moves[0]
    assert f'data-from="{first_move.frm}" data-to="{first_move.to}"' in pages[1]


def test_mammut_books_live(tmp_path):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
    from gallery import mammut_script

    state_dir = tmp_path / "state"
    d = table(state_dir, "--game", "mammut", "--seed", "3")
    for key in mammut_script(3)[:60]:
        if key != "D":
            d.step(key)
    app = app_for(state_dir)

    async def go():
        async with client(app) as c:
            return await (await c.get("/api/state")).json(), await (await c.get("/")).text()

    got, page = run(go())
    game = d.shell.game.game
    assert got["game"] == "mammut"
    assert [(t["warriors"], t["women"], t["food"], t["fate_cards"]) for t in got["state"]["tribes"]] == \
        [(t.warriors, t.women, t.food, t.fate_cards) for t in game.tribes]
    assert (got["state"]["year"], got["state"]["season"], got["state"]["phase"]) == \
        (game.year, game.season, game.phase.value)
    assert 'class="books"' in page and page.count("<tr>") >= len(game.tribes) + 1


def test_the_map_draws_every_label_above_every_territory():
    """A territory's number may reach over its neighbour's polygon (on a phone it stands upright about
    the territory's centre): the labels come after the last polygon, so none is drawn over a number."""
    import re

    from companion.games.clans import web as clans_web
    from companion.games.clans.game import Game

    game = Game.random(3, random.Random(5))
    for _ in range(25):
        game.push(*game.random_move(random.Random(len(game.moves)).random))
    svg = clans_web._map(game)
    last_polygon, first_label = svg.rindex("<polygon"), svg.index('class="labels"')
    assert last_polygon < first_label
    assert len(re.findall(r'<g class="labels" data-t="\d+">', svg)) == 60
    assert len(re.findall(r'<g [^>]*data-huts=', svg)) == 60, "each territory's group keeps its huts"
