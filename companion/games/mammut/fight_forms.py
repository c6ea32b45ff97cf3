"""The forms of phase 5: a fight (two tribes, three or more, or a tribe against a horde),
the token a side gives up after each lost round, a camp taken and women captured.
Registered with the others in `forms.FORMS`.
"""

from __future__ import annotations

from typing import Any, Iterator

from companion.i18n import _

from . import outcomes as O
from . import prompts as P
from . import rules as R
from .books import Tribe
from .form_kit import Field, Form, camp_kind_field, count_field, tribe_field, yes_no
from .game import MammutGame


def fight_side(g: MammutGame, t: Tribe, n: int, ans: dict) -> Iterator[Field]:
    """The questions about one tribe's side of a fight (`n`: its place, 1, 2, ...). A side
    has somebody in the fight (refused at the question that would leave it empty), and only
    one side may be in its own camp: a space holds one camp (rulebook line 141)."""

    def nobody(v: int) -> str:
        return P.nobody_in_fight(t)

    yield count_field(f"warriors{n}", P.fight_warriors(t), t.warriors, lambda v: P.only_warriors(t, v),
                      lo=0 if t.women else 1, too_few=nobody)
    yield count_field(f"women{n}", P.fight_women(t), t.women, lambda v: P.only_women(t, v),
                      lo=0 if ans[f"warriors{n}"] else 1, too_few=nobody)
    if t.camps:
        owner = next((ans[f"tribe{k}"] for k in range(1, n) if ans.get(f"camp{k}") is not None), None)
        taken = P.one_camp_per_space(g.tribe(owner)) if owner is not None else None
        yield camp_kind_field(f"camp{n}", P.in_own_camp(t), t, allow_none=True, taken=taken)


def has_people(t: Tribe) -> str | None:
    """A tribe with nobody left (not yet eliminated: that is when the table advances) cannot fight."""
    return None if t.people else P.no_people(t)


MORE = "more"  # the opponent answer "two or more other tribes"


class Fight(Form):
    """A fight on one space: two tribes (warriors fight, women watch unless a fate card lets
    them fight), three or more tribes (every tribe rolls, all but the highest lose a token,
    rulebook line 163), or a tribe against one horde (every warrior and woman fights)."""

    kind, method, listed, undo = "fight", "fight", True, O.UNDO_FIGHT
    nobody = P.NO_TRIBE_LEFT

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        yield tribe_field(g, "tribe1", _(P.FIGHT_FIRST), has_people)
        t1 = g.tribe(ans["tribe1"])
        yield from fight_side(g, t1, 1, ans)
        others = len([t for t in g.living() if t is not t1 and t.people])  # the tribes it can fight
        opponents: tuple[tuple[Any, str], ...] = ((None, _(P.ANOTHER_TRIBE)),) if others else ()
        if others >= 2:
            opponents += ((MORE, _(P.MORE_TRIBES)),)
        yield Field("opponent", P.fights_what(t1), choices=opponents + tuple((a, P.animals_choice(a)) for a in R.ANIMALS))
        opponent = ans["opponent"]
        if opponent is None or opponent == MORE:
            n = 2
            if opponent == MORE:
                most = others + 1
                yield count_field("tribes", _(P.TRIBES_IN_FIGHT), most, lambda v: P.only_tribes(most), lo=3,
                                  default=3)
                n = ans["tribes"]
            for k in range(2, n + 1):
                taken = [ans[f"tribe{j}"] for j in range(1, k)]
                yield tribe_field(g, f"tribe{k}", P.fights_which_tribe(t1) if n == 2 else P.tribe_number(k),
                                  lambda t, taken=taken: _(P.CANNOT_FIGHT_ITSELF) if t.number in taken
                                  else has_people(t))
                yield from fight_side(g, g.tribe(ans[f"tribe{k}"]), k, ans)
            warriors = any(ans[f"warriors{k}"] for k in range(1, n + 1))
            for k in range(1, n + 1):
                t = g.tribe(ans[f"tribe{k}"])
                if warriors and ans[f"women{k}"]:  # women watch warriors fight, unless a card says otherwise
                    # women alone never fight warriors (rulebook line 173): without a card they are
                    # captured instead, so a side of women alone has only the card's answer
                    alone = {False: P.women_do_not_fight(t)} if not ans[f"warriors{k}"] else None
                    yield yes_no(f"women_fight{k}", P.women_of(t), _(P.WOMEN_WATCH), _(P.WOMEN_FIGHT), refuse=alone)
                yield count_field(f"bonus{k}", P.fate_bonus(t), 9, lambda v: _(P.BONUS_AT_MOST))
        else:
            yield count_field("count", P.how_many_animals(opponent), 20, lambda v: _(P.ANIMALS_AT_MOST), lo=1,
                              default=1)
            yield count_field("bonus1", P.fate_bonus(t1), 9, lambda v: _(P.BONUS_AT_MOST))

    def args(self, g: MammutGame, ctx: dict, ans: dict) -> dict:
        def side(k: int) -> dict[str, Any]:
            s: dict[str, Any] = {"tribe": ans[f"tribe{k}"], "warriors": ans[f"warriors{k}"],
                                 "women": ans[f"women{k}"], "camp": ans.get(f"camp{k}"), "bonus": ans[f"bonus{k}"]}
            if ans.get(f"women_fight{k}"):
                s["women_fight"] = True
            return s

        opponent = ans["opponent"]
        if opponent is None or opponent == MORE:
            return {"sides": [side(k) for k in range(1, ans.get("tribes", 2) + 1)]}
        return {"sides": [{"tribe": ans["tribe1"], "warriors": ans["warriors1"], "women": ans["women1"],
                           "camp": ans.get("camp1"), "bonus": ans["bonus1"]},
                          {"animal": opponent, "count": ans["count"]}]}  # fmt: skip

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        return O.fight_report(g, args["sides"], result)


