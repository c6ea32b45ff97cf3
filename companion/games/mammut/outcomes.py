"""What the Mammut table is told after an action (the reports), what each entry of the game
log is called when it is taken back, and a finished game in a few words for the history.
Tribes are named as the table knows them (`texts.tribe_label`: color, short name or number).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import rules as R
from .books import Tribe
from .texts import ANIMAL, ANIMAL_PLURAL, CAMP_KIND, TERRAIN, camps, count, tribe_label, tribe_tag, warriors, women

if TYPE_CHECKING:  # type names only
    from .game import MammutGame


# ----- reports: what the table is told after an action ---------------------------------------------
def survival_report(t: Tribe, r: dict) -> list[str]:
    parts = [f"{name} {r[key]}" for key, name in (("fishing", "fish"), ("gathering", "forest"),
                                                     ("kills", "kills")) if r[key]]
    harvest = R.HARVEST_INTACT * r["crops_intact"] + R.HARVEST_DAMAGED * r["crops_damaged"]
    if harvest:
        parts.append(f"harvest {harvest}")
    out = [f"{tribe_label(t)}: +{r['income']} food" + (f" ({', '.join(parts)})" if parts else "")
           + f", eats {r['eaten']}: {r['food']} left."]
    if r["remove"]:
        out.append(f"Not enough food: remove {r['remove']} warriors or women.")
    return out


def births_report(t: Tribe, b: dict) -> list[str]:
    if not b["dice"]:
        return [f"{tribe_label(t)}: no births."]
    dice = " ".join(str(d[0]) if len(d) == 1 else f"6({d[1]},{d[2]})" for d in b["dice"])
    out = [f"{tribe_label(t)}: {warriors(b['warriors_born'])} and {women(b['women_born'])} born.", f"Dice {dice}."]
    lost = b["warriors_lost"] + b["women_lost"]
    if lost:
        out.append(f"{lost} lost: no token left in the box.")
    return out


def side_name(g: MammutGame, side: dict) -> str:
    """A side of a fight, short: the tribe's tag ("Red", "T2"), or the animal."""
    if "tribe" in side:
        return tribe_tag(g.tribe(side["tribe"]))
    return ANIMAL.get(side.get("animal"), str(side.get("animal")))


def rounds_lines(g: MammutGame, sides: list[dict], rounds: list[dict]) -> list[str]:
    """One line a round: "7 v 5: Red -warrior", "6 v 6: tie"."""
    names = [side_name(g, s) for s in sides]
    out = []
    for rnd in rounds:
        totals = " v ".join(str(t) for t in rnd["totals"] if t is not None)
        if rnd["losers"]:
            lost = ", ".join(f"{names[i]} -{'1' if k == 'animal' else k}" for i, k in zip(rnd["losers"], rnd["lost"]))
            out.append(f"{totals}: {lost or 'loses'}")
        else:
            out.append(f"{totals}: tie")
    return out


def fight_report(g: MammutGame, sides: list[dict], r: dict) -> list[str]:
    """The outcome of a fight, or the rounds so far while a loser chooses its token."""
    if "pending" in r:
        return rounds_lines(g, sides, r["rounds"])
    out = []
    if r.get("animal"):
        plural = ANIMAL_PLURAL[r["animal"]]
        if r["winner_tribe"] is not None:
            out.append(f"{tribe_label(g.tribe(r['winner_tribe']))} wins: "
                       f"{count(r['animals_killed'], ANIMAL[r['animal']], plural)} killed, {r['food']} food in survival.")
        else:
            out.append(f"The {plural} win ({r['animals_killed']} killed).")
    else:
        out.append(f"{tribe_label(g.tribe(r['winner_tribe']))} wins.")
    for loss in r["losses"]:
        lost = [warriors(loss["warriors"])] if loss["warriors"] else []
        lost += [women(loss["women"])] if loss["women"] else []
        if lost:
            out.append(f"{tribe_label(g.tribe(loss['tribe']))} removes {' and '.join(lost)}.")
    if not r.get("animal"):
        out.append("Beaten tribes here: women and camp can be captured (# list).")
    return out + rounds_lines(g, sides, r["rounds"])


def camp_taken_report(winner: Tribe, loser: Tribe, kind: str, burn: bool, r: dict) -> list[str]:
    out = [f"{tribe_label(winner)} {'burns' if burn else 'takes'} a {CAMP_KIND[kind]} of {tribe_label(loser)} and "
           f"raids {r['food']} food" + (" (its last camp: half)." if r["last_camp"] else " (a quarter).")]
    if r["fire"]:
        out.append(f"{tribe_label(winner)} catches fire.")
    return out


def women_captured_report(captor: Tribe, r: dict) -> list[str]:
    return [f"{tribe_label(captor)}: {women(r['joined'])} join"
            + (f", {r['removed']} removed." if r["removed"] else ".")]


