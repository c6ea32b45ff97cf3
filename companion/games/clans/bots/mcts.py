"""The search bot ("mcts") for Clans, and hints: Monte Carlo over determinized colors.

What is hidden in Clans is only who owns which color: the board, the scoring track
and the chips are public. Each playout samples a determinization (a color for every
other seat, weighted by `belief.ColorModel`: what their moves so far reveal) and
plays the game on with every seat taking the founding move best for its sampled color
(otherwise a random move: `playout.playout`), `horizon` (12) moves deep, then rewards
the bot by its share of the lead (ties split) blended with a squashed score margin
(`reward="mix"`; "win" and "margin" are the pure forms).

The root keeps only the `root_k` (16) best moves by a cheap 2-ply prior (own gain +
chips minus the average opponent's expected gain, plus the expected effect of the next
seat's greedy reply): a budget of a few hundred playouts cannot tell ~150 mostly quiet
moves apart, the prior can.

`search="halving"` (the default) spends the budget by sequential halving over those
moves: each round shares the playouts left (counted, or estimated from the clock) among
the moves still in, then keeps the better half by mean reward, down to two. At a Pi's
budget (0.05 s here, about 450-650 playouts) it beat the old UCT tree (`search="uct"`,
kept for comparison: UCT descent with the statistics of the seat that moved, expanded
one node per iteration, playouts to the end), whose opponent nodes were expanded with
ever worse replies, which flattered the bot's own moves. Against three greedy bots at
0.05 s a move, 400 games: UCT 0.52, halving 0.62-0.64, with beta=3 (the color model
sure sooner) and the 12-move horizon (about 40% more playouts) 0.65-0.67; see README.

The move played has the founding order best for the bot's own color.

`hint()` uses the same search for a human mover without any secret: the mover's
own color is uniformly unknown (every color weighted equally, the other seats
weighted by their public moves only), so the hint maximises the mover's expected
win share averaged over the five colors it might own, among the 4 best moves by
the root prior computed the same way (expected own gain over the five colors);
its founding order maximises the expected gain over the five colors (then gives
away the least).
"""

from __future__ import annotations

import math
import random
import time
from typing import Callable, Iterator

from companion.games.clans.game import IN_PROGRESS, Game, IllegalMoveError, Move
from companion.games.clans.bots.belief import ColorModel, observed, sure_win
from companion.games.clans.bots.playout import playout
from companion.games.clans.bots.tactics import (NC, best_order, blind_key, color_index, founding_moves, isolated,
                                    legal_moves, move_gains, own_key)

Clock = Callable[[], float]
MIN_ARMS = 8  # the fewest root moves `arm_playouts` narrows the search to


class _Node:
    __slots__ = ("move", "mover", "n", "w", "h", "children", "untried")

    def __init__(self, move: tuple[int, int] | None, mover: int, h: float = 0.0) -> None:
        self.move = move
        self.mover = mover  # the seat that played `move` into this node
        self.n = 0
        self.w = 0.0
        self.h = h  # progressive-bias prior: the mover's immediate gain (points + chips)
        self.children: list[_Node] = []
        self.untried: list[tuple[int, int, float]] | None = None  # (frm, to, prior), next to expand last


