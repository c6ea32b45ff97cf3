"""What a quiet move says of its mover's color: the hard bot's sharper reading of the table.

`belief.ColorModel` learns from founding moves only (a quiet move has utility 0 for every
color). But a player rarely moves at random when nothing is founded: it prepares villages for
its own color and leaves the next seat nothing worth taking. This module scores every legal
move of the position under each color with the search's own 2-ply prior (own gain + chips,
minus the average opponent's, plus the next seat's best founding reply: what it gives us minus
what it takes), and reads a quiet move by a softmax over those scores:
P(move | color) = (1 - eps) * softmax(beta * prior_color)[move] + eps / #legal moves.
The opponents' colors in that prior are the public belief at that point (what every seat
can know), so the reading is the same whoever reads it.

On 60 games of three normal bots (400 playouts a move), the mean probability a seat's model
gave each other seat's true color was 0.37, 0.46 and 0.53 at moves 12, 18 and 30 from
founding moves alone, 0.62, 0.75 and 0.80 with quiet moves read at beta 2 (mean log-likelihood
of the truth at move 30: -2.28 against -0.60): the opponents' colors are known about twice
as early, and the model is no longer sure of wrong colors late in the game.

`History` keeps each move's reading by the moves before it (a game replayed, undone or
resumed reads the same), so a bot pays for the moves made since its last turn only.
"""

from __future__ import annotations

import math
import time
from typing import Callable, Iterator

from companion.games.clans.game import IN_PROGRESS, Game, Move
from companion.games.clans.rules import BIG
from companion.games.clans.bots.belief import ColorModel, observed_row
from companion.games.clans.bots.tactics import NC, founding_moves, legal_moves, move_gains

NOTHING = [0.0] * NC  # a move not read (yet): as likely under every color
QUIET_BETA = 2.0  # the best calibrated of 0.25-6 on the 60 games above (beta 3-4 sharper, over-sure late)


class _AfterQuiet:
    """The position after a quiet move a->b of `game`, as far as bots.tactics reads it, without playing it:
    a quiet move only empties a and adds its huts to b (the caller adds them to `packed`/`total` and
    takes them back). `live` is the engine's own order after the move (a swap-removed), so founding
    moves come out in the order a push would give them (ties between replies break the same way)."""

    __slots__ = ("rules", "board", "villages", "packed", "total", "occ", "big", "live")

    def __init__(self, game: Game, a: int, b: int) -> None:
        self.rules, self.board, self.villages = game.rules, game.board, game.villages
        self.packed, self.total = game.packed, game.total
        self.occ = game.occ & ~(1 << a)
        big = game.big & ~(1 << a)
        if game.total[b] >= BIG:
            big |= 1 << b
        self.big = big
        live = self.live = game.live[:]
        last = live.pop()
        if last != a:
            live[game.pos[a]] = last


def prior_rows(game: Game, marg: list[list[float]]) -> dict[tuple[int, int], list[float]]:
    """Every legal move's 2-ply prior for the mover under each color (indexed like COLORS), in one pass:
    the gains do not depend on the mover's color, only which of them counts as its own. A quiet move
    is looked past without playing it (`_AfterQuiet`: the reading a quarter faster than with push and pop)."""
    g = game.copy()
    players, seat = g.players, g.to_move
    nxt = (seat + 1) % players
    others = [s for s in range(players) if s != seat]
    packed, total = g.packed, g.total
    out: dict[tuple[int, int], list[float]] = {}
    for a, b in legal_moves(g):
        gains, n = move_gains(g, a, b)
        opp = sum(marg[s][c] * gains[c] for s in others for c in range(NC)) / len(others)
        h = [gains[c] + n - opp for c in range(NC)]
        pa, ta, pb, tb = packed[a], total[a], packed[b], total[b]
        after: Game | _AfterQuiet | None = None
        if not n:
            packed[b], total[b], packed[a], total[a] = pb + pa, tb + ta, 0, 0
            after = _AfterQuiet(g, a, b)
            if not after.occ & ~after.big:  # only big groups left: whether the game ends, the engine decides
                packed[b], total[b], packed[a], total[a] = pb, tb, pa, ta
                after = None
        pushed = after is None
        if pushed:
            g.push_unchecked(a, b)
            if g.status == IN_PROGRESS:
                after = g
        if after is not None:
            found = founding_moves(after)
            if found:
                replies = [move_gains(after, fa, fb) for fa, fb in found]
                for x in range(NC):
                    p = marg[nxt][x]
                    if not p:
                        continue
                    best, best_v = None, -1
                    for rg, rn in replies:
                        if rg[x] + rn > best_v:
                            best, best_v = rg, rg[x] + rn
                    for c in range(NC):
                        h[c] += p * (best[c] - best_v)
        if pushed:
            g.pop()
        else:
            packed[b], total[b], packed[a], total[a] = pb, tb, pa, ta
        out[(a, b)] = h
    return out


