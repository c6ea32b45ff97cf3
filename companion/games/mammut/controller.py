"""The Mammut controller: keypad keys in, `MammutGame` calls and screens out. Pure.

`MammutController` offers the same interface as the Clans
`companion.games.clans.controller.Controller`, so the same daemon runs either game:
`handle(key, now)`, `screen()`, `pop_actions()`, `from_actions(actions, rng)`,
`shutdown_requested`, `brightness`, and `game_log()` (the game's JSON log for
--record-out, `None` before the first game). No threads, clocks or I/O: time is
passed in and the dice come from an injected `random.Random`.

The table is walked through the 10 phases of every turn; the pure `MammutGame`
decides which phases apply and validates every report. Input is one question
per screen: a number ("Tribe 2 fishing spaces? > 3_", digits or A/B to step,
# to confirm, * to clear or go back) or a short list (A/B and #). A question
sequence is a *form* (fight, survival, births, capture, ...); when its last
answer is given the form becomes one game call. Refused input shows the
`MammutError` message and changes nothing.

Journal: every change to the game (and every partial answer to a game form, so a
resume lands on the same question) is a JSON-safe action applied through
`_apply` and queued for `pop_actions()`:

    {"a": "new", "tribes": 3, "first_game": true, "advanced": false, "first": 2}
                                                     starts a game (and its journal entry)
    {"a": "ask", "form": "fight", "ctx": {}}        a question sequence opened from a list
    {"a": "answer", "field": "warriors1", "value": 3}   one answer to the open form
    {"a": "back"}                                    takes back the last answer (none: closes it)
    {"a": "do", "method": "report_survival", "args": {"tribe": 2, "fishing": 1, ...},
     "rolls": [4, 2]}                                a `MammutGame` call with the dice it rolled
    {"a": "undo"}                                    replays the game log minus its last entry
    {"a": "brightness", "level": 3}                  1..5

"do" replays with the recorded dice, so a resume reproduces the same rolls
whatever the random source. The new-game questions are UI state until the last
answer, so "new" is the only action that starts a game: a daemon opens a new
journal entry on it, and leaving the questions (*) keeps the running game.
Forms the game itself demands (survival and births of each tribe, tokens to
remove for hunger) are derived from the game state and journaled once answered
in part. UI state that is not journaled (typed digits, list selections, info and
error screens, the D menu, the new-game questions) is dropped on a rebuild.

Keys: digits type a number (or pick list item N), # confirms / continues, *
clears the entry or takes back the last answer, A/B step a number up/down or
move in a list (so the A/B/#/* buttons alone can play), C undo, D menu
(Actions, Tribe books, Undo last entry, New game, Brightness, Shut down).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from companion.table import keys as K
from companion.table import screen as S
from companion.table.overlays import BRIGHTNESS_LEVELS, SharedOverlays
from companion.games.mammut import rules as R
from companion.games.mammut.game import ACTIONS as GAME_ACTIONS
from companion.games.mammut.game import MammutGame, Phase
from companion.games.mammut.rules import MammutError

MENU_ITEMS = ("Actions", "Tribe books", "Undo last entry", "New game", "Brightness", "Play Clans", "Shut down")
TITLE_COLS = 25  # 5x8 font in the title bar and menu hints
CHOICE_COLS = 20  # 6x10 font, list rows start at x=3
NEW_GAME_ENTRIES = 2  # log entries made by {"a": "new"}: new_game and set_first_player; not undoable
MAX_ENTRY_DIGITS = 2

PHASE_SHORT = {
    Phase.SETUP: "Setup",
    Phase.EVENTS: "1.Events",
    Phase.NEW_ANIMALS: "2.Animals",
    Phase.ANIMAL_MOVEMENT: "3.Movement",
    Phase.TRIBES_MOVE: "4.Tribes",
    Phase.COMBAT: "5.Combat",
    Phase.SURVIVAL: "6.Survival",
    Phase.BIRTHS: "7.Births",
    Phase.SOWING: "8.Sowing",
    Phase.FATE_CARDS: "9.Fate",
    Phase.END_OF_TURN: "10.End",
    Phase.GAME_OVER: "Game over",
}
ANIMAL_PLURAL = {"wolf": "wolves", "tiger": "tigers", "bear": "bears", "bison": "bison", "rhino": "rhinos",
                 "mammoth": "mammoths"}  # fmt: skip

# Forms the table opens from a list (the others are derived from the game state).
LIST_FORMS = ("fight", "capture_camp", "capture_women", "make_camp", "abandon_camp", "remove", "food",
              "fate", "fire", "resurrect", "start_camp", "sow")  # fmt: skip

UNDO_WORDS = {
    "advance": "the step to the next phase", "set_first_player": "who placed first",
    "set_start_camp": "a start camp", "sow": "crops sown", "make_camp": "a camp made",
    "abandon_camp": "a camp abandoned", "fight": "a fight", "capture_camp": "a camp taken",
    "capture_women": "women captured", "remove_tokens": "tokens removed", "adjust_food": "a food change",
    "play_fate_card": "fate cards played", "set_fire": "a fire change", "report_survival": "a survival report",
    "report_births": "births", "resurrect": "a resurrection", "roll_die": "a die roll",
}  # fmt: skip


class ActionError(ValueError):
    """An action that cannot be applied (a corrupt or foreign journal)."""


@dataclass(frozen=True)
class Field:
    """One question. Numbers: `lo`..`hi` (A/B step inside), `default` on an empty #.
    Lists: `choices` of (value, label). `check` returns a refusal message or None."""

    name: str
    prompt: str
    lo: int = 0
    hi: int = 99
    default: int | None = None
    choices: tuple[tuple[Any, str], ...] = ()
    steps: tuple[int, ...] | None = None  # the values A/B walk through (tribe numbers)
    check: Callable[[Any], str | None] | None = field(default=None, compare=False)

    @property
    def is_choice(self) -> bool:
        return bool(self.choices)

    def problem(self, value: Any) -> str | None:
        if self.is_choice:
            if not any(value == v and type(value) is type(v) for v, _ in self.choices):
                return f"choose one of: {', '.join(label for _, label in self.choices)}"
        elif isinstance(value, bool) or not isinstance(value, int):
            return "type a number"
        elif self.check is None and not self.lo <= value <= self.hi:
            return f"type {self.lo} to {self.hi}, not {value}"
        return self.check(value) if self.check is not None else None


class _Dice:
    """The game's die: live from the rng, or fed the dice a journaled action recorded."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.queue: list[int] | None = None

    def __call__(self) -> int:
        if self.queue is None:
            return self.rng.randint(1, 6)
        if not self.queue:
            raise ActionError("the journal records fewer dice than the action needs")
        return self.queue.pop(0)


