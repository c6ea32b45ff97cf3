"""What the Mammut table is told after an action (the reports), what each entry of the game
log is called when it is taken back, and a finished game in a few words for the history.
Tribes are named as the table knows them (`texts.tribe_label`: color, short name or number).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from itertools import zip_longest

from companion.i18n import N_, _, ngettext, pgettext

from . import rules as R
from .books import Tribe
from .texts import TERRAIN_WORD, animal, animals, animals_killed, camps, phase_in_words, tribe_label, \
    tribe_tag, warriors, women

if TYPE_CHECKING:  # type names only
    from .game import MammutGame


# ----- reports: what the table is told after an action ---------------------------------------------
def survival_report(t: Tribe, r: dict) -> list[str]:
    parts = []
    if r["fishing"]:
        parts.append(_("fish {n}").format(n=r["fishing"]))
    if r["gathering"]:
        parts.append(_("forest {n}").format(n=r["gathering"]))
    if r["kills"]:
        parts.append(_("kills {n}").format(n=r["kills"]))
    harvest = R.HARVEST_INTACT * r["crops_intact"] + R.HARVEST_DAMAGED * r["crops_damaged"]
    if harvest:
        parts.append(_("harvest {n}").format(n=harvest))
    fields = {"tribe": tribe_label(t), "income": r["income"], "parts": ", ".join(parts), "eaten": r["eaten"],
              "food": r["food"]}
    out = [(_("{tribe}: +{income} food ({parts}), eats {eaten}: {food} left.") if parts
            else _("{tribe}: +{income} food, eats {eaten}: {food} left.")).format(**fields)]
    if r["remove"]:
        out.append(_("Not enough food: remove {n} warriors or women.").format(n=r["remove"]))
    return out


def births_report(t: Tribe, b: dict) -> list[str]:
    if not b["dice"]:
        return [_("{tribe}: no births.").format(tribe=tribe_label(t))]
    dice = " ".join(str(d[0]) if len(d) == 1 else f"6({d[1]},{d[2]})" for d in b["dice"])
    out = [_("{tribe}: {warriors} and {women} born.").format(
        tribe=tribe_label(t), warriors=warriors(b["warriors_born"]), women=women(b["women_born"])),
           _("Dice {dice}.").format(dice=dice)]
    lost = b["warriors_lost"] + b["women_lost"]
    if lost:
        out.append(_("{n} lost: no token left in the box.").format(n=lost))
    return out


def side_name(g: MammutGame, side: dict) -> str:
    """A side of a fight, short: the tribe's tag ("Red", "T2"), or the animal."""
    if "tribe" in side:
        return tribe_tag(g.tribe(side["tribe"]))
    return animal(str(side.get("animal")))


def versus(names: list[str]) -> str:
    """The sides of a fight: "Red v mammoth"."""
    # NOTE: "v" (versus) between the sides of a fight: "Red v mammoth"
    versus_word = pgettext("between the sides of a fight", "v")
    return f" {versus_word} ".join(names)


ANIMAL_DIES = {"wolf": N_("a wolf dies"), "tiger": N_("a tiger dies"), "bear": N_("a bear dies"),
               "bison": N_("a bison dies"), "rhino": N_("a rhino dies"), "mammoth": N_("a mammoth dies")}


def round_loss(side: dict, name: str, kind: str | None) -> str:
    """What one side lost in a round: "Red loses a warrior", "a bear dies"."""
    if kind == R.WARRIOR:
        return _("{side} loses a warrior").format(side=name)
    if kind == R.WOMAN:
        return _("{side} loses a woman").format(side=name)
    if "animal" in side and side["animal"] in ANIMAL_DIES:
        return _(ANIMAL_DIES[side["animal"]])
    return _("{side} loses a token").format(side=name)  # a side still choosing which


def rounds_lines(g: MammutGame, sides: list[dict], rounds: list[dict]) -> list[str]:
    """One line a round: "Red 7, Blue 5: Blue loses a warrior", "Red 6, Blue 6: tie, roll again"."""
    names = [tribe_label(g.tribe(s["tribe"])) if "tribe" in s else animal(str(s.get("animal"))) for s in sides]
    out = []
    for rnd in rounds:
        # NOTE: a side's total in a round: "Red 5" (the line wraps at 21 characters)
        scores = ", ".join(_("{side} {total}").format(side=names[i], total=t)
                           for i, t in enumerate(rnd["totals"]) if t is not None)
        if rnd["losers"]:
            losses = "; ".join(round_loss(sides[i], names[i], k)
                               for i, k in zip_longest(rnd["losers"], rnd["lost"][:len(rnd["losers"])]))
            out.append(_("{scores}: {losses}").format(scores=scores, losses=losses))
        else:
            out.append(_("{scores}: tie, roll again").format(scores=scores))
    return out


