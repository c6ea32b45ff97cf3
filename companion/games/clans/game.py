"""The Clans rules engine (RULES.md R1-R6): pure, deterministic and fast.

Territory sets are int bitmasks (bit t = territory t). Each territory's huts are
packed into one int, 4 bits per color (a color has 12 huts, so a field never
overflows): moving a group is one integer addition. The engine keeps the set of
territories still in play (`occ`), the set of groups of 7 or more (`big`) and a
list of live territories for O(1) random choice; every move updates them
incrementally and pushes a small undo record, so `pop()` restores the exact state.

Nothing here does I/O. Errors a player can cause raise IllegalMoveError (a
ValueError) with a message that names the territories and the reason.
"""

from __future__ import annotations

import itertools
import random as _random
from dataclasses import dataclass
from typing import Callable, Iterator, NamedTuple, Sequence

from companion.games.clans.board import COLOR_ALIASES, COLORS, N_CHIPS, N_TERRITORIES, Board, load_board

BIG = 7  # a group of this many huts or more is restricted by R2
SHIFT = tuple(4 * i for i in range(len(COLORS)))
ONE = tuple(1 << s for s in SHIFT)  # packed value of a single hut of color i
COLOR_INDEX = {c: i for i, c in enumerate(COLORS)}
ALPHA_ORDER = tuple(sorted(range(len(COLORS)), key=lambda i: COLORS[i]))
# For a 5-bit set of colors present (bit i = COLORS[i]): their names sorted, and their indexes.
PRESENT_INDEXES = tuple(tuple(i for i in ALPHA_ORDER if m >> i & 1) for m in range(32))
PRESENT_COLORS = tuple(tuple(COLORS[i] for i in idx) for idx in PRESENT_INDEXES)
_new_tuple = tuple.__new__  # builds a NamedTuple without its Python-level __new__ (hot path)

IN_PROGRESS, FINISHED, STALLED = "in_progress", "finished", "stalled"


class IllegalMoveError(ValueError):
    """A move, order or setup that breaks the rules; the message says why in words."""


class Move(NamedTuple):
    """Take all huts of `frm` onto `to`; `order` is the mover's founding order, if given."""

    frm: int
    to: int
    order: tuple[int, ...] | None = None

    def __str__(self) -> str:
        text = f"{self.frm}->{self.to}"
        return text + (f" order {','.join(map(str, self.order))}" if self.order else "")


class Village(NamedTuple):
    """One founded village, as scored (R4). A NamedTuple: a game creates 12 of them, often."""

    territory: int
    chip: int  # 1..12, the founding position
    epoch: int
    founder: int  # player index
    value: int  # what each color in `colors` scored
    colors: tuple[str, ...]  # sorted; empty when destroyed or emptied by strife
    destroyed: bool
    removed: dict[str, int]  # strife removals, board color order
    huts: int = 0  # huts on the territory before strife / destruction
    bonus: int = 0  # bonus included in value (epoch bonus or the 12th village's +5)

    def as_dict(self) -> dict:
        return {
            "territory": self.territory,
            "epoch": self.epoch,
            "founder": self.founder,
            "value": self.value,
            "colors": list(self.colors),
            "destroyed": self.destroyed,
            "removed": dict(self.removed),
        }


@dataclass(frozen=True)
class Outcome:
    """What a played move did, for telling the table what to do with the pieces."""

    move: Move
    player: int
    moved: dict[str, int]  # the huts carried from move.frm to move.to
    villages: tuple[Village, ...]  # in founding order
    not_founded: tuple[int, ...]  # isolated after the 12th village: never founded
    epoch_before: int
    epoch_after: int
    status: str  # the game's status after the move

    @property
    def epoch_changed(self) -> bool:
        return self.epoch_after != self.epoch_before


