"""Phase 5 on the books of a Mammut game: a fight rolled round by round, a camp taken, women
captured. The dice rules of a fight are in `combat`; this applies an outcome to the tribes.
A mixin of `game.MammutGame` over `books.Books`.
"""

from __future__ import annotations

import copy
from typing import Any

from companion.i18n import _

from . import combat as C
from . import rules as R
from .books import Books, Tribe, whole_number
from .phases import Phase
from .rules import MammutError


class Fights(Books):
    """Phase 5: `fight` and `choose_loss`, `capture_camp`, `capture_women`."""

    # --- phase 5: combat ------------------------------------------------------------

    def fight(self, sides: list[dict]) -> dict:
        """Phase 5: start one fight and roll it round by round with the companion's dice.

        `sides` is a list of dicts. A tribe side: {"tribe": n, "warriors": w, "women": f,
        "camp": None | "village" | "cave" (fighting in its own camp), "bonus": fate-card
        bonus, "women_fight": true when a fate card lets its women fight warriors, "lose":
        "warrior" | "woman" (optional: the token given up every round, chosen in advance;
        records of version 1 carry it)}. An animal side: {"animal": "mammoth", "count": k,
        "bonus": b}. Tribes fight each other (two, or three and more: all but the highest
        lose a token each round) or one tribe fights one horde of one kind.

        Rolls until the fight is over or a side that lost a round must choose its token (a
        warrior or a woman, both fighting): then `battle` waits for `choose_loss`. Returns
        the outcome (JSON-safe): {"pending": tribe} while waiting, else the rounds, losses
        and food won."""
        return self._run("fight", {"sides": sides}, lambda: self._fight(sides))

    def choose_loss(self, tribe: int, token: str) -> dict:
        """Phase 5: the tribe that lost the last round gives up `token` ("warrior" or
        "woman"); the fight then rolls on. Returns the outcome as `fight` does."""

        def do() -> dict:
            b = self.battle
            if b is None or not b["choose"]:
                raise MammutError(_("no fight is waiting for a lost token"))
            i = b["choose"][0]
            side = b["sides"][i]
            if side.get("tribe") != tribe:
                raise MammutError(f"{self._alive(b['sides'][i]['tribe']).label} chooses the token it loses, not tribe {tribe!r}")
            self._lose(i, token)
            b["choose"].pop(0)
            return self._roll_on()

        return self._run("choose_loss", {"tribe": tribe, "token": token}, do)

    def _fight(self, sides: list[dict]) -> dict:
        self._need_phase(Phase.COMBAT)
        fighters = self._fighters(sides)
        for fi in fighters:
            fi.validate()
        self.battle = {
            "sides": copy.deepcopy(sides),
            "fighters": [vars(f).copy() for f in fighters],
            "rounds": [],
            "losses": [{"warriors": 0, "women": 0, "animals": 0} for _fighter in fighters],
            "choose": [],
            "ties": 0,
        }
        return self._roll_on()

    def _fighters(self, sides: list[dict]) -> list[C.Fighter]:
        """The sides of a new fight, checked against the books."""
        if not isinstance(sides, list) or len(sides) < 2 or not all(isinstance(s, dict) for s in sides):
            raise MammutError(_("a fight needs a list of at least two sides"))
        tribe_sides = [s for s in sides if "tribe" in s]
        animal_sides = [s for s in sides if "animal" in s]
        if len(tribe_sides) + len(animal_sides) != len(sides) or any("tribe" in s and "animal" in s for s in sides):
            raise MammutError('each side is a tribe ({"tribe": n, ...}) or animals ({"animal": kind, "count": n})')
        if not tribe_sides:
            raise MammutError(_("animals do not fight each other"))
        if animal_sides and (len(animal_sides) > 1 or len(tribe_sides) > 1 or sides[0] is not tribe_sides[0]):
            raise MammutError(_("fight one tribe against one kind of animal at a time: tribes fight each other first, "
                                "then the survivors fight each kind of animal in turn"))
        numbers = [s["tribe"] for s in tribe_sides]
        if len(set(map(repr, numbers))) != len(numbers):
            raise MammutError(_("a tribe cannot fight itself"))
        known = {"tribe", "warriors", "women", "camp", "lose", "bonus", "women_fight", "animal", "count"}
        for s in sides:
            extra = set(s) - known
            if extra:
                raise MammutError(f"unknown entry {sorted(extra)[0]!r} in a fight side")
        people = [self._people(s) for s in tribe_sides]
        if animal_sides:
            a = animal_sides[0]
            kind = a["animal"]
            if kind not in R.ANIMALS:
                raise MammutError(f"unknown animal {kind!r}: one of {', '.join(R.ANIMALS)}")
            count = whole_number(a.get("count", 1), f"number of {kind}s")
            if count == 0:
                raise MammutError(_("there must be at least one {animal} to fight").format(animal=kind))
            t, w, f, s = people[0]
            fire = R.FIRE_BONUS if self.advanced and t.fire else 0
            # against animals every warrior and woman fights (women with no bonus)
            return [self._tribe_fighter(t, w, f, s, fire),
                    C.Fighter(kind, animals=count, extra=whole_number(a.get("bonus", 0), "bonus"))]
        with_warriors = [p for p in people if p[1] > 0]
        lone = next((p for p in people if p[1] == 0 and not p[3].get("women_fight")), None)
        if with_warriors and lone is not None:
            raise MammutError(_("women do not fight warriors: {tribe}'s women are captured without a fight "
                                "(capture women), unless a fate card lets them fight").format(tribe=lone[0].label))
        women_fight = not with_warriors  # women against women
        return [self._tribe_fighter(t, w, f if women_fight or s.get("women_fight") else 0, s, 0)
                for t, w, f, s in people]

    def _people(self, s: dict) -> tuple[Tribe, int, int, dict]:
        t = self._alive(s["tribe"])
        w = whole_number(s.get("warriors", 0), f"{t.label}'s warriors")
        f = whole_number(s.get("women", 0), f"{t.label}'s women")
        if w > t.warriors:
            raise MammutError(_("{tribe} has only {warriors} warriors, not {n}").format(
                tribe=t.label, warriors=t.warriors, n=w))
        if f > t.women:
            raise MammutError(_("{tribe} has only {women} women, not {n}").format(tribe=t.label, women=t.women, n=f))
        if w + f == 0:
            raise MammutError(_("{tribe} has nobody in this fight").format(tribe=t.label))
        if not isinstance(s.get("women_fight", False), bool):
            raise MammutError(_("women_fight is yes or no"))
        if s.get("women_fight") and f == 0:
            raise MammutError(_("{tribe} has no women in this fight to fight").format(tribe=t.label))
        camp = s.get("camp")
        if camp is not None:
            if camp not in R.CAMP_KINDS:
                raise MammutError(f"{t.label}: camp must be {R.VILLAGE}, {R.CAVE} or none, not {camp!r}")
            if (camp == R.VILLAGE and not t.villages) or (camp == R.CAVE and not t.caves):
                raise MammutError((_("{tribe} has no village to fight in") if camp == R.VILLAGE
                                   else _("{tribe} has no cave to fight in")).format(tribe=t.label))
        return t, w, f, s

    @staticmethod
    def _tribe_fighter(t: Tribe, warriors: int, women: int, s: dict, fire: int) -> C.Fighter:
        lose = s.get("lose")
        return C.Fighter(t.label, warriors, women, 0, s.get("camp"), whole_number(s.get("bonus", 0), "bonus") + fire,
                         lose if lose is not None else R.WARRIOR, choose=lose is None)

    def _state_of_battle(self) -> list[C.Fighter]:
        assert self.battle is not None
        return [C.Fighter(**f) for f in self.battle["fighters"]]

    def _lose(self, i: int, kind: str | None) -> None:
        """Side `i` of the battle gives up one token, in the fight and on its books."""
        b = self.battle
        assert b is not None
        fighter = C.Fighter(**b["fighters"][i])
        lost = C.lose_one(fighter, kind)
        b["fighters"][i] = vars(fighter)
        b["losses"][i][C.LOSS_KEY[lost]] += 1
        b["rounds"][-1]["lost"].append(lost)
        side = b["sides"][i]
        if "tribe" in side:
            t = self.tribe(side["tribe"])
            if lost == R.WARRIOR:
                t.warriors -= 1
            else:
                t.women -= 1

    def _roll_on(self) -> dict:
        """Roll rounds until the fight ends or a loser must choose its token."""
        b = self.battle
        assert b is not None
        while not b["choose"]:
            state = self._state_of_battle()
            if len(C.standing(state)) == 1:
                return self._end_battle()
            r = C.roll_round(state, self._die)
            b["rounds"].append({"dice": r.dice, "totals": r.totals, "losers": r.losers, "lost": []})
            if not r.losers:
                b["ties"] += 1
                if b["ties"] > C.MAX_TIED_ROLLS:
                    raise ValueError("the dice source keeps tying: is it broken?")
            for i in r.losers:
                if C.needs_choice(state[i]):
                    b["choose"].append(i)
                else:
                    self._lose(i, None)
        return {"pending": b["sides"][b["choose"][0]]["tribe"], "rounds": copy.deepcopy(b["rounds"])}

    def _end_battle(self) -> dict:
        b = self.battle
        assert b is not None
        sides, winner = b["sides"], C.standing(self._state_of_battle())[0]
        tribe_sides = [s for s in sides if "tribe" in s]
        result: dict[str, Any] = {
            "winner": winner,
            "rounds": copy.deepcopy(b["rounds"]),
            "losses": [{"tribe": s["tribe"], "warriors": loss["warriors"], "women": loss["women"]}
                       for s, loss in zip(sides, b["losses"]) if "tribe" in s],
            "food": 0,
        }  # fmt: skip
        if len(tribe_sides) < len(sides):
            t = self.tribe(tribe_sides[0]["tribe"])
            kind = sides[1]["animal"]
            killed = b["losses"][1]["animals"]
            result["animals_killed"], result["animal"] = killed, kind
            if winner == 0:
                result["food"] = R.kill_food(kind, killed)
                t.kills_food += result["food"]
                result["winner_tribe"] = t.number
                result["message"] = f"{t.label} kills {killed} {kind}(s) and will eat {result['food']} food in survival"
            else:
                result["winner_tribe"] = None
                result["message"] = f"the {kind}s win: {t.label} is wiped out here"
        else:
            t = self.tribe(sides[winner]["tribe"])
            result["winner_tribe"] = t.number
            beaten = [self.tribe(s["tribe"]).label for i, s in enumerate(sides) if i != winner]
            result["message"] = (
                f"{t.label} wins against {', '.join(beaten)}; the beaten tribes' women here are captured "
                "(capture women) and a camp here can be taken (capture camp)"
            )
        self.fights.append({"sides": copy.deepcopy(sides), "message": result["message"]})
        self.battle = None
        return result

    def capture_camp(self, winner: int, loser: int, kind: str, burn: bool = False) -> dict:
        """Phase 5: `winner` took a camp of `loser`: raids 25% of the loser's food (50% if it
        was its last camp, rounded down), then keeps the camp in its colour or burns it.
        Advanced rules: the winner also catches the loser's fire; the loser keeps its fire
        unless that was its last camp. Returns {"food": raided, ...}."""

        def do() -> dict:
            self._need_phase(Phase.COMBAT)
            w, lo = self._alive(winner), self._alive(loser)
            if w is lo:
                raise MammutError(_("a tribe cannot take its own camp"))
            if not isinstance(burn, bool):
                raise MammutError(_("burn is yes or no"))
            if w.warriors < 1:
                raise MammutError(_("{tribe} has no warrior to take a camp").format(tribe=w.label))
            if kind not in R.CAMP_KINDS:
                raise MammutError(_("a camp is a {village} or a {cave}, not {kind}").format(
                    village=R.VILLAGE, cave=R.CAVE, kind=repr(kind)))
            if not burn and w.camps >= R.MAX_CAMPS:
                raise MammutError(_("{tribe} already has all {n} camps: it can only burn this one").format(
                    tribe=w.label, n=R.MAX_CAMPS))
            last = lo.camps == 1
            had_fire = lo.fire
            self._take_camp(lo, kind)
            raid = C.camp_raid(lo.food, last)
            lo.food -= raid
            w.food += raid
            if not burn:
                if kind == R.VILLAGE:
                    w.villages += 1
                else:
                    w.caves += 1
            if self.advanced and had_fire and w.camps:
                w.fire = True
            return {"food": raid, "last_camp": last, "burnt": burn, "fire": self.advanced and had_fire}

        return self._run("capture_camp", {"winner": winner, "loser": loser, "kind": kind, "burn": burn}, do)

    def took_camp_of(self, winner: int, loser: int) -> bool:
        """Whether `winner` has taken a camp of `loser` in this combat phase (the log since the
        phase began). The rulebook lets the winner "bruciare l'accampamento e massacrare le
        donne" only after taking a camp; otherwise captured women join the winner."""
        for entry in reversed(self.log):
            if entry["action"] in ("advance", "new_game"):
                return False
            a = entry["args"]
            if entry["action"] == "capture_camp" and a["winner"] == winner and a["loser"] == loser:
                return True
        return False

    def capture_women(self, captor: int, victim: int, count: int, massacre: bool = False) -> dict:
        """Phase 5: `count` women of `victim` fall to `captor`'s warriors. They join the captor
        (its tokens replace them, up to 6 women; the rest are removed), or are massacred."""

        def do() -> dict:
            self._need_phase(Phase.COMBAT)
            c, v = self._alive(captor), self._alive(victim)
            if c is v:
                raise MammutError(_("a tribe cannot capture its own women"))
            n = whole_number(count, "women captured")
            if n == 0:
                raise MammutError(_("capture at least one woman"))
            if not isinstance(massacre, bool):
                raise MammutError(_("massacre is yes or no"))
            if n > v.women:
                raise MammutError(_("{tribe} has only {women} women, cannot lose {n}").format(
                    tribe=v.label, women=v.women, n=n))
            if c.warriors < 1:
                raise MammutError(_("{tribe} has no warrior: only warriors capture women").format(tribe=c.label))
            v.women -= n
            joined = 0 if massacre else min(n, R.MAX_WOMEN - c.women)
            c.women += joined
            return {"joined": joined, "removed": n - joined}

        return self._run("capture_women", {"captor": captor, "victim": victim, "count": count, "massacre": massacre}, do)
