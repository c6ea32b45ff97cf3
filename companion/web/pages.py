"""The table's page as HTML: the live page, the games list, a replay step, the plain messages, the links between them.

Every page links one stylesheet and (the live page only) one script, both served by the
box; no inline script or style (the Content-Security-Policy forbids them). Text is in
the table's language; everything inserted is escaped (companion.table.gameweb.esc). The
live page works without its script too: it shows the game as it was when loaded.
"""

from __future__ import annotations

import functools
import time

from companion import i18n
from companion.games import GAMES
from companion.journal.reader import GameRows
from companion.i18n import N_, _
from companion.table.gameweb import esc, table, tag

# NOTE: the table's page: the window title and heading
TITLE = N_("The table")
# NOTE: the table's page: link to the list of games to replay
REPLAYS = N_("Replays")
# NOTE: the table's page: back to the live game
LIVE = N_("Live game")
# NOTE: the table's page: status line while the page follows the game
FOLLOWING = N_("Following the game live.")
# NOTE: the table's page: status line while the box cannot be reached
RECONNECTING = N_("The box cannot be reached: trying again...")
# NOTE: the table's page: the PIN form (only when a PIN is set)
PIN_LABEL, PIN_BUTTON = N_("PIN"), N_("Unlock the keypad")
# NOTE: the table's page: the keypad on a phone, after the PIN
KEYPAD = N_("Keypad (as at the table)")
# NOTE: the table's page: the games list: column headings
GAME, STARTED, STATE = N_("Game"), N_("Started"), N_("State")
# NOTE: the table's page: a game's state in the games list
FINISHED, ABANDONED, PLAYING = N_("finished"), N_("abandoned"), N_("in progress")
# NOTE: the table's page: replay navigation
FIRST, PREVIOUS, NEXT, LAST = N_("Start"), N_("Back"), N_("Forward"), N_("End")
# NOTE: the table's page: a replay: {step} of {steps}
STEP_OF = N_("Step {step} of {steps}")
# NOTE: the table's page: link that downloads a game's record (a JSON file)
DOWNLOAD = N_("Download the record")
# NOTE: the table's page: heading of a replay's list of moves
MOVE_LIST = N_("Moves")
# NOTE: the table's page: navigation link to the finished games
HISTORY = N_("History")
# NOTE: the table's page: navigation link to the statistics
STATS = N_("Statistics")
# NOTE: the table's page: navigation link to the players' names (the roster)
ROSTER = N_("Players")
# NOTE: the table's page: a link that opens the BG Stats app on a finished game, filled in
ADD_TO_BGSTATS = N_("Add to BG Stats")
# NOTE: the table's page: a phone beyond the cap on viewers
TOO_MANY = N_("Too many viewers: {n} phones are watching already. Close the page on another one, then reload.")


@functools.cache
def footer() -> str:
    """Which version the box runs (and, on the SD-card image, the image's version and date)."""
    from companion.box.about import about_line, read_about

    return f'<footer class="about">{esc(about_line(read_about()))}</footer>'


def document(title: str, body: str, script: bool = False, attrs: str = "") -> str:
    """A whole HTML page around `body` (already HTML), the box's versions at its foot."""
    js = '<script src="/static/page.js" defer></script>' if script else ""
    return (f'<!doctype html><html lang="{esc(i18n.language())}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{esc(title)}</title><link rel="stylesheet" href="/static/style.css">{js}</head>'
            f"<body{attrs}>{body}{footer()}</body></html>")


def _nav(*links: tuple[str, str]) -> str:
    return tag("nav", " ".join(tag("a", esc(text), href=href) for href, text in links))


def site_nav(here: str = "", *extra: tuple[str, str]) -> str:
    """The links between the page's parts (live, replays, history, statistics, players); `here` is left out."""
    links = [("/", _(LIVE)), ("/games", _(REPLAYS)), ("/history", _(HISTORY)), ("/stats", _(STATS)),
             ("/roster", _(ROSTER))]
    return _nav(*[(h, t) for h, t in links if h != here], *extra)


