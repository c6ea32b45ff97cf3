"""Every sentence the Mammut table sees, as constants and functions with named fields.

The controller and the forms build screens from these and never assemble words
themselves, so a translation plugs in here (and speech can say the same messages). Every
text goes through `companion.i18n` when a screen is built: constants are marked `N_` and
shown with `_`; game words (seasons, terrains, colors, phases, notes) are `N_` dicts keyed
by the rules' ids, translated where shown. Sections: words, titles, the phase (its screen;
its help pages are in `help_texts`), the tribes' books, the
lists and the menu, information and questions, reports after an action, undo. The
questions of the forms and their refusals are in `prompts`, beside these. The engine's
own refusals (`MammutError` messages the table can meet) go through `_` where they are
raised, naming a tribe by the engine's label (its color id); a fight's summary
(`fight(...)["message"]`) is stored with the game, so it stays the engine's English words.
Nothing stored (the game log, records, the journal) ever holds a translated text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from companion.table import seatnames
from companion.i18n import N_, _, ngettext, pgettext
from companion.table.texts import capital, sentence  # noqa: F401  (capital: prompts and forms read it here)

from . import rules as R
from .phases import PHASE_NAME, Phase

if TYPE_CHECKING:  # type names only
    from .books import Tribe
    from .game import MammutGame


# ----- words ---------------------------------------------------------------------------------------
def warriors(n: int) -> str:
    return ngettext("{n} warrior", "{n} warriors", n).format(n=n)


def women(n: int) -> str:
    return ngettext("{n} woman", "{n} women", n).format(n=n)


def camps(n: int) -> str:
    return ngettext("{n} camp", "{n} camps", n).format(n=n)


# the rules' names are the table's words; shown through `_` (rule 1 of the i18n conventions)
ANIMAL = {"wolf": N_("wolf"), "tiger": N_("tiger"), "bear": N_("bear"), "bison": N_("bison"), "rhino": N_("rhino"),
          "mammoth": N_("mammoth")}  # fmt: skip
SEASON = {R.SUMMER: N_("summer"), R.WINTER: N_("winter")}
TERRAIN = {  # a choice
    # NOTE: max 20 characters (a choice)
    R.PLAIN: N_("Plain"),
    # NOTE: max 20 characters (a choice)
    R.FOREST: N_("Forest"),
    # NOTE: max 20 characters (a choice)
    R.MOUNTAIN: N_("Mountain/volcano"),
}
TERRAIN_WORD = {R.PLAIN: N_("plain"), R.FOREST: N_("forest"), R.MOUNTAIN: N_("mountain/volcano")}  # in a sentence
NOTE = {  # rules.SEASON_NOTES, as the table reads them (a choice, and in a sentence)
    # NOTE: max 20 characters (a choice)
    "drought": N_("drought"),
    # NOTE: max 20 characters (a choice)
    "flood": N_("flood"),
    # NOTE: max 20 characters (a choice)
    "fire": N_("fire"),
    # NOTE: max 20 characters (a choice)
    "sickness": N_("sickness"),
    # NOTE: max 20 characters (a choice)
    "cold": N_("cold"),
    # NOTE: max 20 characters (a choice)
    "card": N_("card on the board"),
}
CAMP_KIND = {R.VILLAGE: N_("village"), R.CAVE: N_("cave")}
ORDER_REASON = {"placed first": N_("placed first"), "most camps": N_("most camps"), "die roll": N_("die roll"),
                "most warriors and women": N_("most warriors and women"), "most food": N_("most food")}  # fmt: skip


def animal(kind: str) -> str:
    """One animal of a kind in the table's language ("bear")."""
    return _(ANIMAL[kind]) if kind in ANIMAL else str(kind)


def animals(kind: str) -> str:
    """Animals of a kind in the table's language ("bears")."""
    plural = {
        # NOTE: max 20 characters (a choice of the fight's opponent)
        "wolf": lambda: pgettext("animals", "wolves"),
        # NOTE: max 20 characters (a choice of the fight's opponent)
        "tiger": lambda: pgettext("animals", "tigers"),
        # NOTE: max 20 characters (a choice of the fight's opponent)
        "bear": lambda: pgettext("animals", "bears"),
        # NOTE: max 20 characters (a choice of the fight's opponent)
        "bison": lambda: pgettext("animals", "bison"),
        # NOTE: max 20 characters (a choice of the fight's opponent)
        "rhino": lambda: pgettext("animals", "rhinos"),
        # NOTE: max 20 characters (a choice of the fight's opponent)
        "mammoth": lambda: pgettext("animals", "mammoths"),
    }
    return plural[kind]() if kind in plural else str(kind)


