"""The table's page in a real browser (headless Debian Chromium at phone size) against the real
daemon and `companion web`: the map and the tribe books show what /api/state says, and follow the
game live through the event stream, without a reload. The processes and the browser are started
by tests/web/browser_helpers.py, shared with tools/page_shots.py (the README's screenshots)."""

from __future__ import annotations

import os
import random
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from companion.games.clans.board import COLORS

MISSING = "Debian's chromium and chromium-driver are not installed: .ci/run installs them as root"

try:
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:  # pragma: no cover - selenium is a test dependency
    WebDriverWait = None

from tests.web import browser_helpers as SHOTS  # noqa: E402  (Table, browser: shared with tools/page_shots.py)

pytestmark = pytest.mark.skipif(WebDriverWait is None or not SHOTS.CHROMIUM.exists()
                                or not SHOTS.CHROMEDRIVER.exists(), reason=MISSING)

PAGE_HUTS = "return Object.fromEntries([...document.querySelectorAll('#live g[data-huts]')]" \
            ".map(g => [g.dataset.t, g.dataset.huts]))"
BOOKS = "return [...document.querySelectorAll('#live table.books tbody tr')]" \
        ".map(r => [...r.cells].map(c => c.textContent.trim()))"
TURN = "const h = document.querySelector('#live h2.turn'); return h && h.parentElement.textContent"
# Every label the Clans page shows (territory numbers, hut counts, village epochs), visible ones only, with
# its rendered size in CSS px: the computed font size times the scale from its user units to the screen
# (an SVG text's client rect over its getBBox: viewBox, CSS rotation and all), and its client rect.
LABELS = """
const out = [];
const seen = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility === "visible";
for (const e of document.querySelectorAll("#live text.num, #live text.count, #live text.badge-text, #live .counts b,"
                                          + " #live .counts .hut, #live .counts .vil")) {
  if (!seen(e)) continue;
  const r = e.getBoundingClientRect();
  let px = parseFloat(getComputedStyle(e).fontSize);
  let upright = true;
  if (e instanceof SVGElement) {
    const b = e.getBBox();
    px *= Math.sqrt((r.width * r.height) / (b.width * b.height));
    upright = Math.abs(r.width / r.height - b.width / b.height) < 0.2 * b.width / b.height;
  }
  const g = e.closest("[data-t]");
  out.push({kind: (e.getAttribute("class") || e.tagName.toLowerCase()).split(" ")[0], text: e.textContent, px, upright,
            t: g && g.dataset.t, color: e.dataset.color || (e.getAttribute("fill") || ""),
            rect: [r.left, r.top, r.right, r.bottom]});
}
return out;
"""
READABLE_PX = 12.0  # issue 32: no pinch zoom needed for a territory number or a hut count
LATENCY_BOUND = 2.0  # seconds: a sanity bound only (the web polls the journal a few times a second)


