"""Taking a finished game out of the history on the table's page (issue 41), with the PIN.

    GET  /history/remove/{id}   the question: the game, "Take game N out ...?", a Yes form and a No link
    POST /history/remove/{id}   the Yes form (its session's CSRF token in a field, an Origin matching the
                                Host) -> {"remove_game": N} over the daemon's key socket; then /history
                                without the game, and a line that says so

The page only reads the journal: the daemon, its one writer, takes the game out through
`Journal.remove_game` (as `companion history --remove N` does) and the page watches the journal
until the game is gone (at most `DONE_S`). No script is needed (a link, a form), and it fits a
360 px phone. Without a PIN session both answer 403 and /history shows no button; a number that
is not a game of the history answers 404, a table that is not running 503 (naming the command
that does it on the box), a daemon that did not do it in time 504: each one translated line.
"""

from __future__ import annotations

import asyncio

from aiohttp import web

from companion.history.plays import read_history
from companion.table import pagelink as link
from companion.i18n import N_, _
from companion.journal.reader import JournalUnavailable
from companion.table.gameweb import esc, tag
from companion.web.guard import FORM_REFERRER_POLICY
from companion.web.history_pages import (FINISHED_GAMES, _history, _page, history_document, in_table_language,
                                         play_html, session_csrf)
from companion.web.http import KEYS, VIEWS, change_why, form_body, html_response as _html

DONE_S = 5.0  # how long the page waits for the daemon to take the game out
LOOK_S = 0.05  # how often it looks at the journal meanwhile

# NOTE: the table's page: the title of the question before a game is taken out of the history
REMOVE_TITLE = N_("Remove a game")
# NOTE: the table's page: the question before a game is taken out ({id}: the game's number)
QUESTION = N_("Take game {id} out of the history and the statistics? The journal keeps it.")
# NOTE: the table's page: the button that takes the game out
YES = N_("Yes, take it out")
# NOTE: the table's page: the link back to the history, nothing changed
NO = N_("No, keep it")
# NOTE: the table's page: after a game was taken out of the history ({id}: its number)
DONE = N_("Game {id} was taken out of the history, the statistics and the exports (the journal keeps it).")
# NOTE: the table's page: a game number that is not in the history ({id}: what the address said)
UNKNOWN = N_("There is no game {id} in the history (taken out already?): the history lists its games.")
# NOTE: the table's page: the table (the kiosk) is not running; the command does it on the box
NOT_RUNNING = N_("The table is not running, so the page cannot take game {id} out: "
                 "on the box, run companion history --remove {id}")
# NOTE: the table's page: the table did not take the game out in time ({seconds}: how long the page waited)
NOT_DONE = N_("The table did not take game {id} out within {seconds} s: see its log, "
              "or on the box run companion history --remove {id}")
# NOTE: the table's page: taking a game out without a PIN session
NEEDS_PIN = N_("Taking a game out of the history needs the PIN: enter it on the history page, then try again.")
# NOTE: the table's page: a session that ended, or a request from elsewhere
RELOAD = N_("This request did not come from this page with the PIN: open the history again and try again.")


def register(app: web.Application) -> None:
    """Add the two routes (companion.web.history_pages.register calls it)."""
    app.router.add_get("/history/remove/{game_id}", ask)
    app.router.add_post("/history/remove/{game_id}", remove)


def _answer(line: str, status: int) -> web.Response:
    """One translated line on a page of its own, with the way back to the history."""
    body = tag("p", esc(line), cls="problem", role="alert") + tag("p", tag("a", esc(_(FINISHED_GAMES)),
                                                                           href="/history", cls="button"),
                                                                  cls="links")
    return _html(_page(_(REMOVE_TITLE), "", body), status=status)


def _wanted(request: web.Request) -> int | None:
    """The game number the address names: a whole number a journal's game may have, else None."""
    raw = request.match_info["game_id"]
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 19):
        return None
    return link.game_id(int(raw))


def _in_history(request: web.Request, game_id: int) -> bool:
    """True while the journal holds `game_id` as a finished game of the history."""
    return request.app[VIEWS].reader.in_history(game_id)


def _shown(request: web.Request) -> str:
    """What the address said, for the one line (short, whatever it was)."""
    return request.match_info["game_id"][:24]


async def ask(request: web.Request) -> web.Response:
    """The question, with the game it is about."""
    in_table_language(request)
    csrf = session_csrf(request)
    if csrf is None:
        return _answer(_(NEEDS_PIN), 403)
    game_id = _wanted(request)
    try:
        known = game_id is not None and _in_history(request, game_id)
        plays = read_history(request.app[VIEWS].reader.path.parent, full=False, include_abandoned=True,
                             game_id=game_id).plays if known else []
    except JournalUnavailable as exc:
        return _answer(str(exc), 503)
    if not known:
        return _answer(_(UNKNOWN).format(id=_shown(request)), 404)
    shown = play_html(plays[0]) if plays else tag("p", esc(f"game {game_id}"), cls="note damaged")
    form = tag("form", f'<input type="hidden" name="csrf" value="{esc(csrf)}">'
               + tag("button", esc(_(YES)), type="submit")
               + tag("a", esc(_(NO)), href="/history", cls="button"),
               method="post", action=f"/history/remove/{game_id}", cls="confirm")
    body = shown + tag("p", esc(_(QUESTION).format(id=game_id)), cls="question") + form
    response = _html(_page(_(REMOVE_TITLE), "", body))
    response.headers["Referrer-Policy"] = FORM_REFERRER_POLICY  # else the form posts with Origin: null
    return response


async def remove(request: web.Request) -> web.Response:
    """The Yes: checked, asked of the daemon, then the history without the game (or one line why not)."""
    fields = await form_body(request)
    in_table_language(request)
    if change_why(request, fields.get("csrf")) is not None:
        return _answer(_(NEEDS_PIN) if session_csrf(request) is None else _(RELOAD), 403)
    game_id = _wanted(request)
    try:
        if game_id is None or not _in_history(request, game_id):
            return _answer(_(UNKNOWN).format(id=_shown(request)), 404)
        if not await request.app[KEYS].send(link.remove_game(game_id)):
            return _answer(_(NOT_RUNNING).format(id=game_id), 503)
        loop = asyncio.get_running_loop()
        until = loop.time() + DONE_S
        while _in_history(request, game_id):
            if loop.time() >= until:
                return _answer(_(NOT_DONE).format(id=game_id, seconds=f"{DONE_S:g}"), 504)
            await asyncio.sleep(LOOK_S)
    except JournalUnavailable as exc:
        return _answer(str(exc), 503)
    done = tag("p", esc(_(DONE).format(id=game_id)), cls="done", role="status")
    return _html(history_document(request, await _history(request), above=done))
