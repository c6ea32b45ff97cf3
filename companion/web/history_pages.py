"""The table's page: finished games, statistics, exports and the players' names (companion.history).

    GET  /history            the finished games, newest first, each with "Add to BG Stats" and its replay
    GET  /stats              tables per player, per game and player count, head-to-head, colours,
                             and each player's totals over time (inline SVG drawn here, no script)
    GET  /api/history        `companion history --json`        GET /api/stats  `table_stats` as JSON
    GET  /export/{fmt}       the whole history as a download: bgstats, bgg, csv or json
    GET  /roster             the table's names; with a PIN session, a form to change them
    POST /api/roster         {"names": [...]} -> the daemon's key socket (session, CSRF, Origin)
    GET, POST /history/remove/{id}   with a PIN session, a game out of the history (companion.web.history_remove)

Only finished games are read (`read_history`): their secret colours are revealed, and the
game in progress never shows here. Read-only pages need no PIN; the box never contacts the
internet (the BG Stats link is followed by the phone). `register` adds the routes to the app.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import time
from typing import Any, Callable

from aiohttp import web

from companion.history import export, formats, stats
from companion.history.bgstats import create_play_link
from companion.history.plays import History, Play, read_history
from companion.journal.reader import JournalUnavailable
from companion.i18n import N_, _, ngettext
from companion.table import pagelink as link
from companion.table.gameweb import esc, name_text, table, tag
from companion.table.seatnames import check_roster
from companion.web import pages
from companion.web.guard import SESSION_COOKIE
from companion.web.http import (GUARD, ROSTER, VIEWS, change_body, html_response as _html, json_response as _json,
                                to_daemon)

# NOTE: the table's page: the finished games: heading
FINISHED_GAMES = N_("Finished games")
# NOTE: the table's page: the finished games and statistics when no game has ended yet
NO_GAMES = N_("No finished game yet: the games appear here once they end.")
# NOTE: the table's page: a finished game's length in minutes
MINUTES = N_("{minutes} min")
# NOTE: the table's page: marks a winner in the finished games (after the name and total)
WINNER = N_("winner")
# NOTE: the table's page: a finished game's link to its replay
REPLAY = N_("Replay")
# NOTE: the table's page: the heading of the downloads of the whole history
DOWNLOADS = N_("Download the history")
# NOTE: the table's page: statistics: heading of the table per player; column heading of the head-to-head pairs
PER_PLAYER = N_("Players")
# NOTE: the table's page: statistics: heading of the table per game and number of players
PER_GAME = N_("Games by number of players")
# NOTE: the table's page: statistics: heading of the table of pairs of players (who beat whom)
HEAD_TO_HEAD = N_("Head to head")
# NOTE: the table's page: statistics: heading of the average total of each of Clans' secret colours
BY_COLOR = N_("Average total by secret colour")
# NOTE: the table's page: statistics: heading of the plot of each player's totals
OVER_TIME = N_("Totals over time")
# NOTE: the table's page: statistics: column heading (a player's name)
NAME = N_("Name")
# NOTE: the table's page: statistics: column heading (games played)
GAMES = N_("Games")
# NOTE: the table's page: statistics: column heading (games won)
WINS = N_("Wins")
# NOTE: the table's page: statistics: column heading (share of games won)
WIN_PCT = N_("Win %")
# NOTE: the table's page: statistics: column heading (average total)
AVERAGE = N_("Average")
# NOTE: the table's page: statistics: column heading (best total)
BEST = N_("Best")
# NOTE: the table's page: statistics: column heading (most wins in a row)
STREAK = N_("Longest streak")
# NOTE: the table's page: statistics: column heading (who beat this player most often)
NEMESIS = N_("Nemesis")
# NOTE: the table's page: statistics: column heading (the date of the player's last game)
LAST_PLAYED = N_("Last played")
# NOTE: the table's page: statistics: column heading (the game's name)
GAME = N_("Game")
# NOTE: the table's page: statistics: column heading (how many players)
PLAYERS = N_("Players")
# NOTE: the table's page: statistics: column heading (games the first player won, of the games)
FIRST_WINS = N_("First player wins")
# NOTE: the table's page: statistics: column heading (share of games won from each seat)
SEAT_WINS = N_("Wins by seat")
# NOTE: the table's page: statistics: column heading (games both players of a pair won, a shared win)
BOTH_WON = N_("Both won")
# NOTE: the table's page: statistics: column heading (a Clans colour)
COLOUR = N_("Colour")
# NOTE: the table's page: statistics: column heading (the colour's average total)
AVERAGE_TOTAL = N_("Average total")
PLAYER_COLS = (NAME, GAMES, WINS, WIN_PCT, AVERAGE, BEST, STREAK, NEMESIS, LAST_PLAYED)
GAME_COLS = (GAME, PLAYERS, GAMES, FIRST_WINS, SEAT_WINS)
H2H_COLS = (PLAYERS, GAMES, WINS, BOTH_WON)
COLOR_COLS = (COLOUR, AVERAGE_TOTAL)
# NOTE: the table's page: statistics: the plot's description for screen readers
PLOT_LABEL = N_("Each player's total in every game with points, oldest first")
# NOTE: the table's page: the players' names: what the list is
ROSTER_INTRO = N_("The names a seat can pick at a new game:")
# NOTE: the table's page: the players' names: when the list is empty
NO_ROSTER = N_("No names yet: the seats are called Player 1, Player 2 and so on.")
# NOTE: the table's page: the players' names: the form's label (one name per line)
ROSTER_LABEL = N_("One name per line")
# NOTE: the table's page: the players' names: the form's button
ROSTER_SAVE = N_("Save the names")
# NOTE: the table's page: the players' names: after saving
ROSTER_SAVED = N_("Saved: the table offers these names at the next game.")
# NOTE: the table's page: the players' names: without a PIN in the config
ROSTER_READ_ONLY = N_("Changing the names needs the PIN set in the box's config.")
# NOTE: the table's page: the finished games: a game's button (with the PIN) that asks before taking it out
REMOVE = N_("Remove from the history")
# NOTE: the table's page: the finished games: above the PIN form (the PIN shows a remove button per game)
REMOVE_WITH_PIN = N_("With the PIN, a game can be taken out of the history.")

# each download as `companion export` writes it (export.file_text): the BG Stats play file as .bgsplay
# (octet-stream, so a phone keeps the name the app opens it by), the CSV with its byte order mark
PALETTE = ("#1e63c6", "#d32f2f", "#2e9e44", "#ef6c00", "#7b1fa2", "#00838f", "#6d4c41", "#c2185b", "#558b2f",
           "#37474f")


def register(app: web.Application) -> None:
    """Add this module's routes to `app` (make_app calls it, after filling companion.web.http's keys)."""
    app.router.add_get("/history", history_page)
    app.router.add_get("/stats", stats_page)
    app.router.add_get("/api/history", api_history)
    app.router.add_get("/api/stats", api_stats)
    app.router.add_get("/export/{fmt}", export_file)
    app.router.add_get("/roster", roster_page)
    app.router.add_post("/api/roster", post_roster)


# ----- helpers -----------------------------------------------------------------------------
async def _history(request: web.Request, full: bool = False) -> History | str:
    """The journal's finished games in the table's language, or why they cannot be read. Read in a
    worker thread: thousands of games take a while on a Pi, and the live streams must not wait."""
    views = request.app[VIEWS]
    try:
        views.use_table_language()
        return await asyncio.get_running_loop().run_in_executor(
            None, functools.partial(read_history, views.reader.path.parent, full=full))
    except JournalUnavailable as exc:
        return str(exc)


def _when(seconds: float, fmt: str = "%Y-%m-%d %H:%M") -> str:
    return time.strftime(fmt, time.localtime(seconds))


def _pct(rate: float | None) -> str:
    return "-" if rate is None else f"{round(rate * 100)}%"


def _num(value: Any) -> str:
    if value is None:
        return "-"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _page(title: str, here: str, body: str, script: bool = False, attrs: str = "") -> str:
    header = tag("header", tag("h1", esc(title)) + pages.site_nav(here))
    return pages.document(title, header + tag("main", body), script=script, attrs=attrs)


def _scroll(html: str) -> str:
    """A table that scrolls inside its box on a narrow phone, never the page."""
    return tag("div", html, cls="scroll")


def in_table_language(request: web.Request) -> None:
    """The answer in the table's language (English while no journal can be read)."""
    try:
        request.app[VIEWS].use_table_language()
    except JournalUnavailable:
        pass