def shots_dir(tmp_path: Path) -> Path:
    out = Path(os.environ.get("COMPANION_SHOTS_DIR") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    return out


def huts_of(state: dict) -> dict[str, str]:
    """/api/state's huts as the map's data-huts: color:count in board color order, "" when empty."""
    return {t: ",".join(f"{c}:{per[c]}" for c in COLORS if per.get(c)) for t, per in state["huts"].items()}


def map_matches(driver, want: dict[str, str]) -> bool:
    shown = driver.execute_script(PAGE_HUTS)
    return bool(shown) and set(want) <= set(shown) and all(v == want.get(t, "") for t, v in shown.items())


def books_of(state: dict) -> list[list[str]]:
    """The cells the books table must show for /api/state's tribes (name, warriors, women, food, fate cards)."""
    return [[t["name"] or t["color"].capitalize(), str(t["warriors"]), str(t["women"]), str(t["food"]),
             str(t["fate_cards"])] for t in state["tribes"]]


def books_match(driver, state: dict) -> bool:
    rows = driver.execute_script(BOOKS)
    shown = [[r[0], r[1], r[2], r[4], r[5]] for r in rows if len(r) == 7]
    turn = driver.execute_script(TURN) or ""
    if state["phase"] == "setup":
        words = ["Setup"]
    else:
        words = [f"Year {state['year']}, {state['season']} turn {state['turn']}", state["phase"].replace("_", " ")]
    return len(rows) == len(state["tribes"]) and shown == books_of(state) and all(w in turn for w in words)


def wait_page(driver, what: str, check, sent: float | None = None) -> float:
    """WebDriverWait until `check(driver)`; the seconds since `sent` (a key write) when it first held."""
    seen: list[float] = []

    def ok(d) -> bool:
        if check(d):
            seen.append(time.monotonic())
            return True
        return False

    WebDriverWait(driver, 15, poll_frequency=0.01).until(ok, f"the page never showed {what}")
    return seen[0] - sent if sent is not None else 0.0


def check_page(driver, name: str, out: Path) -> None:
    """No CSP complaint in the console, no sideways scroll at 360 px; a screenshot for the eye."""
    logs = driver.get_log("browser")
    assert not [e for e in logs if "Content-Security-Policy" in e.get("message", "")], logs
    width = driver.execute_script("return document.documentElement.scrollWidth")
    assert width <= SHOTS.PHONE[0] + 1, f"{name}: the page scrolls sideways ({width} px at 360)"
    assert driver.save_screenshot(str(out / f"browser-{name}.png"))


def report(capsys, text: str) -> None:
    with capsys.disabled():
        print(f"\n{text}")


def test_clans_page_follows_the_live_game(tmp_path, capsys):
    table = SHOTS.Table(tmp_path / "clans")
    driver = None
    try:
        table.clans_start()
        driver = SHOTS.browser(tmp_path / "profile")
        driver.get(table.url + "/")
        assert driver.execute_script("return window.innerWidth") == SHOTS.PHONE[0]
        wait_page(driver, "the journal's huts", lambda d: map_matches(d, huts_of(table.state()["state"])))
        driver.execute_script("window.__marker = 1")
        version = int(driver.execute_script("return document.body.dataset.version"))
        game = table.game()
        frm, to = next((m[0], m[1]) for m in game.legal_moves if not game.isolated_by(m[0], m[1]))
        latencies: dict[str, float] = {}

        def follows(who: str, moves: int):
            def after_write(sent: float) -> None:
                state = table.wait_state(f"move {moves}", lambda s: s["moves"] == moves)
                want = huts_of(state)
                latencies[who] = wait_page(driver, f"the huts after {who}'s move",
                                           lambda d: map_matches(d, want), sent)
            return after_write

        n = table.state()["state"]["moves"]
        table.person_move(frm, to, after=follows("the person", n + 1))
        table.bot_move(after=follows("the bot", n + 2))
        assert driver.execute_script("return window.__marker") == 1, "the page reloaded"
        assert int(driver.execute_script("return document.body.dataset.version")) > version
        assert map_matches(driver, huts_of(table.state()["state"]))
        report(capsys, "clans page latency (key write -> DOM): "
               + ", ".join(f"{who} {s * 1000:.0f} ms" for who, s in latencies.items()))
        assert all(s < LATENCY_BOUND for s in latencies.values()), latencies
        check_page(driver, "phone-clans", shots_dir(tmp_path))
    finally:
        if driver is not None:
            driver.quit()
        table.close()


def test_mammut_books_follow_the_live_game(tmp_path, capsys):
    table = SHOTS.Table(tmp_path / "mammut", "mammut")
    driver = None
    try:
        state = table.mammut_start()
        driver = SHOTS.browser(tmp_path / "profile")
        driver.get(table.url + "/")
        wait_page(driver, "the tribe books", lambda d: books_match(d, table.state()["state"]))
        assert len(driver.execute_script(BOOKS)) == len(state["tribes"]) == 3
        driver.execute_script("window.__marker = 1")
        latencies = []
        for _ in range(2):
            sent, state = table.mammut_advance()
            latencies.append(wait_page(driver, f"phase {state['phase']}",
                                       lambda d: books_match(d, table.state()["state"]), sent))
        assert driver.execute_script("return window.__marker") == 1, "the page reloaded"
        report(capsys, "mammut page latency (key write -> DOM): " + ", ".join(f"{s * 1000:.0f} ms" for s in latencies))
        assert all(s < LATENCY_BOUND for s in latencies), latencies
        check_page(driver, "phone-mammut", shots_dir(tmp_path))
    finally:
        if driver is not None:
            driver.quit()
        table.close()


def test_history_stats_and_roster_pages_at_phone_size(tmp_path):
    """The fixture's journal served by `companion web` (no daemon): /history, /stats and /roster at
    360x740 without sideways scroll or console errors, and the roster form reaching a key socket."""
    import socket
    import subprocess

    from companion.hw.keysocket import KeySocket, RosterUpdate
    from tests.history.fixture import build_journal

    build_journal(tmp_path / "state")
    (tmp_path / "pin").write_text("4711471147\n")
    got: list = []
    sock = KeySocket(str(tmp_path / "keys.sock"), got.append)
    sock.start()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    with open(tmp_path / "web.log", "wb") as out:
        web = subprocess.Popen([sys.executable, "-m", "companion", "web", "--state-dir", str(tmp_path / "state"),
                                "--bind", "127.0.0.1", "--port", str(port), "--pin-file", str(tmp_path / "pin"),
                                "--key-socket", str(tmp_path / "keys.sock")], stdin=subprocess.DEVNULL,
                               stdout=out, stderr=out, cwd=SHOTS.ROOT)
    driver = None
    try:
        SHOTS.wait_for("the page", lambda: web.poll() is None and _answers(url + "/stats"))
        driver = SHOTS.browser(tmp_path / "profile")
        for path, name in (("/stats", "phone-stats"), ("/history", "phone-history"), ("/roster", "phone-roster")):
            driver.get(url + path)
            check_page(driver, name, shots_dir(tmp_path))
            errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"
                      and "favicon" not in e.get("message", "")]
            assert errors == [], (path, errors)
        assert driver.execute_script("return document.querySelectorAll('figure.plot polyline').length") == 0
        driver.get(url + "/stats")
        # one line per person: Anna, Bruno, Carla, Dario (the seats the table names itself are no one)
        assert driver.execute_script("return document.querySelectorAll('figure.plot polyline').length") == 4
        assert driver.execute_script("return document.querySelector('figure.plot svg').getBoundingClientRect()"
                                     ".width") <= SHOTS.PHONE[0]
        driver.get(url + "/roster")
        driver.find_element("id", "pin").send_keys("4711471147\n")
        WebDriverWait(driver, 10).until(lambda d: d.find_element("id", "roster-form").is_displayed())
        box = driver.find_element("id", "roster-text")
        box.clear()
        box.send_keys("Zoe\n\n Yann \n")
        driver.find_element("css selector", "#roster-form button").click()
        WebDriverWait(driver, 10).until(lambda d: "Saved" in d.find_element("id", "roster-status").text)
        assert SHOTS.wait_for("the roster at the socket", lambda: RosterUpdate(("Zoe", "Yann")) in got)
        assert driver.execute_script("return [...document.querySelectorAll('#roster-names li')]"
                                     ".map(li => li.textContent)") == ["Zoe", "Yann"]
        assert not [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"
                    and "favicon" not in e.get("message", "")]
    finally:
        if driver is not None:
            driver.quit()
        web.terminate()
        web.wait(timeout=10)
        sock.close()


