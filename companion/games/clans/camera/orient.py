"""Which way round the corners go: the one of their eight orders under which the photograph shows
the position the box knows, or none.

Four corners can be given from any corner and either way round (a page tapped from the other side
of the table, a mirrored webcam, a config copied from another table): four rotations, mirrored or
not. The corners alone cannot tell which is meant, but the position can: the box knows which
territories hold huts and of which colours, and the setup's colours have no symmetry. So each
order maps the board's frame into a photograph with huts and into the empty board's, and is asked
whether what it shows agrees with the position (`agreement`):

- the territories with huts differ from the empty board (`missing`: those that look empty),
- the bare ones look like it (`extra`: those that hold something; villages are left out, their
  chips stay),
- the huts' colours agree with the position: among the territories whose huts are all of one
  colour, huts the position says are of one colour look alike and those of two colours differ
  (`colours`: the median distance between same-coloured huts over that between differently
  coloured ones, about 0.1 when the board lies where the corners say and 0.3-1.3 when it does not).

The order that agrees is taken; when none agrees, or two do, nothing is read and the reason says why
(`orient`). A wrong move read from a board turned round is worse than none.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import median
from typing import Sequence

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageStat

from companion.games.clans.board import Board
from companion.games.clans.camera.geometry import BOARD_FRAME, BOARD_VIEW, Point, check_corners, perspective, to_board
from companion.games.clans.camera.views import MIN_HUT_PIXELS, Region, change, clear_change, detail
from companion.games.clans.game import Game

# The eight orders of four corners: (0, 1, 2, 3) as given, its three rotations, and the four of it
# mirrored. Each is a group element: the corners c in order o are [c[i] for i in o].
ORDERS: tuple[tuple[int, int, int, int], ...] = (
    (0, 1, 2, 3), (1, 2, 3, 0), (2, 3, 0, 1), (3, 0, 1, 2),
    (0, 3, 2, 1), (3, 2, 1, 0), (2, 1, 0, 3), (1, 0, 3, 2))

LOOKS_BARE = 0.01  # a territory with huts that differs from the empty board by less looks empty
HOLDS = 0.035  # a bare territory that differs by more holds something (watch.BARE)
MOST_WRONG = 0.12  # more than this share of the territories with huts (one may: a hut at its border) or of the
#                   bare ones disagree: not this order
COLOURS_AGREE = 0.35  # the huts' colours agree when same-coloured ones lie this much nearer each other, or nearer
MIN_SINGLE = 6  # ... measured on at least this many territories whose huts are all of one colour


def reorder(corners: Sequence[Point], order: Sequence[int]) -> list[Point]:
    """The corners in `order` (one of ORDERS)."""
    return [(float(corners[i][0]), float(corners[i][1])) for i in order]


def order_map(order: Sequence[int], size: tuple[int, int] = BOARD_VIEW) -> list[float]:
    """The map (8 coefficients) of a view of `size` onto itself that takes its corners in `order`: the
    pixel of the view under the corners in `order` is this map's image of it in the view under the
    corners as given."""
    w, h = size
    frame = [(0.0, 0.0), (float(w), 0.0), (float(w), float(h)), (0.0, float(h))]
    return perspective(frame, [frame[i] for i in order])


def _at(coeffs: Sequence[float], x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f, g, h = coeffs
    z = g * x + h * y + 1
    return (a * x + b * y + c) / z, (d * x + e * y + f) / z


_REGIONS: dict[tuple[int, tuple[float, ...]], tuple[Board, dict[int, Region]]] = {}


def mapped_regions(board: Board, coeffs: Sequence[float]) -> dict[int, Region]:
    """Each territory's region in a view (BOARD_VIEW), its outline taken through the map `coeffs` of the
    view onto itself (8 coefficients: the board placed otherwise in it); made once per board and map."""
    key = (id(board), tuple(round(c, 9) for c in coeffs))
    made = _REGIONS.get(key)
    if made is None or made[0] is not board:
        sx, sy = BOARD_VIEW[0] / BOARD_FRAME[0], BOARD_VIEW[1] / BOARD_FRAME[1]
        out = {}
        for t in board.territories.values():
            poly = [_at(coeffs, x * sx, y * sy) for x, y in t.outline]
            x0, y0 = max(0, int(min(p[0] for p in poly)) - 3), max(0, int(min(p[1] for p in poly)) - 3)
            x1 = max(x0 + 1, min(BOARD_VIEW[0], int(max(p[0] for p in poly)) + 4))
            y1 = max(y0 + 1, min(BOARD_VIEW[1], int(max(p[1] for p in poly)) + 4))
            mask = Image.new("L", (x1 - x0, y1 - y0), 0)
            ImageDraw.Draw(mask).polygon([(x - x0, y - y0) for x, y in poly], fill=255)
            mask = mask.filter(ImageFilter.MinFilter(5))  # 2 px in from the border, as views.regions
            out[t.number] = Region((x0, y0, x1, y1), mask, max(1, mask.histogram()[255]))
        made = _REGIONS[key] = (board, out)
    return made[1]


def order_regions(board: Board, index: int) -> dict[int, Region]:
    """Each territory's region in the view under the corners as given, when the corners are meant in
    ORDERS[index]."""
    return mapped_regions(board, order_map(ORDERS[index]))


def shares_in(diff: Image.Image, regions: dict[int, Region]) -> dict[int, float]:
    """Per territory, the share of its region (`regions`) that changed clearly in `diff` (views.shares,
    for regions of the board placed otherwise)."""
    clear = clear_change(diff)
    return {number: ImageStat.Stat(clear.crop(r.box), r.mask).sum[0] / 255 / r.pixels for number, r in regions.items()}


@dataclass(frozen=True)
class Agreement:
    """How a view of the board agrees with the position (see the module docstring)."""

    missing: tuple[int, ...]  # territories with huts that look like the empty board
    extra: tuple[int, ...]  # bare territories (not villages) that hold something
    occupied: int  # territories with huts that were looked at
    bare: int  # ... and bare ones
    colours: float | None  # same-coloured huts' distance over differently coloured ones' (None: too few to tell)

    @property
    def ok(self) -> bool:
        """The view agrees with the position."""
        return (len(self.missing) <= max(1.0, MOST_WRONG * self.occupied) and len(self.extra) <= MOST_WRONG * self.bare
                and (self.colours is None or self.colours <= COLOURS_AGREE))

    @property
    def badness(self) -> float:
        """How far from agreeing (0: perfectly), to rank the orders."""
        return (len(self.missing) / max(1, self.occupied) + len(self.extra) / max(1, self.bare)
                + (0.5 if self.colours is None else self.colours))

    def why(self) -> str:
        """What disagrees, in words."""
        parts = []
        if self.missing:
            parts.append(f"{len(self.missing)} of the {self.occupied} territories with huts look empty")
        if self.extra:
            parts.append(f"{len(self.extra)} of the {self.bare} bare ones hold something")
        if self.colours is not None and self.colours > COLOURS_AGREE:
            parts.append("the huts' colours do not match the position")
        return ", ".join(parts) or "it agrees"


def colour_separation(game: Game, measured: dict[int, tuple[float, float, float] | None]) -> float | None:
    """The median distance between the huts of one colour over that between huts of two colours, on the
    territories whose huts are all of one colour (None: fewer than MIN_SINGLE, or one colour only)."""
    single = {}
    for t in game.occupied():
        huts = game.huts(t)
        m = measured.get(t)
        if len(huts) == 1 and m is not None:
            single[t] = next(iter(huts))
    if len(single) < MIN_SINGLE or len(set(single.values())) < 2:
        return None
    same, other = [], []
    ts = sorted(single)
    for i, a in enumerate(ts):
        for b in ts[i + 1:]:
            (same if single[a] == single[b] else other).append(math.dist(measured[a], measured[b]))  # type: ignore[arg-type]
    if not same or not other:
        return None
    between = median(other)
    return median(same) / between if between > 0 else None


@dataclass(frozen=True)
class Seen:
    """A view of a photograph against the empty board's, measured once: the pixels that changed
    clearly (`clear`, L) and the view's colours (`view`, RGB), both in BOARD_VIEW."""

    view: Image.Image
    clear: Image.Image

    @classmethod
    def of(cls, view: Image.Image, empty_view: Image.Image) -> "Seen":
        return cls(view, clear_change(change(detail(view), detail(empty_view))))

    def agreement(self, game: Game, index: int = 0) -> Agreement:
        """How it agrees with `game`'s position when the corners are meant in ORDERS[index]."""
        held = game.occupied()
        bare = [t for t in game.board.numbers if t not in held and not game.is_village(t)]
        share: dict[int, float] = {}
        measured: dict[int, tuple[float, float, float] | None] = {}
        for number, region in order_regions(game.board, index).items():
            mask = ImageChops.multiply(self.clear.crop(region.box), region.mask)
            changed = mask.histogram()[255]
            share[number] = changed / region.pixels
            measured[number] = None
            if changed >= MIN_HUT_PIXELS and number in held:
                r, g, b = ImageStat.Stat(self.view.crop(region.box), mask).median
                measured[number] = (r, g, b)
        missing = tuple(t for t in held if share[t] < LOOKS_BARE)
        extra = tuple(t for t in bare if share[t] > HOLDS)
        return Agreement(missing, extra, len(held), len(bare), colour_separation(game, measured))


