"""The Mammut table game (`TableGame`, companion.table.protocol): keys in, screens and effects out.

A pure state machine: `handle(key, now)` is the way in, `screen()` says what to show (built
by `screens`), `pop_effects()` hands the daemon values from `companion.table.effects`. No
threads, clocks or I/O: the dice come from an injected `random.Random`.

The table is walked through the 10 phases of every turn; the pure `MammutGame` decides
which phases apply and validates every report. The questions are forms (`forms`); their
answers and the game calls they become are journaled actions (`actions`, which documents
their shapes), applied by `actions.TableState.apply` and put in the outbox as `Persist`
({"a": "new", ...} opens a new journal entry). `from_actions` replays them and lands on
the same game and the same open question; UI state that is not journaled (typed digits,
list selections, messages, the new-game questions) is dropped on a rebuild. `GameOver`
goes out once when a game ends (again after a rebuild, or when it ends again after undo).

Keys (`keys_play`): digits type a number (or pick list item N), # confirms / continues,
* clears the entry or takes back the last answer, A/B step a number or move in a list (so
the A/B/#/* buttons alone can play), C undo. The shell owns the D menu's frame, brightness,
shutting down and switching games: POWER drops any message or question of the game and is
left to the shell; D opens the shell's menu, except inside the game's own questions
(Undo?, New game?) where it is ignored as before. The game's part of the menu: Actions,
Tribe books, Undo last entry, New game.
"""

from __future__ import annotations

import random
from typing import Callable, Iterable

from companion.i18n import _
from companion.table import keys as K
from companion.table.effects import Effect
from companion.util.errors import ActionError
from companion.table.protocol import TableGameBase
from companion.table.screen import Screen
from companion.table.speech import OwnScreenWords

from . import keys_play
from . import outcomes as O
from . import speech as S
from . import texts as T
from .actions import KIND, START_ACTIONS, TableState
from .forms import OpenForm
from .game import MammutGame
from .phases import Phase
from .rules import MammutError
from .screens import build_screen
from .session import LIST, NEW_QUESTION, Session, Ui

__all__ = ["ActionError", "MammutTable", "START_ACTIONS", "TABLE_GAME"]

DISMISSING = (K.OK, K.BACK, K.UP, K.DOWN)  # keys that only dismiss a message; any other key also counts