class Loss(Form):
    """Demanded by the game: the side that lost a round gives up a warrior or a woman, its
    choice every round ("perde un segnalino (a sua scelta)", rulebook line 153)."""

    kind, method, undo = "loss", "choose_loss", O.UNDO_LOSS

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        b = g.battle
        assert b is not None
        i = b["choose"][0]
        totals = b["rounds"][-1]["totals"]
        top = max(x for x in totals if x is not None)
        yield Field("token", P.lost_round(g.tribe(ctx["tribe"]), totals[i], top),
                    choices=((R.WARRIOR, _(P.A_WARRIOR)), (R.WOMAN, _(P.A_WOMAN))))

    def args(self, g: MammutGame, ctx: dict, ans: dict) -> dict:
        return {"tribe": ctx["tribe"], "token": ans["token"]}

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        sides = g.battle["sides"] if g.battle is not None else g.fights[-1]["sides"]
        return O.fight_report(g, sides, result)


class CaptureCamp(Form):
    kind, method, listed, undo = "capture_camp", "capture_camp", True, O.UNDO_CAPTURE_CAMP
    nobody = P.NO_CAMP_TO_TAKE

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        def winner(t: Tribe) -> str | None:
            if not t.warriors:
                return P.no_warrior_to_take(t)
            return None if any(o.camps for o in g.living() if o is not t) else _(P.NO_CAMP_TO_TAKE)

        yield tribe_field(g, "winner", _(P.CAMP_TAKEN_BY), winner)
        w = g.tribe(ans["winner"])
        yield tribe_field(g, "loser", P.takes_camp_of(w),
                          lambda t: _(P.CANNOT_TAKE_OWN_CAMP) if t is w else (None if t.camps else P.no_camp(t)))
        lo = g.tribe(ans["loser"])
        yield camp_kind_field("kind", P.camp_is_a(lo), lo)
        full = {False: P.only_burn(w)} if w.camps >= R.MAX_CAMPS else None  # no room for a sixth camp
        yield yes_no("burn", _(P.KEEP_OR_BURN), _(P.KEEP_IT), _(P.BURN_IT), refuse=full)

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        return O.camp_taken_report(g.tribe(args["winner"]), g.tribe(args["loser"]), args["kind"], args["burn"], result)


class CaptureWomen(Form):
    kind, method, listed, undo = "capture_women", "capture_women", True, O.UNDO_CAPTURE_WOMEN
    nobody = P.NO_WOMEN_TO_CAPTURE

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        def captor(t: Tribe) -> str | None:
            if not t.warriors:
                return P.no_warrior(t)
            return None if any(o.women for o in g.living() if o is not t) else _(P.NO_WOMEN_TO_CAPTURE)

        yield tribe_field(g, "captor", _(P.WOMEN_CAPTURED_BY), captor)
        c = g.tribe(ans["captor"])
        yield tribe_field(g, "victim", P.captures_women_of(c),
                          lambda t: _(P.CANNOT_CAPTURE_OWN) if t is c else (None if t.women else P.no_women(t)))
        v = g.tribe(ans["victim"])
        yield count_field("count", P.how_many_women(v), v.women, lambda n: P.only_women(v, n), lo=1,
                          default=None)
        # Rulebook: the women join the winner; only a camp taken may be burnt with its women
        # massacred ("bruciare l'accampamento e massacrare le donne"), so only then is it asked.
        if g.took_camp_of(c.number, v.number):
            yield yes_no("massacre", _(P.THE_WOMEN), _(P.JOIN_CAPTOR), _(P.MASSACRED))

    def args(self, g: MammutGame, ctx: dict, ans: dict) -> dict:
        return {"captor": ans["captor"], "victim": ans["victim"], "count": ans["count"],
                "massacre": ans.get("massacre", False)}

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        return O.women_captured_report(g.tribe(args["captor"]), result)


FIGHT_FORMS: tuple[Form, ...] = (Fight(), Loss(), CaptureCamp(), CaptureWomen())
