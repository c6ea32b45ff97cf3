"""Valley of the Mammoths: constants and pure rule functions (no state, no I/O).

Source: the Italian rules (2001 edition) summarised in MAMMUT.md. Every function here is
pure: dice come in as a `roll() -> int` callable returning 1..6, so callers (and tests)
decide where randomness comes from. Invalid input raises `MammutError`, a `ValueError`
whose message a player can act on.

Decisions where the rulebook is silent (a table's reading, kept in one place):

* Combat with three or more tribes uses the ordinary bonuses; every side below the
  highest total loses one token; if all sides tie nobody loses and everyone rerolls.
* "Lone" (+1) means the side has exactly one fighting token and it is a warrior or an
  animal; women watching a warriors' fight do not count, a warrior fighting animals
  together with a woman is not lone.
* Food for killed animals goes to the tribe only if it wins the fight (the rulebook:
  "the winner receives food for each animal killed"); it is counted in survival.
* Advanced survival: with food short, a tribe loses the fewest tokens whose remaining
  ration (1.5 each in winter without fire, total rounded down) the food can cover.
* Victory: announcing needs only 4+ camps; winning (advanced rules) needs fire at the
  end of the deciding turn. Several tribes winning at the same end of turn share it.
* Hand size for fate cards follows the number of tribes at the start of the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

Roll = Callable[[], int]


class MammutError(ValueError):
    """Input the rules refuse; the message tells the players what to change."""


# --- components and starting books ------------------------------------------------

MIN_TRIBES = 2
MAX_TRIBES = 6
MAX_WARRIORS = 10
MAX_WOMEN = 6
MAX_CAMPS = 5
START_WARRIORS = 5
START_WOMEN = 2
START_FOOD = 12
FIRST_GAME_FOOD = 15
CROP_MARKERS = 9
FATE_DECK = 40

VILLAGE = "village"  # camp on a plain or forest
CAVE = "cave"  # camp on a mountain
CAMP_KINDS = (VILLAGE, CAVE)
CAMP_BONUS = {VILLAGE: 1, CAVE: 2}
LONE_BONUS = 1
FIRE_BONUS = 1  # advanced rules, only against animals

WARRIOR = "warrior"
WOMAN = "woman"

VICTORY_CAMPS = 4

RESURRECTION_WARRIORS = 3
RESURRECTION_WOMEN = 1
RESURRECTION_FOOD = 8
RESURRECTION_CARDS = 3

HARVEST_INTACT = 8
HARVEST_DAMAGED = 4

# --- calendar ----------------------------------------------------------------------

SUMMER = "summer"
WINTER = "winter"
SEASONS = (SUMMER, WINTER)
TURNS_PER_SEASON = 3
TURNS_PER_YEAR = 2 * TURNS_PER_SEASON
# The season marker starts on the 2nd summer turn: year 1 has only two summer turns.
START_YEAR, START_SEASON, START_TURN = 1, SUMMER, 2
NO_EVENT_TURNS = 2  # no event card in the first two turns of the game


def turn_number(year: int, season: str, turn: int) -> int:
    """Turn of the game counted from 1 (year 1, summer turn 2 is turn 1)."""
    if season not in SEASONS:
        raise MammutError(f"season must be {SUMMER} or {WINTER}, not {season!r}")
    if not 1 <= turn <= TURNS_PER_SEASON or year < 1:
        raise MammutError(f"no turn {turn} in year {year}")
    n = (year - 1) * TURNS_PER_YEAR + SEASONS.index(season) * TURNS_PER_SEASON + turn - START_TURN + 1
    if n < 1:
        raise MammutError("the game starts on the 2nd summer turn of year 1")
    return n


def calendar_of(number: int) -> tuple[int, str, int]:
    """(year, season, turn within season) of the game's turn `number` (1-based)."""
    if number < 1:
        raise MammutError(f"turn numbers start at 1, not {number}")
    slot = number - 1 + START_TURN - 1  # 0-based slot within the calendar from year 1 summer 1
    year, rest = divmod(slot, TURNS_PER_YEAR)
    season, turn = divmod(rest, TURNS_PER_SEASON)
    return year + 1, SEASONS[season], turn + 1


def next_turn(year: int, season: str, turn: int) -> tuple[int, str, int]:
    """The calendar position after (year, season, turn)."""
    return calendar_of(turn_number(year, season, turn) + 1)


def is_season_end(turn: int) -> bool:
    return turn == TURNS_PER_SEASON


def is_last_summer_turn(season: str, turn: int) -> bool:
    return season == SUMMER and turn == TURNS_PER_SEASON


def events_this_turn(number: int) -> bool:
    return number > NO_EVENT_TURNS


# --- animals -------------------------------------------------------------------------