def animals_killed(kind: str, n: int) -> str:
    """ "1 bear", "3 wolves" (each language's plural)."""
    counts = {
        "wolf": lambda: ngettext("{n} wolf", "{n} wolves", n), "tiger": lambda: ngettext("{n} tiger", "{n} tigers", n),
        "bear": lambda: ngettext("{n} bear", "{n} bears", n), "bison": lambda: ngettext("{n} bison", "{n} bison", n),
        "rhino": lambda: ngettext("{n} rhino", "{n} rhinos", n),
        "mammoth": lambda: ngettext("{n} mammoth", "{n} mammoths", n),
    }  # fmt: skip
    return counts[kind]().format(n=n) if kind in counts else f"{n} {kind}"


def season(key: str) -> str:
    return _(SEASON[key])


def season_short(key: str) -> str:
    """ "Sum", "Win" in the title bar."""
    if key == R.SUMMER:
        # NOTE: max 3 characters (the title bar: "Y1 Sum 2 6.Survival")
        return pgettext("short season", "Sum")
    # NOTE: max 3 characters (the title bar: "Y1 Win 2 6.Survival")
    return pgettext("short season", "Win")


def note_word(key: str) -> str:
    return _(NOTE[key]) if key in NOTE else key


COLOR = {
    # NOTE: max 7 characters (a choice, and a tribe's name in titles)
    "red": N_("Red"),
    # NOTE: max 7 characters (a choice, and a tribe's name in titles)
    "yellow": N_("Yellow"),
    # NOTE: max 7 characters (a choice, and a tribe's name in titles)
    "green": N_("Green"),
    # NOTE: max 7 characters (a choice, and a tribe's name in titles)
    "blue": N_("Blue"),
    # NOTE: max 7 characters (a choice, and a tribe's name in titles)
    "black": N_("Black"),
    # NOTE: max 7 characters (a choice, and a tribe's name in titles)
    "white": N_("White"),
}
TAG_COLS = 4  # a tribe's tag in the books and the dice lines
NAME_COLS = 7  # a short name, as long as "Tribe 6", so every question naming a tribe fits the title bar


def color_tag(color: str) -> str:
    """A color in 3-4 letters ("Grn")."""
    tags = {
        # NOTE: max 4 characters (a tribe's tag in the books and dice lines)
        "red": lambda: pgettext("short color", "Red"),
        # NOTE: max 4 characters (a tribe's tag in the books and dice lines)
        "yellow": lambda: pgettext("short color", "Yel"),
        # NOTE: max 4 characters (a tribe's tag in the books and dice lines)
        "green": lambda: pgettext("short color", "Grn"),
        # NOTE: max 4 characters (a tribe's tag in the books and dice lines)
        "blue": lambda: pgettext("short color", "Blu"),
        # NOTE: max 4 characters (a tribe's tag in the books and dice lines)
        "black": lambda: pgettext("short color", "Blk"),
        # NOTE: max 4 characters (a tribe's tag in the books and dice lines)
        "white": lambda: pgettext("short color", "Wht"),
    }
    return tags[color]()


def tribe_label(t: Tribe) -> str:
    """The tribe as the table calls it: its short name, its player's name (the table's names),
    its color ("Red"), or "Tribe 3"."""
    if t.name:
        return t.name[:NAME_COLS]
    player = seatnames.shown(t.number - 1)
    if player is not None:
        return player[:NAME_COLS]
    if t.color in COLOR:
        return _(COLOR[t.color])
    # NOTE: max 7 characters
    return _("Tribe {number}").format(number=t.number)


def tribe_tag(t: Tribe) -> str:
    """A tribe in 3-4 letters for tight lines: "Red", "Grn", "T3", or its name's start."""
    if t.name:
        return t.name[:TAG_COLS]
    if t.color in COLOR:
        return color_tag(t.color)
    # NOTE: max 4 characters (a numbered tribe: "T3")
    return pgettext("short tribe", "T{number}").format(number=t.number)


def tribe_labels(game: MammutGame, numbers: Sequence[int]) -> str:
    return ", ".join(tribe_label(game.tribe(n)) for n in numbers)


