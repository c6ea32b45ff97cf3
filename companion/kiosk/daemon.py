"""`companion run`: the set-up of the loop at the table. It names no game: it asks the registry.

Arguments, the config, the journal, the display and the inputs, and the first game
(a record, a quick start, the journal's game, or a new one); then `companion.kiosk.loop.Daemon`
runs. Headless (spec section 5):
    companion run --display dummy --keys FILE [--load RECORD] [--record-out OUT]
FILE (`-`: standard input) is read as if typed on the serial keypad; the run ends when
every key is handled, and OUT gets the record so far. `--players N --seed S` starts a new game
without the questions; `--save-frames DIR` writes each distinct frame as a PNG.
On a laptop with no config file, `companion run` plays in the terminal; with stdin not a
terminal (`echo 12#13# | companion run`) its keys are read like --keys (no journal unless
--state-dir) and a stdout that is not a terminal gets each screen's words as plain text.

Hardware libraries and adapters are imported lazily, only for what is used; so are the
journal, the key socket and luma.oled's driver list: a headless run (`--display dummy
--keys FILE`) imports only what its first frame needs (`companion bench --only cold`).
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion import i18n
from companion.kiosk.announce import Announcer, buzzer_patterns
from companion.box.config_base import MAX_BOT_MOVE_TIME, display_drivers, is_display_driver
from companion.argtypes import count, directory, given, new_file, seconds
from companion.games import DEFAULT_GAME, GAMES, bot_names, default_bot, find_game, quick_player_counts
from companion.hw.inputs import open_inputs
from companion.hw.panel import Panel
from companion.hw.sinks import fixed_size, needs_config, on_terminal, writes_frames
from companion.i18n import LANGUAGES
from companion.hw.platform import is_raspberry_pi
from companion.kiosk.loop import EOF, Daemon, rebuild
from companion.table import entries
from companion.table import texts as T
from companion.table.keyscript import read_key_script
from companion.table.pagelink import CAMERA_FRAME
from companion.util.errors import UsageError
from companion.table.shell import Shell
from companion.table.sound import SoundSettings

if TYPE_CHECKING:
    from companion.journal.port import JournalPort

log = logging.getLogger("companion.run")


def parse_args(argv: list[str]) -> argparse.Namespace:
    games = ", ".join(f"{kind} ({game.description})" for kind, game in GAMES.items())
    ap = argparse.ArgumentParser(prog="companion run", description="The companion at the table: keys in, screens out.")
    # no `choices=`: luma.oled's driver list costs an import of luma.oled.device; is_display_driver
    # below asks it only for a driver that is not a stand-in (the OLED then imports luma.oled anyway)
    ap.add_argument("--display", metavar="DRIVER",
                    help="display driver: a luma.oled device (ssd1306, sh1106, ssd1309 ...), dummy, terminal or png "
                         "(default: the config's; on a laptop without config: terminal)")
    ap.add_argument("--game", choices=list(GAMES), default=None, metavar="NAME",
                    help=f"the game at start (default {DEFAULT_GAME}): {games}")
    ap.add_argument("--lang", choices=LANGUAGES, metavar="CODE",
                    help=f"the table's language: {', '.join(LANGUAGES)} (default: the menu's last choice, "
                         "else the config's language, else the system locale's, else en)")
    ap.add_argument("--keys", metavar="FILE", type=given("a key script"),
                    help="read keys from FILE (- : standard input) as if typed on the keypad, then exit")
    ap.add_argument("--load", metavar="RECORD", type=given("a record"),
                    help="continue the game of a record (contract 1, docs/contracts.md)")
    ap.add_argument("--record-out", metavar="OUT", type=new_file, help="write the game record here at exit")
    ap.add_argument("--players", type=int, choices=quick_player_counts(), help="start a new game without the questions")
    ap.add_argument("--seed", type=int, help="seed for the start player and the setup")
    ap.add_argument("--bots", metavar="SEATS", type=given("seat numbers, e.g. 2,4:hard"),
                    help="with --players: seats played by the companion, 1-based, each with its level if not "
                         "the table's bot (e.g. 2,4:hard; levels easy, normal, hard)")
    ap.add_argument("--teach", action="store_true",
                    help="a first game: explain each rule once, when it first matters (default: the config's game.teach)")
    ap.add_argument("--bot", choices=bot_names(), help=f"which bot plays (default: the config's game.bot, {default_bot()})")
    ap.add_argument("--bot-time", type=float, metavar="S", help="seconds per bot move and hint (default: the config's)")
    ap.add_argument("--bot-iterations", type=count, metavar="K",
                    help="a fixed search of K iterations instead of a time budget (deterministic with --seed)")
    ap.add_argument("--key-delay", type=seconds(zero=True), default=0.0, metavar="S",
                    help="with --keys: pause S seconds before each key (a typing pace, for demos and crash tests)")
    ap.add_argument("--save-frames", metavar="DIR", type=directory, help="write each distinct frame as a PNG into DIR")
    ap.add_argument("--announce-log", metavar="FILE", type=given("a file"),
                    help="append one JSON line per announcement the table makes (kind, event, lang, text), "
                         "spoken or not, headless too")
    ap.add_argument("--key-socket", metavar="PATH", type=given("a socket path"),
                    help="take keys from the table's page on this Unix socket (default: the config's web.key_socket)")
    ap.add_argument("--config", metavar="PATH", type=given("a config file"),
                    help="config file (default /etc/companion/config.yaml if present)")
    ap.add_argument("--state-dir", metavar="DIR", type=directory,
                    help="journal directory (default: the config's state_dir)")
    ap.add_argument("--no-journal", action="store_true", help="do not journal nor resume")
    ap.add_argument("--log-file", metavar="PATH", type=new_file,
                    help="log here; in the terminal display the log goes to a file (default: TMPDIR/companion.log)")
    ap.add_argument("-v", "--verbose", action="count", default=0, help="more log output (-vv: debug)")
    args = ap.parse_args(argv)
    if args.display is not None and not is_display_driver(args.display):
        ap.error(f"argument --display: invalid choice: {args.display!r} "
                 f"(choose from {', '.join(map(repr, display_drivers()))})")
    if args.load and args.players:
        ap.error("--load and --players exclude each other")
    if args.bot_time is not None and not 0 < args.bot_time <= MAX_BOT_MOVE_TIME:
        ap.error(f"--bot-time: seconds in (0, {MAX_BOT_MOVE_TIME:g}], well inside the service's watchdog")
    quick = GAMES.get(args.game or DEFAULT_GAME)
    if args.players and quick is not None and quick.quick_start and args.players not in quick.player_counts:
        ap.error(f"--players {args.players}: {quick.kind} takes {quick.min_players}-{quick.max_players} players")
    args.bot_seats = {}
    if args.bots:
        if not args.players:
            ap.error("--bots needs --players (at the table, the new-game questions ask for bots)")
        args.bot_seats = bot_seats(ap, args.bots, args.players)
    return args


def bot_seats(ap: argparse.ArgumentParser, text: str, players: int) -> dict[int, str | None]:
    """`--bots 2,4:hard`: 0-based seat -> its bot (None: the table's), checked; ap.error says what is wrong."""
    seats: dict[int, str | None] = {}
    for item in text.split(","):
        number, _, level = item.strip().partition(":")
        try:
            seat = int(number) - 1
        except ValueError:
            ap.error(f"--bots {text}: seat numbers separated by commas, each with :level if you like, e.g. 2,4:hard")
        if level and level not in bot_names():
            ap.error(f"--bots {text}: {level!r} is not a bot; use one of {', '.join(bot_names())}")
        seats[seat] = level or None
    if min(seats) < 0 or max(seats) >= players or len(seats) >= players:
        ap.error(f"--bots {text}: seats are 1-{players} and one must stay a person")
    return seats


# ----- inputs and outputs ------------------------------------------------------------------
class JournaldFormatter(logging.Formatter):
    """Each line starts with its syslog priority (`<3>` error ... `<7>` debug), which journald reads
    as the entry's level: `journalctl -u companion -p warning` then shows the warnings."""

    PRIORITY = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4, logging.ERROR: 3, logging.CRITICAL: 2}

    def format(self, record: logging.LogRecord) -> str:
        priority = self.PRIORITY.get(record.levelno, 6 if record.levelno < logging.WARNING else 3)
        return "\n".join(f"<{priority}>{line}" for line in super().format(record).splitlines() or [""])


