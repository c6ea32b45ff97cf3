"""The board in a photograph, mapped onto the board file's frame.

The four corners are where the board picture's corners (0, 0), (1200, 0), (1200, 800), (0, 800)
lie in the photograph, in pixels. `to_board` resamples the photograph into the board's frame
at `BOARD_VIEW` (half the board file's size: a hut stays a dozen pixels across), so every
later step compares the same pixel of the same territory in every view. Pillow only: its
PERSPECTIVE transform takes the 8 coefficients that map an output pixel to the photograph.
"""

from __future__ import annotations

from typing import Sequence

from PIL import Image

BOARD_FRAME = (1200, 800)  # the board file's frame (its territories' xy and outlines)
BOARD_VIEW = (600, 400)  # the frame a view is compared in
Point = tuple[float, float]


class CornersError(ValueError):
    """Corners that do not make a board: not 4 points, or not a convex quadrilateral in order."""


def solve(matrix: list[list[float]], rhs: list[float]) -> list[float]:
    """x with matrix . x = rhs (Gaussian elimination with partial pivoting); ValueError when singular."""
    n = len(rhs)
    a = [row[:] + [rhs[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-12:
            raise ValueError("singular")
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col and a[r][col]:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col])]
    return [a[i][n] / a[i][i] for i in range(n)]


def perspective(src: Sequence[Point], dst: Sequence[Point]) -> list[float]:
    """The 8 coefficients (a..h) of the projective map taking each src point to its dst point:
    x' = (a x + b y + c) / (g x + h y + 1), y' = (d x + e y + f) / (g x + h y + 1)."""
    rows, rhs = [], []
    for (x, y), (u, v) in zip(src, dst):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rhs.append(u)
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        rhs.append(v)
    return solve(rows, rhs)


MIN_SIDE = 40  # px: a board seen smaller than this in the photograph cannot show a hut
MARGIN = 0.05  # a corner may lie this share of the photograph's size outside it (a board cut at the edge)


def check_corners(corners: Sequence[Point], size: tuple[int, int] | None = None) -> list[Point]:
    """The corners as 4 (x, y) floats; CornersError unless they make a convex quadrilateral
    in the order (0,0), (1200,0), (1200,800), (0,800) of the board (either winding) and, given
    the photograph's `size`, lie in it (give or take MARGIN) with every side MIN_SIDE or longer."""
    if len(corners) != 4:
        raise CornersError(f"4 corners are needed, {len(corners)} given")
    pts = [(float(x), float(y)) for x, y in corners]
    turns = []
    for i in range(4):
        (ax, ay), (bx, by), (cx, cy) = pts[i], pts[(i + 1) % 4], pts[(i + 2) % 4]
        turns.append((bx - ax) * (cy - by) - (by - ay) * (cx - bx))
    if not (all(t > 0 for t in turns) or all(t < 0 for t in turns)):
        raise CornersError("the corners do not make a convex quadrilateral in the board's order")
    if size is not None:
        w, h = size
        if not all(-MARGIN * w <= x <= (1 + MARGIN) * w and -MARGIN * h <= y <= (1 + MARGIN) * h for x, y in pts):
            raise CornersError(f"a corner lies outside the {w}x{h} photograph: give the board's corners in pixels")
        sides = [((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5 for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1])]
        if min(sides) < MIN_SIDE:
            raise CornersError(f"the board would be {min(sides):.0f} px across: at least {MIN_SIDE} px are needed")
    return pts


def to_board(photo: Image.Image, corners: Sequence[Point], size: tuple[int, int] = BOARD_VIEW) -> Image.Image:
    """The photograph's board resampled into the board's frame at `size` (RGB)."""
    pts = check_corners(corners, photo.size)
    w, h = size
    coeffs = perspective([(0, 0), (w, 0), (w, h), (0, h)], pts)
    rgb = photo.convert("RGB")
    # a photograph much larger than the view is reduced first, so the resampling does not alias
    span = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5 for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]))
    factor = int(span // (2 * w))
    if factor >= 2:
        rgb = rgb.reduce(factor)
        coeffs = [c / factor for c in coeffs[:6]] + coeffs[6:]  # x, y in the reduced photograph
    return rgb.transform(size, Image.Transform.PERSPECTIVE, coeffs, Image.Resampling.BILINEAR)