@dataclass(frozen=True)
class Animal:
    name: str
    moves: int
    crosses_mountains: bool
    crosses_rivers: bool
    tramples_crops: bool
    food: int


ANIMALS: dict[str, Animal] = {
    a.name: a
    for a in (
        Animal("wolf", 3, True, False, False, 1),
        Animal("tiger", 3, True, False, False, 2),  # sabre-tooth tiger
        Animal("bear", 2, True, True, False, 3),
        Animal("bison", 2, False, False, True, 4),
        Animal("rhino", 1, False, False, True, 5),
        Animal("mammoth", 1, False, False, True, 6),
    )
}
ANIMAL_MOVES: dict[str, int] = {name: a.moves for name, a in ANIMALS.items()}
ANIMAL_FOOD: dict[str, int] = {name: a.food for name, a in ANIMALS.items()}

# (4-6 tribes, 2-3 tribes)
_ANIMAL_DRAWS = {"first": (6, 5), SUMMER: (4, 3), WINTER: (2, 1)}


def animal_count(tribes_in_game: int, season: str, first_turn: bool = False) -> int:
    """Animal tokens drawn from the bag in phase 2, by tribes still in the game."""
    if tribes_in_game < 0 or tribes_in_game > MAX_TRIBES:
        raise MammutError(f"there can be 0 to {MAX_TRIBES} tribes in the game, not {tribes_in_game}")
    if season not in SEASONS:
        raise MammutError(f"season must be {SUMMER} or {WINTER}, not {season!r}")
    big, small = _ANIMAL_DRAWS["first" if first_turn else season]
    return big if tribes_in_game >= 4 else small


def kill_food(animal: str, count: int = 1) -> int:
    """Food earned for killing `count` animals of one kind."""
    if animal not in ANIMALS:
        raise MammutError(f"unknown animal {animal!r}: one of {', '.join(ANIMALS)}")
    return ANIMAL_FOOD[animal] * count


def check_die(value: int) -> int:
    """A die result must be an int 1..6; anything else is a broken dice source."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise ValueError(f"a die shows 1 to 6, the dice source gave {value!r}")
    return value


# --- play order ----------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """What decides the first player: camps, then warriors + women, then food."""

    tribe: int
    camps: int
    people: int
    food: int


@dataclass
class PlayOrder:
    order: list[int]
    reason: str  # "placed first", "most camps", "most warriors and women", "most food", "die roll"
    tie_rolls: list[dict[str, int]] = field(default_factory=list)  # one {tribe: die} per reroll


def play_order(standings: Sequence[Standing], roll: Roll, first: int | None = None) -> PlayOrder:
    """First player then clockwise (increasing tribe number, wrapping).

    `first` forces the first player (first turn: the tribe that placed first).
    Otherwise: most camps; tie most warriors + women; tie most food; tie the tied
    tribes roll a die, highest wins, ties among the highest roll again.
    """
    if not standings:
        raise MammutError("no tribe is left to play")
    seats = sorted(s.tribe for s in standings)
    if len(set(seats)) != len(seats):
        raise MammutError("a tribe is listed twice")
    rolls: list[dict[str, int]] = []
    if first is not None:
        if first not in seats:
            raise MammutError(f"tribe {first} is not in the game")
        reason = "placed first"
    else:
        tied = list(standings)
        reason = "most camps"
        for key, why in (
            (lambda s: s.camps, "most camps"),
            (lambda s: s.people, "most warriors and women"),
            (lambda s: s.food, "most food"),
        ):
            best = max(key(s) for s in tied)
            tied = [s for s in tied if key(s) == best]
            reason = why
            if len(tied) == 1:
                break
        names = sorted(s.tribe for s in tied)
        while len(names) > 1:
            reason = "die roll"
            dice = {t: check_die(roll()) for t in names}
            rolls.append({str(t): d for t, d in dice.items()})
            top = max(dice.values())
            names = [t for t in names if dice[t] == top]
        first = names[0]
    i = seats.index(first)
    return PlayOrder(seats[i:] + seats[:i], reason, rolls)


# --- combat --------------------------------------------------------------------------


@dataclass
class Fighter:
    """One side of a fight, as it stands now.

    People sides fill warriors/women (women only count when they actually fight: against
    animals, or women against women) and `camp` when fighting in their own camp.
    Animal sides fill `animals` (one kind: a horde fights together). `extra` is any further
    bonus (fire against animals, a fate card). `lose_first` is the token a people side
    gives up first when it loses a round ("warrior" or "woman").
    """

    label: str
    warriors: int = 0
    women: int = 0
    animals: int = 0
    camp: str | None = None
    extra: int = 0
    lose_first: str = WARRIOR

    @property
    def tokens(self) -> int:
        return self.warriors + self.women + self.animals

    def validate(self) -> None:
        for name in ("warriors", "women", "animals", "extra"):
            v = getattr(self, name)
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
    """+1 per warrior (women nothing), +1 own village, +2 own cave, +1 per animal,
    +1 for a lone warrior or lone animal, plus any extra."""
    bonus = f.warriors + f.animals + CAMP_BONUS.get(f.camp or "", 0) + f.extra
    if f.tokens == 1 and (f.warriors == 1 or f.animals == 1):
        bonus += LONE_BONUS
    return bonus


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


_LOSS_KEY = {"animal": "animals", WARRIOR: "warriors", WOMAN: "women"}


def _lose_one(f: Fighter) -> str:
    if f.animals:
        f.animals -= 1
        return "animal"
    if (f.lose_first == WOMAN and f.women) or not f.warriors:
        f.women -= 1
        return WOMAN
    f.warriors -= 1
    return WARRIOR


def resolve_combat(sides: Sequence[Fighter], roll: Roll) -> CombatOutcome:
    """Fight round by round until one side is left.

    Each side rolls one die plus its bonus; every side below the highest total loses one
    token; when all totals tie everybody rolls again.
    """
    if len(sides) < 2:
        raise MammutError("a fight needs at least two sides")
    for s in sides:
        s.validate()
    state = [Fighter(**vars(s)) for s in sides]
    losses = [{"warriors": 0, "women": 0, "animals": 0} for _ in state]
    rounds: list[CombatRound] = []
    ties = 0
    while True:
        alive = [i for i, s in enumerate(state) if s.tokens > 0]
        if len(alive) == 1:
            break
        dice: list[int | None] = [None] * len(state)
        totals: list[int | None] = [None] * len(state)
        for i in alive:
            dice[i] = check_die(roll())
            totals[i] = dice[i] + combat_bonus(state[i])
        top = max(t for t in totals if t is not None)
        losers = [i for i in alive if totals[i] < top]
        lost: list[str] = []
        for i in losers:
            kind = _lose_one(state[i])
            lost.append(kind)
            losses[i][_LOSS_KEY[kind]] += 1
        rounds.append(CombatRound(dice, totals, losers, lost))
        if not losers:
            ties += 1
            if ties > MAX_TIED_ROLLS:
                raise ValueError("the dice source keeps tying: is it broken?")
    return CombatOutcome(alive[0], rounds, losses, state)


def camp_raid(loser_food: int, last_camp: bool) -> int:
    """Food taken with an enemy camp: 25%, or 50% of the loser's last camp, rounded down."""
    if loser_food < 0:
        raise MammutError("food cannot be negative")
    return loser_food // 2 if last_camp else loser_food // 4


