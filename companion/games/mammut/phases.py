"""The phases of a Mammut turn, and which of them a given turn plays.

A turn has ten phases (MAMMUT.md); some apply only at the end of a season (births,
fate cards), only at the end of winter (sowing) or from the third turn on (events).
`SETUP` comes before the first turn and `GAME_OVER` after the last.
`PHASE_NAME` is each phase's name (marked `N_`, translated where shown).
"""

from __future__ import annotations

from enum import Enum

from companion.i18n import N_

from . import rules as R


class Phase(str, Enum):
    SETUP = "setup"
    EVENTS = "events"
    NEW_ANIMALS = "new_animals"
    ANIMAL_MOVEMENT = "animal_movement"
    TRIBES_MOVE = "tribes_move"
    COMBAT = "combat"
    SURVIVAL = "survival"
    BIRTHS = "births"
    SOWING = "sowing"
    FATE_CARDS = "fate_cards"
    END_OF_TURN = "end_of_turn"
    GAME_OVER = "game_over"

    @property
    def number(self) -> int:
        """The rulebook's phase number 1-10 (0 for setup and game over)."""
        return TURN_PHASES.index(self) + 1 if self in TURN_PHASES else 0


TURN_PHASES: tuple[Phase, ...] = (
    Phase.EVENTS,
    Phase.NEW_ANIMALS,
    Phase.ANIMAL_MOVEMENT,
    Phase.TRIBES_MOVE,
    Phase.COMBAT,
    Phase.SURVIVAL,
    Phase.BIRTHS,
    Phase.SOWING,
    Phase.FATE_CARDS,
    Phase.END_OF_TURN,
)

# the rulebook's names of the phases: the engine's refusals and the table's screens show them through `_`
PHASE_NAME = {
    Phase.SETUP: N_("setup"), Phase.EVENTS: N_("events"), Phase.NEW_ANIMALS: N_("new animals"),
    Phase.ANIMAL_MOVEMENT: N_("animal movement"), Phase.TRIBES_MOVE: N_("tribes move"), Phase.COMBAT: N_("combat"),
    Phase.SURVIVAL: N_("survival"), Phase.BIRTHS: N_("births"), Phase.SOWING: N_("sowing"),
    Phase.FATE_CARDS: N_("fate cards"), Phase.END_OF_TURN: N_("end of turn"), Phase.GAME_OVER: N_("game over"),
}  # fmt: skip

# A tribe eliminated in the first year comes back early in the next turn (before the tribes move).
RESURRECTION_PHASES = (Phase.EVENTS, Phase.NEW_ANIMALS, Phase.ANIMAL_MOVEMENT)


def phase_applies(phase: Phase, season: str, turn: int, number: int) -> bool:
    """Whether `phase` is played in the turn (season, turn within season, game turn number)."""
    if phase == Phase.EVENTS:
        return R.events_this_turn(number)
    if phase in (Phase.BIRTHS, Phase.FATE_CARDS):
        return R.is_season_end(turn)
    if phase == Phase.SOWING:
        return season == R.WINTER and R.is_season_end(turn)
    return phase in TURN_PHASES