def to_journald(stream: Any) -> bool:
    """True when `stream` is systemd's journal stream ($JOURNAL_STREAM names its device:inode)."""
    try:
        dev, ino = (int(x) for x in os.environ.get("JOURNAL_STREAM", "").split(":"))
        st = os.fstat(stream.fileno())
    except (ValueError, OSError, AttributeError):
        return False
    return (st.st_dev, st.st_ino) == (dev, ino)


def same_terminal(a: Any, b: Any) -> bool:
    """True when streams `a` and `b` write to one terminal (a log line there would draw over the screen)."""
    try:
        return a.isatty() and b.isatty() and os.path.samestat(os.fstat(a.fileno()), os.fstat(b.fileno()))
    except (OSError, ValueError, AttributeError):
        return False


def route_logs(driver: str, log_file: str | None, screen: Any = None, errors: Any = None) -> str | None:
    """Send log lines to `log_file` when asked, or when the screen is drawn on the terminal that stderr
    writes to; returns the file's path, None when stderr keeps them."""
    screen = sys.stdout if screen is None else screen
    errors = sys.stderr if errors is None else errors
    if log_file is None and not (on_terminal(driver) and same_terminal(screen, errors)):
        return None
    import tempfile  # only when the log goes to a file

    path = log_file or os.path.join(tempfile.gettempdir(), "companion.log")
    try:
        handler: logging.Handler = logging.FileHandler(path, encoding="utf-8")
    except OSError:
        handler = logging.NullHandler()  # never draw over the screen, even without a file
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, logging.StreamHandler)
                and not isinstance(h, logging.FileHandler) and getattr(h, "stream", None) is errors]:
        root.removeHandler(old)
        handler.setFormatter(old.formatter)
    root.addHandler(handler)
    return path


