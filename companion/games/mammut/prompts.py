"""Every question the Mammut table is asked (the forms' prompts and choices) and every refusal of
an answer, as constants and functions with named fields; the rest of the table's words are
in `texts`. A translation plugs in here too: the constants are marked `N_` and the forms
show them with `_` when a question is built; the functions translate when called. Limits:
a list question (a prompt) is a title bar, 25 characters; a choice is 20; a number
question's prompt wraps at 21; a refusal wraps at 21.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from companion.i18n import N_, _

from . import rules as R
from .texts import animals, camps, capital, note_word, season, tribe_label, women

if TYPE_CHECKING:  # type names only
    from .books import Tribe


# ----- answering a question ------------------------------------------------------------------------
# NOTE: max 25 characters; the key # stays as it is
CHOICE_HINT = N_("#=OK")  # under a list question before the first game (later: the title)


def number_keys(default: int | None) -> str:
    """The keys line under a number question: "#=OK(0) *=back A/B"."""
    # NOTE: max 21 characters; the keys # * A/B stay as they are; {default}: the answer # gives
    return (_("#=OK({default}) *=back A/B").format(default=default) if default is not None
            else _("#=OK *=back A/B"))


def entry(typed: str) -> str:
    return f"> {typed}_"


def choose_one_of(labels: Sequence[str]) -> str:
    return _("choose one of: {choices}").format(choices=", ".join(labels))


TYPE_A_NUMBER = N_("type a number")


def type_between(lo: int, hi: int, value: int) -> str:
    return _("type {lo} to {hi}, not {value}").format(lo=lo, hi=hi, value=value)


def at_least(lo: int, value: int) -> str:
    return _("at least {lo}, not {value}").format(lo=lo, value=value)


NOBODY_CAN_NOW = N_("nobody can do that now")  # a form whose first question offers nothing (see `texts`)


def no_people(t: Tribe) -> str:
    return _("{tribe} has no warrior or woman left").format(tribe=tribe_label(t))


# ----- the forms' questions (prompt, choices) and their refusals -----------------------------------
# NOTE: max 20 characters (a choice)
NO = N_("No")
# NOTE: max 20 characters (a choice)
YES = N_("Yes")


def tribes_question() -> str:
    return _("How many tribes? ({lo}-{hi})").format(lo=R.MIN_TRIBES, hi=R.MAX_TRIBES)


# NOTE: max 25 characters (a list question's title)
FIRST_GAME = N_("First game?")


def first_game_no() -> str:
    # NOTE: max 20 characters (a choice)
    return _("No ({food} food)").format(food=R.START_FOOD)


def first_game_yes() -> str:
    # NOTE: max 20 characters (a choice)
    return _("Yes ({food} food)").format(food=R.FIRST_GAME_FOOD)


# NOTE: max 25 characters (a list question's title)
RULES = N_("Rules?")
# NOTE: max 20 characters (a choice)
STANDARD = N_("Standard")
# NOTE: max 20 characters (a choice)
ADVANCED = N_("Advanced (fire)")


def color_of(k: int) -> str:
    # NOTE: max 25 characters (a list question's title)
    return _("Tribe {k}: color?").format(k=k)


def eliminated(t: Tribe) -> str:
    return _("{tribe} has been eliminated").format(tribe=tribe_label(t))


def fishing(t: Tribe) -> str:
    return _("{tribe} fishing: spaces on a lake shore or river?").format(tribe=tribe_label(t))


def gathering(t: Tribe) -> str:
    return _("{tribe} gathering: forest spaces?").format(tribe=tribe_label(t))


def crops_intact(t: Tribe) -> str:
    return _("{tribe} harvest: intact crops occupied?").format(tribe=tribe_label(t))


def crops_damaged(t: Tribe) -> str:
    return _("{tribe} harvest: damaged crops occupied?").format(tribe=tribe_label(t))


def cannot_occupy(t: Tribe, spaces: int) -> str:
    return _("{tribe} has {people} warriors and women: it cannot occupy {spaces} spaces").format(
        tribe=tribe_label(t), people=t.people, spaces=spaces)


def crops_at_most(t: Tribe) -> str:
    return _("{tribe} occupies at most {people} crops of {markers}").format(
        tribe=tribe_label(t), people=t.people, markers=R.CROP_MARKERS)


def camps_one_woman(t: Tribe) -> str:
    return _("{tribe} ({camps}, {women}): camps with 1 woman?").format(
        tribe=tribe_label(t), camps=camps(t.camps), women=women(t.women))


def only_camps(t: Tribe, value: int) -> str:
    return _("{tribe} has only {camps} camps, not {value}").format(tribe=tribe_label(t), camps=t.camps, value=value)


def too_few_women(t: Tribe, one: int) -> str:
    return _("{tribe} has {women} in {camps}: {two_plus} camps with 2 or more and {one} with 1 need {need}").format(
        tribe=tribe_label(t), women=women(t.women), camps=camps(t.camps), two_plus=t.camps - one, one=one,
        need=one + 2 * (t.camps - one))


def camps_two_plus(t: Tribe) -> str:
    return _("{tribe}: camps with 2 or more women?").format(tribe=tribe_label(t))


def hunger(t: Tribe, n: int) -> str:
    return _("{tribe} removes {n}. Warriors? Rest women.").format(tribe=tribe_label(t), n=n)


def hunger_range(t: Tribe, lo: int, hi: int) -> str:
    return _("{tribe} has {warriors} warriors and {women} women: remove {lo} to {hi} warriors "
             "(and {to_remove} tokens in all)").format(tribe=tribe_label(t), warriors=t.warriors, women=t.women, lo=lo,
                                                      hi=hi, to_remove=t.to_remove)


# NOTE: max 25 characters (a list question's title)
FIGHT_FIRST = N_("Fight: first tribe?")
# NOTE: max 20 characters (a choice)
ANOTHER_TRIBE = N_("Another tribe")
# NOTE: max 20 characters (a choice)
MORE_TRIBES = N_("2+ other tribes")
TRIBES_IN_FIGHT = N_("How many tribes fight on this space, this one included?")
# NOTE: max 20 characters (a choice)
WOMEN_WATCH = N_("Watch")
# NOTE: max 20 characters (a choice)
WOMEN_FIGHT = N_("Fight (fate card)")
# NOTE: max 20 characters (a choice)
A_WARRIOR = N_("A warrior")
# NOTE: max 20 characters (a choice)
A_WOMAN = N_("A woman")
# NOTE: max 20 characters (a choice)
NOT_IN_CAMP = N_("No")
# NOTE: max 20 characters (a choice)
OWN_VILLAGE = N_("Own village")
# NOTE: max 20 characters (a choice)
OWN_CAVE = N_("Own cave")
# NOTE: max 20 characters (a choice)
VILLAGE = N_("Village")
# NOTE: max 20 characters (a choice)
CAVE = N_("Cave")
# NOTE: max 20 characters (a choice)
CAVE_MOUNTAIN = N_("Cave (mountain)")
CANNOT_FIGHT_ITSELF = N_("a tribe cannot fight itself")
NO_TRIBE_LEFT = N_("no tribe has a warrior or a woman left")
BONUS_AT_MOST = N_("a bonus of at most 9")
ANIMALS_AT_MOST = N_("at most 20 animals")


def animals_choice(animal: str) -> str:
    """Animals as a choice of the fight's opponent ("Bears"; max 20 characters, see `texts.animals`)."""
    return capital(animals(animal))