# ----- titles --------------------------------------------------------------------------------------
# NOTE: max 25 characters (a title)
NEW_GAME_TITLE = N_("New game")
PHASE_SHORT = {
    # NOTE: max 12 characters (the title bar after "Y1 Sum 2 ")
    Phase.SETUP: N_("Setup"),
    # NOTE: max 12 characters (the title bar after "Y1 Sum 2 ")
    Phase.EVENTS: N_("1.Events"),
    # NOTE: max 12 characters (the title bar after "Y1 Sum 2 ")
    Phase.NEW_ANIMALS: N_("2.Animals"),
    # NOTE: max 12 characters (the title bar after "Y1 Sum 2 ")
    Phase.ANIMAL_MOVEMENT: N_("3.Movement"),
    # NOTE: max 12 characters (the title bar after "Y1 Sum 2 ")
    Phase.TRIBES_MOVE: N_("4.Tribes"),
    # NOTE: max 12 characters (the title bar after "Y1 Sum 2 ")
    Phase.COMBAT: N_("5.Combat"),
    # NOTE: max 12 characters (the title bar after "Y1 Sum 2 ")
    Phase.SURVIVAL: N_("6.Survival"),
    # NOTE: max 12 characters (the title bar after "Y1 Sum 2 ")
    Phase.BIRTHS: N_("7.Births"),
    # NOTE: max 12 characters (the title bar after "Y1 Sum 2 ")
    Phase.SOWING: N_("8.Sowing"),
    # NOTE: max 12 characters (the title bar after "Y1 Sum 2 ")
    Phase.FATE_CARDS: N_("9.Fate"),
    # NOTE: max 12 characters (the title bar after "Y1 Sum 2 ")
    Phase.END_OF_TURN: N_("10.End"),
    # NOTE: max 12 characters (the title bar after "Y1 Sum 2 ")
    Phase.GAME_OVER: N_("Game over"),
}


def phase_in_words(p: Phase) -> str:
    """A phase as a sentence names it: "phase 5 (combat)", or "setup", "game over"."""
    if not p.number:
        return _(PHASE_NAME[p])
    return _("phase {number} ({phase})").format(number=p.number, phase=_(PHASE_NAME[p]))


def title(game: MammutGame | None) -> str:
    """Year, season, turn within the season and the phase: "Y1 Sum 2 6.Survival"."""
    if game is None:
        return _(NEW_GAME_TITLE)
    # NOTE: max 25 characters with the phase (Y = year; season short; the turn within the season)
    return _("Y{year} {season} {turn} {phase}").format(year=game.year, season=season_short(game.season),
                                                       turn=game.turn, phase=_(PHASE_SHORT[game.phase]))


# ----- the phase: its screen (short) and its help (long), one place for both -----------------------
def phase_summary(g: MammutGame) -> list[str]:
    """The phase screen: what to do now, in a few short lines."""
    p = g.phase
    if p == Phase.SETUP:
        food = R.FIRST_GAME_FOOD if g.first_game else R.START_FOOD
        return [_("{tribe} places first (drawn at random): each 1 camp, 2 women, 5 warriors.").format(
                    tribe=tribe_label(g.tribe(g.first_player))),
                _("{food} food, {cards} cards each.").format(food=food, cards=R.hand_size(g.n_tribes)),
                _("# opens the list: report caves and crops, then start turn 1."),
                (_("{n} tribes, advanced rules.") if g.advanced else _("{n} tribes, standard rules.")).format(
                    n=g.n_tribes)]
    if p == Phase.GAME_OVER:
        if g.extinct:
            return [_("Only animals are left: everybody loses."), _("#: new game")]
        return [ngettext("{tribes} wins!", "{tribes} share the victory!", len(g.winners)).format(
                    tribes=tribe_labels(g, g.winners)), _("#: new game")]
    out: list[str] = []
    if p == Phase.EVENTS:
        out += [_("Remove fire and flood markers.")] + event_draw(g) + [_("#: list")]
    elif p == Phase.NEW_ANIMALS:
        # the English singular is the plural as the table always said it (English stays byte-identical)
        out += [ngettext("Draw {n} animal tokens; place them on their edge spaces.",
                         "Draw {n} animal tokens; place them on their edge spaces.", g.animals_to_draw).format(
                    n=g.animals_to_draw)]
    elif p == Phase.ANIMAL_MOVEMENT:
        out += [_("Direction die: {die}").format(die=g.direction), _("Wolf, tiger 3; bear, bison 2; rhino, mammoth 1.")]
    elif p == Phase.TRIBES_MOVE:
        out += [line for line in (order_line(g), _("#: camps made")) if line]
    elif p == Phase.COMBAT:
        out += [_("{tribe} fights first, then clockwise.").format(tribe=tribe_labels(g, g.play_order[:1]) or "-"),
                _("#: list")]
        if g.fights:
            out.append(ngettext("{n} fight so far.", "{n} fights so far.", len(g.fights)).format(n=len(g.fights)))
    elif p == Phase.SURVIVAL:
        what = [_("fishing")] + ([_("forests")] if g.season == R.SUMMER else []) \
            + ([_("crops")] if R.is_last_summer_turn(g.season, g.turn) else [])
        out += [(_("Each tribe: {what}. Eating: 1 each (1.5 in winter without fire).") if g.advanced and g.winter
                 else _("Each tribe: {what}. Eating: 1 each.")).format(what=", ".join(what))]
    elif p == Phase.BIRTHS:
        out += [_("Births per camp: 1 woman 1, 2+ women 2. I roll.")]
    elif p == Phase.SOWING:
        out += [_("Crops on plain villages, 1 food each. #: list")]
    elif p == Phase.FATE_CARDS:
        if g.fate_drawn:
            out += [_("Draw 1 fate card: {tribes}.").format(tribes=tribe_labels(g, g.fate_drawn))]
        else:
            out += [_("Every hand is full: nobody draws.")]
    elif p == Phase.END_OF_TURN:
        out += [_("Move the season marker.")]
        out += [_("{tribe} announces {n} camps!").format(tribe=tribe_label(g.tribe(n)), n=g.tribe(n).camps)
                for n in g.announced] \
            or [_("No tribe holds {n} camps.").format(n=R.VICTORY_CAMPS)]
    back = g.can_resurrect()
    if back:
        out.append(_("{tribes} may come back (#).").format(tribes=tribe_labels(g, back)))
    if g.notes:
        out.append(season_notes(g))
    return out


