"""Property tests over random games (hypothesis): invariants of R2-R6 and exact undo."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.clans.game import Game, IllegalMoveError, check_setup, random_setup

CHART = [1, 1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 5]

games = st.tuples(st.integers(2, 4), st.integers(0, 2**32 - 1))


def random_game(players: int, seed: int):
    """Yield (game, outcome, state before the move) for every move of a random game."""
    rng = random.Random(seed)
    game = Game.new(players, seed=seed)
    while not game.is_over:
        a, b = game.random_move(rng.random)
        iso = game.isolated_by(a, b)
        rng.shuffle(iso)
        before = game.state_key()
        out = game.push(a, b, order=iso)
        yield game, out, before


@settings(max_examples=60, deadline=None)
@given(games)
def test_huts_only_drop_by_strife_or_destruction(params):
    huts = 60
    for game, out, _ in random_game(*params):
        lost = sum(sum(v.removed.values()) + (v.huts - sum(v.removed.values()) if v.destroyed else 0)
                   for v in out.villages)
        now = sum(game.total[1:])
        assert now == huts - lost
        huts = now
        # every color's count never grows
        assert all(sum(game.huts(t).get(c, 0) for t in range(1, 61)) <= 12
                   for c in ("red", "blue", "green", "yellow", "black"))


@settings(max_examples=60, deadline=None)
@given(games)
def test_villages_epochs_and_frozen_villages(params):
    founded: dict[int, dict] = {}
    game = None
    for game, out, _ in random_game(*params):
        assert len(game.villages) <= 12
        assert [v.epoch for v in game.villages] == CHART[: len(game.villages)]
        assert [v.chip for v in game.villages] == list(range(1, len(game.villages) + 1))
        for v in out.villages:
            founded[v.territory] = game.huts(v.territory)
        for t, huts in founded.items():  # a founded village never changes again
            assert game.huts(t) == huts and not game.occ >> t & 1
        assert sum(game.chips) == len(game.villages)
    assert game is not None and game.is_over
    if game.status == "finished":
        assert len(game.villages) == 12
    else:
        assert len(game.villages) < 12 and list(game.legal_moves) == []


@settings(max_examples=40, deadline=None)
@given(games)
def test_push_then_pop_restores_the_exact_state(params):
    history = []
    game = None
    for game, out, before in random_game(*params):
        history.append(before)
        snapshot = game.state_key()
        undone = game.pop()
        assert game.state_key() == before
        assert undone.move[:2] == out.move[:2]
        game.push(undone.move)
        assert game.state_key() == snapshot
    # unwind the whole game
    while history:
        game.pop()
        assert game.state_key() == history.pop()
    assert game.ply == 0


def flags_mirror_the_masks(game: Game) -> bool:
    """The engine's private flag arrays say what its public occ and big masks say, territory by territory."""
    return all(game._on[t] == game.occ >> t & 1 and game._bg[t] == game.big >> t & 1 for t in range(len(game._on)))


@settings(max_examples=30, deadline=None)
@given(games)
def test_the_hot_loops_flags_follow_occ_and_big_through_moves_undos_and_copies(params):
    moves = 0
    for game, _, _ in random_game(*params):
        assert flags_mirror_the_masks(game)
        moves += 1
        if moves % 3 == 0:
            copy = game.copy()
            copy.pop()
            assert flags_mirror_the_masks(copy) and flags_mirror_the_masks(game)
    while game.ply:
        game.pop()
        assert flags_mirror_the_masks(game)


def test_from_position_builds_the_flags_from_its_masks():
    game = Game.from_position(2, {1: {"red": 7}, 2: {"blue": 8}, 5: {"green": 1}}, villages=[5])
    assert flags_mirror_the_masks(game)
    assert game._bg[1] == game._bg[2] == 1 and game._on[5] == 0


@settings(max_examples=30, deadline=None)
@given(games)
def test_scores_equal_the_sum_of_village_values(params):
    for game, _, _ in random_game(*params):
        pass
    expected = {c: 0 for c in ("red", "blue", "green", "yellow", "black")}
    for v in game.villages:
        for c in v.colors:
            expected[c] += v.value
    assert {c: game.score(c) for c in expected} == expected


@settings(max_examples=30, deadline=None)
@given(games)
def test_random_draws_after_pop_are_the_same_as_before_the_push(params):
    """pop() restores even the engine's internal order, so a search that pushes and pops stays reproducible."""
    players, seed = params
    game = Game.new(players, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        probe = random.Random(seed + game.ply)
        before = game.random_move(probe.random)
        a, b = game.random_move(rng.random)
        game.push(a, b, order=game.isolated_by(a, b)[::-1])
        game.pop()
        probe = random.Random(seed + game.ply)
        assert game.random_move(probe.random) == before
        game.push(a, b)


@settings(max_examples=60, deadline=None)
@given(games, st.integers(1, 70))
def test_play_random_is_random_move_then_push_unchecked(params, limit):
    """The engine's one-call random playout plays the same moves, founding orders and undo records as
    drawing and playing them one at a time, stops after `limit` moves, and pops back to the start."""
    (_, seed), start = params, Game.new(params[0], seed=params[1])
    one, fast = start.copy(), start.copy()
    r1, r2 = random.Random(seed), random.Random(seed)
    while not one.is_over and one.ply < limit:
        a, b = one.random_move(r1.random)
        one.push_unchecked(a, b, None, r1.shuffle)
    assert fast.play_random(r2.random, r2.shuffle, limit) == one.ply
    assert fast.state_key() == one.state_key()
    assert [fast.outcome(i) for i in range(fast.ply)] == [one.outcome(i) for i in range(one.ply)]
    while fast.ply:
        fast.pop()
    assert fast.state_key() == start.state_key()


def test_play_random_refuses_a_finished_game():
    game = Game.new(3, seed=5)
    game.play_random(random.Random(1).random)
    assert game.is_over
    with pytest.raises(IllegalMoveError, match="over"):
        game.play_random(random.random)


@settings(max_examples=60, deadline=None)
@given(games)
def test_game_random_starts_the_game_random_setup_and_a_first_player_draw_make(params):
    """Game.random (selfplay's fast start) makes the same game from the same draws as random_setup()
    then Game(): the huts, the setup read later, the first player, and the generator's state after."""
    players, seed = params
    r1, r2 = random.Random(seed), random.Random(seed)
    slow = Game(players, random_setup(r1), int(r1.random() * players), trusted=True)
    fast = Game.random(players, r2)
    assert fast.packed == slow.packed and fast.first_player == slow.first_player
    assert fast.state_key() == slow.state_key()
    assert list(fast.setup.items()) == list(slow.setup.items()) and check_setup(fast.setup) == fast.setup
    assert r1.random() == r2.random()


def test_game_random_takes_a_first_player_and_refuses_a_wrong_one():
    assert Game.random(3, random.Random(1), first_player=2).first_player == 2
    with pytest.raises(IllegalMoveError, match="first player must be 0..2"):
        Game.random(3, random.Random(1), first_player=3)
    with pytest.raises(IllegalMoveError, match="players must be 2, 3 or 4"):
        Game.random(5, random.Random(1), first_player=0)
