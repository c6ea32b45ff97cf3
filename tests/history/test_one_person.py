"""One person, one player (issue 53, item 12): the statistics, the page and the BG Stats export know a
person by the table's one names' rule, and the seats the table names itself are no one.

The rule that refuses "Anna" and "ANNA" side by side at one table (`seatnames.same_key`) also makes
"Anna" in one game and "anna" in the next one player, shown by the most recent spelling. "Player 1",
"Bot 2 (mcts)" and "Guest 1" are anonymous: no row, no nemesis, no head-to-head, no line of the
plot, while their seats still count in the seat figures. A BG Stats file we export and import back
gives those seats back as the table named them (not "Guest N").

The journal, by hand (ids in time order; spellings as typed at the table):

  id  players                         totals      winners
   1  Anna, Ben                       40 35       Anna
   2  ben, ANNA                       30 45       ANNA
   3  anna, Bot 2 (mcts), Ben         20 50 30    the bot
   4  Player 1, Player 2              33 38       Player 2
   5  Guest 1, Ben                    41 28       the guest
"""

from __future__ import annotations

import json
import re
import sqlite3
import urllib.parse
from pathlib import Path

import pytest

from companion.history import bgstats, stats
from companion.history.plays import read_history
from companion.journal.repair import crc
from companion.journal.store import Journal
from tests.history.fixture import clans, started
from tests.history.test_import_foreign import PLAY_FILE
from tests.history.test_import import write
from tests.support import run_cli
from tests.web.webtools import app_for, client, run

GAMES = {
    1: clans(2, [40, 35], [0], 0, ["red", "blue"], [0], ["Anna", "Ben"]),
    2: clans(2, [30, 45], [1], 1, ["green", "red"], [1], ["ben", "ANNA"]),
    3: clans(3, [20, 50, 30], [1], 0, ["red", "blue", "green"], [1, 2], ["anna", "Bot 2 (mcts)", "Ben"]),
    4: clans(2, [33, 38], [1], 0, ["yellow", "green"], [], ["Player 1", "Player 2"]),
    5: clans(2, [41, 28], [0], 1, ["black", "red"], [0], ["Guest 1", "Ben"]),
}
MINUTES = 45
PLACEHOLDERS = ("Player 1", "Player 2", "Bot 2 (mcts)", "Guest 1")


def journal(state_dir: Path) -> Path:
    """The module docstring's journal (the kiosk's shapes, rows written directly as the fixture does)."""
    Journal(state_dir).close()
    db = sqlite3.connect(Path(state_dir) / "journal.sqlite3", isolation_level=None)
    try:
        db.execute("BEGIN")
        for gid, result in GAMES.items():
            db.execute("INSERT INTO games(id, kind, started, finished, result) VALUES (?, ?, ?, ?, ?)",
                       (gid, "clans", started(gid), started(gid) + 60 * MINUTES, json.dumps(result)))
            payload = json.dumps({"seq": 1})
            db.execute("INSERT INTO actions(game, seq, payload, crc) VALUES (?, 1, ?, ?)", (gid, payload, crc(payload)))
        db.execute("COMMIT")
    finally:
        db.close()
    return Path(state_dir)


@pytest.fixture
def state(tmp_path: Path) -> Path:
    return journal(tmp_path / "state")


def cli_json(*args: str):
    code, out, err = run_cli(*args)
    assert code == 0, err
    return json.loads(out)


def test_a_person_is_one_player_whatever_the_spelling_and_shows_the_most_recent(state):
    players = cli_json("stats", "--json", "--state-dir", str(state))
    assert list(players) == ["Ben", "anna"]  # "anna": her spelling in game 3, her last; "Ben": game 5's
    anna, ben = players["anna"], players["Ben"]
    assert (anna["games"], anna["wins"], anna["win_rate"], anna["longest_streak"]) == (3, 2, 0.667, 2)
    assert (anna["average_total"], anna["best_total"]) == (35.0, 45)  # (40 + 45 + 20) / 3
    assert (ben["games"], ben["wins"], ben["average_total"], ben["best_total"]) == (4, 0, 30.75, 35)
    assert ben["nemesis"] == "anna"  # games 1 and 2, whatever she was called in them
    assert anna["villages_founded"] == 2  # game 1 seat 0, game 2 seat 1
    table = cli_json("stats", "--json", "--tables", "--state-dir", str(state))
    assert table["head_to_head"] == {"Ben|anna": {"games": 3, "Ben": 0, "anna": 2, "ties": 0}}
    plays = read_history(state).finished
    assert stats.head_to_head(plays, "ANNA", "ben") == {"games": 3, "ANNA": 2, "ben": 0, "ties": 0}
    assert [title for title, _lines in stats.stats_pages(plays)][:2] == ["Ben", "anna"]


def test_the_seats_the_table_names_itself_are_no_one_but_still_count_as_seats(state):
    table = cli_json("stats", "--json", "--tables", "--state-dir", str(state))
    assert not set(PLACEHOLDERS) & set(table["players"])
    assert table["players"]["anna"]["nemesis"] is None  # her one loss went to the bot: no one
    assert all(name in ("Ben", "anna") for pair in table["head_to_head"] for name in pair.split("|"))
    two = table["games"]["clans"]["2"]  # games 1, 2, 4, 5: the placeholders' seats and wins count
    assert (two["games"], two["seat_wins"], two["average_winning_total"]) == (4, [2, 2], 41.0)
    assert table["games"]["clans"]["3"]["seat_wins"] == [0, 1, 0]  # the bot's win
    code, text, _err = run_cli("stats", "--state-dir", str(state))
    assert code == 0 and not any(name in text for name in PLACEHOLDERS) and "ANNA" not in text


