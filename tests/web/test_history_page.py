"""The table's page: finished games, statistics, exports, the BG Stats link, the players' names.

The fixture's hand-written journal (tests/history/fixture.py) gives the numbers worked out
by hand in tests/history/test_stats.py; real daemon games check the live page's final
screen, the roster reaching the daemon's socket, and that a game in progress shows nowhere.
"""

from __future__ import annotations

import csv
import io
import json
import random
import re
import urllib.parse
import xml.etree.ElementTree as ET

from companion import cli
from companion.history.plays import read_history
from companion.hw.keysocket import KeySocket, RosterUpdate
from companion.web.guard import CSP
from tests.history.fixture import EXPECTED_HISTORY, build_journal
from tests.hw.waiting import wait_until
from tests.web.test_guard import dealt_colors, leaks
from tests.web.webtools import advance, app_for, client, play_to_the_end, run, table

PAGES = ("/history", "/stats", "/api/history", "/api/stats", "/export/bgstats", "/export/bgg", "/export/csv",
         "/export/json", "/roster")
LINK = "https://app.bgstatsapp.com/createPlay.html?data="


def fixture_dir(tmp_path):
    state_dir = tmp_path / "state"
    build_journal(state_dir)
    return state_dir


async def fetch_all(app, paths=PAGES) -> dict[str, tuple[int, dict, str]]:
    async with client(app) as c:
        out = {}
        for path in paths:
            r = await c.get(path)
            out[path] = (r.status, dict(r.headers), await r.text())
        return out


def link_data(href: str) -> dict:
    assert href.startswith(LINK)
    return json.loads(urllib.parse.unquote(href[len(LINK):]))


def bgstats_links(html: str) -> list[str]:
    return [m.group(1).replace("&amp;", "&") for m in
            re.finditer(r'<a href="([^"]+)" rel="noopener noreferrer" class="button bgstats">', html)]


def test_history_lists_the_finished_games_newest_first_with_bgstats_links(tmp_path):
    got = run(fetch_all(app_for(fixture_dir(tmp_path)), ("/history",)))
    status, headers, html = got["/history"]
    assert status == 200 and headers["Content-Security-Policy"] == CSP
    ids = [int(m) for m in re.findall(r'<article class="play" data-game-id="(\d+)"', html)]
    assert ids == [11, 10, 8, 7, 6, 5, 3, 2, 1]  # 4 abandoned, 9 damaged
    assert "game 9: its result is not readable" in html
    for href in ("/export/bgstats", "/export/bgg", "/export/csv", "/export/json", "/replay/10", "/stats"):
        assert f'href="{href}"' in html
    links = bgstats_links(html)
    assert len(links) == 9
    first = link_data(links[0])  # game 11: Dario 28, Carla 41 (winner)
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", first["playDate"])
    assert first["game"]["name"] and first["game"]["bggId"] > 0
    assert [(p["name"], p["score"], p["winner"]) for p in first["players"]] == [("Dario", 28, False),
                                                                                ("Carla", 41, True)]
    tie = link_data(links[1])  # game 10: Anna and Carla share the win
    assert [p["name"] for p in tie["players"] if p["winner"]] == ["Anna", "Carla"]
    article = html[html.index('data-game-id="10"'):html.index('data-game-id="8"')]
    assert article.count('class="winner"') == 2 and "Bruno <b>44</b>" in article and "90 min" in article


def test_an_empty_or_missing_journal_says_no_finished_game_yet(tmp_path):
    state_dir = tmp_path / "state"
    state_dir.mkdir()
    missing = run(fetch_all(app_for(state_dir), ("/history", "/stats", "/api/history")))
    from companion.journal.store import Journal

    Journal(state_dir).close()
    empty = run(fetch_all(app_for(state_dir), ("/history", "/stats", "/api/history", "/export/csv")))
    for path in ("/history", "/stats"):
        assert "No finished game yet" in missing[path][2] and "Traceback" not in missing[path][2]
        assert empty[path][0] == 200 and "No finished game yet" in empty[path][2]
    assert missing["/api/history"][0] == 503
    assert json.loads(empty["/api/history"][2]) == []
    assert empty["/export/csv"][2].removeprefix("\ufeff").splitlines() == [",".join(__import__("companion.history.export",
                                                                        fromlist=["x"]).CSV_COLUMNS)]


