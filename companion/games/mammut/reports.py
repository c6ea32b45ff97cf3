"""What the table reports to a Mammut game outside fights: camps made and abandoned, the
table's corrections (tokens removed, food, fate cards, fire, a die for an event), survival,
births and sowing. A mixin of `game.MammutGame` over `books.Books`.
"""

from __future__ import annotations

import copy

from companion.i18n import _

from . import rules as R
from . import survival as S
from .books import Books, short_text, whole_number
from .phases import Phase
from .rules import MammutError


class Reports(Books):
    """Camps, corrections, survival, births and sowing, as the table reports them."""

    # --- phase 4: camps -------------------------------------------------------------

    def make_camp(self, tribe: int, kind: str = R.VILLAGE) -> None:
        """Phase 4: a warrior and a woman alone on a free space made a camp (village, or cave on a mountain)."""

        def do() -> None:
            self._need_phase(Phase.TRIBES_MOVE)
            t = self._alive(tribe)
            if kind not in R.CAMP_KINDS:
                raise MammutError(_("a camp is a {village} or a {cave}, not {kind}").format(
                    village=R.VILLAGE, cave=R.CAVE, kind=repr(kind)))
            if t.camps >= R.MAX_CAMPS:
                raise MammutError(_("{tribe} already has all {n} camps on the board").format(
                    tribe=t.label, n=R.MAX_CAMPS))
            if t.warriors < 1:
                raise MammutError(_("{tribe} has no warrior: a camp needs a warrior and a woman").format(tribe=t.label))
            if t.women <= t.camps:
                raise MammutError(_("{tribe} has {women} women for {camps} camps: every camp keeps a woman, "
                                    "so a new camp needs one more").format(tribe=t.label, women=t.women, camps=t.camps))
            if kind == R.VILLAGE:
                t.villages += 1
            else:
                t.caves += 1

        self._run("make_camp", {"tribe": tribe, "kind": kind}, do)

    def abandon_camp(self, tribe: int, kind: str) -> None:
        """A camp left without a woman (or given up) is removed from the board."""

        def do() -> None:
            self._in_turn()
            t = self._alive(tribe)
            self._take_camp(t, kind)

        self._run("abandon_camp", {"tribe": tribe, "kind": kind}, do)

    # --- any phase: the table's corrections and card effects ------------------------

    def remove_tokens(self, tribe: int, warriors: int = 0, women: int = 0, reason: str = "") -> None:
        """Remove tokens from a tribe (hunger, an event, a fate card). Counts against tokens
        the tribe still has to remove for hunger."""

        def do() -> None:
            self._in_turn()
            short_text(reason)
            t = self._alive(tribe)
            w = whole_number(warriors, "warriors removed")
            f = whole_number(women, "women removed")
            if w + f == 0:
                raise MammutError(_("remove at least one warrior or woman"))
            if w > t.warriors:
                raise MammutError(_("{tribe} has only {warriors} warriors, cannot remove {n}").format(
                    tribe=t.label, warriors=t.warriors, n=w))
            if f > t.women:
                raise MammutError(_("{tribe} has only {women} women, cannot remove {n}").format(
                    tribe=t.label, women=t.women, n=f))
            t.warriors -= w
            t.women -= f
            t.to_remove = max(0, t.to_remove - w - f)

        self._run("remove_tokens", {"tribe": tribe, "warriors": warriors, "women": women, "reason": reason}, do)

    def add_tokens(self, tribe: int, warriors: int = 0, women: int = 0, reason: str = "") -> None:
        """Give a tribe warriors or women (a fate card, an event), up to 10 warriors and 6 women."""

        def do() -> None:
            self._in_turn()
            short_text(reason)
            t = self._alive(tribe)
            w = whole_number(warriors, "warriors added")
            f = whole_number(women, "women added")
            if w + f == 0:
                raise MammutError(_("add at least one warrior or woman"))
            if t.warriors + w > R.MAX_WARRIORS:
                raise MammutError(_("{tribe} has {warriors} warriors: at most {more} more").format(
                    tribe=t.label, warriors=t.warriors, more=R.MAX_WARRIORS - t.warriors))
            if t.women + f > R.MAX_WOMEN:
                raise MammutError(_("{tribe} has {women} women: at most {more} more").format(
                    tribe=t.label, women=t.women, more=R.MAX_WOMEN - t.women))
            t.warriors += w
            t.women += f

        self._run("add_tokens", {"tribe": tribe, "warriors": warriors, "women": women, "reason": reason}, do)

    def adjust_food(self, tribe: int, delta: int, reason: str = "") -> None:
        """Add (or with a negative delta pay) food for an event or a fate card."""

        def do() -> None:
            self._in_turn()
            short_text(reason)
            t = self._alive(tribe)
            if isinstance(delta, bool) or not isinstance(delta, int) or delta == 0:
                raise MammutError(_("food change must be a whole number other than 0, not {delta}").format(
                    delta=repr(delta)))
            if t.food + delta < 0:
                raise MammutError(_("{tribe} has only {food} food, cannot pay {n}").format(
                    tribe=t.label, food=t.food, n=-delta))
            t.food += delta

        self._run("adjust_food", {"tribe": tribe, "delta": delta, "reason": reason}, do)

    def play_fate_card(self, tribe: int, count: int = 1) -> None:
        """A tribe played (discarded) fate cards; it refills only at the end of the season."""

        def do() -> None:
            self._in_turn()
            t = self._alive(tribe)
            n = whole_number(count, "cards played")
            if n == 0:
                raise MammutError(_("play at least one card"))
            if n > t.fate_cards:
                raise MammutError(_("{tribe} holds only {cards} fate cards, cannot play {n}").format(
                    tribe=t.label, cards=t.fate_cards, n=n))
            t.fate_cards -= n

        self._run("play_fate_card", {"tribe": tribe, "count": count}, do)

    def set_fire(self, tribe: int, has_fire: bool = True) -> None:
        """Advanced rules: a tribe caught fire (kept in one of its camps) or lost it."""

        def do() -> None:
            self._in_turn()
            if not self.advanced:
                raise MammutError(_("fire is part of the advanced rules, which this game does not use"))
            t = self._alive(tribe)
            if not isinstance(has_fire, bool):
                raise MammutError(_("fire is yes or no"))
            if has_fire and t.camps == 0:
                raise MammutError(_("{tribe} has no camp to keep the fire in").format(tribe=t.label))
            t.fire = has_fire

        self._run("set_fire", {"tribe": tribe, "has_fire": has_fire}, do)

    def roll_die(self, reason: str = "") -> int:
        """A die for the table (an event's region 1-6, a card), rolled and logged."""
        short_text(reason)
        return self._run("roll_die", {"reason": reason}, self._die)

    # --- phase 6: survival ----------------------------------------------------------

    def report_survival(
        self, tribe: int, fishing: int = 0, gathering: int = 0, crops_intact: int = 0, crops_damaged: int = 0
    ) -> dict:
        """Phase 6: spaces the tribe occupies that feed it. Adds them and this turn's kills,
        feeds every warrior and woman; returns {"income", "eaten", "food", "remove"} where
        `remove` is how many tokens the tribe must now remove (remove_tokens)."""

        def do() -> dict:
            self._need_phase(Phase.SURVIVAL)
            t = self._alive(tribe)
            if t.survival is not None:
                raise MammutError(_("{tribe} has already reported survival this turn").format(tribe=t.label))
            for name, v in (("fishing", fishing), ("gathering", gathering),
                            ("crops_intact", crops_intact), ("crops_damaged", crops_damaged)):  # fmt: skip
                n = whole_number(v, name.replace("_", " "))
                if n > t.people:
                    raise MammutError(_("{tribe} has {people} warriors and women: it cannot occupy {n} spaces for "
                                        "{what}").format(
                                            tribe=t.label, people=t.people, n=n, what=name.replace("_", " ")))
            if crops_intact + crops_damaged > t.people:
                raise MammutError(_("{tribe} has {people} warriors and women: it cannot occupy {crops} crops").format(
                    tribe=t.label, people=t.people, crops=crops_intact + crops_damaged))
            income = S.food_income(
                self.season, R.is_last_summer_turn(self.season, self.turn),
                fishing, gathering, crops_intact, crops_damaged, t.kills_food,
            )  # fmt: skip
            res = S.survive(t.food, income, t.people, winter=self.winter, advanced=self.advanced, fire=t.fire)
            t.food = res.food
            t.to_remove = res.remove
            report = {
                "fishing": fishing, "gathering": gathering, "crops_intact": crops_intact,
                "crops_damaged": crops_damaged, "kills": t.kills_food,
                "income": res.income, "eaten": res.eaten, "food": res.food, "remove": res.remove,
            }  # fmt: skip
            t.survival = report
            return dict(report)

        args = {"tribe": tribe, "fishing": fishing, "gathering": gathering,
                "crops_intact": crops_intact, "crops_damaged": crops_damaged}  # fmt: skip
        return self._run("report_survival", args, do)

    # --- phase 7: births ------------------------------------------------------------

    def report_births(self, tribe: int, camps_one_woman: int = 0, camps_two_plus: int = 0) -> dict:
        """Phase 7: how many of the tribe's camps hold exactly one woman and how many two or
        more. The companion rolls every birth; returns the babies, dice and births lost."""

        def do() -> dict:
            self._need_phase(Phase.BIRTHS)
            t = self._alive(tribe)
            if t.births is not None:
                raise MammutError(_("{tribe} has already had its births this season").format(tribe=t.label))
            one = whole_number(camps_one_woman, "camps with one woman")
            two = whole_number(camps_two_plus, "camps with two or more women")
            if one + two > t.camps:
                raise MammutError(_("{tribe} has only {camps} camps, not {n}").format(
                    tribe=t.label, camps=t.camps, n=one + two))
            if one + two != t.camps:  # rulebook: "Devi sempre tenere almeno una donna nell'Accampamento"
                raise MammutError(R.every_camp_a_woman(t.label, t.camps, one + two))
            if one + 2 * two > t.women:
                raise MammutError(_("{tribe} has only {women} women: {one} camps with one and {two} with two or more "
                                    "need {need}").format(
                                        tribe=t.label, women=t.women, one=one, two=two, need=one + 2 * two))
            babies, dice = S.roll_births(S.births_due(one, two), self._die)
            out = S.apply_births(t.warriors, t.women, babies)
            t.warriors, t.women = out.warriors, out.women
            report = {
                "camps_one_woman": one, "camps_two_plus": two, "dice": dice, "babies": babies,
                "warriors_born": out.warriors_born, "women_born": out.women_born,
                "warriors_lost": out.warriors_lost, "women_lost": out.women_lost,
            }  # fmt: skip
            t.births = report
            return copy.deepcopy(report)

        return self._run(
            "report_births", {"tribe": tribe, "camps_one_woman": camps_one_woman, "camps_two_plus": camps_two_plus}, do
        )

    # --- phase 8: sowing (and setup) ------------------------------------------------

    def crop_markers_left(self) -> int:
        """The box's crop markers not yet on the board. Crops are sown only at set-up and at
        the end of winter, and every marker leaves the board at the harvest (last summer turn)
        in between, so the board holds just the crops sown this turn (`sown`, all tribes)."""
        return max(0, R.CROP_MARKERS - sum(t.sown for t in self.tribes))

    def sow(self, tribe: int, crops: int) -> None:
        """Phase 8 (end of winter) or setup: plant crops on plain villages, 1 food each."""

        def do() -> None:
            self._need_phase(Phase.SOWING, Phase.SETUP)
            t = self._alive(tribe)
            n = whole_number(crops, "crops")
            if n == 0:
                raise MammutError(_("sow at least one crop"))
            left = self.crop_markers_left()
            if n > left:
                raise MammutError(R.no_crop_markers(left, n))
            t.food = S.sow(t.food, t.villages - t.sown, n)
            t.sown += n

        self._run("sow", {"tribe": tribe, "crops": crops}, do)
