"""Bots: legal moves and founding orders everywhere, greedy's choice, MCTS determinism, the color model,
hints without secrets, and the arena's JSON contract."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from companion.games.clans.bots import ColorModel, GreedyBot, MCTSBot, RandomBot, hint, make_bot
from companion.games.clans.bots import arena
from companion.games.clans.bots.simple import with_order
from companion.games.clans.bots.tactics import founding_moves, legal_moves, move_gains
from companion.games.clans.board import COLORS
from companion.games.clans.game import COLOR_INDEX, IN_PROGRESS, Game, IllegalMoveError, Move, random_setup


def random_position(rng: random.Random, players: int | None = None, plies: int | None = None) -> Game:
    players = players or rng.choice((2, 3, 4))
    game = Game(players, random_setup(rng), rng.randrange(players), trusted=True)
    target = rng.randrange(0, 45) if plies is None else plies
    while game.status == IN_PROGRESS and game.ply < target:
        a, b = game.random_move(rng.random)
        game.push_unchecked(a, b, None, rng.shuffle)
    if game.is_over:
        game.pop()
    return game


def order_positions(count: int, seed: int) -> list[Game]:
    """Positions where some legal move founds 2+ villages and the order matters (epoch boundary or 12th village)."""
    rng = random.Random(seed)
    found: list[Game] = []
    while len(found) < count:
        game = random_position(rng)
        if any(game.order_matters(len(game.isolated_by(a, b))) for a, b in founding_moves(game)):
            found.append(game)
    return found


def assert_legal(game: Game, move: Move) -> None:
    assert isinstance(move, Move)
    assert game.is_legal(move.frm, move.to), f"{move} is not legal"
    iso = game.isolated_by(move.frm, move.to)
    if len(iso) >= 2:
        assert move.order is not None and sorted(move.order) == iso, f"{move} needs an order of {iso}"
    before = game.ply
    game.push(move)  # validates the order too
    game.pop()
    assert game.ply == before


def colors_for(game: Game, rng: random.Random) -> list[str]:
    return rng.sample(COLORS, game.players)


# ----- the fast evaluator agrees with the engine -------------------------------------------------------
def test_move_gains_match_push_pop():
    rng = random.Random(3)
    checked = 0
    for game in [random_position(rng) for _ in range(150)] + order_positions(20, 4):
        for a, b in founding_moves(game):
            iso = game.isolated_by(a, b)
            order = tuple(rng.sample(iso, len(iso)))
            scores, chips = game.scores[:], game.chips[:]
            mover = game.to_move
            gains, n = move_gains(game, a, b, order)
            game.push(a, b, order)
            assert gains == [x - y for x, y in zip(game.scores, scores)], (a, b, order)
            assert n == game.chips[mover] - chips[mover]
            game.pop()
            checked += 1
    assert checked > 100


def test_founding_moves_are_exactly_the_moves_that_found():
    rng = random.Random(5)
    for _ in range(80):
        game = random_position(rng)
        expected = {(m.frm, m.to) for m in game.legal_moves if game.isolated_by(m.frm, m.to)}
        assert set(founding_moves(game)) == expected
        assert legal_moves(game) == [(m.frm, m.to) for m in game.legal_moves]


# ----- every bot plays legal moves ---------------------------------------------------------------------
BOT_FACTORIES = {
    "random": lambda: make_bot("random"),
    "greedy": lambda: make_bot("greedy"),
    "mcts": lambda: make_bot("mcts", iterations=4),
}


@pytest.mark.parametrize("name", sorted(BOT_FACTORIES))
def test_bots_return_legal_moves_with_orders(name):
    bot = BOT_FACTORIES[name]()
    rng = random.Random(11)
    games = [random_position(rng) for _ in range(40)] + order_positions(25, 12)
    for game in games:
        colors = colors_for(game, rng)
        seat = game.to_move
        move = bot.choose(game, seat, colors[seat], rng, move_time=None)
        assert_legal(game, move)


def test_bots_pick_the_order_best_for_themselves_at_an_epoch_boundary():
    # with_order() is how greedy and mcts order their villages: it must reach the best own gain.
    for game in order_positions(15, 21):
        for color in COLORS:
            for a, b in founding_moves(game):
                iso = game.isolated_by(a, b)
                if not game.order_matters(len(iso)):
                    continue
                move = with_order(game, a, b, COLOR_INDEX[color])
                best = -1
                for perm in itertools.permutations(iso):
                    before = game.score(color)
                    game.push(a, b, perm)
                    best = max(best, game.score(color) - before)
                    game.pop()
                before = game.score(color)
                game.push(move)
                got = game.score(color) - before
                game.pop()
                assert got == best


@pytest.mark.parametrize("name", sorted(BOT_FACTORIES))
def test_bots_leave_the_game_exactly_as_they_found_it(name):
    # Not just the position: the order of game.live too, which random_move() depends on.
    rng = random.Random(19)
    for game in [random_position(rng, 4, 8), *order_positions(3, 20)]:
        before, live = game.state_key(), game.live[:]
        BOT_FACTORIES[name]().choose(game, game.to_move, COLORS[0], rng)
        assert game.state_key() == before and game.live == live


def test_full_games_between_all_bots_stay_legal():
    rng = random.Random(7)
    bots = [RandomBot(), GreedyBot(), MCTSBot(iterations=3)]
    for players in (2, 3, 4):
        game = Game(players, random_setup(rng), 0, trusted=True)
        colors = colors_for(game, rng)
        while not game.is_over:
            seat = game.to_move
            move = bots[seat % 3].choose(game, seat, colors[seat], rng)
            assert_legal(game, move)
            game.push(move)
        assert game.status in ("finished", "stalled")


def test_bots_refuse_to_move_for_the_wrong_seat_or_after_the_end():
    game = Game.new(3, seed=1, first_player=0)
    for bot in (RandomBot(), GreedyBot(), MCTSBot(iterations=2)):
        with pytest.raises(IllegalMoveError):
            bot.choose(game, 1, "red", random.Random(1))


# ----- greedy -----------------------------------------------------------------------------------------
def corner_game() -> Game:
    """Region 1: 1 red, 2 blue, 3 green, 4 yellow, 5 black; 2->6 and 3->5 leave 4 as 1's only neighbor."""
    setup = random_setup(random.Random(2))
    setup.update({1: "red", 2: "blue", 3: "green", 4: "yellow", 5: "black"})
    game = Game(2, setup, 0)
    game.push(2, 6)
    game.push(3, 5)
    return game


