"""The journaled state of a Clans table and the one function that changes it: `TableState.apply(action)`.

Every change to the game (and every partial answer to a pending question) is an
*action*, a small JSON-safe dict; replaying the actions of a journal entry lands on
the same position and the same pending question. The actions:

    {"a": "players", "n": 3}                      players question answered (discards any game)
    {"a": "restart"}                              back to the players question
    {"a": "new", "players": 3, "first": 1, "setup": {"1": "red", ...}, "drawn": true}
        with bots also  "bots": {"1": "blue"}, "dealt": {"0": "red", "2": "green"}   (seat -> secret color)
        and "levels": {"1": "hard"} (bot seat -> the bot playing it; an older journal has none: the table's bot)
        and "teach": true for a first game that explains each rule when it first matters (companion.games.clans.teach)
    {"a": "load", "record": {...record, spec section 1...}}
    {"a": "ready"}                                the setup walkthrough is done: play starts
    {"a": "pending", "from": 12, "to": 13}        a move waiting for "which village next?"
    {"a": "pick", "t": 20}                        one answer to that question
    {"a": "cancel"}                               the pending move is dropped
    {"a": "bot", "from": 12, "to": 13, "order": [20, 14]}       a bot's proposal, shown until # ("order" if given)
    {"a": "move", "from": 12, "to": 13, "order": [20, 14, 33]}   ("order" only when asked, or a bot's)
    {"a": "undo"}
    {"a": "taught", "rule": "village"}           a rule explained (teaching games; once per rule and game)
    {"a": "reveal", "player": 0, "color": "red"}  (players in order)
    {"a": "unreveal"}                             takes back the last color given

`players`, `restart` and `load` begin a new journal entry (`START_ACTIONS`). The
panel's brightness is the table's (the shell's), no longer a Clans action.
"""

from __future__ import annotations

from typing import Any

from companion.games.clans.about import GAME
from companion.games.clans.board import COLORS
from companion.games.clans.game import Game, Move
from companion.games.clans.record import Record
from companion.games.clans.teach import RULES
from companion.table.effects import redact
from companion.util.errors import ActionError

START_ACTIONS = ("players", "restart", "load")
SECRET_FIELDS = ("bots", "dealt")  # of a "new" action: every seat's secret color, never logged nor shown


def starts_game(action: dict) -> bool:
    """True for an action that opens a new journal entry (a new game)."""
    return action.get("a") in START_ACTIONS


