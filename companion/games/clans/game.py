"""The Clans rules engine (RULES.md R1-R6): the position, its legal moves, playing and undoing them.

Territory sets are int bitmasks (bit t = territory t). Each territory's huts are
packed into one int, 4 bits per color (a color has 12 huts, so a field never
overflows): moving a group is one integer addition. The engine keeps the set of
territories still in play (`occ`), the set of groups of 7 or more (`big`) and a
list of live territories for O(1) random choice; every move updates them
incrementally and pushes a small undo record (an `Undo` kept as a plain tuple), so `pop()`
restores the exact state. The hot loop tests membership in occ and big through private
flag lists kept beside them (indexing a list is cheaper than a bit of a 61-bit int, or a bytearray).

The value types, constants, per-board tables and the R1 setup are in
`companion.games.clans.rules` (re-exported here); founding a village (R4) is
`companion.games.clans.founding`; the legal-move view and why a move is refused are in
`companion.games.clans.legal`. Nothing here does I/O. Errors a player can cause
raise IllegalMoveError (a ValueError) with a message that names the territories and the reason.

Public attributes (read-only outside this module): `board`, `rules` (its `Rules`
tables), `setup`, `players`, `first_player`, `packed`, `total` (per territory),
`occ`, `big` (bitmasks), `live` (territories in play, in no particular order),
`villages`, `scores`, `chips`, `to_move`, `status`.
"""

from __future__ import annotations

import random as _random
from typing import Callable, Sequence

from companion.games.clans.board import COLORS, N_CHIPS, N_TERRITORIES, Board, load_board
from companion.games.clans.founding import found_village
from companion.games.clans.legal import LegalMoves, illegal_reason
from companion.games.clans.rules import (BIG, COLOR_INDEX, FINISHED, ILLEGAL, IN_PROGRESS, NEXT_PLAYER, ONE,
                                         ONE_OF_COLOR, SHIFT, STALLED, IllegalMoveError, Move, Outcome, Rules,
                                         Undo, Village, check_setup, normalize_color, random_setup, rules_for,
                                         setup_draws, setup_from_draws, unpack)

__all__ = ["Game", "LegalMoves", "Move", "Village", "Outcome", "Undo", "Rules", "IllegalMoveError",
           "random_setup", "check_setup", "normalize_color", "unpack", "IN_PROGRESS", "FINISHED", "STALLED",
           "COLOR_INDEX", "SHIFT", "ONE", "BIG"]


