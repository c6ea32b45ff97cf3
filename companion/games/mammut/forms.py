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

from typing import Any, Iterator

from companion.i18n import _

from . import outcomes as O
from . import prompts as P
from . import rules as R
from . import texts as T
from .books import Tribe
from .events import MAX_NOTES
from .fight_forms import FIGHT_FORMS
from .form_kit import Field, Form, OpenForm, camp_kind_field, count_field, tribe_field, yes_no
from .game import MammutGame
from .phases import Phase


class NewGame(Form):
    """The new-game questions: tribes, first game, rules, then each tribe's color in seat
    order. The first player is drawn at random by the companion (`keys_play.submit`)."""

    kind = "new"

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        yield Field("tribes", P.tribes_question(), R.MIN_TRIBES, R.MAX_TRIBES)
        yield yes_no("first_game", _(P.FIRST_GAME), P.first_game_no(), P.first_game_yes())
        yield Field("advanced", _(P.RULES), choices=((False, _(P.STANDARD)), (True, _(P.ADVANCED))))
        taken: list[str] = []
        for k in range(1, ans["tribes"] + 1):
            free = tuple((c, _(T.COLOR[c])) for c in R.TRIBE_COLORS if c not in taken)
            yield Field(f"color{k}", P.color_of(k), choices=free)
            taken.append(ans[f"color{k}"])

    def args(self, g: MammutGame, ctx: dict, ans: dict) -> dict:
        return {"tribes": ans["tribes"], "first_game": ans["first_game"], "advanced": ans["advanced"],
                "colors": [ans[f"color{k}"] for k in range(1, ans["tribes"] + 1)]}


class Survival(Form):
    kind, method, undo = "survival", "report_survival", O.UNDO_SURVIVAL

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        t = g.tribe(ctx["tribe"])

        def over(v: int) -> str:
            return P.cannot_occupy(t, v)

        yield count_field("fishing", P.fishing(t), t.people, over)
        if g.season == R.SUMMER:
            yield count_field("gathering", P.gathering(t), t.people, over)
        if R.is_last_summer_turn(g.season, g.turn):
            most = min(t.people, R.CROP_MARKERS)
            yield count_field("crops_intact", P.crops_intact(t), most, over)
            yield count_field("crops_damaged", P.crops_damaged(t), most - ans["crops_intact"],
                              lambda v: P.crops_at_most(t))

    def args(self, g: MammutGame, ctx: dict, ans: dict) -> dict:
        return {"tribe": ctx["tribe"], "fishing": ans["fishing"], "gathering": ans.get("gathering", 0),
                "crops_intact": ans.get("crops_intact", 0), "crops_damaged": ans.get("crops_damaged", 0)}

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        return O.survival_report(g.tribe(args["tribe"]), result)


class Births(Form):
    kind, method, undo = "births", "report_births", O.UNDO_BIRTHS

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

        least = max(0, 2 * t.camps - t.women)  # the fewest camps with one woman the women allow
        yield Field("camps_one_woman", P.camps_one_woman(t), least, t.camps, min(least, t.camps), check=check_one)
        rest = t.camps - ans["camps_one_woman"]
        if rest:  # the other camps hold two or more women: the only answer, offered on #

            def check_two(v: int) -> str | None:
                return None if v == rest else R.every_camp_a_woman(T.tribe_label(t), t.camps, t.camps - rest + v)

            yield Field("camps_two_plus", P.camps_two_plus(t), rest, rest, rest, check=check_two)

    def args(self, g: MammutGame, ctx: dict, ans: dict) -> dict:
        return {"tribe": ctx["tribe"], "camps_one_woman": ans["camps_one_woman"],
                "camps_two_plus": ans.get("camps_two_plus", 0)}

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        return O.births_report(g.tribe(args["tribe"]), result)


class Hunger(Form):
    kind, method, undo = "hunger", "remove_tokens", O.UNDO_REMOVE

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        t = g.tribe(ctx["tribe"])
        n = t.to_remove
        lo, hi = max(0, n - t.women), min(n, t.warriors)
        yield Field("warriors", P.hunger(t, n), lo, hi, default=hi if lo == hi else None,
                    check=lambda v: None if lo <= v <= hi else P.hunger_range(t, lo, hi))

    def args(self, g: MammutGame, ctx: dict, ans: dict) -> dict:
        t = g.tribe(ctx["tribe"])
        return {"tribe": t.number, "warriors": ans["warriors"], "women": t.to_remove - ans["warriors"],
                "reason": "hunger"}

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        return O.tokens_removed_report(g.tribe(args["tribe"]), args["warriors"], args["women"])


class MakeCamp(Form):
    kind, method, listed, undo = "make_camp", "make_camp", True, O.UNDO_MAKE_CAMP
    nobody = P.NOBODY_MAKES_CAMP

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        yield tribe_field(g, "tribe", _(P.CAMP_MADE_BY), P.cannot_make_camp)
        yield Field("kind", _(P.THE_CAMP_IS_A),
                    choices=((R.VILLAGE, _(P.VILLAGE)), (R.CAVE, _(P.CAVE_MOUNTAIN))))

    def args(self, g: MammutGame, ctx: dict, ans: dict) -> dict:
        return {"tribe": ans["tribe"], "kind": ans["kind"]}

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        return O.camp_made_report(g.tribe(args["tribe"]), args["kind"], g.tribe(args["tribe"]).camps)


