"""R4: founding one village on a territory that a move isolated (chip, strife, destruction, scoring).

Called by `Game` while it plays a move, on the mover's behalf and in the founding
order; it changes the position in place (the huts left on the territory, the track)
and appends the `Village`. Undo is `Game.pop()`'s business: it restores what the
move's undo record saved before the first village was founded.

`founding_positions` says, without changing anything, what each place of a founding
order gets (chip, epoch, hostile terrain, bonus, or not founded): what the mover
decides on at "which village next?".
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.clans.board import COLORS, N_CHIPS
from companion.games.clans.rules import ONE, PRESENT_COLORS, PRESENT_INDEXES, SHIFT, GameState, Village, new_tuple


def found_village(game: GameState, t: int) -> None:
    """R4 for one village on t, taking the next chip (the mover is `game.to_move`)."""
    chip = len(game.villages)
    epoch_no, hostile, favorable, bonus = game.rules.chip_rules[chip]
    p = game.packed[t]
    huts = left = game.total[t]
    removed: dict[str, int] = {}
    if p & 0xF and p & 0xF0 and p & 0xF00 and p & 0xF000 and p & 0xF0000:  # all 5 colors: strife
        for i in range(5):
            if (p >> SHIFT[i]) & 15 == 1:
                removed[COLORS[i]] = 1
                p -= ONE[i]
        left -= len(removed)
    terrain = game.rules.terrain[t]
    destroyed = terrain == hostile
    if destroyed or not left:
        value, colors = 0, ()
    else:
        if favorable != "all" and favorable != terrain:
            bonus = 0
        value = left + bonus
        present = ((p & 0xF) > 0) | ((p & 0xF0) > 0) << 1 | ((p & 0xF00) > 0) << 2 | \
            ((p & 0xF000) > 0) << 3 | ((p & 0xF0000) > 0) << 4
        colors = PRESENT_COLORS[present]
        scores = game.scores
        for i in PRESENT_INDEXES[present]:
            scores[i] += value
    if destroyed:
        game.packed[t] = game.total[t] = 0
    elif removed:
        game.packed[t], game.total[t] = p, left
    game.villages.append(new_tuple(Village, (t, chip + 1, epoch_no, game.to_move, value, colors, destroyed,
                                             removed, huts, bonus if value else 0)))


@dataclass(frozen=True)
class Position:
    """What the village founded at one place of the founding order gets (spec section 4)."""

    chip: int  # 1..12
    epoch: int
    hostile: str | None  # the terrain destroyed there; None: nothing is destroyed
    favorable: str  # a terrain, or "all" (the 12th village: any terrain)
    bonus: int
    last: bool  # the 12th village (+last_village_bonus whatever its terrain)


def founding_positions(game: GameState, count: int, answered: int = 0) -> list[Position | None]:
    """Each of `count` founding places after `answered` already chosen: its chip, epoch, hostile
    terrain and bonus, or None where no chip is left (not founded). Pure: reads the position only."""
    start = len(game.villages) + answered
    rules = game.rules.chip_rules
    out: list[Position | None] = []
    for chip in range(start, start + count):
        if chip >= N_CHIPS:
            out.append(None)
            continue
        epoch, hostile, favorable, bonus = rules[chip]
        out.append(Position(chip + 1, epoch, hostile if hostile not in (None, "none") else None, favorable, bonus,
                            chip == N_CHIPS - 1))
    return out
