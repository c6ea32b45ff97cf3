"""Valley of the Mammoths: the game's books and the turn walker, as a pure state machine.

`MammutGame` keeps every tribe's books (warriors, women, villages, caves, food, fate cards,
fire, resurrection, elimination), the calendar and the current phase. A UI drives it:
read `phase` and `phase_prompt()`, enter what the players report through the action
methods, call `advance()` to move to the next phase that applies this turn. Dice are
injected (`roll() -> int` or a `random.Random`) so every game is reproducible.

Every action validates its input and raises `MammutError` with a message a player can act
on; a refused action leaves the state exactly as it was (no die is rolled before the
input is accepted, and the state is restored if anything fails afterwards). Each accepted
action is appended to `log` as a JSON-safe dict `{"seq", "action", "args", "rolls"}`;
`MammutGame.replay(log)` rebuilds the identical game, feeding either the dice recorded in
the log or a given dice source. `to_dict()`/`from_dict()` snapshot the whole state.

Decisions where the rules are silent (see also `rules`):

* Seats are tribe numbers 1..n; clockwise means increasing number, wrapping.
* A tribe whose last warrior and woman are gone is eliminated when the table advances to
  the next phase (so a captured camp can still be raided first); a tribe without women
  loses its camps then too. Elimination discards its food and fate cards.
* Every camp needs a woman, so the companion refuses to advance while a tribe holds more
  camps than women: the table must report which camp was abandoned.
* Resurrection happens in phases 1-3 of the turn after the elimination (the rulebook places
  the new tokens after events and new animals) and only if the tribe was eliminated in the
  first year; the new tribe holds no camp until it makes one.
* Women alone with enemy warriors, and the women of a tribe beaten in a warriors' fight,
  are taken with `capture_women` (the rulebook's swap of tokens, up to 6 women).
* Survival and births must be reported for every tribe (zeros allowed) before advancing;
  tokens removed for hunger are the tribe's choice, entered with `remove_tokens`.
* Winning and extinction are checked on entering phase 10; the game then ends at once.
"""

from __future__ import annotations

import copy
import random
from enum import Enum
from typing import Any, Callable, Sequence

from . import rules as R
from .rules import MammutError, Roll

__all__ = ["MammutError", "MammutGame", "Phase", "Tribe"]


class Phase(str, Enum):
    SETUP = "setup"
    EVENTS = "events"
    NEW_ANIMALS = "new_animals"
    ANIMAL_MOVEMENT = "animal_movement"
    TRIBES_MOVE = "tribes_move"
    COMBAT = "combat"
    SURVIVAL = "survival"
    BIRTHS = "births"
    SOWING = "sowing"
    FATE_CARDS = "fate_cards"
    END_OF_TURN = "end_of_turn"
    GAME_OVER = "game_over"

    @property
    def number(self) -> int:
        """The rulebook's phase number 1-10 (0 for setup and game over)."""
        return TURN_PHASES.index(self) + 1 if self in TURN_PHASES else 0


TURN_PHASES: tuple[Phase, ...] = (
    Phase.EVENTS,
    Phase.NEW_ANIMALS,
    Phase.ANIMAL_MOVEMENT,
    Phase.TRIBES_MOVE,
    Phase.COMBAT,
    Phase.SURVIVAL,
    Phase.BIRTHS,
    Phase.SOWING,
    Phase.FATE_CARDS,
    Phase.END_OF_TURN,
)

RESURRECTION_PHASES = (Phase.EVENTS, Phase.NEW_ANIMALS, Phase.ANIMAL_MOVEMENT)


def phase_applies(phase: Phase, season: str, turn: int, number: int) -> bool:
    """Whether `phase` is played in the turn (season, turn within season, game turn number)."""
    if phase == Phase.EVENTS:
        return R.events_this_turn(number)
    if phase in (Phase.BIRTHS, Phase.FATE_CARDS):
        return R.is_season_end(turn)
    if phase == Phase.SOWING:
        return season == R.WINTER and R.is_season_end(turn)
    return phase in TURN_PHASES


