"""The table's page on a shared network: no secret before the reveal, Host checks, the PIN, caps.

Every endpoint of a bot game is searched for the colors the box dealt; the same search
finds them once the game reveals them (so the search can fail).
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import stat

from companion.games.clans.words import color, player
from companion.hw.keysocket import KeySocket, PhoneUrl
from companion.journal.store import Journal
from companion.web.server import phone_url
from tests.hw.waiting import wait_until
from companion.web.http import STATE
from tests.web.webtools import WAIT_S, advance, app_for, client, next_event, run, table

ENDPOINTS = ("/", "/api/state", "/api/view", "/games", "/replay/1", "/replay/1?step=0", "/replay/1?step=2",
             "/api/record/1", "/nowhere", "/replay/99", "/api/record/99")


def dealt_colors(state_dir) -> list[str]:
    """The colors the box dealt to every seat, from the journal's "new" action."""
    journal = Journal(state_dir)
    try:
        new = next(a for a in journal.resume(include_finished=True).actions if a.get("a") == "new")
    finally:
        journal.close()
    seats = {int(k): v for k, v in {**new["bots"], **new["dealt"]}.items()}
    return [seats[i] for i in sorted(seats)]


def leaks(text: str, colors: list[str]) -> list[str]:
    """Every way a seat's secret color could show in `text`."""
    forms = (json.dumps(colors), json.dumps(colors, indent=1), json.dumps(colors, separators=(",", ":")))
    found = [w for w in ('"dealt"', '"bots": {', '"bots":{') + forms if w in text]
    for seat, c in enumerate(colors):
        for said in (f"{player(seat)} {color(c)}", f"{player(seat)} bot {color(c)}"):
            if said in text:
                found.append(said)
    return found


async def everything(c) -> dict[str, str]:
    out = {path: await (await c.get(path)).text() for path in ENDPOINTS}
    out["login"] = await (await c.post("/api/login", json={"pin": "0000"})).text()
    out["keys"] = await (await c.post("/api/keys", json={"keys": "1"})).text()
    stream = await c.get("/api/events")
    out["events"] = json.dumps((await next_event(stream))[1])
    stream.close()
    return out


def test_no_secret_color_leaves_the_box_before_the_reveal(tmp_path):
    state_dir = tmp_path / "state"
    d = table(state_dir, "--players", "3", "--bots", "2,3", "--seed", "9")
    colors = dealt_colors(state_dir)
    rnd = random.Random(3)

    async def sweep():
        async with client(app_for(state_dir)) as c:
            return await everything(c)

    checked = 0
    while not d.shell.game.game.is_over:
        for _ in range(6):
            if not d.shell.game.game.is_over:
                advance(d, rnd)
        if d.shell.game.game.is_over:
            break  # the reveal: checked below
        bodies = run(sweep())
        for where, text in bodies.items():
            assert leaks(text, colors) == [], f"{where} shows a secret color"
        state = json.loads(bodies["/api/state"])["state"]
        assert not {"colors", "totals", "winners"} & set(state)
        checked += 1
    assert d.shell.game.mode() == "final"  # a game with bots reveals every color itself at its end
    revealed = run(sweep())
    assert leaks(revealed["/api/state"], colors) and leaks(revealed["/"], colors)  # the search finds them now
    assert json.loads(revealed["/api/record/1"])["colors"] == colors
    assert checked >= 3