def _answers(url: str) -> bool:
    import urllib.request
    from contextlib import suppress

    with suppress(OSError):
        with urllib.request.urlopen(url, timeout=2) as reply:
            return reply.status == 200
    return False


def overlapping(rects: list[list[float]]) -> list[tuple[int, int]]:
    """Pairs of rectangles that overlap by more than 1 px each way."""
    return [(i, j) for i, a in enumerate(rects) for j, b in enumerate(rects[:i])
            if min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1]


def readable_labels(driver, name: str, want: dict[str, str], out: Path) -> dict[str, float]:
    """Every territory number (all 60) and every hut count of `want` (the map's data-huts) shown upright at
    >= READABLE_PX CSS px, nothing shown smaller, territory numbers not on top of each other, no sideways
    scroll; a screenshot of the whole page for the eye. The smallest size of each kind."""
    labels = driver.execute_script(LABELS)
    driver.save_screenshot(str(out / f"browser-{name}-top.png"))
    small = [(x["kind"], x["t"], x["text"], round(x["px"], 1)) for x in labels if x["px"] < READABLE_PX]
    assert not small, f"{name}: {len(small)} labels under {READABLE_PX} px, e.g. {small[:8]}"
    assert all(x["upright"] for x in labels), [x for x in labels if not x["upright"]][:4]
    numbers = {x["text"] for x in labels if x["kind"] == "num"}
    assert numbers == {str(n) for n in range(1, 61)}, f"{name}: territory numbers shown: {sorted(numbers)}"
    shown: dict[str, set[str]] = {}
    for x in labels:
        if x["kind"] in ("count", "hut") and x["t"]:
            shown.setdefault(x["t"], set()).add(f"{x['color']}:{x['text']}")
    for t, huts in want.items():
        got = shown.get(t, set())
        assert got == set(filter(None, huts.split(","))), f"{name}: territory {t} shows {got} for {huts!r}"
    nums = [x["rect"] for x in labels if x["kind"] in ("num", "badge-text")]
    assert not overlapping(nums), f"{name}: map labels overlap: {overlapping(nums)[:5]}"
    width = driver.execute_script("return document.documentElement.scrollWidth")
    assert width <= driver.execute_script("return window.innerWidth"), f"{name}: the page scrolls sideways ({width})"
    SHOTS.shoot(driver, out / f"browser-{name}.png", tuple(driver.execute_script(
        "return [window.innerWidth, window.innerHeight]")))
    return {k: min(x["px"] for x in labels if x["kind"] == k) for k in {x["kind"] for x in labels}}


