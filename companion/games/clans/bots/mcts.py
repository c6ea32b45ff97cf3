"""Information-set Monte Carlo tree search (SO-ISMCTS with determinization) for Clans, and hints.

What is hidden in Clans is only who owns which color: the board, the scoring track
and the chips are public. So every determinization shares the same game tree, and
single-observer ISMCTS reduces to one UCT tree over public positions. The root
keeps only the `root_k` (16) best moves by a cheap 2-ply prior (own gain + chips
minus the average opponent's expected gain, plus the expected effect of the next
seat's greedy reply): a ~0.5 s budget (~1500 iterations) cannot tell ~150 mostly
quiet moves apart, the prior can, and pruning lifted the win rate against three
greedy bots from 0.42 to 0.54 at 300 iterations. Each iteration:

1. samples a determinization: a color for every other seat, drawn from the colors
   that are not the bot's own, weighted by `ColorModel` (what their moves so far
   reveal, see below);
2. descends the tree with UCT; at each node the statistics are those of the seat
   that moved into it, rewarded under the sampled colors (so opponents are
   modelled as playing for their sampled color); when a tree move founds 2+
   villages, the mover's founding order is the best one for its sampled color;
3. plays out to the end with an epsilon-greedy policy: with probability
   1 - epsilon the mover takes the founding move best for its sampled color
   (greedy: own gain + chips), otherwise a uniformly random move;
4. backs up the reward of every seat: its share of the win (ties split), blended
   with a squashed score margin (`reward="mix"`, the default; "win" and "margin"
   are the pure forms). Against three greedy bots at 300 iterations: mix 0.55 and
   win 0.55 (400 games each), margin alone 0.47 (300 games).

The move played is the most visited root child, with the founding order best for
the bot's own color.

ColorModel: each seat's observed moves are scored under each candidate color with
a noisy-greedy model: a non-founding move has utility 0, a founding move utility
(color's gain + chips); P(move | color) = (1 - eps) * softmax(beta * utility) +
eps / #legal moves. Only founding moves differ between colors, so one pass over
the history with the cheap founding-move scan is enough (~2 ms per decision).
The joint weight of an assignment of distinct colors to seats is the product of
its seats' likelihoods.

`hint()` uses the same search for a human mover without any secret: the mover's
own color is uniformly unknown (every color weighted equally, the other seats
weighted by their public moves only), so the hint maximises the mover's expected
win share averaged over the five colors it might own, among the 4 best moves by
the root prior computed the same way (expected own gain over the five colors);
its founding order maximises the expected gain over the five colors (then gives
away the least).
"""

from __future__ import annotations

import itertools
import math
import random
import time
from typing import Callable, Sequence

from companion.games.clans.board import COLORS
from companion.games.clans.game import IN_PROGRESS, Game, IllegalMoveError, Move
from companion.games.clans.bots.tactics import (NC, best_order, blind_key, color_index, founding_moves, isolated,
                                    legal_moves, move_gains, own_key)

Clock = Callable[[], float]


class ColorModel:
    """Posterior over which seat owns which color, from the public move history.

    `known` fixes some seats' colors (the bot's own); `blind` seats get a uniform
    color (the hinted human); every other seat is weighted by its moves.
    """

    def __init__(self, game: Game, known: dict[int, int] | None = None, blind: Sequence[int] = (),
                 beta: float = 1.0, eps: float = 0.05) -> None:
        self.players = game.players
        self.known = dict(known or {})
        self.beta, self.eps = beta, eps
        judged = [s for s in range(self.players) if s not in self.known and s not in blind]
        self.loglik = [[0.0] * NC for _ in range(self.players)]
        if judged and game.moves:
            self._observe(game, set(judged))
        taken = set(self.known.values())
        free = [s for s in range(self.players) if s not in self.known]
        free_colors = [c for c in range(NC) if c not in taken]
        self.assignments: list[tuple[int, ...]] = []
        logw: list[float] = []
        for combo in itertools.permutations(free_colors, len(free)):
            assign = [0] * self.players
            for s, c in self.known.items():
                assign[s] = c
            for s, c in zip(free, combo):
                assign[s] = c
            self.assignments.append(tuple(assign))
            logw.append(sum(self.loglik[s][assign[s]] for s in judged))
        top = max(logw)
        w = [math.exp(x - top) for x in logw]
        total = sum(w)
        self.weights = [x / total for x in w]
        self.cum = list(itertools.accumulate(self.weights))

    def _observe(self, game: Game, judged: set[int]) -> None:
        g = Game(game.players, game.setup, game.first_player, game.board, trusted=True)
        beta, eps = self.beta, self.eps
        for mv in game.moves:
            s = g.to_move
            if s in judged:
                n_all = len(legal_moves(g))
                found = founding_moves(g)
                utils = [[0.0] * NC for _ in found]  # utility of each founding move for each color
                chosen = None
                for j, (a, b) in enumerate(found):
                    order = mv.order if (a, b) == (mv.frm, mv.to) else None
                    gains, n = move_gains(g, a, b, order)
                    utils[j] = [gains[k] + n for k in range(NC)]
                    if (a, b) == (mv.frm, mv.to):
                        chosen = j
                n0 = n_all - len(found)
                for k in range(NC):
                    z = n0 + sum(math.exp(beta * u[k]) for u in utils)
                    num = math.exp(beta * utils[chosen][k]) if chosen is not None else 1.0
                    self.loglik[s][k] += math.log((1 - eps) * num / z + eps / n_all)
            g.push_unchecked(mv.frm, mv.to, mv.order)

    def sample(self, rnd: Callable[[], float]) -> tuple[int, ...]:
        """One determinization: a color index for every seat."""
        x = rnd()
        cum = self.cum
        lo, hi = 0, len(cum) - 1
        while lo < hi:  # first index with cum > x
            mid = (lo + hi) // 2
            if cum[mid] > x:
                hi = mid
            else:
                lo = mid + 1
        return self.assignments[lo]

    def marginal_index(self, seat: int) -> list[float]:
        """P(seat owns color i), indexed like COLORS."""
        out = [0.0] * NC
        for assign, w in zip(self.assignments, self.weights):
            out[assign[seat]] += w
        return out

    def marginal(self, seat: int) -> dict[str, float]:
        """P(seat owns color), for every color."""
        out = {c: 0.0 for c in COLORS}
        for assign, w in zip(self.assignments, self.weights):
            out[COLORS[assign[seat]]] += w
        return out