def order_decided(g: MammutGame) -> bool:
    """Whether the turn has a play order to show (decided on entering phase 4)."""
    return bool(g.play_order) and g.order_reason in ORDER_REASON


def order_line(g: MammutGame) -> str:
    """The play order, its reason and the dice: "Order: Red Blu (die roll Red:4 Blu:2)"; ""
    (nothing to say) while no order is decided."""
    if not order_decided(g):
        return ""
    order = " ".join(tribe_tag(g.tribe(n)) for n in g.play_order)
    reason = _(ORDER_REASON[g.order_reason])
    dice = "; ".join(" ".join(f"{tribe_tag(g.tribe(int(t)))}:{d}" for t, d in r.items()) for r in g.order_rolls)
    if dice:
        return _("Order: {order} ({reason} {dice})").format(order=order, reason=reason, dice=dice)
    return _("Order: {order} ({reason})").format(order=order, reason=reason)


def event_draw(g: MammutGame) -> list[str]:
    """This turn's event card: from which deck, a reshuffle first, the cards left after it."""
    deck = g.event_decks[g.season]
    out = [_("The {season} deck was empty: shuffle its {n} discards first.").format(
        season=season(g.season), n=deck["left"] + 1)] if g.event_reshuffled else []
    return out + [_("Draw a {season} event card, resolve it, discard it ({n} left).").format(
        season=season(g.season), n=deck["left"])]


def season_notes(g: MammutGame) -> str:
    """The reminder of the lasting effects: "Until winter ends: drought, flood"."""
    return _("Until {season} ends: {notes}.").format(season=season(g.season),
                                                     notes=", ".join(note_word(n) for n in g.notes))


def phase_heading(g: MammutGame) -> str:
    """The phase in full words: "Year 1, summer turn 2 (game turn 1) - phase 2: new animals"."""
    if g.phase == Phase.SETUP:
        return _("Setup")
    if g.phase == Phase.GAME_OVER:
        return _("Game over")
    return _("Year {year}, {season} turn {turn} (game turn {number}) - phase {phase_number}: {phase}").format(
        year=g.year, season=season(g.season), turn=g.turn, number=g.turn_number, phase_number=g.phase.number,
        phase=_(PHASE_NAME[g.phase]))


NOTHING_TO_ADD = N_("Nothing to add.")


# ----- the tribes' books ---------------------------------------------------------------------------
def books(g: MammutGame) -> list[str]:
    """One line per tribe: "T1: 5war 2wom 1vil 0cave 15food 5cards"."""
    out = []
    for t in g.tribes:
        if t.eliminated:
            out.append(_("{tribe}: out").format(tribe=tribe_tag(t)) if t.resurrection_used
                       else _("{tribe}: out (may come back in year 1)").format(tribe=tribe_tag(t)))
            continue
        # NOTE: war, wom, vil, cave, food, cards: warriors, women, villages, caves, food, fate cards (a book line)
        line = _("{tribe}: {warriors}war {women}wom {villages}vil {caves}cave {food}food {cards}cards").format(
            tribe=tribe_tag(t), warriors=t.warriors, women=t.women, villages=t.villages, caves=t.caves, food=t.food,
            cards=t.fate_cards)
        if t.fire:
            line += " " + pgettext("books", "fire")
        if t.announced_turn:
            line += " " + pgettext("books", "ANNOUNCED")
        out.append(line)
    return out