def load_config(path: str | None) -> Any:
    from companion.box import config

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

    from companion.hw.settings import DisplayConfig
    from companion.hw.display import open_display

    dcfg = cfg.display if cfg is not None else DisplayConfig()
    dcfg = replace(dcfg, driver=driver, frames_dir=frames_dir or dcfg.frames_dir)
    size = fixed_size(driver)
    if size is not None:
        dcfg = replace(dcfg, width=size[0], height=size[1], rotate=0)
    return open_display(dcfg)


class FrameSaver:
    """Writes each distinct frame once, as DIR/frame_NNNN.png (for the gallery and README)."""

    def __init__(self, folder: str) -> None:
        from pathlib import Path  # only with --save-frames

        self.dir = Path(folder)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.seen: set[bytes] = set()

    def __call__(self, screen: Any, image: Any) -> None:
        key = image.tobytes()
        if key not in self.seen:
            self.seen.add(key)
            image.save(self.dir / f"frame_{len(self.seen):04d}.png")


# ----- set-up --------------------------------------------------------------------------------
def build(args: argparse.Namespace) -> Daemon:
    """Everything `main` sets up before the loop (tests drive the returned Daemon)."""
    headless = args.keys is not None
    script = read_key_script(args.keys) if headless else None
    cfg = load_config(args.config) if (args.config or not headless or needs_config(args.display)) else None
    driver = choose_driver(args, cfg)
    if not headless and on_terminal(driver):
        from companion.hw.terminal import read_piped_keys, stdin_is_tty

        if not stdin_is_tty():  # `echo 12#13# | companion run`: the keys as with --keys, then exit
            headless, script = True, read_piped_keys()
    rng = random.Random(args.seed)
    journal = None
    if not args.no_journal and (args.state_dir is not None or not headless):
        from companion.journal.store import find_state_dir  # a headless run without --state-dir has none

        journal = open_journal(find_state_dir(args.state_dir, cfg, on_box=is_raspberry_pi()))
    guard = crash_guard(journal)
    shell = start_table(args, journal, rng, cfg, say_resumed=on_terminal(driver), walkthrough=not headless)
    if not headless:
        tell_data_stand_in(shell)
        tell_card_problems(shell)
        tell_last_error(shell, guard)
    from companion.box.about import about_paragraphs, read_about

    shell.about = about_paragraphs(read_about())
    ask_switch(args, shell)
    route_logs(driver, args.log_file)
    sink = open_sink(driver, cfg, args.save_frames if writes_frames(driver) else None)
    panel = Panel.from_config(sink, cfg, headless=headless, brightness=shell.brightness)
    on_frame = FrameSaver(args.save_frames) if args.save_frames and not writes_frames(driver) else None
    announcer = open_announcer(args.announce_log, cfg, shell.sound.settings, outputs=not headless)
    daemon = Daemon(shell, panel, headless=headless, journal=journal, record_out=args.record_out,
                    on_frame=on_frame, search_options=search_options(args, cfg), announcer=announcer)
    if guard is not None:
        daemon.on_started = guard.started
    if script is not None:
        daemon.key_delay = max(0.0, args.key_delay)
        for token in script:
            daemon.put_script(token)
        daemon.put_script(EOF)
    else:
        open_inputs(daemon, cfg, emulated=on_terminal(driver))
    key_socket = args.key_socket or (cfg.web.resolved_key_socket() if cfg is not None and cfg.web.enabled else None)
    if script is None and cfg is not None and cfg.camera is not None:
        from companion.kiosk.camera import camera_watch  # only for a box with a camera

        stored = journal.setting("camera_corners") if journal is not None else None
        frame = os.path.join(os.path.dirname(key_socket), CAMERA_FRAME) if key_socket else None
        daemon.camera = camera_watch(cfg.camera, shell.kind, daemon.put, daemon.state_dir(),
                                     stored if isinstance(stored, list) else None, frame)
    if script is None and daemon.state_dir() is not None:
        from companion.kiosk.update_watch import UpdateWatch

        daemon.update_watch = UpdateWatch(Path(daemon.state_dir()) / "update", daemon.put)
    if key_socket:
        from companion.hw.keysocket import KeySocket  # sockets only for a table with its page

        daemon.inputs.append(KeySocket(key_socket, daemon.put))
    return daemon