def agreement(game: Game, view: Image.Image, empty_view: Image.Image) -> Agreement:
    """How the view of a photograph (RGB, in the board's frame, BOARD_VIEW) agrees with `game`'s
    position, against the view of the empty board."""
    return Seen.of(view, empty_view).agreement(game)


@dataclass(frozen=True)
class Oriented:
    """The corners in the order that agrees with the position (None: no order does, or two do), the
    order taken (an index of ORDERS, or None), and why."""

    corners: list[Point] | None
    order: int | None
    reason: str
    agreements: tuple[Agreement, ...] = ()  # per order of ORDERS


def orient(game: Game, photo: Image.Image, corners: Sequence[Point], empty: Image.Image | None = None,
           empty_view: Image.Image | None = None) -> Oriented:
    """The order of `corners` under which `photo` shows `game`'s position (the module docstring).
    The empty board is its photograph `empty` (same camera: the photograph is measured once, under the
    corners as given, and each order asks it about its own regions), or else `empty_view`, a kept view
    of it in the board's own frame (each order's view of the photograph is measured against it)."""
    pts = check_corners(corners, photo.size)
    if empty is not None:
        seen = Seen.of(to_board(photo, pts), to_board(empty, pts))
        found = tuple(seen.agreement(game, i) for i in range(len(ORDERS)))
    elif empty_view is not None:
        ref = empty_view.convert("RGB").resize(BOARD_VIEW)
        found = tuple(Seen.of(to_board(photo, reorder(pts, order)), ref).agreement(game) for order in ORDERS)
    else:
        raise ValueError("no picture of the empty board")
    agree = [i for i, a in enumerate(found) if a.ok]
    if len(agree) == 1:
        i = agree[0]
        turned = "" if i == 0 else " (in another order than given)"
        return Oriented(reorder(pts, ORDERS[i]), i, f"the board agrees with the position{turned}", found)
    if len(agree) > 1:
        return Oriented(None, None, "the photograph agrees with the position in two orders of the corners: "
                        "tap them again", found)
    return Oriented(None, None, f"the photograph does not show the position under these corners in any order "
                    f"({found[0].why()})", found)