def test_greedy_takes_the_village_worth_most_to_its_color():
    game = corner_game()
    # 4->1 founds 1 with red + yellow (steppe, epoch I: 2 points each); 4->5 or 4->32 leaves red alone (1 point).
    for seed in range(10):
        assert GreedyBot().choose(game, 0, "red", random.Random(seed)) == Move(4, 1)
        assert GreedyBot().choose(game, 0, "yellow", random.Random(seed)) == Move(4, 1)
        # green scores nothing either way: it takes the chip and gives the others as little as possible
        assert GreedyBot().choose(game, 0, "green", random.Random(seed)) in (Move(4, 5), Move(4, 32))


def test_random_bot_does_not_always_take_it():
    game = corner_game()
    picks = {RandomBot().choose(game, 0, "red", random.Random(seed)) for seed in range(30)}
    assert len(picks) > 5


# ----- mcts -------------------------------------------------------------------------------------------
def test_mcts_is_deterministic_for_a_seed_and_iteration_count():
    rng = random.Random(8)
    for game in [random_position(rng, 4, plies) for plies in (0, 10, 25)]:
        seat = game.to_move
        a = MCTSBot(iterations=60).choose(game, seat, "blue", random.Random(42))
        b = MCTSBot(iterations=60).choose(game, seat, "blue", random.Random(42))
        assert a == b


def winning_finishes(game: Game, colors: list[str]) -> tuple[set[tuple[int, int]], int]:
    """Moves (with the mover's best order) that end the game with the mover as sole winner whoever owns the
    other colors (the mover knows only its own), and the number of legal moves."""
    seat, wins, n = game.to_move, set(), 0
    mine = colors[seat]
    others = [c for c in COLORS if c != mine]
    for a, b in legal_moves(game):
        n += 1
        game.push(with_order(game, a, b, COLOR_INDEX[mine]))
        if game.is_over and all(game.winners([*p[:seat], mine, *p[seat:]])[1] == [seat]
                                for p in itertools.permutations(others, game.players - 1)):
            wins.add((a, b))
        game.pop()
    return wins, n


def test_mcts_finds_the_winning_12th_village():
    rng = random.Random(31)
    tried = 0
    while tried < 6:
        game = random_position(rng, 4, plies=60)
        colors = colors_for(game, rng)
        if len(game.villages) != 11:
            continue
        wins, n = winning_finishes(game, colors)
        if not wins or len(wins) * 3 > n:
            continue
        tried += 1
        seat = game.to_move
        move = MCTSBot(iterations=3 * n).choose(game, seat, colors[seat], random.Random(tried))
        assert (move.frm, move.to) in wins


def test_mcts_stops_on_the_injected_clock():
    ticks = iter(i * 0.01 for i in range(10_000))
    bot = MCTSBot(clock=lambda: next(ticks))
    game = Game.new(4, seed=3, first_player=0)
    move = bot.choose(game, 0, "red", random.Random(1), move_time=0.1)
    assert_legal(game, move)
    assert 5 <= bot.last_iterations <= 11