class Tribe:
    """One tribe's books. Plain attributes; `to_dict`/`from_dict` for snapshots."""

    _FIELDS = (
        "number", "name", "warriors", "women", "villages", "caves", "food", "fate_cards", "fire",
        "resurrection_used", "eliminated", "eliminated_turn", "eliminated_year", "announced_turn",
        "kills_food", "survival", "births", "sown", "to_remove",
    )  # fmt: skip

    def __init__(self, number: int, name: str, food: int, fate_cards: int) -> None:
        self.number = number
        self.name = name
        self.warriors = R.START_WARRIORS
        self.women = R.START_WOMEN
        self.villages = 1
        self.caves = 0
        self.food = food
        self.fate_cards = fate_cards
        self.fire = False
        self.resurrection_used = False
        self.eliminated = False
        self.eliminated_turn: int | None = None
        self.eliminated_year: int | None = None
        self.announced_turn: int | None = None
        # this turn only
        self.kills_food = 0
        self.survival: dict | None = None  # the survival report and its outcome
        self.births: dict | None = None  # the births report and its outcome
        self.sown = 0
        self.to_remove = 0  # tokens still to remove for hunger

    @property
    def camps(self) -> int:
        return self.villages + self.caves

    @property
    def people(self) -> int:
        return self.warriors + self.women

    @property
    def label(self) -> str:
        return f"tribe {self.number} ({self.name})" if self.name else f"tribe {self.number}"

    def to_dict(self) -> dict:
        return {f: copy.deepcopy(getattr(self, f)) for f in self._FIELDS}

    @classmethod
    def from_dict(cls, d: dict) -> Tribe:
        t = cls(d["number"], d["name"], d["food"], d["fate_cards"])
        for f in cls._FIELDS:
            setattr(t, f, copy.deepcopy(d[f]))
        return t


class _Feed:
    """Dice fed from a recorded list (log replay)."""

    def __init__(self) -> None:
        self.queue: list[int] = []

    def __call__(self) -> int:
        if not self.queue:
            raise MammutError("the log records fewer dice than the game needs: the log is damaged")
        return self.queue.pop(0)


def _as_roller(roll: Roll | random.Random) -> Roll:
    if isinstance(roll, random.Random):
        rng = roll
        return lambda: rng.randint(1, 6)
    if not callable(roll):
        raise TypeError("roll must be a callable returning 1..6 or a random.Random")
    return roll


