"""What a Mammut table's journal knows (`TableState`) and the actions that change it.

Every change to the game, and every partial answer to one of its forms (so a resume lands
on the same question), is a JSON-safe action applied by `TableState.apply`:

    {"a": "new", "tribes": 3, "first_game": true, "advanced": false, "first": 2,
     "colors": ["red", "yellow", "green"]}          starts a game (and its journal entry); the
                                                     first player is the one the companion drew
    {"a": "ask", "form": "fight", "ctx": {}}        a form opened from the phase's list
    {"a": "answer", "field": "warriors1", "value": 3}   one answer to the open form
    {"a": "back"}                                    takes back the last answer (none: closes it)
    {"a": "do", "method": "report_survival", "args": {"tribe": 2, "fishing": 1, ...},
     "rolls": [4, 2]}                                a `MammutGame` call with the dice it rolled
    {"a": "undo"}                                    takes back the game log's last entry

"do" replays with the recorded dice (fed to the game's one die, `dice.Dice.fed`), so a
resume reproduces the same rolls whatever the random source. While `replaying` (a rebuild
from the journal), "ask" and "answer" are taken as they were journaled, even where the
forms now offer less (a journal of an earlier version); the game calls are still checked.
The new-game questions are UI state until their last answer, so "new" is the only action
that starts a game. Forms the game itself demands (`forms.derived_form`) are journaled
once answered in part.
The panel's brightness is the shell's, no longer a Mammut action.
"""

from __future__ import annotations

import json
import random
from typing import Any, Callable

from companion.util.errors import ActionError

from .forms import FORMS, OpenForm, derived_form, next_field
from .game import ACTIONS as GAME_ACTIONS
from .game import MammutGame
from .rules import MammutError

KIND = "mammut"
START_ACTIONS = ("new",)  # actions that begin a new journal entry
NEW_GAME_ENTRIES = 2  # log entries made by {"a": "new"}: new_game and set_first_player; not undoable
LIST_FORMS = frozenset(kind for kind, form in FORMS.items() if form.listed)


def starts_game(action: dict) -> bool:
    """True for the action that opens a new journal entry (a new game)."""
    return action.get("a") in START_ACTIONS


def call(method: str, args: dict) -> dict:
    """The "do" action of a `MammutGame` call (its dice are added once it has run)."""
    return {"a": "do", "method": method, "args": args}


