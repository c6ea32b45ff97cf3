"""`companion run`: the companion at the table, from the new-game question to the winner.

One thread owns the state: adapters (serial keypad, GPIO buttons, terminal) only
put keys on a queue; the main loop takes a key, hands it to the pure controller,
writes the resulting actions to the journal (durably) and only then renders and
shows the confirming frame. The loop also dims the idle panel (the key that wakes
it is swallowed), feeds the systemd watchdog and re-tries a vanished OLED.

Headless (spec section 5):
    companion run --display dummy --keys FILE [--load RECORD] [--record-out OUT]
FILE is read as if typed on the serial keypad; the run ends when every key is
handled, and OUT gets the record so far. `--players N --seed S` starts a new game
without the questions; `--save-frames DIR` writes each distinct frame as a PNG.

On a laptop with no config file, `companion run` plays in the terminal: keys from
the keyboard (or line-wise from a pipe), frames drawn as text.

Bots: after every key (and at start) the loop asks the controller for a bot's turn
(`bot_request`), runs the bot's search here (the controller stays pure) and hands
back the move (`propose_bot_move`), journaled like any action; the menu's Hint is
answered the same way. `--bots 2,4` makes seats of a `--players` quick start bots;
`--bot NAME`, `--bot-time S` (default: the config's game.bot_move_time) and
`--bot-iterations K` (a fixed search, deterministic with --seed) choose the search.

Hardware libraries and adapters are imported lazily, only for what is used.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import queue
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable

from companion.table import keys as K
from companion.games.clans.controller import Controller
from companion.config import BOT_NAMES

GAMES = ("clans", "mammut")

log = logging.getLogger("companion.run")

EOF = object()  # end of the key script / of stdin: finish and exit
CONTRAST = (16, 64, 128, 200, 255)  # brightness level 1..5
SHIFTS = ((0, 0), (1, 0), (1, 1), (0, 1))  # pixel-shift positions, cycled against OLED burn-in
SHIFT_EVERY_S = 120.0
TICK_S = 1.0


class UsageError(Exception):
    """Bad arguments or input files: one line on stderr, exit status 2."""


def parse_args(argv: list[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="companion run", description="The companion at the table: keys in, screens out.")
    ap.add_argument("--display", choices=("ssd1306", "sh1106", "dummy", "terminal", "png"),
                    help="display driver (default: the config's; on a laptop without config: terminal)")
    ap.add_argument("--game", choices=GAMES, default=None,
                    help="the game at start: clans (default) or mammut (Valley of the Mammoths)")
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
    if args.game == "mammut" and (args.load or args.players):
        ap.error("--load and --players are for Clans games; Mammut asks its questions at the table")
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
    """The config, or None when the config module is unavailable (defaults then apply)."""
    try:
        from companion import config
    except ImportError:  # pragma: no cover - the config module ships with the package
        return None
    try:
        return config.load_config(path)
    except config.ConfigError as exc:
        raise UsageError(str(exc)) from None


def on_raspberry_pi() -> bool:
    from companion.hw.buttons import is_raspberry_pi  # the module imports gpiozero only when buttons open

    return is_raspberry_pi()


def choose_driver(args: argparse.Namespace, cfg: Any) -> str:
    if args.display:
        return args.display
    if cfg is not None and (getattr(cfg, "source", "<defaults>") != "<defaults>" or on_raspberry_pi()):
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


class JournalWriter:
    """Maps controller actions onto the SQLite journal's games (a new game starts a new entry)."""

    def __init__(self, journal: Any) -> None:
        self.journal = journal
        self.finished = False

    def write(self, actions: list[dict], controller: Any) -> None:
        batch: list[dict] = []
        for action in actions:
            if action["a"] in controller.START_ACTIONS or self.journal.game_id is None:
                self.journal.extend(batch)
                batch = []
                self.journal.start_game(controller.GAME_KIND, [action])
                self.finished = False
            else:
                batch.append(action)
        self.journal.extend(batch)
        for action in actions:  # only now are they durable: tests of power cuts read these lines
            log.info("confirmed %s", json.dumps(action, separators=(",", ":")))
        if not self.finished:
            result = controller.finished_result()
            if result is not None:
                self.journal.finish(result)
                self.finished = True


