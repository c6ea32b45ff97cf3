"""Valley of the Mammoths: the pure rules of a fight, round by round (no state, no I/O).

Each side rolls one die and adds its bonus (+1 a warrior, +1 an animal, +1 own village,
+2 own cave, any extra); every side below the highest total
loses one token of its choice; ties roll again. Dice come in as a `roll() -> int`.
The game applies an outcome to the tribes' books in `fights`.

Decisions where the rulebook is silent:

* Combat with three or more tribes uses the ordinary bonuses; every side below the
  highest total loses one token; if all sides tie nobody loses and everyone rerolls.
* The footnote "1 animale solitario o 1 guerriero solitario hanno un +1 di bonus da
  combattimento" (rulebook line 151) only says that the per-warrior / per-animal +1 also
  applies to a single one; it is not a second +1 (MAMMUT.md, phase 5): a lone warrior has
  +1, a lone animal +1, and one warrior never equals two.
* Food for killed animals goes to the tribe only if it wins the fight (the rulebook:
  "the winner receives food for each animal killed"); it is counted in survival.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .rules import CAMP_BONUS, CAMP_KINDS, CAVE, VILLAGE, WARRIOR, WOMAN, MammutError, Roll, check_die


@dataclass
class Fighter:
    """One side of a fight, as it stands now.

    People sides fill warriors/women (women only count when they actually fight: against
    animals, or women against women) and `camp` when fighting in their own camp.
    Animal sides fill `animals` (one kind: a horde fights together). `extra` is any further
    bonus (fire against animals, a fate card). `lose_first` is the token a people side
    gives up first when it loses a round ("warrior" or "woman") unless it `choose`s anew
    after every lost round, as the rulebook says (the game then asks it).
    """

    label: str
    warriors: int = 0
    women: int = 0
    animals: int = 0
    camp: str | None = None
    extra: int = 0
    lose_first: str = WARRIOR
    choose: bool = False  # the side picks its lost token each round (the game asks it)

    @property
    def tokens(self) -> int:
        return self.warriors + self.women + self.animals

    def validate(self) -> None:
        for name, v in (("warriors", self.warriors), ("women", self.women), ("animals", self.animals),
                        ("extra", self.extra)):
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise MammutError(f"{self.label}: {name} must be a whole number 0 or more, not {v!r}")
        if self.tokens == 0:
            raise MammutError(f"{self.label} has nobody in the fight")
        if self.animals and (self.warriors or self.women):
            raise MammutError(f"{self.label}: animals and people fight on different sides")
        if self.camp is not None and self.camp not in CAMP_KINDS:
            raise MammutError(f"{self.label}: camp must be {VILLAGE}, {CAVE} or none, not {self.camp!r}")
        if self.camp is not None and self.animals:
            raise MammutError(f"{self.label}: animals have no camp")
        if self.lose_first not in (WARRIOR, WOMAN):
            raise MammutError(f"{self.label}: the token lost first is {WARRIOR} or {WOMAN}, not {self.lose_first!r}")


def combat_bonus(f: Fighter) -> int:
    """+1 per warrior (women nothing), +1 own village, +2 own cave, +1 per animal, plus
    any extra. A lone warrior or animal has its own +1 and no more (module docstring)."""
    return f.warriors + f.animals + CAMP_BONUS.get(f.camp or "", 0) + f.extra


@dataclass
class CombatRound:
    dice: list[int | None]  # per side; None for a side already gone
    totals: list[int | None]
    losers: list[int]  # indices of the sides that lost a token this round (empty: all tied)
    lost: list[str]  # token kind each loser gave up


@dataclass
class CombatOutcome:
    winner: int  # index of the side left standing
    rounds: list[CombatRound]
    losses: list[dict[str, int]]  # per side: {"warriors": n, "women": n, "animals": n}
    final: list[Fighter]

    def to_dict(self) -> dict:
        return {
            "winner": self.winner,
            "rounds": [
                {"dice": r.dice, "totals": r.totals, "losers": r.losers, "lost": r.lost} for r in self.rounds
            ],
            "losses": self.losses,
        }


MAX_TIED_ROLLS = 1000  # only a broken dice source ties this often


LOSS_KEY = {"animal": "animals", WARRIOR: "warriors", WOMAN: "women"}


def needs_choice(f: Fighter) -> bool:
    """Whether a side that lost a round chooses its token: a people side with both warriors
    and women fighting and no choice made in advance ("a sua scelta", rulebook line 153)."""
    return f.choose and f.warriors > 0 and f.women > 0


def lose_one(f: Fighter, kind: str | None = None) -> str:
    """Remove one token from `f`: an animal, the `kind` chosen, else the side's standing
    preference (`lose_first`, falling back to what it has). Returns the kind removed."""
    if f.animals:
        f.animals -= 1
        return "animal"
    if kind is None:
        kind = WOMAN if (f.lose_first == WOMAN and f.women) or not f.warriors else WARRIOR
    if kind not in (WARRIOR, WOMAN):
        raise MammutError(f"the token lost is a {WARRIOR} or a {WOMAN}, not {kind!r}")
    if (f.warriors if kind == WARRIOR else f.women) == 0:
        raise MammutError(f"{f.label} has no {kind} left in this fight")
    if kind == WARRIOR:
        f.warriors -= 1
    else:
        f.women -= 1
    return kind


def roll_round(state: Sequence[Fighter], roll: Roll) -> CombatRound:
    """One round: every side still standing rolls one die plus its bonus; every side below
    the highest total loses a token (`losers`; empty when all tie). Nothing is removed here:
    `lost` is left empty for the caller to fill with `lose_one`."""
    alive = [i for i, s in enumerate(state) if s.tokens > 0]
    dice: list[int | None] = [None] * len(state)
    totals: list[int | None] = [None] * len(state)
    for i in alive:
        dice[i] = check_die(roll())
        totals[i] = dice[i] + combat_bonus(state[i])  # type: ignore[operator]
    top = max(t for t in totals if t is not None)
    return CombatRound(dice, totals, [i for i in alive if totals[i] < top], [])  # type: ignore[operator]


def standing(state: Sequence[Fighter]) -> list[int]:
    """The sides with tokens left."""
    return [i for i, s in enumerate(state) if s.tokens > 0]


def resolve_combat(sides: Sequence[Fighter], roll: Roll) -> CombatOutcome:
    """Fight round by round until one side is left, each loser giving up its standing
    preference (`lose_first`). The game asks a side's choice round by round instead
    (`fights`); this is the whole fight at once, for the rules' tests and tools.
    """
    if len(sides) < 2:
        raise MammutError("a fight needs at least two sides")
    for s in sides:
        s.validate()
    state = [Fighter(**vars(s)) for s in sides]
    losses = [{"warriors": 0, "women": 0, "animals": 0} for _ in state]
    rounds: list[CombatRound] = []
    ties = 0
    while len(standing(state)) > 1:
        r = roll_round(state, roll)
        for i in r.losers:
            kind = lose_one(state[i])
            r.lost.append(kind)
            losses[i][LOSS_KEY[kind]] += 1
        rounds.append(r)
        if not r.losers:
            ties += 1
            if ties > MAX_TIED_ROLLS:
                raise ValueError("the dice source keeps tying: is it broken?")
    return CombatOutcome(standing(state)[0], rounds, losses, state)


def camp_raid(loser_food: int, last_camp: bool) -> int:
    """Food taken with an enemy camp: 25%, or 50% of the loser's last camp, rounded down."""
    if loser_food < 0:
        raise MammutError("food cannot be negative")
    return loser_food // 2 if last_camp else loser_food // 4
