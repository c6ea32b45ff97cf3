"""The turn walker of a Mammut game: setup, moving from phase to phase, and resurrection.

`advance()` closes the current phase (refusing while the table still owes a report),
settles the books (camps without a woman are lost, tribes with nobody left are
eliminated) and enters the next phase the turn plays, doing what entering it does: the
animals to draw, the direction die, the play order, the fate cards drawn, the victory
check. With every tribe eliminated and none that may come back, it ends the game instead
(extinction). A mixin of `game.MammutGame` over `books.Books`.
"""

from __future__ import annotations

from companion.i18n import _

from . import rules as R
from .books import Books, Tribe
from .phases import RESURRECTION_PHASES, TURN_PHASES, Phase, phase_applies
from .rules import MammutError


class TurnWalker(Books):
    """Setup, `advance()` through the phases, resurrection."""

    # --- setup ----------------------------------------------------------------------

    def set_first_player(self, tribe: int) -> None:
        """Setup: the tribe that placed its camp first; it plays first in turn 1."""

        def do() -> None:
            self._need_phase(Phase.SETUP)
            self.first_player = self.tribe(tribe).number

        self._run("set_first_player", {"tribe": tribe}, do)

    def set_start_camp(self, tribe: int, kind: str) -> None:
        """Setup: the starting camp is a village (plain/forest, the default) or a cave (mountain)."""

        def do() -> None:
            self._need_phase(Phase.SETUP)
            t = self.tribe(tribe)
            if kind not in R.CAMP_KINDS:
                raise MammutError(_("a camp is a {village} or a {cave}, not {kind}").format(
                    village=R.VILLAGE, cave=R.CAVE, kind=repr(kind)))
            if kind == R.CAVE and t.sown:
                raise MammutError(_("{tribe} sowed a crop on its village: a cave cannot hold one").format(
                    tribe=t.label))
            t.villages, t.caves = (1, 0) if kind == R.VILLAGE else (0, 1)

        self._run("set_start_camp", {"tribe": tribe, "kind": kind}, do)

    # --- phase walking --------------------------------------------------------------

    def advance(self) -> Phase:
        """Close the current phase and enter the next one that applies; returns it.

        Raises `MammutError` naming what the table still has to report."""
        return self._run("advance", {}, self._advance)

    def _advance(self) -> Phase:
        self._check_can_leave()
        self._settle()
        if self.phase == Phase.SETUP:
            nxt = self._first_phase()
        else:
            later = TURN_PHASES[TURN_PHASES.index(self.phase) + 1 :]
            nxt = next((p for p in later if phase_applies(p, self.season, self.turn, self.turn_number)), None)
            if nxt is None:
                season = self.season
                self.year, self.season, self.turn = R.next_turn(self.year, self.season, self.turn)
                if self.season != season:
                    self.notes = []  # "until the end of the season" effects end with it
                self._new_turn()
                nxt = self._first_phase()
        if not self.living() and not any(self._may_come_back(t, nxt) for t in self.tribes):
            # Only animals are left (rulebook: everybody loses) and no tribe may come back in
            # `nxt`: the game ends now, not at phase 10, so no phase is played without a tribe
            # (phase 4 would have nobody to put in a play order).
            self.extinct = True
            self.phase = Phase.GAME_OVER
            return self.phase
        self._enter(nxt)
        return self.phase

    def _first_phase(self) -> Phase:
        return next(p for p in TURN_PHASES if phase_applies(p, self.season, self.turn, self.turn_number))

    def _check_can_leave(self) -> None:
        for t in self.living():
            if t.to_remove:
                raise MammutError(_("{tribe} must still remove {n} warriors or women it cannot feed").format(
                    tribe=t.label, n=t.to_remove))
            if 0 < t.women < t.camps:
                raise MammutError(_("{tribe} holds {camps} camps but only {women} women: a camp without a woman "
                                    "is abandoned, tell me which (abandon camp)").format(
                    tribe=t.label, camps=t.camps, women=t.women))
        if self.phase == Phase.SURVIVAL:
            missing = [t.label for t in self.living() if t.survival is None]
            if missing:
                raise MammutError(_("survival not reported yet for {tribes}").format(tribes=", ".join(missing)))
        if self.phase == Phase.BIRTHS:
            missing = [t.label for t in self.living() if t.camps and t.births is None]
            if missing:
                raise MammutError(_("births not reported yet for {tribes}").format(tribes=", ".join(missing)))

    def _settle(self) -> None:
        """Camps without any woman are abandoned; tribes with nobody left are eliminated."""
        for t in self.living():
            if t.women == 0 and t.camps:
                t.villages = t.caves = 0
            if t.camps == 0:
                t.fire = False
            if t.people == 0:
                t.eliminated = True
                t.eliminated_turn = self.turn_number
                t.eliminated_year = self.year
                t.food = t.fate_cards = 0
                t.announced_turn = None
                t.to_remove = 0

    def _new_turn(self) -> None:
        for t in self.tribes:
            t.kills_food = 0
            t.survival = None
            t.births = None
            t.sown = 0
            t.to_remove = 0
        self.play_order = []
        self.order_reason = ""
        self.order_rolls = []
        self.animals_to_draw = 0
        self.direction = None
        self.fate_drawn = []
        self.announced = []
        self.fights = []
        self.event_reshuffled = False

    def _enter(self, phase: Phase) -> None:
        self.phase = phase
        if phase == Phase.EVENTS:
            self._draw_event()
        elif phase == Phase.NEW_ANIMALS:
            self.animals_to_draw = R.animal_count(len(self.living()), self.season, self.turn_number == 1)
        elif phase == Phase.ANIMAL_MOVEMENT:
            self.direction = self._die()
        elif phase == Phase.TRIBES_MOVE:
            standings = [R.Standing(t.number, t.camps, t.people, t.food) for t in self.living()]
            if standings:
                first = self.first_player if self.turn_number == 1 else None
                if first is not None and self.tribe(first).eliminated:
                    first = None
                po = R.play_order(standings, self._die, first)
                self.play_order, self.order_reason, self.order_rolls = po.order, po.reason, po.tie_rolls
        elif phase == Phase.FATE_CARDS:
            living = self.living()
            draws = R.fate_draws([t.fate_cards for t in living], self.n_tribes)
            self.fate_drawn = [t.number for t, d in zip(living, draws) if d]
            for t, d in zip(living, draws):
                t.fate_cards += d
        elif phase == Phase.END_OF_TURN:
            if R.extinct([t.people for t in self.tribes]):
                self.extinct = True
                self.phase = Phase.GAME_OVER
                return
            living = self.living()
            standings = [
                R.VictoryStanding(t.number, t.camps, t.fire, t.announced_turn == self.turn_number - 1) for t in living
            ]
            winners, announce = R.end_of_turn(standings, self.advanced)
            for t in living:
                t.announced_turn = self.turn_number if t.number in announce else None
            self.announced = announce
            if winners:
                self.winners = winners
                self.phase = Phase.GAME_OVER

    # --- resurrection ---------------------------------------------------------------

    def resurrect(self, tribe: int) -> None:
        """A tribe eliminated in the first year restarts once with 3 warriors, 1 woman,
        8 food and 3 fate cards, on a free edge space, early in the next turn."""

        def do() -> None:
            t = self.tribe(tribe)
            R.check_resurrection(t.eliminated, t.resurrection_used, t.eliminated_year)
            if self.phase not in RESURRECTION_PHASES or self.turn_number != (t.eliminated_turn or 0) + 1:
                raise MammutError(_("{tribe} comes back at the start of the turn after its elimination "
                                    "(turn {turn}), before the tribes move").format(
                    tribe=t.label, turn=(t.eliminated_turn or 0) + 1))
            t.eliminated = False
            t.resurrection_used = True
            t.warriors, t.women = R.RESURRECTION_WARRIORS, R.RESURRECTION_WOMEN
            t.villages = t.caves = 0
            t.food, t.fate_cards = R.RESURRECTION_FOOD, R.RESURRECTION_CARDS
            t.fire = False
            t.announced_turn = None

        self._run("resurrect", {"tribe": tribe}, do)

    def can_resurrect(self) -> list[int]:
        """Tribes that may resurrect right now."""
        return [t.number for t in self.tribes if self._may_come_back(t, self.phase)]

    def _may_come_back(self, t: Tribe, phase: Phase) -> bool:
        """Whether `t` may resurrect in `phase` of the current turn."""
        return (
            t.eliminated
            and not t.resurrection_used
            and t.eliminated_year == 1
            and phase in RESURRECTION_PHASES
            and self.turn_number == (t.eliminated_turn or 0) + 1
        )
