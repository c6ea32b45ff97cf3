"""The table's question sequences ("forms"), one object per kind, registered in `FORMS`.

A form asks one question per screen (a `Field`: a number, or a choice from a short
list); when its last answer is given it becomes one `MammutGame` action. Each form holds
all of itself: its questions (`fields`, where later ones may depend on earlier answers),
how its answers become the game call (`method` and `args`), what the table is told
afterwards (`report`) and what its log entry is called when it is taken back (`undo`).

Some forms are opened by the table from the phase's list (`listed`: journaled as "ask");
the others are demanded by the game itself (`derived_form`: every tribe's survival and
births, the tokens a hungry tribe must remove). The new-game questions are a form too,
whose answers become {"a": "new", ...} instead of a game call.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, ClassVar, Iterator

from . import prompts as P
from . import rules as R
from . import texts as T
from .books import Tribe
from .game import MammutGame
from .phases import Phase
from .rules import MammutError

Check = Callable[[Any], "str | None"]


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
    check: Check | None = field(default=None, compare=False)

    @property
    def is_choice(self) -> bool:
        return bool(self.choices)

    def problem(self, value: Any) -> str | None:
        """Why `value` is no answer to this question, or None."""
        if self.is_choice:
            if not any(value == v and type(value) is type(v) for v, _ in self.choices):
                return P.choose_one_of([label for _, label in self.choices])
        elif isinstance(value, bool) or not isinstance(value, int):
            return P.TYPE_A_NUMBER
        elif self.check is None and not self.lo <= value <= self.hi:
            return P.type_between(self.lo, self.hi, value)
        return self.check(value) if self.check is not None else None


@dataclass(frozen=True)
class OpenForm:
    """A form being answered: its kind, its context ({"tribe": n} for the game's own), the
    answers so far (in order), and whether the game demanded it (`derived`)."""

    kind: str
    ctx: dict = field(default_factory=dict)
    answers: dict = field(default_factory=dict)
    derived: bool = False

    def answered(self, name: str, value: Any) -> OpenForm:
        return replace(self, answers={**self.answers, name: value})

    def take_back(self) -> OpenForm:
        """Without its last answer."""
        answers = dict(self.answers)
        answers.popitem()
        return replace(self, answers=answers)


# ----- kinds of question -------------------------------------------------------------------------
def tribe_field(g: MammutGame, name: str, prompt: str, ok: Callable[[Tribe], str | None] | None = None,
                steps: list[int] | None = None, default: int | None = None) -> Field:
    """A tribe number: must exist and be in the game (or come back), then pass `ok`."""

    def check(v: int) -> str | None:
        try:
            t = g.tribe(v)
        except MammutError as e:
            return str(e)
        if t.eliminated and name != "resurrect":
            return P.eliminated(t)
        return ok(t) if ok is not None else None

    if steps is None:
        steps = [t.number for t in g.living()]
    return Field(name, prompt, 1, g.n_tribes, default, steps=tuple(n for n in steps if check(n) is None), check=check)


def count_field(name: str, prompt: str, hi: int, too_many: Callable[[int], str], lo: int = 0,
                default: int | None = 0) -> Field:
    """A count `lo`..`hi`; above `hi` the refusal is `too_many(value)`."""

    def check(v: int) -> str | None:
        if v < lo:
            return P.at_least(lo, v)
        return too_many(v) if v > hi else None

    return Field(name, prompt, lo, hi, default, check=check)


def camp_kind_field(name: str, prompt: str, t: Tribe, allow_none: bool = False) -> Field:
    """Which of `t`'s camps: its village or cave (or none of them, with `allow_none`)."""
    choices: list[tuple[Any, str]] = [(None, P.NOT_IN_CAMP)] if allow_none else []
    if t.villages:
        choices.append((R.VILLAGE, P.OWN_VILLAGE if allow_none else P.VILLAGE))
    if t.caves:
        choices.append((R.CAVE, P.OWN_CAVE if allow_none else P.CAVE))
    return Field(name, prompt, choices=tuple(choices))


def yes_no(name: str, prompt: str, no: str = P.NO, yes: str = P.YES) -> Field:
    return Field(name, prompt, choices=((False, no), (True, yes)))


# ----- the forms ---------------------------------------------------------------------------------
class Form:
    """One kind of question sequence (see the module docstring)."""

    kind: ClassVar[str]
    method: ClassVar[str | None] = None  # the MammutGame action the answers become
    listed: ClassVar[bool] = False  # opened by the table from the phase's list
    undo: ClassVar[str] = ""  # its log entry, in words ("a fight")

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        """The questions in order; iteration stops at the first unanswered one, so later
        questions may read earlier answers."""
        raise NotImplementedError

    def args(self, g: MammutGame, ctx: dict, ans: dict) -> dict:
        """The game call's arguments from the complete answers."""
        return dict(ans)

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        """What to tell the table after the call (the game is already changed)."""
        return []


class NewGame(Form):
    kind = "new"

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        yield Field("tribes", P.TRIBES, R.MIN_TRIBES, R.MAX_TRIBES)
        yield yes_no("first_game", P.FIRST_GAME, P.FIRST_GAME_NO, P.FIRST_GAME_YES)
        yield Field("advanced", P.RULES, choices=((False, P.STANDARD), (True, P.ADVANCED)))
        n = ans["tribes"]
        yield Field("first", P.placed_first(n), 1, n, steps=tuple(range(1, n + 1)))

    def args(self, g: MammutGame, ctx: dict, ans: dict) -> dict:
        return {"tribes": ans["tribes"], "first_game": ans["first_game"], "advanced": ans["advanced"],
                "first": ans["first"]}


class Survival(Form):
    kind, method, undo = "survival", "report_survival", T.UNDO_SURVIVAL

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        t = g.tribe(ctx["tribe"])

        def over(v: int) -> str:
            return P.cannot_occupy(t, v)

        yield count_field("fishing", P.fishing(t.number), t.people, over)
        if g.season == R.SUMMER:
            yield count_field("gathering", P.gathering(t.number), t.people, over)
        if R.is_last_summer_turn(g.season, g.turn):
            most = min(t.people, R.CROP_MARKERS)
            yield count_field("crops_intact", P.crops_intact(t.number), most, over)
            yield count_field("crops_damaged", P.crops_damaged(t.number), most - ans["crops_intact"],
                              lambda v: P.crops_at_most(t))

    def args(self, g: MammutGame, ctx: dict, ans: dict) -> dict:
        return {"tribe": ctx["tribe"], "fishing": ans["fishing"], "gathering": ans.get("gathering", 0),
                "crops_intact": ans.get("crops_intact", 0), "crops_damaged": ans.get("crops_damaged", 0)}

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        return T.survival_report(args["tribe"], result)


class Births(Form):
    kind, method, undo = "births", "report_births", T.UNDO_BIRTHS

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        t = g.tribe(ctx["tribe"])
        # Every camp keeps at least one woman (rulebook: "Devi sempre tenere almeno una donna
        # nell'Accampamento"), so the camps with one woman plus those with two or more are all
        # the tribe's camps, and the women must fill them: one + 2 * (camps - one) <= women.

        def check_one(v: int) -> str | None:
            if v < 0:
                return P.at_least(0, v)
            if v > t.camps:
                return P.only_camps(t, v)
            return P.too_few_women(t, v) if v + 2 * (t.camps - v) > t.women else None

        yield Field("camps_one_woman", P.camps_one_woman(t), 0, t.camps, 0, check=check_one)
        rest = t.camps - ans["camps_one_woman"]
        if rest:  # the other camps hold two or more women: the only answer, offered on #

            def check_two(v: int) -> str | None:
                return None if v == rest else R.every_camp_a_woman(T.tribe_label(t), t.camps, t.camps - rest + v)

            yield Field("camps_two_plus", P.camps_two_plus(t.number), rest, rest, rest, check=check_two)

    def args(self, g: MammutGame, ctx: dict, ans: dict) -> dict:
        return {"tribe": ctx["tribe"], "camps_one_woman": ans["camps_one_woman"],
                "camps_two_plus": ans.get("camps_two_plus", 0)}

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        return T.births_report(args["tribe"], result)


class Hunger(Form):
    kind, method, undo = "hunger", "remove_tokens", T.UNDO_REMOVE

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        t = g.tribe(ctx["tribe"])
        n = t.to_remove
        lo, hi = max(0, n - t.women), min(n, t.warriors)
        yield Field("warriors", P.hunger(t.number, n), lo, hi, default=hi if lo == hi else None,
                    check=lambda v: None if lo <= v <= hi else P.hunger_range(t, lo, hi))

    def args(self, g: MammutGame, ctx: dict, ans: dict) -> dict:
        t = g.tribe(ctx["tribe"])
        return {"tribe": t.number, "warriors": ans["warriors"], "women": t.to_remove - ans["warriors"],
                "reason": "hunger"}

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        return T.tokens_removed_report(args["tribe"], args["warriors"], args["women"])


def fight_side(t: Tribe, n: str) -> Iterator[Field]:
    """The questions about one tribe's side of a fight (`n`: "1" or "2")."""
    yield count_field(f"warriors{n}", P.fight_warriors(t.number), t.warriors, lambda v: P.only_warriors(t, v))
    yield count_field(f"women{n}", P.fight_women(t.number), t.women, lambda v: P.only_women(t, v))
    if t.camps:
        yield camp_kind_field(f"camp{n}", P.in_own_camp(t.number), t, allow_none=True)


class Fight(Form):
    kind, method, listed, undo = "fight", "fight", True, T.UNDO_FIGHT

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        yield tribe_field(g, "tribe1", P.FIGHT_FIRST)
        t1 = g.tribe(ans["tribe1"])
        yield from fight_side(t1, "1")
        opponents = ((None, P.ANOTHER_TRIBE),) + tuple((a, P.animals_choice(a)) for a in R.ANIMALS)
        yield Field("opponent", P.fights_what(t1.number), choices=opponents)
        animal = ans["opponent"]
        if animal is None:
            yield tribe_field(g, "tribe2", P.fights_which_tribe(t1.number),
                              lambda t: P.CANNOT_FIGHT_ITSELF if t is t1 else None)
            t2 = g.tribe(ans["tribe2"])
            yield from fight_side(t2, "2")
            yield count_field("bonus1", P.fate_bonus(t1.number), 9, lambda v: P.BONUS_AT_MOST)
            yield count_field("bonus2", P.fate_bonus(t2.number), 9, lambda v: P.BONUS_AT_MOST)
        else:
            yield count_field("count", P.how_many_animals(animal), 20, lambda v: P.ANIMALS_AT_MOST, lo=1, default=1)
            if ans["warriors1"] and ans["women1"]:
                yield Field("lose", P.loses_first(t1.number),
                            choices=((R.WARRIOR, P.LOSE_WARRIORS), (R.WOMAN, P.LOSE_WOMEN)))
            yield count_field("bonus1", P.fate_bonus(t1.number), 9, lambda v: P.BONUS_AT_MOST)

    def args(self, g: MammutGame, ctx: dict, ans: dict) -> dict:
        side1: dict[str, Any] = {"tribe": ans["tribe1"], "warriors": ans["warriors1"], "women": ans["women1"],
                                 "camp": ans.get("camp1"), "bonus": ans["bonus1"]}  # fmt: skip
        if ans["opponent"] is None:
            side2: dict[str, Any] = {"tribe": ans["tribe2"], "warriors": ans["warriors2"], "women": ans["women2"],
                                     "camp": ans.get("camp2"), "bonus": ans["bonus2"]}  # fmt: skip
        else:
            side1["lose"] = ans.get("lose", R.WARRIOR if ans["warriors1"] else R.WOMAN)
            side2 = {"animal": ans["opponent"], "count": ans["count"]}
        return {"sides": [side1, side2]}

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        return T.fight_report(args["sides"], result)


class CaptureCamp(Form):
    kind, method, listed, undo = "capture_camp", "capture_camp", True, T.UNDO_CAPTURE_CAMP

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        yield tribe_field(g, "winner", P.CAMP_TAKEN_BY, lambda t: None if t.warriors else P.no_warrior_to_take(t))
        w = g.tribe(ans["winner"])
        yield tribe_field(g, "loser", P.takes_camp_of(w.number),
                          lambda t: P.CANNOT_TAKE_OWN_CAMP if t is w else (None if t.camps else P.no_camp(t)))
        lo = g.tribe(ans["loser"])
        yield camp_kind_field("kind", P.camp_is_a(lo.number), lo)
        yield yes_no("burn", P.KEEP_OR_BURN, P.KEEP_IT, P.BURN_IT)

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        return T.camp_taken_report(args["winner"], args["loser"], args["kind"], args["burn"], result)


class CaptureWomen(Form):
    kind, method, listed, undo = "capture_women", "capture_women", True, T.UNDO_CAPTURE_WOMEN

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        yield tribe_field(g, "captor", P.WOMEN_CAPTURED_BY, lambda t: None if t.warriors else P.no_warrior(t))
        c = g.tribe(ans["captor"])
        yield tribe_field(g, "victim", P.captures_women_of(c.number),
                          lambda t: P.CANNOT_CAPTURE_OWN if t is c else (None if t.women else P.no_women(t)))
        v = g.tribe(ans["victim"])
        yield count_field("count", P.how_many_women(v.number), v.women, lambda n: P.only_women(v, n), lo=1,
                          default=None)
        # Rulebook: the women join the winner; only a camp taken may be burnt with its women
        # massacred ("bruciare l'accampamento e massacrare le donne"), so only then is it asked.
        if g.took_camp_of(c.number, v.number):
            yield yes_no("massacre", P.THE_WOMEN, P.JOIN_CAPTOR, P.MASSACRED)

    def args(self, g: MammutGame, ctx: dict, ans: dict) -> dict:
        return {"captor": ans["captor"], "victim": ans["victim"], "count": ans["count"],
                "massacre": ans.get("massacre", False)}

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        return T.women_captured_report(args["captor"], result)


class MakeCamp(Form):
    kind, method, listed, undo = "make_camp", "make_camp", True, T.UNDO_MAKE_CAMP
    who = P.CAMP_MADE_BY

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        yield tribe_field(g, "tribe", self.who)
        yield Field("kind", P.THE_CAMP_IS_A, choices=((R.VILLAGE, P.VILLAGE), (R.CAVE, P.CAVE_MOUNTAIN)))

    def args(self, g: MammutGame, ctx: dict, ans: dict) -> dict:
        return {"tribe": ans["tribe"], "kind": ans["kind"]}

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        return T.camp_made_report(args["tribe"], args["kind"], g.tribe(args["tribe"]).camps)


class StartCamp(MakeCamp):
    kind, method, listed, undo = "start_camp", "set_start_camp", True, T.UNDO_START_CAMP
    who = P.START_CAMP_OF


class AbandonCamp(Form):
    kind, method, listed, undo = "abandon_camp", "abandon_camp", True, T.UNDO_ABANDON_CAMP

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        yield tribe_field(g, "tribe", P.CAMP_ABANDONED_BY, lambda t: None if t.camps else P.no_camp(t))
        yield camp_kind_field("kind", P.ABANDONED_CAMP_IS_A, g.tribe(ans["tribe"]))

    def args(self, g: MammutGame, ctx: dict, ans: dict) -> dict:
        return {"tribe": ans["tribe"], "kind": ans["kind"]}

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        return T.camp_abandoned_report(args["tribe"], args["kind"], g.tribe(args["tribe"]).camps)


class Remove(Form):
    kind, method, listed, undo = "remove", "remove_tokens", True, T.UNDO_REMOVE

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        yield tribe_field(g, "tribe", P.REMOVE_TOKENS_OF)
        t = g.tribe(ans["tribe"])
        yield count_field("warriors", P.warriors_removed(t.number), t.warriors, lambda v: P.cannot_remove_warriors(t, v))
        yield count_field("women", P.women_removed(t.number), t.women, lambda v: P.cannot_remove_women(t, v))

    def args(self, g: MammutGame, ctx: dict, ans: dict) -> dict:
        return {"tribe": ans["tribe"], "warriors": ans["warriors"], "women": ans["women"], "reason": "table"}

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        return T.tokens_removed_report(args["tribe"], args["warriors"], args["women"])


class Food(Form):
    kind, method, listed, undo = "food", "adjust_food", True, T.UNDO_FOOD

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        yield tribe_field(g, "tribe", P.FOOD_FOR)
        t = g.tribe(ans["tribe"])
        yield Field("gain", P.food_change(t.number), choices=((True, P.GAINS_FOOD), (False, P.PAYS_FOOD)))
        gain = ans["gain"]
        yield count_field("amount", P.how_much_food(t.number, gain), 99 if gain else t.food,
                          (lambda v: P.FOOD_AT_MOST) if gain else (lambda v: P.cannot_pay(t, v)), lo=1, default=None)

    def args(self, g: MammutGame, ctx: dict, ans: dict) -> dict:
        return {"tribe": ans["tribe"], "delta": ans["amount"] if ans["gain"] else -ans["amount"], "reason": "table"}

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        return T.food_report(args["tribe"], args["delta"], g.tribe(args["tribe"]).food)


class Fate(Form):
    kind, method, listed, undo = "fate", "play_fate_card", True, T.UNDO_FATE

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        yield tribe_field(g, "tribe", P.FATE_PLAYED_BY, lambda t: None if t.fate_cards else P.no_fate_card(t))
        t = g.tribe(ans["tribe"])
        yield count_field("count", P.cards_played(t.number), t.fate_cards, lambda v: P.cannot_play(t, v), lo=1,
                          default=1)

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        return T.fate_report(args["tribe"], g.tribe(args["tribe"]).fate_cards)


class Fire(Form):
    kind, method, listed, undo = "fire", "set_fire", True, T.UNDO_FIRE

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        yield tribe_field(g, "tribe", P.FIRE_WHICH)
        yield yes_no("has_fire", P.fire_now(ans["tribe"]), P.LOST_FIRE, P.HAS_FIRE)

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        return T.fire_report(args["tribe"], args["has_fire"])


class Resurrect(Form):
    kind, method, listed, undo = "resurrect", "resurrect", True, T.UNDO_RESURRECT

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        back = g.can_resurrect()
        yield tribe_field(g, "resurrect", P.COMES_BACK, lambda t: None if t.number in back else P.cannot_come_back(t),
                          steps=back)

    def args(self, g: MammutGame, ctx: dict, ans: dict) -> dict:
        return {"tribe": ans["resurrect"]}

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        return T.resurrect_report(args["tribe"])


class Sow(Form):
    kind, method, listed, undo = "sow", "sow", True, T.UNDO_SOW

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        # A tribe that cannot sow (no plain village without a crop, no food, no crop marker
        # left in the box) is refused at once with the reason, and A/B skip it: one * leaves.
        left = g.crop_markers_left()
        yield tribe_field(g, "tribe", P.CROPS_SOWN_BY, lambda t: P.cannot_sow(t, t.villages - t.sown, left))
        t = g.tribe(ans["tribe"])
        room = t.villages - t.sown

        def too_many(v: int) -> str:
            if v > room:
                return P.no_room_to_sow(t, room)
            return P.sowing_costs(t, v) if v > t.food else R.no_crop_markers(left, v)

        yield count_field("crops", P.crops_sown(t.number), max(1, min(room, t.food, left)), too_many, lo=1, default=1)

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        return T.sow_report(args["tribe"], args["crops"], g.tribe(args["tribe"]).food)


FORMS: dict[str, Form] = {f.kind: f for f in (
    NewGame(), Survival(), Births(), Hunger(), Fight(), CaptureCamp(), CaptureWomen(), MakeCamp(), StartCamp(),
    AbandonCamp(), Remove(), Food(), Fate(), Fire(), Resurrect(), Sow())}  # fmt: skip

# What each entry of the game log is called when it is taken back ("Take back a fight?").
UNDO_WORDS: dict[str, str] = {"advance": T.UNDO_ADVANCE, "set_first_player": T.UNDO_FIRST_PLAYER,
                              "roll_die": T.UNDO_DIE} | {f.method: f.undo for f in FORMS.values() if f.method}


def next_field(g: MammutGame | None, form: OpenForm) -> Field | None:
    """The next unanswered question of `form`, or None when it is complete."""
    for f in FORMS[form.kind].fields(g, form.ctx, form.answers):  # type: ignore[arg-type]
        if f.name not in form.answers:
            return f
    return None


def in_order(g: MammutGame) -> list[Tribe]:
    """The living tribes in play order (those not in it after them)."""
    order = [n for n in g.play_order if not g.tribe(n).eliminated]
    rest = [t.number for t in g.living() if t.number not in order]
    return [g.tribe(n) for n in order + rest]


def derived_form(g: MammutGame | None) -> OpenForm | None:
    """The question the game itself is waiting for, if any: hunger first, then each tribe's
    survival or births in play order."""
    if g is None or g.over:
        return None
    for t in g.living():
        if t.to_remove:
            return OpenForm("hunger", {"tribe": t.number}, derived=True)
    if g.phase == Phase.SURVIVAL:
        for t in in_order(g):
            if t.survival is None:
                return OpenForm("survival", {"tribe": t.number}, derived=True)
    if g.phase == Phase.BIRTHS:
        for t in in_order(g):
            if t.camps and t.births is None:
                return OpenForm("births", {"tribe": t.number}, derived=True)
    return None