class _Rules:
    """Per-board constants in the shapes the hot loops want (lists indexed by territory)."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.nb_mask = board.neighbor_masks()
        self.nb_list = [()] + [board.territories[t].neighbors for t in board.numbers]
        # neighbors padded to 6 slots with territory 0 (never occupied), for random_move
        self.nb_slots = [tuple(nb) + (0,) * (6 - len(nb)) for nb in self.nb_list]
        self.terrain = [""] + [board.territories[t].terrain for t in board.numbers]
        self.chip_epoch = board.chip_epochs()
        # per chip: (epoch, hostile terrain, favorable terrain or "all", bonus); the 12th village is never
        # destroyed and always gets the last-village bonus, whatever its terrain
        self.chip_rules = [(e, board.epoch(e).hostile, board.epoch(e).favorable, board.epoch(e).bonus)
                           for e in self.chip_epoch]
        self.chip_rules[-1] = (self.chip_epoch[-1], None, "all", board.last_village_bonus)
        self.regions = [board.region_members(r) for r in range(1, 13)]
        self.all_mask = sum(1 << t for t in board.numbers)


_RULES_CACHE: dict[int, _Rules] = {}


def _rules_for(board: Board) -> _Rules:
    rules = _RULES_CACHE.get(id(board))
    if rules is None or rules.board is not board:
        rules = _RULES_CACHE[id(board)] = _Rules(board)
    return rules


def unpack(packed: int) -> dict[str, int]:
    """Packed huts -> {color: count} for colors present, board color order."""
    return {c: (packed >> SHIFT[i]) & 15 for i, c in enumerate(COLORS) if (packed >> SHIFT[i]) & 15}


def normalize_color(name: str) -> str:
    """'Black', 'white' -> 'black'; raises IllegalMoveError for an unknown color."""
    c = str(name).strip().lower()
    c = COLOR_ALIASES.get(c, c)
    if c not in COLOR_INDEX:
        raise IllegalMoveError(f"unknown color {name!r}: use one of {', '.join(COLORS)} (white = black)")
    return c


_PERMUTATIONS = tuple(itertools.permutations(COLORS))


def random_setup(rng: _random.Random, board: Board | None = None) -> dict[int, str]:
    """R1: every region gets one hut of each color, shuffled over its 5 territories (uniformly)."""
    rules = _rules_for(board or load_board())
    setup: dict[int, str] = {}
    rnd, perms, n = rng.random, _PERMUTATIONS, len(_PERMUTATIONS)
    for members in rules.regions:
        setup.update(zip(members, perms[int(rnd() * n)]))
    return setup


def check_setup(setup: dict[int, str], board: Board | None = None) -> dict[int, str]:
    """Validate an R1 setup ({territory: color}); returns it with colors normalized."""
    board = board or load_board()
    out: dict[int, str] = {}
    for t in board.numbers:
        if t not in setup:
            raise IllegalMoveError(f"setup: territory {t} has no hut; every territory starts with exactly one")
        out[t] = normalize_color(setup[t])
    extra = sorted(set(setup) - set(board.numbers), key=str)
    if extra:
        raise IllegalMoveError(f"setup: {extra[0]} is not a territory (1-{N_TERRITORIES})")
    for r, members in enumerate(_rules_for(board).regions, start=1):
        got = [out[t] for t in members]
        if sorted(got) != sorted(COLORS):
            missing = [c for c in COLORS if c not in got]
            twice = sorted({c for c in got if got.count(c) > 1})
            raise IllegalMoveError(
                f"setup: region {r} (territories {members[0]}-{members[-1]}) must hold one hut of each color; "
                f"it has two or more {', '.join(twice)} and no {', '.join(missing)}"
            )
    return out


class Game:
    """A game of Clans in progress: play moves with push(), take them back with pop()."""

    def __init__(self, players: int, setup: dict[int, str], first_player: int = 0, board: Board | None = None,
                 *, trusted: bool = False):
        """`trusted=True` skips validating a setup that random_setup() just made (selfplay, search)."""
        if not isinstance(players, int) or not 2 <= players <= 4:
            raise IllegalMoveError(f"players must be 2, 3 or 4, got {players!r}")
        if not isinstance(first_player, int) or not 0 <= first_player < players:
            raise IllegalMoveError(f"first player must be 0..{players - 1}, got {first_player!r}")
        self.board = board or load_board()
        self._r = _rules_for(self.board)
        self.setup = setup if trusted else check_setup(setup, self.board)
        self.players = players
        self.first_player = first_player
        self.packed = [0] * (N_TERRITORIES + 1)
        self.total = [0] * (N_TERRITORIES + 1)
        for t, c in self.setup.items():
            self.packed[t] = ONE[COLOR_INDEX[c]]
            self.total[t] = 1
        self.occ = self._r.all_mask  # territories with huts that are not villages
        self.big = 0  # territories in occ holding 7 huts or more
        self.live = list(self.board.numbers)  # occ as a list, for O(1) random choice
        self.pos = [0] + list(range(N_TERRITORIES))  # index of each territory in live
        self.villages: list[Village] = []
        self.scores = [0] * len(COLORS)
        self.chips = [0] * players
        self.to_move = first_player
        self.status = IN_PROGRESS
        self._stack: list[tuple] = []  # one undo record per move played

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
            game.villages.append(Village(t, chip + 1, game._r.chip_epoch[chip], 0, 0, (), False, {}, 0, 0))
        game.occ, game.big = occ, big
        game.live = [t for t in game.board.numbers if occ >> t & 1]
        game.pos = [0] * (N_TERRITORIES + 1)
        for i, t in enumerate(game.live):
            game.pos[t] = i
        for c, v in (scores or {}).items():
            game.scores[COLOR_INDEX[normalize_color(c)]] = v
        if len(game.villages) >= N_CHIPS:
            game.status = FINISHED
        elif not occ & ~big and not game._big_pair():
            game.status = STALLED
        return game

    # ----- queries -------------------------------------------------------------------
    @property
    def epoch(self) -> int:
        """Epoch of the next village; once the game is over, the epoch it ended in."""
        return self._r.chip_epoch[min(len(self.villages), N_CHIPS - 1)]

    @property
    def chips_left_in_epoch(self) -> int:
        n = len(self.villages)
        return sum(1 for c in range(n, N_CHIPS) if self._r.chip_epoch[c] == self.epoch)

    @property
    def moves(self) -> list[Move]:
        """The moves played so far, with the founding order where one was given or drawn."""
        return [Move(u[0], u[1], u[13]) for u in self._stack]

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
        return [b for b in self._r.nb_list[a] if self._can_move(a, b)]

    def movable(self) -> list[int]:
        """Territories that have at least one legal move (ascending)."""
        return [a for a in self.occupied() if self.targets(a)]

    @property
    def legal_moves(self) -> "LegalMoves":
        """Lazy view of the legal moves: iterate it, take len() or test `move in game.legal_moves`."""
        return LegalMoves(self)

    def is_legal(self, frm: int, to: int) -> bool:
        return (
            self.status == IN_PROGRESS
            and isinstance(frm, int) and isinstance(to, int)
            and 1 <= frm <= N_TERRITORIES and 1 <= to <= N_TERRITORIES
            and bool(self.occ >> frm & 1)
            and bool(self._r.nb_mask[frm] >> to & 1)
            and self._can_move(frm, to)
        )

    def why_illegal(self, frm: int, to: int | None = None) -> str | None:
        """The reason a move (or just a source, when `to` is None) is refused, in words; None if fine."""
        if self.status != IN_PROGRESS:
            return "the game is over: no more moves" + (" (12 villages founded)" if self.status == FINISHED else
                                                         " (no legal move was left)")
        if not isinstance(frm, int) or not 1 <= frm <= N_TERRITORIES:
            return f"{frm} is not a territory: use 1-{N_TERRITORIES}"
        if not self.occ >> frm & 1:
            if self.is_village(frm):
                return f"{frm} is a village: villages never move"
            return f"{frm} is empty: choose a territory with huts"
        if to is None:
            if not self.targets(frm):
                return (f"{frm} holds {self.total[frm]} huts (7 or more) and no neighboring group of 7 or more "
                        f"is at least as big: it cannot move")
            return None
        if not isinstance(to, int) or not 1 <= to <= N_TERRITORIES:
            return f"{to} is not a territory: use 1-{N_TERRITORIES}"
        if to == frm:
            return f"{frm} cannot move onto itself: choose a neighboring territory"
        if not self._r.nb_mask[frm] >> to & 1:
            return f"{to} is not next to {frm}: huts move only to a neighboring territory"
        if not self.occ >> to & 1:
            if self.is_village(to):
                return f"{to} is a village: nothing may move onto a village"
            return f"{to} is empty: huts may only move onto an occupied territory (an empty one stays empty)"
        if self.big >> frm & 1 and self.total[to] < self.total[frm]:
            return (f"{frm} holds {self.total[frm]} huts (7 or more): it may move only onto a neighboring group "
                    f"of 7 or more that is at least as big, and {to} holds {self.total[to]}")
        return None

    def isolated_by(self, frm: int, to: int) -> list[int]:
        """Territories that the (legal) move frm->to would isolate, ascending: the villages it founds."""
        occ = self.occ & ~(1 << frm)
        nbm = self._r.nb_mask
        return [c for c in self._r.nb_list[frm] if occ >> c & 1 and not nbm[c] & occ]

    def treatments(self, count: int, answered: int = 0) -> list[int | None]:
        """Epoch of each of `count` founding positions after `answered` already chosen (None: not founded)."""
        start = len(self.villages) + answered
        ce = self._r.chip_epoch
        return [ce[c] if c < N_CHIPS else None for c in range(start, start + count)]

    def order_matters(self, remaining: int, answered: int = 0) -> bool:
        """Spec 4: the mover is asked "which village next?" only while the positions differ in treatment."""
        return remaining >= 2 and len(set(self.treatments(remaining, answered))) > 1

    def order_reason(self, remaining: int, answered: int = 0) -> str:
        """Why the order matters, in words for the table (epoch boundary / last village)."""
        treatments = self.treatments(remaining, answered)
        if None in treatments:
            return "only one more village can be founded (the 12th, +5): the others are not founded"
        first = treatments[0]
        return f"the villages straddle the end of epoch {first}: the rest score in epoch {first + 1}"

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
        self._play(frm, to, order)
        return self.outcome()

    def _play(self, a: int, b: int, order: Sequence[int] | None, shuffle=None) -> None:
        """Apply a move already known to be legal (the hot path of selfplay and search).

        With no `order`, villages are founded in ascending order, or in an order drawn
        by `shuffle` (e.g. random.shuffle) when one is given; the order drawn is recorded.
        """
        r = self._r
        packed, total, pos, live = self.packed, self.total, self.pos, self.live
        occ0, big0, nv = self.occ, self.big, len(self.villages)
        pa, ta, pb, tb = packed[a], total[a], packed[b], total[b]
        packed[b] = pb + pa
        tb2 = total[b] = tb + ta
        packed[a] = total[a] = 0
        occ = occ0 & ~(1 << a)
        big = big0 & ~(1 << a)
        if tb2 >= BIG:
            big |= 1 << b
        # swap-remove a from the live list (pop() reverses it exactly, so random draws replay the same)
        ia = i = pos[a]
        last = live.pop()
        if last != a:
            live[i] = last
            pos[last] = i
        nbm = r.nb_mask
        iso = None
        for c in r.nb_list[a]:  # only neighbors of a can become isolated (R3)
            if occ >> c & 1 and not nbm[c] & occ:
                if iso is None:
                    iso = [c]
                else:
                    iso.append(c)
        restore = None
        scores_before = None
        not_founded: tuple[int, ...] = ()
        if iso:
            if order is not None:
                iso = list(order)
            elif shuffle is not None and len(iso) > 1:
                shuffle(iso)
                order = iso
            scores_before = self.scores[:]
            restore = []
            for t in iso:
                if len(self.villages) >= N_CHIPS:
                    not_founded += (t,)
                    continue
                i = pos[t]
                restore.append((t, packed[t], total[t], i))
                self._found(t)
                occ &= ~(1 << t)
                big &= ~(1 << t)
                last = live.pop()
                if last != t:
                    live[i] = last
                    pos[last] = i
            self.chips[self.to_move] += len(restore)
        self.occ, self.big = occ, big
        self._stack.append((a, b, pa, ta, pb, tb, occ0, big0, nv, scores_before, restore, self.to_move,
                            not_founded, tuple(order) if order is not None else None, ia))
        self.to_move = (self.to_move + 1) % self.players
        if len(self.villages) >= N_CHIPS:
            self.status = FINISHED
        elif not occ & ~big and not self._big_pair():
            self.status = STALLED

    def _big_pair(self) -> bool:
        """With only groups of 7+ left, a move exists iff two of them are neighbors."""
        big, nbm = self.big, self._r.nb_mask
        while big:
            low = big & -big
            if nbm[low.bit_length() - 1] & self.big:
                return True
            big ^= low
        return False

    def _found(self, t: int) -> None:
        """R4 for one village on t, taking the next chip."""
        r = self._r
        chip = len(self.villages)
        epoch_no, hostile, favorable, bonus = r.chip_rules[chip]
        p = self.packed[t]
        huts = left = self.total[t]
        removed: dict[str, int] = {}
        if p & 0xF and p & 0xF0 and p & 0xF00 and p & 0xF000 and p & 0xF0000:  # all 5 colors: strife
            for i in range(5):
                if (p >> SHIFT[i]) & 15 == 1:
                    removed[COLORS[i]] = 1
                    p -= ONE[i]
            left -= len(removed)
        terrain = r.terrain[t]
        destroyed = terrain == hostile
        if destroyed or not left:
            value, colors = 0, ()
        else:
            if favorable != "all" and favorable != terrain:
                bonus = 0
            value = left + bonus
            present = ((p & 0xF) > 0) | ((p & 0xF0) > 0) << 1 | ((p & 0xF00) > 0) << 2 | \
                ((p & 0xF000) > 0) << 3 | ((p & 0xF0000) > 0) << 4
            colors = PRESENT_COLORS[present]
            scores = self.scores
            for i in PRESENT_INDEXES[present]:
                scores[i] += value
        if destroyed:
            self.packed[t] = self.total[t] = 0
        elif removed:
            self.packed[t], self.total[t] = p, left
        self.villages.append(_new_tuple(Village, (t, chip + 1, epoch_no, self.to_move, value, colors, destroyed,
                                                  removed, huts, bonus if value else 0)))

    def pop(self) -> Outcome:
        """Take back the last move exactly; returns what it had done (to tell the table what goes back)."""
        if not self._stack:
            raise IllegalMoveError("there is no move to undo")
        undone = self.outcome()
        a, b, pa, ta, pb, tb, occ0, big0, nv, scores_before, restore, mover, _, _, ia = self._stack.pop()
        packed, total, pos, live = self.packed, self.total, self.pos, self.live
        if restore is not None:
            for t, p, n, i in reversed(restore):  # before b's own restore: b may be one of the villages
                packed[t], total[t] = p, n
                _unremove(live, pos, t, i)
            self.chips[mover] -= len(restore)
            del self.villages[nv:]
            self.scores = scores_before
        packed[a], total[a], packed[b], total[b] = pa, ta, pb, tb
        _unremove(live, pos, a, ia)
        self.occ, self.big = occ0, big0
        self.to_move = mover
        self.status = IN_PROGRESS
        return undone

    def outcome(self, index: int = -1) -> Outcome:
        """What move `index` of the history did (default: the last one)."""
        if not self._stack:
            raise IllegalMoveError("no move has been played yet")
        a, b, pa, ta, pb, tb, occ0, big0, nv, scores_before, restore, mover, not_founded, order, _ = self._stack[index]
        n_founded = len(restore) if restore else 0
        ce = self._r.chip_epoch
        after_index = index % len(self._stack) + 1
        status = self.status if after_index == len(self._stack) else IN_PROGRESS
        return Outcome(
            move=Move(a, b, order),
            player=mover,
            moved=unpack(pa),
            villages=tuple(self.villages[nv:nv + n_founded]),
            not_founded=not_founded,
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
        live, slots, total = self.live, self._r.nb_slots, self.total
        occ, big = self.occ, self.big
        n6 = len(live) * 6
        while True:
            x = int(rnd() * n6)
            a = live[x // 6]
            b = slots[a][x % 6]
            if occ >> b & 1 and (not big >> a & 1 or total[b] >= total[a]):
                return a, b

    def copy(self) -> "Game":
        """An independent copy of the position (history and undo stack included)."""
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
        g.packed, g.total, g.live, g.pos = self.packed[:], self.total[:], self.live[:], self.pos[:]
        g.villages, g.scores, g.chips = self.villages[:], self.scores[:], self.chips[:]
        g._stack = self._stack[:]
        return g

    def state_key(self) -> tuple:
        """Everything that defines the position (for tests of exact undo)."""
        return (tuple(self.packed), tuple(self.total), self.occ, self.big, tuple(self.live),
                tuple(self.villages), tuple(self.scores), tuple(self.chips), self.to_move, self.status,
                tuple(self.moves))


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


class LegalMoves:
    """A lazy view of a game's legal moves (like python-chess's legal_moves)."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def __iter__(self) -> Iterator[Move]:
        g = self.game
        if g.status != IN_PROGRESS:
            return
        for a in g.occupied():
            for b in g._r.nb_list[a]:
                if g._can_move(a, b):
                    yield Move(a, b)

    def __contains__(self, move: object) -> bool:
        if isinstance(move, tuple) and len(move) >= 2:
            return self.game.is_legal(move[0], move[1])
        return False

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __bool__(self) -> bool:
        return any(True for _ in self)
