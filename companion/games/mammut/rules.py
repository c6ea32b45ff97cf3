"""Valley of the Mammoths: the constants and the pure rules of the turn (no state, no I/O).

Source: the Italian rules (2001 edition) summarised in MAMMUT.md. Components and starting
books, the calendar, animals, the play order, fate cards, the end of turn and
resurrection live here; the dice rules of a fight are in `combat`, feeding, births and
sowing in `survival`. Every function is pure: dice come in as a `roll() -> int` callable
returning 1..6 (the game's is `dice.Dice`), so callers and tests decide where randomness
comes from. Invalid input raises `MammutError`, a `ValueError` whose message a player
can act on.

Decisions where the rulebook is silent (a table's reading; see also `combat`, `survival`):

* Victory: announcing needs only 4+ camps; winning (advanced rules) needs fire at the
  end of the deciding turn. Several tribes winning at the same end of turn share it.
* Hand size for fate cards follows the number of tribes at the start of the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

from companion.i18n import _
from companion.util.errors import CompanionError

Roll = Callable[[], int]


class MammutError(CompanionError, ValueError):
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
EVENT_DECK = 15  # "15 Carte Evento Estate ... 15 Carte Evento Inverno" (rulebook lines 15-16), one deck a season

# The six tribes' colors, picked once at set-up in seat order (MAMMUT.md leaves the box's
# colors to the table: these are the words the companion uses for them).
TRIBE_COLORS = ("red", "yellow", "green", "blue", "black", "white")

# An event's region: "6 regioni Pianure, 6 regioni Foreste e 6 regioni Montagne ... indicata
# con un numero da 1 a 6" (rulebook line 80); volcanoes count as mountains (line 78).
PLAIN, FOREST, MOUNTAIN = "plain", "forest", "mountain"
TERRAINS = (PLAIN, FOREST, MOUNTAIN)

# "Until the end of the season" effects the table can note (rulebook line 84: "siccità,
# ecc."): the rulebook prints no card texts, so these are the kinds a table picks from.
SEASON_NOTES = ("drought", "flood", "fire", "sickness", "cold", "card")

VILLAGE = "village"  # camp on a plain or forest
CAVE = "cave"  # camp on a mountain
CAMP_KINDS = (VILLAGE, CAVE)
CAMP_BONUS = {VILLAGE: 1, CAVE: 2}
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


def every_camp_a_woman(label: str, camps: int, reported: int) -> str:
    """Births: the camps with one woman plus those with two or more are all the tribe's camps."""
    return _("every camp keeps at least 1 woman: camps with 1 woman plus camps with 2 or more "
             "must be {tribe}'s {camps} camps, not {reported}").format(tribe=label, camps=camps, reported=reported)


def no_crop_markers(left: int, crops: int) -> str:
    """Sowing beyond the box's crop markers."""
    return _("the box has only {markers} crop markers: {left} left, not {crops}").format(
        markers=CROP_MARKERS, left=left, crops=crops)


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