def test_clans_map_readable_on_phones(tmp_path, capsys):
    """At 360x740 and 412x915 every territory number and every hut count reads at 12 CSS px or more
    without zooming or sideways scroll (issue 32, part 7), on a board in mid-game (a village, territories
    of several colors); at tablet size the map keeps its landscape layout with the counts on it."""
    table = SHOTS.Table(tmp_path / "clans")
    driver = None
    try:
        table.clans_start()
        rnd = random.Random(7)
        for _ in range(40):
            state = table.state()["state"]
            if state["villages"] and max(h.count(":") for h in huts_of(state).values()) >= 2:
                break
            table.random_round(rnd)
        driver = SHOTS.browser(tmp_path / "profile")
        sizes = {}
        for size in ((360, 740), (412, 915)):
            SHOTS.resize(driver, size)
            driver.get(table.url + "/")
            want = huts_of(table.state()["state"])
            wait_page(driver, "the journal's huts", lambda d: map_matches(d, want))
            sizes[size] = readable_labels(driver, f"readable-{size[0]}", want, shots_dir(tmp_path))
        report(capsys, "smallest label (CSS px): " + "; ".join(
            f"{w}x{h}: " + ", ".join(f"{k} {v:.1f}" for k, v in sorted(s.items())) for (w, h), s in sizes.items()))
        SHOTS.resize(driver, SHOTS.TABLET)
        driver.get(table.url + "/")
        wait_page(driver, "the map", lambda d: map_matches(d, huts_of(table.state()["state"])))
        tablet = driver.execute_script(LABELS)
        assert {x["kind"] for x in tablet} >= {"num", "count"} and not [x for x in tablet if x["kind"] == "hut"]
        box = driver.execute_script("return document.querySelector('#live .map svg').getBoundingClientRect()")
        assert box["width"] > box["height"], "the tablet's map is no longer landscape"
        driver.save_screenshot(str(shots_dir(tmp_path) / "browser-readable-tablet.png"))
    finally:
        if driver is not None:
            driver.quit()
        table.close()


MIXED_HUTS = ({}, {"red": 1}, {"green": 4, "blue": 2}, {"red": 1, "blue": 1, "green": 1, "yellow": 1},
              {"red": 9, "blue": 2, "green": 1, "yellow": 3, "black": 12})  # none to two rows of huts