def session_csrf(request: web.Request) -> str | None:
    """The CSRF token of the request's PIN session, None without one (or without a PIN)."""
    guard = request.app[GUARD]
    session = guard.session(request.cookies.get(SESSION_COOKIE)) if guard.enabled else None
    return session.csrf if session is not None else None


def pin_page(request: web.Request, title: str, here: str, body: Callable[[bool, str | None], str]) -> web.Response:
    """A page that shows more with a PIN session (the camera's, the update's): `body(pin, csrf)`, in the
    table's language; the page's script gets the session's CSRF token, or reloads after a login."""
    guard = request.app[GUARD]
    in_table_language(request)
    csrf = session_csrf(request)
    attrs = f' data-csrf="{esc(csrf)}"' if csrf else ' data-login-reload=""'
    return _html(_page(title, here, body(guard.enabled, csrf), script=guard.enabled, attrs=attrs))


def remove_link(game_id: int) -> str:
    """The button that asks before taking game `game_id` out (shown with a PIN session only)."""
    return tag("a", esc(_(REMOVE)), href=f"/history/remove/{game_id}", cls="button remove")


# ----- /history ------------------------------------------------------------------------------
def play_html(play: Play, remove: bool = False) -> str:
    """One finished game: when, which, how long, each name with its total (winners marked), its links
    (with `remove`, the button that takes it out of the history)."""
    seats = []
    for i, name in enumerate(play.players):
        won = i in play.winners
        mark = " " + tag("span", "&#9733; " + esc(_(WINNER)), cls="won") if won else ""
        # the total is a bidirectional isolate (style.css): a right-to-left name keeps it on its right
        seats.append(tag("li", esc(name_text(name)) + " " + tag("b", esc(play.totals[i])) + mark,
                         cls="winner" if won else None))
    head = tag("h2", esc(f"{_when(play.started)} {pages.game_title(play.game)}"))
    facts = tag("p", esc(_(MINUTES).format(minutes=play.duration_min)), cls="facts")
    links = tag("p", pages.bgstats_link(create_play_link(play)) + " "
                + tag("a", esc(_(REPLAY)), href=f"/replay/{play.game_id}", cls="button")
                + (" " + remove_link(play.game_id) if remove else ""), cls="links")
    return tag("article", head + facts + tag("ul", "".join(seats), cls="seats") + links, cls="play",
               data_game_id=play.game_id)


