"""Valley of the Mammoths: the pure rules of feeding and growing a tribe: survival (food
gained and eaten), births and sowing (no state, no I/O; dice come in as `roll() -> int`).

Decision where the rulebook is silent:

* Advanced survival: with food short, a tribe loses the fewest tokens whose remaining
  ration (1.5 each in winter without fire, total rounded down) the food can cover.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .rules import (CROP_MARKERS, HARVEST_DAMAGED, HARVEST_INTACT, MAX_WARRIORS, MAX_WOMEN, SUMMER, WARRIOR, WOMAN,
                    MammutError, Roll, check_die)


def food_income(
    season: str,
    last_summer_turn: bool,
    fishing: int = 0,
    gathering: int = 0,
    crops_intact: int = 0,
    crops_damaged: int = 0,
    kills: int = 0,
) -> int:
    """Food gained this turn: fishing 1 per occupied lake-shore/river space, gathering 1 per
    occupied forest (summer only), harvest 8 per occupied intact crop and 4 per damaged crop
    (last summer turn only), plus food from kills."""
    for name, v in (
        ("fishing", fishing),
        ("gathering", gathering),
        ("intact crops", crops_intact),
        ("damaged crops", crops_damaged),
        ("kills", kills),
    ):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise MammutError(f"{name} must be a whole number 0 or more, not {v!r}")
    if gathering and season != SUMMER:
        raise MammutError("gathering gives food only in summer: report 0 forests in winter")
    if (crops_intact or crops_damaged) and not last_summer_turn:
        raise MammutError("crops are harvested only on the last summer turn: report 0 crops now")
    if crops_intact + crops_damaged > CROP_MARKERS:
        raise MammutError(f"there are only {CROP_MARKERS} crop markers in the game")
    return fishing + gathering + HARVEST_INTACT * crops_intact + HARVEST_DAMAGED * crops_damaged + kills


def food_eaten(people: int, winter: bool = False, advanced: bool = False, fire: bool = False) -> int:
    """Each warrior and woman eats 1; advanced rules: 1.5 in winter without fire, total rounded down."""
    if people < 0:
        raise MammutError("people cannot be negative")
    if advanced and winter and not fire:
        return (3 * people) // 2
    return people


@dataclass(frozen=True)
class SurvivalResult:
    income: int
    eaten: int  # food actually eaten by the tokens that survive
    food: int  # the tribe's food afterwards
    remove: int  # tokens the tribe must remove (its choice of warriors or women)


def survive(
    food: int, income: int, people: int, *, winter: bool = False, advanced: bool = False, fire: bool = False
) -> SurvivalResult:
    """Add the income, feed the tribe; a shortfall becomes tokens to remove.

    With 1 food per token the tokens to remove equal the food missing. With the advanced
    winter ration the tribe removes the fewest tokens the food can no longer feed.
    """
    if food < 0 or income < 0 or people < 0:
        raise MammutError("food, income and people cannot be negative")
    available = food + income
    remove = 0
    while food_eaten(people - remove, winter, advanced, fire) > available:
        remove += 1
    eaten = food_eaten(people - remove, winter, advanced, fire)
    return SurvivalResult(income, eaten, available - eaten, remove)


# --- births --------------------------------------------------------------------------


def births_due(camps_one_woman: int, camps_two_plus: int) -> int:
    """1 birth per camp holding one woman, 2 per camp holding two or more."""
    if camps_one_woman < 0 or camps_two_plus < 0:
        raise MammutError("camp counts cannot be negative")
    return camps_one_woman + 2 * camps_two_plus


def _sex(die: int) -> str:
    return WOMAN if die <= 2 else WARRIOR


def roll_births(n: int, roll: Roll) -> tuple[list[str], list[list[int]]]:
    """Roll each of `n` births: 1-2 woman, 3-5 warrior, 6 twins (roll two more dice, and
    on those a 6 is a warrior). Returns the babies and each birth's dice."""
    if n < 0:
        raise MammutError("births cannot be negative")
    babies: list[str] = []
    dice: list[list[int]] = []
    for _ in range(n):
        d = check_die(roll())
        if d == 6:
            twins = [check_die(roll()), check_die(roll())]
            babies += [_sex(t) for t in twins]
            dice.append([d, *twins])
        else:
            babies.append(_sex(d))
            dice.append([d])
    return babies, dice


@dataclass(frozen=True)
class BirthOutcome:
    warriors: int  # after the births
    women: int
    warriors_born: int
    women_born: int
    warriors_lost: int  # born beyond the 10-warrior cap
    women_lost: int  # born beyond the 6-woman cap


def apply_births(warriors: int, women: int, babies: Sequence[str]) -> BirthOutcome:
    """Add the babies; a birth with no token of its sex left in the box is lost."""
    w_born = sum(1 for b in babies if b == WARRIOR)
    f_born = sum(1 for b in babies if b == WOMAN)
    new_w = min(MAX_WARRIORS, warriors + w_born)
    new_f = min(MAX_WOMEN, women + f_born)
    return BirthOutcome(new_w, new_f, new_w - warriors, new_f - women, warriors + w_born - new_w, women + f_born - new_f)


# --- sowing --------------------------------------------------------------------------


def sow(food: int, villages: int, crops: int) -> int:
    """End of winter: a crop on each plain village costs 1 food; returns the food left."""
    if isinstance(crops, bool) or not isinstance(crops, int) or crops < 0:
        raise MammutError(f"crops must be a whole number 0 or more, not {crops!r}")
    if crops > villages:
        raise MammutError(f"crops grow only on your villages on a plain: you have {villages} villages, not {crops}")
    if crops > food:
        raise MammutError(f"sowing {crops} crops costs {crops} food, you have only {food}")
    return food - crops
