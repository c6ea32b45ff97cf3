"""Hints at the table's chosen level, and why a hinted move is good, in a few words.

`hint_at(level, ...)`: the menu's Hint for the person to move, from public information only
(the mover's own color is as unknown to the box as the others'). `normal` is the search's hint
(`mcts.hint`); `hard` is the same search given the hard level's longer time (the runner passes
it); `easy` looks one move ahead only: the founding move with the best expected gain over the
five colors the mover might own, else a quiet move that leaves the next player no village.

`reason(game, move)` says why in a few words, as a code and its values (texts.hint_why words it):
  ("found", {"territory", "terrain", "kind"})  it founds a village: kind favorable / hostile / plain
  ("safe", {})                                  a quiet move after which the next player founds nothing
  ("quiet", {})                                 a quiet move, the least bad the hint found
"""

from __future__ import annotations

import random

from companion.games.clans.board import N_CHIPS
from companion.games.clans.game import Game, Move
from companion.games.clans.bots.mcts import hint
from companion.games.clans.bots.tactics import best_order, blind_key, founding_moves, legal_moves, move_gains


def hint_at(level: str, game: Game, seat: int, rng: random.Random, move_time: float | None, *,
            iterations: int | None = None) -> Move:
    """The hinted move for `seat` (the seat to move) at `level` (see the module doc)."""
    if level == "easy":
        return easy_hint(game, rng)
    return hint(game, seat, rng, move_time, iterations=iterations)


def easy_hint(game: Game, rng: random.Random) -> Move:
    """One move ahead: the best founding move for an unknown color, else a quiet move giving nothing away."""
    best: list[Move] = []
    best_key = None
    for a, b in founding_moves(game):
        order = best_order(game, a, b, blind_key)
        key = blind_key(*move_gains(game, a, b, order))
        if best_key is None or key > best_key:
            best, best_key = [Move(a, b, order)], key
        elif key == best_key:
            best.append(Move(a, b, order))
    if best:
        return best[int(rng.random() * len(best))]
    moves = legal_moves(game)
    safe = [(a, b) for a, b in moves if not _gives_a_village(game, a, b)]
    a, b = (safe or moves)[int(rng.random() * len(safe or moves))]
    return Move(a, b)


def reason(game: Game, move: Move) -> tuple[str, dict]:
    """Why `move` (legal now) is worth playing, as a code and its values (see the module doc)."""
    founded = list(move.order) if move.order else game.isolated_by(move.frm, move.to)
    chip = len(game.villages)
    if founded and chip < N_CHIPS:
        t = founded[0]
        epoch = game.board.epochs[game.rules.chip_epoch[chip] - 1]
        terrain = game.board.territories[t].terrain
        kind = ("hostile" if terrain == epoch.hostile and chip < N_CHIPS - 1 else
                "favorable" if epoch.favorable in (terrain, "all") else "plain")
        return "found", {"territory": t, "terrain": terrain, "kind": kind}
    if not _gives_a_village(game, move.frm, move.to):
        return "safe", {}
    return "quiet", {}


def _gives_a_village(game: Game, a: int, b: int) -> bool:
    """After a->b (a quiet move), the next player could found a village."""
    g = game.copy()
    g.push_unchecked(a, b, None)
    try:
        return not g.is_over and bool(founding_moves(g))
    finally:
        g.pop()