def history_html(hist: History, remove: bool = False) -> str:
    """The body of /history: downloads, damaged entries, the games newest first (with `remove`, each
    game and each damaged entry with the button that takes it out)."""
    plays = sorted(hist.finished, key=lambda p: (p.started, p.game_id), reverse=True)
    out = ""
    if hist.damaged:
        n = len(hist.damaged)
        # NOTE: the table's page: journal entries that could not be read ({n}: how many), then each reason
        said = ngettext("{n} journal entry could not be read and is left out:",
                        "{n} journal entries could not be read and are left out:", n).format(n=n)
        out += tag("div", tag("p", esc(said))
                   + tag("ul", "".join(tag("li", esc(why) + (" " + remove_link(gid) if remove else ""))
                                       for why, gid in zip(hist.damaged, hist.damaged_ids))), cls="note damaged")
    if not plays:
        return tag("p", esc(_(NO_GAMES)), cls="empty") + out
    downloads = " ".join(tag("a", esc(_(f.label)), href=f"/export/{name}", download="")
                         for name, f in formats.FORMATS.items())
    out = tag("nav", tag("h2", esc(_(DOWNLOADS))) + downloads, cls="downloads") + out
    return out + "".join(play_html(p, remove) for p in plays)


def history_document(request: web.Request, hist: History | str, above: str = "") -> str:
    """The whole /history page (`above`: a line that says what just happened); with a PIN and no session
    the PIN form (page.js reloads the page after it, to show the remove buttons)."""
    csrf = session_csrf(request)
    if isinstance(hist, str):
        body = tag("p", esc(_(NO_GAMES)), cls="empty") + tag("p", esc(hist), cls="problem")
    else:
        body = history_html(hist, remove=csrf is not None)
    login = request.app[GUARD].enabled and csrf is None
    if login:
        body += tag("section", tag("p", esc(_(REMOVE_WITH_PIN)), cls="note") + pages.pin_form()
                    + tag("p", "", id="keys-status", role="status"), id="controls")
    return _page(_(FINISHED_GAMES), "/history", above + body, script=login,
                 attrs=' data-login-reload=""' if login else "")


