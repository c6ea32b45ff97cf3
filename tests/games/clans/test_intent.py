"""Reading quiet moves (bots.intent): the one-pass prior is the search's own root prior, a quiet move's
reading is a probability over the legal moves, the history is read once and the same however the game
got there, and on games of normal bots it tells the opponents' colors far sooner than founding moves alone."""

from __future__ import annotations

import math
import random

import pytest

from companion.games.clans.board import COLORS
from companion.games.clans.bots import HardBot, make_bot
from companion.games.clans.bots.belief import ColorModel, observed
from companion.games.clans.bots.intent import History, prior_rows, quiet_row
from companion.games.clans.bots.mcts import MCTSBot
from companion.games.clans.bots.tactics import color_index, founding_moves, isolated, legal_moves
from companion.games.clans.game import IN_PROGRESS, Game
from tests.games.clans.test_bots import random_position


def marginals(model: ColorModel, players: int) -> list[list[float]]:
    return [model.marginal_index(s) for s in range(players)]


def test_the_one_pass_prior_is_the_search_root_prior_for_every_color():
    rng = random.Random(3)
    checked = 0
    for i in range(24):  # the later half has groups of 7 huts, which prior_rows must track past a quiet move
        game = random_position(rng, rng.choice((2, 3, 4)), rng.randrange(0, 30) if i < 12 else rng.randrange(30, 45))
        if game.is_over:
            continue
        seat = game.to_move
        for k in range(len(COLORS)):
            model = ColorModel(game, {seat: k}, beta=3.0, eps=0.05)
            root = {(a, b): h for a, b, h in MCTSBot(root_k=0)._root_moves(game, seat, model, legal_moves(game), rng)}
            rows = prior_rows(game, marginals(model, game.players))
            assert rows.keys() == root.keys()
            for (a, b), h in root.items():
                if len(isolated(game, a)) < 2:  # the root orders several villages for its own color
                    assert rows[(a, b)][k] == pytest.approx(h, abs=1e-9)
                    checked += 1
    assert checked > 1000


def test_a_quiet_reading_is_a_probability_over_the_legal_moves():
    rng = random.Random(5)
    for _ in range(6):
        game = random_position(rng, 3, rng.randrange(2, 25))
        marg = marginals(ColorModel(game, {}), 3)
        moves = legal_moves(game)
        rows = [quiet_row(game, m, marg) for m in moves]
        for c in range(len(COLORS)):
            assert math.fsum(math.exp(r[c]) for r in rows) == pytest.approx(1.0)
        # a color's reading prefers the moves its own prior ranks first
        prior = prior_rows(game, marg)
        c = rng.randrange(len(COLORS))
        best = max(moves, key=lambda m: prior[m][c])
        worst = min(moves, key=lambda m: prior[m][c])
        assert rows[moves.index(best)][c] >= rows[moves.index(worst)][c]


def play_random(game: Game, rng: random.Random, plies: int) -> None:
    for _ in range(plies):
        if game.status != IN_PROGRESS:
            return
        a, b = game.random_move(rng.random)
        game.push(a, b)


def test_the_history_is_read_once_and_the_same_however_the_game_got_there():
    rng = random.Random(9)
    game = Game.new(3, seed=4, first_player=0)
    kept = History()
    for _ in range(24):
        play_random(game, rng, 1)
        kept.loglik(game)
    assert kept.computed == game.ply  # each move read once, as it came
    assert kept.loglik(game) == History().loglik(game)  # the same as reading it cold
    assert kept.computed == game.ply
    undone = game.moves[-1]
    game.pop()  # undone, then another move: one reading more
    game.push(*next(m for m in legal_moves(game) if m != (undone.frm, undone.to)))
    assert kept.loglik(game) == History().loglik(game)
    assert kept.computed == game.ply + 1
    # a founding move is read as the normal bot reads it; only quiet moves say more
    judged = {0, 1, 2}
    plain = [row for _, row in observed(game, judged, kept.beta, kept.eps)]
    replay = Game(3, game.setup, game.first_player, trusted=True)
    for (seat, row), mv, before in zip(kept.rows(game), game.moves, plain):
        if (mv.frm, mv.to) in founding_moves(replay):
            assert row == before
        replay.push(mv)


def test_a_game_resumed_late_is_read_over_several_turns_each_within_its_time():
    rng = random.Random(2)
    game = Game.new(3, seed=6, first_player=0)
    play_random(game, rng, 30)
    whole = History().loglik(game)
    now = [0.0]

    def clock() -> float:
        now[0] += 1.0  # one tick per quiet move read
        return now[0]

    kept = History(clock=clock)
    calls = 0
    while True:
        calls += 1
        before = kept.computed
        got = kept.loglik(game, deadline=now[0] + 5)
        assert kept.computed - before <= 5 + len(game.villages)  # 5 ticks of quiet moves, and the founding moves
        if got == whole:
            break
        assert calls < 30
    assert calls > 2  # a few turns, not one
    assert kept.computed == game.ply  # nothing read twice, and every row kept is the one a cold read gives
    assert kept.loglik(game, deadline=0.0) == whole


def test_the_hard_bot_reads_quiet_moves_and_can_be_told_not_to():
    game = Game.new(3, seed=2, first_player=0)
    play_random(game, random.Random(1), 12)
    seat = game.to_move
    reading, plain = HardBot(iterations=10), HardBot(iterations=10, quiet=False)
    k = color_index("red")
    assert reading.model(game, seat, k).weights != plain.model(game, seat, k).weights
    assert plain.model(game, seat, k).weights == make_bot("normal").model(game, seat, k).weights


def normal_game(seed: int) -> tuple[Game, list[str]]:
    rng = random.Random(f"intent:{seed}")
    colors = rng.sample(COLORS, 3)
    game = Game.new(3, seed=seed, first_player=0)
    bots = [make_bot("normal", iterations=120) for _ in range(3)]
    while game.status == IN_PROGRESS and game.ply < 24:
        s = game.to_move
        game.push(bots[s].choose(game, s, colors[s], rng))
    return game, colors


@pytest.mark.slow
def test_quiet_moves_tell_the_normal_bots_colors_far_sooner():
    # 6 games of normal bots to move 24: the mean probability each seat's model gives each other seat's true
    # color, founding moves alone against founding and quiet moves (0.49 against 0.84 on 60 games of 400
    # playouts a move; bots.intent's module doc).
    plain = quiet = 0.0
    n = 0
    for seed in range(6):
        game, colors = normal_game(seed)
        ll = History().loglik(game)
        for seat in range(3):
            known = {seat: color_index(colors[seat])}
            founding = ColorModel(game, known, beta=3.0, eps=0.05)
            reading = ColorModel(game, known, beta=3.0, eps=0.05, loglik=ll)
            for other in range(3):
                if other != seat:
                    plain += founding.marginal_index(other)[color_index(colors[other])]
                    quiet += reading.marginal_index(other)[color_index(colors[other])]
                    n += 1
    print(round(plain / n, 3), round(quiet / n, 3))
    assert quiet / n > plain / n + 0.15
