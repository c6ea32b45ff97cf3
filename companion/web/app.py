"""The table's page as an aiohttp application: routes, the live poll, event streams, the guards.

    GET  /                   the live page (503 "too many viewers" beyond the stream cap)
    GET  /api/state          the game now (spec section 7)          GET /api/view  its HTML
    GET  /api/events         Server-Sent Events: `state` on connect and after every change
    GET  /games              the journal's games      GET /replay/{id}?step=k  a replay step
    GET  /api/record/{id}    a game's public record (a download `companion replay` accepts)
    POST /api/login          {"pin": "1234"} -> session cookie + CSRF token (only with a PIN)
    POST /api/keys           {"keys": "12#13#"} -> the daemon's key socket (session, CSRF, Origin)
    POST /api/logout
    GET  /history /stats /api/history /api/stats /export/{fmt} /roster, POST /api/roster:
                             finished games, statistics, exports, names (companion.web.history_pages)
    GET, POST /history/remove/{id}   a game out of the history, with the PIN (companion.web.history_remove)
    GET  /update /api/update, POST /api/update: the box's version and an update bundle sent to it (PIN;
         companion/web/update_page.py)
    GET  /camera /api/camera.jpg, POST /api/camera/corners: the camera's picture and its corners, with the
                             PIN (companion.web.camera_page)

One background task follows the journal (companion.web.watch: a look at its files every
5 ms, `Views.refresh` when they moved and every second) and wakes every stream when the view
changed; the view is built once per change for everybody. Another follows the PIN's files
(companion.web.pinfile): a new PIN ends every session at once.
Every response carries the security headers and `no-store`; a foreign Host gets 421;
no error ever shows a traceback. The box's referee is another process: nothing here
can slow it down.
"""

from __future__ import annotations

import asyncio
import json
import logging
from importlib import resources
from typing import Any

from aiohttp import web
from aiohttp_sse import sse_response

from companion.table.gameweb import esc, tag
from companion.table import pagelink as link
from companion.table.keys import KEYPAD
from companion.web import camera_page, history_pages, history_remove, pages, update_page, watch
from companion.web.guard import (FORM_REFERRER_POLICY, SECURITY_HEADERS, SESSION_COOKIE, SESSION_TTL_S, HostCheck,
                                 PinGuard, origin_matches)
from companion.web.http import (GUARD, HOSTS, KEYS, ROSTER, STATE, VIEWS, change_body, html_response as _html,
                                json_body, json_response as _json, to_daemon)
from companion.web.keylink import KeyLink
from companion.web.limits import MAX_STREAMS, ConnectionLimits, StreamLimits
from companion.web.logins import INTERVAL_S as LOGIN_INTERVAL_S, LoginQueue
from companion.web.lograte import RateLimitedLog
from companion.web.pinfile import LOOK_S as PIN_LOOK_S, PinSource
from companion.web.views import Live, Replay, Views
from companion.web.watch import JournalWatch

log = logging.getLogger(__name__)

MAX_BODY = 16 * 1024
MAX_KEYS = 32
POLL_S = watch.POLL_S
PING_S = 10.0
STATIC = {"page.js": "application/javascript", "style.css": "text/css"}