def test_stats_show_the_hand_computed_numbers_and_a_plot(tmp_path):
    html = run(fetch_all(app_for(fixture_dir(tmp_path)), ("/stats",)))["/stats"][2]
    rows = {m.group(1): re.findall(r"<td>(.*?)</td>", m.group(0)) for m in
            re.finditer(r"<tr><td>([^<]*)</td>.*?</tr>", html)}
    # name, games, wins, win %, average, best, longest streak, nemesis (test_stats.py's numbers)
    assert rows["Anna"][:8] == ["Anna", "7", "3", "43%", "46.4", "60", "1", "Bruno"]
    assert rows["Bruno"][:8] == ["Bruno", "6", "2", "33%", "34.8", "45", "1", "Anna"]
    assert rows["Carla"][:8] == ["Carla", "4", "3", "75%", "40.75", "52", "2", "-"]
    assert rows["Dario"][:8] == ["Dario", "4", "0", "0%", "29", "30", "0", "Carla"]
    assert "Guest 2" not in rows
    # per game and player count: Clans 2 players, first player 1 of 3; seats 33% 67%
    assert "<td>1/3 (33%)</td><td>1: 33% 2: 67%</td>" in html
    assert "<td>2/2 (100%)</td><td>1: 0% 2: 100% 3: 50% 4: 0%</td>" in html
    # head to head
    assert "<td>Anna - Bruno</td><td>6</td><td>3 : 2</td><td>0</td>" in html
    assert "<td>Anna - Carla</td><td>3</td><td>0 : 1</td><td>1</td>" in html
    # colours: red 48.83, blue 44.25, green 33, yellow 34.5, black 26.5
    for color, avg in (("red", "48.83"), ("blue", "44.25"), ("green", "33"), ("yellow", "34.5"), ("black", "26.5")):
        assert re.search(rf'c-{color}"></span>[^<]*</td><td>{avg}</td>', html), color
    svg = html[html.index("<svg viewBox"):html.index("</svg>") + 6]
    players = ["Anna", "Bruno", "Carla", "Dario"]  # a bot and "Player N" are no one: no line, no row
    assert not {"Bot 3 (mcts)", "Player 1", "Player 2"} & set(rows)
    assert svg.count("<polyline") == len(players)
    assert re.findall(r'<g data-player="([^"]+)">', svg) == players
    assert "style=" not in html and "<script" not in svg
    ET.fromstring(svg)  # well-formed SVG markup
    anna = re.search(r'data-player="Anna"><title>Anna</title><polyline points="([^"]+)"', svg).group(1)
    assert len(anna.split()) == 5  # her five Clans games (mammut camps are not points)


def test_api_history_equals_the_cli_and_api_stats_the_table_stats(tmp_path, capsys):
    state_dir = fixture_dir(tmp_path)
    got = run(fetch_all(app_for(state_dir), ("/api/history", "/api/stats")))
    assert cli.main(["history", "--state-dir", str(state_dir), "--json"]) == 0
    assert json.loads(got["/api/history"][2]) == json.loads(capsys.readouterr().out)
    assert [e["game_id"] for e in json.loads(got["/api/history"][2])] == [e["game_id"] for e in EXPECTED_HISTORY]
    assert cli.main(["stats", "--state-dir", str(state_dir), "--json", "--tables"]) == 0
    assert json.loads(got["/api/stats"][2]) == json.loads(capsys.readouterr().out)
    assert got["/api/history"][1]["Content-Type"].startswith("application/json")


async def fetch_bytes(app, paths) -> dict[str, bytes]:
    async with client(app) as c:
        return {path: await (await c.get(path)).read() for path in paths}