def test_no_map_label_covers_another_whatever_the_villages(tmp_path):
    """Boards no game may reach but every pair of neighbours might, at both phone sizes: each of the 60
    territories a village or not (marks I to IV and the destroyed cross), empty or with one to five colors
    (two rows of huts), drawn at random (seeded); and every territory a village with the widest mark. No
    territory number or village mark covers another: each territory's labels turn upright about its centre,
    whatever they show, and the doubled mark sits on the centre, away from the number under it."""
    from types import SimpleNamespace

    from companion.games.clans import web as clans_web
    from companion.games.clans.board import load_board

    board = load_board()
    css = ((Path(clans_web.__file__).resolve().parents[2] / "web" / "static" / "style.css").read_text()
           + (Path(clans_web.__file__).parent / "page.css").read_text())  # the shared rules, then Clans' own
    rnd = random.Random(32)
    boards = []
    for k in range(8):
        huts = {n: rnd.choice(MIXED_HUTS) for n in board.territories}
        villages = [SimpleNamespace(territory=n, destroyed=rnd.random() < 0.2, epoch=rnd.randint(1, 4))
                    for n in board.territories if rnd.random() < 0.5]
        boards.append((huts, villages))
    boards.append(({n: MIXED_HUTS[3] for n in board.territories},
                   [SimpleNamespace(territory=n, destroyed=False, epoch=3) for n in board.territories]))
    driver = SHOTS.browser(tmp_path / "profile")
    try:
        for size in ((360, 740), (412, 915)):
            SHOTS.resize(driver, size)
            for k, (huts, villages) in enumerate(boards):
                game = SimpleNamespace(board=board, villages=villages, moves=[], huts=huts.__getitem__)
                page = tmp_path / "map.html"
                page.write_text('<!doctype html><html><head><meta name="viewport" content="width=device-width,'
                                f' initial-scale=1"><style>{css}</style></head><body><main id="live">'
                                f'<div class="map">{clans_web._map(game)}</div></main></body></html>')
                driver.get(page.as_uri())
                labels = [x for x in driver.execute_script(LABELS) if x["kind"] in ("num", "badge-text")]
                assert len(labels) == 60 + len(villages), (size, k, len(labels))
                pairs = [(labels[i]["t"], labels[j]["t"]) for i, j in overlapping([x["rect"] for x in labels])]
                assert not pairs, f"{size}, board {k}: labels of these territories overlap: {pairs[:6]}"
    finally:
        driver.quit()


# Tap the map (issue 43, item 7): each territory's tap target at the page's size, as the finger finds it: the
# widest circle about its centre (its labels' centre) whose every point hits that territory (32 points a ring,
# rings 0.5 px apart), in CSS px; and the centre, to tap there.
TAP_TARGETS = """
const out = {};
const hits = (x, y, n) => { const e = document.elementFromPoint(x, y); const t = e && e.closest("[data-tap]");
                            return !!t && t.dataset.tap === n; };
for (const g of document.querySelectorAll("#live [data-tap]")) {
  const n = g.dataset.tap;
  const a = document.querySelector(`#live .labels[data-t="${n}"] rect.anchor`).getBoundingClientRect();
  const x = (a.left + a.right) / 2, y = (a.top + a.bottom) / 2;
  let r = hits(x, y, n) ? 0 : -1;
  for (let next = 0.5; r >= 0 && next <= 40; next += 0.5) {
    let all = true;
    for (let k = 0; k < 32 && all; k++) {
      all = hits(x + next * Math.cos(k * Math.PI / 16), y + next * Math.sin(k * Math.PI / 16), n);
    }
    if (!all) break;
    r = next;
  }
  out[n] = {r, x, y};
}
return out;
"""
TAP_PX = 24.0  # a finger's target (WCAG 2.5.8's 24 CSS px): across, on a 360 px phone
SPY = """window.__sent = []; const send = window.fetch;
window.fetch = function (url, init) { if (String(url).includes("/api/keys")) window.__sent.push(init.body);
                                      return send.apply(this, arguments); };"""


