"""The hard bot's playouts: the normal playout, but a seat with no founding move to take avoids
handing the next seat one.

In the normal playout (`playout.playout`) a seat that does not found plays a uniformly random
move, and some of those (one in eight in the tests' quiet positions) leave a territory with a
single neighbor in play: the next seat founds it for a chip and whatever its huts score. The
idea was that the searching bots at the table do not give villages away like that, so a playout
that does flatters the moves after which the opponents' random replies feed the bot. Here the non-founding move is redrawn (up to `tries`
draws) while it would leave a territory newly "lonely" (one neighbor in play); late in the game,
when every move gives something away, the last draw is played.

HardBot uses it only with `safe_tries` > 0 (off by default): at the table's times the hard bot
with these playouts won 0.289 of 180 games against two normal bots (seed 11), below a fair share,
so the searching opponents are not modelled better by it than by the normal playout.
"""

from __future__ import annotations

from typing import Callable

from companion.games.clans.game import IN_PROGRESS, Game
from companion.games.clans.bots.playout import greedy_founding, lonely, still_lonely


def gives_away(g: Game, a: int) -> bool:
    """Moving the group on `a` away leaves some territory in play with exactly one neighbor in play
    (or none: the move founds it), i.e. hands the next seat a founding move it did not have."""
    rest = g.occ & ~(1 << a)
    nbm = g.rules.nb_mask
    for c in g.rules.nb_list[a]:
        if rest >> c & 1:
            m = nbm[c] & rest
            if not m & (m - 1):
                return True
    return False


def safe_playout(g: Game, det: tuple[int, ...], rnd: Callable[[], float], shuffle: Callable[[list], None],
                 greedy_p: float, horizon: int = 0, tries: int = 4) -> None:
    """Play g on `horizon` moves (0: to its end): with probability greedy_p the mover takes the founding
    move best for its color det[mover] (if any), otherwise a random move that gives nothing away if one
    of `tries` draws does; founding orders at random."""
    play, random_move = g.push_unchecked, g.random_move
    nbm, nbl = g.rules.nb_mask, g.rules.nb_list
    alone = lonely(g)
    left = horizon or -1
    while g.status == IN_PROGRESS and left:
        left -= 1
        move = None
        if alone and rnd() < greedy_p:
            move, _ = greedy_founding(g, det[g.to_move], alone)
        before = g.occ
        if move is None:
            for _ in range(tries):
                a, b = random_move(rnd)
                rest = before & ~(1 << a)
                for c in nbl[a]:
                    if rest >> c & 1:
                        m = nbm[c] & rest
                        if not m & (m - 1):
                            break
                else:
                    break
        else:
            a, b = move
        play(a, b, None, shuffle)
        alone = still_lonely(g, alone, before)