def test_exports_are_downloads_that_parse(tmp_path):
    state_dir = fixture_dir(tmp_path)
    got = run(fetch_all(app_for(state_dir)))
    for fmt, ext, kind in (("bgstats", "bgsplay", "application/octet-stream"), ("bgg", "xml", "application/xml"),
                           ("csv", "csv", "text/csv"), ("json", "json", "application/json")):
        status, headers, _text = got[f"/export/{fmt}"]
        assert status == 200 and headers["Content-Type"].startswith(kind)
        assert re.fullmatch(rf'attachment; filename="companion-history-\d{{4}}-\d\d-\d\d\.{re.escape(ext)}"',
                            headers["Content-Disposition"])
        assert headers["Content-Security-Policy"] == CSP and headers["X-Content-Type-Options"] == "nosniff"
    assert got["/export/csv"][2].startswith("\ufeff")  # the byte order mark, as the CLI writes it
    rows = list(csv.DictReader(io.StringIO(got["/export/csv"][2].removeprefix("\ufeff"))))
    assert len(rows) == sum(len(e["players"]) for e in EXPECTED_HISTORY)
    assert {(r["name"], r["total"], r["winner"]) for r in rows if r["game_id"] == "11"} == {("Dario", "28", "0"),
                                                                                            ("Carla", "41", "1")}
    plays = ET.fromstring(got["/export/bgg"][2].split("\n", 1)[1])
    assert plays.tag == "plays" and len(plays.findall("play")) == len(EXPECTED_HISTORY)
    records = json.loads(got["/export/json"][2])
    assert [r["companion"]["game"] for r in records] == [e["game"] for e in EXPECTED_HISTORY]
    assert records[0]["names"] == ["Anna", "Bruno"]
    raw = run(fetch_bytes(app_for(state_dir), ("/export/bgstats", "/export/csv")))
    play_file = json.loads(raw["/export/bgstats"])
    assert len(play_file["plays"]) == len(EXPECTED_HISTORY) and play_file["about"].startswith("This is a Play file")
    for fmt in ("csv", "bgstats"):  # the same bytes as `companion export` (the play file: but for its dates)
        out = tmp_path / f"cli.{fmt}"
        assert cli.main(["export", "--state-dir", str(state_dir), "--format", fmt, "--out", str(out)]) == 0
        if fmt == "csv":
            assert raw["/export/csv"] == out.read_bytes() and out.read_bytes().startswith(b"\xef\xbb\xbf")
        else:
            def dated(doc):  # modificationDate is the time of the export
                return [{k: v for k, v in play.items() if k != "modificationDate"} for play in doc["plays"]]

            assert dated(play_file) == dated(json.loads(out.read_bytes()))
    assert run(fetch_all(app_for(state_dir), ("/export/pdf",)))["/export/pdf"][0] == 404


def test_every_new_page_has_the_security_headers_and_links_the_others(tmp_path):
    got = run(fetch_all(app_for(fixture_dir(tmp_path), pin="4711")))
    for path, (status, headers, text) in got.items():
        assert status == 200, path
        assert headers["Content-Security-Policy"] == CSP and headers["Cache-Control"] == "no-store"
        assert headers["X-Frame-Options"] == "DENY" and headers["Referrer-Policy"] == "no-referrer"
        if headers["Content-Type"].startswith("text/html"):
            assert "<script>" not in text and "style=" not in text and not re.search(r"<[^>]* on[a-z]+=", text)
            for href in ("/", "/games", "/history", "/stats", "/roster"):
                assert f'href="{href}"' in text or path == href, (path, href)


