"""Every sentence the Mammut table sees, as constants and functions with named fields.

The controller and the forms build screens from these and never assemble words
themselves, so a translation plugs in here (and speech can say the same messages).
Sections: words, titles, the phase (its screen and its help), the tribes' books, the
lists and the menu, information and questions, reports after an action, undo. The
questions of the forms and their refusals are in `prompts`, beside these. The engine's
own refusals (`MammutError` messages) and a fight's summary (`fight(...)["message"]`)
are still the engine's words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from . import rules as R
from . import survival as S
from .phases import Phase

if TYPE_CHECKING:  # type names only
    from .books import Tribe
    from .game import MammutGame


# ----- words ---------------------------------------------------------------------------------------
def count(n: int, word: str, plural: str | None = None) -> str:
    """3 "camp" -> "3 camps"; `plural` for irregular words."""
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def warriors(n: int) -> str:
    return count(n, "warrior")


def women(n: int) -> str:
    return count(n, "woman", "women")


def camps(n: int) -> str:
    return count(n, "camp")


ANIMAL = {a: a for a in R.ANIMALS}  # "mammoth" ...: the rules' names are the table's words
ANIMAL_PLURAL = {"wolf": "wolves", "tiger": "tigers", "bear": "bears", "bison": "bison", "rhino": "rhinos",
                 "mammoth": "mammoths"}  # fmt: skip
SEASON = {R.SUMMER: "summer", R.WINTER: "winter"}
TERRAIN = {R.PLAIN: "Plain", R.FOREST: "Forest", R.MOUNTAIN: "Mountain/volcano"}
NOTE = {"drought": "drought", "flood": "flood", "fire": "fire", "sickness": "sickness", "cold": "cold",
        "card": "card on the board"}  # rules.SEASON_NOTES, as the table reads them
SEASON_SHORT = {R.SUMMER: "Sum", R.WINTER: "Win"}
CAMP_KIND = {R.VILLAGE: "village", R.CAVE: "cave"}
ORDER_REASON = {"placed first": "placed first", "most camps": "most camps", "die roll": "die roll",
                "most warriors and women": "most warriors and women", "most food": "most food"}  # fmt: skip


COLOR = {"red": "Red", "yellow": "Yellow", "green": "Green", "blue": "Blue", "black": "Black", "white": "White"}
COLOR_TAG = {"red": "Red", "yellow": "Yel", "green": "Grn", "blue": "Blu", "black": "Blk", "white": "Wht"}
TAG_COLS = 4  # a tribe's tag in the books and the dice lines
NAME_COLS = 7  # a short name, as long as "Tribe 6", so every question naming a tribe fits the title bar


def tribe_label(t: Tribe) -> str:
    """The tribe as the table calls it: its short name, its color ("Red"), or "Tribe 3"."""
    if t.name:
        return t.name[:NAME_COLS]
    return COLOR[t.color] if t.color in COLOR else f"Tribe {t.number}"


def tribe_tag(t: Tribe) -> str:
    """A tribe in 3-4 letters for tight lines: "Red", "Grn", "T3", or its name's start."""
    if t.name:
        return t.name[:TAG_COLS]
    return COLOR_TAG[t.color] if t.color in COLOR_TAG else f"T{t.number}"


def tribe_labels(game: MammutGame, numbers: Sequence[int]) -> str:
    return ", ".join(tribe_label(game.tribe(n)) for n in numbers)


# ----- titles --------------------------------------------------------------------------------------
NEW_GAME_TITLE = "New game"
PHASE_SHORT = {
    Phase.SETUP: "Setup",
    Phase.EVENTS: "1.Events",
    Phase.NEW_ANIMALS: "2.Animals",
    Phase.ANIMAL_MOVEMENT: "3.Movement",
    Phase.TRIBES_MOVE: "4.Tribes",
    Phase.COMBAT: "5.Combat",
    Phase.SURVIVAL: "6.Survival",
    Phase.BIRTHS: "7.Births",
    Phase.SOWING: "8.Sowing",
    Phase.FATE_CARDS: "9.Fate",
    Phase.END_OF_TURN: "10.End",
    Phase.GAME_OVER: "Game over",
}
PHASE_NAME = {p: p.value.replace("_", " ") for p in Phase}  # "animal movement"


def title(game: MammutGame | None) -> str:
    """Year, season, turn within the season and the phase: "Y1 Sum 2 6.Survival"."""
    if game is None:
        return NEW_GAME_TITLE
    return f"Y{game.year} {SEASON_SHORT[game.season]} {game.turn} {PHASE_SHORT[game.phase]}"


