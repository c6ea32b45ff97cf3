"""The search's playouts: every seat plays the founding move best for its (sampled) color, else a random move.

This is where a bot's thinking time goes (about two thirds of it), so it is written
for speed: per source territory the villages a move founds are worked out once
(whatever the target, only the source's leaving isolates anything; a target that is
itself isolated founds with the source's huts added), and a village's value comes
from the packed huts and the hut count without unpacking them (`tactics.village_value`). It reads the
engine's public position (`packed`, `total`, `occ`, `big`, `live`, `villages`,
`rules`) and plays through `Game.push_unchecked`; tests check `greedy_founding`
against `tactics.move_gains` on random positions.
"""

from __future__ import annotations

from typing import Callable

from companion.games.clans.board import N_CHIPS
from companion.games.clans.game import IN_PROGRESS, SHIFT, Game
from companion.games.clans.bots.tactics import tables, village_value


def lonely(g: Game) -> int:
    """The territories in play with exactly one neighbor in play (bitmask): moving that neighbor
    away isolates them, so that neighbor's moves are the founding moves."""
    occ, nbm = g.occ, g.rules.nb_mask
    out = 0
    for c in g.live:
        m = nbm[c] & occ
        if not m & (m - 1):
            out |= 1 << c
    return out


def greedy_founding(g: Game, k: int, alone: int | None = None) -> tuple[tuple[int, int] | None, int]:
    """The founding move best for color index k by own gain + villages founded (ascending founding
    order), and that value; (None, -1) when no legal move founds a village. `alone` is
    `lonely(g)` when the caller keeps it up to date."""
    occ, big = g.occ, g.big
    live = g.live if alone is None else _bits(alone)
    rules = g.rules
    nbm, nbl = rules.nb_mask, rules.nb_list
    packed, total = g.packed, g.total
    tb = tables(g)
    chip0 = len(g.villages)
    room = N_CHIPS - chip0
    mask_k = 15 << SHIFT[k]
    best, best_v = None, -1
    seen = 0
    for c in live:
        m = nbm[c] & occ
        if m & (m - 1) or seen & m:
            continue
        seen |= m
        a = m.bit_length() - 1
        rest = occ & ~m
        iso = [x for x in nbl[a] if rest >> x & 1 and not nbm[x] & rest]
        isbig = big >> a & 1
        ta, pa = total[a], packed[a]
        base = None
        for b in nbl[a]:
            if not occ >> b & 1 or (isbig and total[b] < ta):
                continue
            if b in iso or base is None:
                v = n = 0
                for t in iso:
                    if n >= room:
                        break
                    if t == b:
                        value, left = village_value(tb, packed[t] + pa, total[t] + ta, t, chip0 + n)
                    else:
                        value, left = village_value(tb, packed[t], total[t], t, chip0 + n)
                    if value and left & mask_k:
                        v += value
                    n += 1
                v += n
                if b not in iso:
                    base = v
            else:
                v = base
            if v > best_v:
                best, best_v = (a, b), v
    return best, best_v


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def playout(g: Game, det: tuple[int, ...], rnd: Callable[[], float], shuffle: Callable[[list], None],
            greedy_p: float, horizon: int = 0) -> None:
    """Play g to its end: with probability greedy_p the mover takes the founding move best for its
    color det[mover] (if any), otherwise a uniformly random legal move; founding orders at random."""
    play, random_move = g.push_unchecked, g.random_move
    alone = lonely(g)
    left = horizon or -1
    while g.status == IN_PROGRESS and left:
        left -= 1
        move = None
        if rnd() < greedy_p and alone:
            move, _ = greedy_founding(g, det[g.to_move], alone)
        a, b = move or random_move(rnd)
        before = g.occ
        play(a, b, None, shuffle)
        alone = still_lonely(g, alone, before)


def still_lonely(g: Game, alone: int, before: int) -> int:
    """`lonely(g)` after a move, from `alone` before it and the territories in play before it (`before`):
    only the neighbors of what left play (the source, the villages founded) change their count."""
    nbm, nbl = g.rules.nb_mask, g.rules.nb_list
    now = g.occ
    gone = before & ~now
    alone &= now
    while gone:
        low = gone & -gone
        gone ^= low
        for c in nbl[low.bit_length() - 1]:
            if now >> c & 1:
                m = nbm[c] & now
                if not m & (m - 1):
                    alone |= 1 << c
    return alone
