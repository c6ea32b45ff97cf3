"""Games brought in by `companion import` are in the list of games and replay, but never become
the page's current game: a game in progress at the table stays the one /api/state and the
event stream show (the reader filters with journal.PLAYED_HERE, like the daemon's resume)."""

from __future__ import annotations

import json
import random

from companion.web.http import VIEWS
from tests.history.test_import import clans_record, write
from tests.support import run_cli
from tests.web.webtools import advance, app_for, client, next_event, run, table


def test_an_import_while_a_game_is_in_progress_leaves_the_page_on_that_game(tmp_path):
    state_dir = tmp_path / "state"
    d = table(state_dir, "--players", "3", "--seed", "7")
    rnd = random.Random(3)
    for _ in range(3):
        advance(d, rnd)
    app = app_for(state_dir)

    async def go():
        async with client(app) as c:
            before = await (await c.get("/api/state")).json()
            assert before["game_id"] == 1 and not before["finished"], before
            stream = await c.get("/api/events")
            assert (await next_event(stream))[1]["game_id"] == 1
            code, _out, err = run_cli("import", "--state-dir", str(state_dir),
                                      str(write(tmp_path / "in.json", [clans_record(18, 2)])))
            assert code == 0, err
            assert app[VIEWS].refresh() is False  # nothing the page shows changed
            after = await (await c.get("/api/state")).json()
            games = await (await c.get("/games")).text()
            replay = await c.get("/replay/2")
            stream.close()
            return before, after, games, replay.status

    before, after, games, replay = run(go())
    assert after == before, (before, after)
    assert "/replay/2" in games and "/replay/1" in games and replay == 200
    d.step("#")  # the table goes on: its game stays the page's
    assert json.loads(app[VIEWS].live.json())["game_id"] == 1


def test_the_reader_never_takes_an_imported_game_for_the_current_one(tmp_path):
    from companion.journal.store import Journal
    from companion.journal.reader import JournalReader

    state_dir = tmp_path / "state"
    journal = Journal(state_dir)
    journal.start_game("clans", [{"type": "setup"}])
    journal.finish({"status": "finished", "totals": [1, 2], "winners": [1]})
    journal.db.close()
    assert run_cli("import", "--state-dir", str(state_dir), str(write(tmp_path / "in.json", [clans_record(20, 2)])))[0] == 0
    reader = JournalReader(state_dir)
    assert reader.latest_id() == 1 and reader.signature()[0] == (1, 1)
    assert {g.game_id for g in reader.games()} == {1, 2}