class BotRunner:
    """The searches the controller asks for: a bot's move, a hint. The only place bots run.

    Each search gets its own rng, derived from the seed, the kind of search and the
    ply (so a hint depends on nothing secret, and a seeded run is reproducible with
    `iterations`); without a seed, fresh entropy.
    """

    def __init__(self, name: str = "mcts", move_time: float | None = 0.5, iterations: int | None = None,
                 seed: int | None = None) -> None:
        self.name = name
        self.iterations = iterations
        self.move_time = None if iterations else move_time  # a fixed search must not depend on the clock
        self.seed = seed
        self._bot: Any = None

    @property
    def bot(self) -> Any:
        if self._bot is None:  # imported on first use: a table without bots never loads the search
            from companion.games.clans.bots import make_bot

            options = {"iterations": self.iterations} if self.iterations and self.name == "mcts" else {}
            self._bot = make_bot(self.name, **options)
        return self._bot

    def _rng(self, kind: str, game: Any) -> random.Random:
        return random.Random(f"{self.seed}:{kind}:{game.ply}") if self.seed is not None else random.Random()

    def move(self, game: Any, seat: int, color: str) -> Any:
        """The bot's move for `seat`, which secretly owns `color` (searched on a copy of the game)."""
        return self.bot.choose(game.copy(), seat, color, self._rng("bot", game), move_time=self.move_time)

    def hint(self, game: Any, seat: int) -> Any:
        """A suggested move for the person at `seat`, from public information only."""
        from companion.games.clans.bots import hint

        return hint(game.copy(), seat, self._rng("hint", game), self.move_time, iterations=self.iterations)


