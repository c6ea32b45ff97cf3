"""The loop at the table: one thread owns the state; keys in, effects carried out, frames out.

    queue -> shell.handle (the table, wrapping the current game)
          -> drain the effects: Persist / GameOver / SetBrightness -> journal (durable
             before anything is shown), Search / Hint -> the game's searcher (on a worker
             thread while this one keeps the watchdog and the panel alive), SetBrightness ->
             panel, PowerOff -> stop and power off, Announce / SetSound / Repeat -> the announcer
             (companion.kiosk.announce: the announce log, the voice and the buzzer, on their own threads),
             NewPin -> the page's PIN file in the state directory (companion.web.pinfile reads it)
          (events from the page's key socket: its address, the roster, a game to take out of the history,
           the camera's corners; from the camera's thread, companion.kiosk.camera: what it saw, its trouble)
          -> render the screen -> panel (brightness, idle dim, pixel shift) -> display sink

Set-up (arguments, config, adapters, the first game) is `companion.kiosk.daemon`; this
module names no game either.
"""

from __future__ import annotations

import gc
import json
import logging
import os
import queue
import random
import time
from typing import TYPE_CHECKING, Any, Callable

from companion.games import find_game
from companion.hw.panel import Panel
from companion.hw.platform import is_raspberry_pi
from companion.table import keys as K
from companion.table import entries
from companion.table import texts as T
from companion.kiosk.announce import Announcer
from companion.table.pagelink import PIN_FILE
from companion.table.effects import Announce, CopyHistory, Effect, GameOver, Hint, InstallUpdate, NewPin, \
    Persist, PowerOff, Repeat, Search, SetBrightness, SetLanguage, SetSound, SwitchGame
from companion.util.bounded import clip
from companion.table.protocol import TableGame
from companion.table.shell import Shell
from companion.kiosk.recovery import Failures, Rollback, fallback_screen

if TYPE_CHECKING:  # imported where used: a run without a journal or a search never loads them
    from concurrent.futures import ThreadPoolExecutor

    from companion.journal.port import JournalPort
    from companion.journal.store import Resumed

log = logging.getLogger("companion.run")

EOF = object()  # end of the key script / of stdin: finish and exit
TICK_S = 1.0
NOISE_HOLD_S = 3.0  # this long after noise on the keypad's line, a yes the table cannot take back asks again
NOISE_NOTICE_S = 60.0  # the OLED says "keypad cable: noise" at most this often (and whenever it holds a yes)
HOLD_ON_NOISE = frozenset({"undo?", "new?", "switch?", "shutdown?", "update?"})  # those questions, by screen name


