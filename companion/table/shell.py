"""The shell: the part of the table every game shares, wrapped around one game.

Composition, not inheritance: the shell holds the current `TableGame` and a
catalog of registered games (`GameType`, handed in by the daemon: the table
imports no game). It owns
- the D menu's frame: the game's items, then Brightness, "Play <other game>" for every
  other registered game, History (the last games, then the statistics: `memory`,
  companion.history.kiosk; C there lists the games to take one out of the history, after a
  yes/no question: a RemoveFromHistory effect), History to USB while a stick is mounted (a
  CopyHistory effect), Language, Shut down, Sound, Say again (the last announcement), New PIN while the table's page runs (a random PIN of `PIN_DIGITS` digits
  for the phones, after a yes/no question, shown big until a key; a NewPin effect has the
  daemon write it where the page reads it, and the page ends the old PIN's sessions) and,
  last (D then A reaches it), Phone view (the address of the table's web page and its QR
  code, from `set_phone_url`, shown until a key); an item is picked by A/B or by its number,
  10 and up by two digits (`keys.select_number`: "1" then "1" is item 11);
- the brightness (1..5), the sound settings (companion.table.sound) and the language,
  which survive a game switch and a restart; a REPEAT key (a long press of MENU) says
  the last announcement again, whatever shows;
- the shut-down question (also from a POWER long press) and the switch question;
- the seats' names at a new game (`roster`, companion.table.naming), journaled as the
  table's `{"a": "names"}` action in the game's journal entry, handed to the game;
- the table's own messages (`tell`: a write that failed, a journal repaired), shown over
  everything until a key, and the history of finished games (`history`, when the daemon
  hands in a way to read it), a line of the D menu.

Keys go to the shell's own open question first, else to the game; a D or POWER the
game leaves unused opens the menu or the shut-down question. Effects come out of
`pop_effects()`: the shell's own (SetBrightness, SetSound, SetLanguage, SwitchGame, PowerOff, Repeat,
Announce, CopyHistory, NewPin, RemoveFromHistory) and the game's.
"""

from __future__ import annotations

import logging
import random
import secrets
import time
from typing import Any, Callable, Sequence

from companion import __version__, i18n
from companion.table import keys as K
from companion.table import texts as T
from companion.table import entries, seatnames
from companion.table.gametimes import stored_times_problem
from companion.table.pagelink import PIN_DIGITS
from companion.table.effects import CopyHistory, Effect, InstallUpdate, NewPin, Persist, PowerOff, RemoveFromHistory, \
    Repeat, SetBrightness, SetLanguage, SwitchGame
from companion.table.info import InfoPager
from companion.table.naming import SeatNaming
from companion.table.phone import phone_screen
from companion.table.protocol import GameType, TableGame, TableGameBase
from companion.table.screen import ENTRY, MENU, TEXT, Header, Screen, confirm_screen, wrap
from companion.table.sound import SoundMenu, SoundSettings
from companion.table.entries import BRIGHTNESS_LEVELS, DEFAULT_BRIGHTNESS, LEGACY_BRIGHTNESS  # noqa: F401 (kept here)


def make_pin(digits: int = PIN_DIGITS) -> str:
    """A random PIN of `digits` digits (secrets: nobody can work it out from the box's other output)."""
    return "".join(secrets.choice("0123456789") for _ in range(digits))


def pin_groups(pin: str, size: int = 5) -> str:
    """`pin` in groups of `size` digits, easier to read off the panel ("12345 67890")."""
    return " ".join(pin[i:i + size] for i in range(0, len(pin), size))


