"""The table's page takes a game out of the history too (issue 41), behind the PIN and a question:
/history shows a "Remove from the history" button per game to a PIN session only, the question is a
page with a form (no script), its Yes goes to the daemon as {"remove_game": N} over the key socket
and the daemon takes the game out through `Journal.remove_game` (the page only reads the journal);
then /history, /stats and /api/history no longer have it. Without the PIN 403; an unknown game 404;
no table running 503 with the command that does it; hostile messages on the key socket do nothing.
"""

from __future__ import annotations

import json
import queue
import random
import re
import socket
import threading

import pytest

from companion.history.plays import read_history
from companion.hw.keysocket import KeySocket, PhoneUrl, RemoveGame
from companion.journal.reader import JournalReader
from companion.journal.store import IN_HISTORY
from companion.kiosk.loop import EOF
from tests.history.fixture import build_journal
from tests.hw.waiting import wait_until
from tests.web.webtools import app_for, client, run, table

PIN = "4711"
STOP = object()


@pytest.fixture
def state(tmp_path):
    """The fixture's journal: finished games 1-3, 5-8, 10, 11, abandoned 4, damaged 9."""
    state_dir = tmp_path / "state"
    build_journal(state_dir)
    return state_dir


@pytest.fixture
def kiosk(state, tmp_path):
    """The daemon on that journal (a new game in progress), its key socket, and its loop on a thread
    (Daemon.step for every queued event, as Daemon.run does): (daemon, the socket's path)."""
    d = table(state, "--players", "2", "--seed", "1")
    path = str(tmp_path / "keys.sock")
    sock = KeySocket(path, d.put)
    sock.start()

    def loop() -> None:
        while True:
            pressed_at, event = d.queue.get()
            if event is STOP:
                return
            if event is not EOF:  # the empty key script's end: the table goes on
                d.step(event, pressed_at)

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    yield d, path
    sock.close()
    d.queue.put((None, STOP))
    thread.join(10)
    d.journal.journal.close()


async def session(c) -> tuple[dict, str]:
    """Log in with the PIN: (the headers a change repeats, the CSRF token)."""
    origin = {"Origin": f"http://{c.host}:{c.port}"}
    r = await c.post("/api/login", json={"pin": PIN}, headers=origin)
    assert r.status == 200
    return origin, (await r.json())["csrf"]


def history_ids(state_dir) -> list[int]:
    return sorted(p.game_id for p in read_history(state_dir).finished)


def remove_buttons(html: str) -> list[int]:
    return sorted(int(n) for n in re.findall(r'href="/history/remove/(\d+)"', html))


def one_line(html: str) -> str:
    """The page's one line (role=alert) as text."""
    found = re.search(r'<p class="problem" role="alert">(.*?)</p>', html)
    assert found, html
    return found.group(1)


def test_with_the_pin_a_game_asked_and_confirmed_is_gone_from_history_stats_and_api(state, kiosk):
    _d, path = kiosk
    before = history_ids(state)
    assert 11 in before

    async def go():
        async with client(app_for(state, pin=PIN, key_socket=path)) as c:
            shown_before = await (await c.get("/history")).text()
            stats_before = await (await c.get("/api/stats")).json()
            origin, csrf = await session(c)
            shown = await (await c.get("/history")).text()
            ask = await c.get("/history/remove/11")
            asked = await ask.text()
            # the question's form posts with the page's Origin: a navigation under "no-referrer" sends "null"
            assert ask.headers["Referrer-Policy"] == "same-origin"
            assert (await c.get("/history")).headers["Referrer-Policy"] == "no-referrer"
            done = await c.post("/history/remove/11", data={"csrf": csrf}, headers=origin)
            after = await done.text()
            pages = {p: await (await c.get(p)).text() for p in ("/history", "/stats", "/api/history", "/api/stats")}
            return shown_before, stats_before, csrf, shown, ask.status, asked, done.status, after, pages

    shown_before, stats_before, csrf, shown, asked_status, asked, status, after, pages = run(go())
    assert remove_buttons(shown_before) == [] and 'id="login"' in shown_before  # no session: no button, the PIN form
    assert remove_buttons(shown) == sorted(set(before) | {9})  # every game, and the damaged entry 9
    assert asked_status == 200 and "Take game 11 out of the history" in asked
    assert 'method="post" action="/history/remove/11"' in asked and f'name="csrf" value="{csrf}"' in asked
    assert "<script" not in asked  # the question works without script
    assert status == 200 and "Game 11 was taken out of the history" in after and 11 not in remove_buttons(after)
    assert history_ids(state) == [g for g in before if g != 11]
    assert 11 not in [g["game_id"] for g in json.loads(pages["/api/history"])]
    assert 11 not in remove_buttons(pages["/history"]) and 'data-game-id="11"' not in pages["/history"]
    stats = json.loads(pages["/api/stats"])
    assert stats["players"]["Dario"]["games"] == stats_before["players"]["Dario"]["games"] - 1  # 11 is gone
    assert "Dario" in pages["/stats"]


