"""The board in a photograph mapped onto the board file's frame (companion.games.clans.camera.geometry)."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat

from companion.games.clans.camera.geometry import (BOARD_FRAME, BOARD_VIEW, CornersError, check_corners,
                                                   perspective, to_board)


def pattern() -> Image.Image:
    """A board-sized picture with detail everywhere: squares of colour and a grid."""
    im = Image.new("RGB", BOARD_FRAME, (200, 180, 120))
    d = ImageDraw.Draw(im)
    for i in range(0, 1200, 100):
        for j in range(0, 800, 100):
            d.rectangle((i + 10, j + 10, i + 70, j + 60), fill=((i * 7) % 255, (j * 3) % 255, (i + j) % 255))
    return im


def photograph(board: Image.Image, corners, size=(1280, 960)) -> Image.Image:
    """The board as a camera sees it, its corners where `corners` says."""
    coeffs = perspective(corners, [(0, 0), (1200, 0), (1200, 800), (0, 800)])
    return board.transform(size, Image.Transform.PERSPECTIVE, coeffs, Image.Resampling.BICUBIC, fillcolor=(60, 50, 40))


def apply(coeffs, x, y):
    a, b, c, d, e, f, g, h = coeffs
    w = g * x + h * y + 1
    return (a * x + b * y + c) / w, (d * x + e * y + f) / w


def test_the_map_takes_each_corner_where_it_belongs():
    src = [(0, 0), (1200, 0), (1200, 800), (0, 800)]
    dst = [(130.5, 90), (1150, 70), (1230, 880), (40, 860)]
    coeffs = perspective(src, dst)
    for (x, y), (u, v) in zip(src, dst):
        assert apply(coeffs, x, y) == pytest.approx((u, v), abs=1e-6)


@pytest.mark.parametrize("corners, size", [
    ([(100, 80), (1180, 60), (1240, 860), (60, 900)], (1280, 960)),  # tilted: the far edge shorter
    ([(1180, 900), (100, 880), (140, 80), (1220, 60)], (1280, 960)),  # from the other side of the table
    ([(50, 40), (600, 50), (590, 420), (40, 430)], (640, 480)),
    ([(200, 150), (3800, 100), (3900, 2900), (100, 2950)], (4000, 3000)),  # a large photograph, reduced first
])
def test_the_photographs_board_comes_back_in_the_boards_frame(corners, size):
    board = pattern()
    view = to_board(photograph(board, corners, size), corners)
    assert view.size == BOARD_VIEW
    wanted = board.resize(BOARD_VIEW, Image.Resampling.BOX)
    inner = (20, 20, BOARD_VIEW[0] - 20, BOARD_VIEW[1] - 20)
    error = sum(ImageStat.Stat(ImageChops.difference(view.crop(inner), wanted.crop(inner))).mean) / 3
    assert error < 12, error


@pytest.mark.parametrize("corners, words", [
    ([(0, 0), (10, 0), (10, 10)], "4 corners are needed, 3 given"),
    ([(0, 0), (10, 10), (10, 0), (0, 10)], "convex"),  # two corners swapped: a bow tie
    ([(0, 0), (5, 0), (10, 0), (0, 10)], "convex"),  # three in a line
    ([(0, 0), (0, 0), (0, 0), (0, 0)], "convex"),
])
def test_corners_that_make_no_board_are_refused(corners, words):
    with pytest.raises(CornersError, match=words):
        check_corners(corners)


@pytest.mark.parametrize("corners, words", [
    ([(0, 0), (1e-9, 0), (1e-9, 1e-9), (0, 1e-9)], "0 px across: at least 40"),
    ([(-5e5, -5e5), (5e5, -5e5), (5e5, 5e5), (-5e5, 5e5)], "outside the 640x480 photograph"),
    ([(10, 10), (700, 10), (630, 470), (10, 470)], "outside"),
])
def test_corners_must_put_a_visible_board_in_the_photograph(corners, words):
    with pytest.raises(CornersError, match=words):
        check_corners(corners, (640, 480))
    assert check_corners([(-20, -20), (650, 5), (630, 470), (10, 490)], (640, 480))  # a board cut at the edge