class TableState:
    """What the journal knows: the game, the answers given so far, the bots and their proposal.

    `version` counts the actions applied, so a search asked for at one version is stale at another.
    """

    def __init__(self) -> None:
        self.game: Game | None = None
        self.players_choice: int | None = None
        self.drawn = False
        self.ready = False
        self.colors: list[str] = []  # revealed at the end (games without bots), or a loaded record's
        self.loaded_colors: list[str] = []  # a loaded record's colors: kept through undo (no reveal asks them)
        self.extra: dict[str, Any] = {}  # a loaded record's unknown top-level keys, carried into its record
        self.key_order: list[str] = []  # a loaded record's top-level keys, in its order
        self.bots: dict[int, str] = {}  # bot seat -> its secret color
        self.levels: dict[int, str] = {}  # bot seat -> its level (easy, normal, hard) or bot, when journaled
        self.teach = False  # a first game: each rule explained once, when it first matters
        self.taught: list[str] = []  # the rules explained so far, in order
        self.dealt: dict[int, str] = {}  # person seat -> the color the box dealt (games with bots)
        self.proposal: Move | None = None  # the bot's move waiting for the table's #
        self.pending: tuple[int, int] | None = None
        self.picks: list[int] = []
        self.version = 0

    # ----- queries ---------------------------------------------------------------------------
    def mode(self) -> str:
        """The question or phase the table is in: players, first, setup, move, order, bot, reveal, final."""
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

    def need_game(self) -> Game:
        if self.game is None:
            raise ActionError("no game")
        return self.game

    def remaining(self) -> list[int]:
        """The villages of the pending move not founded yet (ascending): the answers to "which village next?"."""
        if self.game is None or self.pending is None:
            return []
        return [t for t in self.game.isolated_by(*self.pending) if t not in self.picks]

    def final_colors(self) -> list[str]:
        """Each seat's color as far as it is public: the reveal so far, or every dealt color once over."""
        if self.bots and self.game is not None:
            if not self.game.is_over:
                return []
            return [self.bots.get(s) or self.dealt[s] for s in range(self.game.players)]
        return self.colors

    def in_progress(self) -> bool:
        """A game has begun (a move made or the walkthrough done) and is not over."""
        game = self.game
        return game is not None and not game.is_over and bool(game.ply or self.ready)

    # ----- the one way to change it ----------------------------------------------------------
    def apply(self, a: dict) -> Any:
        """Apply one action (raises ActionError, changing nothing, when it does not fit); a move's
        and an undo's Outcome is returned."""
        try:
            result = self._apply(a)
        except ActionError:
            raise
        except (KeyError, TypeError, AttributeError, ValueError) as exc:  # IllegalMoveError, RecordError too
            raise ActionError(f"cannot apply {redact(a, SECRET_FIELDS)!r}: {exc}") from None
        self.version += 1
        return result

    def _apply(self, a: dict) -> Any:
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
            bots, dealt = seat_colors(a, game.players)
            levels = seat_levels(a, bots)
            teach = a.get("teach", False)
            if type(teach) is not bool:
                raise ActionError(f"new: teach {teach!r} is not true or false")
            self._clear_game()
            self.game, self.drawn = game, bool(a.get("drawn", False))
            self.bots, self.dealt, self.levels, self.teach = bots, dealt, levels, teach
        elif kind == "load":
            record = Record.from_dict(a["record"])
            game = record.play()
            self._clear_game()
            self.game, self.ready, self.colors = game, True, list(record.colors or [])
            self.loaded_colors, self.extra, self.key_order = list(self.colors), dict(record.extra), record.key_order
        elif kind == "ready":
            self.need_game()
            self.ready = True
        elif kind == "pending":
            game = self.need_game()
            frm, to = a["from"], a["to"]
            if self.pending is not None or not game.is_legal(frm, to):
                raise ActionError(f"pending {frm}->{to} is not a legal move now")
            self.pending, self.picks = (frm, to), []
        elif kind == "pick":
            t = a["t"]
            if self.pending is None or t not in self.remaining():
                raise ActionError(f"pick {t!r}: not a village of the pending move")
            self.picks.append(t)
        elif kind == "cancel":
            self.pending, self.picks = None, []
        elif kind == "bot":
            self.proposal = self._checked_proposal(a)
        elif kind == "move":
            game = self.need_game()
            order = a.get("order")
            outcome = game.push(a["from"], a["to"], tuple(order) if order is not None else None)
            self.pending, self.picks, self.ready, self.proposal = None, [], True, None
            return outcome
        elif kind == "undo":
            outcome = self.need_game().pop()
            # colors revealed at the table go back (the end is no longer reached); a loaded record's stay
            self.pending, self.picks, self.colors, self.proposal = None, [], list(self.loaded_colors), None
            return outcome
        elif kind == "taught":
            rule = a["rule"]
            if not self.teach or rule not in RULES or rule in self.taught:
                raise ActionError(f"taught {rule!r}: not a rule left to explain in this game")
            self.taught.append(rule)
        elif kind == "reveal":
            game = self.need_game()
            color = a["color"]
            if (not game.is_over or a["player"] != len(self.colors) or len(self.colors) >= game.players
                    or color not in COLORS or color in self.colors):
                raise ActionError(f"reveal {a!r} does not fit")
            self.colors.append(color)
        elif kind == "unreveal":
            if len(self.colors) <= len(self.loaded_colors):
                raise ActionError("unreveal: no color given at the table")
            self.colors.pop()
        else:
            raise ActionError(f"unknown action {kind!r}")
        return None

    def _clear_game(self) -> None:
        self.game, self.players_choice, self.drawn, self.ready = None, None, False, False
        self.colors, self.pending, self.picks = [], None, []
        self.loaded_colors, self.extra, self.key_order = [], {}, []
        self.bots, self.dealt, self.levels, self.proposal = {}, {}, {}, None
        self.teach, self.taught = False, []

    def _checked_proposal(self, a: dict) -> Move:
        game = self.need_game()
        frm, to, order = a["from"], a["to"], a.get("order")
        if (self.proposal is not None or self.pending is not None or not self.ready or game.is_over
                or game.to_move not in self.bots or not game.is_legal(frm, to)):
            raise ActionError(f"bot {frm}->{to} does not fit now")
        return Move(frm, to, game.check_order(frm, to, order) if order is not None else None)


def seat_colors(a: dict, players: int) -> tuple[dict[int, str], dict[int, str]]:
    """The "bots" and "dealt" maps of a "new" action, checked: every seat once, distinct colors."""
    if "bots" not in a and "dealt" not in a:
        return {}, {}
    bots = {int(s): c for s, c in a["bots"].items()}
    dealt = {int(s): c for s, c in a["dealt"].items()}
    colors = list(bots.values()) + list(dealt.values())
    if (not bots or not dealt or set(bots) & set(dealt) or sorted(set(bots) | set(dealt)) != list(range(players))
            or len(set(colors)) != len(colors) or not set(colors) <= set(COLORS)):
        raise ActionError(f"new: the bots' and the dealt colors do not fit {players} players "
                          "(every seat once, distinct colors)")
    return bots, dealt


def seat_levels(a: dict, bots: dict[int, str]) -> dict[int, str]:
    """The "levels" map of a "new" action, checked: bot seats only, each one of the game's bots."""
    levels = {int(s): level for s, level in a.get("levels", {}).items()}
    if not set(levels) <= set(bots) or not all(level in GAME.bots for level in levels.values()):
        raise ActionError(f"new: levels {a.get('levels')!r} must name bot seats and one of {', '.join(GAME.bots)}")
    return levels


def move_action(frm: int, to: int, order: list[int] | tuple[int, ...] | None, kind: str = "move") -> dict:
    """A "move" (or a bot's "bot") action; "order" only when one is given."""
    action: dict[str, Any] = {"a": kind, "from": frm, "to": to}
    if order is not None:
        action["order"] = list(order)
    return action
