"""The facts the Clans engine works with: value types, packed-hut constants, per-board tables, R1 setup.

Everything here is static or a plain value: `Move`, `Village`, `Outcome` and the undo
record `Undo` (NamedTuples or a frozen dataclass), the packing of huts (4 bits per
color), the per-board tables the hot loops index by territory or chip (`Rules`), and
the R1 setup (`random_setup`, `check_setup`). The position and its moves live in
`companion.games.clans.game`; founding a village (R4) in `companion.games.clans.founding`.
`GameState` is what those two helpers and the legal-move view see of the position, so they
take a game without importing the engine that calls them.
"""

from __future__ import annotations

import itertools
import random as _random
from dataclasses import dataclass
from typing import NamedTuple, Protocol, Sequence

from companion.games.clans.board import COLOR_ALIASES, COLORS, N_TERRITORIES, Board, load_board
from companion.i18n import N_

BIG = 7  # a group of this many huts or more is restricted by R2
SHIFT = tuple(4 * i for i in range(len(COLORS)))
ONE = tuple(1 << s for s in SHIFT)  # packed value of a single hut of color i
COLOR_INDEX = {c: i for i, c in enumerate(COLORS)}
ONE_OF_COLOR = {c: ONE[i] for i, c in enumerate(COLORS)}  # packed value of a single hut of that color
ALPHA_ORDER = tuple(sorted(range(len(COLORS)), key=lambda i: COLORS[i]))
# For a 5-bit set of colors present (bit i = COLORS[i]): their names sorted, and their indexes.
PRESENT_INDEXES = tuple(tuple(i for i in ALPHA_ORDER if m >> i & 1) for m in range(32))
PRESENT_COLORS = tuple(tuple(COLORS[i] for i in idx) for idx in PRESENT_INDEXES)
NEXT_PLAYER = {n: tuple((i + 1) % n for i in range(n)) for n in (2, 3, 4)}  # players -> who moves after i
new_tuple = tuple.__new__  # builds a NamedTuple without its Python-level __new__ (hot path)

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


# Why a move is refused (Game.illegal_reason gives the key and the values): the English text of
# IllegalMoveError, and the table's text once translated (`companion.games.clans.texts.illegal_text`).
ILLEGAL: dict[str, str] = {
    "over-finished": N_("the game is over: no more moves (12 villages founded)"),
    "over-stalled": N_("the game is over: no more moves (no legal move was left)"),
    "not-territory": N_("{territory} is not a territory: use 1-{last}"),
    "village-moves": N_("{frm} is a village: villages never move"),
    "empty-moves": N_("{frm} is empty: choose a territory with huts"),
    "big-stuck": N_("{frm} holds {huts} huts (7 or more) and no neighboring group of 7 or more is at least as big: "
                    "it cannot move"),
    "onto-itself": N_("{frm} cannot move onto itself: choose a neighboring territory"),
    "not-next": N_("{to} is not next to {frm}: huts move only to a neighboring territory"),
    "onto-village": N_("{to} is a village: nothing may move onto a village"),
    "onto-empty": N_("{to} is empty: huts may only move onto an occupied territory (an empty one stays empty)"),
    "big-onto-small": N_("{frm} holds {huts} huts (7 or more): it may move only onto a neighboring group of 7 or more "
                         "that is at least as big, and {to} holds {huts_to}"),
}


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


class Undo(NamedTuple):
    """One played move's undo record: everything `Game.pop()` needs to restore the position exactly."""

    frm: int
    to: int
    packed_frm: int  # the huts of frm and to before the move (packed) and their counts
    total_frm: int
    packed_to: int
    total_to: int
    occ: int  # the territories in play before the move
    big: int  # the groups of 7+ before the move
    villages: int  # how many villages stood before the move
    scores: list[int] | None  # the track before the move, when it founded villages (else None)
    restore: list[tuple[int, int, int, int]] | None  # per village founded: (territory, packed, total, live index)
    mover: int
    not_founded: tuple[int, ...]  # isolated after the 12th village: never founded
    order: tuple[int, ...] | None  # the founding order given or drawn
    live_index: int  # where frm stood in the live list


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


class Rules:
    """Per-board constants in the shapes the hot loops want (lists indexed by territory or chip).

    Read-only for everyone: `Game.rules` holds the tables of its board (the bots read them too).
    """

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
        self.by_region = tuple(t for members in self.regions for t in members)  # region 1's territories first
        self.all_mask = sum(1 << t for t in board.numbers)
        self.all_flags = tuple(int(t in board.territories) for t in range(N_TERRITORIES + 1))  # all_mask as 0/1
        self.first_pos = (0, *range(N_TERRITORIES))  # a fresh game's index of each territory in its live list

    def packed_setup(self, draws: Sequence[int]) -> list[int]:
        """The packed huts (index: territory) of the R1 setup that `draws` (see setup_draws) make."""
        packed = [0]  # then region by region: parse_board makes region r territories 5r-4..5r, in order
        add = packed.extend
        for d in draws:
            add(_PERMUTATIONS_PACKED[d])
        return packed


_RULES_CACHE: dict[int, Rules] = {}


def rules_for(board: Board) -> Rules:
    """The tables of `board`, built once per board."""
    rules = _RULES_CACHE.get(id(board))
    if rules is None or rules.board is not board:
        rules = _RULES_CACHE[id(board)] = Rules(board)
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


# ----- R1: the setup -------------------------------------------------------------------------
_PERMUTATIONS = tuple(itertools.permutations(COLORS))
_PERMUTATIONS_PACKED = tuple(tuple(ONE_OF_COLOR[c] for c in p) for p in _PERMUTATIONS)


def random_setup(rng: _random.Random, board: Board | None = None) -> dict[int, str]:
    """R1: every region gets one hut of each color, shuffled over its 5 territories (uniformly)."""
    rules = rules_for(board or load_board())
    return setup_from_draws(setup_draws(rng, rules), rules)


def setup_draws(rng: _random.Random, rules: Rules) -> list[int]:
    """R1's random draws: for each region in turn, which order of the 5 colors its territories get."""
    rnd, n = rng.random, len(_PERMUTATIONS)
    return [int(rnd() * n) for _ in rules.regions]


def setup_from_draws(draws: Sequence[int], rules: Rules) -> dict[int, str]:
    """The {territory: color} setup that `draws` (see setup_draws) make."""
    return dict(zip(rules.by_region, itertools.chain.from_iterable([_PERMUTATIONS[d] for d in draws])))


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
    for r, members in enumerate(rules_for(board).regions, start=1):
        got = [out[t] for t in members]
        if sorted(got) != sorted(COLORS):
            missing = [c for c in COLORS if c not in got]
            twice = sorted({c for c in got if got.count(c) > 1})
            raise IllegalMoveError(
                f"setup: region {r} (territories {members[0]}-{members[-1]}) must hold one hut of each color; "
                f"it has two or more {', '.join(twice)} and no {', '.join(missing)}"
            )
    return out


class GameState(Protocol):
    """What founding a village (`founding`) and the legal-move view (`legal`) read and change of a
    `companion.games.clans.game.Game`: they take the game as this, so they import only this module
    and the engine imports them, never the other way round."""

    rules: Rules
    packed: list[int]
    total: list[int]
    villages: list[Village]
    scores: list[int]
    to_move: int
    status: str
    occ: int
    big: int

    def occupied(self) -> list[int]: ...

    def _can_move(self, a: int, b: int) -> bool: ...

    def is_legal(self, frm: int, to: int) -> bool: ...

    def is_village(self, t: int) -> bool: ...

    def targets(self, a: int) -> list[int]: ...
