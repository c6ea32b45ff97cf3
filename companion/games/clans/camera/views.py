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
"""

from __future__ import annotations

from dataclasses import dataclass

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


_MADE: dict[tuple[int, tuple[int, int]], tuple[Board, dict[int, Region]]] = {}


def regions(board: Board, size: tuple[int, int] = BOARD_VIEW) -> dict[int, Region]:
    """Every territory's region in a view of `size` (from the board file's outlines), made once."""
    made = _MADE.get((id(board), size))
    if made is None or made[0] is not board:
        made = _MADE[(id(board), size)] = (board, _regions(board, size))
    return made[1]


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


Detail = tuple[Image.Image, Image.Image, Image.Image]


def detail(view: Image.Image) -> Detail:
    """The view's detail, per colour: each pixel over its neighbourhood's mean (float images, 1 where
    nothing stands out). A lamp that makes a part of the board brighter scales a pixel and its
    neighbourhood alike, so the ratio stays."""
    smooth = view.filter(ImageFilter.GaussianBlur(SMOOTH_RADIUS))
    around = smooth.filter(ImageFilter.BoxBlur(BLUR_RADIUS))
    return tuple(ImageMath.lambda_eval(lambda a: a["x"] / (a["m"] + DARK), x=x.convert("F"), m=m.convert("F"))
                 for x, m in zip(smooth.split(), around.split()))  # type: ignore[return-value]


def change(a: Detail, b: Detail) -> Image.Image:
    """How much two details differ at each pixel: the largest of the three colours' differences,
    as 0-255 (L; RATIO_SCALE a unit of ratio)."""
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