class Game:
    """A game of Clans in progress: play moves with push(), take them back with pop()."""

    def __init__(self, players: int, setup: dict[int, str], first_player: int = 0, board: Board | None = None,
                 *, trusted: bool = False):
        """`trusted=True` skips validating a setup that random_setup() just made (selfplay, search)."""
        _check_players(players, first_player)
        board = board or load_board()
        setup = setup if trusted else check_setup(setup, board)
        packed = [0] * (N_TERRITORIES + 1)
        one = ONE_OF_COLOR
        for t, c in setup.items():
            packed[t] = one[c]
        self._start(players, first_player, board, rules_for(board), packed, setup, ())

    @classmethod
    def random(cls, players: int, rng: _random.Random, first_player: int | None = None,
               board: Board | None = None) -> "Game":
        """A fresh game with a random R1 setup (random_setup's draws) and, unless given, a random first
        player (one more draw, `int(rng.random() * players)`). The fast way to start a game: the setup
        dict is only made when `setup` is read."""
        board = board or load_board()
        rules = rules_for(board)
        draws = setup_draws(rng, rules)
        if first_player is None:
            first_player = int(rng.random() * players)
        _check_players(players, first_player)
        game = cls.__new__(cls)
        game._start(players, first_player, board, rules, rules.packed_setup(draws), None, draws)
        return game

    def _start(self, players: int, first_player: int, board: Board, rules: Rules, packed: list[int],
               setup: dict[int, str] | None, draws: Sequence[int]) -> None:
        """The R1 position with these huts (`packed`); `setup` None: made from `draws` when read."""
        self.board, self.rules = board, rules
        self._setup, self._draws = setup, draws
        self.players = players
        self.first_player = first_player
        self.packed = packed
        self.total = list(rules.all_flags)  # R1: one hut on every territory
        self.occ = rules.all_mask  # territories with huts that are not villages
        self.big = 0  # territories in occ holding 7 huts or more
        self.live = list(board.numbers)  # occ as a list, for O(1) random choice
        self.pos = list(rules.first_pos)  # index of each territory in live
        self._on, self._bg = list(rules.all_flags), [0] * (N_TERRITORIES + 1)  # occ, big as 0/1 flags
        self.villages: list[Village] = []
        self.scores = [0] * len(COLORS)
        self.chips = [0] * players
        self.to_move = first_player
        self.status = IN_PROGRESS
        self._stack: list[tuple] = []  # one undo record per move played: an `Undo` as a plain tuple

    @classmethod
    def new(cls, players: int, seed: int | None = None, first_player: int | None = None) -> "Game":
        """A fresh game with a random R1 setup and, unless given, a random start player."""
        rng = _random.Random(seed)
        setup = random_setup(rng)
        if first_player is None:
            first_player = rng.randrange(players)
        return cls(players, setup, first_player)

    @classmethod
    def from_position(cls, players: int, huts: dict[int, dict[str, int]], to_move: int = 0,
                      villages: Sequence[int] = (), scores: dict[str, int] | None = None) -> "Game":
        """A hand-built position, for tests and analysis (it has no record: its setup is a placeholder).

        `huts` gives the territories in play; every other territory is empty. `villages`
        lists territories already founded as villages (in chip order, founder 0, value 0):
        they set the chip count, hence the epoch, and are out of play.
        """
        game = cls(players, random_setup(_random.Random(0)), to_move, trusted=True)
        game.packed = [0] * (N_TERRITORIES + 1)
        game.total = [0] * (N_TERRITORIES + 1)
        occ = big = 0
        for t, counts in huts.items():
            p = sum(ONE[COLOR_INDEX[normalize_color(c)]] * n for c, n in counts.items())
            n = sum(counts.values())
            if not n or any(v < 0 or v > 12 for v in counts.values()):
                raise IllegalMoveError(f"territory {t}: hut counts must be 0..12 and not all zero")
            game.packed[t], game.total[t] = p, n
            if t not in villages:
                occ |= 1 << t
                big |= (n >= BIG) << t
        for chip, t in enumerate(villages):
            game.villages.append(Village(t, chip + 1, game.rules.chip_epoch[chip], 0, 0, (), False, {}, 0, 0))
        game.occ, game.big = occ, big
        game.live = [t for t in game.board.numbers if occ >> t & 1]
        game._on = [occ >> t & 1 for t in range(N_TERRITORIES + 1)]
        game._bg = [big >> t & 1 for t in range(N_TERRITORIES + 1)]
        game.pos = [0] * (N_TERRITORIES + 1)
        for i, t in enumerate(game.live):
            game.pos[t] = i
        for c, v in (scores or {}).items():
            game.scores[COLOR_INDEX[normalize_color(c)]] = v
        if len(game.villages) >= N_CHIPS:
            game.status = FINISHED
        elif not occ & ~big and not _big_pair(big, game.rules.nb_mask):
            game.status = STALLED
        return game

    # ----- queries -------------------------------------------------------------------
    @property
    def setup(self) -> dict[int, str]:
        """The R1 setup, {territory: color}."""
        if self._setup is None:
            self._setup = setup_from_draws(self._draws, self.rules)
        return self._setup

    @property
    def epoch(self) -> int:
        """Epoch of the next village; once the game is over, the epoch it ended in."""
        return self.rules.chip_epoch[min(len(self.villages), N_CHIPS - 1)]

    @property
    def chips_left_in_epoch(self) -> int:
        n = len(self.villages)
        return sum(1 for c in range(n, N_CHIPS) if self.rules.chip_epoch[c] == self.epoch)

    @property
    def moves(self) -> list[Move]:
        """The moves played so far, with the founding order where one was given or drawn."""
        return [Move(u[0], u[1], u[13]) for u in self._stack]  # Undo's frm, to, order

    @property
    def ply(self) -> int:
        return len(self._stack)

    @property
    def is_over(self) -> bool:
        return self.status != IN_PROGRESS

    def huts(self, t: int) -> dict[str, int]:
        """The huts on territory t, {color: count}, board color order."""
        return unpack(self.packed[t])

    def is_village(self, t: int) -> bool:
        return any(v.territory == t for v in self.villages)

    def occupied(self) -> list[int]:
        """Territories still in play (non-empty, not a village), ascending."""
        occ = self.occ
        return [t for t in self.board.numbers if occ >> t & 1]

    def _can_move(self, a: int, b: int) -> bool:
        return bool(self.occ >> b & 1) and (not self.big >> a & 1 or self.total[b] >= self.total[a])

    def targets(self, a: int) -> list[int]:
        """Legal destinations from a (ascending); empty if a cannot move."""
        if self.status != IN_PROGRESS or not 1 <= a <= N_TERRITORIES or not self.occ >> a & 1:
            return []
        return [b for b in self.rules.nb_list[a] if self._can_move(a, b)]

    def movable(self) -> list[int]:
        """Territories that have at least one legal move (ascending)."""
        return [a for a in self.occupied() if self.targets(a)]

    @property
    def legal_moves(self) -> LegalMoves:
        """Lazy view of the legal moves: iterate it, take len() or test `move in game.legal_moves`."""
        return LegalMoves(self)

    def is_legal(self, frm: int, to: int) -> bool:
        return (
            self.status == IN_PROGRESS
            and isinstance(frm, int) and isinstance(to, int)
            and 1 <= frm <= N_TERRITORIES and 1 <= to <= N_TERRITORIES
            and bool(self.occ >> frm & 1)
            and bool(self.rules.nb_mask[frm] >> to & 1)
            and self._can_move(frm, to)
        )

    def why_illegal(self, frm: int, to: int | None = None) -> str | None:
        """The reason a move (or just a source, when `to` is None) is refused, in words; None if fine."""
        reason = self.illegal_reason(frm, to)
        return ILLEGAL[reason[0]].format(**reason[1]) if reason else None

    def illegal_reason(self, frm: int, to: int | None = None) -> tuple[str, dict[str, object]] | None:
        """Why a move (or a source) is refused: a key of `ILLEGAL` and its values; None if fine."""
        return illegal_reason(self, frm, to)

    def isolated_by(self, frm: int, to: int) -> list[int]:
        """Territories that the (legal) move frm->to would isolate, ascending: the villages it founds."""
        occ = self.occ & ~(1 << frm)
        nbm = self.rules.nb_mask
        return [c for c in self.rules.nb_list[frm] if occ >> c & 1 and not nbm[c] & occ]

    def treatments(self, count: int, answered: int = 0) -> list[int | None]:
        """Epoch of each of `count` founding positions after `answered` already chosen (None: not founded)."""
        start = len(self.villages) + answered
        ce = self.rules.chip_epoch
        return [ce[c] if c < N_CHIPS else None for c in range(start, start + count)]

    def order_matters(self, remaining: int, answered: int = 0) -> bool:
        """Spec 4: the mover is asked "which village next?" only while the positions differ in treatment."""
        return remaining >= 2 and len(set(self.treatments(remaining, answered))) > 1

    def check_order(self, frm: int, to: int, order: Sequence[int]) -> tuple[int, ...]:
        """An order must list exactly the territories the move isolates."""
        iso = self.isolated_by(frm, to)
        order = tuple(order)
        if sorted(order) != iso or len(set(order)) != len(order):
            listed = ", ".join(map(str, order)) or "nothing"
            wanted = ", ".join(map(str, iso)) or "nothing"
            raise IllegalMoveError(
                f"order lists {listed}, but move {frm}->{to} isolates {wanted}: the order must list exactly those"
            )
        return order

    def winners(self, colors: Sequence[str]) -> tuple[list[int], list[int]]:
        """(totals, winners) given each player's color: track score + chips; ties share the win."""
        totals = [self.scores[COLOR_INDEX[normalize_color(c)]] + self.chips[i] for i, c in enumerate(colors)]
        best = max(totals)
        return totals, [i for i, t in enumerate(totals) if t == best]

    def score(self, color: str) -> int:
        return self.scores[COLOR_INDEX[normalize_color(color)]]

    # ----- playing -------------------------------------------------------------------
    def push(self, frm: int, to: int | None = None, order: Sequence[int] | None = None) -> Outcome:
        """Play a move (a Move, or frm and to); raises IllegalMoveError and changes nothing if it is illegal."""
        if isinstance(frm, Move):
            frm, to, order = frm
        if not self.is_legal(frm, to):
            raise IllegalMoveError(self.why_illegal(frm, to) or f"{frm}->{to} is not legal")
        if order is not None:
            order = self.check_order(frm, to, order)
        self.push_unchecked(frm, to, order)
        return self.outcome()

    def push_unchecked(self, a: int, b: int, order: Sequence[int] | None = None,
                       shuffle: Callable[[list[int]], None] | None = None) -> None:
        """Play a move already known to be legal, with no check and no Outcome (the hot path of the bots'
        searches); `order`, if given, must list exactly what the move isolates.

        With no `order`, villages are founded in ascending order, or in an order drawn
        by `shuffle` (e.g. random.shuffle) when one is given; the order drawn is recorded.
        """
        self._advance(a, b, order, shuffle, None, 1)

    def play_random(self, rnd: Callable[[], float], shuffle: Callable[[list[int]], None] | None = None,
                    limit: int | None = None) -> int:
        """Play uniformly random legal moves (as `random_move`, founding orders drawn by `shuffle`) until
        the game ends or `limit` moves are played; returns how many were played. The same draws as
        `random_move` + `push_unchecked` move by move, so a seed plays the same game either way."""
        if self.status != IN_PROGRESS:
            raise IllegalMoveError("the game is over: no more moves")
        return self._advance(0, 0, None, shuffle, rnd, limit or 1 << 30)

    def _advance(self, a: int, b: int, order: Sequence[int] | None, shuffle: Callable[[list[int]], None] | None,
                 rnd: Callable[[], float] | None, count: int) -> int:
        """Play a->b (rnd None) or `count` random moves: the one move loop of push_unchecked and play_random,
        the position kept in locals from move to move (the engine's hot path)."""
        r = self.rules
        nbm, nbl, slots = r.nb_mask, r.nb_list, r.nb_slots
        packed, total, pos, live, chips = self.packed, self.total, self.pos, self.live, self.chips
        on, bg = self._on, self._bg  # occ and big as flags: cheaper to test than a bit of a 61-bit int
        push_undo = self._stack.append
        occ, big, nv, mover = self.occ, self.big, len(self.villages), self.to_move
        after, status, played, n6 = NEXT_PLAYER[self.players], IN_PROGRESS, 0, len(live) * 6
        while True:
            if rnd is not None:
                while True:  # rejection sampling over (live territory, neighbor slot) pairs, as random_move
                    i, k = DIVMOD6[int(rnd() * n6)]
                    a = live[i]
                    b = slots[a][k]
                    if on[b] and (not bg[a] or total[b] >= total[a]):
                        break
            occ0, big0 = occ, big
            pa, ta, pb, tb = packed[a], total[a], packed[b], total[b]
            packed[b] = pb + pa
            tb2 = total[b] = tb + ta
            packed[a] = total[a] = on[a] = 0
            occ ^= BIT[a]
            if bg[a]:
                big ^= BIT[a]
                bg[a] = 0
            if tb2 >= BIG and not bg[b]:
                big |= BIT[b]
                bg[b] = 1
            # swap-remove a from the live list (pop() reverses it exactly, so random draws replay the same)
            ia = i = pos[a]
            last = live.pop()
            if last != a:
                live[i] = last
                pos[last] = i
            n6 -= 6
            iso = None
            for c in nbl[a]:  # only neighbors of a can become isolated (R3)
                if on[c] and not nbm[c] & occ:
                    if iso is None:
                        iso = [c]
                    else:
                        iso.append(c)
            if iso:
                if order is not None:
                    iso = list(order)
                elif shuffle is not None and len(iso) > 1:
                    shuffle(iso)
                    order = iso
                self.to_move = mover  # the founder, for found_village
                scores_before = self.scores[:]
                restore = []
                not_founded: tuple[int, ...] = ()
                villages = nv
                for t in iso:
                    if villages >= N_CHIPS:
                        not_founded += (t,)
                        continue
                    i = pos[t]
                    restore.append((t, packed[t], total[t], i))
                    found_village(self, t)
                    villages += 1
                    occ ^= BIT[t]
                    on[t] = 0
                    if bg[t]:
                        big ^= BIT[t]
                        bg[t] = 0
                    last = live.pop()
                    if last != t:
                        live[i] = last
                        pos[last] = i
                    n6 -= 6
                chips[mover] += len(restore)
                # a plain tuple in Undo's field order (pop and outcome read it as one)
                push_undo((a, b, pa, ta, pb, tb, occ0, big0, nv, scores_before, restore, mover, not_founded,
                           None if order is None else tuple(order), ia))
                nv = villages
                if villages >= N_CHIPS:
                    status = FINISHED
            else:
                push_undo((a, b, pa, ta, pb, tb, occ0, big0, nv, None, None, mover, (),
                           None if order is None else tuple(order), ia))
            played += 1
            order = None
            mover = after[mover]
            if occ == big and status == IN_PROGRESS and not _big_pair(big, nbm):  # (big is a subset of occ)
                status = STALLED
            if status != IN_PROGRESS or played >= count:
                break
        self.occ, self.big, self.to_move, self.status = occ, big, mover, status
        return played

    def pop(self) -> Outcome:
        """Take back the last move exactly; returns what it had done (to tell the table what goes back)."""
        if not self._stack:
            raise IllegalMoveError("there is no move to undo")
        undone = self.outcome()
        u = Undo._make(self._stack.pop())
        packed, total, pos, live, on, bg = self.packed, self.total, self.pos, self.live, self._on, self._bg
        restore, big = u.restore, u.big
        if restore is not None:
            for t, p, n, i in reversed(restore):  # before b's own restore: b may be one of the villages
                packed[t], total[t] = p, n
                on[t], bg[t] = 1, big >> t & 1
                _unremove(live, pos, t, i)
            self.chips[u.mover] -= len(restore)
            del self.villages[u.villages:]
            self.scores = u.scores
        a, b = u.frm, u.to
        packed[a], total[a], packed[b], total[b] = u.packed_frm, u.total_frm, u.packed_to, u.total_to
        on[a], bg[a], bg[b] = 1, big >> a & 1, big >> b & 1
        _unremove(live, pos, a, u.live_index)
        self.occ, self.big = u.occ, big
        self.to_move = u.mover
        self.status = IN_PROGRESS
        return undone

    def outcome(self, index: int = -1) -> Outcome:
        """What move `index` of the history did (default: the last one)."""
        if not self._stack:
            raise IllegalMoveError("no move has been played yet")
        u = Undo._make(self._stack[index])
        nv = u.villages
        n_founded = len(u.restore) if u.restore else 0
        ce = self.rules.chip_epoch
        after_index = index % len(self._stack) + 1
        status = self.status if after_index == len(self._stack) else IN_PROGRESS
        return Outcome(
            move=Move(u.frm, u.to, u.order),
            player=u.mover,
            moved=unpack(u.packed_frm),
            villages=tuple(self.villages[nv:nv + n_founded]),
            not_founded=u.not_founded,
            epoch_before=ce[min(nv, N_CHIPS - 1)],
            epoch_after=ce[min(nv + n_founded, N_CHIPS - 1)],
            status=status,
        )

    def random_move(self, rnd: Callable[[], float] = _random.random) -> tuple[int, int]:
        """A uniformly random legal move: rejection sampling over (live territory, neighbor slot) pairs.

        One random number picks both the territory and one of 6 neighbor slots; slots past a
        territory's neighbors hold territory 0, never occupied, so they are rejected like any
        illegal pair. Every legal move has the same chance.
        """
        if self.status != IN_PROGRESS:
            raise IllegalMoveError("the game is over: no more moves")
        live, slots, total, on, bg = self.live, self.rules.nb_slots, self.total, self._on, self._bg
        n6 = len(live) * 6
        while True:
            i, k = DIVMOD6[int(rnd() * n6)]
            a = live[i]
            b = slots[a][k]
            if on[b] and (not bg[a] or total[b] >= total[a]):
                return a, b

    def copy(self) -> "Game":
        """An independent copy of the position (history and undo stack included)."""
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
        g.packed, g.total, g.live, g.pos = self.packed[:], self.total[:], self.live[:], self.pos[:]
        g._on, g._bg = self._on[:], self._bg[:]
        g.villages, g.scores, g.chips = self.villages[:], self.scores[:], self.chips[:]
        g._stack = self._stack[:]
        return g

    def state_key(self) -> tuple:
        """Everything that defines the position (for tests of exact undo), the hot loop's flags included."""
        return (tuple(self.packed), tuple(self.total), self.occ, self.big, tuple(self.live),
                tuple(self.villages), tuple(self.scores), tuple(self.chips), self.to_move, self.status,
                bytes(self._on), bytes(self._bg), tuple(self.moves))  # the moves last: some tests leave them out