# ----- the daemon --------------------------------------------------------------------------
class Daemon:
    """The main loop: one queue in, the shell, its effects drained, one panel out."""

    def __init__(self, shell: Shell, panel: Panel, *, headless: bool, journal: JournalPort | None = None,
                 record_out: str | None = None, on_frame: Callable[[Any, Any], None] | None = None,
                 clock: Callable[[], float] = time.monotonic, search_options: dict | None = None,
                 announcer: Announcer | None = None) -> None:
        self.shell = shell
        self.panel = panel
        self.headless = headless
        self.journal = journal
        self.record_out = record_out
        self.on_frame = on_frame
        self.clock = clock
        self.search_options = search_options or {}
        self.announcer = announcer if announcer is not None else Announcer(shell.sound.settings)
        self.announcer.names = lambda: self.shell.game.names
        self.searchers: dict[str, Any] = {}
        self.queue: queue.Queue = queue.Queue()
        self.inputs: list[Any] = []
        self.update_watch: Any = None  # companion.kiosk.update_watch: a USB stick's update, the last one's outcome
        self.terminal: Any = None
        self.last_screen: Any = None
        self.frames = 0
        self.status_sent = ""
        self.key_delay = 0.0
        self.power_off = False
        self.device: Any = None
        self.tick = TICK_S  # how often the watchdog is fed while waiting (half its interval under systemd)
        self.may_power_off: Callable[[], bool] = is_raspberry_pi
        self.run_command: Callable[[list[str]], tuple[int, str]] = run_command
        self.worker: ThreadPoolExecutor | None = None  # runs the searches, made on the first one
        self.on_started: Callable[[], None] | None = None  # called once the first screens showed
        self.failures = Failures()  # what failed is contained and logged once (companion.kiosk.recovery)
        self.rollback = Rollback(journal, shell.rng)
        self.failed = False  # the game's screen could not be built or drawn: the fallback shows
        self.shown_at = clock()  # when the screen on the panel first showed
        self.confirm_shown = False  # it is a confirmation: only a key pressed after `shown_at` answers it
        self.noise_at: float | None = None  # when the serial keypad's line last carried noise
        self.noise_told_at: float | None = None
        self.camera: Any = None  # the camera above the board (companion.kiosk.camera), when one is set up

    def put(self, key: Any) -> None:
        """Thread-safe: the adapters' callback. The key is stamped with when it was pressed."""
        self.queue.put((self.clock(), key))

    def put_script(self, key: Any) -> None:
        """A key of a script (--keys, a pipe): pressed when the loop takes it, after the screen before it."""
        self.queue.put((None, key))

    def page_event(self, event: Any) -> bool:
        """The events that are not keys (the table's page's, the keypad's noise); True when `event` was one.
        (Imported here: keys are strings, only a table with its page or a serial keypad sends these.)"""
        from companion.hw.keyevents import (CameraCorners, CameraSaw, CameraTrouble, LineNoise, PhoneUrl, RemoveGame,
                                            RosterUpdate, UpdateNews, UpdateOffer)

        if isinstance(event, CameraSaw):  # a game that takes the camera's news has camera_seen
            seen = getattr(self.shell.game, "camera_seen", None)
            if seen is not None and not self.failed and self.shell.game_in_front():
                seen(event.kind, event.ply, event.move, event.territories)
                self.drain()
                self.show()
                self.announcer.flush()
            return True
        if isinstance(event, LineNoise):
            self.noise_at = self.clock()
            self.tell_noise(force=False)
            return True
        if isinstance(event, PhoneUrl):  # the table's page says where it is (or that it is gone)
            self.shell.set_phone_url(event.url)
            self.show()
            return True
        if isinstance(event, RosterUpdate):  # the page changed the players' names (with the PIN)
            self.set_roster(list(event.names))
            return True
        if isinstance(event, CameraTrouble):  # the camera does not answer: said once per cause
            self.shell.tell(T.CAMERA_TROUBLE_TITLE, [T.camera_trouble(event.why)], "camera-trouble")
            self.show()
            return True
        if isinstance(event, CameraCorners):  # the page (with the PIN) says where the board is in the picture
            self.set_camera_corners(list(event.corners))
            return True
        if isinstance(event, UpdateOffer):  # a USB stick with an update: # installs it
            if event.problem:
                self.shell.tell(T.UPDATE_TITLE, [T.update_not_taken(event.problem)], "update-refused")
            else:
                self.shell.offer_update(event.version, event.bundle)
            self.show()
            log.info("update: asking whether to install %s (# installs it)", event.version)
            return True
        if isinstance(event, UpdateNews):  # what the last update did, once
            self.shell.tell(T.UPDATE_TITLE, [T.update_news(event.state, event.reason, event.version)], "update-news")
            self.show()
            log.info("update: told what the last update did (%s)", event.state)
            return True
        if isinstance(event, RemoveGame):  # the page took a game out of the history (with the PIN, confirmed)
            self.remove_game(event.game_id)
            return True
        return False

    # one step of the loop ---------------------------------------------------------------
    def step(self, key: Any, pressed_at: float | None = None) -> bool:
        """Handle one queued item (pressed at `pressed_at`, None: now); False when the loop should end.
        Nothing that fails in here ends the loop (companion.kiosk.recovery)."""
        if key is EOF or key == K.QUIT:
            return False
        if not isinstance(key, str):
            self.failures.contain("page event", lambda: self.page_event(key))
            return True
        if self.panel.key():  # the key that wakes a dark panel is swallowed
            return True
        if self.typed_ahead(key, pressed_at) or self.held_for_noise(key, pressed_at):
            return True
        self.announcer.key_pressed()
        if self.failed and key in (K.UNDO, K.MENU):
            self.failures.contain("recovery", lambda: self.recover(key))
        elif self.failed and key not in (K.POWER, K.REPEAT):
            log.info("key %r ignored: the screen failed (C takes back the last key, D opens the menu)", key)
        else:
            self.rollback.key()
            self.failures.contain(f"key {key!r}", lambda: self.shell.handle(key, self.clock()))
        self.drain()
        self.show()
        self.failures.contain("announcement", self.announcer.flush)
        return not self.power_off

    def typed_ahead(self, key: str, pressed_at: float | None) -> bool:
        """True when `key` was pressed before the confirmation on the panel showed: nobody has
        seen what it would confirm (a second # pressed while a bot thought), so it is dropped."""
        if pressed_at is None or not self.confirm_shown or pressed_at >= self.shown_at:
            return False
        log.info("key %r dropped: pressed before the confirmation %r showed", key, self.last_screen.name)
        return True

    def held_for_noise(self, key: str, pressed_at: float | None) -> bool:
        """True when `key` says yes to what the table cannot easily take back (a question of HOLD_ON_NOISE,
        or C on the failure screen, which sets saved actions aside) within NOISE_HOLD_S of noise on the
        keypad's line: it is dropped, the OLED says why, and the question shows again after it."""
        if self.noise_at is None:
            return False
        if key == K.OK:
            held = self.confirm_shown and getattr(self.last_screen, "name", None) in HOLD_ON_NOISE
        else:
            held = key == K.UNDO and self.failed
        when = self.clock() if pressed_at is None else pressed_at
        if not held or when - self.noise_at > NOISE_HOLD_S:
            return False
        log.warning("key %r held: noise on the keypad's line %.1f s from it; asked again",
                    key, abs(when - self.noise_at))
        self.tell_noise(force=True)
        return True

    def tell_noise(self, force: bool) -> None:
        """The notice "keypad cable: noise" (any key goes back): at most every NOISE_NOTICE_S unless `force`."""
        now = self.clock()
        if force or self.noise_told_at is None or now - self.noise_told_at >= NOISE_NOTICE_S:
            self.noise_told_at = now
            self.shell.tell(T.NOISE_TITLE, [T.NOISE], "keypad-noise")
            self.show()

    def recover(self, key: str) -> None:
        """A key on the fallback screen: C takes back the last key (companion.kiosk.recovery), D opens the menu."""
        if key == K.MENU:
            self.shell.open_menu()
            return
        kind, game, dropped = self.rollback.take_back(self.shell.kind, rebuild)
        self.shell.replace_game(kind, game)
        log.warning("taken back after a failure: %d saved action(s) set aside", dropped)
        self.shell.tell(T.FAILED_TITLE, [T.taken_back(dropped)], "taken-back")

    def drain(self) -> None:
        """Carry out every effect the table asks for, in order, until the outbox stays empty.
        Each batch's journal effects are written first, in one transaction; when that fails the
        key is refused: the game goes back to what the journal holds and the table is told."""
        while True:
            _, effects = self.failures.contain("effects", self.shell.pop_effects, [])
            if not effects:
                return
            try:
                rest = self.save(effects)
            except Exception as exc:
                log.error("journal: cannot write (%s): the last key is refused", exc)
                self.failures.contain("restore", self.restore)
                return
            for effect in effects:
                if isinstance(effect, Persist):
                    self.rollback.remember(effect.kind, list(effect.actions), effect.new_game)
            for effect in rest:
                self.failures.contain(type(effect).__name__, lambda: self.apply(effect))
            if any(isinstance(e, Persist) and e.new_game for e in effects):
                # a new game: the last one's objects (cycles among controller, session, engine) go
                # now, not at the collector's rare full pass, so memory does not creep with games played
                gc.collect()

    def save(self, effects: list[Effect]) -> list[Effect]:
        """Journal the batch's journal effects (durable before anything is shown); the others, in order."""
        if self.journal is not None:
            self.journal.write_all(effects)  # brightness too: it is a setting of the journal's
        else:
            for effect in effects:
                if isinstance(effect, Persist):
                    log.debug("actions (not journaled): %s", effect.public())
        return [e for e in effects if not isinstance(e, (Persist, GameOver))]

    def copy_history(self, target: str) -> None:
        """The menu's "Copy history to USB": every format into a dated folder, and what came of it."""
        memory = self.shell.memory
        if memory is None:
            return
        self.shell.tell(T.USB_TITLE, [T.COPYING], "usb-copying")
        self.show()  # a slow stick takes a few seconds: the table sees that it is at work
        done, message = memory.copy(target)
        self.shell.tell(T.USB_TITLE, [message], "usb-done" if done else "usb-failed")

    def set_roster(self, names: list[str]) -> None:
        """Keep the roster the page sent (a journal setting: it survives a restart), when it is one."""
        from companion.table.seatnames import check_roster

        checked, why = check_roster(names)
        if why is not None:
            log.warning("roster from the page refused: %s", why)
            return
        if not self.keep_setting("roster", checked, "roster"):
            return
        self.shell.roster = checked
        log.info("roster: %d names", len(checked))

    def set_camera_corners(self, values: list[float]) -> None:
        """Corners tapped on the page: kept (a journal setting over the config's) when they make a
        board in the camera's picture, and handed to the camera."""
        if self.camera is None:
            log.warning("camera corners from the page ignored: this box has no camera set up (config camera:)")
            return
        corners = self.camera.camera_pixels(values)
        why = self.camera.set_corners(corners)
        if why is not None:
            log.warning("camera corners from the page refused: %s", why)
            return
        self.keep_setting("camera_corners", corners, "camera corners")

    def keep_setting(self, name: str, value: Any, what: str) -> bool:
        """`value` as the journal's setting `name` (it survives a restart); False, logged, when the
        journal cannot take it (a run without a journal keeps nothing and says True)."""
        if self.journal is None:
            return True
        try:
            self.journal.set_setting(name, value)
        except Exception as exc:
            log.error("%s not kept: %s", what, exc)
            return False
        return True

    def remove_game(self, game_id: int) -> None:
        """Take finished game `game_id` out of the history as the page asked: the journal's own call
        (`Journal.remove_game`, as `companion history --remove N`); the page reads the outcome there."""
        if self.journal is None:
            log.warning("game %s not taken out of the history: this run keeps no journal", game_id)
            return
        why = self.journal.remove_game(game_id, "taken out on the table's page (with the PIN)")
        if why is not None:
            log.warning("game %s not taken out of the history from the page: %s", game_id, why)

    def restore(self) -> None:
        """After a failed write: the game as the journal holds it, and a message saying what to do."""
        try:
            resumed = self.journal.resume(include_finished=True)
        except Exception:
            log.exception("journal: cannot read back either")
            resumed = None
        kind, game = rebuild(self.journal, resumed, self.shell.kind, self.shell.rng)
        self.shell.replace_game(kind, game)
        self.shell.tell(T.UNSAVED_TITLE, [T.UNSAVED], "unsaved")

    def apply(self, effect: Effect) -> None:
        if isinstance(effect, SetBrightness):
            self.panel.set_brightness(effect.level)
        elif isinstance(effect, SetLanguage):
            log.info("language %s", effect.code)
        elif isinstance(effect, (Search, Hint)):
            self.search(effect)
        elif isinstance(effect, SwitchGame):
            log.info("switching to %s", effect.kind)
        elif isinstance(effect, PowerOff):
            self.shut_down()
        elif isinstance(effect, Announce):
            if effect.event == "teach":  # contract 6: a first game's explanation shown, once per rule
                log.info("teach %s", json.dumps({"rule": effect.fields.get("rule")}))
            self.announcer.add(effect)
        elif isinstance(effect, SetSound):
            self.announcer.set(effect.settings)
        elif isinstance(effect, CopyHistory):
            self.copy_history(effect.target)
        elif isinstance(effect, Repeat):
            self.announcer.repeat()
        elif isinstance(effect, NewPin):
            self.new_pin(effect.pin)
        elif isinstance(effect, InstallUpdate):
            self.install_update(effect.bundle)

    def state_dir(self) -> str | None:
        """The journal's directory (also when the journal could not be opened yet), None without one."""
        if self.journal is None:
            return None
        found = self.journal.state_dir
        return str(found) if found else None

    def install_update(self, bundle: str) -> None:
        """# confirmed a USB stick's update: request.json asks root to install it (the box restarts)."""
        from companion.update.status import request_install

        where = self.state_dir()
        try:
            if where is None:
                raise OSError("this run has no state directory (--state-dir)")
            request_install(os.path.join(where, "update"), bundle, "usb")
            log.info("update: install of %s asked for", bundle)
        except OSError as exc:
            log.error("update: cannot ask for the install: %s", exc)
            self.shell.tell(T.UPDATE_TITLE, [T.update_not_taken(str(exc))], "update-refused")

    def new_pin(self, pin: str) -> None:
        """The menu's New PIN: written (0600, atomically) where the page reads it; the PIN itself is
        never logged. When it cannot be written the table is told, and the old PIN stays."""
        from companion.util.fsutil import atomic_write_text

        where = self.state_dir()
        if where is None:
            log.error("new PIN not kept: this run has no state directory (--state-dir)")
            self.shell.tell(T.NEW_PIN, [T.pin_not_saved("--state-dir")], "pin-not-saved")
            return
        path = os.path.join(where, PIN_FILE)
        try:
            atomic_write_text(path, pin + "\n", mode=0o600)
        except OSError as exc:
            log.error("new PIN not kept: %s: %s", path, exc.strerror or exc)
            self.shell.tell(T.NEW_PIN, [T.pin_not_saved(clip(str(exc.strerror or exc), 40))], "pin-not-saved")
            return
        log.info("a new PIN for the table's page in %s (the page takes it at once)", path)

    def search(self, effect: Search | Hint) -> None:
        """A bot's move or a hint: shown as "Thinking..." while the game's searcher runs here."""
        self.show()
        self.announcer.flush()  # the table hears the last move while the bot thinks
        kind = self.shell.kind
        if kind not in self.searchers:
            self.searchers[kind] = find_game(kind).make_searcher(self.search_options)
        searcher = self.searchers[kind]
        what = f"bot {effect.level or getattr(searcher, 'name', '')} for" if isinstance(effect, Search) else "hint for"
        t0 = time.perf_counter()
        try:
            answer = self.wait_for(lambda: searcher.run(effect))
        except Exception:
            log.exception("%s P%d failed; it tries again after the next key", what, effect.seat + 1)
            answer = None
        else:
            log.info("%s P%d: %s after %.2f s", what, effect.seat + 1, answer, time.perf_counter() - t0)
        self.shell.deliver(effect, answer)

    def wait_for(self, work: Callable[[], Any]) -> Any:
        """`work()` on a worker thread; meanwhile this thread feeds the watchdog and the panel every tick.
        Keys pressed meanwhile wait in the queue, in order. Returns what `work` returned, or raises what it raised."""
        from companion.hw import notify

        if self.worker is None:
            from concurrent.futures import ThreadPoolExecutor  # lazy: the first search makes the worker

            self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="search")
        future = self.worker.submit(work)
        while True:
            try:
                return future.result(timeout=self.tick)
            except TimeoutError:
                notify.watchdog()
                self.failures.contain("display", self.panel.tick)

    def tell_camera(self) -> None:
        """Where the table is, for the camera's thread (a game without a camera says None)."""
        position = getattr(self.shell.game, "camera_position", None)
        self.camera.publish(position() if position is not None else None)

    def show(self) -> None:
        """The table's screen on the panel; when it cannot be built or drawn, the fallback screen."""
        from companion.table.render import render

        if self.camera is not None:
            self.failures.contain("camera", self.tell_camera)
        built, screen = self.failures.contain("screen", self.shell.screen)
        if built and screen == self.last_screen:  # drawn already: nothing to render
            self.failed = False
            return
        drawn, image = self.failures.contain("drawing", lambda: render(screen)) if built else (False, None)
        self.failed = not drawn
        if not drawn:
            screen = fallback_screen()
            if screen == self.last_screen:
                return
            ok, image = self.failures.contain("drawing the failure screen", lambda: render(screen))
            if not ok:
                return
        self.last_screen = screen
        self.shown_at = self.clock()
        self.confirm_shown = screen.confirm
        self.failures.contain("display", lambda: self.panel.show(image))
        self.frames += 1
        if self.on_frame is not None:
            self.failures.contain("frame saver", lambda: self.on_frame(screen, image))
        status = f"{self.shell.kind}: {screen.title}"
        if status != self.status_sent:
            from companion.hw import notify

            self.failures.contain("status", lambda: notify.status(status))
            self.status_sent = status

    def run(self) -> int:
        from companion.hw import notify

        self.failures.contain("display", self.panel.start)
        self.show()
        self.drain()  # a loaded game's first actions; a bot may be to move in a new or resumed game
        self.show()
        self.failures.contain("announcement", self.announcer.flush)  # whose turn it is, after a power cut too
        if self.on_started is not None:
            self.on_started()  # the start went through: companion.kiosk.crashguard's marker says so
        for adapter in self.inputs:
            adapter.start()
        if self.camera is not None:  # (show() above told it where the table is)
            self.camera.start()
        if self.update_watch is not None:
            self.update_watch.start()
        notify.ready("refereeing")
        interval = notify.watchdog_interval()
        self.tick = tick = min(TICK_S, interval / 2) if interval else TICK_S
        try:
            while True:
                try:
                    pressed_at, key = self.queue.get(timeout=None if self.headless else tick)
                except queue.Empty:
                    notify.watchdog()
                    self.failures.contain("display", self.panel.tick)
                    if self.terminal is not None and self.terminal.eof.is_set() and len(self.inputs) == 1:
                        break  # keys came from a pipe that has ended
                    continue
                if not self.step(key, pressed_at):
                    break
                notify.watchdog()
                if self.key_delay:
                    time.sleep(self.key_delay)
        except KeyboardInterrupt:
            log.info("interrupted")
        finally:
            notify.stopping()
            for adapter in self.inputs + [w for w in (self.camera, self.update_watch) if w is not None]:
                try:
                    adapter.close()
                except Exception:
                    log.exception("closing %r", adapter)
            if self.worker is not None:
                self.worker.shutdown(wait=False, cancel_futures=True)
            self.announcer.close()
            self.write_record()
            if self.journal is not None:
                self.journal.close()  # checkpoints the WAL: nothing pending before power-off
            self.device = getattr(self.panel.sink, "device", None)  # luma's dummy keeps the last frame
            self.panel.close()
        return 0

    def shut_down(self) -> None:
        """The table asked to shut down: on a kiosk, the panel goes dark and systemd powers the box
        off; when that is refused (no polkit rule, an inhibitor) the table is told and play goes on."""
        if self.headless or not self.may_power_off():
            log.info("shutdown asked; not on a Raspberry Pi (or headless), just exiting")
            self.power_off = True
            return
        self.show()  # "Shutting down: wait until the screen is dark" ...
        self.panel.set_power(False)  # ... and it goes dark before the power does
        refused = request_power_off(self.run_command)
        if refused is None:
            log.info("shutdown asked: powering off")
            self.power_off = True
            return
        log.error("power-off refused: %s", refused)
        self.panel.set_power(True)
        self.shell.shutting_down = False
        self.shell.tell(T.NO_POWER_OFF_TITLE, [T.no_power_off(refused)], "no-power-off")

    def write_record(self) -> None:
        if not self.record_out:
            return
        text = self.shell.game.record_json()
        if text is None:
            log.warning("no game yet: %s not written", self.record_out)
            return
        from companion.util.fsutil import atomic_write_text

        atomic_write_text(self.record_out, text)  # it makes the Path itself


