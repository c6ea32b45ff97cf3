"""What the Valley of the Mammoths table says aloud: each phase's instruction, the dice, refusals.

`phase(game)` is announced whenever the year, season, turn or phase changes (and at
a resume), `dice(rolls)` after every game call that rolled, `refused(message)` with
the refusal beep; the end beeps. Fields are values only (a tribe is its name, color
and number; the phase its code), said in the table's language by `say` when spoken.
Short sentences for a listener: no key names, no abbreviations.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from companion.games.mammut import rules as R
from companion.games.mammut import texts as T
from companion.games.mammut.phases import Phase
from companion.i18n import _, ngettext
from companion.table.effects import Announce, beep
from companion.table.speech import spoken_list

if TYPE_CHECKING:
    from companion.games.mammut.game import MammutGame

KIND = "mammut"


def _a(event: str, **fields: object) -> Announce:
    return Announce(KIND, event, dict(fields))


def _tribes(game: MammutGame, numbers: Sequence[int]) -> list[dict]:
    out = []
    for n in numbers:
        t = game.tribe(n)
        out.append({"name": t.name, "color": t.color, "number": t.number})
    return out


# ----- the announcements (values) -------------------------------------------------------------
def phase_key(game: MammutGame) -> tuple:
    return game.year, game.season, game.turn, game.phase


def phase(game: MammutGame, new_turn: bool) -> list[Announce]:
    """The phase the table is in now, with what to do in it; `new_turn`: the year, season and turn first."""
    p, out = game.phase, []
    fields: dict = {"phase": p.value, "year": game.year, "season": game.season, "turn": game.turn,
                    "new_turn": new_turn}
    if p == Phase.SETUP:
        fields["first"] = _tribes(game, [game.first_player])
    elif p == Phase.GAME_OVER:
        fields.update(extinct=bool(game.extinct), winners=_tribes(game, game.winners or ()))
        out.append(beep("end"))
    elif p == Phase.NEW_ANIMALS:
        fields["animals"] = game.animals_to_draw
    elif p == Phase.ANIMAL_MOVEMENT:
        fields["direction"] = game.direction
    elif p in (Phase.TRIBES_MOVE, Phase.COMBAT):
        fields["order"] = _tribes(game, game.play_order)
    elif p == Phase.FATE_CARDS:
        fields["drawing"] = _tribes(game, game.fate_drawn)
    return out + [_a("phase", **fields)]


def dice(rolls: Sequence[int]) -> Announce:
    return _a("dice", rolls=list(rolls))


def refused(message: str) -> list[Announce]:
    """A refusal: `message` is the rules' reason, already in the table's language (an engine error)."""
    return [beep("refused"), _a("refused", message=message)]


# ----- the sentences --------------------------------------------------------------------------
def _tribe(ref: dict) -> str:
    if ref.get("name"):
        return ref["name"]
    if ref.get("color") in T.COLOR:
        return _(T.COLOR[ref["color"]])
    return _("Tribe {number}").format(number=ref["number"])


def _names(refs: Sequence[dict]) -> str:
    return spoken_list(_tribe(r) for r in refs)


def _phase(f: dict) -> str:
    p = Phase(f["phase"])
    if p == Phase.SETUP:
        return _("Setup. {tribe} places first.").format(tribe=_names(f["first"]))
    if p == Phase.GAME_OVER:
        if f["extinct"]:
            return _("Game over. Only animals are left: everybody loses.")
        return ngettext("Game over. {tribes} wins.", "Game over. {tribes} share the victory.",
                        len(f["winners"])).format(tribes=_names(f["winners"]))
    head = _("Phase {number}, {phase}.").format(number=p.number, phase=_(T.PHASE_NAME[p]))
    if f["new_turn"]:
        head = _("Year {year}, {season}, turn {turn}.").format(
            year=f["year"], season=T.season(f["season"]), turn=f["turn"]) + " " + head
    if p == Phase.EVENTS:
        return head + " " + _("Draw an event card and resolve it.")
    if p == Phase.NEW_ANIMALS:
        return head + " " + ngettext("Draw {n} animal token.", "Draw {n} animal tokens.", f["animals"]).format(
            n=f["animals"])
    if p == Phase.ANIMAL_MOVEMENT:
        return head + " " + _("The direction die shows {die}.").format(die=f["direction"])
    if p in (Phase.TRIBES_MOVE, Phase.COMBAT) and not f["order"]:
        return head  # no play order decided: nothing to say about it
    if p == Phase.TRIBES_MOVE:
        return head + " " + _("Order: {tribes}.").format(tribes=_names(f["order"]))
    if p == Phase.COMBAT:
        return head + " " + _("{tribe} fights first.").format(tribe=_names(f["order"][:1]))
    if p == Phase.FATE_CARDS:
        if f["drawing"]:
            return head + " " + _("Draw a fate card: {tribes}.").format(tribes=_names(f["drawing"]))
        return head + " " + _("Every hand is full: nobody draws.")
    if p == Phase.END_OF_TURN:
        return head + " " + _("Move the season marker.")
    if p == Phase.SURVIVAL:
        return head + " " + (_("Fishing, forests, then eating.") if f["season"] == R.SUMMER
                             else _("Fishing, then eating."))
    return head


def say(event: str, f: dict) -> str:
    """The sentence for one announcement, in the table's language (KeyError for an unknown event)."""
    if event == "phase":
        return _phase(f)
    if event == "dice":
        return ngettext("Die rolled: {dice}.", "Dice rolled: {dice}.", len(f["rolls"])).format(
            dice=spoken_list(f["rolls"]))
    if event == "refused":
        return T.refusal(f["message"])
    raise KeyError(event)