def sure_win(game: Game, seat: int, color: str) -> Move | None:
    """A move that ends the game with `seat` the sole winner whoever owns the other colors, if there is one.

    Only a move that founds the 12th village can end the game, so this looks only at founding
    moves once 11 villages stand; a search with a small budget could otherwise miss a certain win.
    """
    if len(game.villages) != 11 or game.to_move != seat:
        return None
    k = color_index(color)
    others = [c for c in COLORS if c != color]
    g = game.copy()
    for a, b in founding_moves(g):
        move = Move(a, b, best_order(g, a, b, own_key(k)))
        g.push(move)
        try:
            if g.is_over and all(g.winners([*perm[:seat], color, *perm[seat:]])[1] == [seat]
                                 for perm in itertools.permutations(others, g.players - 1)):
                return move
        finally:
            g.pop()
    return None


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
    """SO-ISMCTS within a wall-clock budget (`move_time`) and/or an iteration cap (see module doc).

    The search stops at whichever limit comes first; with neither, `default_move_time`.
    Tuning knobs: `c` (UCT exploration), `reward` ("mix", "win", "margin"),
    `playout_greedy` (1 - epsilon of the playout policy), `beta`/`model_eps` (ColorModel),
    `root_k` (root moves searched, best by the 2-ply prior; 0 = all), `prior_weight`
    (progressive bias by the prior, 0 = off). `clock` is injectable for tests.
    """

    name = "mcts"

    def __init__(self, iterations: int | None = None, c: float = 0.7, reward: str = "mix",
                 playout_greedy: float = 0.9, beta: float = 1.0, model_eps: float = 0.05,
                 margin_scale: float = 10.0, prior_weight: float = 0.0, root_k: int = 16,
                 default_move_time: float = 0.5,
                 clock: Clock = time.perf_counter) -> None:
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
        model = ColorModel(game, {seat: k}, beta=self.beta, eps=self.model_eps)
        a, b = self.search(game, seat, model, rng, move_time, start)
        return Move(a, b, best_order(game, a, b, own_key(k)))

    def search(self, game: Game, seat: int, model: ColorModel, rng: random.Random,
               move_time: float | None, start: float | None = None) -> tuple[int, int]:
        """The most visited root move after the search (frm, to); the clock runs from `start` (default now)."""
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
            if cap is not None and it >= cap:
                break
            if deadline is not None and it and self.clock() >= deadline:
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
                self._playout(g, det, rnd, shuffle, greedy_p)
            rewards = self._rewards(g, det, players)
            root.n += 1
            for nd in path[1:]:
                nd.n += 1
                nd.w += rewards[nd.mover]
        self.last_iterations = it
        best = max(root.children, key=lambda ch: (ch.n, ch.w))
        return best.move

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

    @staticmethod
    def _playout(g: Game, det: tuple[int, ...], rnd: Callable[[], float], shuffle, greedy_p: float) -> None:
        play, random_move = g.push_unchecked, g.random_move
        while g.status == IN_PROGRESS:
            if rnd() < greedy_p:
                found = founding_moves(g)
                if found:
                    k = det[g.to_move]
                    best, best_v = None, -1
                    for a, b in found:
                        gains, n = move_gains(g, a, b)
                        v = gains[k] + n
                        if v > best_v:
                            best, best_v = (a, b), v
                    play(best[0], best[1], None, shuffle)
                    continue
            a, b = random_move(rnd)
            play(a, b, None, shuffle)

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
