"""The search's fast playout agrees with the slow, obvious evaluation: the greedy founding move and its
value, and the lonely territories it keeps up to date move by move."""

from __future__ import annotations

import random

from companion.games.clans.bots.playout import greedy_founding, lonely, playout, still_lonely
from companion.games.clans.bots.tactics import founding_moves, move_gains
from companion.games.clans.game import IN_PROGRESS, Game

from tests.games.clans.test_bots import order_positions, random_position


def slow_greedy(game: Game, k: int) -> int:
    """The best own gain + villages over every founding move, by move_gains (ascending order)."""
    return max((g[k] + n for g, n in (move_gains(game, a, b) for a, b in founding_moves(game))), default=-1)


def slow_lonely(game: Game) -> int:
    nbm = game.rules.nb_mask
    return sum(1 << c for c in game.occupied() if bin(nbm[c] & game.occ).count("1") == 1)


def test_greedy_founding_finds_the_best_founding_move_for_each_color():
    rng = random.Random(11)
    checked = 0
    for game in [random_position(rng) for _ in range(200)] + order_positions(15, 2):
        assert lonely(game) == slow_lonely(game)
        for k in range(5):
            move, value = greedy_founding(game, k)
            assert value == slow_greedy(game, k)
            assert greedy_founding(game, k, lonely(game))[1] == value
            if move is None:
                assert not founding_moves(game)
                continue
            gains, n = move_gains(game, *move)
            assert gains[k] + n == value and move in founding_moves(game)
            checked += 1
    assert checked > 300


def test_the_lonely_territories_kept_move_by_move_are_the_ones_counted_afresh():
    rng = random.Random(4)
    checked = 0
    for _ in range(60):
        game = random_position(rng, plies=rng.randrange(0, 10))
        alone = lonely(game)
        while game.status == IN_PROGRESS:
            before = game.occ
            game.push_unchecked(*game.random_move(rng.random), None, rng.shuffle)
            alone = still_lonely(game, alone, before)
            if game.status == IN_PROGRESS:
                assert alone == slow_lonely(game)
                checked += 1
    assert checked > 1000


def recorded_playout(game: Game, det: tuple[int, ...], rng: random.Random, greedy_p: float) -> list[tuple]:
    """Play `game` out, noting before each move (a, b, whether it is legal, whether it passes up a
    founding move)."""
    real_push = game.push_unchecked
    seen: list[tuple] = []

    def push(a: int, b: int, order=None, shuffle=None) -> None:
        seen.append((a, b, game.is_legal(a, b), bool(founding_moves(game)) and not game.isolated_by(a, b)))
        real_push(a, b, order, shuffle)

    game.push_unchecked = push  # type: ignore[method-assign]
    playout(game, det, rng.random, rng.shuffle, greedy_p)
    return seen


def test_playout_plays_only_legal_moves_to_the_end():
    rng = random.Random(5)
    for _ in range(40):
        game = random_position(rng)
        det = tuple(rng.sample(range(5), game.players))
        moves = recorded_playout(game, det, rng, rng.choice((0.0, 0.9, 1.0)))
        assert all(legal for _, _, legal, _ in moves)
        assert game.status != IN_PROGRESS


def test_a_greedy_playout_takes_every_village_it_is_offered():
    """With greedy_p = 1, a mover never passes up a founding move."""
    rng = random.Random(9)
    for _ in range(30):
        game = random_position(rng)
        missed = [(a, b) for a, b, _, passed in recorded_playout(game, (0, 1, 2, 3), rng, 1.0) if passed]
        assert not missed