def make_app(views: Views, guard: PinGuard, hosts: HostCheck, keys: KeyLink | None = None, *,
             max_streams: int = MAX_STREAMS, poll_s: float = POLL_S,
             roster: list[str] | None = None, login_interval_s: float = LOGIN_INTERVAL_S,
             pins: PinSource | None = None) -> web.Application:
    """The application; `keys` None: no key socket (changes answer 503); `roster`: the config's names;
    `pins`: where the PIN comes from, followed while serving (None: the guard's PIN stays)."""
    app = web.Application(client_max_size=MAX_BODY, middlewares=[_busy, _host_check, _no_traceback])
    app[VIEWS], app[GUARD], app[HOSTS] = views, guard, hosts
    app[KEYS] = keys if keys is not None else KeyLink(None, None)
    app[ROSTER] = list(roster or [])
    # "freed": notified whenever a stream ends (a place for another viewer)
    # "connections": installed on the real server by companion.web.server.serve (a test server has none)
    app[STATE] = {"streams": StreamLimits(max_streams), "connections": ConnectionLimits(),
                  "changed": asyncio.Event(), "freed": asyncio.Condition(), "max_streams": max_streams,
                  "poll_s": poll_s, "warn": RateLimitedLog(log), "logins": LoginQueue(guard, login_interval_s),
                  "pins": pins}
    app.on_response_prepare.append(_headers)
    app.on_startup.append(_start)
    app.on_cleanup.append(_stop)
    app.router.add_get("/", index)
    app.router.add_get("/api/state", state)
    app.router.add_get("/api/view", view)
    app.router.add_get("/api/events", events)
    app.router.add_get("/games", games)
    app.router.add_get("/replay/{game_id:-?[0-9]{1,20}}", replay)
    app.router.add_get("/api/record/{game_id:-?[0-9]{1,20}}", record)
    app.router.add_get("/static/{name}", static)
    app.router.add_post("/api/login", login)
    app.router.add_post("/api/logout", logout)
    app.router.add_post("/api/keys", post_keys)
    history_pages.register(app)
    history_remove.register(app)  # it builds on history_pages (never the other way)
    camera_page.register(app)
    update_page.register(app)
    return app


# ----- life cycle ----------------------------------------------------------------------------
async def _start(app: web.Application) -> None:
    app[VIEWS].refresh()
    app[STATE]["tasks"] = [asyncio.create_task(_poll(app)), asyncio.create_task(app[KEYS].run())]
    if app[STATE]["pins"] is not None:
        app[STATE]["tasks"].append(asyncio.create_task(_follow_pin(app, app[STATE]["pins"])))


async def _stop(app: web.Application) -> None:
    for task in app[STATE].get("tasks", []):
        task.cancel()
    app[KEYS].close()
    app[STATE]["logins"].close()


async def _poll(app: web.Application) -> None:
    """Follow the journal: a cheap look at its files every `watch.WATCH_S` (companion.web.watch),
    the journal read when they moved (again for `SETTLE_S`, until the commit shows), and anyway
    every `poll_s`; every stream is woken when the view changed."""
    state = app[STATE]
    loop = asyncio.get_running_loop()
    files = JournalWatch(app[VIEWS].reader.path)
    settle_until = next_poll = 0.0
    while True:
        await asyncio.sleep(watch.WATCH_S)
        now = loop.time()
        if files.moved():
            settle_until = now + watch.SETTLE_S
        elif now < settle_until or now >= next_poll:
            pass
        else:
            continue
        if now >= next_poll:
            next_poll = now + state["poll_s"]
        try:
            changed = app[VIEWS].refresh()
        except Exception:  # the poll must outlive any one bad read
            log.exception("web: reading the journal failed")
            continue
        if changed:
            settle_until = 0.0
            state["changed"].set()
            state["changed"] = asyncio.Event()


async def _follow_pin(app: web.Application, pins: PinSource) -> None:
    """A new PIN (the box's menu made one, or the config's file changed) is in force within `PIN_LOOK_S`."""
    while True:
        await asyncio.sleep(PIN_LOOK_S)
        try:
            if pins.moved():
                pins.follow(app[GUARD])
        except Exception:  # the page must outlive any one bad look
            log.exception("web: following the PIN file failed")


# ----- guards --------------------------------------------------------------------------------
async def _headers(request: web.Request, response: web.StreamResponse) -> None:
    form = response.headers.get("Referrer-Policy") == FORM_REFERRER_POLICY  # its form must carry its Origin
    response.headers.update(SECURITY_HEADERS)
    if form:
        response.headers["Referrer-Policy"] = FORM_REFERRER_POLICY
    response.headers["Cache-Control"] = "no-store"