class StartCamp(MakeCamp):
    kind, method, listed, undo = "start_camp", "set_start_camp", True, O.UNDO_START_CAMP
    nobody = P.NOBODY_CAN_NOW

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        yield tribe_field(g, "tribe", _(P.START_CAMP_OF))
        t = g.tribe(ans["tribe"])
        sown = P.no_cave_where_sown(t) if t.sown else None  # its crop is on its village, on a plain
        yield Field("kind", _(P.THE_CAMP_IS_A),
                    choices=((R.VILLAGE, _(P.VILLAGE)),) + (((R.CAVE, _(P.CAVE_MOUNTAIN)),) if sown is None else ()),
                    check=lambda v: sown if v == R.CAVE else None)


class AbandonCamp(Form):
    kind, method, listed, undo = "abandon_camp", "abandon_camp", True, O.UNDO_ABANDON_CAMP
    nobody = P.NO_TRIBE_HOLDS_A_CAMP

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        yield tribe_field(g, "tribe", _(P.CAMP_ABANDONED_BY), lambda t: None if t.camps else P.no_camp(t))
        yield camp_kind_field("kind", _(P.ABANDONED_CAMP_IS_A), g.tribe(ans["tribe"]))

    def args(self, g: MammutGame, ctx: dict, ans: dict) -> dict:
        return {"tribe": ans["tribe"], "kind": ans["kind"]}

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        return O.camp_abandoned_report(g.tribe(args["tribe"]), args["kind"], g.tribe(args["tribe"]).camps)


class Remove(Form):
    kind, method, listed, undo = "remove", "remove_tokens", True, O.UNDO_REMOVE
    nobody = P.NO_TRIBE_LEFT

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        yield tribe_field(g, "tribe", _(P.REMOVE_TOKENS_OF), lambda t: None if t.people else P.no_people(t))
        t = g.tribe(ans["tribe"])
        # at least one token in all: no warrior removed leaves at least one woman to remove
        yield count_field("warriors", P.warriors_removed(t), t.warriors, lambda v: P.cannot_remove_warriors(t, v),
                          lo=0 if t.women else 1, too_few=lambda v: P.remove_at_least_one())
        yield count_field("women", P.women_removed(t), t.women, lambda v: P.cannot_remove_women(t, v),
                          lo=0 if ans["warriors"] else 1, too_few=lambda v: P.remove_at_least_one())

    def args(self, g: MammutGame, ctx: dict, ans: dict) -> dict:
        return {"tribe": ans["tribe"], "warriors": ans["warriors"], "women": ans["women"], "reason": "table"}

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        return O.tokens_removed_report(g.tribe(args["tribe"]), args["warriors"], args["women"])


class Food(Form):
    kind, method, listed, undo = "food", "adjust_food", True, O.UNDO_FOOD

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        yield tribe_field(g, "tribe", _(P.FOOD_FOR))
        t = g.tribe(ans["tribe"])
        broke = P.cannot_pay(t, 1) if t.food <= 0 else None  # nothing to pay with
        yield Field("gain", P.food_change(t),
                    choices=((True, _(P.GAINS_FOOD)),) + (((False, _(P.PAYS_FOOD)),) if broke is None else ()),
                    check=lambda v: broke if v is False else None)
        gain = ans["gain"]
        yield count_field("amount", P.how_much_food(t, gain), 99 if gain else t.food,
                          (lambda v: _(P.FOOD_AT_MOST)) if gain else (lambda v: P.cannot_pay(t, v)), lo=1,
                          default=None)

    def args(self, g: MammutGame, ctx: dict, ans: dict) -> dict:
        return {"tribe": ans["tribe"], "delta": ans["amount"] if ans["gain"] else -ans["amount"], "reason": "table"}

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        return O.food_report(g.tribe(args["tribe"]), args["delta"], g.tribe(args["tribe"]).food)


class Fate(Form):
    kind, method, listed, undo = "fate", "play_fate_card", True, O.UNDO_FATE
    nobody = P.NO_FATE_CARD

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        yield tribe_field(g, "tribe", _(P.FATE_PLAYED_BY),
                          lambda t: None if t.fate_cards else P.no_fate_card(t))
        t = g.tribe(ans["tribe"])
        yield count_field("count", P.cards_played(t), t.fate_cards, lambda v: P.cannot_play(t, v), lo=1,
                          default=1)

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        return O.fate_report(g.tribe(args["tribe"]), g.tribe(args["tribe"]).fate_cards)


