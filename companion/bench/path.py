"""The whole path of a key on the box, stage by stage, for `companion bench`.

Scripted whole games of both games go through the real daemon loop (`Daemon.step`): the
shell and the game, the journal (SQLite, WAL, synchronous=FULL: a real fsync in a state
directory on the filesystem given, the screen still confirming only what is durable),
the screen's rendering, the panel (brightness, idle dim, pixel shift) and the display
sink down to the bytes handed to the display driver: the real luma.oled `ssd1306`
class on a counting fake I2C bus (companion.hw.fake_oled; luma drives it as it drives the
box's /dev/i2c-1, display data in single large transfers), behind the windowed writer
that sends only what changed (companion.hw.oled_window). Each stage is timed by
wrapping the one call that does it; `key_to_bus` is the whole `step`. The yardstick,
`full_frame_bytes`, is what luma's own `display()` sends for one frame on that bus.
"""

from __future__ import annotations

import gc
import random
import resource
import tempfile
import time
from typing import Any, Callable

STAGES = ("game", "journal", "screen", "render", "panel", "bus")
BOT_ITERATIONS = 200  # the memory run's bot: a fixed search, so the run does not depend on the clock


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


class Stopwatch:
    """Seconds spent in each stage during the current key, and the per-key totals kept."""

    def __init__(self) -> None:
        self.now: dict[str, float] = {}
        self.kept: dict[str, list[float]] = {s: [] for s in STAGES}

    def wrap(self, owner: Any, name: str, stage: str) -> None:
        inner: Callable = getattr(owner, name)
        clock = time.perf_counter

        def timed(*args: Any, **kwargs: Any) -> Any:
            t0 = clock()
            try:
                return inner(*args, **kwargs)
            finally:
                self.now[stage] = self.now.get(stage, 0.0) + clock() - t0

        setattr(owner, name, timed)

    def key_done(self) -> None:
        spent = dict(self.now)
        spent["panel"] = max(0.0, spent.get("panel", 0.0) - spent.get("bus", 0.0))  # the sink's part is "bus"
        for stage in STAGES:
            self.kept[stage].append(spent.get(stage, 0.0))
        self.now.clear()


def clans_keys(game: Any, rnd: random.Random) -> str:
    """The next keys a careful Clans table types (a move, an order answer, the colour at the end)."""
    c = game
    mode = c.mode()
    if mode == "move":
        frm, to = c.game.random_move(rnd.random)
        return ("BA*" if rnd.random() < 0.1 else "") + f"{frm}#{to}#"
    if mode == "order":
        return f"{rnd.choice(c.order_choices())}#"
    if mode == "reveal":
        return f"{rnd.randint(1, 5)}#"
    return "#"


def mammut_keys(game: Any, rnd: random.Random) -> str:
    """The next keys of a Valley of the Mammoths table: the first action, a count the question
    allows (now and then one it refuses, as at a real table), or on."""
    from companion.games.mammut.forms import next_field

    s = game.screen()
    if s.name == "actions":
        return "1#"
    if s.entry is not None:
        form = game.state.current_form()
        f = next_field(game.state.game, form) if form is not None else None
        if f is None or f.is_choice or rnd.random() < 0.05:
            return f"{rnd.randint(0, 2)}#"
        return f"{rnd.randint(f.lo, min(f.hi, f.lo + 3))}#"
    return "#"


def _daemon(kind: str, state_dir: str, sink: Any, seed: int, bots: tuple[int, ...] = (),
            journal: Any = None) -> Any:
    from companion.games import GAMES, find_game
    from companion.hw.panel import Panel
    from companion.kiosk.loop import Daemon
    from companion.journal.store import Journal, JournalWriter
    from companion.table.shell import Shell

    rng = random.Random(seed)
    game = (find_game(kind).load().quick_start(2 + seed % 3, rng, bots) if kind == "clans"
            else find_game(kind).load().new(rng))
    panel = Panel(sink, pixel_shift=True, dim_after=600, off_after=1200)
    shell = Shell(list(GAMES.values()), kind, game, rng)
    return Daemon(shell, panel, headless=True, journal=journal or JournalWriter(Journal(state_dir)),
                  search_options={"bot": "mcts", "iterations": BOT_ITERATIONS, "seed": seed})


def _sink(bus: Any) -> Any:
    """One display for the whole run, as on the box (luma keeps every device it makes until exit)."""
    from companion.hw.settings import DisplayConfig
    from companion.hw.display import open_display
    from companion.hw.fake_oled import fake_device

    return open_display(DisplayConfig(driver="ssd1306", rotate=2), device_factory=lambda: fake_device(bus, 2))


