"""Screenshots of the table's page, made by the program itself: `python tools/page_shots.py OUTDIR`.

Starts the real daemon (`companion run --display dummy`: Clans, 3 players, seats 2-3 bots) and
`companion web` on a free local port, plays through the key socket until a village stands, and
photographs the page in headless Debian Chromium: OUTDIR/phone-clans.png (360 px, whole page),
tablet-clans.png (1024x768), phone-replay.png (/replay/1?step=3), then phone-mammut.png from a
Mammut game, and phone-history.png and phone-stats.png from the hand-written club journal of the
history tests (tests/history/fixture.py) served by `companion web` alone. The helpers (tests/web/browser_helpers.py) are shared with tests/web/test_browser.py.
"""

import random
import socket
import subprocess
import sys
import tempfile
import urllib.request
from contextlib import closing
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "web"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "history"))

from browser_helpers import PHONE, ROOT, TABLET, Table, browser, shoot, wait_for  # noqa: E402
from fixture import build_journal  # noqa: E402


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as answer:
            return answer.status == 200
    except OSError:
        return False


def club_shots(driver, tmp: Path, out: Path) -> None:
    """/history and /stats of the history tests' club journal, served by `companion web` alone."""
    build_journal(tmp / "club")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    web = subprocess.Popen([sys.executable, "-m", "companion", "web", "--state-dir", str(tmp / "club"), "--bind",
                            "127.0.0.1", "--port", str(port)], stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    try:
        wait_for("the page", lambda: web.poll() is None and _answers(url + "/stats"))
        for path, name in (("/history", "phone-history"), ("/stats", "phone-stats")):
            driver.get(url + path)
            shoot(driver, out / f"{name}.png", PHONE)
    finally:
        web.terminate()
        web.wait(10)


def main(argv: list[str] | None = None) -> int:
    out = Path((argv if argv is not None else sys.argv[1:])[0])
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        driver = browser(Path(tmp) / "profile")
        try:
            with closing(Table(Path(tmp) / "clans")) as table:
                table.clans_start()
                rnd = random.Random(7)
                while not table.state()["state"]["villages"]:
                    table.random_round(rnd)
                driver.get(table.url + "/")
                wait_for("the map", lambda: driver.find_elements("css selector", "g[data-t]"))
                shoot(driver, out / "phone-clans.png", PHONE)
                shoot(driver, out / "tablet-clans.png", TABLET, full=False)
                driver.get(table.url + "/replay/1?step=3")
                shoot(driver, out / "phone-replay.png", PHONE)
            with closing(Table(Path(tmp) / "mammut", "mammut")) as table:
                table.mammut_start()
                while table.state()["state"]["phase"] in ("setup", "new_animals"):
                    table.mammut_advance()
                driver.get(table.url + "/")
                wait_for("the books", lambda: driver.find_elements("css selector", "table.books tbody tr"))
                shoot(driver, out / "phone-mammut.png", PHONE)
            club_shots(driver, Path(tmp), out)
        finally:
            driver.quit()
    print("\n".join(str(out / f"{n}.png") for n in ("phone-clans", "tablet-clans", "phone-mammut", "phone-replay",
                                                  "phone-history", "phone-stats")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