def fight_warriors(t: Tribe) -> str:
    return _("{tribe} warriors in the fight?").format(tribe=tribe_label(t))


def fight_women(t: Tribe) -> str:
    return _("{tribe} women in the fight?").format(tribe=tribe_label(t))


def nobody_in_fight(t: Tribe) -> str:
    return _("{tribe} has nobody in this fight: at least 1 warrior or woman (* goes back)").format(
        tribe=tribe_label(t))


def one_camp_per_space(t: Tribe) -> str:
    """Rulebook: "Non puoi avere più di un Accampamento per ogni spazio"."""
    return _("only one camp per space: {tribe} is in its own camp here").format(tribe=tribe_label(t))


def women_do_not_fight(t: Tribe) -> str:
    return _("women do not fight warriors: {tribe}'s women are captured without a fight (capture women), "
             "unless a fate card lets them fight").format(tribe=tribe_label(t))


def in_own_camp(t: Tribe) -> str:
    # NOTE: max 25 characters (a list question's title; {tribe} up to 7)
    return _("{tribe} in its own camp?").format(tribe=tribe_label(t))


def only_warriors(t: Tribe, value: int) -> str:
    return _("{tribe} has only {warriors} warriors, not {value}").format(
        tribe=tribe_label(t), warriors=t.warriors, value=value)