async def history_page(request: web.Request) -> web.Response:
    return _html(history_document(request, await _history(request)))


# ----- /stats --------------------------------------------------------------------------------
def _color_name(color: str) -> str:
    """A dealt colour in the table's language, in the words of the game that deals it."""
    from companion.games import GAMES as REGISTERED

    for game in REGISTERED.values():
        module = game.history_module()
        word = module.color_name(color) if module is not None else color
        if word != color:
            return word
    return color


def _own_columns(per: str) -> list[Any]:
    """The registered games' statistics `per` "player" or "game" that the page shows (a `title`), in order."""
    return [stat for _kind, stat in stats.statistics(per) if stat.title]


def players_table(players: dict[str, dict[str, Any]]) -> str:
    # (a table cell is a paragraph of its own for the bidirectional algorithm: no <bdi> needed)
    own = _own_columns("player")  # the games' own columns, after the longest streak
    rows = [[esc(name_text(name)), esc(s["games"]), esc(s["wins"]), esc(_pct(s["win_rate"])),
             esc(_num(s["average_total"])), esc(_num(s["best_total"])), esc(s["longest_streak"]),
             *(esc(_num(s[c.name])) for c in own), esc(name_text(s["nemesis"] or "-")),
             esc(_when(dt.datetime.fromisoformat(s["last_played"]).timestamp(), "%Y-%m-%d"))]
            for name, s in sorted(players.items(), key=lambda item: (-item[1]["games"], item[0]))]
    heads = [*PLAYER_COLS[:7], *(c.title for c in own), *PLAYER_COLS[7:]]
    return _scroll(table([esc(_(h)) for h in heads], rows, cls="stats players"))


def games_table(games: dict[str, dict[str, dict[str, Any]]]) -> str:
    own = _own_columns("game")  # the games' own columns, last
    rows = []
    for kind, counts in games.items():
        for n, s in counts.items():
            first = "-" if s["first_player_win_rate"] is None else \
                f"{s['first_player_wins']}/{s['games']} ({_pct(s['first_player_win_rate'])})"
            seats = " ".join(f"{i + 1}: {_pct(r)}" for i, r in enumerate(s["seat_win_rate"]))
            rows.append([esc(pages.game_title(kind)), esc(n), esc(s["games"]), esc(first), esc(seats),
                         *(esc(_num(s[c.name])) for c in own)])
    return _scroll(table([esc(_(h)) for h in (*GAME_COLS, *(c.title for c in own))], rows, cls="stats games"))


def h2h_table(pairs: dict[str, dict[str, int]]) -> str:
    rows = []
    for key, s in pairs.items():
        a, b = key.split("|", 1)
        rows.append([esc(f"{name_text(a)} - {name_text(b)}"), esc(s["games"]), esc(f"{s[a]} : {s[b]}"),
                     esc(s["ties"])])
    return _scroll(table([esc(_(h)) for h in H2H_COLS], rows, cls="stats h2h"))


def colors_table(colors: dict[str, float]) -> str:
    rows = [[tag("span", "", cls=f"swatch c-{esc(c)}") + esc(_color_name(c)), esc(_num(avg))]
            for c, avg in colors.items()]
    return _scroll(table([esc(_(h)) for h in COLOR_COLS], rows, cls="stats colors"))