# ----- the phase: its screen (short) and its help (long), one place for both -----------------------
def phase_summary(g: MammutGame) -> list[str]:
    """The phase screen: what to do now, in a few short lines."""
    p = g.phase
    if p == Phase.SETUP:
        food = R.FIRST_GAME_FOOD if g.first_game else R.START_FOOD
        return [f"{tribe_label(g.tribe(g.first_player))} places first (drawn at random): each 1 camp, 2 women, "
                "5 warriors.",
                f"{food} food, {R.hand_size(g.n_tribes)} cards each.", "#: caves, crops, start",
                f"{g.n_tribes} tribes, {'advanced' if g.advanced else 'standard'} rules."]
    if p == Phase.GAME_OVER:
        if g.extinct:
            return ["Only animals are left: everybody loses.", "#: new game"]
        who = tribe_labels(g, g.winners)
        return [f"{who} {'wins' if len(g.winners) == 1 else 'share the victory'}!",
                "#: new game"]
    out: list[str] = []
    if p == Phase.EVENTS:
        out += ["Remove fire and flood markers."] + event_draw(g) + ["#: list"]
    elif p == Phase.NEW_ANIMALS:
        out += [f"Draw {g.animals_to_draw} animal tokens; place them on their edge spaces."]
    elif p == Phase.ANIMAL_MOVEMENT:
        out += [f"Direction die: {g.direction}", "Wolf, tiger 3; bear, bison 2; rhino, mammoth 1."]
    elif p == Phase.TRIBES_MOVE:
        dice = "; ".join(" ".join(f"{tribe_tag(g.tribe(int(t)))}:{d}" for t, d in r.items()) for r in g.order_rolls)
        out += ["Order: " + " ".join(tribe_tag(g.tribe(n)) for n in g.play_order) + f" ({ORDER_REASON[g.order_reason]}"
                + (f" {dice}" if dice else "") + ")", "#: camps made"]
    elif p == Phase.COMBAT:
        out += [f"{tribe_labels(g, g.play_order[:1]) or '-'} fights first, then clockwise.", "#: list"]
        if g.fights:
            out.append(f"{count(len(g.fights), 'fight')} so far.")
    elif p == Phase.SURVIVAL:
        what = ["fishing"] + (["forests"] if g.season == R.SUMMER else []) \
            + (["crops"] if R.is_last_summer_turn(g.season, g.turn) else [])
        out += [f"Each tribe: {', '.join(what)}. Eating: 1 each"
                + (" (1.5 in winter without fire)." if g.advanced and g.winter else ".")]
    elif p == Phase.BIRTHS:
        out += ["Births per camp: 1 woman 1, 2+ women 2. I roll."]
    elif p == Phase.SOWING:
        out += ["Crops on plain villages, 1 food each. #: list"]
    elif p == Phase.FATE_CARDS:
        if g.fate_drawn:
            out += ["Draw 1 fate card: " + tribe_labels(g, g.fate_drawn) + "."]
        else:
            out += ["Every hand is full: nobody draws."]
    elif p == Phase.END_OF_TURN:
        out += ["Move the season marker."]
        out += [f"{tribe_label(g.tribe(n))} announces {g.tribe(n).camps} camps!" for n in g.announced] \
            or [f"No tribe holds {R.VICTORY_CAMPS} camps."]
    back = g.can_resurrect()
    if back:
        out.append(f"{tribe_labels(g, back)} may come back (#).")
    if g.notes:
        out.append(season_notes(g))
    return out


def event_draw(g: MammutGame) -> list[str]:
    """This turn's event card: from which deck, a reshuffle first, the cards left after it."""
    deck = g.event_decks[g.season]
    out = [f"The {SEASON[g.season]} deck was empty: shuffle its {deck['left'] + 1} discards first."] \
        if g.event_reshuffled else []
    return out + [f"Draw a {SEASON[g.season]} event card, resolve it, discard it ({deck['left']} left)."]


def season_notes(g: MammutGame) -> str:
    """The reminder of the lasting effects: "Until winter ends: drought, flood"."""
    return f"Until {SEASON[g.season]} ends: " + ", ".join(NOTE.get(n, n) for n in g.notes) + "."


def phase_heading(g: MammutGame) -> str:
    """The phase in full words: "Year 1, summer turn 2 (game turn 1) - phase 2: new animals"."""
    if g.phase == Phase.SETUP:
        return "Setup"
    if g.phase == Phase.GAME_OVER:
        return "Game over"
    return (f"Year {g.year}, {SEASON[g.season]} turn {g.turn} (game turn {g.turn_number}) - "
            f"phase {g.phase.number}: {PHASE_NAME[g.phase]}")


