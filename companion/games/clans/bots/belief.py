"""What a bot believes about the hidden colors, and the sure wins it never leaves to chance.

ColorModel: each seat's observed moves are scored under each candidate color with
a noisy-greedy model: a non-founding move has utility 0, a founding move utility
(color's gain + chips); P(move | color) = (1 - eps) * softmax(beta * utility) +
eps / #legal moves. Only founding moves differ between colors, so one pass over
the history with the cheap founding-move scan is enough (~2 ms per decision).
The joint weight of an assignment of distinct colors to seats is the product of
its seats' likelihoods.

`sure_win` finds a move that ends the game with the mover the sole winner whatever
colors the others own: a short search could miss it.
"""

from __future__ import annotations

import itertools
import math
from typing import Callable, Iterator, Sequence

from companion.games.clans.board import COLORS
from companion.games.clans.game import Game, Move
from companion.games.clans.bots.tactics import (NC, best_order, color_index, founding_moves, legal_moves, move_gains,
                                                own_key)


class ColorModel:
    """Posterior over which seat owns which color, from the public move history.

    `known` fixes some seats' colors (the bot's own); `blind` seats get a uniform
    color (the hinted human); every other seat is weighted by its moves (their
    log-likelihoods under each color, `loglik`, summed from `observed` unless given).
    """

    def __init__(self, game: Game, known: dict[int, int] | None = None, blind: Sequence[int] = (),
                 beta: float = 1.0, eps: float = 0.05, loglik: list[list[float]] | None = None) -> None:
        self.players = game.players
        self.known = dict(known or {})
        self.beta, self.eps = beta, eps
        judged = [s for s in range(self.players) if s not in self.known and s not in blind]
        if loglik is not None:  # the moves' evidence summed already (story.beliefs, move by move)
            self.loglik = loglik
        else:
            self.loglik = [[0.0] * NC for _ in range(self.players)]
            if judged and game.moves:
                self._observe(game, set(judged))
        taken = set(self.known.values())
        free = [s for s in range(self.players) if s not in self.known]
        free_colors = [c for c in range(NC) if c not in taken]
        self.assignments: list[tuple[int, ...]] = []
        logw: list[float] = []
        for combo in itertools.permutations(free_colors, len(free)):
            assign = [0] * self.players
            for s, c in self.known.items():
                assign[s] = c
            for s, c in zip(free, combo):
                assign[s] = c
            self.assignments.append(tuple(assign))
            logw.append(sum(self.loglik[s][assign[s]] for s in judged))
        top = max(logw)
        w = [math.exp(x - top) for x in logw]
        total = sum(w)
        self.weights = [x / total for x in w]
        self.cum = list(itertools.accumulate(self.weights))

    def _observe(self, game: Game, judged: set[int]) -> None:
        for s, row in observed(game, judged, self.beta, self.eps):
            for k, x in enumerate(row):
                self.loglik[s][k] += x

    def sample(self, rnd: Callable[[], float]) -> tuple[int, ...]:
        """One determinization: a color index for every seat."""
        x = rnd()
        cum = self.cum
        lo, hi = 0, len(cum) - 1
        while lo < hi:  # first index with cum > x
            mid = (lo + hi) // 2
            if cum[mid] > x:
                hi = mid
            else:
                lo = mid + 1
        return self.assignments[lo]

    def marginal_index(self, seat: int) -> list[float]:
        """P(seat owns color i), indexed like COLORS."""
        out = [0.0] * NC
        for assign, w in zip(self.assignments, self.weights):
            out[assign[seat]] += w
        return out

    def marginal(self, seat: int) -> dict[str, float]:
        """P(seat owns color), for every color."""
        return dict(zip(COLORS, self.marginal_index(seat)))


def observed(game: Game, judged: set[int], beta: float, eps: float) -> Iterator[tuple[int, list[float]]]:
    """For each move of the game's history (in order): the seat that made it and, when that seat is
    `judged`, the log-likelihood of the move under each color (indexed like COLORS); else an empty list."""
    g = Game(game.players, game.setup, game.first_player, game.board, trusted=True)
    for mv in game.moves:
        s = g.to_move
        yield s, (observed_row(g, mv, beta, eps) if s in judged else [])
        g.push_unchecked(mv.frm, mv.to, mv.order)


def observed_row(g: Game, mv: Move, beta: float, eps: float) -> list[float]:
    """The log-likelihood of `mv`, played in position `g`, under each color of its mover: only the
    founding moves differ between colors (a quiet move is as likely under every color)."""
    n_all = len(legal_moves(g))
    found = founding_moves(g)
    utils = [[0.0] * NC for _ in found]  # utility of each founding move for each color
    chosen = None
    for j, (a, b) in enumerate(found):
        order = mv.order if (a, b) == (mv.frm, mv.to) else None
        gains, n = move_gains(g, a, b, order)
        utils[j] = [gains[k] + n for k in range(NC)]
        if (a, b) == (mv.frm, mv.to):
            chosen = j
    n0 = n_all - len(found)
    row = []
    for k in range(NC):
        z = n0 + sum(math.exp(beta * u[k]) for u in utils)
        num = math.exp(beta * utils[chosen][k]) if chosen is not None else 1.0
        row.append(math.log((1 - eps) * num / z + eps / n_all))
    return row


def sure_win(game: Game, seat: int, color: str) -> Move | None:
    """A move that ends the game with `seat` the sole winner whoever owns the other colors, if there is one.

    Only a move that founds the 12th village can end the game, so this looks only at founding
    moves once 11 villages stand; a search with a small budget could otherwise miss a certain win.
    """
    if len(game.villages) != 11 or game.to_move != seat:
        return None
    k = color_index(color)
    others = [c for c in COLORS if c != color]
    g = game.copy()
    for a, b in founding_moves(g):
        move = Move(a, b, best_order(g, a, b, own_key(k)))
        g.push(move)
        try:
            if g.is_over and all(g.winners([*perm[:seat], color, *perm[seat:]])[1] == [seat]
                                 for perm in itertools.permutations(others, g.players - 1)):
                return move
        finally:
            g.pop()
    return None