class MCTSBot:
    """The search bot within a wall-clock budget (`move_time`) and/or an iteration cap (see module doc).

    The search stops at whichever limit comes first; with neither, `default_move_time`.
    Tuning knobs: `search` ("halving", "uct"), `horizon` (playout moves, 0 = to the end),
    `reward` ("mix", "win", "margin"), `playout_greedy` (1 - epsilon of the playout policy),
    `beta`/`model_eps` (ColorModel), `root_k` (root moves searched, best by the 2-ply prior;
    0 = all), `arm_playouts` (0: off; else fewer root moves, down to `MIN_ARMS`, when the budget
    cannot give each at least this many playouts in the first halving round); for "uct" only: `c`
    (exploration), `prior_weight` (progressive bias, 0 = off).
    `clock` is injectable for tests.
    """

    name = "mcts"

    def __init__(self, iterations: int | None = None, c: float = 0.7, reward: str = "mix",
                 playout_greedy: float = 0.9, beta: float = 3.0, model_eps: float = 0.05,
                 margin_scale: float = 10.0, prior_weight: float = 0.0, root_k: int = 16,
                 default_move_time: float = 0.5, search: str = "halving", horizon: int = 12,
                 arm_playouts: int = 0, clock: Clock = time.perf_counter) -> None:
        if reward not in ("win", "margin", "mix"):
            raise ValueError(f"reward must be win, margin or mix, not {reward!r}")
        self.iterations = iterations
        self.c = c
        self.reward = reward
        self.playout_greedy = playout_greedy
        self.beta, self.model_eps = beta, model_eps
        self.margin_scale = margin_scale
        self.prior_weight = prior_weight
        self.root_k = int(root_k)
        self.default_move_time = default_move_time
        if search not in ("halving", "uct"):
            raise ValueError(f"search must be halving or uct, not {search!r}")
        self.search_kind = search
        self.horizon = int(horizon)
        self.arm_playouts = int(arm_playouts)
        self.clock = clock
        self.last_iterations = 0

    def choose(self, game: Game, seat: int, color: str, rng: random.Random, *,
               move_time: float | None = None) -> Move:
        start = self.clock()
        k = color_index(color)
        sure = sure_win(game, seat, color)
        if sure is not None:
            self.last_iterations = 0
            return sure
        reading = None if move_time is None else start + move_time / 2
        a, b = self.search(game, seat, self.model(game, seat, k, reading), rng, move_time, start)
        return Move(a, b, best_order(game, a, b, own_key(k)))

    def model(self, game: Game, seat: int, k: int, deadline: float | None = None) -> ColorModel:
        """What the bot (`seat`, color index k) believes of the other seats' colors: their founding moves
        (a bot that reads more stops reading at `deadline`, on its clock)."""
        return ColorModel(game, {seat: k}, beta=self.beta, eps=self.model_eps)

    def readings(self, game: Game, judged: set[int]) -> Iterator[tuple[int, list[float]]]:
        """Each move of the history as this bot reads it: the mover and, for a `judged` seat, the move's
        log-likelihood under each color (`belief.observed`; what `model` sums)."""
        return observed(game, judged, self.beta, self.model_eps)

    def search(self, game: Game, seat: int, model: ColorModel, rng: random.Random,
               move_time: float | None, start: float | None = None) -> tuple[int, int]:
        """The move the search picks (frm, to): by halving, the last one standing (best mean reward); by UCT,
        the most visited root move. The clock runs from `start` (default now)."""
        if game.is_over:
            raise IllegalMoveError("the game is over: no more moves")
        if seat != game.to_move:
            raise IllegalMoveError(f"it is seat {game.to_move}'s turn, not seat {seat}'s")
        moves = legal_moves(game)
        if len(moves) == 1:
            self.last_iterations = 0
            return moves[0]
        cap = self.iterations
        if cap is None and move_time is None:
            move_time = self.default_move_time
        deadline = None if move_time is None else (self.clock() if start is None else start) + move_time
        if self.search_kind == "halving":
            return self._halving(game, seat, model, moves, rng, cap, deadline)
        rnd, shuffle = rng.random, rng.shuffle
        root = _Node(None, -1)
        if self.root_k or self.prior_weight:
            root.untried = self._root_moves(game, seat, model, moves, rng)
        c = self.c
        pw = self.prior_weight
        log, sqrt = math.log, math.sqrt
        greedy_p = self.playout_greedy
        players = game.players
        it = 0
        while True:
            if self._spent(it, cap, deadline):
                break
            it += 1
            det = model.sample(rnd)
            g = game.copy()
            node = root
            path = [root]
            while g.status == IN_PROGRESS:
                if node.untried is None:
                    node.untried = self._expansions(g, det, shuffle)
                if node.untried:
                    a, b, h = node.untried.pop()
                    child = _Node((a, b), g.to_move, h)
                    node.children.append(child)
                    self._apply(g, a, b, det)
                    path.append(child)
                    break
                lnn = log(node.n)
                best, best_v = None, -1.0
                for ch in node.children:
                    v = ch.w / ch.n + c * sqrt(lnn / ch.n) + pw * ch.h / (ch.n + 1)
                    if v > best_v:
                        best, best_v = ch, v
                node = best
                self._apply(g, node.move[0], node.move[1], det)
                path.append(node)
            if g.status == IN_PROGRESS:
                playout(g, det, rnd, shuffle, greedy_p)
            rewards = self._rewards(g, det, players)
            root.n += 1
            for nd in path[1:]:
                nd.n += 1
                nd.w += rewards[nd.mover]
        self.last_iterations = it
        best = max(root.children, key=lambda ch: (ch.n, ch.w))
        return best.move

    def _halving(self, game: Game, seat: int, model: ColorModel, moves: list[tuple[int, int]], rng: random.Random,
                 cap: int | None, deadline: float | None) -> tuple[int, int]:
        """Flat Monte Carlo over the root moves with sequential halving: each round shares the
        budget left among the moves still in, then keeps the better half by mean reward."""
        arms = self._root_moves(game, seat, model, moves, rng)[::-1]  # best prior first
        k = len(arms)
        n, w = [0] * k, [0.0] * k
        alive = list(range(k))
        if cap is not None:
            alive = alive[:self._arm_count(k, cap)]
        rounds = max(1, math.ceil(math.log2(len(alive))))
        rnd, shuffle, clock = rng.random, rng.shuffle, self.clock
        greedy_p, players, horizon = self.playout_greedy, game.players, self.horizon
        it, t0 = 0, clock()
        probe = cap is None  # on the clock, a first sweep measures the playout rate; it halves nothing
        stop = False
        while not stop:
            if cap is not None:
                left = cap - it
            elif probe:
                left = 0
            else:
                now = clock()
                left = int(it / max(now - t0, 1e-9) * (deadline - now))
            per = max(1, left // (rounds * len(alive)))
            for _ in range(per):
                for i in alive:
                    if self._spent(it, cap, deadline):
                        stop = True
                        break
                    it += 1
                    det = model.sample(rnd)
                    g = game.copy()
                    a, b, _ = arms[i]
                    self._apply(g, a, b, det)
                    if g.status == IN_PROGRESS:
                        playout(g, det, rnd, shuffle, greedy_p, horizon)
                    n[i] += 1
                    w[i] += self._rewards(g, det, players)[seat]
                if stop:
                    break
            alive.sort(key=lambda i: -(w[i] / n[i]) if n[i] else 0.0)
            if probe:
                probe = False
                if self.arm_playouts and not stop:  # the probe's rate tells the budget: as many arms as it can rank
                    now = clock()
                    keep = self._arm_count(k, it + int(it / max(now - t0, 1e-9) * (deadline - now)))
                    alive = [i for i in alive if i < keep]  # the best by the prior, in the probe's order
                    rounds = max(1, math.ceil(math.log2(keep)))
            elif len(alive) > 1 and rounds > 1:
                alive = alive[:math.ceil(len(alive) / 2)]
                rounds -= 1
            elif cap is not None:
                break
        self.last_iterations = it
        a, b, _ = arms[alive[0]]
        return a, b

    def _arm_count(self, k: int, budget: int) -> int:
        """How many of the k root moves sequential halving can tell apart with `budget` playouts: all k, or
        with `arm_playouts` the most (at least MIN_ARMS) that each get that many in the first round."""
        if not self.arm_playouts or k <= MIN_ARMS:
            return k
        for m in range(k, MIN_ARMS, -1):
            if budget // (math.ceil(math.log2(m)) * m) >= self.arm_playouts:
                return m
        return MIN_ARMS

    def _spent(self, it: int, cap: int | None, deadline: float | None) -> bool:
        """The budget is used up: `cap` iterations done, or (after the first) the clock past `deadline`."""
        return (cap is not None and it >= cap) or (deadline is not None and it > 0 and self.clock() >= deadline)

    def _root_moves(self, game: Game, seat: int, model: ColorModel, moves: list[tuple[int, int]],
                    rng: random.Random) -> list[tuple[int, int, float]]:
        """Root moves with a 2-ply prior: own gain minus the average opponent's, then the next seat's
        expected greedy reply (its gain to us minus its gain to the replier), in points.

        With root_k, only the root_k best (ties at random) are searched: the search budget is far
        too small to tell ~150 quiet moves apart, the prior is not.
        """
        game = game.copy()  # the search plays on its own copy: the caller's game is never touched
        players = game.players
        marg = [model.marginal_index(s) for s in range(players)]
        k = model.known.get(seat, -1)
        nxt = (seat + 1) % players
        scored = []
        for a, b in moves:
            order = best_order(game, a, b, own_key(k) if k >= 0 else blind_key)
            gains, n = move_gains(game, a, b, order)
            mine = sum(marg[seat][c] * gains[c] for c in range(NC))
            opp = sum(marg[s][c] * gains[c] for s in range(players) if s != seat for c in range(NC))
            h = mine + n - opp / (players - 1)
            game.push_unchecked(a, b, order)
            if game.status == IN_PROGRESS:
                found = founding_moves(game)
                if found:
                    for c in range(NC):
                        p = marg[nxt][c]
                        if not p:
                            continue
                        best_v, delta = -1, 0.0
                        for fa, fb in found:
                            rg, rn = move_gains(game, fa, fb)
                            if rg[c] + rn > best_v:
                                best_v = rg[c] + rn
                                delta = sum(marg[seat][x] * rg[x] for x in range(NC)) - best_v
                        h += p * delta
            game.pop()
            scored.append((a, b, h))
        rng.shuffle(scored)
        scored.sort(key=lambda m: -m[2])
        if self.root_k:
            scored = scored[:self.root_k]
        scored.reverse()  # popped from the end: best first
        return scored

    @staticmethod
    def _expansions(g: Game, det: tuple[int, ...], shuffle) -> list[tuple[int, int, float]]:
        """Moves to expand, the most promising last (popped first): founding moves by the mover's gain."""
        moves = legal_moves(g)
        shuffle(moves)
        found = founding_moves(g)
        if not found:
            return [(a, b, 0.0) for a, b in moves]
        k = det[g.to_move]
        prior = {}
        for a, b in found:
            gains, n = move_gains(g, a, b)
            prior[(a, b)] = gains[k] + n
        out = [(a, b, prior.get((a, b), 0.0)) for a, b in moves]
        out.sort(key=lambda m: m[2])  # stable: ties stay shuffled
        return out

    @staticmethod
    def _apply(g: Game, a: int, b: int, det: tuple[int, ...]) -> None:
        iso = isolated(g, a)
        order = best_order(g, a, b, own_key(det[g.to_move])) if len(iso) > 1 else None
        g.push_unchecked(a, b, order)

    def _rewards(self, g: Game, det: tuple[int, ...], players: int) -> list[float]:
        scores, chips = g.scores, g.chips
        totals = [scores[det[s]] + chips[s] for s in range(players)]
        top = max(totals)
        out = [0.0] * players
        if self.reward != "margin":
            winners = [s for s in range(players) if totals[s] == top]
            share = 1.0 / len(winners)
            for s in winners:
                out[s] = share
        if self.reward != "win":
            scale = self.margin_scale
            for s in range(players):
                best_other = max(totals[o] for o in range(players) if o != s)
                m = 0.5 + 0.5 * math.tanh((totals[s] - best_other) / scale)
                out[s] = m if self.reward == "margin" else 0.7 * out[s] + 0.3 * m
        return out


# With the mover's color unknown, win shares differ too little between quiet moves for a short search
# to rank them: the hint searches only the best few moves by the public 2-ply prior.
HINT_ROOT_K = 4


def hint(game: Game, seat: int | None = None, rng: random.Random | None = None,
         move_time: float | None = None, *, iterations: int | None = None, **options) -> Move:
    """A suggested move for the (human) seat to move, using no secret color (see module doc).

    Searches for `move_time` seconds and/or `iterations`; with neither, 0.5 s.
    """
    seat = game.to_move if seat is None else seat
    rng = rng or random.Random()
    bot = MCTSBot(iterations=iterations, **{"root_k": HINT_ROOT_K, **options})
    start = bot.clock()
    model = ColorModel(game, {}, blind=(seat,), beta=bot.beta, eps=bot.model_eps)
    a, b = bot.search(game, seat, model, rng, move_time, start)
    return Move(a, b, best_order(game, a, b, blind_key))
