"""The table's page in a real browser (headless Debian Chromium at phone size) against the real
daemon and `companion web`: the map and the tribe books show what /api/state says, and follow the
game live through the event stream, without a reload. The processes and the browser are started
by tests/web/browser_helpers.py, shared with tools/page_shots.py (the README's screenshots)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from companion.games.clans.board import COLORS

MISSING = "Debian's chromium and chromium-driver are not installed: .ci/run installs them as root"

try:
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:  # pragma: no cover - selenium is a test dependency
    WebDriverWait = None

sys.path.insert(0, str(Path(__file__).resolve().parent))
import browser_helpers as SHOTS  # noqa: E402  (Table, browser: shared with tools/page_shots.py)

pytestmark = pytest.mark.skipif(WebDriverWait is None or not SHOTS.CHROMIUM.exists()
                                or not SHOTS.CHROMEDRIVER.exists(), reason=MISSING)

PAGE_HUTS = "return Object.fromEntries([...document.querySelectorAll('#live g[data-t]')]" \
            ".map(g => [g.dataset.t, g.dataset.huts]))"
BOOKS = "return [...document.querySelectorAll('#live table.books tbody tr')]" \
        ".map(r => [...r.cells].map(c => c.textContent.trim()))"
TURN = "const h = document.querySelector('#live h2.turn'); return h && h.parentElement.textContent"
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
            latencies.append(wait_page(driver, f"phase {state['phase']}", lambda d: books_match(d, state), sent))
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
        assert driver.execute_script("return document.querySelectorAll('figure.plot polyline').length") == 7
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