BIT = tuple(1 << t for t in range(N_TERRITORIES + 1))  # t -> 1 << t, without making the int each time
DIVMOD6 = tuple(divmod(x, 6) for x in range(6 * N_TERRITORIES))  # a draw -> (live index, slot): a lookup, not a call


def _check_players(players: int, first_player: int) -> None:
    if not isinstance(players, int) or not 2 <= players <= 4:
        raise IllegalMoveError(f"players must be 2, 3 or 4, got {players!r}")
    if not isinstance(first_player, int) or not 0 <= first_player < players:
        raise IllegalMoveError(f"first player must be 0..{players - 1}, got {first_player!r}")


def _big_pair(big: int, nbm: Sequence[int]) -> bool:
    """With only groups of 7+ left (`big`), a move exists iff two of them are neighbors."""
    rest = big
    while rest:
        low = rest & -rest
        if nbm[low.bit_length() - 1] & big:
            return True
        rest ^= low
    return False


def _unremove(live: list[int], pos: list[int], t: int, i: int) -> None:
    """Undo the swap-remove of t from index i of the live list, restoring the exact order."""
    if i == len(live):
        live.append(t)
    else:
        moved = live[i]
        pos[moved] = len(live)
        live.append(moved)
        live[i] = t
    pos[t] = i