def bgstats_link(url: str) -> str:
    """The "Add to BG Stats" link of a finished game (the phone hands the play to the app)."""
    return tag("a", esc(_(ADD_TO_BGSTATS)), href=url, rel="noopener noreferrer", cls="button bgstats")


def game_title(kind: str) -> str:
    entry = GAMES.get(kind)
    return entry.title if entry is not None else kind


def pin_form(hidden: bool = False) -> str:
    """The PIN form (page.js logs in with it and unhides what the PIN unlocks)."""
    return tag("form", tag("label", esc(_(PIN_LABEL)), for_="pin")
               + '<input id="pin" name="pin" type="password" inputmode="numeric" autocomplete="off" '
                 'maxlength="12" required>' + tag("button", esc(_(PIN_BUTTON)), type="submit"), id="login",
               hidden="hidden" if hidden else None)


def live_page(html: str, version: int, kind: str | None, pin: bool) -> str:
    """The live page: the game's fragment now, then the script follows it (and the keypad with a PIN)."""
    heading = tag("h1", esc(f"{game_title(kind)} - {_(TITLE)}" if kind else _(TITLE)), id="title")
    status = tag("p", "", id="status", role="status", data_following=_(FOLLOWING), data_reconnecting=_(RECONNECTING))
    body = tag("header", heading + site_nav("/") + status) + tag("main", html, id="live")
    if pin:
        keys = "".join(tag("button", esc(k), type="button", data_key=k) for k in "123A456B789C*0#D")
        form = (pin_form()
                + tag("div", keys, id="keypad", hidden="hidden", role="group", aria_label=_(KEYPAD))
                + tag("p", "", id="keys-status", role="status"))
        body += tag("section", tag("h2", esc(_(KEYPAD))) + form, id="controls")
    return document(_(TITLE), body, script=True, attrs=f' data-version="{version}"')


def message_page(title: str, lines: list[str], live_link: bool = True) -> str:
    """A plain page that says what happened and what to do (never a traceback)."""
    body = tag("h1", esc(title)) + "".join(tag("p", esc(line)) for line in lines)
    if live_link:
        body += site_nav()
    return document(title, tag("main", body))


def too_many_page(cap: int) -> str:
    return message_page(_(TITLE), [_(TOO_MANY).format(n=cap)], live_link=False)


def _when(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(seconds)) if seconds else "-"


def games_page(games: list[GameRows]) -> str:
    rows = []
    for g in games:
        state = _(ABANDONED) if g.abandoned else _(FINISHED) if g.finished is not None else _(PLAYING)
        rows.append([tag("a", esc(f"#{g.game_id} {game_title(g.kind)}"), href=f"/replay/{g.game_id}"),
                     esc(_when(g.started)), esc(state)])
    games_table = table([esc(_(h)) for h in (GAME, STARTED, STATE)], rows, cls="games")
    body = tag("header", tag("h1", esc(_(REPLAYS))) + site_nav("/games")) + tag("main", games_table)
    return document(_(REPLAYS), body)


def replay_page(game_id: int, kind: str, steps: list[str], k: int, html: str) -> str:
    """Step `k` of a game's replay: navigation, the game then, the move list, the record."""
    n = len(steps)
    here = f"/replay/{game_id}"
    nav = [(f"{here}?step=0", _(FIRST)), (f"{here}?step={max(0, k - 1)}", _(PREVIOUS)),
           (f"{here}?step={min(n, k + 1)}", _(NEXT)), (f"{here}?step={n}", _(LAST))]
    moves = "".join(tag("li", tag("a", esc(label), href=f"{here}?step={i}",
                                  aria_current="step" if i == k else None)) for i, label in enumerate(steps, 1))
    body = (tag("header", tag("h1", esc(f"#{game_id} {game_title(kind)}"))
                + site_nav("", (f"/api/record/{game_id}", _(DOWNLOAD))))
            + tag("p", esc(_(STEP_OF).format(step=k, steps=n)), cls="step")
            + tag("nav", " ".join(tag("a", esc(t), href=h, cls="button") for h, t in nav), cls="steps")
            + tag("main", html) + tag("h2", esc(_(MOVE_LIST))) + tag("ol", moves, cls="moves"))
    return document(f"#{game_id} {game_title(kind)}", body)