def quiet_row(game: Game, move: tuple[int, int], marg: list[list[float]], beta: float = QUIET_BETA,
              eps: float = 0.05) -> list[float]:
    """The log-likelihood of the quiet `move` under each color of its mover (see module doc)."""
    rows = prior_rows(game, marg)
    chosen = rows[move]
    n_all = len(rows)
    out = []
    for c in range(NC):
        top = max(h[c] for h in rows.values())
        z = sum(math.exp(beta * (h[c] - top)) for h in rows.values())
        out.append(math.log((1 - eps) * math.exp(beta * (chosen[c] - top)) / z + eps / n_all))
    return out


class History:
    """Each move's log-likelihood under each color of its mover (founding moves as `belief.observed`
    reads them at `beta`; quiet moves by `quiet_row`), kept by the moves before it; `limit` readings
    at most (then it starts afresh)."""

    def __init__(self, beta: float = 3.0, eps: float = 0.05, quiet_beta: float = QUIET_BETA,
                 limit: int = 20000, clock: Callable[[], float] = time.perf_counter) -> None:
        self.beta, self.eps, self.quiet_beta, self.limit, self.clock = beta, eps, quiet_beta, limit, clock
        self._rows: dict[tuple, list[float]] = {}
        self.computed = 0  # readings worked out (not found kept): for tests and benchmarks

    def loglik(self, game: Game, deadline: float | None = None) -> list[list[float]]:
        """Every seat's summed log-likelihood of its moves so far under each color (for `ColorModel(loglik=)`).
        Past `deadline` (on `clock`) a quiet move not read yet counts as saying nothing, and is read
        on a later call: a game resumed late is read over a few turns, each within its time."""
        ll = [[0.0] * NC for _ in range(game.players)]
        for _ in self.rows(game, ll, deadline):
            pass
        return ll

    def rows(self, game: Game, ll: list[list[float]] | None = None,
             deadline: float | None = None) -> Iterator[tuple[int, list[float]]]:
        """For each move of the game's history (in order): its mover and its log-likelihood under each
        color, summed into `ll` as it goes (a quiet move is read with the public belief of the moves
        before it; None: a fresh sum)."""
        if len(self._rows) > self.limit:
            self._rows.clear()
        g = Game(game.players, game.setup, game.first_player, game.board, trusted=True)
        if ll is None:
            ll = [[0.0] * NC for _ in range(g.players)]
        key: tuple = (g.players, g.first_player, tuple(sorted(game.setup.items())))
        late = False  # once a quiet move is left unread, so is every later one (each is read knowing those before)
        for mv in game.moves:
            key = (key, mv.frm, mv.to, mv.order)
            row = self._rows.get(key)
            if row is None:
                if (mv.frm, mv.to) in founding_moves(g):
                    row = self._rows[key] = observed_row(g, mv, self.beta, self.eps)
                elif late or (deadline is not None and self.clock() >= deadline):
                    row, late = NOTHING, True
                else:
                    public = ColorModel(g, {}, beta=self.beta, eps=self.eps, loglik=ll)
                    marg = [public.marginal_index(s) for s in range(g.players)]
                    row = self._rows[key] = quiet_row(g, (mv.frm, mv.to), marg, self.quiet_beta, self.eps)
                self.computed += row is not NOTHING
            seat = g.to_move
            for c, x in enumerate(row):
                ll[seat][c] += x
            yield seat, row
            g.push_unchecked(mv.frm, mv.to, mv.order)