def fight_report(g: MammutGame, sides: list[dict], r: dict) -> list[str]:
    """The outcome of a fight, or the rounds so far while a loser chooses its token."""
    if "pending" in r:
        return rounds_lines(g, sides, r["rounds"])
    out = []
    if r.get("animal"):
        if r["winner_tribe"] is not None:
            out.append(_("{tribe} wins: {animals} killed, {food} food in survival.").format(
                tribe=tribe_label(g.tribe(r["winner_tribe"])), animals=animals_killed(r["animal"], r["animals_killed"]),
                food=r["food"]))
        else:
            out.append(_("The {animals} win ({n} killed).").format(animals=animals(r["animal"]), n=r["animals_killed"]))
    else:
        out.append(_("{tribe} wins.").format(tribe=tribe_label(g.tribe(r["winner_tribe"]))))
    for loss in r["losses"]:
        who, w, f = tribe_label(g.tribe(loss["tribe"])), loss["warriors"], loss["women"]
        if w and f:
            out.append(_("{tribe} removes {warriors} and {women}.").format(tribe=who, warriors=warriors(w),
                                                                            women=women(f)))
        elif w:
            out.append(_("{tribe} removes {warriors}.").format(tribe=who, warriors=warriors(w)))
        elif f:
            out.append(_("{tribe} removes {women}.").format(tribe=who, women=women(f)))
    if not r.get("animal"):
        out.append(_("Beaten tribes here: women and camp can be captured (# list)."))
    return out + rounds_lines(g, sides, r["rounds"])


CAMP_TAKEN = {  # (burnt, kind, the loser's last camp)
    (False, R.VILLAGE, True): N_("{winner} takes a village of {loser} and raids {food} food (its last camp: half)."),
    (False, R.VILLAGE, False): N_("{winner} takes a village of {loser} and raids {food} food (a quarter)."),
    (False, R.CAVE, True): N_("{winner} takes a cave of {loser} and raids {food} food (its last camp: half)."),
    (False, R.CAVE, False): N_("{winner} takes a cave of {loser} and raids {food} food (a quarter)."),
    (True, R.VILLAGE, True): N_("{winner} burns a village of {loser} and raids {food} food (its last camp: half)."),
    (True, R.VILLAGE, False): N_("{winner} burns a village of {loser} and raids {food} food (a quarter)."),
    (True, R.CAVE, True): N_("{winner} burns a cave of {loser} and raids {food} food (its last camp: half)."),
    (True, R.CAVE, False): N_("{winner} burns a cave of {loser} and raids {food} food (a quarter)."),
}


def camp_taken_report(winner: Tribe, loser: Tribe, kind: str, burn: bool, r: dict) -> list[str]:
    out = [_(CAMP_TAKEN[(bool(burn), kind, bool(r["last_camp"]))]).format(
        winner=tribe_label(winner), loser=tribe_label(loser), food=r["food"])]
    if r["fire"]:
        out.append(_("{tribe} catches fire.").format(tribe=tribe_label(winner)))
    return out


def women_captured_report(captor: Tribe, r: dict) -> list[str]:
    fields = {"tribe": tribe_label(captor), "women": women(r["joined"]), "removed": r["removed"]}
    return [(_("{tribe}: {women} join, {removed} removed.") if r["removed"]
             else _("{tribe}: {women} join.")).format(**fields)]


def tokens_removed_report(t: Tribe, n_warriors: int, n_women: int) -> list[str]:
    return [_("{tribe} removes {warriors} and {women}.").format(tribe=tribe_label(t), warriors=warriors(n_warriors),
                                                               women=women(n_women))]


def tokens_added_report(t: Tribe, n_warriors: int, n_women: int) -> list[str]:
    return [_("{tribe} adds {warriors} and {women}: {warriors_now} and {women_now} now.").format(
        tribe=tribe_label(t), warriors=warriors(n_warriors), women=women(n_women), warriors_now=t.warriors,
        women_now=t.women)]


def region_report(terrain: str, die: int) -> list[str]:
    """What the region die selects: "Region die 4: forest region 4."."""
    return [_("Region die {die}: {terrain} region {die}.").format(die=die, terrain=_(TERRAIN_WORD[terrain]))]


def camp_made_report(t: Tribe, kind: str, n_camps: int) -> list[str]:
    text = _("{tribe}'s camp is a village: {camps}.") if kind == R.VILLAGE else _("{tribe}'s camp is a cave: {camps}.")
    return [text.format(tribe=tribe_label(t), camps=camps(n_camps))]


def camp_abandoned_report(t: Tribe, kind: str, n_camps: int) -> list[str]:
    text = (_("{tribe} abandons a village: {camps} left.") if kind == R.VILLAGE
            else _("{tribe} abandons a cave: {camps} left."))
    return [text.format(tribe=tribe_label(t), camps=camps(n_camps))]