class TableState:
    """The game (None before the first one) and the open form the table started, if any."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.game: MammutGame | None = None
        self.form: OpenForm | None = None
        self.replaying = False  # rebuilding from the journal: its asks and answers were accepted once
        self._handlers: dict[str, Callable[[dict], Any]] = {
            "new": self._new, "ask": self._ask, "answer": self._answer, "back": self._back,
            "do": self._do, "undo": self._undo,
        }  # fmt: skip

    # ----- applying actions ------------------------------------------------------------------
    def apply(self, action: dict) -> Any:
        """Apply one action; returns the game call's result (the entry taken back for "undo").
        `MammutError` (input the rules refuse) passes through and changes nothing; a malformed
        action raises `ActionError`."""
        try:
            handler = self._handlers.get(action["a"])
            if handler is None:
                raise ActionError(f"unknown action {action['a']!r}")
            return handler(action)
        except (KeyError, TypeError, AttributeError) as exc:
            raise ActionError(f"cannot apply {action!r}: {exc!r}") from None

    def _new(self, a: dict) -> None:
        n, first = a["tribes"], a["first"]
        if type(n) is not int or type(first) is not int:
            raise ActionError(f"new: {a!r}")
        colors = a.get("colors")  # journals of the previous version carry none: tribes by number
        if colors is not None and not isinstance(colors, list):
            raise ActionError(f"new: {a!r}")
        game = MammutGame(n, roll=self.rng, colors=colors, first_game=bool(a["first_game"]),
                          advanced=bool(a["advanced"]))
        game.set_first_player(first)
        self.game, self.form = game, None

    def _ask(self, a: dict) -> None:
        kind, ctx = a["form"], a.get("ctx", {})
        if kind not in LIST_FORMS or not isinstance(ctx, dict):
            raise ActionError(f"ask: unknown form {kind!r}")
        game = self.need_game()
        form = OpenForm(kind, dict(ctx))
        if next_field(game, form) is None:
            raise ActionError(f"ask: form {kind!r} has no question")
        why = FORMS[kind].unavailable(game)
        if why and not self.replaying:
            raise MammutError(why)
        self.form = form

    def _answer(self, a: dict) -> None:
        form = self.current_form()
        if form is None:
            raise ActionError("answer: no question is open")
        f = next_field(self.game, form)
        if f is None or f.name != a["field"]:
            raise ActionError(f"answer: the open question is not {a['field']!r}")
        why = f.problem(a["value"])
        if why and not self.replaying:
            raise MammutError(why)
        answered = form.answered(f.name, a["value"])
        if next_field(self.game, answered) is None:
            raise ActionError("answer: the last answer is journaled as the action it completes")
        self.form = answered

    def _back(self, a: dict) -> None:
        if self.form is None:
            raise ActionError("back: no question is open")
        self.form = self.form.take_back() if self.form.answers else None

    def _do(self, a: dict) -> Any:
        game = self.need_game()
        method, args = a["method"], a.get("args", {})
        if method not in GAME_ACTIONS or not isinstance(args, dict):
            raise ActionError(f"do: unknown game action {method!r}")
        rolls = a.get("rolls")
        if rolls is not None and not isinstance(rolls, list):
            raise ActionError(f"do: the dice of {method} are not a list")
        with game.dice.fed(rolls, f"the journaled {method}"):
            result = game.play(method, args)
        self.form = None
        return result

    def _undo(self, a: dict) -> dict:
        game = self.need_game()
        if len(game.log) <= NEW_GAME_ENTRIES:
            raise ActionError("undo: nothing to undo")
        entry = game.pop()
        self.form = None
        return entry

    # ----- queries -----------------------------------------------------------------------------
    def need_game(self) -> MammutGame:
        if self.game is None:
            raise ActionError("no game")
        return self.game

    def current_form(self) -> OpenForm | None:
        """The open question of the journaled state (never the new-game questions)."""
        return self.form if self.form is not None else derived_form(self.game)

    def drop_stale_form(self) -> None:
        """After a rebuild: close the table's open form if its question now offers nothing to
        choose (a journal of an earlier version left it open where nobody can answer it)."""
        if self.form is None:
            return
        f = next_field(self.game, self.form)
        if f is not None and f.choices == ():
            self.form = None

    def pending_question(self) -> dict | None:
        """The open question (journaled or demanded by the game): form, context, answers, field."""
        form = self.current_form()
        if form is None:
            return None
        f = next_field(self.game, form)
        return {"form": form.kind, "ctx": form.ctx, "answers": form.answers, "field": f.name if f else None}

    def can_undo(self) -> bool:
        """A game with an entry after its new-game entries (those cannot be taken back)."""
        return self.game is not None and len(self.game.log) > NEW_GAME_ENTRIES

    def in_progress(self) -> bool:
        return self.game is not None and not self.game.over

    def game_log(self) -> dict | None:
        """The game as JSON ({"game": "mammut", ...MammutGame.to_dict()}); None before a game."""
        if self.game is None:
            return None
        return {"game": KIND, **self.game.to_dict()}

    def record_json(self) -> str | None:
        log = self.game_log()
        return json.dumps(log, indent=1) + "\n" if log is not None else None

    def finished_result(self) -> dict | None:
        """The finished game's result for the history: winners, extinction and the game log."""
        g = self.game
        if g is None or not g.over:
            return None
        return {"winners": list(g.winners), "extinct": bool(g.extinct), "log": self.game_log()}
