"""`companion run`: the loop at the table. It names no game: it asks the registry.

One thread owns the state. Adapters (serial keypad, GPIO buttons, terminal) only
put keys on a queue; the loop takes a key and runs it through, in order:

    queue -> shell.handle (the table, wrapping the current game)
          -> drain the effects outbox: Persist / GameOver / SetBrightness -> journal
             (durable before anything is shown), Search / Hint -> the game's searcher,
             SetBrightness -> panel, PowerOff -> stop and power off
          -> render the screen -> panel (brightness, idle dim, pixel shift) -> display sink

Between keys it feeds the systemd watchdog and lets the panel dim or shift.

Headless (spec section 5):
    companion run --display dummy --keys FILE [--load RECORD] [--record-out OUT]
FILE is read as if typed on the serial keypad; the run ends when every key is
handled, and OUT gets the record so far. `--players N --seed S` starts a new game
without the questions; `--save-frames DIR` writes each distinct frame as a PNG.
On a laptop with no config file, `companion run` plays in the terminal.

Hardware libraries and adapters are imported lazily, only for what is used.
"""

from __future__ import annotations

import argparse
import logging
import queue
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable

from companion.config import BOT_NAMES
from companion.games import DEFAULT_GAME, GAMES, find_game
from companion.hw.panel import Panel
from companion.hw.platform import is_raspberry_pi
from companion.table import keys as K
from companion.table.effects import Announce, Effect, GameOver, Hint, Persist, PowerOff, Search, SetBrightness, \
    SwitchGame
from companion.table.errors import UsageError
from companion.table.journal import JournalWriter, find_state_dir
from companion.table.shell import Shell

log = logging.getLogger("companion.run")

EOF = object()  # end of the key script / of stdin: finish and exit
TICK_S = 1.0
JOURNAL_EFFECTS = (Persist, GameOver, SetBrightness)


def parse_args(argv: list[str]) -> argparse.Namespace:
    games = ", ".join(f"{kind} ({entry.description or entry.title})" for kind, entry in GAMES.items())
    ap = argparse.ArgumentParser(prog="companion run", description="The companion at the table: keys in, screens out.")
    ap.add_argument("--display", choices=("ssd1306", "sh1106", "dummy", "terminal", "png"),
                    help="display driver (default: the config's; on a laptop without config: terminal)")
    ap.add_argument("--game", choices=list(GAMES), default=None, metavar="NAME",
                    help=f"the game at start (default {DEFAULT_GAME}): {games}")
    ap.add_argument("--keys", metavar="FILE", help="read keys from FILE as if typed on the keypad, then exit")
    ap.add_argument("--load", metavar="RECORD", help="continue the game of a record (spec section 1)")
    ap.add_argument("--record-out", metavar="OUT", help="write the game record here at exit")
    ap.add_argument("--players", type=int, choices=(2, 3, 4), help="start a new game without the questions")
    ap.add_argument("--seed", type=int, help="seed for the start player and the setup")
    ap.add_argument("--bots", metavar="SEATS", help="with --players: seats played by the companion, 1-based (e.g. 2,4)")
    ap.add_argument("--bot", choices=BOT_NAMES, help="which bot plays (default: the config's game.bot, mcts)")
    ap.add_argument("--bot-time", type=float, metavar="S", help="seconds per bot move and hint (default: the config's)")
    ap.add_argument("--bot-iterations", type=int, metavar="K",
                    help="a fixed search of K iterations instead of a time budget (deterministic with --seed)")
    ap.add_argument("--key-delay", type=float, default=0.0, metavar="S",
                    help="with --keys: pause S seconds before each key (a typing pace, for demos and crash tests)")
    ap.add_argument("--save-frames", metavar="DIR", help="write each distinct frame as a PNG into DIR")
    ap.add_argument("--config", metavar="PATH", help="config file (default /etc/companion/config.yaml if present)")
    ap.add_argument("--state-dir", metavar="DIR", help="journal directory (default: the config's state_dir)")
    ap.add_argument("--no-journal", action="store_true", help="do not journal nor resume")
    ap.add_argument("-v", "--verbose", action="count", default=0, help="more log output (-vv: debug)")
    args = ap.parse_args(argv)
    if args.load and args.players:
        ap.error("--load and --players exclude each other")
    if args.bot_time is not None and not 0 < args.bot_time <= 600:
        ap.error("--bot-time: seconds in (0, 600]")
    if args.bot_iterations is not None and args.bot_iterations < 1:
        ap.error("--bot-iterations: at least 1")
    args.bot_seats = []
    if args.bots:
        if not args.players:
            ap.error("--bots needs --players (at the table, the new-game questions ask for bots)")
        try:
            args.bot_seats = sorted({int(s) - 1 for s in args.bots.split(",")})
        except ValueError:
            ap.error(f"--bots {args.bots}: seat numbers separated by commas, e.g. 2,4")
        if args.bot_seats[0] < 0 or args.bot_seats[-1] >= args.players or len(args.bot_seats) >= args.players:
            ap.error(f"--bots {args.bots}: seats are 1-{args.players} and one must stay a person")
    return args