def _local_address(request: web.Request) -> str | None:
    sockname = request.transport.get_extra_info("sockname") if request.transport is not None else None
    return sockname[0] if isinstance(sockname, tuple) and sockname else None


@web.middleware
async def _busy(request: web.Request, handler: Any) -> web.StreamResponse:
    """While a request is answered its connection is not given to a newcomer (companion.web.limits)."""
    connections = request.app[STATE]["connections"]
    connections.busy(request.protocol, +1)
    try:
        return await handler(request)
    finally:
        connections.busy(request.protocol, -1)


@web.middleware
async def _host_check(request: web.Request, handler: Any) -> web.StreamResponse:
    if not request.app[HOSTS].allows(request.headers.get("Host"), _local_address(request)):
        request.app[STATE]["warn"].warning("host", "web: refused Host %r from %s (DNS rebinding?)",
                                           request.headers.get("Host", "")[:80], request.remote)
        return web.Response(status=421, text="This page answers only to the box's own name or address.\n")
    return await handler(request)


@web.middleware
async def _no_traceback(request: web.Request, handler: Any) -> web.StreamResponse:
    try:
        return await handler(request)
    except web.HTTPException:
        raise
    except (asyncio.CancelledError, ConnectionResetError):
        raise
    except Exception:
        log.exception("web: %s %s failed", request.method, request.path)
        return _html(pages.message_page("Error", ["The page hit a problem reading the table's journal.",
                                                  "Reload in a moment; the game at the table is not affected."]),
                     status=500)


def _too_many(request: web.Request) -> web.Response:
    cap = request.app[STATE]["max_streams"]
    request.app[STATE]["warn"].warning("viewer", "web: viewer refused from %s: %d streams open", request.remote, cap)
    return _html(pages.too_many_page(cap), status=503)


# ----- pages -----------------------------------------------------------------------------------
def _live_html(live: Live) -> str:
    """The live view's fragment, or the reason it cannot be shown."""
    return live.html if live.problem is None else tag("p", esc(live.problem), cls="problem")


def _kind(live: Live) -> str | None:
    return live.payload["game"] if live.payload else None


async def index(request: web.Request) -> web.Response:
    state = request.app[STATE]
    if not state["streams"].would_admit(request.remote):
        return _too_many(request)
    live = request.app[VIEWS].live
    return _html(pages.live_page(_live_html(live), live.version, _kind(live), request.app[GUARD].enabled))


async def state(request: web.Request) -> web.Response:
    live = request.app[VIEWS].live
    if live.payload is None:
        return _json({"problem": live.problem}, status=503)
    return web.Response(text=live.json(), content_type="application/json")


async def view(request: web.Request) -> web.Response:
    live = request.app[VIEWS].live
    kind = _kind(live)
    return _json({"version": live.version, "html": _live_html(live), "title": pages.game_title(kind) if kind else ""})


async def events(request: web.Request) -> web.StreamResponse:
    state = request.app[STATE]
    transport = request.transport
    token = state["streams"].acquire(request.remote, transport.close if transport is not None else lambda: None)
    if token is None:
        return _too_many(request)
    try:
        async with sse_response(request, ping_interval=PING_S) as stream:
            sent = None
            while stream.is_connected():
                live = request.app[VIEWS].live
                if live.version != sent:
                    await stream.send(live.json(), event="state", retry=2000)
                    sent = live.version
                changed = state["changed"]
                try:
                    await asyncio.wait_for(changed.wait(), timeout=PING_S)
                except asyncio.TimeoutError:
                    pass
            return stream
    except ConnectionResetError:  # the phone went away while we wrote
        return web.Response(status=499)
    finally:
        state["streams"].release(token)
        async with state["freed"]:
            state["freed"].notify_all()


async def games(request: web.Request) -> web.Response:
    found = request.app[VIEWS].games()
    if isinstance(found, str):
        return _html(pages.message_page("Replays", [found]), status=503)
    return _html(pages.games_page(found))


def _step(request: web.Request, n: int) -> int:
    try:
        return max(0, min(n, int(request.query.get("step", n))))
    except ValueError:
        return n


