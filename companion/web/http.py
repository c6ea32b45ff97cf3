"""What every route of the table's page shares: the application's keys and the answers' shapes.

`companion.web.app` fills the keys in `make_app`; its routes and those of
`companion.web.history_pages` read them from `request.app`. `change_refused` (`change_why`) is the
one check every change makes (a PIN session, its CSRF token, an Origin matching the Host).
"""

from __future__ import annotations

import asyncio
import json
import urllib.parse
from typing import Any

from aiohttp import web

from companion.util.safe_text import json_text
from companion.web.guard import CSRF_HEADER, SESSION_COOKIE, HostCheck, PinGuard
from companion.web.keylink import KeyLink
from companion.web.views import Views

VIEWS = web.AppKey("views", Views)
GUARD = web.AppKey("guard", PinGuard)
HOSTS = web.AppKey("hosts", HostCheck)
KEYS = web.AppKey("keys", KeyLink)
STATE = web.AppKey("state", dict)
ROSTER = web.AppKey("roster", list)  # the config's names (the journal's setting wins over them)

NOT_RUNNING = "the table is not running (its key socket cannot be reached)"
BODY_S = 5.0  # a request body must arrive whole within this (a slow sender cannot hold a connection)


async def _body(request: web.Request, limit_s: float) -> bytes:
    """The request's whole body; 408 when it does not arrive within `limit_s` (the connection is closed)."""
    connections = request.app[STATE].get("connections")
    if connections is not None:  # a body still arriving: the connection waits for its client
        connections.busy(request.protocol, -1)
    try:
        async with asyncio.timeout(limit_s):
            return await request.read()
    except TimeoutError:
        late = web.HTTPRequestTimeout(text=f"the request body did not arrive within {limit_s:.0f} s\n")
        late.force_close()  # answered, then the connection is closed (the rest of the body is not awaited)
        raise late from None
    finally:
        if connections is not None:
            connections.busy(request.protocol, +1)


async def json_body(request: web.Request, limit_s: float = BODY_S) -> dict:
    """The request's body as a JSON object. 400 (never a traceback) for anything else: not JSON, not
    UTF-8, nested too deep for the parser, not an object; 408 when it does not arrive within `limit_s`
    (the connection is closed); 413 above the app's size limit (aiohttp's own check)."""
    raw = await _body(request, limit_s)
    try:
        data = json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise web.HTTPBadRequest(text="send a JSON object\n") from None
    if not isinstance(data, dict):
        raise web.HTTPBadRequest(text="send a JSON object\n")
    return data


async def form_body(request: web.Request, limit_s: float = BODY_S) -> dict[str, str]:
    """A form's fields (application/x-www-form-urlencoded, as a page's form without script posts it),
    each field's first value; {} for a body that is no such form (the caller then refuses the change)."""
    raw = await _body(request, limit_s)
    try:
        fields = urllib.parse.parse_qs(raw.decode("utf-8"), max_num_fields=16, strict_parsing=bool(raw))
    except ValueError:  # not UTF-8, too many fields, not a form at all
        return {}
    return {name: values[0] for name, values in fields.items()}


def html_response(text: str, status: int = 200) -> web.Response:
    return web.Response(text=text, status=status, content_type="text/html")


def json_response(data: Any, status: int = 200) -> web.Response:
    """`data` as JSON (UTF-8; a lone surrogate in an old journal's name as its JSON escape)."""
    return web.Response(text=json_text(data), status=status, content_type="application/json")


def change_why(request: web.Request, csrf: str | None = None) -> str | None:
    """Why `request` may not change anything (in English, for the log and the JSON answers), or None when
    it may; `csrf`: the token a form repeats (else the header's)."""
    return request.app[GUARD].may_change(request.cookies.get(SESSION_COOKIE), csrf or request.headers.get(CSRF_HEADER),
                                         request.headers.get("Origin"), request.headers.get("Host"))


def change_refused(request: web.Request) -> web.Response | None:
    """403 with why, when `request` may not change anything; None when it may."""
    why = change_why(request)
    return None if why is None else json_response({"error": why}, status=403)


async def change_body(request: web.Request) -> dict | web.Response:
    """A change's JSON object, or the answer that refuses it: 403 (no session, CSRF token or Origin),
    400 (not a JSON object)."""
    refused = change_refused(request)
    if refused is not None:
        return refused
    try:
        return await json_body(request)
    except web.HTTPBadRequest:
        return json_response({"error": "send a JSON object"}, status=400)


async def to_daemon(request: web.Request, message: dict, answer: Any) -> web.Response:
    """`message` to the daemon's key socket; `answer` when it went, else 503."""
    if not await request.app[KEYS].send(message):
        return json_response({"error": NOT_RUNNING}, status=503)
    return json_response(answer)