# ----- inputs and outputs ------------------------------------------------------------------
def read_key_script(path: str) -> list[str]:
    """The key script's tokens; unknown bytes are logged once and dropped."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise UsageError(f"{path}: cannot read keys: {exc.strerror or exc}") from None
    unknown: set[int] = set()
    tokens = list(K.tokens_from_bytes(data, unknown))
    if unknown:
        log.warning("keys %s: ignored unknown bytes %s", path, " ".join(f"0x{b:02x}" for b in sorted(unknown)))
    return tokens


def load_config(path: str | None) -> Any:
    from companion import config

    try:
        return config.load_config(path)
    except config.ConfigError as exc:
        raise UsageError(str(exc)) from None


def choose_driver(args: argparse.Namespace, cfg: Any) -> str:
    if args.display:
        return args.display
    if cfg is not None and (getattr(cfg, "source", "<defaults>") != "<defaults>" or is_raspberry_pi()):
        return cfg.display.driver
    return "terminal"


def open_sink(driver: str, cfg: Any, frames_dir: str | None = None) -> Any:
    from dataclasses import replace

    from companion.config import DisplayConfig
    from companion.hw.display import open_display

    dcfg = cfg.display if cfg is not None else DisplayConfig()
    dcfg = replace(dcfg, driver=driver, frames_dir=frames_dir or dcfg.frames_dir)
    if driver == "dummy":
        dcfg = replace(dcfg, width=128, height=64, rotate=0)
    return open_display(dcfg)


class FrameSaver:
    """Writes each distinct frame once, as DIR/frame_NNNN.png (for the gallery and README)."""

    def __init__(self, folder: str) -> None:
        self.dir = Path(folder)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.seen: set[bytes] = set()

    def __call__(self, screen: Any, image: Any) -> None:
        key = image.tobytes()
        if key not in self.seen:
            self.seen.add(key)
            image.save(self.dir / f"frame_{len(self.seen):04d}.png")


# ----- the daemon --------------------------------------------------------------------------
class Daemon:
    """The main loop: one queue in, the shell, its effects drained, one panel out."""

    def __init__(self, shell: Shell, panel: Panel, *, headless: bool, journal: JournalWriter | None = None,
                 record_out: str | None = None, on_frame: Callable[[Any, Any], None] | None = None,
                 clock: Callable[[], float] = time.monotonic, search_options: dict | None = None) -> None:
        self.shell = shell
        self.panel = panel
        self.headless = headless
        self.journal = journal
        self.record_out = record_out
        self.on_frame = on_frame
        self.clock = clock
        self.search_options = search_options or {}
        self.searchers: dict[str, Any] = {}
        self.queue: queue.Queue = queue.Queue()
        self.inputs: list[Any] = []
        self.terminal: Any = None
        self.last_screen: Any = None
        self.frames = 0
        self.status_sent = ""
        self.key_delay = 0.0
        self.power_off = False
        self.device: Any = None

    def put(self, key: Any) -> None:
        """Thread-safe: the adapters' callback."""
        self.queue.put(key)

    # one step of the loop ---------------------------------------------------------------
    def step(self, key: Any) -> bool:
        """Handle one queued item; False when the loop should end."""
        if key is EOF or key == K.QUIT:
            return False
        if self.panel.key():  # the key that wakes the panel is swallowed
            return True
        try:
            self.shell.handle(key, self.clock())
        except Exception:
            log.exception("key %r failed; state kept", key)
        self.drain()
        self.show()
        return not self.power_off

    def drain(self) -> None:
        """Carry out every effect the table asks for, in order, until the outbox stays empty."""
        while effects := self.shell.pop_effects():
            for effect in effects:
                try:
                    self.apply(effect)
                except Exception:
                    log.exception("%r failed", effect)

    def apply(self, effect: Effect) -> None:
        if isinstance(effect, SetBrightness):
            self.panel.set_brightness(effect.level)
        if isinstance(effect, JOURNAL_EFFECTS):
            if isinstance(effect, Persist):
                log.debug("actions: %s", effect.public())
            if self.journal is not None:
                self.journal.write(effect)
        elif isinstance(effect, (Search, Hint)):
            self.search(effect)
        elif isinstance(effect, SwitchGame):
            log.info("switching to %s", effect.kind)
        elif isinstance(effect, PowerOff):
            self.power_off = True
        elif isinstance(effect, Announce):
            log.info("announce %s: %s", effect.event, effect.text)

    def search(self, effect: Search | Hint) -> None:
        """A bot's move or a hint: shown as "Thinking..." while the game's searcher runs here."""
        self.show()
        kind = self.shell.kind
        if kind not in self.searchers:
            self.searchers[kind] = find_game(kind).make_searcher(self.search_options)
        searcher = self.searchers[kind]
        what = f"bot {getattr(searcher, 'name', '')} for" if isinstance(effect, Search) else "hint for"
        t0 = time.perf_counter()
        try:
            answer = searcher.run(effect)
        except Exception:
            log.exception("%s P%d failed; it tries again after the next key", what, effect.seat + 1)
            answer = None
        else:
            log.info("%s P%d: %s after %.2f s", what, effect.seat + 1, answer, time.perf_counter() - t0)
        self.shell.deliver(effect, answer)

    def show(self) -> None:
        screen = self.shell.screen()
        if screen == self.last_screen:
            return
        from companion.table.render import render

        image = render(screen)
        self.last_screen = screen
        self.panel.show(image)
        self.frames += 1
        if self.on_frame is not None:
            self.on_frame(screen, image)
        status = f"{self.shell.kind}: {screen.title}"
        if status != self.status_sent:
            from companion.hw import notify

            notify.status(status)
            self.status_sent = status

    def run(self) -> int:
        from companion.hw import notify

        self.panel.start()
        self.show()
        self.drain()  # a loaded game's first actions; a bot may be to move in a new or resumed game
        self.show()
        for adapter in self.inputs:
            adapter.start()
        notify.ready("refereeing")
        interval = notify.watchdog_interval()
        tick = min(TICK_S, interval / 2) if interval else TICK_S
        try:
            while True:
                try:
                    key = self.queue.get(timeout=None if self.headless else tick)
                except queue.Empty:
                    notify.watchdog()
                    self.panel.tick()
                    if self.terminal is not None and self.terminal.eof.is_set() and len(self.inputs) == 1:
                        break  # keys came from a pipe that has ended
                    continue
                if not self.step(key):
                    break
                notify.watchdog()
                if self.key_delay:
                    time.sleep(self.key_delay)
        except KeyboardInterrupt:
            log.info("interrupted")
        finally:
            notify.stopping()
            for adapter in self.inputs:
                try:
                    adapter.close()
                except Exception:
                    log.exception("closing %r", adapter)
            self.write_record()
            if self.journal is not None:
                self.journal.journal.close()  # checkpoints the WAL: nothing pending before power-off
            self.device = getattr(self.panel.sink, "device", None)  # luma's dummy keeps the last frame
            self.panel.close()
            if self.power_off and not self.headless:
                power_off()
        return 0

    def write_record(self) -> None:
        if not self.record_out:
            return
        text = self.shell.game.record_json()
        if text is None:
            log.warning("no game yet: %s not written", self.record_out)
            return
        from companion.table.fsutil import atomic_write_text

        atomic_write_text(Path(self.record_out), text)


