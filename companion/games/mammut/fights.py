"""Phase 5 on the books of a Mammut game: a fight rolled round by round, a camp taken, women
captured. The dice rules of a fight are in `combat`; this applies an outcome to the tribes.
A mixin of `game.MammutGame` over `books.Books`.
"""

from __future__ import annotations

import copy
from typing import Any

from . import combat as C
from . import rules as R
from .books import Books, Tribe, whole_number
from .phases import Phase
from .rules import MammutError


class Fights(Books):
    """Phase 5: `fight`, `capture_camp`, `capture_women`."""

    # --- phase 5: combat ------------------------------------------------------------

    def fight(self, sides: list[dict]) -> dict:
        """Phase 5: resolve one fight round by round with the companion's dice.

        `sides` is a list of dicts. A tribe side: {"tribe": n, "warriors": w, "women": f,
        "camp": None | "village" | "cave" (fighting in its own camp), "lose": "warrior" |
        "woman" (given up first against animals), "bonus": fate-card bonus}. An animal side:
        {"animal": "mammoth", "count": k, "bonus": b}. Either tribes fight each other
        (warriors fight, women watch; women fight only women) or one tribe fights one horde
        of one kind. Returns the outcome (JSON-safe) with the rounds, losses and food won.
        """
        return self._run("fight", {"sides": sides}, lambda: self._fight(sides))

    def _fight(self, sides: list[dict]) -> dict:
        self._need_phase(Phase.COMBAT)
        if not isinstance(sides, list) or len(sides) < 2 or not all(isinstance(s, dict) for s in sides):
            raise MammutError("a fight needs a list of at least two sides")
        tribe_sides = [s for s in sides if "tribe" in s]
        animal_sides = [s for s in sides if "animal" in s]
        if len(tribe_sides) + len(animal_sides) != len(sides) or any("tribe" in s and "animal" in s for s in sides):
            raise MammutError('each side is a tribe ({"tribe": n, ...}) or animals ({"animal": kind, "count": n})')
        if not tribe_sides:
            raise MammutError("animals do not fight each other")
        if animal_sides and (len(animal_sides) > 1 or len(tribe_sides) > 1):
            raise MammutError(
                "fight one tribe against one kind of animal at a time: tribes fight each other first, "
                "then the survivors fight each kind of animal in turn"
            )
        numbers = [s["tribe"] for s in tribe_sides]
        if len(set(map(repr, numbers))) != len(numbers):
            raise MammutError("a tribe cannot fight itself")
        known = {"tribe", "warriors", "women", "camp", "lose", "bonus", "animal", "count"}
        for s in sides:
            extra = set(s) - known
            if extra:
                raise MammutError(f"unknown entry {sorted(extra)[0]!r} in a fight side")
        people: list[tuple[Tribe, int, int, dict]] = []
        for s in tribe_sides:
            t = self._alive(s["tribe"])
            w = whole_number(s.get("warriors", 0), f"{t.label}'s warriors")
            f = whole_number(s.get("women", 0), f"{t.label}'s women")
            if w > t.warriors:
                raise MammutError(f"{t.label} has only {t.warriors} warriors, not {w}")
            if f > t.women:
                raise MammutError(f"{t.label} has only {t.women} women, not {f}")
            if w + f == 0:
                raise MammutError(f"{t.label} has nobody in this fight")
            camp = s.get("camp")
            if camp is not None:
                if camp not in R.CAMP_KINDS:
                    raise MammutError(f"{t.label}: camp must be {R.VILLAGE}, {R.CAVE} or none, not {camp!r}")
                if (camp == R.VILLAGE and not t.villages) or (camp == R.CAVE and not t.caves):
                    raise MammutError(f"{t.label} has no {camp} to fight in")
            people.append((t, w, f, s))
        if animal_sides:
            a = animal_sides[0]
            kind = a["animal"]
            if kind not in R.ANIMALS:
                raise MammutError(f"unknown animal {kind!r}: one of {', '.join(R.ANIMALS)}")
            count = whole_number(a.get("count", 1), f"number of {kind}s")
            if count == 0:
                raise MammutError(f"there must be at least one {kind} to fight")
            t, w, f, s = people[0]
            fire = R.FIRE_BONUS if self.advanced and t.fire else 0
            fighters = [
                C.Fighter(t.label, w, f, 0, s.get("camp"), whole_number(s.get("bonus", 0), "bonus") + fire, s.get("lose", R.WARRIOR)),
                C.Fighter(kind, animals=count, extra=whole_number(a.get("bonus", 0), "bonus")),
            ]
        else:
            with_warriors = [p for p in people if p[1] > 0]
            if with_warriors and len(with_warriors) < len(people):
                lone = next(p for p in people if p[1] == 0)
                raise MammutError(
                    f"women do not fight warriors: {lone[0].label}'s women are captured without a fight "
                    "(capture women)"
                )
            women_fight = not with_warriors
            fighters = [
                C.Fighter(
                    t.label,
                    0 if women_fight else w,
                    f if women_fight else 0,
                    0,
                    s.get("camp"),
                    whole_number(s.get("bonus", 0), "bonus"),
                    R.WOMAN if women_fight else R.WARRIOR,
                )
                for t, w, f, s in people
            ]
        for fi in fighters:
            fi.validate()
        outcome = C.resolve_combat(fighters, self._die)
        # apply the losses to the books
        result_losses = []
        for (t, _w, _f, _s), loss in zip(people, outcome.losses):
            t.warriors -= loss["warriors"]
            t.women -= loss["women"]
            result_losses.append({"tribe": t.number, "warriors": loss["warriors"], "women": loss["women"]})
        result: dict[str, Any] = outcome.to_dict()
        result["losses"] = result_losses
        result["food"] = 0
        if animal_sides:
            killed = outcome.losses[1]["animals"]
            result["animals_killed"] = killed
            result["animal"] = animal_sides[0]["animal"]
            if outcome.winner == 0:
                t = people[0][0]
                result["food"] = R.kill_food(animal_sides[0]["animal"], killed)
                t.kills_food += result["food"]
                result["winner_tribe"] = t.number
                result["message"] = (
                    f"{t.label} kills {killed} {animal_sides[0]['animal']}(s) and will eat {result['food']} food in survival"
                )
            else:
                result["winner_tribe"] = None
                result["message"] = f"the {animal_sides[0]['animal']}s win: {people[0][0].label} is wiped out here"
        else:
            t = people[outcome.winner][0]
            result["winner_tribe"] = t.number
            beaten = [p[0].label for i, p in enumerate(people) if i != outcome.winner]
            result["message"] = (
                f"{t.label} wins against {', '.join(beaten)}; the beaten tribes' women here are captured "
                "(capture women) and a camp here can be taken (capture camp)"
            )
        self.fights.append({"sides": copy.deepcopy(sides), "message": result["message"]})
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
                raise MammutError("a tribe cannot take its own camp")
            if not isinstance(burn, bool):
                raise MammutError("burn is yes or no")
            if w.warriors < 1:
                raise MammutError(f"{w.label} has no warrior to take a camp")
            if kind not in R.CAMP_KINDS:
                raise MammutError(f"a camp is a {R.VILLAGE} or a {R.CAVE}, not {kind!r}")
            if not burn and w.camps >= R.MAX_CAMPS:
                raise MammutError(f"{w.label} already has all {R.MAX_CAMPS} camps: it can only burn this one")
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
                raise MammutError("a tribe cannot capture its own women")
            n = whole_number(count, "women captured")
            if n == 0:
                raise MammutError("capture at least one woman")
            if not isinstance(massacre, bool):
                raise MammutError("massacre is yes or no")
            if n > v.women:
                raise MammutError(f"{v.label} has only {v.women} women, cannot lose {n}")
            if c.warriors < 1:
                raise MammutError(f"{c.label} has no warrior: only warriors capture women")
            v.women -= n
            joined = 0 if massacre else min(n, R.MAX_WOMEN - c.women)
            c.women += joined
            return {"joined": joined, "removed": n - joined}

        return self._run("capture_women", {"captor": captor, "victim": victim, "count": count, "massacre": massacre}, do)