def _count(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else (plural or word + 's')}"


class MammutController(SharedOverlays):
    """The Mammut bookkeeper's state machine; see the module docstring for the action format."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random()
        self._dice = _Dice(self.rng)
        # journaled state
        self.game: MammutGame | None = None
        self.form: dict | None = None  # {"kind", "ctx", "answers", "derived"}
        self._init_shared()
        self._reset_ui()

    def _reset_ui(self) -> None:
        self.buf = ""
        self.sel = 0
        self._field_key: tuple | None = None
        self.view = "form" if self.form is not None else "phase"  # phase info, action list, or the form
        self.page = 0
        self.list_sel = 0
        self.info: tuple[str, list[tuple[str, ...]], str] | None = None
        self.info_page = 0
        self.overlay: str | None = None
        self.menu_sel = 0
        self.bright_sel = 0
        self.new_form: dict | None = None  # the new-game questions' answers so far

    # ----- construction ------------------------------------------------------------------
    @classmethod
    def from_actions(cls, actions: Iterable[dict], rng: random.Random | None = None) -> "MammutController":
        """Rebuild the exact state (game, open form and its answers) from journaled actions."""
        c = cls(rng)
        for action in actions:
            try:
                c._apply(action)
            except MammutError as e:
                raise ActionError(f"the journal does not fit the game: {action!r}: {e}") from None
        c._reset_ui()
        return c

    # ----- the journal -------------------------------------------------------------------
    def _do(self, action: dict) -> Any:
        result = self._apply(action)  # raises before anything is journaled
        if action["a"] == "do":
            assert self.game is not None
            action = {**action, "rolls": list(self.game.log[-1]["rolls"])}
        self._outbox.append(action)
        return result

    def _apply(self, a: dict) -> Any:
        """Apply one action. `MammutError` (input the rules refuse) passes through unchanged;
        a malformed action raises `ActionError`."""
        try:
            kind = a["a"]
            if kind == "new":
                n, first = a["tribes"], a["first"]
                if type(n) is not int or type(first) is not int:
                    raise ActionError(f"new: {a!r}")
                game = MammutGame(n, roll=self._dice, first_game=bool(a["first_game"]), advanced=bool(a["advanced"]))
                game.set_first_player(first)
                self.game, self.form = game, None
            elif kind == "ask":
                form = a["form"]
                if form not in LIST_FORMS or not isinstance(a.get("ctx", {}), dict):
                    raise ActionError(f"ask: unknown form {form!r}")
                if self.game is None:
                    raise ActionError("ask: no game")
                self.form = {"kind": form, "ctx": dict(a.get("ctx", {})), "answers": {}, "derived": False}
                if self._next_field(self.form) is None:
                    self.form = None
                    raise ActionError(f"ask: form {form!r} has no question")
            elif kind == "answer":
                form = self._current_form()
                if form is None:
                    raise ActionError("answer: no question is open")
                f = self._next_field(form)
                if f is None or f.name != a["field"]:
                    raise ActionError(f"answer: the open question is not {a['field']!r}")
                why = f.problem(a["value"])
                if why:
                    raise MammutError(why)
                answers = {**form["answers"], f.name: a["value"]}
                if self._next_field({**form, "answers": answers}) is None:
                    raise ActionError("answer: the last answer is journaled as the action it completes")
                self.form = {**form, "answers": answers}
            elif kind == "back":
                if self.form is None:
                    raise ActionError("back: no question is open")
                if self.form["answers"]:
                    answers = dict(self.form["answers"])
                    answers.popitem()
                    self.form = {**self.form, "answers": answers}
                else:
                    self.form = None
            elif kind == "do":
                game = self._need_game()
                method, args = a["method"], a.get("args", {})
                if method not in GAME_ACTIONS or not isinstance(args, dict):
                    raise ActionError(f"do: unknown game action {method!r}")
                rolls = a.get("rolls")
                self._dice.queue = None if rolls is None else list(rolls)
                try:
                    result = getattr(game, method)(**args)
                    if self._dice.queue:
                        raise ActionError(f"do: {method} used fewer dice than the journal records")
                finally:
                    self._dice.queue = None
                self.form = None
                return result
            elif kind == "undo":
                game = self._need_game()
                if len(game.log) <= NEW_GAME_ENTRIES:
                    raise ActionError("undo: nothing to undo")
                log = game.log[:-1]
                self._dice.queue = [d for entry in log[1:] for d in entry["rolls"]]
                try:
                    replayed = MammutGame.replay(log, roll=self._dice)
                    if self._dice.queue:
                        raise ActionError("undo: the game log records more dice than its actions use")
                finally:
                    self._dice.queue = None
                self.game, self.form = replayed, None
                return game.log[-1]
            elif kind == "brightness":
                level = a["level"]
                if type(level) is not int or not 1 <= level <= BRIGHTNESS_LEVELS:
                    raise ActionError(f"brightness {level!r}")
                self.brightness = level
            else:
                raise ActionError(f"unknown action {kind!r}")
        except (KeyError, TypeError, AttributeError) as exc:
            raise ActionError(f"cannot apply {a!r}: {exc!r}") from None
        return None

    def _need_game(self) -> MammutGame:
        if self.game is None:
            raise ActionError("no game")
        return self.game

    # ----- queries -----------------------------------------------------------------------
    GAME_KIND = "mammut"
    OTHER_GAME = "clans"
    START_ACTIONS = ("new",)  # actions that begin a new journal entry

    def finished_result(self) -> dict | None:
        """The finished game's result for the kiosk's history."""
        g = self.game
        if g is None or not g.over:
            return None
        return {"winners": list(g.winners), "extinct": bool(g.extinct), "log": self.game_log()}

    def record_json(self) -> str | None:
        """The game's JSON log for --record-out, or None before the first game."""
        import json

        log = self.game_log()
        return json.dumps(log, indent=1) + "\n" if log is not None else None

    def game_log(self) -> dict | None:
        """The game as JSON ({"game": "mammut", ...MammutGame.to_dict()}); None before a game."""
        if self.game is None:
            return None
        return {"game": "mammut", **self.game.to_dict()}

    def mode(self) -> str:
        """What the table is doing: "new", "question" (a form is open) or the phase's value."""
        form = self._current_form()
        if self.game is None or self.new_form is not None:
            return "new"
        if form is not None:
            return "question"
        return self.game.phase.value

    def pending_question(self) -> dict | None:
        """The open question (journaled or demanded by the game): form, context, answers, field."""
        form = self._current_form()
        if form is None:
            return None
        f = self._next_field(form)
        return {"form": form["kind"], "ctx": form["ctx"], "answers": form["answers"],
                "field": f.name if f else None}  # fmt: skip

    def _current_form(self) -> dict | None:
        """The open question of the journaled state (never the new-game questions)."""
        return self.form if self.form is not None else self._derived_form()

    def _ui_form(self) -> dict | None:
        """The question on screen: the new-game questions (UI only, journaled as one "new"
        action when complete, which starts a new journal entry), else the game's."""
        if self.new_form is not None:
            return self.new_form
        if self.game is None:
            return {"kind": "new", "ctx": {}, "answers": {}, "derived": False}
        return self._current_form()

    def _derived_form(self) -> dict | None:
        """The question the game itself is waiting for, if any."""
        g = self.game
        if g is None or g.over:
            return None
        for t in g.living():
            if t.to_remove:
                return {"kind": "hunger", "ctx": {"tribe": t.number}, "answers": {}, "derived": True}
        if g.phase == Phase.SURVIVAL:
            for t in self._in_order():
                if t.survival is None:
                    return {"kind": "survival", "ctx": {"tribe": t.number}, "answers": {}, "derived": True}
        if g.phase == Phase.BIRTHS:
            for t in self._in_order():
                if t.camps and t.births is None:
                    return {"kind": "births", "ctx": {"tribe": t.number}, "answers": {}, "derived": True}
        return None

    def _in_order(self) -> list:
        g = self._need_game()
        order = [n for n in g.play_order if not g.tribe(n).eliminated]
        rest = [t.number for t in g.living() if t.number not in order]
        return [g.tribe(n) for n in order + rest]

    # ----- the questions -----------------------------------------------------------------
    def _tribe_field(self, name: str, prompt: str, ok: Callable[[Any], str | None] | None = None,
                     steps: Iterable[int] | None = None, default: int | None = None) -> Field:
        """A tribe number: must exist and be in the game, then pass `ok`."""
        g = self._need_game()

        def check(v: int) -> str | None:
            try:
                t = g.tribe(v)
            except MammutError as e:
                return str(e)
            if t.eliminated and name != "resurrect":
                return f"{t.label} has been eliminated"
            return ok(t) if ok is not None else None

        if steps is None:
            steps = [t.number for t in g.living()]
        steps = tuple(n for n in steps if check(n) is None)
        return Field(name, prompt, 1, g.n_tribes, default, steps=steps, check=check)

    def _count_field(self, name: str, prompt: str, hi: int, too_many: str, lo: int = 0,
                     default: int | None = 0) -> Field:
        def check(v: int) -> str | None:
            if v < lo:
                return f"at least {lo}, not {v}"
            return too_many.format(v=v) if v > hi else None

        return Field(name, prompt, lo, hi, default, check=check)

    def _camp_kind_field(self, name: str, prompt: str, t, allow_none: bool = False) -> Field:
        choices: list[tuple[Any, str]] = [(None, "No")] if allow_none else []
        if t.villages:
            choices.append((R.VILLAGE, "Village" if not allow_none else "Own village"))
        if t.caves:
            choices.append((R.CAVE, "Cave" if not allow_none else "Own cave"))
        return Field(name, prompt, choices=tuple(choices))

    def _yes_no(self, name: str, prompt: str, no: str = "No", yes: str = "Yes") -> Field:
        return Field(name, prompt, choices=((False, no), (True, yes)))

    def _next_field(self, form: dict) -> Field | None:
        """The next unanswered question of `form`, or None when it is complete."""
        kind, ctx, ans = form["kind"], form["ctx"], form["answers"]
        fields = self._fields(kind, ctx, ans)
        for f in fields:
            if f.name not in ans:
                return f
        return None

    def _fields(self, kind: str, ctx: dict, ans: dict) -> list[Field]:
        """The questions of a form so far; later ones depend on earlier answers, so the list
        stops at the first unanswered question."""
        out: list[Field] = []

        def need(f: Field) -> bool:
            out.append(f)
            return f.name in ans

        if kind == "new":
            if not need(Field("tribes", "How many tribes? (2-6)", R.MIN_TRIBES, R.MAX_TRIBES)):
                return out
            if not need(self._yes_no("first_game", "First game?", f"No ({R.START_FOOD} food)",
                                     f"Yes ({R.FIRST_GAME_FOOD} food)")):
                return out
            if not need(Field("advanced", "Rules?", choices=((False, "Standard"), (True, "Advanced (fire)")))):
                return out
            n = ans["tribes"]
            need(Field("first", f"Which tribe placed its camp first? (1-{n})", 1, n, steps=tuple(range(1, n + 1))))
            return out
        g = self._need_game()
        if kind in ("survival", "births", "hunger"):
            t = g.tribe(ctx["tribe"])
            L = f"Tribe {t.number}"
            if kind == "survival":
                people = t.people
                over = f"{t.label} has {people} warriors and women: it cannot occupy {{v}} spaces"
                if not need(self._count_field("fishing", f"{L} fishing: spaces on a lake shore or river?",
                                              people, over)):
                    return out
                if g.season == R.SUMMER and not need(
                        self._count_field("gathering", f"{L} gathering: forest spaces?", people, over)):
                    return out
                if R.is_last_summer_turn(g.season, g.turn):
                    if not need(self._count_field("crops_intact", f"{L} harvest: intact crops occupied?",
                                                  min(people, R.CROP_MARKERS), over)):
                        return out
                    need(self._count_field("crops_damaged", f"{L} harvest: damaged crops occupied?",
                                           min(people, R.CROP_MARKERS) - ans["crops_intact"],
                                           f"{t.label} occupies at most {people} crops of {R.CROP_MARKERS}"))
            elif kind == "births":
                if not need(self._count_field("camps_one_woman", f"{L} ({_count(t.camps, 'camp')}, "
                                              f"{_count(t.women, 'woman', 'women')}): camps with 1 woman?",
                                              t.camps, f"{t.label} has only {t.camps} camps, not {{v}}")):
                    return out
                one = ans["camps_one_woman"]
                most = min(t.camps - one, max(0, (t.women - one) // 2))
                if most:  # otherwise the answer can only be 0
                    need(self._count_field("camps_two_plus", f"{L}: camps with 2 or more women?", most,
                                           f"{t.label} has {t.camps} camps and {t.women} women: not {{v}} "
                                           "more camps with 2 or more women"))
            else:
                n = t.to_remove
                lo, hi = max(0, n - t.women), min(n, t.warriors)
                need(Field("warriors", f"{L} removes {n}. Warriors? Rest women.", lo, hi,
                           default=hi if lo == hi else None,
                           check=lambda v: None if lo <= v <= hi else
                           f"{t.label} has {t.warriors} warriors and {t.women} women: remove {lo} to {hi} "
                           f"warriors (and {n} tokens in all)"))
            return out

        def tribe_answer(key: str):
            return g.tribe(ans[key])

        if kind == "fight":
            if not need(self._tribe_field("tribe1", "Fight: first tribe?")):
                return out
            t1 = tribe_answer("tribe1")
            if not self._fight_side(need, t1, "1"):
                return out
            opp = ((None, "Another tribe"),) + tuple((a, ANIMAL_PLURAL[a].capitalize()) for a in R.ANIMALS)
            if not need(Field("opponent", f"Tribe {t1.number} fights?", choices=opp)):
                return out
            animal = ans["opponent"]
            if animal is None:
                if not need(self._tribe_field("tribe2", f"Tribe {t1.number} fights which tribe?",
                                              lambda t: "a tribe cannot fight itself" if t is t1 else None)):
                    return out
                t2 = tribe_answer("tribe2")
                if not self._fight_side(need, t2, "2"):
                    return out
                if not need(self._count_field("bonus1", f"Tribe {t1.number} fate card bonus?", 9,
                                              "a bonus of at most 9")):
                    return out
                need(self._count_field("bonus2", f"Tribe {t2.number} fate card bonus?", 9, "a bonus of at most 9"))
            else:
                if not need(self._count_field("count", f"How many {ANIMAL_PLURAL[animal]}?", 20,
                                              "at most 20 animals", lo=1, default=1)):
                    return out
                if ans["warriors1"] and ans["women1"] and not need(Field(
                        "lose", f"Tribe {t1.number} loses first?",
                        choices=((R.WARRIOR, "Warriors"), (R.WOMAN, "Women")))):
                    return out
                need(self._count_field("bonus1", f"Tribe {t1.number} fate card bonus?", 9, "a bonus of at most 9"))
            return out
        if kind == "capture_camp":
            if not need(self._tribe_field("winner", "Camp taken by tribe?",
                                          lambda t: None if t.warriors else f"{t.label} has no warrior to take a camp")):
                return out
            w = tribe_answer("winner")
            if not need(self._tribe_field("loser", f"Tribe {w.number} takes a camp of tribe?",
                                          lambda t: "a tribe cannot take its own camp" if t is w else
                                          (None if t.camps else f"{t.label} has no camp"))):
                return out
            lo = tribe_answer("loser")
            if not need(self._camp_kind_field("kind", f"Tribe {lo.number}'s camp is a?", lo)):
                return out
            need(self._yes_no("burn", "Keep it or burn it?", "Keep it", "Burn it"))
            return out
        if kind == "capture_women":
            if not need(self._tribe_field("captor", "Women captured by tribe?",
                                          lambda t: None if t.warriors else f"{t.label} has no warrior")):
                return out
            c = tribe_answer("captor")
            if not need(self._tribe_field("victim", f"Tribe {c.number} captures women of tribe?",
                                          lambda t: "a tribe cannot capture its own women" if t is c else
                                          (None if t.women else f"{t.label} has no women"))):
                return out
            v = tribe_answer("victim")
            if not need(self._count_field("count", f"How many women of tribe {v.number}?", v.women,
                                          f"{v.label} has only {v.women} women, not {{v}}", lo=1, default=None)):
                return out
            need(self._yes_no("massacre", "The women...", "Join the captor", "Are massacred"))
            return out
        if kind in ("make_camp", "start_camp"):
            if not need(self._tribe_field("tribe", "Camp made by tribe?" if kind == "make_camp"
                                          else "Start camp of tribe?")):
                return out
            need(Field("kind", "The camp is a?", choices=((R.VILLAGE, "Village"), (R.CAVE, "Cave (mountain)"))))
            return out
        if kind == "abandon_camp":
            if not need(self._tribe_field("tribe", "Camp abandoned by tribe?",
                                          lambda t: None if t.camps else f"{t.label} has no camp")):
                return out
            need(self._camp_kind_field("kind", "Abandoned camp is a?", tribe_answer("tribe")))
            return out
        if kind == "remove":
            if not need(self._tribe_field("tribe", "Remove tokens of tribe?")):
                return out
            t = tribe_answer("tribe")
            if not need(self._count_field("warriors", f"Tribe {t.number}: warriors removed?", t.warriors,
                                          f"{t.label} has only {t.warriors} warriors, cannot remove {{v}}")):
                return out
            need(self._count_field("women", f"Tribe {t.number}: women removed?", t.women,
                                   f"{t.label} has only {t.women} women, cannot remove {{v}}"))
            return out
        if kind == "food":
            if not need(self._tribe_field("tribe", "Food change for tribe?")):
                return out
            t = tribe_answer("tribe")
            if not need(Field("gain", f"Tribe {t.number} food?", choices=((True, "Gains food"), (False, "Pays food")))):
                return out
            hi = 99 if ans["gain"] else t.food
            need(self._count_field("amount", f"Tribe {t.number} {'gains' if ans['gain'] else 'pays'} how much food?",
                                   hi, f"{t.label} has only {t.food} food, cannot pay {{v}}" if not ans["gain"]
                                   else "at most 99 at a time", lo=1, default=None))
            return out
        if kind == "fate":
            if not need(self._tribe_field("tribe", "Fate cards played by tribe?",
                                          lambda t: None if t.fate_cards else f"{t.label} holds no fate card")):
                return out
            t = tribe_answer("tribe")
            need(self._count_field("count", f"Tribe {t.number}: cards played?", t.fate_cards,
                                   f"{t.label} holds only {t.fate_cards} fate cards, cannot play {{v}}", lo=1,
                                   default=1))
            return out
        if kind == "fire":
            if not need(self._tribe_field("tribe", "Fire: which tribe?")):
                return out
            need(self._yes_no("has_fire", f"Tribe {ans['tribe']} now...", "Lost its fire", "Has fire"))
            return out
        if kind == "resurrect":
            back = g.can_resurrect()
            need(self._tribe_field("resurrect", "Which tribe comes back?",
                                   lambda t: None if t.number in back else f"{t.label} cannot come back now",
                                   steps=back))
            return out
        if kind == "sow":
            if not need(self._tribe_field("tribe", "Crops sown by tribe?")):
                return out
            t = tribe_answer("tribe")
            room = t.villages - t.sown
            need(self._count_field("crops", f"Tribe {t.number}: crops sown on plain villages?", max(1, room),
                                   f"crops grow only on your villages on a plain: {t.label} has {room} "
                                   "villages without one", lo=1, default=1))
            return out
        raise ActionError(f"unknown form {kind!r}")

    def _fight_side(self, need: Callable[[Field], bool], t, n: str) -> bool:
        L = f"Tribe {t.number}"
        if not need(self._count_field(f"warriors{n}", f"{L} warriors in the fight?", t.warriors,
                                      f"{t.label} has only {t.warriors} warriors, not {{v}}")):
            return False
        if not need(self._count_field(f"women{n}", f"{L} women in the fight?", t.women,
                                      f"{t.label} has only {t.women} women, not {{v}}")):
            return False
        if t.camps and not need(self._camp_kind_field(f"camp{n}", f"{L} in its own camp?", t, allow_none=True)):
            return False
        return True

    def _submit(self, form: dict, answers: dict) -> dict:
        """The action a complete form becomes."""
        kind, ctx, a = form["kind"], form["ctx"], answers
        if kind == "new":
            return {"a": "new", "tribes": a["tribes"], "first_game": a["first_game"], "advanced": a["advanced"],
                    "first": a["first"]}  # fmt: skip
        if kind == "survival":
            args = {"tribe": ctx["tribe"], "fishing": a["fishing"], "gathering": a.get("gathering", 0),
                    "crops_intact": a.get("crops_intact", 0), "crops_damaged": a.get("crops_damaged", 0)}  # fmt: skip
            return self._call("report_survival", args)
        if kind == "births":
            return self._call("report_births", {"tribe": ctx["tribe"], "camps_one_woman": a["camps_one_woman"],
                                                "camps_two_plus": a.get("camps_two_plus", 0)})
        if kind == "hunger":
            t = self._need_game().tribe(ctx["tribe"])
            return self._call("remove_tokens", {"tribe": t.number, "warriors": a["warriors"],
                                                "women": t.to_remove - a["warriors"], "reason": "hunger"})
        if kind == "fight":
            side1: dict[str, Any] = {"tribe": a["tribe1"], "warriors": a["warriors1"], "women": a["women1"],
                                     "camp": a.get("camp1"), "bonus": a["bonus1"]}  # fmt: skip
            if a["opponent"] is None:
                side2: dict[str, Any] = {"tribe": a["tribe2"], "warriors": a["warriors2"], "women": a["women2"],
                                         "camp": a.get("camp2"), "bonus": a["bonus2"]}  # fmt: skip
            else:
                side1["lose"] = a.get("lose", R.WARRIOR if a["warriors1"] else R.WOMAN)
                side2 = {"animal": a["opponent"], "count": a["count"]}
            return self._call("fight", {"sides": [side1, side2]})
        if kind == "capture_camp":
            return self._call("capture_camp", dict(a))
        if kind == "capture_women":
            return self._call("capture_women", dict(a))
        if kind in ("make_camp", "abandon_camp", "start_camp"):
            method = "set_start_camp" if kind == "start_camp" else kind
            return self._call(method, {"tribe": a["tribe"], "kind": a["kind"]})
        if kind == "remove":
            return self._call("remove_tokens", {"tribe": a["tribe"], "warriors": a["warriors"], "women": a["women"],
                                                "reason": "table"})
        if kind == "food":
            return self._call("adjust_food", {"tribe": a["tribe"], "delta": a["amount"] if a["gain"] else -a["amount"],
                                              "reason": "table"})
        if kind == "fate":
            return self._call("play_fate_card", {"tribe": a["tribe"], "count": a["count"]})
        if kind == "fire":
            return self._call("set_fire", {"tribe": a["tribe"], "has_fire": a["has_fire"]})
        if kind == "resurrect":
            return self._call("resurrect", {"tribe": a["resurrect"]})
        if kind == "sow":
            return self._call("sow", {"tribe": a["tribe"], "crops": a["crops"]})
        raise ActionError(f"unknown form {kind!r}")

    @staticmethod
    def _call(method: str, args: dict) -> dict:
        return {"a": "do", "method": method, "args": args}

    # ----- keys --------------------------------------------------------------------------
    def handle(self, key: str, now: float) -> None:
        """One key press at time `now` (seconds, any monotonic origin). Never raises for a key."""
        if not K.is_key(key) or self.shutdown_requested:
            return
        self.now = now
        self._sync_field()
        if self._power_or_info_key(key, dismissing=(K.OK, K.BACK, K.UP, K.DOWN)):
            return
        if self.overlay is not None:
            getattr(self, "_overlay_" + self.overlay.rstrip("?"))(key)
            return
        if key == K.MENU:
            self.overlay, self.menu_sel = "menu", 0
            return
        if key == K.UNDO and self.game is not None:
            self._ask_undo()
            return
        form = self._ui_form()
        if form is not None and self._form_on_screen():
            self._key_form(form, key)
        elif self.game is not None and (self.view == "list" or (self.view == "form" and form is None)):
            self._key_list(key)
        elif self.game is not None:
            self._key_phase(key)

    def _sync_field(self) -> None:
        """A new question starts with an empty entry and its default choice selected."""
        key = self._field_id()
        if key != self._field_key:
            self._field_key, self.buf, self.sel = key, "", 0

    def _form_on_screen(self) -> bool:
        """A form open by the table, or the game's own question once the table got to it."""
        return self.new_form is not None or self.game is None or self.form is not None or self.view == "form"

    def _field_id(self) -> tuple | None:
        form = self._ui_form()
        if form is None:
            return None
        f = self._next_field(form)
        return (form["kind"], repr(form["ctx"]), len(form["answers"]), f.name if f else None)

    def _show(self, title: str, paragraphs: list[str], name: str) -> None:
        self.info = (title[:TITLE_COLS], S.paginate(paragraphs), name)
        self.info_page = 0

    def _refuse(self, message: str) -> None:
        self._show("Not allowed", [message[:1].upper() + message[1:] + ("" if message.endswith(".") else ".")],
                   "error")

    def _key_form(self, form: dict, key: str) -> None:
        f = self._next_field(form)
        if f is None:  # cannot happen: complete forms are submitted at once
            return
        if f.is_choice:
            n = len(f.choices)
            if key in (K.UP, K.DOWN):
                self.sel = (self.sel + (1 if key == K.DOWN else -1)) % n
            elif key in K.DIGITS and 1 <= int(key) <= n:
                self.sel = int(key) - 1
            elif key == K.OK:
                self._answer(form, f, f.choices[self.sel][0])
            elif key == K.BACK:
                self._back(form)
            return
        if key in K.DIGITS:
            if len(self.buf) >= MAX_ENTRY_DIGITS:
                self.buf = ""
            self.buf = (self.buf + key).lstrip("0") or "0"
        elif key in (K.UP, K.DOWN):
            self.buf = str(self._step(f, key))
        elif key == K.OK:
            if self.buf:
                self._answer(form, f, int(self.buf))
            elif f.default is not None:
                self._answer(form, f, f.default)
        elif key == K.BACK:
            if self.buf:
                self.buf = ""
            else:
                self._back(form)

    def _step(self, f: Field, key: str) -> int:
        """A/B on a number: the next allowed value up (A) or down (B), wrapping."""
        values = list(f.steps) if f.steps is not None else list(range(f.lo, f.hi + 1))
        current = int(self.buf) if self.buf else f.default
        if not values:
            return current if current is not None else f.lo
        if current in values:
            return values[(values.index(current) + (1 if key == K.UP else -1)) % len(values)]
        return values[0] if key == K.UP else values[-1]

    def _answer(self, form: dict, f: Field, value: Any) -> None:
        self.buf = ""
        why = f.problem(value)
        if why:
            self._refuse(why)
            return
        answers = {**form["answers"], f.name: value}
        try:
            if self._next_field({**form, "answers": answers}) is not None:
                if form["kind"] == "new":
                    self.new_form = {**form, "answers": answers}
                else:
                    self._do({"a": "answer", "field": f.name, "value": value})
                return
            action = self._submit(form, answers)
            result = self._do(action)
        except MammutError as e:
            self._refuse(str(e))
            return
        self.view = "form" if form.get("derived") else "list"
        if form.get("derived"):
            self.list_sel = 0
        self._after(action, result)

    def _back(self, form: dict) -> None:
        if form["kind"] == "new":
            if form["answers"]:
                answers = dict(form["answers"])
                answers.popitem()
                self.new_form = {**form, "answers": answers}
            else:
                self.new_form = None  # changed our mind: the game (if any) goes on
        elif self.form is not None:
            closing = not self.form["answers"]
            self._do({"a": "back"})
            if closing and self._derived_form() is None:
                self.view = "list"
        elif self.game is not None:
            self.view, self.page = "phase", 0

    def _key_phase(self, key: str) -> None:
        g = self._need_game()
        pages = self._phase_pages()
        if key in (K.UP, K.DOWN):
            self.page = max(0, min(len(pages) - 1, self.page + (1 if key == K.DOWN else -1)))
        elif key == K.OK:
            self.page = 0
            if g.over:
                self._ask_new()
            elif self._derived_form() is not None:
                self.view = "form"
            elif g.phase in (Phase.SETUP, Phase.EVENTS, Phase.TRIBES_MOVE, Phase.COMBAT, Phase.SOWING) \
                    or g.can_resurrect():
                self.view, self.list_sel = "list", 0
            else:
                self._advance()

    def _advance(self) -> None:
        try:
            self._do(self._call("advance", {}))
        except MammutError as e:
            self._refuse(str(e))
            return
        self.view, self.page, self.list_sel = "phase", 0, 0

    def _actions(self) -> list[tuple[str, str]]:
        """The phase's list: (form or command, label)."""
        g = self._need_game()
        if g.over:
            return [("newgame", "New game"), ("help", "Phase help")]
        if g.phase == Phase.SETUP:
            return [("next", "Start turn 1"), ("start_camp", "Camp on a mountain"), ("sow", "Sow a crop"),
                    ("help", "Phase help")]  # fmt: skip
        items = [("next", "Continue reports" if self._derived_form() else "Next phase")]
        if g.can_resurrect():
            items.append(("resurrect", "Resurrect a tribe"))
        if g.phase == Phase.TRIBES_MOVE:
            items.append(("make_camp", "Camp made"))
        elif g.phase == Phase.COMBAT:
            items += [("fight", "Fight"), ("capture_camp", "Camp taken"), ("capture_women", "Women captured")]
        elif g.phase == Phase.SOWING:
            items.append(("sow", "Crops sown"))
        elif g.phase == Phase.EVENTS:
            items.append(("die", "Roll a die"))
        items += [("food", "Food gained/paid"), ("remove", "Tokens removed"), ("fate", "Fate cards played"),
                  ("abandon_camp", "Camp abandoned")]  # fmt: skip
        if g.advanced:
            items.append(("fire", "Fire caught/lost"))
        if g.phase != Phase.EVENTS:
            items.append(("die", "Roll a die"))
        items.append(("help", "Phase help"))
        return items

    def _key_list(self, key: str) -> None:
        items = self._actions()
        self.list_sel = min(self.list_sel, len(items) - 1)
        if key in (K.UP, K.DOWN):
            self.list_sel = (self.list_sel + (1 if key == K.DOWN else -1)) % len(items)
        elif key in K.DIGITS and 1 <= int(key) <= min(9, len(items)):
            self.list_sel = int(key) - 1
        elif key == K.BACK:
            self.view, self.page = "phase", 0
        elif key == K.OK:
            self._run_item(items[self.list_sel][0])

    def _run_item(self, item: str) -> None:
        g = self._need_game()
        if item == "next":
            if self._derived_form() is not None:
                self.view = "form"
            else:
                self._advance()
        elif item == "help":
            self._show(self._title(), g.phase_prompt().split("\n")[1:] or ["Nothing to add."], "help")
        elif item == "die":
            try:
                value = self._do(self._call("roll_die", {"reason": "table"}))
            except MammutError as e:  # pragma: no cover - roll_die refuses nothing in play
                self._refuse(str(e))
                return
            self._show(self._title(), [f"Die: {value}"], "die")
        elif item == "newgame":
            self._ask_new()
        else:
            try:
                self._do({"a": "ask", "form": item, "ctx": {}})
            except ActionError:
                self._refuse("nobody can do that now")

    def _ask_new(self) -> None:
        if self.new_form is None:
            self.new_form = {"kind": "new", "ctx": {}, "answers": {}, "derived": False}

    def _ask_undo(self) -> None:
        if self.game is None or len(self.game.log) <= NEW_GAME_ENTRIES:
            self._show("Undo", ["Nothing to undo."], "no-undo")
        else:
            self.overlay = "undo?"

    # ----- after an action: what to tell the table ---------------------------------------
    def _after(self, action: dict, result: Any) -> None:
        g = self.game
        if action["a"] == "new":
            self.new_form = None
            self.view, self.page, self.list_sel = "phase", 0, 0
            return
        assert g is not None
        method, args = action["method"], action["args"]
        label = f"Tribe {args.get('tribe', '')}"
        paras: list[str]
        if method == "report_survival":
            paras = self._survival_paragraphs(args["tribe"], result)
        elif method == "report_births":
            paras = self._births_paragraphs(args["tribe"], result)
        elif method == "fight":
            paras = self._fight_paragraphs(args["sides"], result)
        elif method == "capture_camp":
            what = "burns" if args["burn"] else "takes"
            paras = [f"Tribe {args['winner']} {what} a {args['kind']} of tribe {args['loser']} and raids "
                     f"{result['food']} food" + (" (its last camp: half)." if result["last_camp"] else " (a quarter).")]
            if result["fire"]:
                paras.append(f"Tribe {args['winner']} catches fire.")
        elif method == "capture_women":
            paras = [f"Tribe {args['captor']}: {_count(result['joined'], 'woman', 'women')} join"
                     + (f", {result['removed']} removed." if result["removed"] else ".")]
        elif method == "remove_tokens":
            paras = [f"{label} removes {_count(args['warriors'], 'warrior')} and "
                     f"{_count(args['women'], 'woman', 'women')}."]
        elif method in ("make_camp", "set_start_camp"):
            t = g.tribe(args["tribe"])
            paras = [f"{label}'s camp is a {args['kind']}: {_count(t.camps, 'camp')}."]
        elif method == "abandon_camp":
            t = g.tribe(args["tribe"])
            paras = [f"{label} abandons a {args['kind']}: {_count(t.camps, 'camp')} left."]
        elif method == "adjust_food":
            paras = [f"{label}: {'+' if args['delta'] > 0 else ''}{args['delta']} food, {g.tribe(args['tribe']).food} now."]
        elif method == "play_fate_card":
            paras = [f"{label} holds {_count(g.tribe(args['tribe']).fate_cards, 'fate card')}."]
        elif method == "set_fire":
            paras = [f"{label} {'has fire' if args['has_fire'] else 'has no fire'}."]
        elif method == "resurrect":
            paras = [f"{label} comes back: {R.RESURRECTION_WARRIORS} warriors and {R.RESURRECTION_WOMEN} woman on a "
                     f"free edge space, {R.RESURRECTION_FOOD} food, {R.RESURRECTION_CARDS} fate cards."]
        elif method == "sow":
            t = g.tribe(args["tribe"])
            paras = [f"{label} sows {_count(args['crops'], 'crop')}: {t.food} food left."]
        else:
            return
        self._show(self._title(), paras, method)

    def _survival_paragraphs(self, tribe: int, r: dict) -> list[str]:
        parts = [f"{name} {r[key]}" for key, name in (("fishing", "fish"), ("gathering", "forest"),
                                                         ("kills", "kills")) if r[key]]
        harvest = R.HARVEST_INTACT * r["crops_intact"] + R.HARVEST_DAMAGED * r["crops_damaged"]
        if harvest:
            parts.append(f"harvest {harvest}")
        out = [f"Tribe {tribe}: +{r['income']} food" + (f" ({', '.join(parts)})" if parts else "")
               + f", eats {r['eaten']}: {r['food']} left."]
        if r["remove"]:
            out.append(f"Not enough food: remove {r['remove']} warriors or women.")
        return out

    def _births_paragraphs(self, tribe: int, b: dict) -> list[str]:
        if not b["dice"]:
            return [f"Tribe {tribe}: no births."]
        dice = " ".join(str(d[0]) if len(d) == 1 else f"6({d[1]},{d[2]})" for d in b["dice"])
        out = [f"Tribe {tribe}: {_count(b['warriors_born'], 'warrior')} and "
               f"{_count(b['women_born'], 'woman', 'women')} born.", f"Dice {dice}."]
        lost = b["warriors_lost"] + b["women_lost"]
        if lost:
            out.append(f"{lost} lost: no token left in the box.")
        return out

    def _fight_paragraphs(self, sides: list[dict], r: dict) -> list[str]:
        names = [f"T{s['tribe']}" if "tribe" in s else s["animal"] for s in sides]
        out = []
        if r.get("animal"):
            plural = ANIMAL_PLURAL[r["animal"]]
            if r["winner_tribe"] is not None:
                out.append(f"Tribe {r['winner_tribe']} wins: {_count(r['animals_killed'], r['animal'], plural)} killed, "
                           f"{r['food']} food in survival.")
            else:
                out.append(f"The {plural} win ({r['animals_killed']} killed).")
        else:
            out.append(f"Tribe {r['winner_tribe']} wins.")
        for loss in r["losses"]:
            lost = [_count(loss["warriors"], "warrior")] if loss["warriors"] else []
            lost += [_count(loss["women"], "woman", "women")] if loss["women"] else []
            if lost:
                out.append(f"Tribe {loss['tribe']} removes {' and '.join(lost)}.")
        if not r.get("animal"):
            out.append("Beaten tribe here: women and camp can be captured (# list).")
        for rnd in r["rounds"]:
            totals = " v ".join(str(t) for t in rnd["totals"] if t is not None)
            if rnd["losers"]:
                lost = ", ".join(f"{names[i]} -{'1' if k == 'animal' else k}" for i, k in zip(rnd["losers"], rnd["lost"]))
                out.append(f"{totals}: {lost}")
            else:
                out.append(f"{totals}: tie")
        return out

    # ----- overlays: the D menu and its questions ----------------------------------------
    def _overlay_menu(self, key: str) -> None:
        choice = self._menu_choice(key, MENU_ITEMS)
        if choice is None:
            return
        g = self.game
        if choice == "Actions":
            if g is None:
                self._show("Actions", ["No game yet: answer the new game questions."], "no-game")
            elif self.form is not None or self.new_form is not None:
                self._show("Actions", ["Finish or leave (*) the question first."], "busy")
            else:
                self.view, self.list_sel = "list", 0
        elif choice == "Tribe books":
            self._show("Tribe books", self._books() if g else ["No game yet."], "books")
        elif choice == "Undo last entry":
            self._ask_undo()
        elif choice == "New game":
            if g is not None and not g.over:
                self.overlay = "new?"
            elif g is not None:
                self._ask_new()
        elif choice == "Brightness":
            self._open_brightness()
        elif choice == "Play Clans":
            if g is not None and not g.over:
                self.overlay = "switch?"
            else:
                self.switch_game = "clans"
        elif choice == "Shut down":
            self.overlay = "shutdown?"


    def _overlay_undo(self, key: str) -> None:
        if key == K.OK:
            self.overlay = None
            entry = self._do({"a": "undo"})
            self.view, self.page, self.list_sel = "phase", 0, 0
            self._show("Undone", [f"Taken back: {UNDO_WORDS.get(entry['action'], entry['action'])}"
                                  + self._entry_who(entry) + ".", "Put the pieces back as they were."], "undone")
        elif key == K.BACK:
            self.overlay = None

    @staticmethod
    def _entry_who(entry: dict) -> str:
        args = entry.get("args", {})
        for k in ("tribe", "winner", "captor"):
            if k in args:
                return f" (tribe {args[k]})"
        if entry["action"] == "fight":
            return " (" + " v ".join(f"T{s['tribe']}" if "tribe" in s else str(s.get("animal"))
                                     for s in args.get("sides", [])) + ")"
        return ""

    def _overlay_new(self, key: str) -> None:
        if key == K.OK:
            self.overlay = None
            self._ask_new()
        elif key == K.BACK:
            self.overlay = None



    # ----- the screen --------------------------------------------------------------------
    def _title(self) -> str:
        """Year, season, turn within the season and the phase: "Y1 Sum 2 6.Survival"."""
        g = self.game
        if g is None:
            return "New game"
        return f"Y{g.year} {g.season[:3].capitalize()} {g.turn} {PHASE_SHORT[g.phase]}"

    def _books(self) -> list[str]:
        g = self._need_game()
        out = []
        for t in g.tribes:
            if t.eliminated:
                out.append(f"T{t.number}: out" + ("" if t.resurrection_used else " (may come back in year 1)"))
                continue
            camps = f"{t.villages}vil {t.caves}cave"
            out.append(f"T{t.number}: {t.warriors}war {t.women}wom {camps} {t.food}food {t.fate_cards}cards"
                       + (" fire" if t.fire else "") + (" ANNOUNCED" if t.announced_turn else ""))
        return out

    def _phase_paragraphs(self) -> list[str]:
        g = self._need_game()
        p = g.phase
        if p == Phase.SETUP:
            food = R.FIRST_GAME_FOOD if g.first_game else R.START_FOOD
            return [f"Tribe {g.first_player} places first: each 1 camp, 2 women, 5 warriors.",
                    f"{food} food, {R.hand_size(g.n_tribes)} cards each.", "#: caves, crops, start",
                    f"{g.n_tribes} tribes, {'advanced' if g.advanced else 'standard'} rules."]
        if p == Phase.GAME_OVER:
            if g.extinct:
                return ["Only animals are left: everybody loses.", "#: new game"]
            who = ", ".join(f"tribe {n}" for n in g.winners)
            return [f"{who[:1].upper() + who[1:]} {'wins' if len(g.winners) == 1 else 'share the victory'}!",
                    "#: new game"]
        out: list[str] = []
        if p == Phase.EVENTS:
            out += ["Remove fire and flood markers.", f"Draw a {g.season} event card; resolve it.", "#: list"]
        elif p == Phase.NEW_ANIMALS:
            out += [f"Draw {g.animals_to_draw} animal tokens; place them on their edge spaces."]
        elif p == Phase.ANIMAL_MOVEMENT:
            out += [f"Direction die: {g.direction}", "Wolf, tiger 3; bear, bison 2; rhino, mammoth 1."]
        elif p == Phase.TRIBES_MOVE:
            dice = "; ".join(" ".join(f"T{t}:{d}" for t, d in r.items()) for r in g.order_rolls)
            out += ["Order: " + " ".join(map(str, g.play_order)) + f" ({g.order_reason}"
                    + (f" {dice}" if dice else "") + ")", "#: camps made"]
        elif p == Phase.COMBAT:
            out += [f"Tribe {g.play_order[0] if g.play_order else '-'} fights first, then clockwise.", "#: list"]
            if g.fights:
                out.append(f"{_count(len(g.fights), 'fight')} so far.")
        elif p == Phase.SURVIVAL:
            what = ["fishing"] + (["forests"] if g.season == R.SUMMER else []) \
                + (["crops"] if R.is_last_summer_turn(g.season, g.turn) else [])
            out += [f"Each tribe: {', '.join(what)}. Eating: 1 each"
                    + (" (1.5 in winter without fire)." if g.advanced and g.winter else ".")]
        elif p == Phase.BIRTHS:
            out += ["Births per camp: 1 woman 1, 2+ women 2. I roll."]
        elif p == Phase.SOWING:
            out += ["Crops on plain villages, 1 food each. #: list"]
        elif p == Phase.FATE_CARDS:
            if g.fate_drawn:
                out += ["Draw 1 fate card: tribe " + ", ".join(map(str, g.fate_drawn)) + "."]
            else:
                out += ["Every hand is full: nobody draws."]
        elif p == Phase.END_OF_TURN:
            out += ["Move the season marker."]
            out += [f"Tribe {n} announces {g.tribe(n).camps} camps!" for n in g.announced] \
                or [f"No tribe holds {R.VICTORY_CAMPS} camps."]
        back = g.can_resurrect()
        if back:
            out.append(f"Tribe {', '.join(map(str, back))} may come back (#).")
        return out

    def _phase_pages(self) -> list[tuple[str, ...]]:
        return S.paginate(self._phase_paragraphs())

    def screen(self) -> S.Screen:
        """What to show now (pure: calling it changes nothing)."""
        common = self._common_screen()
        if common is not None:
            return common
        form = self._ui_form()
        if form is not None and self._form_on_screen():
            return self._form_screen(form)
        if self.game is not None and (self.view == "list" or (self.view == "form" and form is None)):
            items = self._actions()
            return S.Screen(S.MENU, "actions", self._title(), choices=tuple(label for _, label in items),
                            selected=min(self.list_sel, len(items) - 1), hint="#=do *=back D=menu")
        pages = self._phase_pages()
        page = min(self.page, len(pages) - 1)
        return S.Screen(S.TEXT, "phase", self._title(), pages[page], page, len(pages))

    def _form_screen(self, form: dict) -> S.Screen:
        f = self._next_field(form)
        assert f is not None
        name = f"{form['kind']}:{f.name}"
        fresh = self._field_id() != self._field_key
        if f.is_choice:
            sel = 0 if fresh else min(self.sel, len(f.choices) - 1)
            return S.Screen(S.MENU, name, f.prompt, choices=tuple(label for _, label in f.choices),
                            selected=sel, hint=self._title() if self.game is not None else "#=OK")
        buf = "" if fresh else self.buf
        keys = "#=OK" + (f"({f.default})" if f.default is not None else "") + " *=back A/B"
        return S.Screen(S.TEXT, name, self._title(), tuple(S.wrap([f.prompt])) + (keys,), entry=f"> {buf}_")

    def _overlay_screen(self) -> S.Screen:
        if self.overlay == "menu":
            return S.Screen(S.MENU, "menu", "Menu", choices=tuple(f"{i + 1} {m}" for i, m in enumerate(MENU_ITEMS)),
                            selected=self.menu_sel)
        if self.overlay == "undo?":
            assert self.game is not None
            entry = self.game.log[-1]
            what = f"Take back {UNDO_WORDS.get(entry['action'], entry['action'])}{self._entry_who(entry)}?"
            return S.Screen(S.TEXT, "undo?", "Undo?", tuple(S.wrap([what, "# = yes  * = no"])[:S.BODY_ROWS]))
        shared = self._shared_overlay_screen()
        if shared is not None:
            return shared
        raise AssertionError(self.overlay)