# --- survival ------------------------------------------------------------------------


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


# --- fate cards ----------------------------------------------------------------------


def hand_size(n_tribes: int) -> int:
    """Fate cards dealt at the start, and the hand a tribe refills towards: 5, or 4 with 5-6 players."""
    if not MIN_TRIBES <= n_tribes <= MAX_TRIBES:
        raise MammutError(f"the game is for {MIN_TRIBES} to {MAX_TRIBES} tribes, not {n_tribes}")
    return 4 if n_tribes >= 5 else 5


def fate_draws(hands: Sequence[int], n_tribes: int) -> list[int]:
    """End of season: each tribe below the hand size draws exactly one card."""
    size = hand_size(n_tribes)
    return [1 if h < size else 0 for h in hands]


# --- end of turn ---------------------------------------------------------------------


@dataclass(frozen=True)
class VictoryStanding:
    tribe: int
    camps: int
    fire: bool
    announced: bool  # announced 4+ camps at the end of the previous turn


def end_of_turn(standings: Sequence[VictoryStanding], advanced: bool = False) -> tuple[list[int], list[int]]:
    """(winners, announcements) at the end of a turn.

    A tribe that announced last turn and still holds 4+ camps wins (advanced rules: it must
    also hold fire). Every other tribe holding 4+ camps must announce it now.
    """
    winners = [
        s.tribe for s in standings if s.announced and s.camps >= VICTORY_CAMPS and (s.fire or not advanced)
    ]
    announce = [s.tribe for s in standings if s.camps >= VICTORY_CAMPS and s.tribe not in winners]
    return winners, announce


def extinct(people: Sequence[int]) -> bool:
    """Only animals are left on the board: mankind is extinct and everybody loses."""
    return all(p == 0 for p in people)


def check_resurrection(eliminated: bool, used: bool, eliminated_year: int | None) -> None:
    """Raise unless a tribe may restart: eliminated in the first year, once per game."""
    if not eliminated:
        raise MammutError("only an eliminated tribe can be resurrected")
    if used:
        raise MammutError("each player may resurrect only once per game")
    if eliminated_year != 1:
        raise MammutError("only a tribe eliminated before the end of the first year may resurrect")
