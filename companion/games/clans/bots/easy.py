"""The easy level: a bot a newcomer can beat that still plays the game.

Easy plays like greedy (the founding move worth the most to its own colour, points + chips, the
order of its villages chosen the same way) but errs the way a newcomer does, never by a random
move now and then:

- it misses villages far from its huts: a village on a territory that holds huts of its colour is
  always seen; one d steps (graph distance over the board's adjacency) from the nearest territory
  in play holding its huts is noticed with probability `attention ** d`, one look per group whose
  leaving would found it (so even carrying its own huts onto a neighbour to found a village there
  is seen only with probability `attention`: it has to see that the neighbour would be cut off);
  with no huts of its own left in play it watches the whole board;
- it sometimes forgets a colour: with probability `forget` it values this turn's villages as if the
  huts of one colour (drawn from the five, its own included) were not there, so it miscounts strife
  and a village's size, or overlooks its own huts in it;
- with nothing noticed to found it moves a group holding its own huts (any group when it has none
  in play), which may found a village by accident and tells a watchful player its colour.

It thinks at once (`move_time` is ignored); all randomness comes from `rng`.

The constants were measured with `companion arena --bots easy,greedy,greedy --jobs 1` (3 players,
900 games on each of seeds 7, 8, 9): easy wins 0.20, 0.20, 0.21 of them, where greedy itself wins
0.36, 0.35, 0.30 from that seat and a random bot about 0.05. Without its missed villages it wins 0.34
on average, without its missed villages and forgetting 0.36; forgetting alone costs little (most
villages are worth the same whichever colour is forgotten: it matters in strife and in its own huts).
Against one greedy bot it wins 0.25 of 400 2-player games, against three 0.13 of 400 4-player games.
"""

from __future__ import annotations

import random
from collections import deque
from typing import Callable

from companion.games.clans.board import COLORS
from companion.games.clans.game import SHIFT, Game, Move
from companion.games.clans.bots.simple import _check_turn
from companion.games.clans.bots.tactics import (best_order, color_index, founding_moves, isolated, legal_moves,
                                                 move_gains, own_key)

ATTENTION = 0.35  # the chance to notice a village one step from its huts (0.12 at two steps, ...)
FORGET = 0.3  # the chance it forgets one colour this turn

Key = Callable[[list[int], int], tuple]
_DIST: dict[int, tuple[object, list[list[int]]]] = {}


def distances(game: Game) -> list[list[int]]:
    """All-pairs graph distances over the board's adjacency (rules.nb_list), made once per board."""
    hit = _DIST.get(id(game.board))
    if hit is None or hit[0] is not game.board:
        nbl = game.rules.nb_list
        n = len(nbl)
        table = []
        for s in range(n):
            d = [n] * n
            d[s] = 0
            queue = deque([s])
            while queue:
                t = queue.popleft()
                for u in nbl[t]:
                    if d[u] == n:
                        d[u] = d[t] + 1
                        queue.append(u)
            table.append(d)
        hit = _DIST[id(game.board)] = (game.board, table)
    return hit[1]  # type: ignore[return-value]


def seen_order(game: Game, a: int, b: int, key: Key, forget: int | None) -> tuple[tuple[int, ...], tuple]:
    """(founding order, its key) for a->b: the order (ascending when it cannot matter) that maximises
    `key` over the gains as seen forgetting colour `forget`; () when the move founds nothing."""
    order = best_order(game, a, b, key, forget) or tuple(isolated(game, a))
    return order, key(*move_gains(game, a, b, order, forget))  # type: ignore[return-value]


class EasyBot:
    """Greedy with a newcomer's eyes: misses villages far from its huts, sometimes forgets a colour."""

    name = "easy"

    def __init__(self, attention: float = ATTENTION, forget: float = FORGET) -> None:
        if not (0.0 <= attention <= 1.0 and 0.0 <= forget <= 1.0):
            raise ValueError(f"easy: attention and forget are probabilities (0 to 1), not {attention}, {forget}")
        self.attention, self.forget = attention, forget

    def choose(self, game: Game, seat: int, color: str, rng: random.Random, *,
               move_time: float | None = None) -> Move:
        _check_turn(game, seat)
        k = color_index(color)
        key = own_key(k)
        forget = int(rng.random() * len(COLORS)) if rng.random() < self.forget else None
        mine = [t for t in game.live if game.packed[t] >> SHIFT[k] & 15]
        dist = distances(game)
        noticed: dict[int, bool] = {}
        best: list[tuple[int, int, tuple[int, ...]]] = []
        best_key = None
        for a, b in founding_moves(game):
            if a not in noticed:  # every move of the group at a founds the same villages: one look
                d = min((dist[v][t] for v in isolated(game, a) for t in mine), default=0)  # none: looks everywhere
                noticed[a] = d == 0 or rng.random() < self.attention ** d
            if not noticed[a]:
                continue
            order, mk = seen_order(game, a, b, key, forget)
            if best_key is None or mk > best_key:
                best, best_key = [(a, b, order)], mk
            elif mk == best_key:
                best.append((a, b, order))
        if best:
            return _move(*best[int(rng.random() * len(best))])
        # Nothing noticed to found: move a group holding its own huts, as a newcomer does.
        moves = legal_moves(game)
        own = [(a, b) for a, b in moves if game.packed[a] >> SHIFT[k] & 15] or moves
        a, b = own[int(rng.random() * len(own))]
        return _move(a, b, seen_order(game, a, b, key, forget)[0])


def _move(a: int, b: int, order: tuple[int, ...]) -> Move:
    return Move(a, b, order if len(order) >= 2 else None)