def crash_guard(journal: Any) -> Any:
    """The start marker against crash loops (companion.kiosk.crashguard), for a journal that opened."""
    if journal is None:  # a headless run without --state-dir loads no journal code at all
        return None
    from companion.journal.store import JournalWriter

    if not isinstance(journal, JournalWriter):
        return None
    from companion.kiosk.crashguard import CrashGuard

    guard = CrashGuard(journal)
    guard.before_start()
    return guard


def start_language(args: argparse.Namespace, cfg: Any, stored: Any) -> None:
    """The table's language: --lang, else the menu's last choice (journaled), else the config's,
    else the system locale's, else English."""
    menu_choice = stored if stored in LANGUAGES else None
    code = i18n.choose(getattr(args, "lang", None) or menu_choice, getattr(cfg, "language", None))
    i18n.set_language(code)
    log.info("language %s", code)


def tell_resumed(shell: Shell, started: float | None) -> None:
    """In the terminal (a laptop, not the box) a resumed game says so on its first screen,
    with the way to a new game: the next run must never continue a game silently."""
    import time

    from companion.i18n import _

    date = time.strftime("%Y-%m-%d %H:%M", time.localtime(started)) if started else "?"
    # NOTE: max 25 characters
    title = _("Game resumed")
    # NOTE: body text, wraps at 21 characters; keep it within 4 lines (one page)
    text = _("Your game of {date} goes on. D: menu for a new game.")
    shell.tell(title, [text.format(date=date)], "resumed")


def tell_last_error(shell: Shell, guard: Any) -> None:
    """The first screen after the companion stopped with an error (and systemd started it
    again) says so, unless a message of the journal's or the card's is showing: a box owner
    then knows to look at the log (`journalctl -u companion`; the image keeps the last boots')."""
    from companion.i18n import _

    if guard is None or guard.last_error is None or shell.notice.shown:
        return
    # NOTE: max 25 characters
    title = _("Stopped last time")
    # NOTE: body text, wraps at 21 characters; keep it within 4 lines (one page)
    text = _("The companion stopped with an error and started again. The game is kept.")
    # NOTE: body text, wraps at 21 characters; at most 2 lines; keep "journalctl" as it is
    log_hint = _("journalctl has the details.")
    shell.tell(title, [text, log_hint], "last-error")


def tell_data_stand_in(shell: Shell, path: str | None = None) -> None:
    """On the SD-card image: the card has no data partition (or it would not mount), so the
    journal is in RAM (companion-data's stand-in). The first screen says so before anything
    else: the table plays, but loses its games at power off unless the card is written again."""
    from companion.box.data_stand_in import STAND_IN_FILE, read_stand_in
    from companion.i18n import _

    reason = read_stand_in(path or STAND_IN_FILE)
    if reason is None:
        return
    log.warning("the card's data partition is %s: games are kept in RAM until power off", reason)
    # NOTE: max 25 characters
    title = _("Games not saved")
    if reason == "damaged":
        # NOTE: body text, wraps at 21 characters; keep it within 4 lines (one page)
        text = _("The card's data partition does not mount. Games last until power off.")
    else:
        # NOTE: body text, wraps at 21 characters; keep it within 4 lines (one page)
        text = _("The card has no data partition. Games last until power off.")
    # NOTE: body text, wraps at 21 characters; at most 3 lines
    fix = _("Write the image to the card again to keep them.")
    shell.tell(title, [text, fix], "data-stand-in")