def whole_path(games: int, seed: int, state_root: str | None = None, mammut_keys_per_game: int = 400) -> dict:
    """Time every stage of every key over `games` Clans games and `games // 2` Mammut games (its
    journals in a temporary folder under `state_root`: give the state directory's filesystem)."""
    from companion.hw.fake_oled import FakeOledBus
    from companion.table import render as render_module

    watch = Stopwatch()
    whole: list[float] = []  # each key's whole step: key_to_bus
    bus_bytes: list[int] = []
    by_game: dict[str, list[int]] = {}  # game -> [bytes on the bus, keys]
    full_frame = 0
    real_render = render_module.render
    bus = FakeOledBus("ssd1306", model=False)
    sink = _sink(bus)
    real_sink_show = sink.show
    with tempfile.TemporaryDirectory(dir=state_root) as tmp:
        try:
            plans = [("clans", g) for g in range(games)] + [("mammut", g) for g in range(max(1, games // 2))]
            for n, (kind, g) in enumerate(plans):
                sink.show = real_sink_show
                d = _daemon(kind, f"{tmp}/{n}", sink, seed + g)
                watch.wrap(d.shell, "handle", "game")
                watch.wrap(d.journal, "write_all", "journal")
                watch.wrap(d.shell, "screen", "screen")
                watch.wrap(d.panel, "show", "panel")
                watch.wrap(d.panel.sink, "show", "bus")
                render_module.render = real_render
                watch.wrap(render_module, "render", "render")
                d.drain()
                d.show()
                watch.now.clear()
                tally = by_game.setdefault(kind, [0, 0])

                def press(key: str) -> None:
                    before = bus.bytes_sent
                    t0 = time.perf_counter()
                    d.step(key)
                    whole.append(time.perf_counter() - t0)
                    watch.key_done()
                    bus_bytes.append(bus.bytes_sent - before)
                    tally[0] += bus_bytes[-1]
                    tally[1] += 1

                play_whole_game(d, kind, random.Random(seed + g), mammut_keys_per_game, press)
                if not full_frame:  # the yardstick: a whole frame as luma's own display() sends it
                    sink = d.panel.sink
                    before = bus.bytes_sent
                    sink.device.display(sink._fit(sink._last))
                    full_frame = bus.bytes_sent - before
                    sink._writer.forget()
                d.journal.close()
        finally:
            render_module.render = real_render
    def summary(seconds: list[float]) -> dict:
        ms = [s * 1000 for s in seconds]
        return {"p50_ms": round(percentile(ms, 50), 3), "p99_ms": round(percentile(ms, 99), 3)}

    return {"path_keys": len(bus_bytes), "stages": {s: summary(watch.kept[s]) for s in STAGES},
            "key_to_bus": summary(whole),
            "bus_bytes_per_key": round(sum(bus_bytes) / len(bus_bytes), 1), "full_frame_bytes": full_frame,
            "bus_bytes_per_key_by_game": {k: round(b / n, 1) for k, (b, n) in by_game.items()},
            # what luma's own display() would have sent: a whole frame for every key that changed the panel
            "bus_bytes_per_key_whole_frames": round(sum(1 for b in bus_bytes if b) * full_frame / len(bus_bytes), 1),
            "peak_rss_mb": peak_rss_mb()}


def play_whole_game(d: Any, kind: str, rnd: random.Random, mammut_keys_per_game: int = 400,
                    press: Callable[[str], Any] | None = None) -> int:
    """Type a scripted game into daemon `d` to its end (Mammut: `mammut_keys_per_game` keys), each key
    through `press` (default: `d.step`); the keys typed."""
    press = press or d.step
    pressed = 0
    while pressed < (10_000 if kind == "clans" else mammut_keys_per_game):
        table = d.shell.game
        if kind == "clans" and table.game is not None and table.mode() == "final":
            break
        for key in (clans_keys if kind == "clans" else mammut_keys)(table, rnd):
            press(key)
            pressed += 1
    return pressed


def memory_over_games(games: int, seed: int, state_root: str | None = None) -> dict:
    """The daemon's resident memory after each of `games` whole games in one run, one display and
    one journal for all, as on the box: Clans with a bot (seat 2, mcts) and Mammut in turn. Run it
    in a fresh process (`python -m companion.bench.path memory GAMES SEED`): its peak is then the
    daemon's own."""
    from companion.hw.fake_oled import FakeOledBus
    from companion.journal.store import Journal, JournalWriter

    sink = _sink(FakeOledBus("ssd1306", model=False))
    rss: list[float] = []
    with tempfile.TemporaryDirectory(dir=state_root) as tmp:
        journal = JournalWriter(Journal(tmp))
        try:
            for g in range(games):
                kind = "clans" if g % 2 == 0 else "mammut"
                d = _daemon(kind, tmp, sink, seed + g, bots=(1,) if kind == "clans" else (), journal=journal)
                d.drain()
                d.show()
                play_whole_game(d, kind, random.Random(seed + g))
                del d
                gc.collect()  # a daemon per game here; the box's one daemon collects at each new game
                rss.append(current_rss_mb())
        finally:
            journal.close()
    warm = rss[min(1, len(rss) - 1)]  # after one game of each: every module the games use is loaded
    return {"games": games, "rss_mb_after_each": rss, "after_first_of_each_mb": warm, "last_mb": rss[-1],
            "growth_mb": round(rss[-1] - warm, 1),
            "peak_rss_mb": peak_rss_mb()}


def peak_rss_mb() -> float:
    """This process's peak resident memory so far, by the kernel's count (MB)."""
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def current_rss_mb() -> float:
    """This process's resident memory now (Linux /proc; the peak where it cannot be read)."""
    try:
        with open("/proc/self/statm") as fh:
            pages = int(fh.read().split()[1])
        import os

        return round(pages * os.sysconf("SC_PAGE_SIZE") / 2 ** 20, 1)
    except (OSError, ValueError, IndexError):
        return peak_rss_mb()


if __name__ == "__main__":  # the bench's memory run, in a process of its own
    import json
    import sys

    if len(sys.argv) in (4, 5) and sys.argv[1] == "memory":
        print(json.dumps(memory_over_games(int(sys.argv[2]), int(sys.argv[3]), (sys.argv[4:] or [None])[0])))
    else:
        sys.exit("usage: python -m companion.bench.path memory GAMES SEED [STATE_ROOT]")