def test_a_foreign_host_is_refused_and_every_answer_has_the_security_headers(tmp_path):
    table(tmp_path / "state", "--players", "2", "--seed", "1")
    app = app_for(tmp_path / "state", hosts=("clans.lan",))

    async def go():
        async with client(app) as c:
            out = {}
            for host in ("evil.example", "evil.example:8080", "clansbox.evil.example", "127.0.0.1.nip.io",
                         "localhost:8080", "clansbox.local", "clans.lan", "CLANSBOX:8080"):
                r = await c.get("/api/state", headers={"Host": host})
                out[host] = (r.status, dict(r.headers))
            r = await c.get("/static/nothing.js")
            out["404"] = (r.status, dict(r.headers))
            r = await c.get("/static/page.js")
            out["js"] = (r.status, dict(r.headers))
            return out

    out = run(go())
    for host in ("evil.example", "evil.example:8080", "clansbox.evil.example", "127.0.0.1.nip.io"):
        assert out[host][0] == 421
    for host in ("localhost:8080", "clansbox.local", "clans.lan", "CLANSBOX:8080"):
        assert out[host][0] == 200
    assert out["404"][0] == 404 and out["js"][0] == 200
    for status, headers in out.values():
        csp = headers["Content-Security-Policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp and "object-src 'none'" in csp
        assert "unsafe-inline" not in csp
        assert headers["X-Content-Type-Options"] == "nosniff" and headers["Referrer-Policy"] == "no-referrer"
        assert headers["Cache-Control"] == "no-store"


def test_without_a_pin_nothing_changes(tmp_path):
    table(tmp_path / "state", "--players", "2", "--seed", "1")
    app = app_for(tmp_path / "state")

    async def go():
        async with client(app) as c:
            page = await (await c.get("/")).text()
            login = await c.post("/api/login", json={"pin": "1234"})
            keys = await c.post("/api/keys", json={"keys": "1"}, headers={"Origin": f"http://{c.host}:{c.port}"})
            return page, login.status, keys.status, await keys.json()

    page, login, keys, answer = run(go())
    assert login == 403 and keys == 403 and "read-only" in answer["error"]
    assert 'id="keypad"' not in page


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_wrong_pins_back_off_per_client_never_lock_the_right_pin_out_and_are_logged(tmp_path, caplog):
    table(tmp_path / "state", "--players", "2", "--seed", "1")
    clock = Clock()
    app = app_for(tmp_path / "state", pin="4711", clock=clock, login_interval_s=0.0)

    async def go():
        async with client(app) as c:
            origin = {"Origin": f"http://{c.host}:{c.port}"}
            statuses, waits = [], []
            for attempt in range(30):
                wrong = await c.post("/api/login", json={"pin": f"{attempt:04d}"}, headers=origin)
                statuses.append(wrong.status)
                too_soon = await c.post("/api/login", json={"pin": "4711"}, headers=origin)  # not checked
                statuses.append(too_soon.status)
                waits.append(int(too_soon.headers["Retry-After"]))
                clock.now += 61
            foreign = await c.post("/api/login", json={"pin": "4711"}, headers={"Origin": "http://evil.example"})
            no_origin = await c.post("/api/login", json={"pin": "4711"})
            opened = await c.post("/api/login", json={"pin": "4711"}, headers=origin)
            return statuses, waits, foreign.status, no_origin.status, opened.status

    with caplog.at_level(logging.WARNING, logger="companion.web.guard"):
        statuses, waits, foreign, no_origin, opened = run(go())
    assert statuses[0::2] == [403] * 30 and statuses[1::2] == [429] * 30
    assert waits[:7] == [1, 2, 4, 8, 16, 32, 60] and set(waits[7:]) == {60}
    assert foreign == 403 and no_origin == 403 and opened == 200  # 30 failures lock nobody out
    logged = [r.getMessage() for r in caplog.records if "wrong PIN from" in r.getMessage()]
    assert len(logged) == 1  # at most one line per 10 s (real time), however fast the guesses come


def test_a_session_csrf_token_and_origin_let_keys_reach_the_daemons_socket(tmp_path):
    table(tmp_path / "state", "--players", "2", "--seed", "1")
    got: list = []
    sock = KeySocket(str(tmp_path / "keys.sock"), got.append)
    sock.start()
    assert stat.S_IMODE((tmp_path / "keys.sock").stat().st_mode) == 0o600
    app = app_for(tmp_path / "state", pin="4711", key_socket=str(tmp_path / "keys.sock"))

    async def go():
        async with client(app) as c:
            origin = {"Origin": f"http://{c.host}:{c.port}"}
            before = await c.post("/api/keys", json={"keys": "12#"}, headers=origin)
            login = await c.post("/api/login", json={"pin": "4711"}, headers=origin)
            cookie = login.headers["Set-Cookie"]
            csrf = (await login.json())["csrf"]
            no_csrf = await c.post("/api/keys", json={"keys": "12#"}, headers=origin)
            wrong_origin = await c.post("/api/keys", json={"keys": "12#"},
                                        headers={"Origin": "http://evil.example", "X-CSRF-Token": csrf})
            bad_keys = await c.post("/api/keys", json={"keys": "POWER"}, headers={**origin, "X-CSRF-Token": csrf})
            ok = await c.post("/api/keys", json={"keys": "12#13#"}, headers={**origin, "X-CSRF-Token": csrf})
            return [before.status, no_csrf.status, wrong_origin.status, bad_keys.status, ok.status], cookie

    try:
        statuses, cookie = run(go())
        assert statuses == [403, 403, 403, 400, 200]
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Max-Age=" in cookie
        assert wait_until(lambda: [k for k in got if isinstance(k, str)] == list("12#13#"))
        assert PhoneUrl("HTTP://127.0.0.1:8080") in got
    finally:
        sock.close()


def test_the_key_socket_takes_keypad_keys_only_and_says_when_the_page_goes(tmp_path):
    import socket as s

    got: list = []
    sock = KeySocket(str(tmp_path / "k.sock"), got.append)
    sock.start()
    try:
        with s.socket(s.AF_UNIX, s.SOCK_STREAM) as c:
            c.connect(str(tmp_path / "k.sock"))
            c.sendall(b'{"url": "HTTP://10.0.0.7:8080"}\nnot json\n{"keys": ["POWER"]}\n{"keys": ["QUIT"]}\n'
                      b'{"keys": ["7", "#"]}\n')
            assert wait_until(lambda: "#" in got)
        assert wait_until(lambda: got[-1] == PhoneUrl(None))
        assert got == [PhoneUrl("HTTP://10.0.0.7:8080"), "7", "#", PhoneUrl(None)]
    finally:
        sock.close()


def test_the_21st_stream_is_refused_and_the_20_others_keep_working(tmp_path):
    state_dir = tmp_path / "state"
    d = table(state_dir, "--players", "2", "--seed", "1")
    app = app_for(state_dir, poll_s=0.02, max_streams=20)

    async def go():
        async with client(app) as c:
            streams = [await c.get("/api/events") for _ in range(20)]
            for s in streams:
                await next_event(s)
            extra = await c.get("/api/events")
            page = await c.get("/")
            advance(d, random.Random(1))
            moved = [await next_event(s) for s in streams]
            streams[0].close()
            freed = app[STATE]["freed"]
            async with freed:  # the server sees the phone go: a place frees up
                await asyncio.wait_for(freed.wait_for(lambda: len(app[STATE]["streams"]) < 20), WAIT_S)
            again = await c.get("/")
            return extra.status, page.status, await page.text(), moved, again.status

    extra, page, text, moved, again = run(go())
    assert extra == 503 and page == 503 and "Too many viewers" in text
    assert all(data["state"]["moves"] == 1 for _, data in moved)
    assert again == 200


def test_a_10_mb_request_is_refused(tmp_path):
    table(tmp_path / "state", "--players", "2", "--seed", "1")
    app = app_for(tmp_path / "state", pin="4711")

    async def go():
        async with client(app) as c:
            r = await c.post("/api/login", data=b"{" + b" " * (10 * 1024 * 1024) + b"}",
                             headers={"Content-Type": "application/json", "Origin": f"http://{c.host}:{c.port}"})
            return r.status

    assert run(go()) == 413


def test_the_phone_url_is_upper_case_for_a_compact_qr_code():
    assert phone_url("192.168.1.23", 8080) == "HTTP://192.168.1.23:8080"
    assert phone_url("10.0.0.2", 80) == "HTTP://10.0.0.2"
    url = phone_url("0.0.0.0", 8080, hostname="clansbox")
    assert url.startswith("HTTP://") and url.endswith(":8080") and url == url.upper()
