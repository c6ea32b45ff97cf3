"""Starts the table for a browser: the real daemon (`companion run --display dummy`) and `companion web`
on a free local port, keys through the daemon's key socket, and headless Debian Chromium at a phone's
size. Shared by tests/web/test_browser.py and tools/page_shots.py (the README's screenshots)."""

import json
import random
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import nullcontext, suppress
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
PHONE, TABLET = (360, 740), (1024, 768)
CLANS = ["--players", "3", "--bots", "2,3", "--seed", "4", "--bot-iterations", "100"]  # the same game every run
MAMMUT_SETUP = "3#B##2#1#2#"  # 3 tribes, the defaults, then the first phase


def wait_for(what: str, check: Callable[[], Any], timeout: float = 20.0, every: float = 0.02) -> Any:
    """Poll `check` until it returns something true; fail with `what` after `timeout` seconds."""
    end = time.monotonic() + timeout
    while not (value := check()):
        if time.monotonic() > end:
            raise TimeoutError(f"timed out waiting for {what}")
        time.sleep(every)
    return value


class Table:
    """`companion run` and `companion web` on one state dir in `work`; keys go through the key socket."""

    def __init__(self, work: Path, game: str = "clans") -> None:
        work.mkdir(parents=True, exist_ok=True)
        state, self.sock, self.run_log, self.web_log = (work / n for n in ("state", "keys.sock", "run.log", "web.log"))
        with socket.socket() as s:  # a free port
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.url, self.bots_played, self.procs, self.kind = f"http://127.0.0.1:{port}", 0, [], game
        self.link: socket.socket | None = None
        common = [sys.executable, "-m", "companion"], ["--state-dir", str(state), "--key-socket", str(self.sock)]
        try:
            for argv, log in ((["run", "--display", "dummy", "--game", game] + (CLANS if game == "clans" else []),
                               self.run_log), (["web", "--bind", "127.0.0.1", "--port", str(port)], self.web_log)):
                with open(log, "wb") as out:
                    self.procs.append(subprocess.Popen(common[0] + argv + common[1], stdin=subprocess.DEVNULL,
                                                       stdout=out, stderr=out, cwd=ROOT))
            wait_for("the key socket", self.sock.exists)
            wait_for("the page's /api/state", self._answers)
        except BaseException:
            self.close()
            raise

    def _answers(self) -> bool:  # Mammut starts at its questions: no game in the journal yet
        if any(p.poll() is not None for p in self.procs):
            raise RuntimeError(f"a process exited: {self.logs()}")
        with suppress(OSError):
            return "game" in self.state() or self.kind != "clans"
        return False

    def get(self, path: str) -> str:  # the body, also of an error
        try:
            with urllib.request.urlopen(self.url + path, timeout=5) as reply:
                return reply.read().decode()
        except urllib.error.HTTPError as e:
            return e.read().decode()

    def state(self) -> dict:
        return json.loads(self.get("/api/state"))

    def keys(self, text: str) -> float:
        """Send `text` (one key a char) to the daemon; the monotonic time just after the write.
        One connection for every send, as the page keeps: the daemon serves each connection in a
        thread of its own, so keys sent on two connections could be handled in either order (on a
        loaded machine the "*" closing a result screen came after the "#" meant for the bot)."""
        if self.link is None:
            self.link = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.link.connect(str(self.sock))
        self.link.sendall((json.dumps({"keys": list(text)}) + "\n").encode())
        return time.monotonic()

    def wait_state(self, what: str, check: Callable[[dict], bool], timeout: float = 20.0) -> dict:
        """/api/state's "state" once `check` holds for it."""
        return wait_for(what, lambda: (st := self.state().get("state")) is not None and check(st) and st, timeout)

    def logs(self) -> str:
        return "".join(p.read_text(errors="replace")[-3000:] for p in (self.run_log, self.web_log) if p.exists())

    def close(self) -> None:
        if self.link is not None:
            self.link.close()
        for p in self.procs:
            p.terminate()
        for p in self.procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill(), p.wait(timeout=10)

    def clans_start(self) -> dict:
        """Past the private deal of colors to the person's first move: "#" shows P1 its color, "#" ready,
        then the setup walkthrough a table shows whichever way a game starts (14 pages, "#" each)."""
        self.keys("##" + "#" * 14)
        return self.wait_state("the first move", lambda s: s["mode"] == "move")

    def game(self) -> Any:
        from companion.games.clans.record import Record
        return Record.from_json(self.get(f"/api/record/{self.state()['game_id']}")).play()

    def person_move(self, frm: int, to: int, after: Callable[[float], None] | None = None) -> float:
        """Type a move ("12#13#"); `after(t)` runs just after the write at time t; t."""
        return self._play(f"{frm}#{to}#", after)

    def _play(self, keys: str, after: Callable[[float], None] | None) -> float:
        n = self.state()["state"]["moves"]
        while True:
            # A key typed before a confirmation screen shows is dropped on purpose (the daemon logs
            # the bot's move before it draws the screen that asks for "#"): type it again then.
            dropped = self.run_log.read_text().count(" dropped: pressed before")
            sent = self.keys(keys)
            wait_for(f"move {n + 1} or a dropped key", lambda: self.state()["state"]["moves"] == n + 1
                     or self.run_log.read_text().count(" dropped: pressed before") > dropped)
            if self.state()["state"]["moves"] == n + 1:
                break
        if after is not None:
            after(sent)
        self.wait_state(f"move {n + 1}", lambda s: s["moves"] == n + 1)
        self.keys("*")  # closes the move's result screen (every page of it: "#" would turn a page)
        return sent

    def bot_move(self, after: Callable[[float], None] | None = None) -> float:
        """Wait for the bot's proposal (in the daemon's log), play it with "#"; `after` as in person_move."""
        wait_for("the bot's proposal", lambda: self.run_log.read_text().count('"a":"bot"') > self.bots_played)
        self.bots_played += 1
        return self._play("#", after)

    def random_round(self, rnd: random.Random) -> None:
        """The person's random legal move (founding at most one village: no order question), then the bots'."""
        game = self.game()
        moves = [(m[0], m[1]) for m in game.legal_moves if len(game.isolated_by(m[0], m[1])) <= 1]
        self.person_move(*rnd.choice(moves))
        while not self.state()["state"]["mode"] == "move" and not self.state()["finished"]:
            self.bot_move()

    def mammut_start(self) -> dict:
        self.keys(MAMMUT_SETUP)
        return self.wait_state("the Mammut game", lambda s: bool(s.get("tribes")))

    def mammut_advance(self) -> tuple[float, dict]:
        """"#" until the journal takes a step (the first "#" may only close a message); time, new state.
        A slow step can make a "#" sent again step twice: the caller compares the page with the newest state."""
        before = self.state()["state"]["entries"]
        for tries in range(3):
            with suppress(TimeoutError) if tries < 2 else nullcontext():
                return self.keys("#"), self.wait_state("a Mammut step", lambda s: s["entries"] > before, 6.0)
        raise AssertionError("unreachable")


def browser(profile: Path, size: tuple[int, int] = PHONE) -> Any:
    """Headless Debian Chromium through chromedriver (no selenium-manager, no network), at `size`."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--user-data-dir={profile}", f"--window-size={size[0]},{size[1]}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
    resize(driver, size)
    return driver


def resize(driver: Any, size: tuple[int, int]) -> None:
    """The viewport as a device of `size` (below 600 px wide a phone: mobile metrics, the viewport meta)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": size[0] < 600})


def shoot(driver: Any, path: Path, size: tuple[int, int], full: bool = True) -> None:
    """A screenshot at `size`; with `full` the viewport grows to the page's whole height first."""
    resize(driver, size)
    if full:
        resize(driver, (size[0], max(size[1], driver.execute_script("return document.documentElement.scrollHeight"))))
    driver.save_screenshot(str(path))
    resize(driver, size)