def totals_plot(plays: list[Play]) -> str:
    """Each player's totals over time as inline SVG (presentation attributes only: the CSP allows it),
    with an HTML legend; "" when no game has points."""
    games = [p for p in stats.counted(plays) if stats.has_points(p.game)]
    spelled = stats.spellings(plays)  # one line per person, by their most recent spelling; no anonymous seat
    series: dict[str, list[tuple[int, int]]] = {}
    for i, play in enumerate(games):
        for name, seats in stats.people_seats(play, spelled).items():
            series.setdefault(name, []).append((i, max(play.totals[s] for s in seats)))  # one point a game
    if not series:
        return ""
    w, h, left, right, top, bottom = 640, 320, 56, 16, 14, 44
    top_total = max(t for pts in series.values() for _x, t in pts)
    ymax = max(10, -(-top_total // 10) * 10)
    span = max(1, len(games) - 1)

    def x(i: int) -> float:
        return round(left + (w - left - right) * (i / span if len(games) > 1 else 0.5), 1)

    def y(v: float) -> float:
        return round(top + (h - top - bottom) * (1 - v / ymax), 1)

    parts = [f'<line x1="{left}" y1="{y(0)}" x2="{w - right}" y2="{y(0)}" stroke="#5a5a5a" stroke-width="1.5"/>',
             f'<line x1="{left}" y1="{top}" x2="{left}" y2="{y(0)}" stroke="#5a5a5a" stroke-width="1.5"/>']
    for v in (0, ymax // 2, ymax):
        parts.append(f'<line x1="{left}" y1="{y(v)}" x2="{w - right}" y2="{y(v)}" stroke="#c9c9c9" stroke-width="1"/>'
                     f'<text x="{left - 6}" y="{y(v) + 7}" text-anchor="end" font-size="20" fill="#1b1b1b">{v}</text>')
    marks = sorted({0, len(games) - 1} | ({span // 2} if len(games) > 2 else set()))
    for i in marks:
        anchor = "start" if i == 0 and len(games) > 1 else "end" if i == len(games) - 1 and len(games) > 1 else "middle"
        parts.append(f'<text x="{x(i)}" y="{h - 10}" text-anchor="{anchor}" font-size="20" fill="#1b1b1b">'
                     f'{esc(_when(games[i].started, "%Y-%m-%d"))}</text>')
    legend = []
    for k, (name, pts) in enumerate(sorted(series.items())):
        color = PALETTE[k % len(PALETTE)]
        points = " ".join(f"{x(i)},{y(t)}" for i, t in pts)
        dots = "".join(f'<circle cx="{x(i)}" cy="{y(t)}" r="4" fill="{color}"/>' for i, t in pts)
        shown = esc(name_text(name))
        parts.append(f'<g data-player="{shown}"><title>{shown}</title><polyline points="{points}" '
                     f'fill="none" stroke="{color}" stroke-width="2.5" stroke-linejoin="round"/>{dots}</g>')
        key = (f'<svg width="22" height="10" viewBox="0 0 22 10" aria-hidden="true"><line x1="0" y1="5" x2="22" '
               f'y2="5" stroke="{color}" stroke-width="4"/></svg>')
        legend.append(tag("li", key + " " + esc(name_text(name))))
    svg = (f'<svg viewBox="0 0 {w} {h}" role="img" aria-label="{esc(_(PLOT_LABEL))}" '
           f'xmlns="http://www.w3.org/2000/svg">{"".join(parts)}</svg>')
    return tag("figure", svg + tag("ul", "".join(legend), cls="legend"), cls="plot")


def stats_html(hist: History) -> str:
    """The body of /stats."""
    plays = hist.finished
    if not plays:
        return tag("p", esc(_(NO_GAMES)), cls="empty")
    t = stats.table_stats(plays)
    out = tag("h2", esc(_(PER_PLAYER))) + players_table(t["players"])
    plot = totals_plot(plays)
    if plot:
        out += tag("h2", esc(_(OVER_TIME))) + plot
    out += tag("h2", esc(_(PER_GAME))) + games_table(t["games"])
    if t["head_to_head"]:
        out += tag("h2", esc(_(HEAD_TO_HEAD))) + h2h_table(t["head_to_head"])
    if t["colors"]:
        out += tag("h2", esc(_(BY_COLOR))) + colors_table(t["colors"])
    return out


async def stats_page(request: web.Request) -> web.Response:
    hist = await _history(request)
    if isinstance(hist, str):
        body = tag("p", esc(_(NO_GAMES)), cls="empty") + tag("p", esc(hist), cls="problem")
    else:
        body = stats_html(hist)
    return _html(_page(_(pages.STATS), "/stats", body))


# ----- JSON and downloads --------------------------------------------------------------------
async def api_history(request: web.Request) -> web.Response:
    hist = await _history(request)
    if isinstance(hist, str):
        return _json({"problem": hist}, status=503)
    return _json([p.history_json() for p in hist.plays])


async def api_stats(request: web.Request) -> web.Response:
    hist = await _history(request)
    if isinstance(hist, str):
        return _json({"problem": hist}, status=503)
    return _json(stats.table_stats(hist.finished))


async def export_file(request: web.Request) -> web.Response:
    fmt = request.match_info["fmt"]
    if fmt not in formats.FORMATS:
        raise web.HTTPNotFound(text=f"exports: {', '.join(formats.FORMATS)}\n")
    hist = await _history(request, full=True)
    if isinstance(hist, str):
        return _html(pages.message_page(_(FINISHED_GAMES), [hist]), status=503)
    plays = hist.finished
    entry = formats.FORMATS[fmt]
    if entry.records:  # only games that kept a record can be restored
        plays = [p for p in plays if isinstance(p.record, dict)]
    ext, content_type = entry.extension, entry.mime
    name = f"companion-history-{dt.date.today():%Y-%m-%d}.{ext}"
    body = export.file_text(plays, fmt).encode("utf-8")
    if content_type.startswith(("text/", "application/json", "application/xml")):
        content_type += "; charset=utf-8"
    return web.Response(body=body, headers={"Content-Type": content_type,
                                            "Content-Disposition": f'attachment; filename="{name}"'})


# ----- the roster ----------------------------------------------------------------------------
def current_roster(request: web.Request) -> list[str]:
    """The table's names: the journal's setting (set at the table or here), else the config's."""
    try:
        stored = request.app[VIEWS].reader.setting("roster")
    except JournalUnavailable:
        stored = None
    if isinstance(stored, list) and all(isinstance(n, str) for n in stored):
        return list(stored)
    return list(request.app[ROSTER])


def roster_html(names: list[str], pin: bool, csrf: str | None) -> str:
    """The body of /roster: the names; with a PIN, the login and (unlocked) the form."""
    listed = tag("ol", "".join(tag("li", esc(name_text(n))) for n in names), id="roster-names") if names else \
        tag("p", esc(_(NO_ROSTER)), id="roster-names")
    body = tag("p", esc(_(ROSTER_INTRO))) + listed
    if not pin:
        return body + tag("p", esc(_(ROSTER_READ_ONLY)), cls="note")
    form = tag("form", tag("label", esc(_(ROSTER_LABEL)), for_="roster-text")
               + tag("textarea", esc("\n".join(map(name_text, names))), id="roster-text", rows="8", maxlength="1000",
                     autocomplete="off", spellcheck="false")
               + tag("button", esc(_(ROSTER_SAVE)), type="submit"),
               id="roster-form", hidden=None if csrf else "hidden")
    status = tag("p", "", id="roster-status", role="status", data_saved=_(ROSTER_SAVED))
    return body + pages.pin_form(hidden=csrf is not None) + form + status


async def roster_page(request: web.Request) -> web.Response:
    guard = request.app[GUARD]
    in_table_language(request)
    csrf = session_csrf(request)
    attrs = f' data-csrf="{esc(csrf)}"' if csrf else ""
    return _html(_page(_(pages.ROSTER), "/roster", roster_html(current_roster(request), guard.enabled, csrf),
                       script=guard.enabled, attrs=attrs))


async def post_roster(request: web.Request) -> web.Response:
    data = await change_body(request)
    if isinstance(data, web.Response):
        return data
    names, why = check_roster(data.get("names"))
    if why is not None:
        return _json({"error": why}, status=400)
    return await to_daemon(request, link.roster(names), {"roster": names})
