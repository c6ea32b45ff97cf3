"""The hard level: the normal search (bots.mcts), with lower-variance comparisons and truer playouts.

(Docstring with the measured figures: see the end of the work.)
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
    played out on the same determinizations and playout seeds), `stratify` (determinizations drawn
    by a low-discrepancy sequence over the belief instead of independently) and `safe_tries`
    (0: the normal playout; else the playout whose random moves avoid giving villages away)."""

    name = "hard"

    def __init__(self, iterations: int | None = None, *, crn: bool = True, stratify: bool = True,
                 safe_tries: int = 4, root_k: int = 16, clock: Clock = time.perf_counter, **options) -> None:
        super().__init__(iterations=iterations, root_k=root_k, clock=clock, **options)
        self.crn, self.stratify, self.safe_tries = crn, stratify, int(safe_tries)

    def _halving(self, game: Game, seat: int, model: ColorModel, moves: list[tuple[int, int]], rng: random.Random,
                 cap: int | None, deadline: float | None) -> tuple[int, int]:
        """Sequential halving as the normal bot's, but sweep by sweep: one determinization and one playout
        seed per sweep, shared by every move still in (common random numbers)."""
        arms = self._root_moves(game, seat, model, moves, rng)[::-1]  # best prior first
        k = len(arms)
        n, w = [0] * k, [0.0] * k
        alive = list(range(k))
        rounds = max(1, math.ceil(math.log2(k)))
        clock = self.clock
        greedy_p, players, horizon, tries = self.playout_greedy, game.players, self.horizon, self.safe_tries
        crn, stratify = self.crn, self.stratify
        pr = random.Random(rng.getrandbits(64))
        prnd, pshuffle = pr.random, pr.shuffle
        u = rng.random()
        it, t0 = 0, clock()
        probe = cap is None
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
                u = (u + GOLDEN) % 1.0
                x = u
                det = model.sample(lambda: x) if stratify else model.sample(prnd)
                seed = pr.getrandbits(62)
                for i in alive:
                    if self._spent(it, cap, deadline):
                        stop = True
                        break
                    it += 1
                    if not crn:
                        det = model.sample(prnd) if not stratify else det
                    else:
                        pr.seed(seed)
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
