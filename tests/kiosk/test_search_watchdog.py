"""A bot's search or a hint never starves the systemd watchdog: it runs on a worker thread
while the loop keeps pinging (issue 11 item 6)."""

from __future__ import annotations

import os
import socket
import threading

from companion.kiosk import daemon
from companion.games.clans.game import Move


class Watchdog:
    """The notify socket's side: counts WATCHDOG=1 pings as they arrive."""

    def __init__(self, path: str) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(path)
        self.sock.settimeout(0.05)
        self.pings = 0
        self.changed = threading.Condition()
        self.stop = False
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        while not self.stop:
            try:
                data = self.sock.recv(4096)
            except socket.timeout:
                continue
            if b"WATCHDOG=1" in data.split(b"\n"):
                with self.changed:
                    self.pings += 1
                    self.changed.notify_all()

    def wait_pings(self, n: int, timeout: float) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: self.pings >= n, timeout)

    def close(self) -> None:
        self.stop = True
        self.thread.join()
        self.sock.close()


class PatientSearcher:
    """A search that ends only once the watchdog has been fed twice while it runs."""

    name = "patient"

    def __init__(self, dog: Watchdog) -> None:
        self.dog = dog
        self.fed_while_searching: bool | None = None

    def run(self, effect) -> Move:
        target = self.dog.pings + 2
        self.fed_while_searching = self.dog.wait_pings(target, timeout=10)
        game = effect.position
        return Move(*next(iter(game.legal_moves))[:2])


def test_a_long_hint_search_keeps_feeding_the_watchdog(tmp_path, monkeypatch, caplog):
    dog = Watchdog(str(tmp_path / "notify"))
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "notify"))
    monkeypatch.setenv("WATCHDOG_USEC", "200000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    keys = tmp_path / "k"
    keys.write_text("D3#")  # the menu's Hint
    try:
        d = daemon.build(daemon.parse_args(["--display", "dummy", "--players", "2", "--seed", "1",
                                            "--keys", str(keys)]))
        searcher = PatientSearcher(dog)
        d.searchers["clans"] = searcher
        caplog.set_level("INFO", logger="companion.run")
        assert d.run() == 0
    finally:
        dog.close()
    assert searcher.fed_while_searching is True
    assert any(m.startswith("hint for P") for m in caplog.messages)
    assert d.shell.screen().name == "hint"


def test_a_search_that_raises_is_logged_and_the_loop_goes_on(tmp_path, caplog):
    class Broken:
        name = "broken"

        def run(self, effect):
            raise RuntimeError("search exploded")

    keys = tmp_path / "k"
    keys.write_text("D3#")
    d = daemon.build(daemon.parse_args(["--display", "dummy", "--players", "2", "--seed", "1", "--keys", str(keys)]))
    d.searchers["clans"] = Broken()
    assert d.run() == 0
    assert any("hint for P1 failed" in r.getMessage() and "search exploded" in (r.exc_text or "")
               for r in caplog.records)