def test_the_damaged_entry_can_be_taken_out_from_the_page(state, kiosk):
    _d, path = kiosk

    async def go():
        async with client(app_for(state, pin=PIN, key_socket=path)) as c:
            origin, csrf = await session(c)
            r = await c.post("/history/remove/9", data={"csrf": csrf}, headers=origin)
            return r.status, await r.text()

    status, html = run(go())
    assert status == 200 and "game 9:" not in html and read_history(state).damaged == []


def test_without_the_pin_no_button_and_every_door_answers_403(state, kiosk):
    _d, path = kiosk

    async def go():
        out = {}
        async with client(app_for(state, key_socket=path)) as c:  # no PIN in the config
            out["nopin-page"] = await (await c.get("/history")).text()
            r = await c.get("/history/remove/11")
            out["nopin-ask"] = r.status
            r = await c.post("/history/remove/11", data={"csrf": "x"}, headers={"Origin": f"http://{c.host}:{c.port}"})
            out["nopin-post"] = (r.status, await r.text())
        async with client(app_for(state, pin=PIN, key_socket=path)) as c:
            origin = {"Origin": f"http://{c.host}:{c.port}"}
            r = await c.post("/history/remove/11", data={"csrf": "x"}, headers=origin)
            out["no-session"] = (r.status, await r.text())
            _origin, csrf = await session(c)
            r = await c.post("/history/remove/11", data={"csrf": "not-the-token"}, headers=origin)
            out["bad-csrf"] = r.status
            r = await c.post("/history/remove/11", data={"csrf": csrf}, headers={"Origin": "http://evil.example"})
            out["bad-origin"] = r.status
            r = await c.post("/history/remove/11", data={"csrf": csrf})  # no Origin at all
            out["no-origin"] = r.status
            r = await c.post("/history/remove/11", data=b"\xff\xfe", headers=origin)  # not a form
            out["not-a-form"] = r.status
        return out

    out = run(go())
    assert remove_buttons(out["nopin-page"]) == [] and 'id="login"' not in out["nopin-page"]
    assert out["nopin-ask"] == 403 and out["nopin-post"][0] == 403
    assert out["no-session"][0] == 403 and "needs the PIN" in one_line(out["no-session"][1])
    assert out["bad-csrf"] == out["bad-origin"] == out["no-origin"] == out["not-a-form"] == 403
    assert 11 in history_ids(state)  # nothing was taken out