def arms_searched(bot: MCTSBot, game: Game, **choose) -> dict[tuple[int, int], int]:
    """How many playouts each root move got in one choice of `bot` (spying on the root's _apply)."""
    tried: dict[tuple[int, int], int] = {}
    apply = bot._apply

    def spy(g: Game, a: int, b: int, det: tuple[int, ...]) -> None:
        if len(g.moves) == len(game.moves):
            tried[(a, b)] = tried.get((a, b), 0) + 1
        apply(g, a, b, det)

    bot._apply = spy
    bot.choose(game, game.to_move, "red", random.Random(2), **choose)
    return tried


def test_arm_count_keeps_the_root_moves_the_budget_can_rank():
    bot = MCTSBot(arm_playouts=20)
    assert [bot._arm_count(16, n) for n in (100, 400, 480, 960, 1200, 1280, 5000)] == [8, 8, 8, 12, 15, 16, 16]
    assert bot._arm_count(5, 10) == 5 and MCTSBot()._arm_count(16, 10) == 16


@pytest.mark.parametrize("budget, arms", [(300, 8), (2000, 16)])
def test_a_small_budget_searches_fewer_root_moves(budget, arms):
    game = Game.new(3, seed=5, first_player=0)
    capped = arms_searched(MCTSBot(iterations=budget, arm_playouts=20), game)
    assert len(capped) == arms and len(arms_searched(MCTSBot(iterations=budget), game)) == 16
    ticks = iter(i * 1e-4 for i in range(10 ** 7))  # one clock call per playout, about: `budget` playouts in the time
    timed = arms_searched(MCTSBot(arm_playouts=20, clock=lambda: next(ticks)), game, move_time=budget * 1e-4)
    assert len(timed) == 16  # the probe sweep plays each once, then the budget it measured decides
    assert sum(n > 1 for n in timed.values()) == arms


# ----- the color model (determinization sampler) ------------------------------------------------------
def test_sampler_never_gives_the_bot_color_to_another_seat():
    rng = random.Random(13)
    for _ in range(30):
        game = random_position(rng)
        seat = rng.randrange(game.players)
        own = rng.randrange(5)
        model = ColorModel(game, {seat: own})
        for _ in range(50):
            det = model.sample(rng.random)
            assert det[seat] == own
            assert len(set(det)) == game.players
        assert model.marginal(seat)[COLORS[own]] == pytest.approx(1.0)
        for other in range(game.players):
            if other != seat:
                assert model.marginal(other)[COLORS[own]] == 0.0
        assert sum(model.weights) == pytest.approx(1.0)


def test_sampler_weights_the_color_a_seat_visibly_played_for():
    # Seats 1-3 are greedy players of a known color; after 30 plies their true color must be clearly
    # likelier than uniform (1/4) on average (the model gives ~0.40 here; 0.25 if it learnt nothing).
    rng = random.Random(17)
    probs = []
    for g in range(12):
        game = Game(4, random_setup(rng), 0, trusted=True)
        colors = rng.sample(COLORS, 4)
        bot = GreedyBot()
        while not game.is_over and game.ply < 30:
            seat = game.to_move
            game.push(bot.choose(game, seat, colors[seat], rng))
        model = ColorModel(game, {0: COLOR_INDEX[colors[0]]})
        probs += [model.marginal(s)[colors[s]] for s in (1, 2, 3)]
    assert sum(probs) / len(probs) > 0.33


def test_sampler_prefers_the_color_of_the_village_taken():
    game = corner_game()
    game.push(4, 1)  # seat 0 founds red+yellow (2 each) rather than red alone
    model = ColorModel(game, {1: COLOR_INDEX["blue"]})
    m = model.marginal(0)
    assert m["red"] > m["green"] and m["yellow"] > m["black"]
    assert m["blue"] == 0.0


# ----- hints ------------------------------------------------------------------------------------------
def test_hint_is_legal_and_ignores_the_secret_colors():
    rng = random.Random(23)
    moves_rng = random.Random(5)
    # The same public history, produced by players of two different color sets: the hint must not differ.
    results = []
    for colors in (["red", "blue", "green"], ["black", "yellow", "red"]):
        game = Game(3, random_setup(random.Random(9)), 0, trusted=True)
        bot = RandomBot()
        moves_rng.seed(5)
        while game.ply < 20:
            seat = game.to_move
            game.push(bot.choose(game, seat, colors[seat], moves_rng))
        move = hint(game, rng=random.Random(1), iterations=40)
        assert_legal(game, move)
        results.append(move)
    assert results[0] == results[1]
    for game in order_positions(5, 29):
        assert_legal(game, hint(game, rng=rng, iterations=5))
    with pytest.raises(IllegalMoveError):
        game = Game.new(2, seed=1, first_player=0)
        hint(game, seat=1, rng=rng, iterations=3)