class Shell:
    def __init__(self, catalog: Sequence[GameType], kind: str, game: TableGame,
                 rng: random.Random | None = None, brightness: int = DEFAULT_BRIGHTNESS,
                 history: Callable[[], list[dict]] | None = None, sound: SoundSettings | None = None) -> None:
        self.catalog = list(catalog)
        self.history = history
        self.notice = InfoPager()
        self.kind = kind
        self.game = game
        self.rng = rng if rng is not None else random.Random()
        self.brightness = brightness
        self.sound = SoundMenu(sound if sound is not None else SoundSettings())
        self.shutting_down = False
        self.question: str | None = None  # menu | brightness | sound | language | shutdown | switch | newpin
        self.menu_sel = 0
        self.menu_typed = ""  # the digits of an item's number typed so far ("1" of 14 items waits: 1 or 10-14)
        self.bright_sel = 0
        self.lang_sel = 0
        self.remove_sel = 0  # the History's list of games to take one out (C): the highlighted row
        self._removable: list[tuple[int, str]] = []  # (game id, its row)
        self.switch_to: str | None = None
        self.update_offer: tuple[str, str] | None = None  # (version, bundle) a USB stick offers
        self.phone_url: str | None = None  # the web service's address; None: not running
        self.about: list[str] = []  # the About item's paragraphs (the kiosk reads the versions)
        self.phone_shown = False
        self.pin_shown: str | None = None  # the new PIN on the panel, until a key
        self.roster: list[str] = []  # names a seat may pick at a new game (none: seats stay "Player N")
        self._bot_level = "bot"
        self._teach = False
        self.naming: SeatNaming | None = None  # who sits where, while it is asked
        self._fresh = False  # the game's journal entry was opened under this shell (not resumed)
        self._unnamed: Any = None  # a finished game found without names: not asked
        self.memory: Any = None  # the table's memory (companion.history.kiosk.KioskMemory): statistics, USB
        self._sticks: list = []  # USB sticks mounted when the menu opened
        self._effects: list[Effect] = []

    @property
    def bot_level(self) -> str:
        """The table's bot (--bot, the config's game.bot): what a new bot seat plays and, for a game that
        does not say its seats' bots, how they are named ("Bot 2 (normal)"); the game in front knows it."""
        return self._bot_level

    @bot_level.setter
    def bot_level(self, name: str) -> None:
        self._bot_level = name
        self.game.table_bot = name

    @property
    def teach(self) -> bool:
        """Whether a new game teaches its rules at first (--teach, the config's game.teach)."""
        return self._teach

    @teach.setter
    def teach(self, on: bool) -> None:
        self._teach = on
        self.game.teach_default = on

    # A journal entry decoded (companion.table.entries, which the page reads entries with too)
    split_journal = staticmethod(entries.split_journal)
    journal_names = staticmethod(entries.journal_names)
    named = staticmethod(entries.named)
    journal_index = staticmethod(entries.journal_index)

    # ----- keys ------------------------------------------------------------------------------
    def handle(self, key: str, now: float) -> None:
        if self.shutting_down or not K.is_key(key):
            return
        if key == K.REPEAT:  # whatever shows stays: only the voice says the last announcement again
            self._effects.append(Repeat())
            return
        if self.notice.shown and self.notice.name == "history" and key == K.UNDO:
            self.notice.clear()  # C over the History: the list of games, to take one out
            self._removable = [(gid, T.remove_choice(gid, when, title)) for gid, when, title, _line
                               in self._history_entries() if type(gid) is int]
            self.question, self.remove_sel = ("remove", 0) if self._removable else (None, 0)
            return
        if self.notice.shown and key != K.POWER:
            self.notice.key(key, ())  # A/B page it; any other key only dismisses it
            return
        self.notice.clear()
        if self.phone_shown or self.pin_shown:  # any key only dismisses it (POWER goes on, as over a notice)
            self.phone_shown, self.pin_shown = False, None
            if key != K.POWER:
                return
        if self.question is not None:
            {"menu": self._key_menu, "brightness": self._key_brightness, "sound": self._key_sound,
             "language": self._key_language, "shutdown": self._key_shutdown,
             "switch": self._key_switch, "names": self._key_names, "newpin": self._key_new_pin,
             "remove": self._key_remove, "remove?": self._key_remove_confirm,
             "update?": self._key_update}[self.question](key)
            return
        with seatnames.using(self.game.names):
            if self.game.handle(key, now):
                return
        if key == K.POWER:
            self.question = "shutdown"
        elif key == K.MENU:
            self.open_menu()

    def open_menu(self) -> None:
        """The D menu, over whatever shows (also from the failure screen: companion.kiosk.recovery)."""
        self.notice.clear()
        self.phone_shown, self.pin_shown = False, None
        self.question, self.menu_sel, self.menu_typed = "menu", 0, ""
        self._sticks = self.memory.sticks() if self.memory is not None else []

    def _menu(self) -> list[tuple[str, Any]]:
        """(label, what it does) for every item of the D menu."""
        items: list[tuple[str, Any]] = [(label, i) for i, label in enumerate(self.game.menu_items())]
        items.append((T.BRIGHTNESS, "brightness"))
        items += [(T.play_item(e.title), e.kind) for e in self.catalog if e.kind != self.kind]
        if self.history is not None:
            items.append((T.HISTORY, "history"))
        # only while a stick is mounted; the items key scripts count from either end stay in place
        items += [(T.COPY_TO_USB, ("usb", str(stick))) for stick in self._sticks[:1]]
        items.append((T.LANGUAGE, "language"))
        items.append((T.SHUT_DOWN, "shutdown"))
        items.append((T.ABOUT, "about"))  # between the items scripts count from the top and those from the end
        items.append((T.SOUND, "sound"))  # after the items key scripts count on
        items.append((T.REPEAT, "repeat"))
        if self.phone_url:  # the page runs: its PIN can be changed (just before Phone view)
            items.append((T.NEW_PIN, "newpin"))
        items.append((T.PHONE_VIEW, "phone"))  # last: D, A (round to the end), # shows it
        return items

    def _key_menu(self, key: str) -> None:
        items = self._menu()
        moved, self.menu_typed = K.select_number(key, self.menu_sel, len(items), self.menu_typed)
        if moved is not None:
            self.menu_sel = moved
        elif key in (K.BACK, K.MENU):
            self.question = None
        elif key == K.OK:
            self.question = None
            self._choose(items[self.menu_sel][1])

    def _choose(self, what: Any) -> None:
        if isinstance(what, int):
            self.game.menu_choose(what)
        elif what == "brightness":
            self.question, self.bright_sel = "brightness", self.brightness - 1
        elif what == "sound":
            self.question, self.sound.selected = "sound", 0
        elif what == "repeat":
            self._effects.append(Repeat())
        elif what == "language":
            self.question, self.lang_sel = "language", i18n.LANGUAGES.index(i18n.language())
        elif what == "shutdown":
            self.question = "shutdown"
        elif what == "about":
            self.tell(T.ABOUT, self.about or [f"Clans companion {__version__}"], "about")
        elif what == "phone":
            self.phone_shown = True
        elif what == "newpin":
            self.question = "newpin"
        elif what == "history":  # the last games, then the statistics' short pages; C takes a game out
            stats = self.memory.stats_paragraphs() if self.memory is not None else []
            lines = self.history_lines()
            self.tell(T.HISTORY, (lines or [T.NO_HISTORY]) + ([T.STATISTICS] + stats if stats else [])
                      + ([T.REMOVE_HINT] if lines else []), "history")
        elif isinstance(what, tuple) and what[0] == "usb":
            self._effects.append(CopyHistory(what[1]))
        elif self.game.in_progress():
            self.question, self.switch_to = "switch", what
        else:
            self._switch(what)

    def _key_brightness(self, key: str) -> None:
        moved = K.select(key, self.bright_sel, BRIGHTNESS_LEVELS, wrap=False)
        if moved is not None:
            self.bright_sel = moved
        elif key == K.OK:
            self.question = None
            if self.bright_sel + 1 != self.brightness:
                self.brightness = self.bright_sel + 1
                self._effects.append(SetBrightness(self.brightness))
        elif key == K.BACK:
            self.question = None

    def _key_sound(self, key: str) -> None:
        still_open, effects = self.sound.key(key)
        self._effects += effects
        if not still_open:
            self.question = None

    def _key_language(self, key: str) -> None:
        moved = K.select(key, self.lang_sel, len(i18n.LANGUAGES))
        if moved is not None:
            self.lang_sel = moved
        elif key == K.OK:
            self.question = None
            code = i18n.LANGUAGES[self.lang_sel]
            if code != i18n.language():
                i18n.set_language(code)  # at once: the next screen is drawn in it
                self._effects.append(SetLanguage(code))
        elif key == K.BACK:
            self.question = None

    def _key_names(self, key: str) -> None:
        if self.naming is None:
            self.question = None
        elif key in (K.MENU, K.POWER):  # the menu (and shutting down) stay within reach
            if key == K.MENU:
                self.open_menu()
            else:
                self.question = "shutdown"
        elif self.naming.key(key):
            self._give_names(self.naming.result())

    def _give_names(self, names: list[str]) -> None:
        """The seats' names to the game and, durably, to its journal entry."""
        self.naming, self.question = None, None if self.question == "names" else self.question
        self.game.set_names(names)
        self._effects.append(Persist(self.kind, ({"a": seatnames.NAMES_ACTION, "names": names},)))

    def _ask_names(self, game_effects: Sequence[Effect]) -> None:
        """After the game's effects: a new game forgets the names; a game that knows its seats
        and has no names asks them (with a roster), or names its bots at once (without)."""
        if any(isinstance(e, Persist) and e.new_game for e in game_effects):
            self.naming, self._fresh = None, True
            self.game.set_names(None)
            if self.question == "names":
                self.question = None
        if self.naming is None and self.game.names is None and self._unnamed is not self.game:
            seats = self.game.seats()
            bots = self._fresh and seats is not None and any(kind is not None for kind in seats)
            if seats is None or not (self.roster or bots):
                return
            if self.game.finished_result() is not None:
                self._unnamed = self.game  # a finished game stays as it was
                return
            if self.roster:
                self.naming = SeatNaming(self.roster, seats, self.bot_level)
            else:
                self._give_names(SeatNaming((), seats, self.bot_level).result())
        if self.naming is not None and self.question is None and not self.notice.shown:
            self.question = "names"

    def _key_shutdown(self, key: str) -> None:
        if key == K.OK:
            self.question, self.shutting_down = None, True
            self._effects.append(PowerOff())
        elif key == K.BACK:
            self.question = None

    def _key_new_pin(self, key: str) -> None:
        if key == K.OK:
            self.question = None
            self.pin_shown = make_pin()
            self._effects.append(NewPin(self.pin_shown))
        elif key == K.BACK:
            self.question = None

    def _key_remove(self, key: str) -> None:
        """The list of the History's games: A/B or a digit picks one, # asks, * goes back."""
        moved = K.select(key, self.remove_sel, len(self._removable))
        if moved is not None:
            self.remove_sel = moved
        elif key == K.OK:
            self.question = "remove?"
        elif key in (K.BACK, K.MENU):
            self.question = None

    def _key_remove_confirm(self, key: str) -> None:
        if key == K.OK:
            gid = self._removable[self.remove_sel][0]
            self.question = None
            self._effects.append(RemoveFromHistory(gid))
            self.tell(T.REMOVE_TITLE, [T.removed(gid)], "removed")
        elif key == K.BACK:
            self.question = "remove"

    def _key_switch(self, key: str) -> None:
        if key == K.OK and self.switch_to is not None:
            self.question = None
            self._switch(self.switch_to)
        elif key == K.BACK:
            self.question = None

    def offer_update(self, version: str, bundle: str) -> None:
        """A USB stick holds update `version`: asked over whatever shows (# installs, * keeps what runs)."""
        self.notice.clear()
        self.phone_shown, self.pin_shown = False, None
        self.question, self.update_offer = "update?", (version, bundle)

    def _key_update(self, key: str) -> None:
        if key == K.OK and self.update_offer is not None:
            self.question = None
            self._effects.append(InstallUpdate(self.update_offer[1]))
            self.tell(T.UPDATE_TITLE, [T.UPDATE_STARTED], "update-started")
        elif key == K.BACK:
            self.question, self.update_offer = None, None

    def ask_switch(self, kind: str) -> None:
        """Go to a game of `kind` as the menu does: asking first when that abandons a game in progress."""
        if kind == self.kind:
            return
        if self.game.in_progress():
            self.question, self.switch_to = "switch", kind
        else:
            self._switch(kind)

    def _switch(self, kind: str) -> None:
        """A fresh game of `kind` at its new-game questions; what the old one had to say goes out first."""
        entry = next(e for e in self.catalog if e.kind == kind)
        self._effects += self.game.pop_effects()
        self.kind, self.game = kind, entry.load().new(self.rng)
        self.game.table_bot, self.game.teach_default = self.bot_level, self.teach
        self._effects.append(SwitchGame(kind))

    def game_in_front(self) -> bool:
        """Nothing of the table's own (its menu, a question, a notice, the phone's page) covers the game."""
        return self.question is None and not self.notice.shown and not self.phone_shown and not self.pin_shown

    def tell(self, title: str, paragraphs: Sequence[str], name: str) -> None:
        """A message of the table's over whatever shows; the next key dismisses it. A USB stick's
        update question stays under it: the table answers it once the message is read."""
        if self.question != "update?":
            self.question = None
        self.phone_shown, self.pin_shown = False, None
        self.notice.show(title, paragraphs, name)

    def set_phone_url(self, url: str | None) -> None:
        """The web service's address ("HTTP://192.168.1.23:8080"), None when it is not running;
        the phone view, if shown, shows the new one at the next `screen()`."""
        self.phone_url = url or None

    def replace_game(self, kind: str, game: TableGame) -> None:
        """Put `game` (rebuilt from the journal) in the place of the current one; its effects are dropped."""
        self.game.pop_effects()
        self.kind, self.game, self.naming, self._fresh = kind, game, None, False

    def history_lines(self) -> list[str]:
        """One line per finished game, newest first: date, game, totals and winners (abandoned games left out)."""
        return [line for _gid, _when, _title, line in self._history_entries()]

    def _history_entries(self) -> list[tuple[Any, str, str, str]]:
        """(game id, when it ended, the game's title, its History line) per finished game, newest first."""
        titles = {e.kind: e for e in self.catalog}
        lines: list[tuple[Any, str, str, str]] = []
        for entry in self.history() if self.history is not None else []:
            result, game = entry.get("result") or {}, titles.get(entry.get("kind", ""))
            if isinstance(result, dict) and result.get("abandoned") or game is None:
                continue
            try:  # a row an older import or a hand edit left unreadable is named, never a failed key
                if not isinstance(result, dict) or stored_times_problem(entry.get("started", 0),
                                                                        entry.get("finished")):
                    raise ValueError("unreadable")
                # NOTE: a strftime format, numbers only (the month's name would stay English)
                when = time.strftime(i18n.pgettext("date", "%d/%m %H:%M"), time.localtime(entry.get("finished") or 0))
                # a game that came in with its scores only (BG Stats, CSV: companion.history.foreign) has no
                # log for its game's words: its totals and 0-based winners, as the table's default says them
                text = TableGameBase.history_text(result) if "scores_only" in result else \
                    game.load().history_text(result)
                lines.append((entry.get("id"), when, game.title, T.history_line(when, game.title, text)))
            except (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError, OSError):
                lines.append((entry.get("id"), "?", game.title, T.unreadable_game(entry.get("id"))))
        return lines

    # ----- out -------------------------------------------------------------------------------
    def pop_effects(self) -> list[Effect]:
        game_effects = self.game.pop_effects()
        out = self._effects + game_effects
        self._effects = []
        try:
            self._ask_names(game_effects)
        except Exception:  # never lose the game's own actions to a failure in the naming
            self.naming = None
            logging.getLogger("companion.run").exception("asking the seats' names failed; they stay unnamed")
        out += self._effects  # the names after the game's own actions: in its journal entry
        self._effects = []
        return out

    def deliver(self, effect: Effect, answer: Any) -> None:
        self.game.deliver(effect, answer)

    def screen(self) -> Screen:
        if self.shutting_down:
            return Screen(TEXT, "bye", T.BYE_TITLE, tuple(wrap([T.BYE])))
        notice = self.notice.screen()
        if notice is not None:
            return notice
        if self.phone_shown:
            return phone_screen(self.phone_url)
        if self.pin_shown:
            return Screen(ENTRY, "new-pin", T.NEW_PIN, header=Header(T.NEW_PIN, line=T.PIN_LINE),
                          entry=pin_groups(self.pin_shown), hint=T.PIN_HINT)
        if self.question == "menu":
            return Screen(MENU, "menu", T.MENU_TITLE, selected=self.menu_sel,
                          choices=tuple(T.menu_choice(i + 1, label) for i, (label, _) in enumerate(self._menu())))
        if self.question == "brightness":
            return Screen(MENU, "brightness", T.BRIGHTNESS, selected=self.bright_sel,
                          choices=tuple(T.brightness_choice(i, i == self.brightness)
                                        for i in range(1, BRIGHTNESS_LEVELS + 1)))
        if self.question == "sound":
            return self.sound.screen()
        if self.question == "language":
            return Screen(MENU, "language", T.LANGUAGE, selected=self.lang_sel,
                          choices=tuple(T.language_choice(i + 1, i18n.NATIVE_NAMES[code], code == i18n.language())
                                        for i, code in enumerate(i18n.LANGUAGES)))
        if self.question == "shutdown":
            return confirm_screen("shutdown?", T.SHUTDOWN_TITLE, T.SHUTDOWN_QUESTION)
        if self.question == "switch":
            return confirm_screen("switch?", T.SWITCH_TITLE, T.ABANDON)
        if self.question == "newpin":
            return confirm_screen("new-pin?", T.NEW_PIN_TITLE, T.NEW_PIN_QUESTION)
        if self.question == "remove":
            return Screen(MENU, "remove", T.REMOVE_TITLE, selected=self.remove_sel,
                          choices=tuple(choice for _gid, choice in self._removable))
        if self.question == "update?" and self.update_offer is not None:
            return confirm_screen("update?", T.UPDATE_TITLE, T.update_question(self.update_offer[0]))
        if self.question == "remove?":
            return confirm_screen("remove?", T.REMOVE_TITLE, T.remove_question(self._removable[self.remove_sel][0]))
        if self.question == "names" and self.naming is not None:
            return self.naming.screen()
        with seatnames.using(self.game.names):
            return self.game.screen()
