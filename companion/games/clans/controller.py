"""The Clans table game (`TableGame`, companion.table.protocol): keys in, screens and effects out.

A pure state machine: `handle(key, now)` is the way in, `screen()` says what to show
(built by `companion.games.clans.screens`), `pop_effects()` hands the daemon values
from `companion.table.effects`. No threads, no clock reads, no I/O; randomness comes
from an injected `random.Random`.

Journal-ready: every change to the game is an action applied by
`companion.games.clans.actions.TableState.apply` and put in the outbox (a `Persist`;
players, restart and load open a new journal entry). `Controller.from_actions`
replays them and lands on the same position and the same pending question; UI state
that is not journaled (typed digits, highlights, messages) is dropped on a rebuild.
Other effects: `GameOver` once the game is finished and scored; `Search` when a bot
is to move; `Hint` when the menu's Hint is chosen.

Keys: the shell owns the D menu's frame, brightness, shutting down and switching
games. POWER drops any message (and question) of the game and is left to the shell;
D opens the shell's menu unless one of the game's own questions is open (undo?,
new?, huts on territory), where it is ignored as before.

Bots (empty seats played by the companion). After "Who starts?" the table is asked
"Bots?": a digit toggles a seat between person and bot, # on Start confirms. The
box cannot see the physical clan cards, so in a game with bots it deals EVERY seat's
color itself (journaled in "new") and each person in turn takes the box alone to read
theirs; the end then needs no reveal questions. On a bot's turn the controller asks
for a `Search`; `deliver(search, move)` journals the answer as a "bot" action and shows
it for the table to make; # plays it as a "move" with the bot's own founding order.
A None answer (the search failed) is asked again after the next key. The menu's Hint
asks for a `Hint` (no secret in it) and shows "Thinking..." until `deliver(hint, move)`.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Iterable, Mapping

from companion.games.clans import keys_play, keys_setup
from companion.games.clans import speech as S
from companion.games.clans import texts as T
from companion.games.clans.actions import START_ACTIONS, TableState, move_action
from companion.games.clans.beliefs import told
from companion.games.clans.game import Game, Move
from companion.games.clans.record import Record, RecordError, summary
from companion.games.clans.screens import build_screen
from companion.games.clans.session import HUTS, KIND, NEW_QUESTION, UNDO_QUESTION, Session, Ui
from companion.i18n import _
from companion.table import keys as K
from companion.table.effects import Effect, Hint, Search
from companion.util.errors import ActionError, UsageError
from companion.table.info import InfoPager
from companion.table.protocol import TableGameBase
from companion.table.screen import Screen
from companion.table.seatnames import names_problem
from companion.table.speech import OwnScreenWords

__all__ = ["Controller", "TABLE_GAME", "ActionError", "START_ACTIONS"]

DISMISSING = (K.OK, K.BACK)  # keys that only dismiss a message; any other key also counts


class Controller(TableGameBase):
    """The referee's state machine for Clans (see the module docstring)."""

    KIND = KIND
    START_ACTIONS = START_ACTIONS

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random()
        self.session = Session(self.rng)
        self._search: Search | None = None  # asked for, not answered yet
        self._search_version = -1  # the state's version when it was asked for
        self._search_failed = False  # the last search gave no move: ask again after the next key
        self._hint: Hint | None = None
        self._turn_said: tuple | None = None  # the turn last announced: (game, ply, seat)
        self._words = OwnScreenWords()  # whose turn and a bot's move: said when the mover's screen shows
        self._menu: tuple[Callable[[], None], ...] = (
            self._menu_new, self._menu_undo, self._ask_hint, self._menu_scores, self._menu_huts)

    @property
    def table_bot(self) -> str:  # type: ignore[override]
        """The table's bot (set by the shell): what a seat plays first when the Bots? screen makes it a bot."""
        return self.session.table_bot

    @table_bot.setter
    def table_bot(self, name: str) -> None:
        self.session.table_bot = name

    @property
    def teach_default(self) -> bool:  # type: ignore[override]
        """The table's default for a new game's teaching (--teach, the config's game.teach; set by the shell)."""
        return self.session.teach_default

    @teach_default.setter
    def teach_default(self, on: bool) -> None:
        self.session.teach_default = on

    @property
    def state(self) -> TableState:
        """What the journal knows (position, answers, bots and their proposal)."""
        return self.session.state

    @property
    def ui(self) -> Ui:
        """What is shown but not journaled (typed digits, highlights, the game's open question)."""
        return self.session.ui

    @property
    def info(self) -> InfoPager:
        """The information screen shown now, if any."""
        return self.session.info

    # ----- construction ----------------------------------------------------------------------
    @classmethod
    def from_actions(cls, actions: Iterable[dict], rng: random.Random | None = None) -> "Controller":
        """Rebuild the exact state (position and pending question) from journaled actions (ActionError if not)."""
        c = cls(rng)
        for action in actions:
            c.state.apply(action)
        c._derive()
        return c

    @classmethod
    def from_record(cls, record: Record, rng: random.Random | None = None) -> "Controller":
        """Continue a game from a record: play goes straight on (no setup questions)."""
        c = cls(rng)
        c.session.do({"a": "load", "record": record.to_dict()})
        c._derive()
        return c

    @classmethod
    def from_record_file(cls, path: str, rng: random.Random | None = None, walkthrough: bool = False) -> "Controller":
        """Continue the game of a record file (`companion run --load`); UsageError if it is not valid.
        `walkthrough` (a table, not a key script): a record of a game not yet begun (no moves, nothing
        else in it, as `companion new` writes) starts as a new game with its setup: the walkthrough first."""
        try:
            record = Record.load(path)
            record.play()
        except RecordError as exc:
            raise UsageError(f"{path}: {exc}") from None
        if walkthrough and not record.moves and not record.colors and not record.extra:
            c = cls(rng)
            c.session.do({"a": "players", "n": record.players})
            c.session.do({"a": "new", "players": record.players, "first": record.first_player, "drawn": False,
                          "setup": {str(t): color for t, color in sorted(record.setup.items())}})
            c._derive()
            return c
        return cls.from_record(record, rng)

    @classmethod
    def quick_start(cls, players: int, rng: random.Random | None = None, bots: Iterable[int] = (),
                    first: int | None = None, walkthrough: bool = False, teach: bool = False) -> "Controller":
        """A new game without the questions (random R1 setup, start player drawn unless `first` is given).

        `bots` (0-based seats, or seat -> level) are played by the companion (a seat without a level plays
        the table's bot, normal by default); the persons then see the deal of
        their colors. `walkthrough` (a table, not a key script): the setup walkthrough follows,
        as after the questions, and # on its last page starts play; without it play starts at once.
        `teach`: a first game (each rule explained once, when it first matters).
        """
        levels = dict(bots) if isinstance(bots, Mapping) else {}
        seats = sorted(set(bots))
        if players not in (2, 3, 4):
            raise UsageError(f"players {players!r}: 2, 3 or 4")
        if any(not 0 <= s < players for s in seats) or len(seats) >= players:
            raise UsageError(f"bots {[s + 1 for s in seats]}: seats are 1-{players} and one must be a person")
        c = cls(rng)
        c.session.do({"a": "players", "n": players})
        keys_setup.new_game(c.session, first, {s: levels.get(s) or keys_setup.seat_cycle("")[1] for s in seats}, teach)
        if walkthrough:
            pass  # the deal (with bots), then the walkthrough's pages, as a new game from the menu
        elif seats:
            c.ui.skip_walkthrough = True
        else:
            c.session.do({"a": "ready"})
            keys_play.explain_start(c.session)
        c._derive()
        return c

    # ----- queries ---------------------------------------------------------------------------
    @property
    def game(self) -> Game | None:
        """The position (None before the first game); read it, never change it."""
        return self.state.game

    def mode(self) -> str:
        """The question or phase, from journaled state: players, first, setup, move, order, bot, reveal, final."""
        return self.state.mode()

    def order_choices(self) -> list[int]:
        """The villages the mover may name at "which village next?" (empty when not asked)."""
        return self.state.remaining()

    def final_colors(self) -> list[str]:
        """Each seat's color as far as it is public (the reveal so far, or every dealt color once over)."""
        return self.state.final_colors()

    def record(self) -> Record | None:
        """The game so far as a record (spec section 1), `colors` once everyone has revealed."""
        game = self.state.game
        if game is None:
            return None
        colors = self.final_colors()
        extra = dict(self.state.extra)
        if self.names:
            extra["names"] = list(self.names)
        stories = told(self.state)
        if stories:
            extra["beliefs"] = [b for story in stories for b in story.record()]
        record = Record.from_game(game, colors if len(colors) == game.players else None, extra)
        record.key_order = list(self.state.key_order)  # a loaded record's keys stay in their order
        return record

    def record_json(self) -> str | None:
        record = self.record()
        return record.to_json() if record is not None else None

    def finished_result(self) -> dict | None:
        """The finished game's result for the history, once every color is known."""
        game = self.state.game
        if game is None or self.mode() != "final":
            return None
        result = summary(game, self.final_colors())
        result["record"] = self.record().to_dict()
        return result

    def in_progress(self) -> bool:
        return self.state.in_progress()

    def seats(self) -> list[str | None] | None:
        """Once a game is set up: None for a person's seat, its level for a seat the companion plays ("bot":
        the table's bot, for a game journaled before levels)."""
        state = self.state
        if state.game is None:
            return None
        return [state.levels.get(s, "bot") if s in state.bots else None for s in range(state.game.players)]

    def record_names(self) -> list[str] | None:
        """The names a loaded record brought (spec section 8), when they fit its players."""
        names, game = self.state.extra.get("names"), self.state.game
        if game is not None and names_problem(names, game.players) is None:
            return list(names)
        return None

    def screen(self) -> Screen:
        return build_screen(self.state, self.ui, self.info)

    # ----- effects ---------------------------------------------------------------------------
    def pop_effects(self) -> list[Effect]:
        return self.session.outbox.pop()

    def _derive(self) -> None:
        """After every event: announce the end once and whose turn it is when that changed, ask for a
        bot's move when one is due."""
        game = self.state.game
        if self.report_over(self.mode() == "final", self.session.outbox) and game is not None:
            self.session.outbox.extend(S.final(game, self.final_colors()) + S.beliefs(told(self.state)))
        turn = (id(game), game.ply, game.to_move) if game is not None and self.mode() in ("move", "bot") else None
        if turn is not None and turn != self._turn_said:
            self._words.say(self.session.outbox, [S.turn(game, self.state.bots)], self._covered(), fresh=True)
        self._turn_said = turn
        self._words.release(self.session.outbox, self._covered())
        if self._search is not None and self._search_version != self.state.version:
            self._search = None  # the position changed: its answer will be dropped
        game = self.state.game
        if (self._search is None and not self._search_failed and game is not None and self.mode() == "bot"
                and self.state.proposal is None and self.ui.overlay is None and not self.ui.asking_new):
            seat = game.to_move
            self._search = Search(seat, self.state.bots[seat], game.copy(), self.state.levels.get(seat))
            self._search_version = self.state.version
            self.session.outbox.put(self._search)

    def deliver(self, effect: Effect, answer: Any) -> None:
        """The move found for a Search (a bot's proposal) or a Hint; None when the search failed."""
        if isinstance(effect, Search):
            if effect is self._search:
                self._search = None
                if answer is None or not self._propose(answer):
                    self._search_failed = True
        elif isinstance(effect, Hint):
            if effect is self._hint:
                self._hint = None
                if answer is not None:
                    self._show_hint(answer)
        self._derive()

    def _propose(self, move: Move) -> bool:
        """The bot's move: journaled, then shown for the table to make and confirm with #."""
        try:
            self.session.do(move_action(move.frm, move.to, move.order, kind="bot"))
        except (ActionError, AttributeError, TypeError):
            return False
        self._words.say(self.session.outbox, [S.bot_move(move, self.state.need_game().to_move)], self._covered())
        self.ui.bot_page = 0
        return True

    # ----- the camera above the board (companion.games.clans.camera.watch, companion.kiosk.camera) -----
    def camera_position(self) -> Any:
        """The watcher's `Position`: a copy of the game, and "empty" while the questions before the
        huts go down show, "move" while a person is to move, else "other"."""
        from companion.games.clans.camera.watch import Position

        game, mode = self.state.game, self.mode()
        if mode in ("players", "first", "bots") or (mode == "setup" and self.ui.setup_page == 0):
            phase = "empty"
        else:
            phase = "move" if mode == "move" else "other"
        return Position(None if game is None else game.copy(), phase)

    def camera_seen(self, kind: str, ply: int, move: tuple[int, int] | None,
                    territories: tuple[int, ...] = ()) -> None:
        """What the camera saw at ply `ply`: a "proposal" goes into the move entry when nothing is
        typed there (# confirms it); a "mismatch" (the board shows another move than the one
        played) is a message, as are "moved" (the camera moved: its corners again) and, before the first
        move, "setup-missing" and "setup-colour" (`territories` without their hut, or with another
        colour's). Stale news (another ply by now) is dropped."""
        game, ui = self.state.game, self.ui
        if kind == "moved" or kind.startswith("setup-") and territories and game is not None and game.ply == 0:
            said = _(T.CAMERA_MOVED) if kind == "moved" else T.setup_seen(kind, [
                (t, game.setup.get(t, "")) for t in territories])  # type: ignore[union-attr]
            self.info.show(_(T.CAMERA_TITLE), [said], kind)
            self._derive()
            return
        if game is None or move is None or game.ply != ply:
            return
        if kind == "proposal":
            if (self.mode() != "move" or ui.buf or ui.frm is not None or ui.overlay is not None
                    or self.info.shown or not game.is_legal(*move)):
                return
            ui.frm, ui.buf, ui.camera, ui.moved, ui.browsing = move[0], str(move[1]), True, None, False
            self._words.say(self.session.outbox, [S.camera_move(*move)], self._covered())
        elif kind == "mismatch" and game.moves:
            played = game.moves[-1]
            self.info.show(_(T.CAMERA_TITLE), [T.board_shows(*move, played.frm, played.to)], "camera-mismatch")
            self._words.say(self.session.outbox, [S.board_shows(*move, played.frm, played.to)], False)
        self._derive()

    def _covered(self) -> bool:
        """A message or an overlay shows over the mover's screen (a move's result paged, help...)."""
        return self.session.info.screen() is not None or self.ui.overlay is not None

    def _show_hint(self, move: Move) -> None:
        game = self.state.game
        if game is None or self.mode() != "move" or not game.is_legal(move.frm, move.to):
            return  # stale or illegal
        from companion.games.clans.bots.hints import reason  # the hint ran: the bots are loaded

        self.session.show(T.hint_title(move.frm, move.to), T.hint_paragraphs(game, move, *reason(game, move)), "hint")

    # ----- the menu ----------------------------------------------------------------------------
    def menu_items(self) -> tuple[str, ...]:
        return T.menu_items()

    def menu_choose(self, index: int) -> None:
        self._hint, self._search_failed = None, False
        if 0 <= index < len(self._menu):
            self._menu[index]()
        self._derive()

    def _menu_new(self) -> None:
        if self.in_progress():
            self.ui.overlay = NEW_QUESTION
        else:
            self.ui.asking_new, self.ui.choice_sel, self.ui.note = True, 1, ""

    def _menu_undo(self) -> None:
        keys_play.ask_undo(self.session)

    def _ask_hint(self) -> None:
        game = self.state.game
        if game is not None and self.mode() == "move":
            self._hint = Hint(game.to_move, game.copy())
            self.session.outbox.put(self._hint)
            self.session.show(_(T.HINT_TITLE), [_(T.THINKING)], "hint")
        else:
            self.session.show(_(T.HINT_TITLE), [_(T.HINT_NOT_NOW)], "no-hint")

    def _menu_scores(self) -> None:
        game = self.state.game
        self.session.show(_(T.SCORES_TITLE), [_(T.NO_GAME_YET)] if game is None else T.score_paragraphs(game),
                          "scores")

    def _menu_huts(self) -> None:
        if self.state.game is None:
            self.session.show(_(T.HUTS_TITLE), [_(T.NO_GAME_YET)], "huts")
        else:
            self.ui.overlay, self.ui.buf, self.ui.huts_shown = HUTS, "", None

    # ----- keys --------------------------------------------------------------------------------
    def handle(self, key: str, now: float) -> bool:
        """One key at time `now`; False for POWER and for a D that opens the shell's menu."""
        if not K.is_key(key):
            return True
        self._hint = None  # a hint not answered before this key is stale
        self._search_failed = False
        used = self._key(key)
        self._derive()
        return used

    def _key(self, key: str) -> bool:
        s = self.session
        if key == K.POWER:
            # the shell asks "Shut down?"; as before, that question replaces any of the game's own
            s.info.clear()
            s.ui.overlay, s.ui.moved = None, None
            return False
        if s.info.key(key, DISMISSING):
            return True
        if s.ui.moved is not None:
            # a move's result in the entry screen goes as a one-page message would: # and * only
            # dismiss it, any other key (a digit: the next move's first) is then used as ever
            s.ui.moved = None
            if key in DISMISSING:
                return True
        if s.ui.overlay is not None:
            QUESTION_KEYS[s.ui.overlay](s, key)
            return True
        if key == K.MENU:
            s.ui.note = ""
            return False
        MODE_KEYS[s.ui_mode()](s, key)
        return True


MODE_KEYS: dict[str, Callable[[Session, str], None]] = {
    "players": keys_setup.key_players, "first": keys_setup.key_first, "bots": keys_setup.key_bots,
    "setup": keys_setup.key_setup, "move": keys_play.key_move, "order": keys_play.key_order,
    "bot": keys_play.key_bot, "reveal": keys_play.key_reveal, "final": keys_play.key_final,
}
QUESTION_KEYS: dict[str, Callable[[Session, str], None]] = {
    UNDO_QUESTION: keys_play.key_undo_question, NEW_QUESTION: keys_play.key_new_question, HUTS: keys_play.key_huts,
}

TABLE_GAME = Controller