def test_the_stats_page_has_one_row_and_one_line_per_person(state):
    async def get():
        async with client(app_for(state)) as c:
            return await (await c.get("/stats")).text()

    html = run(get())
    players = html[html.index('class="stats players"'):]
    players = players[:players.index("</table>")]
    assert re.findall(r"<tr><td>([^<]*)</td>", players) == ["Ben", "anna"]
    h2h = html[html.index('class="stats h2h"'):]
    assert re.findall(r"<tr><td>([^<]*)</td>", h2h[:h2h.index("</table>")]) == ["Ben - anna"]
    svg = html[html.index("<svg viewBox"):html.index("</svg>") + 6]
    assert re.findall(r'<g data-player="([^"]+)">', svg) == ["Ben", "anna"]
    anna = re.search(r'data-player="anna"><title>anna</title><polyline points="([^"]+)"', svg).group(1)
    assert len(anna.split()) == 3  # games 1, 2 and 3
    assert not any(name in html for name in PLACEHOLDERS)


def test_the_bgstats_file_has_one_player_per_person_and_anonymous_seats(state):
    doc = cli_json("export", "--format", "bgstats", "--state-dir", str(state))
    by_id = {p["id"]: p for p in doc["players"]}
    named = sorted(p["name"] for p in doc["players"] if not p["isAnonymous"] and p["name"] != bgstats.SENDER)
    assert named == ["Ben", "anna"]
    box = read_history(state).box
    anna = next(p for p in doc["players"] if p["name"] == "anna")
    assert anna["uuid"] == bgstats.player_uuid(box, "Anna") == bgstats.player_uuid(box, "ANNA")
    seats = [[by_id[s["playerRefId"]]["name"] for s in p["playerScores"]] for p in doc["plays"]]
    anon = bgstats.ANONYMOUS
    assert seats == [["anna", "Ben"], ["Ben", "anna"], ["anna", anon, "Ben"], [anon, anon], [anon, "Ben"]]
    kept = [[json.loads(s["metaData"])[bgstats.SEAT_META] for s in p["playerScores"] if "metaData" in s]
            for p in doc["plays"]]
    assert kept == [[], [], ["Bot 2 (mcts)"], ["Player 1", "Player 2"], ["Guest 1"]]
    links = [bgstats.create_play_link(p) for p in read_history(state).finished[:2]]
    ids = [json.loads(urllib.parse.unquote(link.split("data=", 1)[1]))["players"] for link in links]
    assert ids[0][0]["sourcePlayerId"] == ids[1][1]["sourcePlayerId"] == anna["uuid"]  # "Anna", "ANNA"


def test_our_bgstats_file_imported_gives_the_table_its_own_seat_names_back(state, tmp_path):
    out = tmp_path / "plays.bgsplay"
    assert run_cli("export", "--format", "bgstats", "--out", str(out), "--state-dir", str(state))[0] == 0
    other = tmp_path / "other"
    code, text, err = run_cli("import", str(out), "--state-dir", str(other))
    assert (code, text) == (0, "companion import: 5 game(s) added to the history\n"), err
    back = cli_json("history", "--json", "--state-dir", str(other))
    assert [g["players"] for g in back] == [["anna", "Ben"], ["Ben", "anna"], ["anna", "Bot 2 (mcts)", "Ben"],
                                            ["Player 1", "Player 2"], ["Guest 1", "Ben"]]
    assert [(g["totals"], g["winners"]) for g in back] == \
        [(r["totals"], r["winners"]) for r in (GAMES[gid] for gid in sorted(GAMES))]
    mine, theirs = (cli_json("stats", "--json", "--state-dir", str(s)) for s in (state, other))
    keys = ("games", "wins", "win_rate", "average_total", "best_total", "last_played", "longest_streak", "nemesis")
    assert {n: {k: p[k] for k in keys} for n, p in theirs.items()} == \
        {n: {k: p[k] for k in keys} for n, p in mine.items()}


@pytest.mark.parametrize("meta, seat_name", [
    ('{"companionSeat": "Bot 3 (greedy)"}', "Bot 3 (greedy)"),   # the seat the table gives it
    ('{"companionSeat": "Player 3"}', "Player 3"),
    ('{"companionSeat": "Player 1"}', "Guest 3"),               # another seat's name: a guest
    ('{"companionSeat": "Kim Example"}', "Guest 3"),            # a person's name is no seat's
    ('{"companionSeat": "Bot 3 (\\u0000)"}', "Guest 3"),         # a name the rule refuses
    ('{"scoreUuid": "6FB4923D-FAF0-48CC-BDE3-080B018C722E"}', "Guest 3"),  # BG Stats' own metaData
    ("not json", "Guest 3"), ('["companionSeat"]', "Guest 3"), (None, "Guest 3"),
])
def test_an_anonymous_seat_takes_only_a_name_the_table_gives_that_seat(tmp_path, meta, seat_name):
    data = json.loads(PLAY_FILE.read_text())
    data["games"][0].update(name="Clans", bggId=4636)
    seat = data["plays"][0]["playerScores"][2]  # seat 3: the anonymous player
    if meta is not None:
        seat["metaData"] = meta
    path = write(tmp_path / "BGStatsExport.json", data)
    code, _out, err = run_cli("import", str(path), "--state-dir", str(tmp_path / "s"))
    assert code == 0, err
    (game,) = cli_json("history", "--json", "--state-dir", str(tmp_path / "s"))
    assert game["players"] == ["Sam Example", "Kim Example", seat_name]