@pytest.mark.parametrize("wanted", ["999", "4x", "0", "-3", "9223372036854775808", "12", "%C2%B9", "1e1"])
def test_a_game_not_in_the_history_is_one_line_404_and_nothing_changes(state, kiosk, wanted):
    d, path = kiosk
    assert d.journal.journal.game_id == 12  # the game in progress is not in the history either
    before = history_ids(state)

    async def go():
        async with client(app_for(state, pin=PIN, key_socket=path)) as c:
            origin, csrf = await session(c)
            asked = await c.get(f"/history/remove/{wanted}")
            r = await c.post(f"/history/remove/{wanted}", data={"csrf": csrf}, headers=origin)
            return asked.status, r.status, await r.text()

    asked, status, html = run(go())
    assert asked == status == 404
    assert "There is no game" in one_line(html) and "\n" not in one_line(html)
    assert history_ids(state) == before


def test_without_the_table_running_the_page_says_so_and_names_the_command(state):
    async def go():
        async with client(app_for(state, pin=PIN, key_socket=str(state / "nobody.sock"))) as c:
            origin, csrf = await session(c)
            r = await c.post("/history/remove/11", data={"csrf": csrf}, headers=origin)
            return r.status, await r.text()

    status, html = run(go())
    assert status == 503 and "companion history --remove 11" in one_line(html)
    assert 11 in history_ids(state)


def test_the_page_is_in_the_tables_language(state, kiosk):
    d, path = kiosk
    d.journal.journal.set_setting("language", "de")

    async def go():
        async with client(app_for(state, pin=PIN, key_socket=path)) as c:
            origin, csrf = await session(c)
            asked = await (await c.get("/history/remove/10")).text()
            r = await c.post("/history/remove/999", data={"csrf": csrf}, headers=origin)
            return asked, await r.text()

    asked, html = run(go())
    assert "Spiel 10 aus Verlauf und Statistik nehmen?" in asked and "Remove" not in asked
    assert "There is no game" not in html


# ----- the key socket's message, hostile ----------------------------------------------------------
def hostile_value(rnd: random.Random):
    """A value for "remove_game" as a hostile client might send it (most are no game id)."""
    choices = [
        lambda: rnd.randint(1, 14), lambda: rnd.randint(-5, 0), lambda: 2 ** 63 + rnd.randint(0, 5),
        lambda: 2 ** 63 - 1, lambda: -(2 ** 63), lambda: 10 ** rnd.randint(19, 40),
        lambda: float(rnd.randint(1, 11)), lambda: rnd.random() * 12, lambda: str(rnd.randint(1, 11)),
        lambda: rnd.choice([True, False, None]), lambda: [rnd.randint(1, 11)], lambda: {"id": rnd.randint(1, 11)},
        lambda: "11; DROP TABLE games", lambda: "", lambda: "\u0661",  # an Arabic-Indic one
    ]
    return rnd.choice(choices)()


def hostile_line(rnd: random.Random) -> bytes:
    """One line for the key socket: mostly {"remove_game": value}, sometimes with more fields, as raw
    JSON that Python would not write (NaN, 1e1, 11.0, a leading zero), or in another encoding."""
    kind = rnd.random()
    if kind < 0.55:
        return json.dumps({"remove_game": hostile_value(rnd)}).encode()
    if kind < 0.7:
        return json.dumps({"remove_game": rnd.randint(1, 11), rnd.choice(["x", "by", "game"]): 1}).encode()
    if kind < 0.9:
        return rnd.choice([b'{"remove_game": NaN}', b'{"remove_game": Infinity}', b'{"remove_game": 1e1}',
                           b'{"remove_game": 11.0}', b'{"remove_game": 011}', b'{"remove_game": 0x0b}',
                           b'{"remove_game": 1, "remove_game": 2}', b'{"REMOVE_GAME": 3}', b'["remove_game", 3]',
                           b'{"remove_game": -0}', b'{"remove_game": 3', b'remove_game 3'])
    return json.dumps({"remove_game": rnd.randint(1, 11)}).encode(rnd.choice(["utf-16", "utf-32"]))


