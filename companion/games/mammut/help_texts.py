"""The phase's help pages (the list's "Phase help"): what the table does in each phase, in full.

Beside `texts.phase_summary` (the short phase screen), whose words these pages read.
Every sentence goes through `companion.i18n` when the pages are built.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.i18n import _, ngettext

from . import rules as R
from . import survival as S
from .phases import Phase
from .texts import ORDER_REASON, order_decided, season, tribe_label, tribe_labels

if TYPE_CHECKING:  # type names only
    from .game import MammutGame


def _setup(g: MammutGame) -> list[str]:
    return [_("Clockwise from the first player, each tribe places 1 camp, 2 women and 5 warriors on a free space "
              "(no camp next to another tribe's camp unless a river divides them)."),
            _("Each tribe starts with {food} food and {cards} fate cards.").format(
                food=R.FIRST_GAME_FOOD if g.first_game else R.START_FOOD, cards=R.hand_size(g.n_tribes)),
            _("Tell me who placed first and every camp placed on a mountain (a cave)."),
            _("A village on a plain may sow a crop now for 1 food."),
            _("The season marker goes on the 2nd summer turn.")]


def _game_over(g: MammutGame) -> list[str]:
    if g.extinct:
        return [_("Only animals are left: mankind is extinct and everybody loses.")]
    if g.advanced:
        text = ngettext("{tribes} wins: {n} or more camps at the end of two turns running and fire.",
                        "{tribes} share the victory: {n} or more camps at the end of two turns running and fire.",
                        len(g.winners))
    else:
        text = ngettext("{tribes} wins: {n} or more camps at the end of two turns running.",
                        "{tribes} share the victory: {n} or more camps at the end of two turns running.",
                        len(g.winners))
    return [text.format(tribes=tribe_labels(g, g.winners), n=R.VICTORY_CAMPS)]


def _events(g: MammutGame) -> list[str]:
    deck = g.event_decks[g.season]
    return [_("Remove all fire and flood markers."),
            _("Draw one {season} event card, show it and resolve it now, then put it on the discards: {left} cards "
              "left in the deck, {discards} discarded; an empty deck is reshuffled from its discards.").format(
                season=season(g.season), left=deck["left"], discards=deck["discards"]),
            _("Tell me every change of food, warriors, women, camps or fire. A region: I roll it (region 1-6 of "
              "the plains, forests or mountains the card names; volcanoes are mountains)."),
            _("An effect lasting until the end of the season: note it (Season note) and I remind you every turn.")]


def _tribes_move(g: MammutGame) -> list[str]:
    first: list[str] = []
    if order_decided(g):
        order, reason = tribe_labels(g, g.play_order), _(ORDER_REASON[g.order_reason])
        first = [_("Play order: {order} ({reason}, dice {dice}).").format(order=order, reason=reason,
                                                                            dice=g.order_rolls)
                 if g.order_rolls else _("Play order: {order} ({reason}).").format(order=order, reason=reason)]
    return first + [
            _("In turn, each tribe moves its people 1 or 2 spaces (stop on a mountain, no crossing a lake or a "
              "river)."),
            _("A warrior and a woman alone on a free space may make a camp instead of moving: tell me every camp "
              "made or abandoned and every fire caught.") if g.advanced else
            _("A warrior and a woman alone on a free space may make a camp instead of moving: tell me every camp "
              "made or abandoned.")]


def _combat(g: MammutGame) -> list[str]:
    lines = [_("Fight wherever tribes meet each other or animals: all of {first}'s fights first, then clockwise "
               "({order}).").format(first=tribe_labels(g, g.play_order[:1]), order=tribe_labels(g, g.play_order)),
             _("Tell me each fight's sides (warriors, women, own village or cave; animal kind and number) and I roll."),
             _("Women alone with enemy warriors are captured without a fight. Tell me every camp taken or burnt.")]
    # the fight's summary is the engine's words, stored with the game (see the module `fights`)
    return lines + [_("Fought: {summary}").format(summary=f["message"]) for f in g.fights]


def _survival(g: MammutGame) -> list[str]:
    asks = [_("spaces on a lake shore or river (fishing)")]
    if g.season == R.SUMMER:
        asks.append(_("forest spaces (gathering)"))
    if R.is_last_summer_turn(g.season, g.turn):
        asks.append(_("occupied intact and damaged crops (harvest {intact} and {damaged} food)").format(
            intact=R.HARVEST_INTACT, damaged=R.HARVEST_DAMAGED))
    lines = [_("For each tribe tell me the spaces it occupies: {asks}.").format(asks="; ".join(asks))]
    for t in g.living():
        if t.survival is None:
            eat = S.food_eaten(t.people, g.winter, g.advanced, t.fire)
            lines.append(_("{tribe}: {food} food, kills {kills}, {people} people eat {eat}.").format(
                tribe=tribe_label(t), food=t.food, kills=t.kills_food, people=t.people, eat=eat))
        elif t.to_remove:
            lines.append(_("{tribe}: not enough food, remove {n} warriors or women (your choice).").format(
                tribe=tribe_label(t), n=t.to_remove))
        else:
            lines.append(_("{tribe}: fed, {food} food left.").format(tribe=tribe_label(t), food=t.food))
    return lines


def _births(g: MammutGame) -> list[str]:
    lines = [_("For each tribe tell me its camps with exactly one woman and with two or more; I roll the births.")]
    for t in g.living():
        if not t.camps:
            continue
        if t.births is None:
            lines.append(_("{tribe}: {camps} camps, {women} women - waiting.").format(
                tribe=tribe_label(t), camps=t.camps, women=t.women))
            continue
        b = t.births
        lost = b["warriors_lost"] + b["women_lost"]
        fields = {"tribe": tribe_label(t), "warriors": b["warriors_born"], "women": b["women_born"], "lost": lost}
        lines.append(_("{tribe}: {warriors} warriors and {women} women born, {lost} lost (no tokens left).").format(
            **fields) if lost else _("{tribe}: {warriors} warriors and {women} women born.").format(**fields))
    return lines


def _fate_cards(g: MammutGame) -> list[str]:
    size = R.hand_size(g.n_tribes)
    if g.fate_drawn:
        return [_("Draw one fate card each: {tribes} (hand below {size}).").format(
            tribes=tribe_labels(g, g.fate_drawn), size=size)]
    return [_("Every hand holds {size} cards or more: nobody draws.").format(size=size)]


def _end_of_turn(g: MammutGame) -> list[str]:
    lines = [_("Move the season marker one space.")]
    for n in g.announced:
        t = g.tribe(n)
        text = (_("{tribe} holds {camps} camps and announces it: still {n} at the end of next turn with fire wins.")
                if g.advanced else
                _("{tribe} holds {camps} camps and announces it: still {n} at the end of next turn wins."))
        lines.append(text.format(tribe=tribe_label(t), camps=t.camps, n=R.VICTORY_CAMPS))
    if not g.announced:
        lines.append(_("No tribe holds {n} camps.").format(n=R.VICTORY_CAMPS))
    return lines


def phase_help(g: MammutGame) -> list[str]:
    """The phase's help pages (the list's "Phase help"): what the table does, in full."""
    p = g.phase
    if p == Phase.SETUP:
        return _setup(g)
    if p == Phase.GAME_OVER:
        return _game_over(g)
    lines: list[str] = []
    if p == Phase.EVENTS:
        lines += _events(g)
    elif p == Phase.NEW_ANIMALS:
        lines += [ngettext("Draw {n} animal tokens from the bag.", "Draw {n} animal tokens from the bag.",
                           g.animals_to_draw).format(n=g.animals_to_draw),
                  _("Place each on the edge space its back shows: a brown capital letter is a mountain, "
                    "a small green letter a plain or forest.")]
    elif p == Phase.ANIMAL_MOVEMENT:
        lines += [_("Direction die: {die}. Read it on the die compass.").format(die=g.direction),
                  _("Animals sharing a space with people stay. All others move their full distance that way: "
                    "wolves 3, sabre-tooth tigers 3, bears 2, bison 2, rhinos 1, mammoths 1."),
                  _("Blocked at the start: the opposite way. They stop at an obstacle, at people, or on their own "
                    "kind (a horde). Bison, rhinos and mammoths trample crops.")]
    elif p == Phase.TRIBES_MOVE:
        lines += _tribes_move(g)
    elif p == Phase.COMBAT:
        lines += _combat(g)
    elif p == Phase.SURVIVAL:
        lines += _survival(g)
    elif p == Phase.BIRTHS:
        lines += _births(g)
    elif p == Phase.SOWING:
        lines.append(_("Each tribe may plant a crop on each of its villages on a plain, for 1 food per crop. "
                       "Tell me the crops sown."))
    elif p == Phase.FATE_CARDS:
        lines += _fate_cards(g)
    elif p == Phase.END_OF_TURN:
        lines += _end_of_turn(g)
    back = g.can_resurrect()
    if back:
        lines.append(_("{tribes} may come back once: 3 warriors and 1 woman on a free edge space, 8 food, "
                       "3 fate cards.").format(tribes=tribe_labels(g, back)))
    return lines
