"""The hard level: the normal search (bots.mcts), thinking 3x as long, with paired comparisons.

What it does, on top of the normal bot's flat Monte Carlo (the 16 best root moves by the 2-ply
prior, determinizations from `belief.ColorModel`, sequential halving, the mix reward, 12-move
greedy-founding playouts):

- Common random numbers (`crn`): the halving goes sweep by sweep, and every move still in is
  played out on the same determinization with the same playout seed, so the moves are compared
  on the same colors and the same luck rather than on independent draws.
- Stratified determinizations (`stratify`): the sweeps walk the belief's cumulative weights by a
  golden-ratio (low-discrepancy) sequence instead of drawing each one independently.
- At the table it thinks 3x the normal's move time (levels.TIME_SCALE): 0.15 s here, about 1.5 s
  on a Pi 3.

Two options are kept off by default, because the arena measured them below a fair share:
`safe_tries=4` (`hard_playout.safe_playout`: a seat that does not found redraws its random move
while it would hand the next seat a village) and `endgame=8` (playouts to the end of the game once
8 villages stand).

Measured (`companion arena --bots hard,normal,normal`, 3 players, seats rotated, 0.05 s here is
about a Pi 3's 0.5 s; a fair share is 0.333). This does NOT reach the issue's targets (0.45 at the
table's times, 0.40 at equal time): with these defaults, 180 games on seed 12 (not tuned on), hard
won 0.347 (95% CI 0.281-0.419, mean total 30.06 against 29.43 and 28.78) at the table's times
and 0.292 (0.230-0.362, mean total 30.02 against 29.93 and 30.89) at equal time. Nothing tried beat a fair share beyond the
noise of 90-game screens (+-0.10): with the safe playouts at the table's times 0.289 of 180 games
(seed 11); at equal time, safe playouts 0.350 (60 games), without them 0.375 (60), greedier
(0.317) or 8-move safe playouts (0.394 and 0.265 on two seeds), a margin-only reward (0.333),
opponents founding for their lead (0.354), a fitted leaf value of the huts in play (0.322) or a
prior for quiet moves from the same fit (0.294), 6 root moves (0.339), endgame playouts (0.244),
no common random numbers (0.272), steering away from moves that reveal its color (0.213).
Offline, why: one playout's reward has a standard deviation of about 0.3 while the best root
moves differ by 0.01-0.05, the determinization explains almost none of a playout's variance
(correlation ~0 between two playouts on the same colors), so paired draws help little, and the
2-ply prior alone chooses about as well as the search at 4x the budget.
"""

from __future__ import annotations

import math
import random
import time

from companion.games.clans.game import IN_PROGRESS, Game
from companion.games.clans.bots.belief import ColorModel
from companion.games.clans.bots.mcts import Clock, MCTSBot
from companion.games.clans.bots.playout import playout
from companion.games.clans.bots.hard_playout import safe_playout

GOLDEN = 0.6180339887498949  # the step of the low-discrepancy sequence the determinizations are drawn by


class HardBot(MCTSBot):
    """The hard level (see module doc). Options as MCTSBot's, plus `crn` (every move still in is
    played out on the same determinization and playout seed), `stratify` (determinizations drawn
    by a low-discrepancy sequence over the belief instead of independently), `safe_tries` (0: the
    normal playout; else the playout whose random moves avoid giving villages away, that many
    draws) and `endgame` (from that many villages on, playouts run to the end; 0: never)."""

    name = "hard"

    def __init__(self, iterations: int | None = None, *, crn: bool = True, stratify: bool = True,
                 safe_tries: int = 0, endgame: int = 0, clock: Clock = time.perf_counter, **options) -> None:
        super().__init__(iterations=iterations, clock=clock, **options)
        self.crn, self.stratify = crn, stratify
        self.safe_tries, self.endgame = int(safe_tries), int(endgame)

    def _halving(self, game: Game, seat: int, model: ColorModel, moves: list[tuple[int, int]], rng: random.Random,
                 cap: int | None, deadline: float | None) -> tuple[int, int]:
        """Sequential halving as the normal bot's (a first sweep on the clock measures the rate; each
        round shares the budget left among the moves still in, then keeps the better half by mean
        reward), sweep by sweep: one determinization and one playout seed per sweep, shared by every
        move still in when `crn`."""
        arms = self._root_moves(game, seat, model, moves, rng)[::-1]  # best prior first
        k = len(arms)
        n, w = [0] * k, [0.0] * k
        alive = list(range(k))
        rounds = max(1, math.ceil(math.log2(k)))
        clock = self.clock
        greedy_p, players, horizon, tries = self.playout_greedy, game.players, self.horizon, self.safe_tries
        if self.endgame and len(game.villages) >= self.endgame:
            horizon = 0  # near the end: play out to it, the outcome is exact
        crn, stratify = self.crn, self.stratify
        pr = random.Random(rng.getrandbits(64))  # the playouts' stream, re-seeded per sweep with crn
        prnd, pshuffle = pr.random, pr.shuffle
        u = rng.random()
        it, t0 = 0, clock()
        probe = cap is None  # on the clock, a first sweep measures the playout rate; it halves nothing
        stop = False
        while not stop:
            if cap is not None:
                left = cap - it
            elif probe:
                left = 0
            else:
                now = clock()
                left = int(it / max(now - t0, 1e-9) * (deadline - now))
            per = max(1, left // (rounds * len(alive)))
            for _ in range(per):
                seed = pr.getrandbits(62)
                if stratify:
                    u = (u + GOLDEN) % 1.0
                    x = u
                    det = model.sample(lambda: x)
                else:
                    det = model.sample(prnd)
                for i in alive:
                    if self._spent(it, cap, deadline):
                        stop = True
                        break
                    it += 1
                    if crn:
                        pr.seed(seed)
                    elif not stratify:
                        det = model.sample(prnd)
                    g = game.copy()
                    a, b, _ = arms[i]
                    self._apply(g, a, b, det)
                    if g.status == IN_PROGRESS:
                        if tries:
                            safe_playout(g, det, prnd, pshuffle, greedy_p, horizon, tries)
                        else:
                            playout(g, det, prnd, pshuffle, greedy_p, horizon)
                    n[i] += 1
                    w[i] += self._rewards(g, det, players)[seat]
                if stop:
                    break
            alive.sort(key=lambda i: -(w[i] / n[i]) if n[i] else 0.0)
            if probe:
                probe = False
            elif len(alive) > 1 and rounds > 1:
                alive = alive[:math.ceil(len(alive) / 2)]
                rounds -= 1
            elif cap is not None:
                break
        self.last_iterations = it
        a, b, _ = arms[alive[0]]
        return a, b
