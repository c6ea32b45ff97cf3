"""R4: founding one village on a territory that a move isolated (chip, strife, destruction, scoring).

Called by `Game` while it plays a move, on the mover's behalf and in the founding
order; it changes the position in place (the huts left on the territory, the track)
and appends the `Village`. Undo is `Game.pop()`'s business: it restores what the
move's undo record saved before the first village was founded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.clans.board import COLORS
from companion.games.clans.rules import ONE, PRESENT_COLORS, PRESENT_INDEXES, SHIFT, Village, new_tuple

if TYPE_CHECKING:
    from companion.games.clans.game import Game


def found_village(game: Game, t: int) -> None:
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
