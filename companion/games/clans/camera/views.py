"""Each territory's measure of change between two views of the board (companion.games.clans.camera.geometry).

A view is the board resampled into the board's frame. Two views are compared by their detail,
not their brightness: each pixel is divided by the mean of its neighbourhood, so a lamp switched
on, a cloud or a shadow across the table changes little, while a hut (a small saturated shape
with an edge and a shadow) stands out. The difference of two such views, the
largest of its three colours, is then counted per territory: the share of the territory's pixels
that changed clearly, where "clearly" is measured against the board's own noise in that pair of
views (its median change), so a noisy camera asks for more. The territories are the outlines of
the board file (`Territory.outline`), shrunk a little so a neighbour's hut at the border does not
count twice.

Two details made in different light (the empty board by day, the game at dusk: a colour's level
DRIFT times another's) are compared as if in one (`relit`). And apart from the detail, the colour
itself: where it changed between two views, against the light's own change around each place
(`colour_change`), in patches with their size, territories and place (`patches`, `arrivals`): a
hut that arrived is a patch of its size, a cup, a phone or a cat's paw one many times larger.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageMath, ImageStat

from companion.games.clans.board import Board
from companion.games.clans.camera.geometry import BOARD_FRAME, BOARD_VIEW

BLUR_RADIUS = 8  # px of the view: the neighbourhood a pixel is measured against (a hut is smaller)
DARK = 12.0  # added to a neighbourhood's mean so the ratio stays tame in the dark (shadows, forest)
RATIO_SCALE = 200.0  # a difference of ratio 1 is 200 of 255
SMOOTH_RADIUS = 1  # px: against sensor noise and JPEG blocks
MIN_THRESHOLD = 60  # a change below this (0-255) is never "clear"
NOISE_FACTOR = 3.0  # a change is clear above this many times the view pair's median change


@dataclass(frozen=True)
class Region:
    """One territory in the view: its box and its mask (L, 255 inside) cropped to the box."""

    box: tuple[int, int, int, int]
    mask: Image.Image
    pixels: int


_MADE: dict[tuple[str, int, tuple[int, int]], tuple[Board, Any]] = {}


def _once(kind: str, board: Board, size: tuple[int, int], make: Callable[[Board, tuple[int, int]], Any]) -> Any:
    """`make(board, size)`, made once per board and size (the board kept: an id is reused once it is gone)."""
    made = _MADE.get((kind, id(board), size))
    if made is None or made[0] is not board:
        made = _MADE[(kind, id(board), size)] = (board, make(board, size))
    return made[1]


def regions(board: Board, size: tuple[int, int] = BOARD_VIEW) -> dict[int, Region]:
    """Every territory's region in a view of `size` (from the board file's outlines), made once."""
    return _once("regions", board, size, _regions)


def region_pixels(board: Board) -> dict[int, int]:
    """Every territory's region's size in a view (pixels)."""
    return {t: region.pixels for t, region in regions(board).items()}


def _regions(board: Board, size: tuple[int, int]) -> dict[int, Region]:
    sx, sy = size[0] / BOARD_FRAME[0], size[1] / BOARD_FRAME[1]
    out = {}
    for t in board.territories.values():
        if not t.outline:
            raise ValueError(f"territory {t.number} has no outline in the board file: the camera needs them")
        poly = [(x * sx, y * sy) for x, y in t.outline]
        full = Image.new("L", size, 0)
        ImageDraw.Draw(full).polygon(poly, fill=255)
        full = full.filter(ImageFilter.MinFilter(5))  # 2 px in from the border
        box = full.getbbox() or (0, 0, 1, 1)
        mask = full.crop(box)
        out[t.number] = Region(box, mask, max(1, mask.histogram()[255]))
    return out


class Detail(tuple):
    """A view's detail: its three colours' float images (a tuple, as it always was), the view itself
    (`view`, RGB; None for a detail made by hand from three images) and its colours' levels
    (`levels`, the view's median per colour) and the DARK it was made with, per colour (`darks`)."""

    view: Image.Image | None
    levels: tuple[float, ...]
    darks: tuple[float, ...]

    def __new__(cls, channels, view: Image.Image | None = None, levels: Sequence[float] = (),
                darks: Sequence[float] = ()) -> "Detail":
        made = super().__new__(cls, channels)
        made.view, made.levels, made.darks = view, tuple(levels), tuple(darks)
        return made


def detail(view: Image.Image, darks: Sequence[float] = (DARK, DARK, DARK)) -> Detail:
    """The view's detail, per colour: each pixel over its neighbourhood's mean (float images, 1 where
    nothing stands out). A lamp that makes a part of the board brighter scales a pixel and its
    neighbourhood alike, so the ratio stays. `darks`: each colour's DARK (`relit`)."""
    smooth = view.filter(ImageFilter.GaussianBlur(SMOOTH_RADIUS))
    around = smooth.filter(ImageFilter.BoxBlur(BLUR_RADIUS))
    return Detail((ImageMath.lambda_eval(lambda a: a["x"] / (a["m"] + a["d"]), x=x.convert("F"), m=m.convert("F"), d=d)
                   for x, m, d in zip(smooth.split(), around.split(), darks)), view,
                  ImageStat.Stat(smooth).median, darks)


DRIFT = 1.5  # a view whose colours' levels differ from the empty board's by this factor: the light drifted


def relit(d: Detail, ref: Detail) -> Detail:
    """`d` made comparable with `ref` when the light drifted between them (a colour's level DRIFT
    times brighter or darker than ref's: dusk, a lamp's colour): its detail made again with each
    colour's DARK scaled as its level is to ref's, so a pixel over its neighbourhood's mean is what
    it would be in ref's light. `d` itself otherwise, or when either carries no view."""
    view, levels, base = getattr(d, "view", None), getattr(d, "levels", ()), getattr(ref, "levels", ())
    if view is None or not levels or not base:
        return d
    scale = [max(level, 1.0) / max(b, 1.0) for level, b in zip(levels, base)]
    if all(1 / DRIFT <= f <= DRIFT for f in scale):
        return d
    return detail(view, [dark * f for dark, f in zip(ref.darks, scale)])


def change(a: Detail, b: Detail) -> Image.Image:
    """How much two details differ at each pixel: the largest of the three colours' differences,
    as 0-255 (L; RATIO_SCALE a unit of ratio). `a` is taken in `b`'s light first (`relit`): the
    views of a move share their light, the empty board's may have been another (daylight, and
    now dusk)."""
    a = relit(a, b)
    most = ImageMath.lambda_eval(
        lambda v: v["max"](v["max"](abs(v["r1"] - v["r2"]), abs(v["g1"] - v["g2"])), abs(v["b1"] - v["b2"])) * RATIO_SCALE,
        r1=a[0], r2=b[0], g1=a[1], g2=b[1], b1=a[2], b2=b[2])
    return most.convert("L").filter(ImageFilter.BoxBlur(1))


def threshold(diff: Image.Image) -> int:
    """The level above which a pixel changed clearly in this pair of views."""
    return max(MIN_THRESHOLD, round(NOISE_FACTOR * ImageStat.Stat(diff).median[0]))


def clear_change(diff: Image.Image) -> Image.Image:
    """The pixels that changed clearly (255) in this pair of views (`threshold`), the others 0."""
    level = threshold(diff)
    return diff.point(lambda v: 255 if v >= level else 0)


def shares(diff: Image.Image, board: Board) -> dict[int, float]:
    """Per territory, the share (0-1) of its pixels that changed clearly."""
    clear = clear_change(diff)
    out = {}
    for number, region in regions(board, diff.size).items():
        out[number] = ImageStat.Stat(clear.crop(region.box), region.mask).sum[0] / 255 / region.pixels
    return out


MIN_HUT_PIXELS = 12  # fewer clearly changed pixels in a territory: no hut to measure there


def hut_colours(view: Image.Image, diff: Image.Image, board: Board) -> dict[int, tuple[float, float, float] | None]:
    """Per territory, the median colour (RGB of `view`, the board's view) of its pixels that changed
    clearly from the empty board (`diff`): its huts' colour, lit as the table is lit; None when
    too few changed."""
    clear = clear_change(diff)
    out: dict[int, tuple[float, float, float] | None] = {}
    for number, region in regions(board, diff.size).items():
        mask = ImageChops.multiply(clear.crop(region.box), region.mask)
        if mask.histogram()[255] < MIN_HUT_PIXELS:
            out[number] = None
            continue
        r, g, b = ImageStat.Stat(view.crop(region.box), mask).median
        out[number] = (r, g, b)
    return out


# ----- what arrived: the patches where the colour itself changed -------------------------------
COARSE = 4  # the colour change is measured on views reduced this many times (a hut: a patch of 10-20 pixels)
LIGHT_BLOCK = 5  # the light's own change at a pixel is the median change of the LIGHT_FIELD x LIGHT_FIELD
LIGHT_FIELD = 5  # ... blocks of LIGHT_BLOCK x LIGHT_BLOCK reduced pixels around it (100 px of the view)
COLOUR_OFFSET = 16.0  # added to both views' values, so the sensor's noise in the dark is no change
COLOUR_CHANGED = 0.2  # a reduced pixel changed colour when a channel moved this much more than the light there

def territory_map(board: Board, size: tuple[int, int] = BOARD_VIEW) -> bytes:
    """Each pixel's territory (its number, 0 between them: the regions of `regions` in a view,
    sampled for a smaller size), row by row."""
    return _once("map", board, size, _territory_map)


def _territory_map(board: Board, size: tuple[int, int]) -> bytes:
    if max(board.numbers) > 255:
        raise ValueError("a board of more than 255 territories")
    image = Image.new("L", BOARD_VIEW, 0)
    for number, region in regions(board, BOARD_VIEW).items():
        image.paste(number, region.box, region.mask)
    if size != BOARD_VIEW:
        image = image.resize(size, Image.Resampling.NEAREST)
    return image.tobytes()


def colour_change(was: Image.Image, now: Image.Image) -> Image.Image:
    """Where the colour itself changed between two views of the board (L, 255), at 1/COARSE of their
    size: a channel's ratio now/was against the light's own change there (the median ratio around
    it), so a lamp or a cloud is no change, while an opaque thing set down (a cup, a phone, a paw)
    is a patch as large as it, and a hut a patch of 10-20 pixels."""
    a, b = (v.convert("RGB").reduce(COARSE) for v in (was, now))
    out = None
    for x, y in zip(a.split(), b.split()):
        ratio = ImageMath.lambda_eval(lambda v: (v["y"] + COLOUR_OFFSET) / (v["x"] + COLOUR_OFFSET) * 100,
                                      x=x.convert("F"), y=y.convert("F"))
        light = (ratio.convert("L").reduce(LIGHT_BLOCK).filter(ImageFilter.MedianFilter(LIGHT_FIELD))
                 .resize(ratio.size, Image.Resampling.BILINEAR).convert("F"))
        off = ImageMath.lambda_eval(lambda v: abs(v["r"] / (v["l"] + 0.5) - 1) * (128 / COLOUR_CHANGED),
                                    r=ratio, l=light).convert("L")
        out = off if out is None else ImageChops.lighter(out, off)
    assert out is not None
    return out.point(lambda v: 255 if v >= 128 else 0)


@dataclass(frozen=True)
class Patch:
    """A patch of change: its `area` (pixels of the mask it was found in), the `territories` it
    touches and its `centre` in the board's frame."""

    area: int
    territories: frozenset[int]
    centre: tuple[float, float]


def patches(mask: Image.Image, board: Board) -> list[Patch]:
    """The 4-connected patches of set pixels (255) of `mask`, a picture of the board's view (or of a
    reduced view), largest first."""
    w, h = mask.size
    owner = territory_map(board, mask.size)
    sx, sy = BOARD_FRAME[0] / w, BOARD_FRAME[1] / h
    todo = {i for i, v in enumerate(mask.tobytes()) if v}
    out = []
    while todo:
        patch, area, touched, cx, cy = [todo.pop()], 0, set(), 0, 0
        while patch:
            i = patch.pop()
            area += 1
            if owner[i]:
                touched.add(owner[i])
            y, x = divmod(i, w)
            cx, cy = cx + x, cy + y
            for j in (i - w, i + w, i - 1 if x else -1, i + 1 if x < w - 1 else -1):
                if j in todo:
                    todo.remove(j)
                    patch.append(j)
        out.append(Patch(area, frozenset(touched), ((cx / area + 0.5) * sx, (cy / area + 0.5) * sy)))
    return sorted(out, key=lambda p: p.area, reverse=True)


def arrivals(was: Detail, now: Detail, board: Board) -> list[Patch] | None:
    """The patches where the colour changed between the views of two details (`colour_change`), or
    None when a detail does not carry its view."""
    if getattr(was, "view", None) is None or getattr(now, "view", None) is None:
        return None
    return patches(colour_change(was.view, now.view), board)  # type: ignore[arg-type]
