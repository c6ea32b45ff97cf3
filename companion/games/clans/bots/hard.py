"""The hard level: the normal search (bots.mcts), knowing the other seats' colors sooner, thinking 3x as long.

The normal bot learns who owns which color from founding moves only. The hard bot also reads
every quiet move (`bots.intent`: how likely each color was to make it, by the search's own
2-ply prior), so its determinizations come from a belief that knows the opponents' colors
about twice as early (against normal bots: the true color's probability 0.75 against 0.46 by
move 18). Its search is otherwise the normal one (determinizations drawn from that belief,
sequential halving, the mix reward, 12-move greedy-founding playouts) except for its width: it
searches as many of the best root moves by the 2-ply prior as its playouts can rank
(`ARM_PLAYOUTS`, from the rate the probe sweep measured, so a Pi counts the same as this
machine): 16 at the table's times, 8-9 at a normal bot's. At the table it thinks 3x the normal's
move time (levels.TIME_SCALE): 0.15 s here, about 1.5 s on a Pi 3; reading the history takes at
most half of it (a game resumed late is read over a few turns).

Measured (`companion arena --bots hard,normal,normal`, 3 players, 0.05 s here is about a Pi 3's
0.5 s, a fair share is 0.333; all in docs/playing.md, "The three levels, measured"): at the same
time per move 0.435 (270 games, seed 18; 0.480 and 0.422 on seeds 15 and 17 at 20 playouts an
arm, which at that budget also searches 8); at the table's times 0.396 (270 games, seed 19), and
0.38-0.47 on four other seeds. The extra time barely pays: 8 root moves at 3x won 0.419 and 0.369
(seeds 20, 21), 16 at 1x 0.346 and 0.338 (seeds 13, 12). Tried before the quiet moves were read,
each within noise of a fair share or below it (90-180-game screens): paired playouts (common
random numbers) with determinizations drawn by a low-discrepancy sequence, playouts that avoid
handing the next seat a village, endgame playouts to the end, a margin-only reward, a fitted leaf
value, longer or shorter horizons (6, 20, 30 moves), steering away from moves that reveal its
color. What the search lacked was knowing whom it plays against: with the true colors given (a
cheat, for the measure) the normal search won 0.39 at equal time.
"""

from __future__ import annotations

import time
from typing import Iterator

from companion.games.clans.game import Game
from companion.games.clans.bots.belief import ColorModel
from companion.games.clans.bots.intent import History
from companion.games.clans.bots.mcts import Clock, MCTSBot

# Root moves searched: as many as the playouts the probe sweep measured can give 12 each in the first
# halving round: 16 at the table's times (1,000-2,000 playouts), 8-9 when the hard bot thinks no
# longer than a normal one (300-500, part of its time gone to reading). At 20 each the table's times
# lost arms too, and won 0.381 and 0.392 (270 games on seed 12, 180 on seed 16).
ARM_PLAYOUTS = 12


class HardBot(MCTSBot):
    """The hard level (see module doc). Options as MCTSBot's, plus `quiet` (read the other seats' quiet
    moves; False: the normal bot's belief, for comparison)."""

    name = "hard"

    def __init__(self, iterations: int | None = None, *, quiet: bool = True, clock: Clock = time.perf_counter,
                 **options) -> None:
        super().__init__(iterations=iterations, clock=clock, **{"arm_playouts": ARM_PLAYOUTS, **options})
        self.history = History(self.beta, self.model_eps, clock=clock) if quiet else None

    def model(self, game: Game, seat: int, k: int, deadline: float | None = None) -> ColorModel:
        """The normal bot's belief, sharpened by the other seats' quiet moves (bots.intent) when `quiet`,
        read until `deadline` (half the move time: a game resumed late is read over a few turns)."""
        if self.history is None:
            return super().model(game, seat, k)
        return ColorModel(game, {seat: k}, beta=self.beta, eps=self.model_eps,
                          loglik=self.history.loglik(game, deadline))

    def readings(self, game: Game, judged: set[int]) -> Iterator[tuple[int, list[float]]]:
        if self.history is None:
            return super().readings(game, judged)
        return ((seat, row if seat in judged else []) for seat, row in self.history.rows(game))