class Fire(Form):
    kind, method, listed, undo = "fire", "set_fire", True, O.UNDO_FIRE
    nobody = P.NO_CAMP_FOR_FIRE

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        # fire is kept in a camp (rulebook line 279): a tribe without one has none to catch or lose
        yield tribe_field(g, "tribe", _(P.FIRE_WHICH), lambda t: None if t.camps else P.no_camp_for_fire(t))
        yield yes_no("has_fire", P.fire_now(g.tribe(ans["tribe"])), _(P.LOST_FIRE), _(P.HAS_FIRE))

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        return O.fire_report(g.tribe(args["tribe"]), args["has_fire"])


class Resurrect(Form):
    kind, method, listed, undo = "resurrect", "resurrect", True, O.UNDO_RESURRECT

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        back = g.can_resurrect()
        yield tribe_field(g, "resurrect", _(P.COMES_BACK),
                          lambda t: None if t.number in back else P.cannot_come_back(t),
                          among=back)

    def args(self, g: MammutGame, ctx: dict, ans: dict) -> dict:
        return {"tribe": ans["resurrect"]}

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        return O.resurrect_report(g.tribe(args["tribe"]))


class Sow(Form):
    kind, method, listed, undo = "sow", "sow", True, O.UNDO_SOW

    def unavailable(self, g: MammutGame) -> str | None:
        return P.nobody_sows(g.crop_markers_left()) if super().unavailable(g) else None

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        # A tribe that cannot sow (no plain village without a crop, no food, no crop marker
        # left in the box) is not offered; when none can, the form is refused with the reason.
        left = g.crop_markers_left()
        yield tribe_field(g, "tribe", _(P.CROPS_SOWN_BY), lambda t: P.cannot_sow(t, t.villages - t.sown, left))
        t = g.tribe(ans["tribe"])
        room = t.villages - t.sown

        def too_many(v: int) -> str:
            if v > room:
                return P.no_room_to_sow(t, room)
            return P.sowing_costs(t, v) if v > t.food else R.no_crop_markers(left, v)

        yield count_field("crops", P.crops_sown(t), max(1, min(room, t.food, left)), too_many, lo=1, default=1)

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        return O.sow_report(g.tribe(args["tribe"]), args["crops"], g.tribe(args["tribe"]).food)


class AddTokens(Form):
    kind, method, listed, undo = "add_tokens", "add_tokens", True, O.UNDO_ADD_TOKENS
    nobody = P.ALL_TOKENS

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        yield tribe_field(g, "tribe", _(P.ADD_TOKENS_TO), P.no_room)
        t = g.tribe(ans["tribe"])
        # at least one token in all: with no room for a woman, at least one warrior
        yield count_field("warriors", P.warriors_added(t), R.MAX_WARRIORS - t.warriors, lambda v: P.warriors_room(t),
                          lo=0 if t.women < R.MAX_WOMEN else 1, too_few=lambda v: P.women_full(t))
        yield count_field("women", P.women_added(t), R.MAX_WOMEN - t.women, lambda v: P.women_room(t),
                          lo=0 if ans["warriors"] else 1, too_few=lambda v: P.add_at_least_one())

    def args(self, g: MammutGame, ctx: dict, ans: dict) -> dict:
        return {"tribe": ans["tribe"], "warriors": ans["warriors"], "women": ans["women"], "reason": "table"}

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        return O.tokens_added_report(g.tribe(args["tribe"]), args["warriors"], args["women"])


class Region(Form):
    kind, method, listed, undo = "region", "roll_region", True, O.UNDO_REGION

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        yield Field("terrain", _(P.REGION_OF), choices=tuple((k, _(T.TERRAIN[k])) for k in R.TERRAINS))

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        return O.region_report(args["terrain"], result)


class Note(Form):
    kind, method, listed, undo = "note", "add_note", True, O.UNDO_NOTE

    def unavailable(self, g: MammutGame) -> str | None:
        return P.notes_full(MAX_NOTES) if len(g.notes) >= MAX_NOTES else super().unavailable(g)

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        yield Field("note", P.note_until(g.season),
                    choices=tuple((k, T.capital(T.note_word(k))) for k in R.SEASON_NOTES if k not in g.notes),
                    check=lambda v: P.already_noted(v) if v in g.notes else None)

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        return [T.season_notes(g)]


FORMS: dict[str, Form] = {f.kind: f for f in (
    NewGame(), Survival(), Births(), Hunger(), *FIGHT_FORMS, MakeCamp(), StartCamp(), AbandonCamp(), Remove(),
    AddTokens(), Food(), Fate(), Fire(), Resurrect(), Sow(), Region(), Note())}  # fmt: skip

# What each entry of the game log is called when it is taken back ("Take back a fight?").
UNDO_WORDS: dict[str, str] = {"advance": O.UNDO_ADVANCE, "set_first_player": O.UNDO_FIRST_PLAYER,
                              "roll_die": O.UNDO_DIE} | {f.method: f.undo for f in FORMS.values() if f.method}


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
    """The question the game itself is waiting for, if any: a lost token in a fight, then
    hunger, then each tribe's survival or births in play order."""
    if g is None or g.over:
        return None
    if g.battle is not None and g.battle["choose"]:
        side = g.battle["sides"][g.battle["choose"][0]]
        return OpenForm("loss", {"tribe": side["tribe"]}, derived=True)
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
