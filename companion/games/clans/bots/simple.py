"""The two baseline bots: `random` (a uniform legal move) and `greedy` (best immediate gain for its color).

Both are engine-level: they read a Game and return a legal Move, with a founding
`order` whenever the move isolates two or more territories and the order matters.
"""

from __future__ import annotations

import random

from companion.games.clans.game import Game, IllegalMoveError, Move
from companion.games.clans.bots.tactics import best_order, color_index, founding_moves, legal_moves, move_gains, own_key


def _check_turn(game: Game, seat: int) -> None:
    if game.is_over:
        raise IllegalMoveError("the game is over: no more moves")
    if seat != game.to_move:
        raise IllegalMoveError(f"it is seat {game.to_move}'s turn, not seat {seat}'s")


def with_order(game: Game, a: int, b: int, color: int) -> Move:
    """Move a->b with the founding order best for `color` (None when there is no choice to make)."""
    return Move(a, b, best_order(game, a, b, own_key(color)))


class RandomBot:
    """A uniformly random legal move (game.random_move) and a random founding order."""

    name = "random"

    def choose(self, game: Game, seat: int, color: str, rng: random.Random, *,
               move_time: float | None = None) -> Move:
        _check_turn(game, seat)
        a, b = game.random_move(rng.random)
        iso = game.isolated_by(a, b)
        if len(iso) >= 2:
            rng.shuffle(iso)
            return Move(a, b, tuple(iso))
        return Move(a, b)


class GreedyBot:
    """The move with the best immediate gain for its own color: track points + chips.

    Only founding moves can score, so they are the only ones evaluated; the value is
    own gain + chips (so it founds whenever it can). Ties go to the move that gives
    the other colors the least (the most any one other color gains), then at random.
    The founding order is chosen the same way.
    """

    name = "greedy"

    def choose(self, game: Game, seat: int, color: str, rng: random.Random, *,
               move_time: float | None = None) -> Move:
        _check_turn(game, seat)
        k = color_index(color)
        key = own_key(k)
        best: list[tuple[int, int, tuple[int, ...] | None]] = []
        best_key = None
        for a, b in founding_moves(game):
            order = best_order(game, a, b, key)
            mk = key(*move_gains(game, a, b, order))
            if best_key is None or mk > best_key:
                best, best_key = [(a, b, order)], mk
            elif mk == best_key:
                best.append((a, b, order))
        if best:
            return Move(*best[int(rng.random() * len(best))])
        # Nothing founds a village: every move is worth 0, pick one uniformly.
        moves = legal_moves(game)
        a, b = moves[int(rng.random() * len(moves))]
        return Move(a, b)