# ----- the daemon --------------------------------------------------------------------------
class Daemon:
    """The main loop: one queue in, one controller, one display sink out."""

    def __init__(self, controller: Any, sink: Any, *, headless: bool, cfg: Any = None,
                 journal: JournalWriter | None = None, record_out: str | None = None,
                 on_frame: Callable[[Any, Any], None] | None = None,
                 clock: Callable[[], float] = time.monotonic, rng: random.Random | None = None,
                 bots: BotRunner | None = None) -> None:
        self.controller = controller
        self.bots = bots
        self.rng = rng if rng is not None else random.Random()
        self.sink = sink
        self.headless = headless
        self.journal = journal
        self.record_out = record_out
        self.on_frame = on_frame
        self.clock = clock
        self.queue: queue.Queue = queue.Queue()
        self.inputs: list[Any] = []
        self.terminal: Any = None
        self.last_screen: Any = None
        self.frames = 0
        self.dim_after = None if headless or cfg is None else cfg.idle_dim_seconds
        self.off_after = None if headless or cfg is None else getattr(cfg, "idle_off_seconds", None)
        self.dim_contrast = cfg.display.dim_contrast if cfg is not None else 16
        self.idle = "awake"  # awake | dim | off
        self.last_key = clock()
        self.brightness = controller.brightness
        self.device: Any = None
        self.pixel_shift = bool(getattr(cfg, "pixel_shift", False)) and not headless
        self.shift_index = 0
        self.shifted_at = clock()
        self.last_image: Any = None
        self.status_sent = ""
        self.key_delay = 0.0

    def put(self, key: Any) -> None:
        """Thread-safe: the adapters' callback."""
        self.queue.put(key)

    # one step of the loop ---------------------------------------------------------------
    def step(self, key: Any) -> bool:
        """Handle one queued item; False when the loop should end."""
        if key is EOF or key == K.QUIT:
            return False
        now = self.clock()
        self.last_key = now
        if self.idle != "awake":  # the waking key is swallowed
            self._wake()
            return True
        try:
            self.controller.handle(key, now)
        except Exception:
            log.exception("controller: key %r failed; state kept", key)
        self._commit()
        if self.controller.switch_game:
            self._switch(self.controller.switch_game)
        self.think()
        self.show()
        return not self.controller.shutdown_requested

    def _commit(self) -> None:
        """Journal the controller's new actions (before the frame that shows their result)."""
        actions = self.controller.pop_actions()
        if actions:
            log.debug("actions: %s", actions)
            if self.journal is not None:
                try:
                    self.journal.write(actions, self.controller)
                except Exception:
                    log.exception("journal: cannot write %s", actions)

    def _runner(self) -> BotRunner:
        if self.bots is None:
            self.bots = BotRunner()
        return self.bots

    def think(self) -> None:
        """Run what the controller asks for: a bot's move on its turn, a hint for a person."""
        c = self.controller
        if not hasattr(c, "bot_request"):
            return  # another game's controller
        if c.hint_requested or c.bot_request() is not None:
            self.show()  # "Thinking..." (or the last result) while the search runs
        while (request := c.bot_request()) is not None:
            seat, color = request
            t0 = time.perf_counter()
            try:
                move = self._runner().move(c.game, seat, color)
                c.propose_bot_move(move)
            except Exception:
                log.exception("bot for P%d failed; it tries again after the next key", seat + 1)
                break
            finally:
                self._commit()
            log.info("bot %s for P%d: %s after %.2f s", self._runner().name, seat + 1, move,
                     time.perf_counter() - t0)
        if c.hint_requested and c.game is not None:
            seat, t0 = c.game.to_move, time.perf_counter()
            try:
                move = self._runner().hint(c.game, seat)
            except Exception:
                log.exception("hint for P%d failed", seat + 1)
                return
            c.show_hint(move)
            log.info("hint for P%d: %s after %.2f s", seat + 1, move, time.perf_counter() - t0)

    def _switch(self, game: str) -> None:
        """The table chose the other game: a fresh controller asks its new-game questions."""
        log.info("switching to %s", game)
        self.controller.switch_game = None
        brightness = self.controller.brightness
        self.controller = new_controller(game, self.rng)
        self.controller.brightness = brightness

    def show(self) -> None:
        screen = self.controller.screen()
        if self.controller.brightness != self.brightness:
            self.brightness = self.controller.brightness
            self.sink.set_contrast(CONTRAST[self.brightness - 1])
        if screen == self.last_screen:
            return
        from companion.table.render import render

        image = render(screen)
        self.last_screen = screen
        self.last_image = image
        self.sink.show(self._shifted(image))
        self.frames += 1
        if self.on_frame is not None:
            self.on_frame(screen, image)
        status = f"{self.controller.GAME_KIND}: {screen.title}"
        if status != self.status_sent:
            from companion.hw import notify

            notify.status(status)
            self.status_sent = status

    def _shifted(self, image: Any) -> Any:
        """The frame moved by the current pixel-shift offset (the screens keep a 1-pixel margin)."""
        dx, dy = SHIFTS[self.shift_index] if self.pixel_shift else (0, 0)
        if not (dx or dy):
            return image
        from PIL import Image

        out = Image.new(image.mode, image.size)
        out.paste(image.crop((0, 0, image.width - dx, image.height - dy)), (dx, dy))
        return out

    def _shift_check(self) -> None:
        if self.pixel_shift and self.last_image is not None and self.clock() - self.shifted_at >= SHIFT_EVERY_S:
            self.shift_index = (self.shift_index + 1) % len(SHIFTS)
            self.shifted_at = self.clock()
            self.sink.show(self._shifted(self.last_image))

    def _wake(self) -> None:
        if self.idle == "off":
            self.sink.set_power(True)
        self.sink.set_contrast(CONTRAST[self.brightness - 1])
        self.idle = "awake"

    def _idle_check(self) -> None:
        idle_for = self.clock() - self.last_key
        if self.idle == "awake" and self.dim_after is not None and idle_for >= self.dim_after:
            self.sink.set_contrast(self.dim_contrast)
            self.idle = "dim"
        if self.idle != "off" and self.off_after is not None and idle_for >= self.off_after:
            self.sink.set_power(False)
            self.idle = "off"

    def run(self) -> int:
        from companion.hw import notify

        self.sink.set_contrast(CONTRAST[self.brightness - 1])
        self.show()
        self.think()  # a bot may be to move in a new or resumed game
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
                    self._idle_check()
                    self._shift_check()
                    self.sink.tick()
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
            self.device = getattr(self.sink, "device", None)  # luma's dummy keeps the last frame
            self.sink.close()
            if self.controller.shutdown_requested and not self.headless:
                self._power_off()
        return 0

    def write_record(self) -> None:
        if not self.record_out:
            return
        text = self.controller.record_json()
        if text is None:
            log.warning("no game yet: %s not written", self.record_out)
            return
        from companion.table.fsutil import atomic_write_text

        atomic_write_text(Path(self.record_out), text)

    def _power_off(self) -> None:
        if not on_raspberry_pi():
            log.info("shutdown asked; not on a Raspberry Pi, just exiting")
            return
        import subprocess

        log.info("shutdown asked: powering off")
        try:
            subprocess.run(["systemctl", "poweroff"], check=False, timeout=30)
        except (OSError, subprocess.SubprocessError) as exc:
            log.error("cannot power off: %s", exc)