def only_women(t: Tribe, value: int) -> str:
    return _("{tribe} has only {women} women, not {value}").format(tribe=tribe_label(t), women=t.women, value=value)


def fights_what(t: Tribe) -> str:
    # NOTE: max 25 characters (a list question's title; {tribe} up to 7)
    return _("{tribe} fights?").format(tribe=tribe_label(t))


def fights_which_tribe(t: Tribe) -> str:
    # NOTE: max 25 characters (a list question's title; {tribe} up to 7)
    return _("{tribe} fights whom?").format(tribe=tribe_label(t))


def tribe_number(k: int) -> str:
    # NOTE: max 25 characters (a list question's title)
    return _("Side {k}: which tribe?").format(k=k)


def only_tribes(living: int) -> str:
    return _("{living} tribes are in the game: 3 to {living}").format(living=living)


def women_of(t: Tribe) -> str:
    # NOTE: max 25 characters (a list question's title; {tribe} up to 7)
    return _("Women of {tribe}...").format(tribe=tribe_label(t))


def lost_round(t: Tribe, mine: int, top: int) -> str:
    # NOTE: max 25 characters (a list question's title; {tribe} up to 7)
    return _("{tribe} lost {mine}-{top}: lose").format(tribe=tribe_label(t), mine=mine, top=top)


def fate_bonus(t: Tribe) -> str:
    return _("{tribe} fate card bonus?").format(tribe=tribe_label(t))


def how_many_animals(animal: str) -> str:
    return _("How many {animals}?").format(animals=animals(animal))


# NOTE: max 25 characters (a list question's title)
CAMP_TAKEN_BY = N_("Camp taken by tribe?")
CANNOT_TAKE_OWN_CAMP = N_("a tribe cannot take its own camp")
NO_CAMP_TO_TAKE = N_("no camp can be taken: that needs a tribe with a warrior and another tribe's camp")
# NOTE: max 25 characters (a list question's title)
KEEP_OR_BURN = N_("Keep it or burn it?")
# NOTE: max 20 characters (a choice)
KEEP_IT = N_("Keep it")
# NOTE: max 20 characters (a choice)
BURN_IT = N_("Burn it")


def no_warrior_to_take(t: Tribe) -> str:
    return _("{tribe} has no warrior to take a camp").format(tribe=tribe_label(t))


def only_burn(t: Tribe) -> str:
    return _("{tribe} already has all {n} camps: it can only burn this one").format(
        tribe=tribe_label(t), n=R.MAX_CAMPS)


def takes_camp_of(t: Tribe) -> str:
    # NOTE: max 25 characters (a list question's title; {tribe} up to 7)
    return _("{tribe} takes whose camp?").format(tribe=tribe_label(t))


def no_camp(t: Tribe) -> str:
    return _("{tribe} has no camp").format(tribe=tribe_label(t))


def camp_is_a(t: Tribe) -> str:
    # NOTE: max 25 characters (a list question's title; {tribe} up to 7)
    return _("{tribe}'s camp is a?").format(tribe=tribe_label(t))


# NOTE: max 25 characters (a list question's title)
WOMEN_CAPTURED_BY = N_("Women captured by tribe?")
CANNOT_CAPTURE_OWN = N_("a tribe cannot capture its own women")
NO_WOMEN_TO_CAPTURE = N_("no women can be captured: that needs a tribe with a warrior and another tribe's women")
# NOTE: max 25 characters (a list question's title)
THE_WOMEN = N_("The women...")
# NOTE: max 20 characters (a choice)
JOIN_CAPTOR = N_("Join the captor")
# NOTE: max 20 characters (a choice)
MASSACRED = N_("Are massacred")


def no_warrior(t: Tribe) -> str:
    return _("{tribe} has no warrior").format(tribe=tribe_label(t))


def captures_women_of(t: Tribe) -> str:
    # NOTE: max 25 characters (a list question's title; {tribe} up to 7)
    return _("{tribe} takes women of?").format(tribe=tribe_label(t))


def no_women(t: Tribe) -> str:
    return _("{tribe} has no women").format(tribe=tribe_label(t))


def how_many_women(t: Tribe) -> str:
    return _("How many women of {tribe}?").format(tribe=tribe_label(t))