def acted_on(line: bytes) -> int | None:
    """What the daemon may do with `line`: the game id when it is exactly {"remove_game": a whole
    number from 1 to 2**63 - 1}, written as JSON in UTF-8 (the oracle, apart from the socket's code)."""
    try:
        message = json.loads(line.decode("utf-8"), parse_constant=lambda c: None)
    except ValueError:
        return None
    if not isinstance(message, dict) or list(message) != ["remove_game"]:
        return None
    value = message["remove_game"]
    return value if type(value) is int and 0 < value < 2 ** 63 else None


@pytest.mark.parametrize("seed", [41, 4141])
def test_hostile_remove_messages_on_the_key_socket_act_only_on_finished_games(state, tmp_path, seed):
    rnd = random.Random(seed)
    lines = [hostile_line(rnd) for _ in range(300)]
    events: queue.Queue = queue.Queue()
    seen: list = []
    sock = KeySocket(str(tmp_path / "fuzz.sock"), events.put)
    sock.start()
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.connect(sock.path)
            for line in lines:
                s.sendall(line + b"\n")
            s.sendall(b'{"url": "done"}\n')
            while PhoneUrl("done") not in seen:
                seen.append(events.get(timeout=10))
    finally:
        sock.close()
    wanted = [gid for gid in map(acted_on, lines) if gid is not None]
    removals = [e for e in seen if isinstance(e, RemoveGame)]
    assert removals == [RemoveGame(gid) for gid in wanted]  # exactly those, in order, nothing else
    assert all(type(e.game_id) is int and e.game_id > 0 for e in removals)
    assert {e.game_id for e in removals} & set(range(1, 12)), "the fuzz should also name real games"

    d = table(state, "--players", "2", "--seed", "1")  # the daemon, a game in progress (12)
    in_progress = d.journal.journal.game_id
    reader = JournalReader(state)
    actions = reader.query("SELECT count(*) FROM actions")[0][0]
    for event in seen:
        d.step(event)
    assert d.failures.count == 0
    d.journal.journal.close()
    removed = {gid for (gid,) in reader.query(f"SELECT id FROM games WHERE NOT {IN_HISTORY}")}
    assert removed == set(wanted) & set(range(1, 12))  # every finished game named, and only those
    assert reader.query("SELECT finished FROM games WHERE id=?", (in_progress,)) == [(None,)]  # never the live one
    assert reader.query("SELECT count(*) FROM actions")[0][0] == actions  # no action lost


def test_a_table_that_does_not_take_the_game_out_in_time_is_one_line_504(state, tmp_path, monkeypatch):
    """The key socket answers but nobody carries the message out (an older daemon): the page waits
    `DONE_S`, then says so in one line naming the command, and the game stays."""
    from companion.web import history_remove

    monkeypatch.setattr(history_remove, "DONE_S", 0.2)
    got: list = []
    sock = KeySocket(str(tmp_path / "old.sock"), got.append)
    sock.start()

    async def go():
        async with client(app_for(state, pin=PIN, key_socket=sock.path)) as c:
            origin, csrf = await session(c)
            r = await c.post("/history/remove/10", data={"csrf": csrf}, headers=origin)
            return r.status, await r.text()

    try:
        status, html = run(go())
        assert wait_until(lambda: RemoveGame(10) in got)
    finally:
        sock.close()
    assert status == 504 and "within 0.2 s" in one_line(html) and "companion history --remove 10" in one_line(html)
    assert 10 in history_ids(state)


def test_without_a_journal_the_question_and_the_yes_are_one_line_never_a_traceback(tmp_path):
    empty = tmp_path / "nothing-here"
    empty.mkdir()

    async def go():
        async with client(app_for(empty, pin=PIN, key_socket=str(tmp_path / "nobody.sock"))) as c:
            origin, csrf = await session(c)
            asked = await c.get("/history/remove/3")
            r = await c.post("/history/remove/3", data={"csrf": csrf}, headers=origin)
            return asked.status, await asked.text(), r.status, await r.text()

    asked, asked_html, status, html = run(go())
    assert asked == status == 503
    assert "journal" in one_line(asked_html) and "journal" in one_line(html) and "Traceback" not in html
