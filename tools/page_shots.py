"""Screenshots of the table's page, made by the program itself: `python tools/page_shots.py OUTDIR`.

Starts the real daemon (`companion run --display dummy`: Clans, 3 players, seats 2-3 bots) and
`companion web` on a free local port, plays through the key socket until a village stands, and
photographs the page in headless Debian Chromium: OUTDIR/phone-clans.png (360 px, whole page),
tablet-clans.png (1024x768), phone-replay.png (/replay/1?step=3), then phone-mammut.png from a
Mammut game. The helpers (tests/web/browser_helpers.py) are shared with tests/web/test_browser.py.
"""

import random
import sys
import tempfile
from contextlib import closing
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "web"))

from browser_helpers import PHONE, TABLET, Table, browser, shoot, wait_for  # noqa: E402


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
        finally:
            driver.quit()
    print("\n".join(str(out / f"{n}.png") for n in ("phone-clans", "tablet-clans", "phone-mammut", "phone-replay")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