def test_hint_does_not_leave_a_free_village_to_the_next_player():
    # Whatever color the mover owns: found 1 (and take the chip), or deny it by moving 1 onto 4.
    # Any of the ~170 other moves hands territory 1 and a chip to the next player.
    game = corner_game()
    for seed in range(4):
        move = hint(game, rng=random.Random(seed), iterations=60)
        assert (move.frm, move.to) in {(4, 1), (4, 5), (4, 32), (1, 4)}


# ----- arena ------------------------------------------------------------------------------------------
def test_arena_json_contract(capsys):
    argv = ["--bots", "mcts,greedy,random", "--games", "3", "--seed", "4", "--iterations", "3", "--json"]
    assert arena.main(argv) == 0
    out, err = capsys.readouterr()
    assert err == ""
    data = json.loads(out)
    for key in ("games", "win_rate", "ci95", "seconds"):
        assert key in data
    assert data["games"] == 3
    assert len(data["win_rate"]) == 3 and len(data["ci95"]) == 3
    assert sum(data["win_rate"]) == pytest.approx(1.0, abs=1e-3)
    for rate, (lo, hi) in zip(data["win_rate"], data["ci95"]):
        assert 0 <= lo <= rate <= hi <= 1
    assert arena.main(argv) == 0
    again = json.loads(capsys.readouterr()[0])
    for timed in ("seconds", "iterations_per_second", "longest_turn"):
        del data[timed], again[timed]
    assert data["max_overrun"] is None  # fixed iterations: no move time to overrun
    assert again == data


def test_arena_reports_the_search_rate_and_the_longest_turn_past_the_move_time(capsys):
    argv = ["--bots", "mcts,random", "--games", "1", "--seed", "2", "--move-time", "0.002", "--json"]
    assert arena.main(argv) == 0
    data = json.loads(capsys.readouterr()[0])
    assert data["iterations_per_second"] > 0 and data["iterations_per_move"] > 0
    assert isinstance(data["max_overrun"], float)


def test_arena_games_share_one_win_and_rotate_seats():
    for g in range(4):
        r = arena.play_game(["greedy", "random"], g, seed=2, move_time=None, iterations=None)
        assert sum(r["share"]) == pytest.approx(1.0)
        assert max(r["totals"]) == r["totals"][r["share"].index(max(r["share"]))]


def test_arena_refuses_bad_arguments(capsys):
    with pytest.raises(SystemExit):
        arena.main(["--bots", "greedy", "--games", "2"])
    with pytest.raises(SystemExit):
        arena.main(["--bots", "greedy,alphago", "--games", "2"])
    with pytest.raises(SystemExit):
        arena.main(["--bots", "mcts,greedy", "--games", "2", "--option", "depth=3"])
    capsys.readouterr()
    for option, said in [("c=nan", "must be a number, 0 or more"), ("c=-0.5", "must be a number, 0 or more"),
                         ("root_k=2.5", "must be a whole number"), ("reward=best", "reward must be win, margin")]:
        with pytest.raises(SystemExit):
            arena.main(["--bots", "mcts,greedy", "--games", "2", "--option", option])
        assert said in capsys.readouterr().err, option


def test_wilson_interval():
    lo, hi = arena.wilson(0.5, 100)
    assert lo == pytest.approx(0.404, abs=1e-3) and hi == pytest.approx(0.596, abs=1e-3)
    assert arena.wilson(0.0, 10)[0] == 0.0


def test_mcts_takes_a_sure_win_even_with_one_iteration():
    from companion.games.clans.bots.mcts import sure_win

    huts = {11: {"red": 1}, 12: {"blue": 1}, 57: {"green": 1}, 58: {"yellow": 1}}
    game = Game.from_position(4, huts, to_move=0, villages=range(31, 42))
    game.scores[COLOR_INDEX["red"]] = 30
    game.scores[COLOR_INDEX["black"]] = 10
    move = MCTSBot(iterations=1).choose(game, 0, "red", random.Random(1))
    assert (move.frm, move.to) in {(11, 12), (12, 11)}  # founds the 12th village: red ends far ahead
    # with blue far ahead instead, nothing is sure, whoever owns blue
    game.scores[COLOR_INDEX["blue"]] = 60
    assert sure_win(game, 0, "red") is None
    assert sure_win(game, 0, "blue") is not None  # ... unless the mover owns blue itself