def phase_help(g: MammutGame) -> list[str]:
    """The phase's help pages (the list's "Phase help"): what the table does, in full."""
    p, L = g.phase, tribe_labels
    if p == Phase.SETUP:
        return ["Clockwise from the first player, each tribe places 1 camp, 2 women and 5 warriors on a free space "
                "(no camp next to another tribe's camp unless a river divides them).",
                f"Each tribe starts with {R.FIRST_GAME_FOOD if g.first_game else R.START_FOOD} food "
                f"and {R.hand_size(g.n_tribes)} fate cards.",
                "Tell me who placed first and every camp placed on a mountain (a cave).",
                "A village on a plain may sow a crop now for 1 food.",
                "The season marker goes on the 2nd summer turn."]
    if p == Phase.GAME_OVER:
        if g.extinct:
            return ["Only animals are left: mankind is extinct and everybody loses."]
        return [f"{L(g, g.winners)} {'wins' if len(g.winners) == 1 else 'share the victory'}: "
                f"{R.VICTORY_CAMPS} or more camps at the end of two turns running{' and fire' if g.advanced else ''}."]
    lines: list[str] = []
    if p == Phase.EVENTS:
        lines += ["Remove all fire and flood markers.",
                  f"Draw one {SEASON[g.season]} event card, show it and resolve it now, then put it on the "
                  f"discards: {g.event_decks[g.season]['left']} cards left in the deck, "
                  f"{g.event_decks[g.season]['discards']} discarded; an empty deck is reshuffled from its discards.",
                  "Tell me every change of food, warriors, women, camps or fire. A region: I roll it (region 1-6 of "
                  "the plains, forests or mountains the card names; volcanoes are mountains).",
                  "An effect lasting until the end of the season: note it (Season note) and I remind you every turn."]
    elif p == Phase.NEW_ANIMALS:
        lines += [f"Draw {g.animals_to_draw} animal tokens from the bag.",
                  "Place each on the edge space its back shows: a brown capital letter is a mountain, "
                  "a small green letter a plain or forest."]
    elif p == Phase.ANIMAL_MOVEMENT:
        lines += [f"Direction die: {g.direction}. Read it on the die compass.",
                  "Animals sharing a space with people stay. All others move their full distance that way: "
                  "wolves 3, sabre-tooth tigers 3, bears 2, bison 2, rhinos 1, mammoths 1.",
                  "Blocked at the start: the opposite way. They stop at an obstacle, at people, or on their own kind "
                  "(a horde). Bison, rhinos and mammoths trample crops."]
    elif p == Phase.TRIBES_MOVE:
        lines += [f"Play order: {L(g, g.play_order)} ({ORDER_REASON[g.order_reason]}"
                  + (f", dice {g.order_rolls}" if g.order_rolls else "") + ").",
                  "In turn, each tribe moves its people 1 or 2 spaces (stop on a mountain, no crossing a lake or a "
                  "river).",
                  "A warrior and a woman alone on a free space may make a camp instead of moving: "
                  "tell me every camp made or abandoned" + (" and every fire caught." if g.advanced else ".")]
    elif p == Phase.COMBAT:
        lines += [f"Fight wherever tribes meet each other or animals: all of {L(g, g.play_order[:1])}'s fights "
                  f"first, then clockwise ({L(g, g.play_order)}).",
                  "Tell me each fight's sides (warriors, women, own village or cave; animal kind and number) and I roll.",
                  "Women alone with enemy warriors are captured without a fight. Tell me every camp taken or burnt."]
        lines += [f"Fought: {f['message']}" for f in g.fights]
    elif p == Phase.SURVIVAL:
        asks = ["spaces on a lake shore or river (fishing)"]
        if g.season == R.SUMMER:
            asks.append("forest spaces (gathering)")
        if R.is_last_summer_turn(g.season, g.turn):
            asks.append(f"occupied intact and damaged crops (harvest {R.HARVEST_INTACT} and {R.HARVEST_DAMAGED} food)")
        lines.append("For each tribe tell me the spaces it occupies: " + "; ".join(asks) + ".")
        for t in g.living():
            if t.survival is None:
                eat = S.food_eaten(t.people, g.winter, g.advanced, t.fire)
                lines.append(f"{tribe_label(t)}: {t.food} food, kills {t.kills_food}, {t.people} people eat {eat}.")
            elif t.to_remove:
                lines.append(f"{tribe_label(t)}: not enough food, remove {t.to_remove} warriors or women "
                             "(your choice).")
            else:
                lines.append(f"{tribe_label(t)}: fed, {t.food} food left.")
    elif p == Phase.BIRTHS:
        lines.append("For each tribe tell me its camps with exactly one woman and with two or more; I roll the births.")
        for t in g.living():
            if not t.camps:
                continue
            if t.births is None:
                lines.append(f"{tribe_label(t)}: {t.camps} camps, {t.women} women - waiting.")
            else:
                b = t.births
                lost = b["warriors_lost"] + b["women_lost"]
                lines.append(f"{tribe_label(t)}: {b['warriors_born']} warriors and {b['women_born']} women born"
                             + (f", {lost} lost (no tokens left)" if lost else "") + ".")
    elif p == Phase.SOWING:
        lines.append("Each tribe may plant a crop on each of its villages on a plain, for 1 food per crop. "
                     "Tell me the crops sown.")
    elif p == Phase.FATE_CARDS:
        size = R.hand_size(g.n_tribes)
        if g.fate_drawn:
            lines.append(f"Draw one fate card each: {L(g, g.fate_drawn)} (hand below {size}).")
        else:
            lines.append(f"Every hand holds {size} cards or more: nobody draws.")
    elif p == Phase.END_OF_TURN:
        lines.append("Move the season marker one space.")
        for n in g.announced:
            lines.append(f"{tribe_label(g.tribe(n))} holds {g.tribe(n).camps} camps and announces it: still "
                         f"{R.VICTORY_CAMPS} at the end of next turn" + (" with fire" if g.advanced else "") + " wins.")
        if not g.announced:
            lines.append(f"No tribe holds {R.VICTORY_CAMPS} camps.")
    back = g.can_resurrect()
    if back:
        lines.append(f"{L(g, back)} may come back once: 3 warriors and 1 woman on a free edge space, 8 food, "
                     "3 fate cards.")
    return lines