def test_roster_is_shown_and_changes_only_with_the_pin(tmp_path):
    state_dir = tmp_path / "state"
    table(state_dir, "--players", "2", "--seed", "1")
    sock_path = str(tmp_path / "keys.sock")
    got: list = []
    sock = KeySocket(sock_path, got.append)
    sock.start()

    async def no_pin():
        async with client(app_for(state_dir, roster=["Anna", "Ben"], key_socket=sock_path)) as c:
            origin = {"Origin": f"http://{c.host}:{c.port}"}
            page = await (await c.get("/roster")).text()
            refused = await c.post("/api/roster", json={"names": ["Zoe"]}, headers=origin)
            return page, refused.status

    async def with_pin():
        async with client(app_for(state_dir, pin="4711", roster=["Anna", "Ben"], key_socket=sock_path)) as c:
            origin = {"Origin": f"http://{c.host}:{c.port}"}
            locked_page = await (await c.get("/roster")).text()
            no_session = await c.post("/api/roster", json={"names": ["Zoe"]}, headers=origin)
            csrf = (await (await c.post("/api/login", json={"pin": "4711"}, headers=origin)).json())["csrf"]
            open_page = await (await c.get("/roster")).text()
            headers = {**origin, "X-CSRF-Token": csrf}
            no_csrf = await c.post("/api/roster", json={"names": ["Zoe"]}, headers=origin)
            bad = [await c.post("/api/roster", json={"names": names}, headers=headers)
                   for names in (["Anna", "anna"], "Anna", ["Player 1"], ["x" * 40], [""])]
            ok = await c.post("/api/roster", json={"names": ["Zoe", " Yann "]}, headers=headers)
            return (locked_page, no_session.status, open_page, csrf, no_csrf.status,
                    [(r.status, (await r.json())["error"]) for r in bad], ok.status, await ok.json())

    try:
        page, refused = run(no_pin())
        assert refused == 403 and "<li>Anna</li><li>Ben</li>" in page and 'id="roster-form"' not in page
        assert "needs the PIN" in page
        locked, no_session, open_page, csrf, no_csrf, bad, ok, answer = run(with_pin())
        assert no_session == 403 and no_csrf == 403
        assert 'id="roster-form" hidden="hidden"' in locked and "data-csrf" not in locked
        assert f'data-csrf="{csrf}"' in open_page and '<form id="roster-form">' in open_page
        assert [s for s, _why in bad] == [400] * 5 and "twice" in bad[0][1]
        assert ok == 200 and answer == {"roster": ["Zoe", "Yann"]}
        assert wait_until(lambda: RosterUpdate(("Zoe", "Yann")) in got)
    finally:
        sock.close()


def test_roster_without_the_daemon_is_503_and_the_journal_setting_wins(tmp_path):
    state_dir = tmp_path / "state"
    table(state_dir, "--players", "2", "--seed", "1")
    import sqlite3

    db = sqlite3.connect(state_dir / "journal.sqlite3")
    db.execute("INSERT OR REPLACE INTO settings(key, value) VALUES ('roster', ?)", (json.dumps(["Mia", "Noa"]),))
    db.commit()
    db.close()

    async def go():
        async with client(app_for(state_dir, pin="4711", roster=["Anna"], key_socket=str(tmp_path / "none"))) as c:
            origin = {"Origin": f"http://{c.host}:{c.port}"}
            csrf = (await (await c.post("/api/login", json={"pin": "4711"}, headers=origin)).json())["csrf"]
            r = await c.post("/api/roster", json={"names": ["Zoe"]}, headers={**origin, "X-CSRF-Token": csrf})
            return r.status, await (await c.get("/roster")).text()

    status, page = run(go())
    assert status == 503 and "<li>Mia</li><li>Noa</li>" in page and "Anna" not in page


def test_a_game_in_progress_is_nowhere_and_a_finished_one_gets_its_link_live(tmp_path):
    state_dir = tmp_path / "state"
    d = table(state_dir, "--players", "3", "--bots", "2,3", "--seed", "9")
    colors = dealt_colors(state_dir)
    rnd = random.Random(3)
    for _ in range(8):
        advance(d, rnd)
    app = app_for(state_dir)
    during = run(fetch_all(app))
    for path, (status, _headers, text) in during.items():
        assert leaks(text, colors) == [], path
        assert '"game_id": 1' not in text and 'data-game-id="1"' not in text and "/replay/1" not in text, path
    assert "No finished game yet" in during["/history"][2] and json.loads(during["/api/history"][2]) == []
    play_to_the_end(d, rnd, state_dir)  # through the reveal of the colors to the end of the game
    play = read_history(state_dir).plays[0]

    async def live():
        app = app_for(state_dir)
        async with client(app) as c:
            page = await (await c.get("/")).text()
            view = await (await c.get("/api/view")).json()
            history = await (await c.get("/history")).text()
            return page, view, history

    page, view, history = run(live())
    for html in (page, view["html"]):
        links = bgstats_links(html)
        assert len(links) == 1
        data = link_data(links[0])
        assert [p["name"] for p in data["players"]] == list(play.players)
        assert [p["score"] for p in data["players"]] == list(play.totals)
    assert bgstats_links(history) == bgstats_links(page) and 'data-game-id="1"' in history