def _game(request: web.Request) -> tuple[int, Replay | str]:
    """The game a replay or record URL names, or why it cannot be shown (any id the journal may
    hold, an imported game's too; one outside SQLite's integers is simply not there)."""
    game_id = int(request.match_info["game_id"])
    if not -2 ** 63 <= game_id < 2 ** 63:
        return game_id, f"there is no game {game_id} in the journal (see the list of games: /games)"
    return game_id, request.app[VIEWS].replay(game_id)


async def replay(request: web.Request) -> web.Response:
    game_id, found = _game(request)
    if isinstance(found, str):
        return _html(pages.message_page("Replay", [found]), status=404)
    k = _step(request, len(found.steps))
    return _html(pages.replay_page(game_id, found.rows.kind, found.steps, k, found.html(k)))


async def record(request: web.Request) -> web.Response:
    game_id, found = _game(request)
    text = None if isinstance(found, str) else found.record()
    if text is None:
        return _html(pages.message_page("Record", [found if isinstance(found, str) else "no record yet"]), 404)
    name = f"{found.rows.kind}-game-{game_id}.json"
    return web.Response(text=text, content_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})


def stylesheets() -> str:
    """Every registered game's part of the page's stylesheet (its `GameType.stylesheet`), after the shared one."""
    from companion.games import GAMES

    return "".join(game.stylesheet_text() for game in GAMES.values())


async def static(request: web.Request) -> web.Response:
    name = request.match_info["name"]
    if name not in STATIC:
        raise web.HTTPNotFound()
    body = resources.files("companion.web").joinpath("static", name).read_bytes()
    if name == "style.css":
        body += stylesheets().encode("utf-8")
    return web.Response(body=body, content_type=STATIC[name], charset="utf-8")


# ----- changes (PIN) -------------------------------------------------------------------------------
async def login(request: web.Request) -> web.Response:
    """A PIN guess: from this page only (Origin), checked in the login queue's turn (companion.web.logins)."""
    guard = request.app[GUARD]
    if guard.enabled and not origin_matches(request.headers.get("Origin"), request.headers.get("Host")):
        return _json({"error": "the request does not come from this page (Origin does not match Host)"}, status=403)
    data = await json_body(request)
    pin = data.get("pin", "")
    if isinstance(pin, bool) or not isinstance(pin, (str, int)):
        # a list or an object is no PIN: malformed, as a body too deep to parse is (Python 3.13's
        # parser reads 8,000 nested lists that 3.11's refused), not a wrong guess
        return _json({"error": 'the PIN is a string of digits: {"pin": "1234"}'}, status=400)
    answer = await request.app[STATE]["logins"].login(request.remote, str(pin)[:32])
    if answer.token is None:
        headers = {"Retry-After": str(int(answer.retry_after + 0.999))} if answer.retry_after else None
        return web.Response(text=json.dumps({"error": answer.message}), status=answer.status,
                            content_type="application/json", headers=headers)
    response = _json({"csrf": answer.csrf})
    response.set_cookie(SESSION_COOKIE, answer.token, max_age=SESSION_TTL_S, httponly=True, samesite="Strict",
                        path="/")
    return response


async def logout(request: web.Request) -> web.Response:
    request.app[GUARD].logout(request.cookies.get(SESSION_COOKIE))
    response = _json({"ok": True})
    response.del_cookie(SESSION_COOKIE, path="/")
    return response


async def post_keys(request: web.Request) -> web.Response:
    data = await change_body(request)
    if isinstance(data, web.Response):
        return data
    keys = data.get("keys")
    if not isinstance(keys, str) or not keys or len(keys) > MAX_KEYS or any(k not in KEYPAD for k in keys.upper()):
        return _json({"error": f"keys: up to {MAX_KEYS} of the keypad's 0-9 * # A B C D"}, status=400)
    return await to_daemon(request, link.keys(keys.upper()), {"sent": len(keys)})