def power_off() -> None:
    if not is_raspberry_pi():
        log.info("shutdown asked; not on a Raspberry Pi, just exiting")
        return
    import subprocess

    log.info("shutdown asked: powering off")
    try:
        subprocess.run(["systemctl", "poweroff"], check=False, timeout=30)
    except (OSError, subprocess.SubprocessError) as exc:
        log.error("cannot power off: %s", exc)


# ----- set-up --------------------------------------------------------------------------------
def build(args: argparse.Namespace) -> Daemon:
    """Everything `main` sets up before the loop (tests drive the returned Daemon)."""
    headless = args.keys is not None
    script = read_key_script(args.keys) if headless else None
    cfg = load_config(args.config) if (args.config or not headless or args.display != "dummy") else None
    rng = random.Random(args.seed)
    journal = None
    if not args.no_journal and (args.state_dir is not None or not headless):
        journal = open_journal(find_state_dir(args.state_dir, cfg, on_box=is_raspberry_pi()))
    shell = start_table(args, journal, rng)
    driver = choose_driver(args, cfg)
    sink = open_sink(driver, cfg, args.save_frames if driver == "png" else None)
    panel = Panel.from_config(sink, cfg, headless=headless, brightness=shell.brightness)
    on_frame = FrameSaver(args.save_frames) if args.save_frames and driver != "png" else None
    daemon = Daemon(shell, panel, headless=headless, journal=journal, record_out=args.record_out,
                    on_frame=on_frame, search_options=search_options(args, cfg))
    if script is not None:
        daemon.key_delay = max(0.0, args.key_delay)
        for token in script:
            daemon.put(token)
        daemon.put(EOF)
    else:
        open_inputs(daemon, cfg, emulated=driver == "terminal")
    return daemon