# NOTE: max 25 characters (a list question's title)
CAMP_MADE_BY = N_("Camp made by tribe?")
# NOTE: max 25 characters (a list question's title)
START_CAMP_OF = N_("Start camp of tribe?")
# NOTE: max 25 characters (a list question's title)
THE_CAMP_IS_A = N_("The camp is a?")
# NOTE: max 25 characters (a list question's title)
CAMP_ABANDONED_BY = N_("Camp abandoned by tribe?")
# NOTE: max 25 characters (a list question's title)
ABANDONED_CAMP_IS_A = N_("Abandoned camp is a?")
# NOTE: max 25 characters (a list question's title)
REMOVE_TOKENS_OF = N_("Remove tokens of tribe?")
NOBODY_MAKES_CAMP = N_("no tribe can make a camp now: it needs a warrior, a woman more than its camps and "
                       "fewer than 5 camps")
NO_TRIBE_HOLDS_A_CAMP = N_("no tribe holds a camp")


def cannot_make_camp(t: Tribe) -> str | None:
    """Why `t` cannot make a camp now (rulebook: a warrior and a woman alone on a free space,
    at most 5 camps, every camp keeps a woman), or None."""
    if t.camps >= R.MAX_CAMPS:
        return _("{tribe} already has all {n} camps on the board").format(tribe=tribe_label(t), n=R.MAX_CAMPS)
    if t.warriors < 1:
        return _("{tribe} has no warrior: a camp needs a warrior and a woman").format(tribe=tribe_label(t))
    if t.women <= t.camps:
        return _("{tribe} has {women} women for {camps} camps: every camp keeps a woman, "
                 "so a new camp needs one more").format(tribe=tribe_label(t), women=t.women, camps=t.camps)
    return None


def no_cave_where_sown(t: Tribe) -> str:
    return _("{tribe} sowed a crop on its village: a cave cannot hold one").format(tribe=tribe_label(t))


def remove_at_least_one() -> str:
    return _("remove at least one warrior or woman")


def warriors_removed(t: Tribe) -> str:
    return _("{tribe}: warriors removed?").format(tribe=tribe_label(t))


def women_removed(t: Tribe) -> str:
    return _("{tribe}: women removed?").format(tribe=tribe_label(t))


def cannot_remove_warriors(t: Tribe, value: int) -> str:
    return _("{tribe} has only {warriors} warriors, cannot remove {value}").format(
        tribe=tribe_label(t), warriors=t.warriors, value=value)


def cannot_remove_women(t: Tribe, value: int) -> str:
    return _("{tribe} has only {women} women, cannot remove {value}").format(
        tribe=tribe_label(t), women=t.women, value=value)


# NOTE: max 25 characters (a list question's title)
FOOD_FOR = N_("Food change for tribe?")
# NOTE: max 20 characters (a choice)
GAINS_FOOD = N_("Gains food")
# NOTE: max 20 characters (a choice)
PAYS_FOOD = N_("Pays food")
FOOD_AT_MOST = N_("at most 99 at a time")
NO_FATE_CARD = N_("no tribe holds a fate card")
NO_CAMP_FOR_FIRE = N_("no tribe has a camp to keep fire in")


def food_change(t: Tribe) -> str:
    # NOTE: max 25 characters (a list question's title; {tribe} up to 7)
    return _("{tribe} food?").format(tribe=tribe_label(t))


def how_much_food(t: Tribe, gain: bool) -> str:
    return (_("{tribe} gains how much food?") if gain else _("{tribe} pays how much food?")).format(
        tribe=tribe_label(t))


def cannot_pay(t: Tribe, value: int) -> str:
    return _("{tribe} has only {food} food, cannot pay {value}").format(tribe=tribe_label(t), food=t.food, value=value)


# NOTE: max 25 characters (a list question's title)
FATE_PLAYED_BY = N_("Fate cards played by?")


def no_fate_card(t: Tribe) -> str:
    return _("{tribe} holds no fate card").format(tribe=tribe_label(t))


def cards_played(t: Tribe) -> str:
    return _("{tribe}: cards played?").format(tribe=tribe_label(t))


def cannot_play(t: Tribe, value: int) -> str:
    return _("{tribe} holds only {cards} fate cards, cannot play {value}").format(
        tribe=tribe_label(t), cards=t.fate_cards, value=value)


# NOTE: max 25 characters (a list question's title)
FIRE_WHICH = N_("Fire: which tribe?")
# NOTE: max 20 characters (a choice)
LOST_FIRE = N_("Lost its fire")
# NOTE: max 20 characters (a choice)
HAS_FIRE = N_("Has fire")