def food_report(t: Tribe, delta: int, food: int) -> list[str]:
    return [_("{tribe}: {delta} food, {food} now.").format(tribe=tribe_label(t),
                                                          delta=f"{'+' if delta > 0 else ''}{delta}", food=food)]


def fate_report(t: Tribe, cards: int) -> list[str]:
    return [ngettext("{tribe} holds {n} fate card.", "{tribe} holds {n} fate cards.", cards).format(
        tribe=tribe_label(t), n=cards)]


def fire_report(t: Tribe, has_fire: bool) -> list[str]:
    return [(_("{tribe} has fire.") if has_fire else _("{tribe} has no fire.")).format(tribe=tribe_label(t))]


def resurrect_report(t: Tribe) -> list[str]:
    return [_("{tribe} comes back: {warriors} warriors and {women} woman on a free edge space, {food} food, "
              "{cards} fate cards.").format(tribe=tribe_label(t), warriors=R.RESURRECTION_WARRIORS,
                                            women=R.RESURRECTION_WOMEN, food=R.RESURRECTION_FOOD,
                                            cards=R.RESURRECTION_CARDS)]


def sow_report(t: Tribe, crops: int, food: int) -> list[str]:
    return [ngettext("{tribe} sows {n} crop: {food} food left.", "{tribe} sows {n} crops: {food} food left.",
                     crops).format(tribe=tribe_label(t), n=crops, food=food)]


# ----- undo: what an entry of the game log was ----------------------------------------------------
# each a noun phrase shown in "Take back {what}?" and "Taken back: {what}."
UNDO_ADVANCE, UNDO_FIRST_PLAYER, UNDO_DIE = N_("the step to {phase}"), N_("who placed first"), N_("a die roll")
UNDO_START_CAMP, UNDO_SOW, UNDO_MAKE_CAMP = N_("a start camp"), N_("crops sown"), N_("a camp made")
UNDO_ABANDON_CAMP, UNDO_FIGHT, UNDO_CAPTURE_CAMP = N_("a camp abandoned"), N_("a fight"), N_("a camp taken")
UNDO_CAPTURE_WOMEN, UNDO_REMOVE, UNDO_FOOD = N_("women captured"), N_("tokens removed"), N_("a food change")
UNDO_FATE, UNDO_FIRE, UNDO_SURVIVAL = N_("fate cards played"), N_("a fire change"), N_("a survival report")
UNDO_BIRTHS, UNDO_RESURRECT = N_("births"), N_("a resurrection")
UNDO_LOSS, UNDO_ADD_TOKENS = N_("a token lost"), N_("tokens added")
UNDO_REGION, UNDO_NOTE = N_("a region die"), N_("a season note")


def undo_words(g: MammutGame, entry: dict, words: dict[str, str]) -> str:
    """The last entry of `g`'s log in words, in the table's language ("a fight", "the step to
    phase 5 (combat)"), read before it is taken back; `words`: each action's `N_` phrase."""
    if entry["action"] == "advance":
        return _(UNDO_ADVANCE).format(phase=phase_in_words(g.phase))
    return _(words[entry["action"]]) if entry["action"] in words else entry["action"]


def entry_who(g: MammutGame, entry: dict) -> str:
    """Whose entry it was: "Red", "Red v mammoth", or nothing."""
    args = entry.get("args", {})
    for k in ("tribe", "winner", "captor"):
        if k in args and isinstance(args[k], int) and 1 <= args[k] <= g.n_tribes:
            return tribe_label(g.tribe(args[k]))
    if entry["action"] == "fight":
        return versus([side_name(g, s) for s in args.get("sides", [])])
    return ""


def take_back(what: str, who: str) -> str:
    return (_("Take back {what} ({who})?") if who else _("Take back {what}?")).format(what=what, who=who)


def taken_back(what: str, who: str) -> str:
    return (_("Taken back: {what} ({who}).") if who else _("Taken back: {what}.")).format(what=what, who=who)


def back_in(g: MammutGame) -> str:
    """After an undo of a step to the next phase: where the table is now."""
    return _("You are back in {phase}.").format(phase=phase_in_words(g.phase))


def history_text(result: dict) -> str:
    """A finished game in a few words for the table's history: "Red, Blue won" (shown, never stored)."""
    if result.get("extinct"):
        return _("extinct, everybody lost")
    start = ((result.get("log") or {}).get("log") or [{}])[0].get("args", {})
    names, colors = start.get("names") or [], start.get("colors") or []
    winners = [n for n in result.get("winners") or [] if isinstance(n, int) and n > 0]

    def name(n: int) -> str:  # the tribe as the game named it, by the one rule of `tribe_label`
        given = names[n - 1] if n <= len(names) and isinstance(names[n - 1], str) else ""
        return tribe_label(Tribe(n, given, 0, 0, colors[n - 1] if n <= len(colors) else None))

    return _("{tribes} won").format(tribes=", ".join(name(n) for n in winners)) if winners else ""
