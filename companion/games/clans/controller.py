"""The controller: keys in, engine calls and screens out. A pure state machine.

`Controller.handle(key, now)` is the only way in and `Controller.screen()` says what
to show; there are no threads, no clock reads and no I/O here (time is passed in,
randomness comes from an injected `random.Random`).

Journal-ready: every change to the game (and every partial answer to a pending
question) is an *action*, a small JSON-safe dict, applied through one function
(`_apply`) and queued for `pop_actions()`. `Controller.from_actions(actions)`
replays them and lands on the same position and the same pending question. Actions:

    {"a": "players", "n": 3}                      players question answered (discards any game)
    {"a": "restart"}                              back to the players question
    {"a": "new", "players": 3, "first": 1, "setup": {"1": "red", ...}, "drawn": true}
        with bots also  "bots": {"1": "blue"}, "dealt": {"0": "red", "2": "green"}   (seat -> secret color)
    {"a": "load", "record": {...record, spec section 1...}}
    {"a": "ready"}                                the setup walkthrough is done: play starts
    {"a": "pending", "from": 12, "to": 13}        a move waiting for "which village next?"
    {"a": "pick", "t": 20}                        one answer to that question
    {"a": "cancel"}                               the pending move is dropped
    {"a": "bot", "from": 12, "to": 13, "order": [20, 14]}       a bot's proposal, shown until # ("order" if given)
    {"a": "move", "from": 12, "to": 13, "order": [20, 14, 33]}   ("order" only when asked, or a bot's)
    {"a": "undo"}
    {"a": "reveal", "player": 0, "color": "red"}  (players in order)
    {"a": "unreveal"}                             takes back the last color given
    {"a": "brightness", "level": 3}               1..5

UI state that is not journaled (typed digits, menus, information screens) is
dropped on a rebuild: the players see the question or move entry again.

Bots (empty seats played by the companion). After "Who starts?" the table is asked
"Bots?": a digit toggles a seat between person and bot, # on Start confirms (Start is
highlighted, so a table without bots just presses #). The box cannot see the physical
clan cards, so in a game with bots it deals EVERY seat's color itself (distinct colors
drawn with the injected rng, journaled in "new") and the clan cards stay in the box:
before the setup walkthrough each person in turn takes the box alone and reads their
color ("P1, your clan: GREEN. # hides it"; UI state, shown again after a rebuild in the
setup). Since the box knows every color, the end needs no reveal questions: the final
screens show each seat's color, bots marked, and the record carries `colors`. Games
without bots keep the physical cards and the spec's reveal questions, unchanged.

On a bot's turn the controller stays pure: `bot_request()` says which seat (and its
secret color) the daemon must search for, `propose_bot_move(move)` journals the answer
as a "bot" action and shows it for the table to make; # plays it as a "move" with the
bot's own founding order (the bot is never asked "which village next?"). On a bot's
turn digits do nothing; C (undo) and D (menu) work as ever, and after an undo of the
bot's move the bot proposes again. A game with bots is scored as soon as it ends (like
a game whose colors have all been revealed: no undo from there). The menu's Hint sets
`hint_requested`; the daemon searches without any secret and calls `show_hint(move)`
(not journaled).
"""

from __future__ import annotations

import random
from typing import Any, Iterable

from companion.table import keys as K
from companion.table import screen as S
from companion.table.overlays import BRIGHTNESS_LEVELS, SharedOverlays
from companion.games.clans.board import COLORS
from companion.games.clans.game import Game, IllegalMoveError, Move, Outcome, random_setup
from companion.games.clans.record import Record

MENU_ITEMS = ("New game", "Undo last move", "Hint", "Scores", "Huts on territory", "Brightness", "Play Mammut",
              "Shut down")


class ActionError(ValueError):
    """An action that cannot be applied (a corrupt or foreign journal)."""