def no_camp_for_fire(t: Tribe) -> str:
    return _("{tribe} has no camp to keep the fire in").format(tribe=tribe_label(t))


def fire_now(t: Tribe) -> str:
    # NOTE: max 25 characters (a list question's title; {tribe} up to 7)
    return _("{tribe} now...").format(tribe=tribe_label(t))


# NOTE: max 25 characters (a list question's title)
COMES_BACK = N_("Which tribe comes back?")


def cannot_come_back(t: Tribe) -> str:
    return _("{tribe} cannot come back now").format(tribe=tribe_label(t))


# NOTE: max 25 characters (a list question's title)
CROPS_SOWN_BY = N_("Crops sown by tribe?")


def crops_sown(t: Tribe) -> str:
    return _("{tribe}: crops sown on plain villages?").format(tribe=tribe_label(t))


def no_room_to_sow(t: Tribe, room: int) -> str:
    return _("crops grow only on your villages on a plain: {tribe} has {room} villages without one").format(
        tribe=tribe_label(t), room=room)


def cannot_sow(t: Tribe, room: int, markers_left: int) -> str | None:
    """Why `t` cannot sow now (rulebook: 1 food per crop, on its villages on a plain, one per
    space; the box holds 9 crop markers), or None."""
    if room <= 0:
        return _("{tribe} cannot sow: crops grow only on its villages on a plain, and each has one").format(
            tribe=tribe_label(t))
    if t.food <= 0:
        return _("{tribe} cannot sow: a crop costs 1 food and it has none").format(tribe=tribe_label(t))
    if markers_left <= 0:
        return _("nobody can sow: all {markers} crop markers of the box are on the board").format(
            markers=R.CROP_MARKERS)
    return None


def nobody_sows(markers_left: int) -> str:
    """Why no tribe can sow now."""
    if markers_left <= 0:
        return _("nobody can sow: all {markers} crop markers of the box are on the board").format(
            markers=R.CROP_MARKERS)
    return _("nobody can sow now: a crop costs 1 food and needs a village on a plain without one")


def sowing_costs(t: Tribe, crops: int) -> str:
    return _("sowing {crops} crops costs {crops} food: {tribe} has only {food}").format(
        crops=crops, tribe=tribe_label(t), food=t.food)


# NOTE: max 25 characters (a list question's title)
ADD_TOKENS_TO = N_("Tokens added to tribe?")
ALL_TOKENS = N_("every tribe already has 10 warriors and 6 women")


def no_room(t: Tribe) -> str | None:
    """Why no token can be added to `t` (10 warriors and 6 women at most), or None."""
    if t.warriors < R.MAX_WARRIORS or t.women < R.MAX_WOMEN:
        return None
    return _("{tribe} already has {warriors} warriors and {women} women, the most").format(
        tribe=tribe_label(t), warriors=t.warriors, women=t.women)


def women_full(t: Tribe) -> str:
    return _("{tribe} already has {women} women, the most: add at least 1 warrior").format(
        tribe=tribe_label(t), women=t.women)


def add_at_least_one() -> str:
    return _("add at least one warrior or woman")


def warriors_added(t: Tribe) -> str:
    return _("{tribe}: warriors added (a card)?").format(tribe=tribe_label(t))


def women_added(t: Tribe) -> str:
    return _("{tribe}: women added (a card)?").format(tribe=tribe_label(t))


def warriors_room(t: Tribe) -> str:
    return _("{tribe} has {warriors} warriors: at most {more} more").format(
        tribe=tribe_label(t), warriors=t.warriors, more=R.MAX_WARRIORS - t.warriors)


def women_room(t: Tribe) -> str:
    return _("{tribe} has {women} women: at most {more} more").format(
        tribe=tribe_label(t), women=t.women, more=R.MAX_WOMEN - t.women)


# NOTE: max 25 characters (a list question's title)
REGION_OF = N_("The card's region is...")


def note_until(key: str) -> str:
    # NOTE: max 25 characters (a list question's title)
    return _("Until {season} ends:").format(season=season(key))


def already_noted(note: str) -> str:
    return _("{note} is already noted until the end of the season").format(note=note_word(note))


def notes_full(n: int) -> str:
    return _("{n} notes already: take one back with C first").format(n=n)