def build(args: argparse.Namespace) -> Daemon:
    """Everything `main` sets up before the loop (tests drive the returned Daemon)."""
    headless = args.keys is not None
    script = read_key_script(args.keys) if headless else None
    cfg = load_config(args.config) if (args.config or not headless or args.display != "dummy") else None
    rng = random.Random(args.seed)
    journal = None
    controller: Any = None
    use_journal = not args.no_journal and (args.state_dir is not None or not headless)
    if use_journal:
        journal = open_journal(args.state_dir or default_state_dir(cfg))
    if args.load:
        from companion.games.clans.record import Record, RecordError

        try:
            record = Record.load(args.load)
            record.play()
        except RecordError as exc:
            raise UsageError(f"{args.load}: {exc}") from None
        controller = Controller.from_record(record, rng)
    elif args.players:
        controller = Controller.quick_start(args.players, rng, bots=args.bot_seats)
    elif journal is not None:
        resumed = journal.journal.resume()
        if resumed is not None and args.game not in (None, resumed.kind):
            log.info("journal holds an unfinished %s game; --game %s starts a new one", resumed.kind, args.game)
        elif resumed is not None and resumed.actions:
            try:
                controller = controller_class(resumed.kind).from_actions(resumed.actions, rng)
                log.info("resumed game %s (%d actions)", resumed.game_id, len(resumed.actions))
            except ValueError as exc:
                log.error("journal cannot be replayed (%s): starting a new game", exc)
    if controller is None:
        controller = new_controller(args.game or "clans", rng)
    driver = choose_driver(args, cfg)
    frames_dir = args.save_frames if driver == "png" else None
    sink = open_sink(driver, cfg, frames_dir)
    on_frame = FrameSaver(args.save_frames) if args.save_frames and driver != "png" else None
    daemon = Daemon(controller, sink, headless=headless, cfg=cfg, journal=journal, record_out=args.record_out,
                    on_frame=on_frame, rng=rng, bots=bot_runner(args, cfg))
    if journal is not None:  # the first actions (load / quick start) are journaled too
        actions = controller.pop_actions()
        if actions:
            journal.write(actions, controller)
    if script is not None:
        daemon.key_delay = max(0.0, args.key_delay)
        for token in script:
            daemon.put(token)
        daemon.put(EOF)
    else:
        open_inputs(daemon, cfg, emulated=driver == "terminal")
    return daemon


def bot_runner(args: argparse.Namespace, cfg: Any) -> BotRunner:
    """The bot and its budget: the command line first, then the config's game section."""
    game_cfg = getattr(cfg, "game", None)
    name = args.bot or getattr(game_cfg, "bot", None) or "mcts"
    move_time = args.bot_time if args.bot_time is not None else getattr(game_cfg, "bot_move_time", 0.5)
    return BotRunner(name, move_time, args.bot_iterations, args.seed)


def controller_class(game: str) -> Any:
    """The controller class of a game (the journal names the game of each entry)."""
    if game == "mammut":
        from companion.games.mammut.controller import MammutController

        return MammutController
    if game == "clans":
        return Controller
    raise ValueError(f"unknown game {game!r} in the journal")


def new_controller(game: str, rng: random.Random) -> Any:
    return controller_class(game)(rng)


def default_state_dir(cfg: Any) -> str:
    """The config's state dir on the box; a per-user one when playing on a laptop without config."""
    if cfg is not None and (cfg.source != "<defaults>" or on_raspberry_pi() or cfg.state_dir):
        return cfg.resolved_state_dir()
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(base, "companion")


def open_journal(state_dir: str | None) -> JournalWriter | None:
    if not state_dir:
        return None
    try:
        from companion.table.journal import Journal

        return JournalWriter(Journal(state_dir))
    except (OSError, ImportError) as exc:
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
