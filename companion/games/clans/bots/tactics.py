"""Fast move evaluation shared by the bots: what a move founds and who scores, without playing it.

The engine scores a village only by playing the move (push/pop). The bots need the
same answer thousands of times per second, so this module recomputes R4 from the
engine's public position (`game.packed`, `game.total`, `game.occ`, `game.big`,
`game.live`) and its board tables (`game.rules`) without mutating the game (read-only);
tests check it against push/pop on random positions.

Gains are lists indexed like `COLORS`: what each color's track would gain.
"""

from __future__ import annotations

import itertools
from typing import Iterable, Callable, Sequence

from companion.games.clans.board import COLORS, N_CHIPS
from companion.games.clans.game import COLOR_INDEX, SHIFT, Game

NC = len(COLORS)
ORDER_PERMUTATION_CAP = 720  # 6 villages at once is the most a move can found


class _Tables:
    """Per-board scoring constants indexed by chip (0..11) and territory."""

    def __init__(self, game: Game) -> None:
        board = game.board
        ce = game.rules.chip_epoch
        self.terrain = game.rules.terrain
        self.hostile = [board.epochs[ce[c] - 1].hostile for c in range(N_CHIPS)]
        self.favorable = [board.epochs[ce[c] - 1].favorable for c in range(N_CHIPS)]
        self.bonus = [board.epochs[ce[c] - 1].bonus for c in range(N_CHIPS)]
        self.last_bonus = board.last_village_bonus


_TABLES: dict[int, tuple[object, _Tables]] = {}


def tables(game: Game) -> _Tables:
    hit = _TABLES.get(id(game.board))
    if hit is None or hit[0] is not game.board:
        hit = _TABLES[id(game.board)] = (game.board, _Tables(game))
    return hit[1]  # type: ignore[return-value]


def isolated(game: Game, a: int) -> list[int]:
    """Territories a move from `a` isolates (ascending), whatever the target: only a's leaving matters."""
    occ = game.occ & ~(1 << a)
    nbm = game.rules.nb_mask
    return [c for c in game.rules.nb_list[a] if occ >> c & 1 and not nbm[c] & occ]


def village_value(tb: _Tables, packed: int, huts: int, t: int, chip: int) -> tuple[int, int]:
    """(value, packed huts left after strife) of a village of `huts` huts (`packed`) on t founded with
    0-based `chip` (R4); the count comes from the engine's totals, so the huts are not unpacked."""
    if packed & 0xF and packed & 0xF0 and packed & 0xF00 and packed & 0xF000 and packed & 0xF0000:  # strife
        for s in SHIFT:
            if (packed >> s) & 15 == 1:
                packed -= 1 << s
                huts -= 1
    if not huts:
        return 0, 0
    if chip == N_CHIPS - 1:
        return huts + tb.last_bonus, packed
    terrain = tb.terrain[t]
    if terrain == tb.hostile[chip]:
        return 0, 0
    fav = tb.favorable[chip]
    if fav == terrain or fav == "all":
        return huts + tb.bonus[chip], packed
    return huts, packed


def move_gains(game: Game, a: int, b: int, order: Sequence[int] | None = None,
               forget: int | None = None) -> tuple[list[int], int]:
    """(gains per color, villages founded) if a->b (legal) were played with `order` (default ascending),
    as seen by a player who forgets the huts of color index `forget` (None: sees them all; the easy bot)."""
    iso = list(order) if order is not None else isolated(game, a)
    gains = [0] * NC
    if not iso:
        return gains, 0
    tb = tables(game)
    packed, total = game.packed, game.total
    chip = len(game.villages)
    n = 0
    for t in iso:
        if chip + n >= N_CHIPS:
            break
        p, h = packed[t], total[t]
        if t == b:
            p, h = p + packed[a], h + total[a]
        if forget is not None:
            h -= p >> SHIFT[forget] & 15
            p &= ~(15 << SHIFT[forget])
        value, left = village_value(tb, p, h, t, chip + n)
        if value:
            for i in range(NC):
                if left >> SHIFT[i] & 15:
                    gains[i] += value
        n += 1
    return gains, n


def best_order(game: Game, a: int, b: int, key: Callable[[list[int], int], object],
               forget: int | None = None) -> tuple[int, ...] | None:
    """The founding order for a->b that maximises key(gains, founded) (the gains as seen forgetting color
    index `forget`, see move_gains); None when it founds at most one.

    When the order cannot matter (same treatment for every position) it is ascending.
    Ties keep the ascending order (the first permutation), so the result is deterministic.
    """
    iso = isolated(game, a)
    if len(iso) < 2:
        return None
    if not game.order_matters(len(iso)):
        return tuple(iso)
    best, best_key = None, None
    for perm in itertools.islice(itertools.permutations(iso), ORDER_PERMUTATION_CAP):
        k = key(*move_gains(game, a, b, perm, forget))
        if best_key is None or k > best_key:
            best, best_key = perm, k
    return best


def own_key(color: int) -> Callable[[list[int], int], tuple[int, int]]:
    """Order key for a player of `color`: own gain + chips first, then give the other colors the least."""
    def key(gains: list[int], founded: int) -> tuple[int, int]:
        return gains[color] + founded, -max(g for i, g in enumerate(gains) if i != color)
    return key


def blind_key(gains: list[int], founded: int) -> tuple[float, int]:
    """Order key when the mover's color is unknown: expected gain over the 5 colors, then the fewest points given."""
    return sum(gains) / NC + founded, -max(gains)


def founding_sources(game: Game) -> list[int]:
    """Sources whose move founds a village: the sole occupied neighbor of some occupied territory."""
    occ, nbm = game.occ, game.rules.nb_mask
    out: list[int] = []
    for c in game.live:
        m = nbm[c] & occ
        if not m & (m - 1):  # exactly one occupied neighbor (never 0: c would be a village)
            a = m.bit_length() - 1
            if a not in out:
                out.append(a)
    return out


def founding_moves(game: Game) -> list[tuple[int, int]]:
    """All legal moves that found at least one village."""
    return _moves_from(game, founding_sources(game))


def legal_moves(game: Game) -> list[tuple[int, int]]:
    """All legal (frm, to) pairs, ascending by frm then neighbor order (like game.legal_moves, faster)."""
    return _moves_from(game, sorted(game.live))


def _moves_from(game: Game, sources: Iterable[int]) -> list[tuple[int, int]]:
    nbl, occ, big, total = game.rules.nb_list, game.occ, game.big, game.total
    moves = []
    for a in sources:
        isbig = big >> a & 1
        ta = total[a]
        for b in nbl[a]:
            if occ >> b & 1 and (not isbig or total[b] >= ta):
                moves.append((a, b))
    return moves


def color_index(color: str) -> int:
    return COLOR_INDEX[color]