def start_table(args: argparse.Namespace, journal: JournalWriter | None, rng: random.Random) -> Shell:
    """The shell and its first game: a record (--load), a quick start (--players), the journal's
    unfinished game, or a new game of --game (the registry's default game without it)."""
    kind = args.game or DEFAULT_GAME
    stored = journal.journal.setting("brightness") if journal is not None else None
    game, journaled = None, []
    if args.load:
        game = find_game(kind).load().from_record_file(args.load, rng)
    elif args.players:
        game = find_game(kind).load().quick_start(args.players, rng, bots=args.bot_seats)
    elif journal is not None:
        resumed = journal.journal.resume()
        if resumed is not None and args.game not in (None, resumed.kind):
            log.info("journal holds an unfinished %s game; --game %s starts a new one", resumed.kind, args.game)
        elif resumed is not None:
            journaled = resumed.actions
            try:
                actions, _ = Shell.split_journal(resumed.actions)
                game = find_game(resumed.kind).load().from_actions(actions, rng)
                kind = resumed.kind
                log.info("resumed game %s (%d actions)", resumed.game_id, len(resumed.actions))
            except ValueError as exc:
                log.error("journal cannot be replayed (%s): starting a new game", exc)
    if game is None:
        game = find_game(kind).load().new(rng)
    _, brightness = Shell.split_journal(journaled, stored)
    return Shell(list(GAMES.values()), kind, game, rng, brightness)


def search_options(args: argparse.Namespace, cfg: Any) -> dict:
    """The bot and its budget for every game's searcher: the command line first, then the config."""
    game_cfg = getattr(cfg, "game", None)
    return {"bot": args.bot or getattr(game_cfg, "bot", None) or "mcts",
            "move_time": args.bot_time if args.bot_time is not None else getattr(game_cfg, "bot_move_time", 0.5),
            "iterations": args.bot_iterations, "seed": args.seed}


def open_journal(state_dir: str) -> JournalWriter | None:
    try:
        from companion.table.journal import Journal

        return JournalWriter(Journal(state_dir))
    except OSError as exc:
        log.warning("no journal (%s): a power cut will lose the game in progress", exc)
        return None


def open_inputs(daemon: Daemon, cfg: Any, emulated: bool) -> None:
    """Start whatever input adapters are configured; the terminal keyboard when emulating."""
    if cfg is not None and cfg.keypad is not None:
        try:
            from companion.hw.keypad import open_keypad

            daemon.inputs.append(open_keypad(cfg, daemon.put))
        except Exception as exc:
            log.error("keypad: %s", exc)
    if cfg is not None and not emulated and (cfg.buttons is not None or cfg.encoder is not None):
        try:
            from companion.hw.buttons import open_buttons

            daemon.inputs.append(open_buttons(cfg, daemon.put))
        except Exception as exc:
            log.error("buttons: %s", exc)
    if emulated or sys.stdin.isatty():
        from companion.hw.terminal import open_terminal

        daemon.terminal = open_terminal(daemon.put)
        daemon.inputs.append(daemon.terminal)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else list(argv))
    level = (logging.WARNING, logging.INFO, logging.DEBUG)[min(args.verbose + (0 if args.keys else 1), 2)]
    logging.basicConfig(level=level, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    try:
        daemon = build(args)
    except UsageError as exc:
        print(f"companion run: {exc}", file=sys.stderr)
        return 2
    return daemon.run()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
