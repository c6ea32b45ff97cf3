"""Every question the Mammut table is asked (the forms' prompts and choices) and every refusal of
an answer, as constants and functions with named fields; the rest of the table's words are
in `texts`. A translation plugs in here too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from . import rules as R
from .texts import ANIMAL_PLURAL, NOTE, SEASON, camps, tribe_label, women

if TYPE_CHECKING:  # type names only
    from .books import Tribe


# ----- answering a question ------------------------------------------------------------------------
CHOICE_HINT = "#=OK"  # under a list question before the first game (later: the title)


def number_keys(default: int | None) -> str:
    """The keys line under a number question: "#=OK(0) *=back A/B"."""
    return "#=OK" + (f"({default})" if default is not None else "") + " *=back A/B"


def entry(typed: str) -> str:
    return f"> {typed}_"


def choose_one_of(labels: Sequence[str]) -> str:
    return f"choose one of: {', '.join(labels)}"


TYPE_A_NUMBER = "type a number"


def type_between(lo: int, hi: int, value: int) -> str:
    return f"type {lo} to {hi}, not {value}"


def at_least(lo: int, value: int) -> str:
    return f"at least {lo}, not {value}"



# ----- the forms' questions (prompt, choices) and their refusals -----------------------------------
NO, YES = "No", "Yes"
TRIBES = f"How many tribes? ({R.MIN_TRIBES}-{R.MAX_TRIBES})"
FIRST_GAME = "First game?"
FIRST_GAME_NO, FIRST_GAME_YES = f"No ({R.START_FOOD} food)", f"Yes ({R.FIRST_GAME_FOOD} food)"
RULES, STANDARD, ADVANCED = "Rules?", "Standard", "Advanced (fire)"


def color_of(k: int) -> str:
    return f"Tribe {k}: color?"


def eliminated(t: Tribe) -> str:
    return f"{tribe_label(t)} has been eliminated"


def fishing(t: Tribe) -> str:
    return f"{tribe_label(t)} fishing: spaces on a lake shore or river?"


def gathering(t: Tribe) -> str:
    return f"{tribe_label(t)} gathering: forest spaces?"


def crops_intact(t: Tribe) -> str:
    return f"{tribe_label(t)} harvest: intact crops occupied?"


def crops_damaged(t: Tribe) -> str:
    return f"{tribe_label(t)} harvest: damaged crops occupied?"


def cannot_occupy(t: Tribe, spaces: int) -> str:
    return f"{tribe_label(t)} has {t.people} warriors and women: it cannot occupy {spaces} spaces"


def crops_at_most(t: Tribe) -> str:
    return f"{tribe_label(t)} occupies at most {t.people} crops of {R.CROP_MARKERS}"


def camps_one_woman(t: Tribe) -> str:
    return f"{tribe_label(t)} ({camps(t.camps)}, {women(t.women)}): camps with 1 woman?"


def only_camps(t: Tribe, value: int) -> str:
    return f"{tribe_label(t)} has only {t.camps} camps, not {value}"


def too_few_women(t: Tribe, one: int) -> str:
    return (f"{tribe_label(t)} has {women(t.women)} in {camps(t.camps)}: {t.camps - one} camps with 2 or more "
            f"and {one} with 1 need {one + 2 * (t.camps - one)}")


def camps_two_plus(t: Tribe) -> str:
    return f"{tribe_label(t)}: camps with 2 or more women?"


def hunger(t: Tribe, n: int) -> str:
    return f"{tribe_label(t)} removes {n}. Warriors? Rest women."


def hunger_range(t: Tribe, lo: int, hi: int) -> str:
    return (f"{tribe_label(t)} has {t.warriors} warriors and {t.women} women: remove {lo} to {hi} warriors "
            f"(and {t.to_remove} tokens in all)")


FIGHT_FIRST = "Fight: first tribe?"
ANOTHER_TRIBE, MORE_TRIBES = "Another tribe", "2+ other tribes"
TRIBES_IN_FIGHT = "How many tribes fight on this space, this one included?"
WOMEN_WATCH, WOMEN_FIGHT = "Watch", "Fight (fate card)"
A_WARRIOR, A_WOMAN = "A warrior", "A woman"
NOT_IN_CAMP, OWN_VILLAGE, OWN_CAVE = "No", "Own village", "Own cave"
VILLAGE, CAVE, CAVE_MOUNTAIN = "Village", "Cave", "Cave (mountain)"
CANNOT_FIGHT_ITSELF = "a tribe cannot fight itself"
BONUS_AT_MOST = "a bonus of at most 9"
ANIMALS_AT_MOST = "at most 20 animals"


def animals_choice(animal: str) -> str:
    return ANIMAL_PLURAL[animal].capitalize()


def fight_warriors(t: Tribe) -> str:
    return f"{tribe_label(t)} warriors in the fight?"


def fight_women(t: Tribe) -> str:
    return f"{tribe_label(t)} women in the fight?"


def in_own_camp(t: Tribe) -> str:
    return f"{tribe_label(t)} in its own camp?"


def only_warriors(t: Tribe, value: int) -> str:
    return f"{tribe_label(t)} has only {t.warriors} warriors, not {value}"


def only_women(t: Tribe, value: int) -> str:
    return f"{tribe_label(t)} has only {t.women} women, not {value}"


def fights_what(t: Tribe) -> str:
    return f"{tribe_label(t)} fights?"


def fights_which_tribe(t: Tribe) -> str:
    return f"{tribe_label(t)} fights whom?"


def tribe_number(k: int) -> str:
    return f"Side {k}: which tribe?"


def only_tribes(living: int) -> str:
    return f"{living} tribes are in the game: 3 to {living}"


def women_of(t: Tribe) -> str:
    return f"Women of {tribe_label(t)}..."


def lost_round(t: Tribe, mine: int, top: int) -> str:
    return f"{tribe_label(t)} lost {mine}-{top}: lose"


def fate_bonus(t: Tribe) -> str:
    return f"{tribe_label(t)} fate card bonus?"


def how_many_animals(animal: str) -> str:
    return f"How many {ANIMAL_PLURAL[animal]}?"


CAMP_TAKEN_BY = "Camp taken by tribe?"
CANNOT_TAKE_OWN_CAMP = "a tribe cannot take its own camp"
KEEP_OR_BURN, KEEP_IT, BURN_IT = "Keep it or burn it?", "Keep it", "Burn it"


def no_warrior_to_take(t: Tribe) -> str:
    return f"{tribe_label(t)} has no warrior to take a camp"


def takes_camp_of(t: Tribe) -> str:
    return f"{tribe_label(t)} takes whose camp?"


def no_camp(t: Tribe) -> str:
    return f"{tribe_label(t)} has no camp"


def camp_is_a(t: Tribe) -> str:
    return f"{tribe_label(t)}'s camp is a?"


WOMEN_CAPTURED_BY = "Women captured by tribe?"
CANNOT_CAPTURE_OWN = "a tribe cannot capture its own women"
THE_WOMEN, JOIN_CAPTOR, MASSACRED = "The women...", "Join the captor", "Are massacred"


def no_warrior(t: Tribe) -> str:
    return f"{tribe_label(t)} has no warrior"


def captures_women_of(t: Tribe) -> str:
    return f"{tribe_label(t)} takes women of?"


def no_women(t: Tribe) -> str:
    return f"{tribe_label(t)} has no women"


def how_many_women(t: Tribe) -> str:
    return f"How many women of {tribe_label(t)}?"


CAMP_MADE_BY, START_CAMP_OF, THE_CAMP_IS_A = "Camp made by tribe?", "Start camp of tribe?", "The camp is a?"
CAMP_ABANDONED_BY, ABANDONED_CAMP_IS_A = "Camp abandoned by tribe?", "Abandoned camp is a?"
REMOVE_TOKENS_OF = "Remove tokens of tribe?"


def warriors_removed(t: Tribe) -> str:
    return f"{tribe_label(t)}: warriors removed?"


def women_removed(t: Tribe) -> str:
    return f"{tribe_label(t)}: women removed?"


def cannot_remove_warriors(t: Tribe, value: int) -> str:
    return f"{tribe_label(t)} has only {t.warriors} warriors, cannot remove {value}"


def cannot_remove_women(t: Tribe, value: int) -> str:
    return f"{tribe_label(t)} has only {t.women} women, cannot remove {value}"


FOOD_FOR = "Food change for tribe?"
GAINS_FOOD, PAYS_FOOD = "Gains food", "Pays food"
FOOD_AT_MOST = "at most 99 at a time"


def food_change(t: Tribe) -> str:
    return f"{tribe_label(t)} food?"


def how_much_food(t: Tribe, gain: bool) -> str:
    return f"{tribe_label(t)} {'gains' if gain else 'pays'} how much food?"


def cannot_pay(t: Tribe, value: int) -> str:
    return f"{tribe_label(t)} has only {t.food} food, cannot pay {value}"


FATE_PLAYED_BY = "Fate cards played by?"


def no_fate_card(t: Tribe) -> str:
    return f"{tribe_label(t)} holds no fate card"


def cards_played(t: Tribe) -> str:
    return f"{tribe_label(t)}: cards played?"


def cannot_play(t: Tribe, value: int) -> str:
    return f"{tribe_label(t)} holds only {t.fate_cards} fate cards, cannot play {value}"


FIRE_WHICH = "Fire: which tribe?"
LOST_FIRE, HAS_FIRE = "Lost its fire", "Has fire"


def fire_now(t: Tribe) -> str:
    return f"{tribe_label(t)} now..."


COMES_BACK = "Which tribe comes back?"


def cannot_come_back(t: Tribe) -> str:
    return f"{tribe_label(t)} cannot come back now"


CROPS_SOWN_BY = "Crops sown by tribe?"


def crops_sown(t: Tribe) -> str:
    return f"{tribe_label(t)}: crops sown on plain villages?"


def no_room_to_sow(t: Tribe, room: int) -> str:
    return f"crops grow only on your villages on a plain: {tribe_label(t)} has {room} villages without one"


def cannot_sow(t: Tribe, room: int, markers_left: int) -> str | None:
    """Why `t` cannot sow now (rulebook: 1 food per crop, on its villages on a plain, one per
    space; the box holds 9 crop markers), or None."""
    if room <= 0:
        return f"{tribe_label(t)} cannot sow: crops grow only on its villages on a plain, and each has one"
    if t.food <= 0:
        return f"{tribe_label(t)} cannot sow: a crop costs 1 food and it has none"
    if markers_left <= 0:
        return f"nobody can sow: all {R.CROP_MARKERS} crop markers of the box are on the board"
    return None


def sowing_costs(t: Tribe, crops: int) -> str:
    return f"sowing {crops} crops costs {crops} food: {tribe_label(t)} has only {t.food}"


ADD_TOKENS_TO = "Tokens added to tribe?"


def warriors_added(t: Tribe) -> str:
    return f"{tribe_label(t)}: warriors added (a card)?"


def women_added(t: Tribe) -> str:
    return f"{tribe_label(t)}: women added (a card)?"


def warriors_room(t: Tribe) -> str:
    return f"{tribe_label(t)} has {t.warriors} warriors: at most {R.MAX_WARRIORS - t.warriors} more"


def women_room(t: Tribe) -> str:
    return f"{tribe_label(t)} has {t.women} women: at most {R.MAX_WOMEN - t.women} more"


REGION_OF = "The card's region is..."


def note_until(season: str) -> str:
    return f"Until {SEASON[season]} ends:"


def already_noted(note: str) -> str:
    return f"{NOTE[note]} is already noted until the end of the season"