def rebuild(journal: JournalPort | None, resumed: Resumed | None, kind: str,
            rng: random.Random) -> tuple[str, TableGame]:
    """The game a journal entry holds (a new game of `kind` without one). When the game refuses an
    action, the longest prefix it accepts is played and the journal sets the rest aside (kept, said)."""
    if resumed is None:
        return kind, find_game(kind).load().new(rng)
    cls = find_game(resumed.kind).load()
    actions, _ = entries.split_journal(resumed.actions)
    try:
        return resumed.kind, entries.rebuild_game(cls, resumed.actions, rng)
    except ValueError as exc:
        reason = f"the game refused an action: {clip(str(exc), 80)}"
    good, bad = 0, len(actions)  # from_actions(actions[:good]) works, actions[:bad] does not
    while bad - good > 1:
        mid = (good + bad) // 2
        try:
            cls.from_actions(actions[:mid], rng)
            good = mid
        except ValueError:
            bad = mid
    log.error("journal: game %s: %s; replaying its first %d actions", resumed.game_id, reason, good)
    if journal is not None:
        journal.truncate_to(entries.journal_index(resumed.actions, good), reason, resumed.game_id)
    return resumed.kind, entries.rebuild_game(cls, resumed.actions, rng, upto=good)


def run_command(argv: list[str]) -> tuple[int, str]:
    """Run `argv`; (exit status, its error output). Status 127 when it cannot run at all."""
    import subprocess

    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        return 127, str(exc)
    return done.returncode, done.stderr


def request_power_off(run: Callable[[list[str]], tuple[int, str]] = run_command) -> str | None:
    """Ask systemd/logind to power the box off: None when it will, else why not (one short line)."""
    status, errors = run(["systemctl", "poweroff"])
    if status == 0:
        return None
    return clip(" ".join(errors.split()) or f"systemctl exited with {status}", 120).strip("'\"")