class Controller(SharedOverlays):
    """The referee's state machine; see the module docstring for the action format."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random()
        # journaled state
        self.game: Game | None = None
        self.players_choice: int | None = None
        self.drawn = False
        self.ready = False
        self.colors: list[str] = []  # revealed at the end (games without bots)
        self.bots: dict[int, str] = {}  # bot seat -> its secret color
        self.dealt: dict[int, str] = {}  # person seat -> the color the box dealt (games with bots)
        self.proposal: Move | None = None  # the bot's move waiting for the table's #
        self.pending: tuple[int, int] | None = None
        self.picks: list[int] = []
        self._init_shared()
        self.hint_requested = False  # the daemon answers with show_hint()
        self._reset_ui()

    def _reset_ui(self) -> None:
        self.buf = ""
        self.browsing = False
        self.frm: int | None = None
        self.info: tuple[str, list[tuple[str, ...]], str] | None = None
        self.info_page = 0
        self.overlay: str | None = None
        self.menu_sel = 0
        self.choice_sel = 0
        self.bright_sel = 0
        self.setup_page = 0
        self.final_page = 0
        self.asking_new = False
        self.note = ""
        self.huts_shown: int | None = None
        self.first_pick: int | None = None  # the "Who starts?" answer while "Bots?" is asked
        self.bot_choice: list[bool] | None = None  # the "Bots?" answer in progress, per seat
        self.deal_step = 0  # person k's deal: 2k = "take the box", 2k+1 = their color shown
        self.skip_walkthrough = False  # quick start: play right after the deal
        self.bot_page = 0

    # ----- construction ----------------------------------------------------------------
    @classmethod
    def from_actions(cls, actions: Iterable[dict], rng: random.Random | None = None) -> "Controller":
        """Rebuild the exact state (position and pending question) from journaled actions."""
        c = cls(rng)
        for action in actions:
            c._apply(action)
        c._reset_ui()
        return c

    @classmethod
    def from_record(cls, record: Record, rng: random.Random | None = None) -> "Controller":
        """Continue a game from a record: play goes straight on (no setup questions)."""
        c = cls(rng)
        c._do({"a": "load", "record": record.to_dict()})
        return c

    @classmethod
    def quick_start(cls, players: int, rng: random.Random | None = None, first: int | None = None,
                    bots: Iterable[int] = ()) -> "Controller":
        """A new game without the questions (random R1 setup, start player drawn unless given).

        `bots` (0-based seats) are played by the companion; the persons then see the
        deal of their colors, and play starts without the setup walkthrough.
        """
        seats = sorted(set(bots))
        if any(not 0 <= s < players for s in seats) or len(seats) >= players:
            raise ValueError(f"bots {[s + 1 for s in seats]}: seats are 1-{players} and one must be a person")
        c = cls(rng)
        c._do({"a": "players", "n": players})
        c._new_game(first, seats)
        if seats:
            c.skip_walkthrough = True
        else:
            c._do({"a": "ready"})
        return c

    # ----- the journal -----------------------------------------------------------------
    GAME_KIND = "clans"
    OTHER_GAME = "mammut"
    START_ACTIONS = ("players", "restart", "load")  # actions that begin a new journal entry

    def finished_result(self) -> dict | None:
        """The finished game's result for the kiosk's history, once everyone has revealed."""
        if self.mode() != "final" or self.game is None:
            return None
        from companion.games.clans.record import summary

        result = summary(self.game, self.final_colors())
        result["record"] = self.record().to_dict()
        return result

    def record_json(self) -> str | None:
        """The game record (spec section 1) for --record-out, or None before the first game."""
        record = self.record()
        return record.to_json() if record is not None else None

    def _do(self, action: dict) -> Any:
        result = self._apply(action)  # raises before anything is journaled
        self._outbox.append(action)
        return result

    def _apply(self, a: dict) -> Any:
        try:
            kind = a["a"]
            if kind == "players":
                n = a["n"]
                if type(n) is not int or not 2 <= n <= 4:
                    raise ActionError(f"players: {n!r}")
                self._clear_game()
                self.players_choice = n
            elif kind == "restart":
                self._clear_game()
            elif kind == "new":
                setup = {int(t): c for t, c in a["setup"].items()}
                game = Game(a["players"], setup, a["first"])
                bots, dealt = self._seat_colors(a, game.players)
                self._clear_game()
                self.game, self.drawn = game, bool(a.get("drawn", False))
                self.bots, self.dealt = bots, dealt
            elif kind == "load":
                record = Record.from_dict(a["record"])
                game = record.play()
                self._clear_game()
                self.game, self.ready, self.colors = game, True, list(record.colors or [])
            elif kind == "ready":
                self._need_game()
                self.ready = True
            elif kind == "pending":
                game = self._need_game()
                frm, to = a["from"], a["to"]
                if self.pending is not None or not game.is_legal(frm, to):
                    raise ActionError(f"pending {frm}->{to} is not a legal move now")
                self.pending, self.picks = (frm, to), []
            elif kind == "pick":
                t = a["t"]
                if self.pending is None or t not in self._remaining():
                    raise ActionError(f"pick {t!r}: not a village of the pending move")
                self.picks.append(t)
            elif kind == "cancel":
                self.pending, self.picks = None, []
            elif kind == "bot":
                self.proposal = self._checked_proposal(a)
            elif kind == "move":
                game = self._need_game()
                order = a.get("order")
                outcome = game.push(a["from"], a["to"], tuple(order) if order is not None else None)
                self.pending, self.picks, self.ready, self.proposal = None, [], True, None
                return outcome
            elif kind == "undo":
                outcome = self._need_game().pop()
                self.pending, self.picks, self.colors, self.proposal = None, [], [], None
                return outcome
            elif kind == "reveal":
                game = self._need_game()
                color = a["color"]
                if (not game.is_over or a["player"] != len(self.colors) or len(self.colors) >= game.players
                        or color not in COLORS or color in self.colors):
                    raise ActionError(f"reveal {a!r} does not fit")
                self.colors.append(color)
            elif kind == "unreveal":
                if not self.colors:
                    raise ActionError("unreveal: no color given")
                self.colors.pop()
            elif kind == "brightness":
                level = a["level"]
                if type(level) is not int or not 1 <= level <= BRIGHTNESS_LEVELS:
                    raise ActionError(f"brightness {level!r}")
                self.brightness = level
            else:
                raise ActionError(f"unknown action {kind!r}")
        except (KeyError, TypeError, AttributeError, IllegalMoveError) as exc:
            raise ActionError(f"cannot apply {a!r}: {exc}") from None
        return None

    def _clear_game(self) -> None:
        self.game, self.players_choice, self.drawn, self.ready = None, None, False, False
        self.colors, self.pending, self.picks = [], None, []
        self.bots, self.dealt, self.proposal = {}, {}, None

    @staticmethod
    def _seat_colors(a: dict, players: int) -> tuple[dict[int, str], dict[int, str]]:
        """The "bots" and "dealt" maps of a "new" action, checked: every seat once, distinct colors."""
        if "bots" not in a and "dealt" not in a:
            return {}, {}
        bots = {int(s): c for s, c in a["bots"].items()}
        dealt = {int(s): c for s, c in a["dealt"].items()}
        colors = list(bots.values()) + list(dealt.values())
        if (not bots or not dealt or set(bots) & set(dealt) or sorted(set(bots) | set(dealt)) != list(range(players))
                or len(set(colors)) != len(colors) or not set(colors) <= set(COLORS)):
            raise ActionError(f"new: bots {a['bots']!r} and dealt {a['dealt']!r} do not fit {players} players")
        return bots, dealt

    def _checked_proposal(self, a: dict) -> Move:
        game = self._need_game()
        frm, to, order = a["from"], a["to"], a.get("order")
        if (self.proposal is not None or self.pending is not None or not self.ready or game.is_over
                or game.to_move not in self.bots or not game.is_legal(frm, to)):
            raise ActionError(f"bot {frm}->{to} does not fit now")
        return Move(frm, to, game.check_order(frm, to, order) if order is not None else None)

    def _need_game(self) -> Game:
        if self.game is None:
            raise ActionError("no game")
        return self.game

    def _remaining(self) -> list[int]:
        assert self.game is not None and self.pending is not None
        return [t for t in self.game.isolated_by(*self.pending) if t not in self.picks]

    # ----- queries for the daemon ------------------------------------------------------
    def record(self) -> Record | None:
        """The game so far as a record (spec section 1), `colors` once everyone has revealed."""
        if self.game is None:
            return None
        colors = self.final_colors()
        return Record.from_game(self.game, colors if len(colors) == self.game.players else None)

    def final_colors(self) -> list[str]:
        """Each seat's color as far as it is public: the reveal so far, or every dealt color once over."""
        if self.bots and self.game is not None:
            if not self.game.is_over:
                return []
            return [self.bots.get(s) or self.dealt[s] for s in range(self.game.players)]
        return self.colors

    def bot_request(self) -> tuple[int, str] | None:
        """(seat, secret color) when the daemon must search a bot's move now, else None."""
        if (self.game is None or self.mode() != "bot" or self.proposal is not None
                or self.overlay is not None or self.asking_new):
            return None
        seat = self.game.to_move
        return seat, self.bots[seat]

    def propose_bot_move(self, move: Move) -> None:
        """The bot's move: journaled, then shown for the table to make and confirm with #."""
        action: dict[str, Any] = {"a": "bot", "from": move.frm, "to": move.to}
        if move.order is not None:
            action["order"] = list(move.order)
        self._do(action)
        self.bot_page = 0

    def show_hint(self, move: Move) -> None:
        """Show the daemon's answer to the Hint menu item (a stale or illegal one is dropped)."""
        self.hint_requested = False
        game = self.game
        if game is None or self.mode() != "move" or not game.is_legal(move.frm, move.to):
            return
        self._show(f"Hint: {move.frm} -> {move.to}", S.hint_paragraphs(game, move), "hint")

    def mode(self) -> str:
        """The question or phase the table is in, from journaled state only."""
        if self.game is None:
            return "first" if self.players_choice else "players"
        if self.pending is not None:
            return "order"
        if not self.ready:
            return "setup"
        if self.game.is_over:
            return "reveal" if len(self.final_colors()) < self.game.players else "final"
        if self.game.to_move in self.bots:
            return "bot"
        return "move"

    # ----- keys --------------------------------------------------------------------------
    def handle(self, key: str, now: float) -> None:
        """One key press at time `now` (seconds, any monotonic origin)."""
        if not K.is_key(key) or self.shutdown_requested:
            return
        self.now = now
        self.hint_requested = False  # a request the daemon did not answer before this key is stale
        if self._power_or_info_key(key, dismissing=(K.OK, K.BACK)):
            return
        if self.overlay is not None:
            self._overlay_key(key)
            return
        if key == K.MENU:
            self.overlay, self.menu_sel, self.note = "menu", 0, ""
            return
        getattr(self, "_key_" + self._ui_mode())(key)

    def _ui_mode(self) -> str:
        if self.asking_new:
            return "players"
        mode = self.mode()
        return "bots" if mode == "first" and self.bot_choice is not None else mode

    def _show(self, title: str, paragraphs: list[str], name: str) -> None:
        self.info = (title, S.paginate(paragraphs), name)
        self.info_page = 0
        self.overlay = None

    def _key_players(self, key: str) -> None:
        if key in K.DIGITS:
            if key in "234":
                self.choice_sel, self.note = int(key) - 2, ""
            else:
                self.note = "2, 3 or 4 players"
        elif key in (K.UP, K.DOWN):
            self.choice_sel = (self.choice_sel + (1 if key == K.DOWN else -1)) % 3
        elif key == K.OK:
            self._do({"a": "players", "n": self.choice_sel + 2})
            self.asking_new, self.choice_sel, self.note = False, 0, ""
        elif key == K.BACK and self.asking_new:
            self.asking_new, self.note = False, ""

    def _key_first(self, key: str) -> None:
        n = self.players_choice or 2
        if key in K.DIGITS:
            if int(key) <= n:
                self.choice_sel, self.note = int(key), ""
            else:
                self.note = f"0 = draw, 1-{n} = player"
        elif key in (K.UP, K.DOWN):
            self.choice_sel = (self.choice_sel + (1 if key == K.DOWN else -1)) % (n + 1)
        elif key == K.OK:
            self.first_pick = self.choice_sel - 1 if self.choice_sel else None
            self.bot_choice, self.choice_sel, self.note = [False] * n, n, ""
        elif key == K.BACK:
            self._do({"a": "restart"})
            self.choice_sel = 0

    def _key_bots(self, key: str) -> None:
        """The "Bots?" question: seats 0..n-1 then Start (choice_sel == n)."""
        assert self.bot_choice is not None
        n = len(self.bot_choice)
        if key in K.DIGITS:
            if 1 <= int(key) <= n:
                self._toggle_bot(int(key) - 1)
            else:
                self.note = f"1-{n} toggles a seat"
        elif key in (K.UP, K.DOWN):
            self.choice_sel = (self.choice_sel + (1 if key == K.DOWN else -1)) % (n + 1)
        elif key == K.OK:
            if self.choice_sel < n:
                self._toggle_bot(self.choice_sel)
            else:
                bots = [s for s in range(n) if self.bot_choice[s]]
                self._new_game(self.first_pick, bots)
        elif key == K.BACK:
            first = self.first_pick
            self.bot_choice, self.note = None, ""
            self.choice_sel = 0 if first is None else first + 1

    def _toggle_bot(self, seat: int) -> None:
        assert self.bot_choice is not None
        if not self.bot_choice[seat] and self.bot_choice.count(False) == 1:
            self.note = "One seat stays a person"
            return
        self.bot_choice[seat] = not self.bot_choice[seat]
        self.note = ""

    def _new_game(self, first: int | None, bots: list[int] | None = None) -> None:
        n = self.players_choice or 2
        drawn = first is None
        if first is None:
            first = self.rng.randrange(n)
        setup = random_setup(self.rng)
        action: dict[str, Any] = {"a": "new", "players": n, "first": first, "drawn": drawn,
                                  "setup": {str(t): c for t, c in sorted(setup.items())}}
        if bots:  # drawn after the setup: a game without bots draws exactly what it always drew
            colors = self.rng.sample(COLORS, n)
            action["bots"] = {str(s): colors[s] for s in range(n) if s in bots}
            action["dealt"] = {str(s): colors[s] for s in range(n) if s not in bots}
        self._do(action)
        self.setup_page, self.choice_sel, self.note = 0, 0, ""
        self.bot_choice, self.first_pick, self.deal_step = None, None, 0

    def _dealing(self) -> bool:
        return bool(self.dealt) and self.deal_step < 2 * len(self.dealt)

    def _key_setup(self, key: str) -> None:
        if self._dealing():
            if key == K.OK:
                self.deal_step += 1
                if not self._dealing() and self.skip_walkthrough:
                    self._do({"a": "ready"})
            return
        if key in (K.OK, K.DOWN):
            if self.setup_page >= 12:
                if key == K.OK:
                    self._do({"a": "ready"})
            else:
                self.setup_page += 1
        elif key in (K.BACK, K.UP):
            self.setup_page = max(0, self.setup_page - 1)

    def _key_move(self, key: str) -> None:
        game = self._need_game()
        if key in K.DIGITS:
            if self.browsing:
                self.buf, self.browsing = "", False
            if len(self.buf) < 2:
                self.buf += key
        elif key == K.OK:
            if not self.buf:
                return
            n, self.buf, self.browsing = int(self.buf), "", False
            if self.frm is None:
                why = game.why_illegal(n)
                if why:
                    self._show("Not allowed", [why], "illegal")
                else:
                    self.frm = n
            else:
                frm, self.frm = self.frm, None
                why = game.why_illegal(frm, n)
                if why:
                    self._show("Not allowed", [why], "illegal")
                else:
                    self._start_move(frm, n)
        elif key == K.BACK:
            if self.buf:
                self.buf, self.browsing = "", False
            else:
                self.frm = None
        elif key in (K.UP, K.DOWN):
            self._browse(game.movable() if self.frm is None else game.targets(self.frm), key)
        elif key == K.UNDO:
            self._ask_undo()

    def _browse(self, items: list[int], key: str) -> None:
        """A/B: put the next/previous legal choice into the entry (buttons-only play)."""
        if not items:
            return
        current = int(self.buf) if self.browsing and self.buf else None
        if current in items:
            i = (items.index(current) + (1 if key == K.DOWN else -1)) % len(items)
        else:
            i = 0 if key == K.DOWN else len(items) - 1
        self.buf, self.browsing = str(items[i]), True

    def _key_bot(self, key: str) -> None:
        """A bot's turn: # once the table has made the proposed move; digits do not start a move."""
        if key == K.UNDO:
            self._ask_undo()
        elif self.proposal is None:
            return  # the daemon is still searching
        elif key in (K.UP, K.DOWN):
            pages = self._bot_pages()
            self.bot_page = max(0, min(len(pages) - 1, self.bot_page + (1 if key == K.DOWN else -1)))
        elif key == K.OK:
            move = self.proposal
            self._finish_move(move.frm, move.to, list(move.order) if move.order is not None else None)

    def _bot_pages(self) -> list[tuple[str, ...]]:
        assert self.proposal is not None
        return S.paginate(S.bot_move_paragraphs(self._need_game(), self.proposal))

    def _start_move(self, frm: int, to: int) -> None:
        game = self._need_game()
        if game.order_matters(len(game.isolated_by(frm, to)), 0):
            self._do({"a": "pending", "from": frm, "to": to})
            self.buf, self.browsing, self.note = "", False, ""
        else:
            self._finish_move(frm, to, None)

    def _finish_move(self, frm: int, to: int, order: list[int] | None) -> None:
        action: dict[str, Any] = {"a": "move", "from": frm, "to": to}
        if order is not None:
            action["order"] = order
        outcome: Outcome = self._do(action)
        game = self._need_game()
        name = "village" if outcome.villages else "result"
        if game.is_over:
            name, self.choice_sel, self.final_page = "game-over", 0, 0
        self._show(f"{S.player(outcome.player)}: {frm} -> {to}", S.outcome_paragraphs(game, outcome), name)

    def _key_order(self, key: str) -> None:
        remaining = self._remaining()
        if key in K.DIGITS:
            if self.browsing:
                self.buf, self.browsing = "", False
            if len(self.buf) < 2:
                self.buf += key
        elif key in (K.UP, K.DOWN):
            self._browse(remaining, key)
        elif key == K.BACK:
            if self.buf:
                self.buf, self.browsing = "", False
            else:
                self._do({"a": "cancel"})
                self._show("Move cancelled", ["Nothing changed: enter a move."], "cancelled")
        elif key == K.OK and self.buf:
            t, self.buf, self.browsing = int(self.buf), "", False
            if t not in remaining:
                self.note = f"{t} is not one of them."
                return
            self.note = ""
            self._do({"a": "pick", "t": t})
            game = self._need_game()
            rest = self._remaining()
            if not game.order_matters(len(rest), len(self.picks)):
                assert self.pending is not None
                frm, to = self.pending
                self._finish_move(frm, to, self.picks + sorted(rest))

    def _ask_undo(self) -> None:
        if self.game is not None and self.mode() == "final":
            # the result is final (and filed in the history): the next step is a new game
            self._show("Undo", ["The game is over and scored. # on the result: new game."], "no-undo")
        elif self.game is None or not self.game.ply:
            self._show("Undo", ["No move to undo."], "no-undo")
        else:
            self.overlay = "undo?"

    def _key_reveal(self, key: str) -> None:
        if key in K.DIGITS:
            self.buf, self.browsing, self.note = key, False, ""
        elif key in (K.UP, K.DOWN):
            free = [i + 1 for i, c in enumerate(COLORS) if c not in self.colors]
            self._browse(free, key)
        elif key == K.OK and self.buf:
            d, self.buf, self.browsing = int(self.buf), "", False
            if not 1 <= d <= len(COLORS):
                self.note = "Type 1-5, then #."
                return
            color = COLORS[d - 1]
            if color in self.colors:
                owner = S.player(self.colors.index(color))
                self._show("Refused", [f"{color} is already {owner}'s color. Choose another."], "refused")
                return
            self._do({"a": "reveal", "player": len(self.colors), "color": color})
            self.final_page, self.note = 0, ""
        elif key == K.BACK:
            if self.buf:
                self.buf, self.browsing = "", False
            elif self.colors:
                self._do({"a": "unreveal"})
        elif key == K.UNDO:
            self._ask_undo()

    def _key_final(self, key: str) -> None:
        pages = self._final_pages()
        if key in (K.UP, K.DOWN):
            self.final_page = max(0, min(len(pages) - 1, self.final_page + (1 if key == K.DOWN else -1)))
        elif key == K.OK:
            self.asking_new, self.choice_sel = True, 1

    def _final_pages(self) -> list[tuple[str, ...]]:
        game = self._need_game()
        return S.paginate(S.final_paragraphs(game, self.final_colors(), self.bots))

    # ----- overlays: menu and the questions it opens ------------------------------------
    def _overlay_key(self, key: str) -> None:
        getattr(self, "_overlay_" + self.overlay.rstrip("?").replace("-", "_"))(key)

    def _overlay_menu(self, key: str) -> None:
        choice = self._menu_choice(key, MENU_ITEMS)
        if choice is None:
            return
        game = self.game
        if choice == "New game":
            if game is not None and not game.is_over and (game.ply or self.ready):
                self.overlay = "new?"
            else:
                self.asking_new, self.choice_sel, self.note = True, 1, ""
        elif choice == "Undo last move":
            self._ask_undo()
        elif choice == "Hint":
            self._ask_hint()
        elif choice == "Scores":
            if game is None:
                self._show("Scores", ["No game yet."], "scores")
            else:
                self._show("Scores", S.score_paragraphs(game), "scores")
        elif choice == "Huts on territory":
            if game is None:
                self._show("Huts", ["No game yet."], "huts")
            else:
                self.overlay, self.buf, self.huts_shown = "huts", "", None
        elif choice == "Brightness":
            self._open_brightness()
        elif choice == "Play Mammut":
            if game is not None and not game.is_over and (game.ply or self.ready):
                self.overlay = "switch?"
            else:
                self.switch_game = "mammut"
        elif choice == "Shut down":
            self.overlay = "shutdown?"

    def _ask_hint(self) -> None:
        if self.mode() == "move":
            self.hint_requested = True
            self._show("Hint", ["Thinking..."], "hint")
        else:
            self._show("Hint", ["Hints are for a person about to move."], "no-hint")


    def _overlay_undo(self, key: str) -> None:
        if key == K.OK:
            self.overlay = None
            outcome: Outcome = self._do({"a": "undo"})
            self.buf, self.frm, self.browsing = "", None, False
            self._show(f"Undone: {outcome.move.frm} -> {outcome.move.to}",
                       S.undo_paragraphs(self._need_game(), outcome), "undone")
        elif key == K.BACK:
            self.overlay = None

    def _overlay_new(self, key: str) -> None:
        if key == K.OK:
            self.overlay, self.asking_new, self.choice_sel = None, True, 1
        elif key == K.BACK:
            self.overlay = None


    def _overlay_huts(self, key: str) -> None:
        if key in K.DIGITS:
            if len(self.buf) < 2:
                self.buf += key
        elif key == K.OK and self.buf:
            self.huts_shown, self.buf = int(self.buf), ""
        elif key in (K.UP, K.DOWN):
            t = self.huts_shown or 0
            self.huts_shown = (t + (1 if key == K.DOWN else -1) - 1) % 60 + 1
        elif key == K.BACK:
            if self.buf:
                self.buf = ""
            else:
                self.overlay = None


    # ----- the screen ----------------------------------------------------------------------
    def screen(self) -> S.Screen:
        """What to show now (pure: calling it changes nothing)."""
        common = self._common_screen()
        if common is not None:
            return common
        return getattr(self, "_screen_" + self._ui_mode())()

    def _entry(self) -> str:
        return f"> {self.buf}_"

    def _screen_players(self) -> S.Screen:
        return S.Screen(S.MENU, "players", "New game: players?",
                        choices=("2 players", "3 players", "4 players"), selected=self.choice_sel, hint=self.note)

    def _screen_first(self) -> S.Screen:
        n = self.players_choice or 2
        choices = ("0 draw at random",) + tuple(f"{i + 1} P{i + 1} starts" for i in range(n))
        return S.Screen(S.MENU, "first", "Who starts?", choices=choices, selected=self.choice_sel, hint=self.note)

    def _screen_bots(self) -> S.Screen:
        assert self.bot_choice is not None
        choices = tuple(f"{s + 1} P{s + 1} {'bot' if bot else 'person'}" for s, bot in enumerate(self.bot_choice))
        return S.Screen(S.MENU, "bots", "Bots? digit = toggle", choices=choices + ("Start",),
                        selected=self.choice_sel, hint=self.note)

    def _screen_deal(self) -> S.Screen:
        seat = sorted(self.dealt)[self.deal_step // 2]
        who = S.player(seat)
        if self.deal_step % 2 == 0:
            return S.Screen(S.TEXT, "deal", f"Secret colors: {who}",
                            tuple(S.wrap([f"{who}: take the box alone, then #.",
                                          "The others look away."])[:S.BODY_ROWS]))
        return S.Screen(S.TEXT, "deal-color", f"{who}: your clan",
                        tuple(S.wrap([f"{who}, your clan: {self.dealt[seat].upper()}.", "Keep it secret.",
                                      "# hides it."])[:S.BODY_ROWS]))

    def _screen_bot(self) -> S.Screen:
        who = f"{S.player(self._need_game().to_move)} (bot)"
        if self.proposal is None:
            return S.Screen(S.TEXT, "bot-thinking", who, ("Thinking...",))
        pages = self._bot_pages()
        page = min(self.bot_page, len(pages) - 1)
        return S.Screen(S.TEXT, "bot-move", f"{who} moves", pages[page], page, len(pages))

    def _screen_setup(self) -> S.Screen:
        if self._dealing():
            return self._screen_deal()
        game = self._need_game()
        page = self.setup_page
        if page == 0:
            how = "drawn" if self.drawn else "chosen"
            lines = S.wrap([f"{S.player(game.first_player)} starts ({how}).",
                            "Put 1 hut on each territory as shown, region by region.", "# = next"])
            return S.Screen(S.TEXT, "setup", f"New game: {game.players} players", tuple(lines[:S.BODY_ROWS]),
                            0, 13)
        members = game.board.region_members(page)
        return S.Screen(S.TEXT, "setup-region", f"Region {page}: {members[0]}-{members[-1]}",
                        S.setup_lines(game, page), page, 13)

    def _screen_move(self) -> S.Screen:
        game = self._need_game()
        status = S.status_of(game)
        if self.frm is None:
            entry = f"{self.buf}_"
            hint = "from? #=ok A/B=list"
        else:
            entry = f"{self.frm} -> {self.buf}_"
            hint = "to: " + " ".join(map(str, game.targets(self.frm)))
        if self.browsing and self.buf:
            t = int(self.buf)
            items = game.movable() if self.frm is None else game.targets(self.frm)
            pos = f" {items.index(t) + 1}/{len(items)}" if t in items else ""
            hint = f"{t}: " + " ".join(f"{n}{S.COLOR_SHORT[c]}" for c, n in game.huts(t).items()) + pos
        return S.Screen(S.ENTRY, "entry", entry=entry, hint=hint, status=status)

    def _screen_order(self) -> S.Screen:
        game = self._need_game()
        remaining = self._remaining()
        paragraphs = ([self.note] if self.note else []) + S.order_paragraphs(game, remaining, len(self.picks))
        lines = S.wrap(paragraphs)[:S.BODY_ROWS - 1]
        return S.Screen(S.TEXT, "order", f"{S.player(game.to_move)}: which village next?", tuple(lines),
                        entry=self._entry())

    def _screen_reveal(self) -> S.Screen:
        p = len(self.colors)
        taken = ", ".join(f"{c} {S.player(i)}" for i, c in enumerate(self.colors))
        paragraphs = ["1 red 2 blue 3 green", "4 yellow 5 black"]
        if self.note:
            paragraphs.append(self.note)
        elif taken:
            paragraphs.append("Given: " + taken)
        lines = S.wrap(paragraphs)[:S.BODY_ROWS - 1]
        name = COLORS[int(self.buf) - 1] if self.buf and 1 <= int(self.buf) <= 5 else ""
        return S.Screen(S.TEXT, "reveal", f"{S.player(p)}: your color?", tuple(lines),
                        entry=f"> {self.buf} {name}_" if name else self._entry())

    def _screen_final(self) -> S.Screen:
        pages = self._final_pages()
        page = min(self.final_page, len(pages) - 1)
        return S.Screen(S.TEXT, "final", "Game over", pages[page], page, len(pages))

    def _overlay_screen(self) -> S.Screen:
        game = self.game
        if self.overlay == "menu":
            return S.Screen(S.MENU, "menu", "Menu", choices=tuple(f"{i + 1} {m}" for i, m in enumerate(MENU_ITEMS)),
                            selected=self.menu_sel)
        if self.overlay == "undo?":
            assert game is not None
            o = game.outcome()
            what = f"Take back move {game.ply}: {S.player(o.player)} {o.move.frm} -> {o.move.to}"
            if o.villages:
                what += f" and {S.count(len(o.villages), 'village')}"
            return S.Screen(S.TEXT, "undo?", "Undo?", tuple(S.wrap([what + "?", "# = yes  * = no"])[:S.BODY_ROWS]))
        shared = self._shared_overlay_screen()
        if shared is not None:
            return shared
        if self.overlay == "huts":
            assert game is not None
            if self.huts_shown is None:
                paragraphs = ["Type a territory and #.", "A/B: step, *: leave"]
            else:
                paragraphs = S.territory_paragraphs(game, self.huts_shown)
            return S.Screen(S.TEXT, "huts", "Huts on territory", tuple(S.wrap(paragraphs)[:S.BODY_ROWS - 1]),
                            entry=self._entry())
        raise AssertionError(self.overlay)