def _count(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise MammutError(f"{what} must be a whole number 0 or more, not {value!r}")
    return value


def _text(reason: Any) -> None:
    if not isinstance(reason, str) or len(reason) > 200:
        raise MammutError("the reason is a short text")


# Actions a log may contain, i.e. the public methods replay calls by name.
ACTIONS = (
    "advance", "set_first_player", "set_start_camp", "sow", "make_camp", "abandon_camp", "fight",
    "capture_camp", "capture_women", "remove_tokens", "adjust_food", "play_fate_card", "set_fire",
    "report_survival", "report_births", "resurrect", "roll_die",
)  # fmt: skip

_STATE = (
    "year", "season", "turn", "phase", "first_player", "play_order", "order_reason", "order_rolls",
    "animals_to_draw", "direction", "fate_drawn", "announced", "winners", "extinct", "fights",
)  # fmt: skip


class MammutGame:
    """A game of Valley of the Mammoths for 2-6 tribes, from setup to victory or extinction."""

    VERSION = 1

    def __init__(
        self,
        n_tribes: int,
        *,
        roll: Roll | random.Random,
        names: Sequence[str] | None = None,
        first_game: bool = False,
        advanced: bool = False,
    ) -> None:
        if isinstance(n_tribes, bool) or not isinstance(n_tribes, int) or not R.MIN_TRIBES <= n_tribes <= R.MAX_TRIBES:
            raise MammutError(f"the game is for {R.MIN_TRIBES} to {R.MAX_TRIBES} tribes, not {n_tribes!r}")
        names = list(names) if names is not None else [""] * n_tribes
        if len(names) != n_tribes or not all(isinstance(n, str) for n in names):
            raise MammutError(f"give {n_tribes} tribe names (text), or none")
        if len({n for n in names if n}) != len([n for n in names if n]):
            raise MammutError("two tribes have the same name")
        self._roll = _as_roller(roll)
        self._rolls: list[int] | None = None
        self.n_tribes = n_tribes
        self.first_game = bool(first_game)
        self.advanced = bool(advanced)
        food = R.FIRST_GAME_FOOD if first_game else R.START_FOOD
        self.tribes = [Tribe(i + 1, names[i], food, R.hand_size(n_tribes)) for i in range(n_tribes)]
        self.year, self.season, self.turn = R.START_YEAR, R.START_SEASON, R.START_TURN
        self.phase = Phase.SETUP
        self.first_player = 1
        self.play_order: list[int] = []
        self.order_reason = ""
        self.order_rolls: list[dict[str, int]] = []
        self.animals_to_draw = 0
        self.direction: int | None = None
        self.fate_drawn: list[int] = []
        self.announced: list[int] = []
        self.winners: list[int] = []
        self.extinct = False
        self.fights: list[dict] = []  # this turn's fights, for the prompt
        self.log: list[dict] = [
            {
                "seq": 0,
                "action": "new_game",
                "args": {"n_tribes": n_tribes, "names": names, "first_game": self.first_game, "advanced": self.advanced},
                "rolls": [],
            }
        ]

    # --- reading the state ----------------------------------------------------------

    @property
    def turn_number(self) -> int:
        """Game turn counted from 1 (year 1 summer turn 2)."""
        return R.turn_number(self.year, self.season, self.turn)

    @property
    def over(self) -> bool:
        return self.phase == Phase.GAME_OVER

    @property
    def winter(self) -> bool:
        return self.season == R.WINTER

    def tribe(self, number: int) -> Tribe:
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= self.n_tribes:
            raise MammutError(f"there is no tribe {number!r}: tribes are numbered 1 to {self.n_tribes}")
        return self.tribes[number - 1]

    def living(self) -> list[Tribe]:
        return [t for t in self.tribes if not t.eliminated]

    def _alive(self, number: int) -> Tribe:
        t = self.tribe(number)
        if t.eliminated:
            raise MammutError(f"{t.label} has been eliminated")
        return t

    # --- the action wrapper, log and dice ---------------------------------------------

    def _die(self) -> int:
        value = R.check_die(self._roll())
        if self._rolls is not None:
            self._rolls.append(value)
        return value

    def _run(self, action: str, args: dict, fn: Callable[[], Any]) -> Any:
        if self.phase == Phase.GAME_OVER:
            raise MammutError("the game is over: start a new game")
        snapshot = self._state()
        self._rolls = []
        try:
            result = fn()
        except BaseException:
            self._load_state(snapshot)
            raise
        finally:
            rolls, self._rolls = self._rolls, None
        self.log.append({"seq": len(self.log), "action": action, "args": copy.deepcopy(args), "rolls": rolls})
        return result

    def _need_phase(self, *phases: Phase) -> None:
        if self.phase not in phases:
            names = " or ".join(p.value.replace("_", " ") for p in phases)
            raise MammutError(f"that is done in the {names} phase; this is the {self.phase.value.replace('_', ' ')} phase")

    def _in_turn(self) -> None:
        if self.phase not in TURN_PHASES:
            raise MammutError("the first turn has not started yet: finish setup and advance")

    # --- setup ----------------------------------------------------------------------

    def set_first_player(self, tribe: int) -> None:
        """Setup: the tribe that placed its camp first; it plays first in turn 1."""

        def do() -> None:
            self._need_phase(Phase.SETUP)
            self.first_player = self.tribe(tribe).number

        self._run("set_first_player", {"tribe": tribe}, do)

    def set_start_camp(self, tribe: int, kind: str) -> None:
        """Setup: the starting camp is a village (plain/forest, the default) or a cave (mountain)."""

        def do() -> None:
            self._need_phase(Phase.SETUP)
            t = self.tribe(tribe)
            if kind not in R.CAMP_KINDS:
                raise MammutError(f"a camp is a {R.VILLAGE} or a {R.CAVE}, not {kind!r}")
            if kind == R.CAVE and t.sown:
                raise MammutError(f"{t.label} sowed a crop on its village: a cave cannot hold one")
            t.villages, t.caves = (1, 0) if kind == R.VILLAGE else (0, 1)

        self._run("set_start_camp", {"tribe": tribe, "kind": kind}, do)

    # --- phase walking --------------------------------------------------------------

    def advance(self) -> Phase:
        """Close the current phase and enter the next one that applies; returns it.

        Raises `MammutError` naming what the table still has to report."""
        return self._run("advance", {}, self._advance)

    def _advance(self) -> Phase:
        self._check_can_leave()
        self._settle()
        if self.phase == Phase.SETUP:
            nxt = self._first_phase()
        else:
            later = TURN_PHASES[TURN_PHASES.index(self.phase) + 1 :]
            nxt = next((p for p in later if phase_applies(p, self.season, self.turn, self.turn_number)), None)
            if nxt is None:
                self.year, self.season, self.turn = R.next_turn(self.year, self.season, self.turn)
                self._new_turn()
                nxt = self._first_phase()
        self._enter(nxt)
        return self.phase

    def _first_phase(self) -> Phase:
        return next(p for p in TURN_PHASES if phase_applies(p, self.season, self.turn, self.turn_number))

    def _check_can_leave(self) -> None:
        for t in self.living():
            if t.to_remove:
                raise MammutError(
                    f"{t.label} must still remove {t.to_remove} warriors or women it cannot feed"
                )
            if 0 < t.women < t.camps:
                raise MammutError(
                    f"{t.label} holds {t.camps} camps but only {t.women} women: a camp without a woman "
                    "is abandoned, tell me which (abandon camp)"
                )
        if self.phase == Phase.SURVIVAL:
            missing = [t.label for t in self.living() if t.survival is None]
            if missing:
                raise MammutError(f"survival not reported yet for {', '.join(missing)}")
        if self.phase == Phase.BIRTHS:
            missing = [t.label for t in self.living() if t.camps and t.births is None]
            if missing:
                raise MammutError(f"births not reported yet for {', '.join(missing)}")

    def _settle(self) -> None:
        """Camps without any woman are abandoned; tribes with nobody left are eliminated."""
        for t in self.living():
            if t.women == 0 and t.camps:
                t.villages = t.caves = 0
            if t.camps == 0:
                t.fire = False
            if t.people == 0:
                t.eliminated = True
                t.eliminated_turn = self.turn_number
                t.eliminated_year = self.year
                t.food = t.fate_cards = 0
                t.announced_turn = None
                t.to_remove = 0

    def _new_turn(self) -> None:
        for t in self.tribes:
            t.kills_food = 0
            t.survival = None
            t.births = None
            t.sown = 0
            t.to_remove = 0
        self.play_order = []
        self.order_reason = ""
        self.order_rolls = []
        self.animals_to_draw = 0
        self.direction = None
        self.fate_drawn = []
        self.announced = []
        self.fights = []

    def _enter(self, phase: Phase) -> None:
        self.phase = phase
        if phase == Phase.NEW_ANIMALS:
            self.animals_to_draw = R.animal_count(len(self.living()), self.season, self.turn_number == 1)
        elif phase == Phase.ANIMAL_MOVEMENT:
            self.direction = self._die()
        elif phase == Phase.TRIBES_MOVE:
            standings = [R.Standing(t.number, t.camps, t.people, t.food) for t in self.living()]
            if standings:
                first = self.first_player if self.turn_number == 1 else None
                if first is not None and self.tribe(first).eliminated:
                    first = None
                po = R.play_order(standings, self._die, first)
                self.play_order, self.order_reason, self.order_rolls = po.order, po.reason, po.tie_rolls
        elif phase == Phase.FATE_CARDS:
            living = self.living()
            draws = R.fate_draws([t.fate_cards for t in living], self.n_tribes)
            self.fate_drawn = [t.number for t, d in zip(living, draws) if d]
            for t, d in zip(living, draws):
                t.fate_cards += d
        elif phase == Phase.END_OF_TURN:
            if R.extinct([t.people for t in self.tribes]):
                self.extinct = True
                self.phase = Phase.GAME_OVER
                return
            living = self.living()
            standings = [
                R.VictoryStanding(t.number, t.camps, t.fire, t.announced_turn == self.turn_number - 1) for t in living
            ]
            winners, announce = R.end_of_turn(standings, self.advanced)
            for t in living:
                t.announced_turn = self.turn_number if t.number in announce else None
            self.announced = announce
            if winners:
                self.winners = winners
                self.phase = Phase.GAME_OVER

    # --- phase 4: camps -------------------------------------------------------------

    def make_camp(self, tribe: int, kind: str = R.VILLAGE) -> None:
        """Phase 4: a warrior and a woman alone on a free space made a camp (village, or cave on a mountain)."""

        def do() -> None:
            self._need_phase(Phase.TRIBES_MOVE)
            t = self._alive(tribe)
            if kind not in R.CAMP_KINDS:
                raise MammutError(f"a camp is a {R.VILLAGE} or a {R.CAVE}, not {kind!r}")
            if t.camps >= R.MAX_CAMPS:
                raise MammutError(f"{t.label} already has all {R.MAX_CAMPS} camps on the board")
            if t.warriors < 1:
                raise MammutError(f"{t.label} has no warrior: a camp needs a warrior and a woman")
            if t.women <= t.camps:
                raise MammutError(
                    f"{t.label} has {t.women} women for {t.camps} camps: every camp keeps a woman, "
                    "so a new camp needs one more"
                )
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

    def _take_camp(self, t: Tribe, kind: str) -> None:
        if kind not in R.CAMP_KINDS:
            raise MammutError(f"a camp is a {R.VILLAGE} or a {R.CAVE}, not {kind!r}")
        if kind == R.VILLAGE and not t.villages:
            raise MammutError(f"{t.label} has no village")
        if kind == R.CAVE and not t.caves:
            raise MammutError(f"{t.label} has no cave")
        if kind == R.VILLAGE:
            t.villages -= 1
        else:
            t.caves -= 1
        if t.camps == 0:
            t.fire = False  # fire is kept in a camp: losing the last camp loses it

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
            w = _count(s.get("warriors", 0), f"{t.label}'s warriors")
            f = _count(s.get("women", 0), f"{t.label}'s women")
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
            count = _count(a.get("count", 1), f"number of {kind}s")
            if count == 0:
                raise MammutError(f"there must be at least one {kind} to fight")
            t, w, f, s = people[0]
            fire = R.FIRE_BONUS if self.advanced and t.fire else 0
            fighters = [
                R.Fighter(t.label, w, f, 0, s.get("camp"), _count(s.get("bonus", 0), "bonus") + fire, s.get("lose", R.WARRIOR)),
                R.Fighter(kind, animals=count, extra=_count(a.get("bonus", 0), "bonus")),
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
                R.Fighter(
                    t.label,
                    0 if women_fight else w,
                    f if women_fight else 0,
                    0,
                    s.get("camp"),
                    _count(s.get("bonus", 0), "bonus"),
                    R.WOMAN if women_fight else R.WARRIOR,
                )
                for t, w, f, s in people
            ]
        for fi in fighters:
            fi.validate()
        outcome = R.resolve_combat(fighters, self._die)
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
            raid = R.camp_raid(lo.food, last)
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

    def capture_women(self, captor: int, victim: int, count: int, massacre: bool = False) -> dict:
        """Phase 5: `count` women of `victim` fall to `captor`'s warriors. They join the captor
        (its tokens replace them, up to 6 women; the rest are removed), or are massacred."""

        def do() -> dict:
            self._need_phase(Phase.COMBAT)
            c, v = self._alive(captor), self._alive(victim)
            if c is v:
                raise MammutError("a tribe cannot capture its own women")
            n = _count(count, "women captured")
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

    # --- any phase: the table's corrections and card effects ------------------------

    def remove_tokens(self, tribe: int, warriors: int = 0, women: int = 0, reason: str = "") -> None:
        """Remove tokens from a tribe (hunger, an event, a fate card). Counts against tokens
        the tribe still has to remove for hunger."""

        def do() -> None:
            self._in_turn()
            _text(reason)
            t = self._alive(tribe)
            w = _count(warriors, "warriors removed")
            f = _count(women, "women removed")
            if w + f == 0:
                raise MammutError("remove at least one warrior or woman")
            if w > t.warriors:
                raise MammutError(f"{t.label} has only {t.warriors} warriors, cannot remove {w}")
            if f > t.women:
                raise MammutError(f"{t.label} has only {t.women} women, cannot remove {f}")
            t.warriors -= w
            t.women -= f
            t.to_remove = max(0, t.to_remove - w - f)

        self._run("remove_tokens", {"tribe": tribe, "warriors": warriors, "women": women, "reason": reason}, do)

    def adjust_food(self, tribe: int, delta: int, reason: str = "") -> None:
        """Add (or with a negative delta pay) food for an event or a fate card."""

        def do() -> None:
            self._in_turn()
            _text(reason)
            t = self._alive(tribe)
            if isinstance(delta, bool) or not isinstance(delta, int) or delta == 0:
                raise MammutError(f"food change must be a whole number other than 0, not {delta!r}")
            if t.food + delta < 0:
                raise MammutError(f"{t.label} has only {t.food} food, cannot pay {-delta}")
            t.food += delta

        self._run("adjust_food", {"tribe": tribe, "delta": delta, "reason": reason}, do)

    def play_fate_card(self, tribe: int, count: int = 1) -> None:
        """A tribe played (discarded) fate cards; it refills only at the end of the season."""

        def do() -> None:
            self._in_turn()
            t = self._alive(tribe)
            n = _count(count, "cards played")
            if n == 0:
                raise MammutError("play at least one card")
            if n > t.fate_cards:
                raise MammutError(f"{t.label} holds only {t.fate_cards} fate cards, cannot play {n}")
            t.fate_cards -= n

        self._run("play_fate_card", {"tribe": tribe, "count": count}, do)

    def set_fire(self, tribe: int, has_fire: bool = True) -> None:
        """Advanced rules: a tribe caught fire (kept in one of its camps) or lost it."""

        def do() -> None:
            self._in_turn()
            if not self.advanced:
                raise MammutError("fire is part of the advanced rules, which this game does not use")
            t = self._alive(tribe)
            if not isinstance(has_fire, bool):
                raise MammutError("fire is yes or no")
            if has_fire and t.camps == 0:
                raise MammutError(f"{t.label} has no camp to keep the fire in")
            t.fire = has_fire

        self._run("set_fire", {"tribe": tribe, "has_fire": has_fire}, do)

    def roll_die(self, reason: str = "") -> int:
        """A die for the table (an event's region 1-6, a card), rolled and logged."""
        _text(reason)
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
                raise MammutError(f"{t.label} has already reported survival this turn")
            for name, v in (("fishing", fishing), ("gathering", gathering),
                            ("crops_intact", crops_intact), ("crops_damaged", crops_damaged)):  # fmt: skip
                n = _count(v, name.replace("_", " "))
                if n > t.people:
                    raise MammutError(
                        f"{t.label} has {t.people} warriors and women: it cannot occupy {n} spaces for {name.replace('_', ' ')}"
                    )
            if crops_intact + crops_damaged > t.people:
                raise MammutError(f"{t.label} has {t.people} warriors and women: it cannot occupy {crops_intact + crops_damaged} crops")
            income = R.food_income(
                self.season, R.is_last_summer_turn(self.season, self.turn),
                fishing, gathering, crops_intact, crops_damaged, t.kills_food,
            )  # fmt: skip
            res = R.survive(t.food, income, t.people, winter=self.winter, advanced=self.advanced, fire=t.fire)
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
                raise MammutError(f"{t.label} has already had its births this season")
            one = _count(camps_one_woman, "camps with one woman")
            two = _count(camps_two_plus, "camps with two or more women")
            if one + two > t.camps:
                raise MammutError(f"{t.label} has only {t.camps} camps, not {one + two}")
            if one + 2 * two > t.women:
                raise MammutError(
                    f"{t.label} has only {t.women} women: {one} camps with one and {two} with two or more need {one + 2 * two}"
                )
            babies, dice = R.roll_births(R.births_due(one, two), self._die)
            out = R.apply_births(t.warriors, t.women, babies)
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

    def sow(self, tribe: int, crops: int) -> None:
        """Phase 8 (end of winter) or setup: plant crops on plain villages, 1 food each."""

        def do() -> None:
            self._need_phase(Phase.SOWING, Phase.SETUP)
            t = self._alive(tribe)
            n = _count(crops, "crops")
            if n == 0:
                raise MammutError("sow at least one crop")
            t.food = R.sow(t.food, t.villages - t.sown, n)
            t.sown += n

        self._run("sow", {"tribe": tribe, "crops": crops}, do)

    # --- resurrection ---------------------------------------------------------------

    def resurrect(self, tribe: int) -> None:
        """A tribe eliminated in the first year restarts once with 3 warriors, 1 woman,
        8 food and 3 fate cards, on a free edge space, early in the next turn."""

        def do() -> None:
            t = self.tribe(tribe)
            R.check_resurrection(t.eliminated, t.resurrection_used, t.eliminated_year)
            if self.phase not in RESURRECTION_PHASES or self.turn_number != (t.eliminated_turn or 0) + 1:
                raise MammutError(
                    f"{t.label} comes back at the start of the turn after its elimination "
                    f"(turn {(t.eliminated_turn or 0) + 1}), before the tribes move"
                )
            t.eliminated = False
            t.resurrection_used = True
            t.warriors, t.women = R.RESURRECTION_WARRIORS, R.RESURRECTION_WOMEN
            t.villages = t.caves = 0
            t.food, t.fate_cards = R.RESURRECTION_FOOD, R.RESURRECTION_CARDS
            t.fire = False
            t.announced_turn = None

        self._run("resurrect", {"tribe": tribe}, do)

    def can_resurrect(self) -> list[int]:
        """Tribes that may resurrect right now."""
        out = []
        for t in self.tribes:
            if (
                t.eliminated
                and not t.resurrection_used
                and t.eliminated_year == 1
                and self.phase in RESURRECTION_PHASES
                and self.turn_number == (t.eliminated_turn or 0) + 1
            ):
                out.append(t.number)
        return out

    # --- prompts --------------------------------------------------------------------

    def _when(self) -> str:
        return f"Year {self.year}, {self.season} turn {self.turn} (game turn {self.turn_number})"

    def _labels(self, numbers: Sequence[int]) -> str:
        return ", ".join(self.tribe(n).label for n in numbers)

    def phase_prompt(self) -> str:
        """What the table must be told or asked now, in plain words. First line: the heading."""
        p = self.phase
        lines: list[str] = []
        if p == Phase.SETUP:
            start_food = R.FIRST_GAME_FOOD if self.first_game else R.START_FOOD
            lines += [
                "Setup",
                "Clockwise from the first player, each tribe places 1 camp, 2 women and 5 warriors on a free space "
                "(no camp next to another tribe's camp unless a river divides them).",
                f"Each tribe starts with {start_food} food "
                f"and {R.hand_size(self.n_tribes)} fate cards.",
                "Tell me who placed first and every camp placed on a mountain (a cave).",
                "A village on a plain may sow a crop now for 1 food.",
                "The season marker goes on the 2nd summer turn.",
            ]
            return "\n".join(lines)
        if p == Phase.GAME_OVER:
            if self.extinct:
                return "Game over\nOnly animals are left: mankind is extinct and everybody loses."
            return (
                f"Game over\n{self._labels(self.winners)} "
                f"{'wins' if len(self.winners) == 1 else 'share the victory'}: "
                f"{R.VICTORY_CAMPS} or more camps at the end of two turns running"
                f"{' and fire' if self.advanced else ''}."
            )
        lines.append(f"{self._when()} - phase {p.number}: {p.value.replace('_', ' ')}")
        if p == Phase.EVENTS:
            lines += [
                "Remove all fire and flood markers.",
                f"Draw one {self.season} event card, show it and resolve it now.",
                "Tell me every change of food, warriors, women, camps or fire; I can roll a die for a region (1-6).",
            ]
        elif p == Phase.NEW_ANIMALS:
            lines += [
                f"Draw {self.animals_to_draw} animal tokens from the bag.",
                "Place each on the edge space its back shows: a brown capital letter is a mountain, "
                "a small green letter a plain or forest.",
            ]
        elif p == Phase.ANIMAL_MOVEMENT:
            lines += [
                f"Direction die: {self.direction}. Read it on the die compass.",
                "Animals sharing a space with people stay. All others move their full distance that way: "
                "wolves 3, sabre-tooth tigers 3, bears 2, bison 2, rhinos 1, mammoths 1.",
                "Blocked at the start: the opposite way. They stop at an obstacle, at people, or on their own kind "
                "(a horde). Bison, rhinos and mammoths trample crops.",
            ]
        elif p == Phase.TRIBES_MOVE:
            lines += [
                f"Play order: {self._labels(self.play_order)} ({self.order_reason}"
                + (f", dice {self.order_rolls}" if self.order_rolls else "")
                + ").",
                "In turn, each tribe moves its people 1 or 2 spaces (stop on a mountain, no crossing a lake or a river).",
                "A warrior and a woman alone on a free space may make a camp instead of moving: "
                "tell me every camp made or abandoned" + (" and every fire caught." if self.advanced else "."),
            ]
        elif p == Phase.COMBAT:
            lines += [
                f"Fight wherever tribes meet each other or animals: all of {self._labels(self.play_order[:1])}'s fights "
                f"first, then clockwise ({self._labels(self.play_order)}).",
                "Tell me each fight's sides (warriors, women, own village or cave; animal kind and number) and I roll.",
                "Women alone with enemy warriors are captured without a fight. Tell me every camp taken or burnt.",
            ]
            lines += [f"Fought: {f['message']}" for f in self.fights]
        elif p == Phase.SURVIVAL:
            asks = ["spaces on a lake shore or river (fishing)"]
            if self.season == R.SUMMER:
                asks.append("forest spaces (gathering)")
            if R.is_last_summer_turn(self.season, self.turn):
                asks.append(f"occupied intact and damaged crops (harvest {R.HARVEST_INTACT} and {R.HARVEST_DAMAGED} food)")
            lines.append("For each tribe tell me the spaces it occupies: " + "; ".join(asks) + ".")
            for t in self.living():
                eat = R.food_eaten(t.people, self.winter, self.advanced, t.fire)
                if t.survival is None:
                    lines.append(f"{t.label}: {t.food} food, kills {t.kills_food}, {t.people} people eat {eat}.")
                elif t.to_remove:
                    lines.append(f"{t.label}: not enough food, remove {t.to_remove} warriors or women (your choice).")
                else:
                    lines.append(f"{t.label}: fed, {t.food} food left.")
        elif p == Phase.BIRTHS:
            lines.append("For each tribe tell me its camps with exactly one woman and with two or more; I roll the births.")
            for t in self.living():
                if not t.camps:
                    continue
                if t.births is None:
                    lines.append(f"{t.label}: {t.camps} camps, {t.women} women - waiting.")
                else:
                    b = t.births
                    lost = b["warriors_lost"] + b["women_lost"]
                    lines.append(
                        f"{t.label}: {b['warriors_born']} warriors and {b['women_born']} women born"
                        + (f", {lost} lost (no tokens left)" if lost else "")
                        + "."
                    )
        elif p == Phase.SOWING:
            lines.append("Each tribe may plant a crop on each of its villages on a plain, for 1 food per crop. Tell me the crops sown.")
        elif p == Phase.FATE_CARDS:
            size = R.hand_size(self.n_tribes)
            if self.fate_drawn:
                lines.append(f"Draw one fate card each: {self._labels(self.fate_drawn)} (hand below {size}).")
            else:
                lines.append(f"Every hand holds {size} cards or more: nobody draws.")
        elif p == Phase.END_OF_TURN:
            lines.append("Move the season marker one space.")
            if self.announced:
                for n in self.announced:
                    lines.append(
                        f"{self.tribe(n).label} holds {self.tribe(n).camps} camps and announces it: still "
                        f"{R.VICTORY_CAMPS} at the end of next turn"
                        + (" with fire" if self.advanced else "")
                        + " wins."
                    )
            else:
                lines.append(f"No tribe holds {R.VICTORY_CAMPS} camps.")
        back = self.can_resurrect()
        if back:
            lines.append(
                f"{self._labels(back)} may come back once: 3 warriors and 1 woman on a free edge space, 8 food, 3 fate cards."
            )
        return "\n".join(lines)

    # --- serialisation and replay ---------------------------------------------------

    def _state(self) -> dict:
        d: dict[str, Any] = {k: copy.deepcopy(getattr(self, k)) for k in _STATE}
        d["phase"] = self.phase.value
        d["tribes"] = [t.to_dict() for t in self.tribes]
        d["log_length"] = len(self.log)
        return d

    def _load_state(self, d: dict) -> None:
        for k in _STATE:
            setattr(self, k, copy.deepcopy(d[k]))
        self.phase = Phase(d["phase"])
        # in place, so Tribe objects a caller holds stay live after a refused action
        for t, td in zip(self.tribes, d["tribes"]):
            for f in Tribe._FIELDS:
                setattr(t, f, copy.deepcopy(td[f]))
        del self.log[d["log_length"] :]

    def to_dict(self) -> dict:
        """The whole game, JSON-safe: settings, books, calendar, phase and the action log."""
        state = self._state()
        del state["log_length"]
        return {
            "version": self.VERSION,
            "n_tribes": self.n_tribes,
            "first_game": self.first_game,
            "advanced": self.advanced,
            "state": state,
            "log": copy.deepcopy(self.log),
        }

    @classmethod
    def from_dict(cls, d: dict, *, roll: Roll | random.Random) -> MammutGame:
        """Rebuild a game saved by `to_dict`; dice continue from `roll`."""
        try:
            if d.get("version") != cls.VERSION:
                raise MammutError(f"unknown game record version {d.get('version')!r}")
            first = d["log"][0]["args"]
            game = cls(d["n_tribes"], roll=roll, names=first["names"], first_game=d["first_game"], advanced=d["advanced"])
            state = dict(d["state"])
            state["log_length"] = 0
            game._load_state(state)
            game.log = copy.deepcopy(d["log"])
        except MammutError:
            raise
        except (KeyError, IndexError, TypeError, ValueError) as e:
            raise MammutError(f"the game record is damaged ({e!r})") from e
        return game

    @classmethod
    def replay(cls, log: Sequence[dict], roll: Roll | random.Random | None = None) -> MammutGame:
        """Rebuild a game by replaying its action log.

        With `roll` None the dice recorded in the log are used (resume after a power cut);
        otherwise `roll` supplies them (it must give the same sequence as the original)."""
        if not log or log[0].get("action") != "new_game":
            raise MammutError("a game log starts with its new_game entry")
        feed = _Feed() if roll is None else None
        args = log[0]["args"]
        game = cls(args["n_tribes"], roll=feed if feed is not None else roll, names=args["names"],
                   first_game=args["first_game"], advanced=args["advanced"])  # fmt: skip
        for entry in log[1:]:
            action = entry.get("action")
            if action not in ACTIONS:
                raise MammutError(f"unknown action {action!r} in the game log (entry {entry.get('seq')})")
            if feed is not None:
                feed.queue = list(entry.get("rolls", []))
            getattr(game, action)(**entry.get("args", {}))
            if feed is not None and feed.queue:
                raise MammutError(f"the game log records more dice than entry {entry.get('seq')} needs: the log is damaged")
        return game
