"""The hard bot: legal moves and orders, determinism, purity, sure wins, the clock (what it believes: test_intent)."""

from __future__ import annotations

import random

from companion.games.clans.bots import HardBot, make_bot
from companion.games.clans.board import COLORS
from companion.games.clans.game import COLOR_INDEX, Game
from tests.games.clans.test_bots import arms_searched, assert_legal, colors_for, order_positions, random_position


def test_hard_is_the_hard_level():
    bot = make_bot("hard")
    assert isinstance(bot, HardBot) and bot.name == "hard"
    assert HardBot(iterations=7).iterations == 7


def test_hard_searches_only_the_root_moves_its_playouts_can_rank():
    game = Game.new(3, seed=5, first_player=0)
    assert len(arms_searched(HardBot(iterations=300), game)) == 8  # about its budget at a normal bot's time
    assert len(arms_searched(HardBot(iterations=2000), game)) == 16  # at the table's: 3x as long
    assert len(arms_searched(HardBot(iterations=300, arm_playouts=0), game)) == 16


def test_hard_plays_legal_moves_with_orders():
    rng = random.Random(11)
    games = [random_position(rng, rng.choice((2, 3, 4))) for _ in range(25)] + order_positions(10, 12)
    for game in games:
        colors = colors_for(game, rng)
        seat = game.to_move
        assert_legal(game, HardBot(iterations=40).choose(game, seat, colors[seat], rng))


def test_hard_is_deterministic_for_a_seed_and_iteration_count():
    rng = random.Random(8)
    for game in [random_position(rng, 3, plies) for plies in (0, 12, 27)]:
        seat = game.to_move
        a = HardBot(iterations=80).choose(game, seat, "blue", random.Random(42))
        b = HardBot(iterations=80).choose(game, seat, "blue", random.Random(42))
        assert a == b


def test_hard_leaves_the_game_exactly_as_it_found_it():
    rng = random.Random(19)
    for game in [random_position(rng, 3, 8), random_position(rng, 4, 30), *order_positions(2, 20)]:
        before, live = game.state_key(), game.live[:]
        HardBot(iterations=50).choose(game, game.to_move, COLORS[0], rng)
        assert game.state_key() == before and game.live == live


def test_hard_takes_the_sure_12th_village_win():
    huts = {11: {"red": 1}, 12: {"blue": 1}, 57: {"green": 1}, 58: {"yellow": 1}}
    game = Game.from_position(3, huts, to_move=0, villages=range(31, 42))
    game.scores[COLOR_INDEX["red"]] = 30
    game.scores[COLOR_INDEX["black"]] = 10
    bot = HardBot(iterations=1)
    move = bot.choose(game, 0, "red", random.Random(1))
    assert (move.frm, move.to) in {(11, 12), (12, 11)}
    assert bot.last_iterations == 0  # found without searching


def test_hard_stops_on_the_injected_clock():
    ticks = iter(i * 0.01 for i in range(10_000))
    bot = HardBot(clock=lambda: next(ticks))
    game = Game.new(3, seed=3, first_player=0)
    move = bot.choose(game, 0, "red", random.Random(1), move_time=0.1)
    assert_legal(game, move)
    assert 3 <= bot.last_iterations <= 11