class MammutTable(TableGameBase):
    """The Mammut bookkeeper's state machine (see the module docstring)."""

    KIND = KIND
    START_ACTIONS = START_ACTIONS

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random()
        self.session = Session(self.rng)
        self._phase_said: tuple | None = None  # (year, season, turn, phase) last announced
        self._words = OwnScreenWords()  # a phase is said when its screen shows, not under a report
        self._menu: tuple[Callable[[], None], ...] = (
            self._menu_actions, self._menu_books, self._menu_undo, self._menu_new)

    # ----- construction ----------------------------------------------------------------------
    @classmethod
    def from_actions(cls, actions: Iterable[dict], rng: random.Random | None = None) -> "MammutTable":
        """Rebuild the exact state (game, open form and its answers) from journaled actions (ActionError if not)."""
        c = cls(rng)
        c.state.replaying = True
        try:
            for action in actions:
                try:
                    c.state.apply(action)
                except MammutError as e:
                    raise ActionError(f"the journal does not fit the game: {action!r}: {e}") from None
        finally:
            c.state.replaying = False
        c.state.drop_stale_form()
        c.session.reset_ui()
        c._derive()
        return c

    # ----- queries ---------------------------------------------------------------------------
    @property
    def state(self) -> TableState:
        """What the journal knows (the game and the form the table opened)."""
        return self.session.state

    @property
    def ui(self) -> Ui:
        """What is shown but not journaled."""
        return self.session.ui

    @property
    def game(self) -> MammutGame | None:
        """The game (None before the first one); read it, never change it."""
        return self.state.game

    @property
    def form(self) -> OpenForm | None:
        """The form the table opened from the list (journaled), if any."""
        return self.state.form

    def pending_question(self) -> dict | None:
        """The open question (journaled or demanded by the game): form, context, answers, field."""
        return self.state.pending_question()

    def mode(self) -> str:
        """What the table is doing: "new", "question" (a form is open) or the phase's value."""
        if self.game is None or self.ui.new_form is not None:
            return "new"
        if self.state.current_form() is not None:
            return "question"
        return self.game.phase.value

    def game_log(self) -> dict | None:
        """The game as JSON ({"game": "mammut", ...MammutGame.to_dict()}); None before a game."""
        return self.state.game_log()

    def record_json(self) -> str | None:
        """The game's JSON log for --record-out, or None before the first game."""
        return self.state.record_json()

    def finished_result(self) -> dict | None:
        return self.state.finished_result()

    @classmethod
    def history_text(cls, result: dict) -> str:
        return O.history_text(result)

    def in_progress(self) -> bool:
        return self.state.in_progress()

    def seats(self) -> list[str | None] | None:
        """Once a game is set up, one person's seat per tribe (the companion plays no tribe)."""
        return None if self.game is None else [None] * self.game.n_tribes

    def screen(self) -> Screen:
        return build_screen(self.session)

    # ----- effects ---------------------------------------------------------------------------
    def pop_effects(self) -> list[Effect]:
        return self.session.outbox.pop()

    def _derive(self) -> None:
        """After every event: report the end of a game once; say the phase when it changed."""
        self.report_over(self.game is not None and self.game.over, self.session.outbox)
        key = S.phase_key(self.game) if self.game is not None else None
        if key is not None and key != self._phase_said:
            last = self._phase_said
            new_turn = last is None or key[:3] != last[:3] or last[3] == Phase.SETUP
            self._words.say(self.session.outbox, S.phase(self.game, new_turn), self._covered(), fresh=True)
        self._phase_said = key
        self._words.release(self.session.outbox, self._covered())

    def _covered(self) -> bool:
        """A message or a question shows over the phase's screen (a report, a refusal, help...)."""
        return self.session.info.screen() is not None or self.session.ui.overlay is not None

    # ----- the menu --------------------------------------------------------------------------
    def menu_items(self) -> tuple[str, ...]:
        return tuple(_(item) for item in T.MENU_ITEMS)

    def menu_choose(self, index: int) -> None:
        if 0 <= index < len(self._menu):
            self._menu[index]()
        self._derive()

    def _menu_actions(self) -> None:
        s = self.session
        if self.game is None:
            s.show(_(T.ACTIONS_TITLE), [_(T.NO_GAME_YET)], "no-game")
        elif self.state.form is not None or self.ui.new_form is not None:
            s.show(_(T.ACTIONS_TITLE), [_(T.FINISH_QUESTION_FIRST)], "busy")
        else:
            self.ui.view, self.ui.list_sel = LIST, 0

    def _menu_books(self) -> None:
        self.session.show(_(T.BOOKS_TITLE), T.books(self.game) if self.game is not None else [_(T.NO_GAME)], "books")

    def _menu_undo(self) -> None:
        keys_play.ask_undo(self.session)

    def _menu_new(self) -> None:
        if self.in_progress():
            self.ui.overlay = NEW_QUESTION
        elif self.game is not None:
            keys_play.ask_new(self.session)

    # ----- keys --------------------------------------------------------------------------------
    def handle(self, key: str, now: float) -> bool:
        """One key at time `now`; False for POWER and for a D that opens the shell's menu. Never raises."""
        if not K.is_key(key):
            return True
        used = self._key(key)
        self._derive()
        return used

    def _key(self, key: str) -> bool:
        s = self.session
        s.sync_field()
        if key == K.POWER:
            # the shell asks "Shut down?"; as before, that question replaces any of the game's own
            s.info.clear()
            s.ui.overlay = None
            return False
        if s.info.key(key, DISMISSING):
            return True
        if s.ui.overlay is not None:
            keys_play.QUESTION_KEYS[s.ui.overlay](s, key)
            return True
        if key == K.MENU:
            return False
        if key == K.UNDO and self.game is not None:
            keys_play.ask_undo(s)
            return True
        keys_play.key_table(s, key)
        return True


TABLE_GAME = MammutTable