def tell_card_problems(shell: Shell, path: str | None = None) -> None:
    """On the SD-card image: what the settings card (companion.txt) got wrong at this boot, on
    the first screen unless a message of the journal's is showing; the serial console has it too."""
    from companion.box.card import PROBLEMS_FILE, read_problems
    from companion.i18n import _

    problems = read_problems(path or PROBLEMS_FILE)
    if not problems or shell.notice.shown:
        return
    first = problems[0]
    # NOTE: max 25 characters
    title = _("Settings card")
    # NOTE: body text, wraps at 21 characters; keep it within 4 lines (one page). {key} is a setting's name;
    # {file} is companion.txt or a file Raspberry Pi Imager wrote (firstrun.sh)
    text = _("{file} line {line}: {key} is wrong and was left out.").format(file=first.source, line=first.line,
                                                                          key=first.key)
    # NOTE: body text, wraps at 21 characters; at most 2 lines
    more = [_("Wrong lines in all: {n}. The serial console lists them.").format(n=len(problems))] if len(problems) > 1 else []
    shell.tell(title, [text] + more, "card")


def start_table(args: argparse.Namespace, journal: JournalPort | None, rng: random.Random,
                cfg: Any = None, say_resumed: bool = False, walkthrough: bool = False) -> Shell:
    """The shell and its first game: a record (--load), a quick start (--players), the journal's
    unfinished game, or a new game of --game (the registry's default game without it).
    `say_resumed`: an unfinished game taken up from the journal says so on its first screen;
    `walkthrough`: a quick start, or a record of a game not yet begun, at a table (not a key script)
    shows the setup walkthrough first."""
    kind = args.game or DEFAULT_GAME
    resumed_at: float | None = None
    stored = journal.setting("brightness") if journal is not None else None
    start_language(args, cfg, journal.setting("language") if journal is not None else None)
    game, journaled = None, []
    if args.load:
        game = find_game(kind).load().from_record_file(args.load, rng, walkthrough=walkthrough)
    elif args.players:
        table_bot = table_bot_name(args, cfg)
        bots = {seat: level or table_bot for seat, level in sorted(args.bot_seats.items())}
        game = find_game(kind).load().quick_start(args.players, rng, bots=bots, walkthrough=walkthrough,
                                                  teach=teach_default(args, cfg))
    elif journal is not None:
        resumed = journal.resume(include_finished=True)
        if resumed is not None and resumed.finished and args.game not in (None, resumed.kind):
            log.info("journal's last game is a finished %s game; --game %s starts a new one", resumed.kind, args.game)
        elif resumed is not None:  # an unfinished game of another kind than --game: asked below
            journaled = resumed.actions
            kind, game = rebuild(journal, resumed, kind, rng)
            if resumed.finished:
                game.pop_effects()  # its end is filed already: the final screen is back, nothing else
                log.info("showing the end of game %s (%d actions)", resumed.game_id, len(resumed.actions))
            else:
                log.info("resumed game %s (%d actions)", resumed.game_id, len(resumed.actions))
                resumed_at = journal.started_at(resumed.game_id) or 0.0
    if game is None:
        game = find_game(kind).load().new(rng)
    _, brightness = entries.split_journal(journaled, stored)
    history = journal.history if journal is not None else None
    sound = SoundSettings.from_stored(journal.setting("sound") if journal is not None else None,
                                      sound_defaults(cfg))
    shell = Shell(list(GAMES.values()), kind, game, rng, brightness, history, sound)
    shell.bot_level = table_bot_name(args, cfg)
    shell.teach = teach_default(args, cfg)
    shell.roster = roster(journal, cfg)
    if journal is not None:  # (imported only with a journal: a headless run has none)
        from companion.journal.store import JournalWriter

        if isinstance(journal, JournalWriter):  # the table's memory reads the journal it can open
            from companion.history.kiosk import KioskMemory

            shell.memory = KioskMemory(journal.state_dir)
    if journal is not None and journal.repairs:
        if isinstance(journal, JournalWriter):
            shell.tell(T.REPAIRED_TITLE, journal.repairs, "repaired")
        else:  # a journal that could not be opened: nothing was repaired, nothing can be saved yet
            shell.tell(T.UNSAVED_TITLE, journal.repairs, "unsaved")
    elif say_resumed and resumed_at is not None and args.game in (None, kind):
        tell_resumed(shell, resumed_at)
    return shell


