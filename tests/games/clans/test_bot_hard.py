"""The hard bot: legal moves and orders, determinism, purity, sure wins, the clock, its paired comparisons
(every root move on the same determinizations), and its optional safe playouts (safe_tries, off by default:
they do not hand the next seat a village when they need not) and endgame playouts."""

from __future__ import annotations

import random

from companion.games.clans.bots import HardBot, make_bot
from companion.games.clans.bots.hard_playout import gives_away, safe_playout
from companion.games.clans.bots.playout import lonely, playout
from companion.games.clans.bots.tactics import legal_moves
from companion.games.clans.board import COLORS
from companion.games.clans.game import COLOR_INDEX, IN_PROGRESS, Game
from tests.games.clans.test_bots import assert_legal, colors_for, order_positions, random_position


def test_hard_is_the_hard_level():
    bot = make_bot("hard")
    assert isinstance(bot, HardBot) and bot.name == "hard"
    assert HardBot(iterations=7).iterations == 7


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


def quiet_positions(count: int, seed: int) -> list[Game]:
    """3-player positions with no founding move, where some moves give the next seat one and some do not."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        game = random_position(rng, 3, rng.randrange(3, 25))
        if lonely(game):
            continue
        given = [gives_away(game, a) for a, _ in legal_moves(game)]
        if any(given) and not all(given):
            out.append(game)
    return out


def test_playouts_do_not_hand_the_next_seat_a_village_when_they_need_not():
    # The normal playout's random move gives a village away about one time in eight here; the hard bot's almost never.
    det = (0, 1, 2)
    plain = safe = total = 0
    for i, game in enumerate(quiet_positions(30, 5)):
        for j in range(10):
            rnd = random.Random(100 * i + j)
            for kind in ("plain", "safe"):
                g = game.copy()
                if kind == "plain":
                    playout(g, det, rnd.random, rnd.shuffle, 0.9, 1)
                else:
                    safe_playout(g, det, rnd.random, rnd.shuffle, 0.9, 1, tries=8)
                gave = gives_away(game, g.moves[-1].frm)
                plain += gave and kind == "plain"
                safe += gave and kind == "safe"
            total += 1
    print(plain, safe, total)
    assert plain > 0.08 * total
    assert safe < 0.02 * total


class Recording(HardBot):
    """Records each playout's root move, determinization and end."""

    def __init__(self, **options) -> None:
        super().__init__(**options)
        self.seen: list[tuple[tuple[int, int], tuple[int, ...]]] = []
        self.ended: list[bool] = []

    def _apply(self, g, a, b, det):
        self.seen.append(((a, b), det))
        super()._apply(g, a, b, det)

    def _rewards(self, g, det, players):
        self.ended.append(g.status != IN_PROGRESS)
        return super()._rewards(g, det, players)


def rewards_by_move(bot: Recording) -> dict[tuple[int, int], list[tuple[int, ...]]]:
    out: dict[tuple[int, int], list[tuple[int, ...]]] = {}
    for move, det in bot.seen:
        out.setdefault(move, []).append(det)
    return out


def test_the_moves_are_compared_on_the_same_determinizations():
    # Common random numbers: every root move sees the same colors, sweep by sweep, for as long as it is in
    # (the first round gives each of the 16 moves 640 // (4 * 16) = 10 sweeps).
    game = random_position(random.Random(4), 3, 15)
    for crn in (True, False):
        bot = Recording(iterations=640, crn=crn, stratify=crn)
        bot.choose(game, game.to_move, "red", random.Random(2))
        runs = sorted(rewards_by_move(bot).values(), key=len)
        assert len(runs) == 16 and len(runs[0]) == 10
        assert all(run == runs[-1][:len(run)] for run in runs) == crn


def test_with_endgame_the_playouts_reach_the_end_near_it():
    rng = random.Random(6)
    game = random_position(rng, 3, 30)
    while len(game.villages) not in (8, 9) or len(game.live) < 15:
        game = random_position(rng, 3, 30)
    seat = game.to_move
    bot = Recording(iterations=60, endgame=8)
    bot.choose(game, seat, "red", rng)
    assert bot.ended and all(bot.ended)
    bot = Recording(iterations=60, endgame=0, horizon=2)
    bot.choose(game, seat, "red", rng)
    assert not all(bot.ended)