NOTHING_TO_ADD = "Nothing to add."


# ----- the tribes' books ---------------------------------------------------------------------------
def books(g: MammutGame) -> list[str]:
    """One line per tribe: "T1: 5war 2wom 1vil 0cave 15food 5cards"."""
    out = []
    for t in g.tribes:
        if t.eliminated:
            out.append(f"{tribe_tag(t)}: out" + ("" if t.resurrection_used else " (may come back in year 1)"))
            continue
        out.append(f"{tribe_tag(t)}: {t.warriors}war {t.women}wom {t.villages}vil {t.caves}cave {t.food}food "
                   f"{t.fate_cards}cards" + (" fire" if t.fire else "") + (" ANNOUNCED" if t.announced_turn else ""))
    return out


# ----- the phase's list and the menu ---------------------------------------------------------------
START_TURN = "Start turn 1"
NEXT_PHASE = "Next phase"
CONTINUE_REPORTS = "Continue reports"
PHASE_HELP = "Phase help"
NEW_GAME = "New game"
ROLL_DIE = "Roll a die"
LIST_LABEL = {  # the forms opened from the list
    "start_camp": "Camp on a mountain", "sow": "Sow a crop", "resurrect": "Resurrect a tribe",
    "make_camp": "Camp made", "fight": "Fight", "capture_camp": "Camp taken", "capture_women": "Women captured",
    "food": "Food gained/paid", "remove": "Tokens removed", "fate": "Fate cards played",
    "abandon_camp": "Camp abandoned", "fire": "Fire caught/lost", "add_tokens": "Tokens added",
    "region": "Region die", "note": "Season note",
}  # fmt: skip
SOWING_LABEL = "Crops sown"  # "sow" in the sowing phase
ACTIONS_HINT = "#=do *=back D=menu"
MENU_ITEMS = ("Actions", "Tribe books", "Undo last entry", "New game")  # the shell adds its own after these

# ----- information screens and questions -----------------------------------------------------------
ACTIONS_TITLE = "Actions"
NO_GAME_YET = "No game yet: answer the new game questions."
FINISH_QUESTION_FIRST = "Finish or leave (*) the question first."
BOOKS_TITLE = "Tribe books"
NO_GAME = "No game yet."
UNDO_TITLE = "Undo"
NOTHING_TO_UNDO = "Nothing to undo."
UNDO_QUESTION_TITLE = "Undo?"
UNDONE_TITLE = "Undone"
PUT_BACK = "Put the pieces back as they were."
NEW_GAME_QUESTION_TITLE = "New game?"
ABANDON = "This game will be abandoned."
REFUSED_TITLE = "Not allowed"
NOBODY_CAN = "nobody can do that now"


def die_rolled(value: int) -> str:
    return f"Die: {value}"


def refusal(message: str) -> str:
    """A refusal as a sentence: capitalised, with a full stop."""
    return message[:1].upper() + message[1:] + ("" if message.endswith(".") else ".")