@contextmanager
def page_with_socket(tmp_path, state):
    """The real page on `state` with the PIN 4711471147 and a key socket that collects what it is sent,
    and a phone-sized browser: (web, driver, what the socket got)."""
    from companion.hw.keysocket import KeySocket
    from tests.web.realweb import RealWeb

    (tmp_path / "pin").write_text("4711471147\n")
    got: list = []
    sock = KeySocket(str(tmp_path / "keys.sock"), got.append)
    sock.start()
    driver = None
    web = RealWeb(state, "--pin-file", str(tmp_path / "pin"), "--key-socket", str(tmp_path / "keys.sock"))
    try:
        driver = SHOTS.browser(tmp_path / "profile")
        yield web, driver, got
    finally:
        if driver is not None:
            driver.quit()
        web.stop()
        sock.close()


def tap(driver, x: float, y: float) -> None:
    """A click at (x, y) of the viewport, where a finger would land (the browser finds what is there)."""
    from selenium.webdriver.common.actions.action_builder import ActionBuilder

    actions = ActionBuilder(driver)
    actions.pointer_action.move_to_location(round(x), round(y)).click()
    actions.perform()


def test_tap_the_map_types_the_move_with_the_pin(tmp_path, capsys):
    """At 360x740: every territory takes a tap 24 CSS px across or more. Without the PIN two taps send
    nothing and mark nothing; with it the first marks the territory, a tap on it again unmarks it, a tap on
    another sends through /api/keys exactly what data-tap-keys says, and the kiosk, given those keys, shows
    the move entry as after typing the two numbers on the keypad; the page's # plays the move."""
    import json

    from tests.web.webtools import table as kiosk

    game_args = ("--players", "2", "--seed", "3")  # two persons: the map is tapped at every turn
    for side in ("a", "b"):
        (tmp_path / side).mkdir()
    d = kiosk(tmp_path / "a" / "state", *game_args)
    typed = kiosk(tmp_path / "b" / "state", *game_args)  # the same game, typed on the keypad
    game = d.shell.game.game
    frm = game.movable()[0]
    to = game.targets(frm)[0]
    with page_with_socket(tmp_path, tmp_path / "a" / "state") as (web, driver, got):
        driver.get(f"http://127.0.0.1:{web.port}/")
        WebDriverWait(driver, 15).until(lambda d: len(d.find_elements("css selector", "#live [data-tap]")) == 60)
        driver.execute_script("document.querySelector('#live .board').scrollIntoView()")
        targets = driver.execute_script(TAP_TARGETS)
        smallest = min(targets.items(), key=lambda item: item[1]["r"])
        report(capsys, f"tap the map at 360 px: the smallest tap target is territory {smallest[0]}, "
                       f"{2 * smallest[1]['r']:.0f} CSS px across")
        assert len(targets) == 60 and 2 * smallest[1]["r"] >= TAP_PX, smallest
        assert all(0 < t["y"] < SHOTS.PHONE[1] for t in targets.values())

        def tap_on(n: int) -> None:  # at its centre, the map in view (typing the PIN scrolled the page)
            x, y = driver.execute_script(
                "document.querySelector('#live .board').scrollIntoView();"
                f"const a = document.querySelector('#live .labels[data-t=\"{n}\"] rect.anchor')"
                ".getBoundingClientRect(); return [(a.left + a.right) / 2, (a.top + a.bottom) / 2]")
            tap(driver, x, y)

        def picked():
            return driver.execute_script("const t = document.querySelector('#live .tap-picked');"
                                         "return t && Number(t.dataset.tap)")

        driver.execute_script(SPY)
        polygon = f"document.querySelector('#live [data-tap=\"{frm}\"] polygon')"
        assert driver.execute_script(f"return getComputedStyle({polygon}).cursor") == "auto"
        tap_on(frm), tap_on(to)
        assert picked() is None and driver.execute_script("return window.__sent") == []
        driver.find_element("id", "pin").send_keys("4711471147\n")
        WebDriverWait(driver, 10).until(lambda d: d.find_element("id", "keypad").is_displayed())
        assert driver.execute_script(f"return getComputedStyle({polygon}).cursor") == "pointer"
        tap_on(frm)
        assert picked() == frm
        driver.save_screenshot(str(shots_dir(tmp_path) / "browser-tap-picked.png"))
        tap_on(frm)
        assert picked() is None
        tap_on(frm)
        tap_on(to)
        assert picked() is None
        keys = SHOTS.wait_for("the taps' keys at the socket", lambda: [k for k in got if isinstance(k, str)])
        assert [json.loads(body) for body in driver.execute_script("return window.__sent")] == [{"keys": "".join(keys)}]
        assert "".join(keys) == f"**{frm}#{to}"  # BACK twice (nothing half typed stays), then FROM # TO
        for key in keys:
            d.step(key)
        for key in f"{frm}#{to}":
            typed.step(key)
        assert d.shell.screen() == typed.shell.screen() and f"{frm} -> {to}" in d.shell.screen().entry
        driver.find_element("css selector", '#keypad button[data-key="#"]').click()  # the page's #
        SHOTS.wait_for("the page's #", lambda: [k for k in got if isinstance(k, str)][len(keys):] == ["#"])
        d.step("#")
        assert game.ply == 1
        WebDriverWait(driver, 15).until(lambda d: d.execute_script(
            "return document.querySelector('#live line.last-move')") is not None)
        assert picked() is None and len(driver.find_elements("css selector", "#live [data-tap]")) == 60
        check_page(driver, "tap-the-map", shots_dir(tmp_path))