# ----- the phase's list and the menu ---------------------------------------------------------------
# NOTE: max 20 characters (a list item)
START_TURN = N_("Start turn 1")
# NOTE: max 20 characters (a list item)
NEXT_PHASE = N_("Next phase")
# NOTE: max 20 characters (a list item)
CONTINUE_REPORTS = N_("Continue reports")
# NOTE: max 20 characters (a list item)
PHASE_HELP = N_("Phase help")
# NOTE: max 20 characters (a list item)
NEW_GAME = N_("New game")
# NOTE: max 20 characters (a list item)
ROLL_DIE = N_("Roll a die")
LIST_LABEL = {  # the forms opened from the list
    # NOTE: max 20 characters (a list item)
    "start_camp": N_("Camp on a mountain"),
    # NOTE: max 20 characters (a list item)
    "sow": N_("Sow a crop"),
    # NOTE: max 20 characters (a list item)
    "resurrect": N_("Resurrect a tribe"),
    # NOTE: max 20 characters (a list item)
    "make_camp": N_("Camp made"),
    # NOTE: max 20 characters (a list item)
    "fight": N_("Fight"),
    # NOTE: max 20 characters (a list item)
    "capture_camp": N_("Camp taken"),
    # NOTE: max 20 characters (a list item)
    "capture_women": N_("Women captured"),
    # NOTE: max 20 characters (a list item)
    "food": N_("Food gained/paid"),
    # NOTE: max 20 characters (a list item)
    "remove": N_("Tokens removed"),
    # NOTE: max 20 characters (a list item)
    "fate": N_("Fate cards played"),
    # NOTE: max 20 characters (a list item)
    "abandon_camp": N_("Camp abandoned"),
    # NOTE: max 20 characters (a list item)
    "fire": N_("Fire caught/lost"),
    # NOTE: max 20 characters (a list item)
    "add_tokens": N_("Tokens added"),
    # NOTE: max 20 characters (a list item)
    "region": N_("Region die"),
    # NOTE: max 20 characters (a list item)
    "note": N_("Season note"),
}  # fmt: skip


def list_label(key: str) -> str:
    """The list's line for the form `key`, in the table's language."""
    return _(LIST_LABEL[key])


# NOTE: max 20 characters (a list item: "sow" in the sowing phase)
SOWING_LABEL = N_("Crops sown")
# NOTE: max 25 characters (the hint line under the list; the keys # * D stay as they are)
ACTIONS_HINT = N_("#=do *=back D=menu")
MENU_ITEMS = (  # the shell adds its own after these
    # NOTE: max 20 characters (a menu item)
    N_("Actions"),
    # NOTE: max 20 characters (a menu item)
    N_("Tribe books"),
    # NOTE: max 20 characters (a menu item)
    N_("Undo last entry"),
    # NOTE: max 20 characters (a menu item)
    N_("New game"),
)

# ----- information screens and questions -----------------------------------------------------------
# NOTE: max 25 characters (a title)
ACTIONS_TITLE = N_("Actions")
NO_GAME_YET = N_("No game yet: answer the new game questions.")
FINISH_QUESTION_FIRST = N_("Finish or leave (*) the question first.")
# NOTE: max 25 characters (a title)
BOOKS_TITLE = N_("Tribe books")
NO_GAME = N_("No game yet.")
# NOTE: max 25 characters (a title)
UNDO_TITLE = N_("Undo")
NOTHING_TO_UNDO = N_("Nothing to undo.")
# NOTE: max 25 characters (a title)
UNDO_QUESTION_TITLE = N_("Undo?")
# NOTE: max 25 characters (a title)
UNDONE_TITLE = N_("Undone")
PUT_BACK = N_("Put the pieces back as they were.")
# NOTE: max 25 characters (a title)
NEW_GAME_QUESTION_TITLE = N_("New game?")
ABANDON = N_("This game will be abandoned.")
# NOTE: max 25 characters (a title)
REFUSED_TITLE = N_("Not allowed")
NOBODY_CAN = N_("nobody can do that now")


def die_rolled(value: int) -> str:
    return _("Die: {value}").format(value=value)


def refusal(message: str) -> str:
    """A refusal as a sentence: capitalised, with a full stop (`message` already in the table's language)."""
    return sentence(message)