def table_bot_name(args: argparse.Namespace, cfg: Any) -> str:
    """The table's bot: --bot, else the config's game.bot, else the registry's default (a level, normal)."""
    return args.bot or getattr(getattr(cfg, "game", None), "bot", None) or default_bot()


def teach_default(args: argparse.Namespace, cfg: Any) -> bool:
    """A new game teaches its rules: --teach, else the config's game.teach."""
    return bool(args.teach or getattr(getattr(cfg, "game", None), "teach", False))


def ask_switch(args: argparse.Namespace, shell: Shell) -> None:
    """`--game KIND` while the journal holds an unfinished game of another kind: the table asks,
    as the menu's switch does ("Other game? This game will be abandoned."); BACK keeps the
    game, and a later `run --game` of its kind resumes it. A game without moves is just left."""
    if args.game is not None and not args.load and not args.players and shell.kind != args.game:
        log.info("journal holds a %s game; --game %s: switching, asking first if it is under way",
                 shell.kind, args.game)
        shell.ask_switch(args.game)


def roster(journal: Any, cfg: Any) -> list[str]:
    """The table's roster: the one the page last set (a journal setting), else the config's."""
    from companion.table.seatnames import check_roster

    stored = journal.setting("roster") if journal is not None else None
    if stored is not None:
        names, why = check_roster(stored)
        if why is None:
            return names
        log.warning("roster in the journal ignored: %s", why)
    return list(getattr(cfg, "roster", None) or [])


def sound_defaults(cfg: Any) -> SoundSettings:
    """Where the sound starts before the menu changed anything: the config's `sound:` section."""
    c = getattr(cfg, "sound", None)
    if c is None:
        return SoundSettings()
    return SoundSettings(speech=c.speech, volume=c.volume, speed=c.speed)


def open_announcer(log_path: str | None, cfg: Any, settings: SoundSettings, outputs: bool) -> Announcer:
    """The announce log (UsageError when FILE cannot be opened) and, at a real table (`outputs`),
    the voice and the configured buzzer; a missing espeak-ng or buzzer is logged and left silent."""
    log_file = None
    if log_path:
        try:
            log_file = open(log_path, "a", encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"--announce-log {log_path}: cannot open it ({exc.strerror or exc}); "
                             "give a file in a directory you can write") from None
    voice = buzzer = None
    if outputs:
        from companion.hw.sound import open_buzzer, open_voice

        c = getattr(cfg, "sound", None)
        voice = open_voice(getattr(c, "audio_device", None))
        if c is not None and c.buzzer_pin is not None:
            buzzer = open_buzzer(c.buzzer_pin, passive=c.buzzer_type == "passive", patterns=buzzer_patterns())
    return Announcer(settings, log_file, voice, buzzer)


def search_options(args: argparse.Namespace, cfg: Any) -> dict:
    """The bot asked for and its budget, for every game's searcher: the command line first, then the
    config; a game whose bots do not include the one asked for (or none asked) plays its own default
    (GameType.bot_for)."""
    game_cfg = getattr(cfg, "game", None)
    return {"bot": args.bot or getattr(game_cfg, "bot", None),
            "move_time": args.bot_time if args.bot_time is not None else getattr(game_cfg, "bot_move_time", 0.5),
            "iterations": args.bot_iterations, "seed": args.seed, "hint": getattr(game_cfg, "hint", None),
            "most": MAX_BOT_MOVE_TIME}


def open_journal(state_dir: str) -> Any:
    """The journal's writer; when the journal cannot be opened, a stand-in that refuses every
    write (the table shows why) and opens it as soon as the storage works again."""
    from companion.journal.store import Journal, JournalWriter
    from companion.journal.late import LateJournal

    try:
        return JournalWriter(Journal(state_dir))
    except OSError as exc:
        log.error("journal %s cannot be opened (%s): every key that changes the game is refused until it can",
                  state_dir, exc)
        return LateJournal(state_dir, T.NO_JOURNAL)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else list(argv))
    level = (logging.WARNING, logging.INFO, logging.DEBUG)[min(args.verbose + (0 if args.keys else 1), 2)]
    logging.basicConfig(level=level, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    if to_journald(sys.stderr):
        for handler in logging.getLogger().handlers:
            handler.setFormatter(JournaldFormatter("%(levelname)s %(name)s: %(message)s"))
    try:
        daemon = build(args)
        return daemon.run()
    except UsageError as exc:
        print(f"companion run: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:
        from companion.kiosk.crashguard import start_died

        start_died(exc)  # a start under way records the error it dies of (companion.kiosk.crashguard)
        raise


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