def test_the_cameras_corners_are_tapped_on_its_picture_with_the_pin(tmp_path):
    """At 360x740: /camera shows no picture without the PIN; with it, the camera's picture (written
    beside the key socket, larger than the phone) fits the screen, four taps mark the corners 1-4, and
    Save sends them in the picture's own pixels (a tap a quarter across a 1200 px picture is x 300)."""
    from PIL import Image

    from companion.hw.keysocket import CameraCorners
    from companion.table import pagelink as link
    from tests.web.webtools import table as kiosk

    kiosk(tmp_path / "state", "--players", "2", "--seed", "3")
    Image.new("RGB", (1200, 900), (30, 120, 60)).save(tmp_path / link.CAMERA_FRAME, "JPEG")
    with page_with_socket(tmp_path, tmp_path / "state") as (web, driver, got):
        driver.get(f"http://127.0.0.1:{web.port}/camera")
        assert not driver.find_element("id", "camera-form").is_displayed()
        driver.find_element("id", "pin").send_keys("4711471147\n")  # the page reloads with the session
        WebDriverWait(driver, 15).until(lambda d: d.execute_script(
            "const p = document.getElementById('camera-picture'); return p && p.complete && p.naturalWidth"))
        box = driver.execute_script("document.getElementById('camera-picture').scrollIntoView();"
                                    "const r = document.getElementById('camera-picture').getBoundingClientRect();"
                                    "return [r.left, r.top, r.width, r.height]")
        assert box[2] <= SHOTS.PHONE[0] and abs(box[2] / box[3] - 1200 / 900) < 0.02  # it fits, unstretched
        taps = [(0.25, 0.2), (0.75, 0.2), (0.75, 0.8), (0.25, 0.8)]
        save = driver.find_element("id", "camera-save")
        for i, (fx, fy) in enumerate(taps):
            assert not save.is_enabled()
            tap(driver, box[0] + fx * box[2], box[1] + fy * box[3])
        assert len(driver.find_elements("css selector", "#camera-taps .corner")) == 4 and save.is_enabled()
        save.click()
        SHOTS.wait_for("the corners at the socket", lambda: [e for e in got if isinstance(e, CameraCorners)])
        sent = [e for e in got if isinstance(e, CameraCorners)][0].corners
        want = [v for fx, fy in taps for v in (fx * 1200, fy * 900)]
        assert all(abs(a - b) <= 1200 / box[2] + 1 for a, b in zip(sent, want)), (sent, want)  # a CSS px at most
        WebDriverWait(driver, 10).until(lambda d: d.find_element("id", "camera-status").text.startswith("Sent"))
        check_page(driver, "camera-corners", shots_dir(tmp_path))