def tokens_removed_report(t: Tribe, n_warriors: int, n_women: int) -> list[str]:
    return [f"{tribe_label(t)} removes {warriors(n_warriors)} and {women(n_women)}."]


def tokens_added_report(t: Tribe, n_warriors: int, n_women: int) -> list[str]:
    return [f"{tribe_label(t)} adds {warriors(n_warriors)} and {women(n_women)}: {t.warriors} and {t.women} now."]


def region_report(terrain: str, die: int) -> list[str]:
    """What the region die selects: "Region die 4: forest region 4."."""
    return [f"Region die {die}: {TERRAIN[terrain].lower()} region {die}."]


def camp_made_report(t: Tribe, kind: str, n_camps: int) -> list[str]:
    return [f"{tribe_label(t)}'s camp is a {CAMP_KIND[kind]}: {camps(n_camps)}."]


def camp_abandoned_report(t: Tribe, kind: str, n_camps: int) -> list[str]:
    return [f"{tribe_label(t)} abandons a {CAMP_KIND[kind]}: {camps(n_camps)} left."]


def food_report(t: Tribe, delta: int, food: int) -> list[str]:
    return [f"{tribe_label(t)}: {'+' if delta > 0 else ''}{delta} food, {food} now."]


def fate_report(t: Tribe, cards: int) -> list[str]:
    return [f"{tribe_label(t)} holds {count(cards, 'fate card')}."]


def fire_report(t: Tribe, has_fire: bool) -> list[str]:
    return [f"{tribe_label(t)} {'has fire' if has_fire else 'has no fire'}."]


def resurrect_report(t: Tribe) -> list[str]:
    return [f"{tribe_label(t)} comes back: {R.RESURRECTION_WARRIORS} warriors and {R.RESURRECTION_WOMEN} woman on a "
            f"free edge space, {R.RESURRECTION_FOOD} food, {R.RESURRECTION_CARDS} fate cards."]


def sow_report(t: Tribe, crops: int, food: int) -> list[str]:
    return [f"{tribe_label(t)} sows {count(crops, 'crop')}: {food} food left."]


# ----- undo: what an entry of the game log was ----------------------------------------------------
UNDO_ADVANCE, UNDO_FIRST_PLAYER, UNDO_DIE = "the step to the next phase", "who placed first", "a die roll"
UNDO_START_CAMP, UNDO_SOW, UNDO_MAKE_CAMP = "a start camp", "crops sown", "a camp made"
UNDO_ABANDON_CAMP, UNDO_FIGHT, UNDO_CAPTURE_CAMP = "a camp abandoned", "a fight", "a camp taken"
UNDO_CAPTURE_WOMEN, UNDO_REMOVE, UNDO_FOOD = "women captured", "tokens removed", "a food change"
UNDO_FATE, UNDO_FIRE, UNDO_SURVIVAL = "fate cards played", "a fire change", "a survival report"
UNDO_BIRTHS, UNDO_RESURRECT = "births", "a resurrection"
UNDO_LOSS, UNDO_ADD_TOKENS, UNDO_REGION, UNDO_NOTE = "a token lost", "tokens added", "a region die", "a season note"


def entry_who(g: MammutGame, entry: dict) -> str:
    """Whose entry it was: " (Red)", " (Red v mammoth)", or nothing."""
    args = entry.get("args", {})
    for k in ("tribe", "winner", "captor"):
        if k in args and isinstance(args[k], int) and 1 <= args[k] <= g.n_tribes:
            return f" ({tribe_label(g.tribe(args[k]))})"
    if entry["action"] == "fight":
        return " (" + " v ".join(side_name(g, s) for s in args.get("sides", [])) + ")"
    return ""


def take_back(words: str, who: str) -> str:
    return f"Take back {words}{who}?"


def taken_back(words: str, who: str) -> str:
    return f"Taken back: {words}{who}."


def history_text(result: dict) -> str:
    """A finished game in a few words for the table's history: "Red, Blue won"."""
    if result.get("extinct"):
        return "extinct, everybody lost"
    start = ((result.get("log") or {}).get("log") or [{}])[0].get("args", {})
    names, colors = start.get("names") or [], start.get("colors") or []
    winners = [n for n in result.get("winners") or [] if isinstance(n, int) and n > 0]

    def name(n: int) -> str:  # the tribe as the game named it, by the one rule of `tribe_label`
        given = names[n - 1] if n <= len(names) and isinstance(names[n - 1], str) else ""
        return tribe_label(Tribe(n, given, 0, 0, colors[n - 1] if n <= len(colors) else None))

    return ", ".join(name(n) for n in winners) + (" won" if winners else "")
