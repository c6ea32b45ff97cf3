"""Where the board lies in a photograph, without corners given: the box finds its four corners.

Two ways, each checked against what the box knows before it is believed:

- `hut_fit`, from the huts: a photograph with huts on the board and one of the empty board from
  the same camera. What changed between them are the huts (a few blobs a territory); the position
  says which territories hold them. The board file's territory centres are fitted onto the blobs:
  first the place, size and turn (the blobs' centre and spread against the centres', every turn
  tried, mirrored too: a mirrored webcam), then a homography refined a few times on the blobs
  each territory's centre lands near. The setup is the best target (60 huts, one a territory),
  but any position with a dozen territories held serves.
- `match_view`, from the board's own print: the kept view of the empty board (in the board's
  frame) matched to a new photograph by ORB features and a RANSAC homography, then aligned to a
  fraction of a pixel (ECC), since the views of two poses are compared at every printed line: a
  camera that moved is found again without taps.

Either fit is only a candidate: it is taken when the photograph under its corners agrees with the
position (companion.games.clans.camera.orient.agreement: the huts where the position has them, in
its colours, the bare territories bare); the fit from the huts tries its best few turns and keeps
the one that agrees, so a board whose huts happen to fit turned round is not taken. `find_board`
says why when it cannot tell.

OpenCV and numpy (the camera extra) are imported only here and only when a board is looked for.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

from PIL import Image, ImageFilter

from companion.games.clans.camera.geometry import BOARD_FRAME, BOARD_VIEW, Point, check_corners, perspective, to_board
from companion.games.clans.camera.orient import Agreement, agreement
from companion.games.clans.camera.views import change, clear_change, detail
from companion.games.clans.game import Game

WORK_WIDTH = 640  # px: the photographs are looked at this wide (a hut is still a blob of 50+ pixels)
MIN_BLOB = 4  # px at that width: a smaller change is noise
MAX_BLOB = 0.015  # of the picture: a larger change is not a pile of huts (a hand, a shadow)
MIN_HELD = 8  # territories with huts (or villages) the fit needs
FEW_HELD = 16  # with fewer territories with huts than this, the villages' places are fitted on too (their chips
#                lie beside their centres: less exact, but more of them)
TURN_STEP = 2  # degrees between the turns tried
STARTS = 4  # the best turns refined
REACH = 90  # frame px: the blobs this near where a start puts a centre may be its huts (the first fit's pairs)
PAIRED = 20  # frame px: ... and a pair this far from the homography's place for it is not one
RANSAC_ROUNDS = 5000
MATCH = (50, 45, 40, 40, 40)  # frame px: a blob this near a territory's centre is its huts, per round after
RANSAC_FRAME_PX = 25  # frame px: a centre this far from its huts' blobs is an outlier of the homography
SAME_CORNERS = 0.03  # of the board's width: two fits this close are one
LEAST_UNSURE, MOST_UNSURE = 0.01, 0.03  # the corners found from huts are this sure at best, and at worst
MIN_MATCHES = 30  # features matched consistently: fewer, and the kept view was not found
ORB_FEATURES = 2000
RATIO = 0.8  # Lowe's ratio test for a feature's best match
ECC_STOP = (3, 100, 1e-6)  # the alignment's end: cv2.TERM_CRITERIA_COUNT | EPS, 100 steps, or a change this small
ECC_MOST = 0.02  # of the board's width: an alignment that moves a corner further is not taken


class NoLibrary(RuntimeError):
    """OpenCV or numpy is missing: the board cannot be found (the corners can still be tapped)."""


def _cv() -> tuple[Any, Any]:
    try:
        import cv2
        import numpy as np
    except ImportError:
        raise NoLibrary("finding the board needs OpenCV and numpy (pip install '.[camera]'); "
                        "or give the corners") from None
    return cv2, np


@dataclass(frozen=True)
class Found:
    """The board's corners in the photograph (None: not found), how (`how`: "huts", "view"), and why."""

    corners: list[Point] | None
    how: str
    reason: str
    agreement: Agreement | None = None
    uncertainty: float = 0.0  # how far the corners may be off, a share of the board's width (0: to a pixel)


def frame_corners() -> list[Point]:
    w, h = BOARD_FRAME
    return [(0.0, 0.0), (float(w), 0.0), (float(w), float(h)), (0.0, float(h))]


def _apply(np: Any, H: Any, xy: Any) -> Any:
    xy = np.asarray(xy, float)
    h = np.c_[xy, np.ones(len(xy))] @ H.T
    return h[:, :2] / h[:, 2:3]


def blobs(photo: Image.Image, empty: Image.Image) -> tuple[Any, Any]:
    """What changed from the empty board to `photo` as blobs: their centres (photo pixels) and areas."""
    cv2, np = _cv()
    f = min(1.0, WORK_WIDTH / photo.width)
    size = (max(1, round(photo.width * f)), max(1, round(photo.height * f)))
    now = photo.convert("RGB").resize(size, Image.Resampling.BOX)
    ref = empty.convert("RGB").resize(size, Image.Resampling.BOX)
    mask = (np.asarray(clear_change(change(detail(now), detail(ref)))) > 0).astype(np.uint8)
    _n, _labels, stats, centres = cv2.connectedComponentsWithStats(mask, connectivity=8)
    area = stats[1:, cv2.CC_STAT_AREA].astype(float)
    keep = (area >= MIN_BLOB) & (area <= MAX_BLOB * size[0] * size[1])
    return centres[1:][keep] / f, area[keep] / (f * f)


def _turn(np: Any, degrees: float, mirrored: bool) -> Any:
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    m = np.array([[c, -s], [s, c]])
    return m @ np.array([[1.0, 0.0], [0.0, -1.0]]) if mirrored else m


def _starts(np: Any, pts: Any, area: Any, centres: Any, weights: Any) -> list[Any]:
    """The best few similarity maps of the centres onto the blobs (3x3, frame -> photo): the blobs'
    weighted centre and spread give the place and size, every turn (and its mirror) is scored by
    how near each blob lies to a centre and each centre to a blob."""
    w = area / area.sum()
    cp = (pts * w[:, None]).sum(0)
    sp = math.sqrt(float((w * ((pts - cp) ** 2).sum(1)).sum()))
    wf = weights / weights.sum()
    cf = (centres * wf[:, None]).sum(0)
    sf = math.sqrt(float((wf * ((centres - cf) ** 2).sum(1)).sum()))
    scale = sp / sf
    tol = MATCH[0] * scale
    scored = []
    for mirrored in (False, True):
        for degrees in range(0, 360, TURN_STEP):
            m = _turn(np, degrees, mirrored) * scale
            mapped = (centres - cf) @ m.T + cp
            d = np.linalg.norm(pts[:, None, :] - mapped[None, :, :], axis=2)
            near_blob = np.clip(1 - (d.min(1) / tol) ** 2, 0, None)
            near_centre = np.clip(1 - (d.min(0) / tol) ** 2, 0, None)
            scored.append((float((near_blob * w).sum() + near_centre.mean()), degrees, mirrored, m))
    scored.sort(key=lambda s: -s[0])
    out: list[tuple[float, bool, Any]] = []
    for _score, degrees, mirrored, m in scored:
        if all(mirrored != k or min(abs(degrees - d), 360 - abs(degrees - d)) > 10 for d, k, _ in out):
            out.append((degrees, mirrored, m))
        if len(out) == STARTS:
            break
    maps = []
    for _d, _k, m in out:
        H = np.eye(3)
        H[:2, :2] = m
        H[:2, 2] = cp - m @ cf
        maps.append(H)
    return maps


def _local(np: Any, H: Any, centres: Any) -> tuple[Any, Any]:
    """The centres mapped by H into the photograph, and how many photo pixels a frame pixel is at each."""
    mapped = _apply(np, H, centres)
    return mapped, np.linalg.norm(_apply(np, H, centres + [10.0, 0.0]) - mapped, axis=1) / 10


def _paired(np: Any, H: Any, pts: Any, area: Any, centres: Any, fitted_on: Any, reach: float) -> tuple[Any, Any, Any]:
    """Each centre `fitted_on` paired with the blobs nearest it (within `reach` frame px where H puts it):
    the centres, their blobs' weighted centre, and which blobs were paired."""
    mapped, local = _local(np, H, centres)
    d = np.linalg.norm(pts[:, None, :] - mapped[None, :, :], axis=2)
    near = d.argmin(1)
    close = d[np.arange(len(pts)), near] <= reach * local[near]
    src, dst = [], []
    for j in range(len(centres)):
        mine = close & (near == j)
        if fitted_on[j] and mine.any():
            src.append(centres[j])
            dst.append((pts[mine] * area[mine, None]).sum(0) / area[mine].sum())
    return np.array(src), np.array(dst), close


def _rounds(cv2: Any, np: Any, H: Any, pts: Any, area: Any, centres: Any, fitted_on: Any) -> Any | None:
    """H refined by rounds of each centre paired with the blobs nearest it (None: too few pairs)."""
    for reach in MATCH:
        src, dst, _close = _paired(np, H, pts, area, centres, fitted_on, reach)
        if len(src) < MIN_HELD:
            return None
        H, _inliers = cv2.findHomography(src, dst, cv2.RANSAC, RANSAC_FRAME_PX * float(np.median(_local(np, H, src)[1])))
        if H is None:
            return None
    return H


def _tilted(cv2: Any, np: Any, H: Any, pts: Any, centres: Any) -> Any | None:
    """A RANSAC homography over every pair of a centre and a blob within REACH of where H puts it: a
    tilted camera's far territories lie well off a start that knows no tilt."""
    mapped, local = _local(np, H, centres)
    d = np.linalg.norm(pts[:, None, :] - mapped[None, :, :], axis=2)
    blob, centre = np.nonzero(d <= REACH * local[None, :])
    if len(set(centre.tolist())) < MIN_HELD:
        return None
    fitted, _inliers = cv2.findHomography(centres[centre], pts[blob], cv2.RANSAC, PAIRED * float(np.median(local)),
                                          maxIters=RANSAC_ROUNDS)
    return fitted


def _refine(cv2: Any, np: Any, H: Any, pts: Any, area: Any, centres: Any,
            fitted_on: Any) -> tuple[Any, float] | None:
    """The homography (frame -> photo) refined from a start, two ways: rounds of pairing each centre
    with its nearest blobs from the start, and the same after a RANSAC fit over all near pairs (for a
    tilted camera); the one that explains more of the blobs is kept. Only the centres `fitted_on` are
    fitted (a village's chip lies beside its centre: its blobs are its own, not its centre's place).
    With it, how sure its corners are (`uncertainty`); None: too few pairs."""
    tilted = _tilted(cv2, np, H, pts, centres[fitted_on])
    best = None
    for start in (H, tilted):
        fitted = None if start is None else _rounds(cv2, np, start, pts, area, centres, fitted_on)
        if fitted is None:
            continue
        src, dst, close = _paired(np, fitted, pts, area, centres, fitted_on, MATCH[-1])
        explained = (float(area[close].sum()), len(src))
        if best is None or explained > best[0]:
            best = (explained, fitted, src, dst)
    if best is None or len(best[2]) < MIN_HELD:
        return None
    return best[1], uncertainty(np, best[1], best[2], best[3])


def uncertainty(np: Any, H: Any, src: Any, dst: Any) -> float:
    """How far (a share of the board's width) the corners of a homography fitted to `src` -> `dst` may
    be off: the pairs' scatter in the board's frame (a hut lies anywhere near its territory's centre),
    over the square root of their number per the map's 8 unknowns, twice (the corners lie beyond the
    territories). About 1% for a setup's 60 huts, 2-3% for a late game's few territories."""
    back = _apply(np, np.linalg.inv(H), dst)
    scatter = float(np.sqrt(((back - src) ** 2).sum(1).mean()))
    return min(MOST_UNSURE, max(LEAST_UNSURE, 2 * scatter * math.sqrt(8 / len(src)) / BOARD_FRAME[0]))


def _corners(np: Any, H: Any) -> list[Point]:
    return [(float(x), float(y)) for x, y in _apply(np, H, frame_corners())]


def _width(corners: Sequence[Point]) -> float:
    return (math.dist(corners[0], corners[1]) + math.dist(corners[3], corners[2])) / 2


def _same(a: Sequence[Point], b: Sequence[Point]) -> bool:
    """Two sets of corners within SAME_CORNERS of the board's width of each other: one place."""
    return max(math.dist(p, q) for p, q in zip(a, b)) <= SAME_CORNERS * _width(b)


def _checked(game: Game, photo: Image.Image, corners: list[Point], empty: Image.Image | None,
             empty_view: Image.Image | None) -> Agreement | None:
    """How the photograph under `corners` agrees with the position (None: the corners make no board)."""
    try:
        check_corners(corners, photo.size)
        view = to_board(photo, corners)
        ref = to_board(empty, corners) if empty is not None else empty_view
    except ValueError:
        return None
    return agreement(game, view, ref)  # type: ignore[arg-type]


Candidate = tuple[list[Point], Agreement, float]  # corners, how the position agrees, their uncertainty


def _one(found: list[Candidate], how: str) -> Found:
    """The one candidate that agrees (candidates within SAME_CORNERS of each other are one)."""
    distinct: list[Candidate] = []
    for candidate in sorted((c for c in found if c[1].ok), key=lambda c: c[1].badness):
        if not any(_same(candidate[0], other[0]) for other in distinct):
            distinct.append(candidate)
    if len(distinct) == 1:
        corners, agreed, unsure = distinct[0]
        return Found(corners, how, "found from the huts" if how == "huts" else "found from the board's print",
                     agreed, unsure)
    if distinct:
        return Found(None, how, "the board fits two ways: tap the corners")
    if found:
        best = min(found, key=lambda c: c[1].badness)[1]
        return Found(None, how, f"the board was not found: where it fits best, {best.why()}")
    return Found(None, how, "the board was not found")


def _safely(how: str, look: Any) -> Found:
    """`look()`, or not found when OpenCV or numpy gives up on a picture (a degenerate fit, a singular
    map): a camera thread must not stop on one odd frame."""
    cv2, _np = _cv()
    try:
        return look()
    except (cv2.error, ArithmeticError, ValueError) as exc:
        return Found(None, how, f"the board was not found ({type(exc).__name__})")


def hut_fit(game: Game, photo: Image.Image, empty: Image.Image) -> Found:
    """The board found from the huts of `game`'s position in `photo`, against `empty` (same camera)."""
    return _safely("huts", lambda: _hut_fit(game, photo, empty))


def _hut_fit(game: Game, photo: Image.Image, empty: Image.Image) -> Found:
    cv2, np = _cv()
    held = list(game.occupied()) + [v.territory for v in game.villages]
    if len(held) < MIN_HELD:
        return Found(None, "huts", f"{len(held)} territories hold huts: too few to find the board by")
    if photo.size != empty.size:
        return Found(None, "huts", "the photographs differ in size")
    pts, area = blobs(photo, empty)
    if len(pts) < MIN_HELD:
        return Found(None, "huts", "the board was not found: hardly anything differs from the empty board")
    centres = np.array([game.board.territories[t].xy for t in held], float)
    weights = np.array([max(1, sum(game.huts(t).values())) for t in held], float)
    fitted_on = np.array([not game.is_village(t) or len(game.occupied()) < FEW_HELD for t in held])
    found: list[Candidate] = []
    tried: list[list[Point]] = []
    for start in _starts(np, pts, area, centres, weights):
        refined = _refine(cv2, np, start, pts, area, centres, fitted_on)
        if refined is None:
            continue
        H, unsure = refined
        corners = _corners(np, H)
        if any(_same(corners, other) for other in tried):
            continue  # (two turns that came to one fit: checked once)
        tried.append(corners)
        checked = _checked(game, photo, corners, empty, None)
        if checked is not None:
            found.append((corners, checked, unsure))
    return _one(found, "huts")


def match_view(empty_view: Image.Image, photo: Image.Image, game: Game | None = None) -> Found:
    """The board found by matching the kept view of the empty board (the board's frame, any size) to
    `photo` (ORB features, a RANSAC homography); checked against `game`'s position when given."""
    return _safely("view", lambda: _match_view(empty_view, photo, game))


def _match_view(empty_view: Image.Image, photo: Image.Image, game: Game | None) -> Found:
    cv2, np = _cv()
    f = min(1.0, 2 * WORK_WIDTH / photo.width)
    small = photo.convert("L")
    if f < 1.0:
        small = small.resize((round(photo.width * f), round(photo.height * f)), Image.Resampling.BOX)
    orb = cv2.ORB_create(ORB_FEATURES)
    kv, dv = orb.detectAndCompute(np.asarray(empty_view.convert("L")), None)
    kp, dp = orb.detectAndCompute(np.asarray(small), None)
    if dv is None or dp is None or len(kv) < MIN_MATCHES or len(kp) < MIN_MATCHES:
        return Found(None, "view", "the board was not found: too little detail in the picture")
    pairs = cv2.BFMatcher(cv2.NORM_HAMMING).knnMatch(dv, dp, k=2)
    good = [p[0] for p in pairs if len(p) == 2 and p[0].distance < RATIO * p[1].distance]
    if len(good) < MIN_MATCHES:
        return Found(None, "view", f"the board was not found: {len(good)} features matched the empty board's")
    src = np.float32([kv[m.queryIdx].pt for m in good])
    dst = np.float32([kp[m.trainIdx].pt for m in good]) / f
    H, inliers = cv2.findHomography(src, dst, cv2.RANSAC, 4.0 / f)
    if H is None or int(inliers.sum()) < MIN_MATCHES:
        return Found(None, "view", "the board was not found: the features matched do not agree on a place")
    sx, sy = empty_view.width / BOARD_FRAME[0], empty_view.height / BOARD_FRAME[1]
    corners = _registered(cv2, np, empty_view, photo, _corners(np, H @ np.diag([sx, sy, 1.0])))
    if game is None:
        try:
            check_corners(corners, photo.size)
        except ValueError as exc:
            return Found(None, "view", f"the board was not found: {exc}")
        return Found(corners, "view", "found from the board's print")
    view = empty_view if empty_view.size == BOARD_VIEW else empty_view.resize(BOARD_VIEW)
    checked = _checked(game, photo, corners, None, view)
    return _one([(corners, checked, 0.0)] if checked is not None else [], "view")


def _registered(cv2: Any, np: Any, empty_view: Image.Image, photo: Image.Image, corners: list[Point]) -> list[Point]:
    """`corners` refined so the photograph's view lies on the kept view to a fraction of a pixel (OpenCV's
    ECC alignment of the two views): features place it to a pixel or two, and at the print's sharp
    lines and numbers a pixel is a change. The corners unchanged when the alignment does not converge."""
    try:
        check_corners(corners, photo.size)
    except ValueError:
        return corners
    kept = empty_view.convert("L").resize(BOARD_VIEW).filter(ImageFilter.GaussianBlur(1))
    view = to_board(photo, corners).convert("L").filter(ImageFilter.GaussianBlur(1))
    warp = np.eye(3, dtype=np.float32)
    try:
        _score, warp = cv2.findTransformECC(np.asarray(kept, np.float32), np.asarray(view, np.float32), warp,
                                            cv2.MOTION_HOMOGRAPHY, ECC_STOP, None, 5)
    except cv2.error:
        return corners
    w, h = BOARD_VIEW
    at = _apply(np, warp.astype(float), [(0.0, 0.0), (float(w), 0.0), (float(w), float(h)), (0.0, float(h))])
    view_to_photo = perspective([(0.0, 0.0), (float(w), 0.0), (float(w), float(h)), (0.0, float(h))], corners)
    a, b, c, d, e, f, g, k = view_to_photo
    out = []
    for x, y in at:
        z = g * x + k * y + 1
        out.append(((a * x + b * y + c) / z, (d * x + e * y + f) / z))
    if max(math.dist(p, q) for p, q in zip(out, corners)) > ECC_MOST * _width(corners):
        return corners  # (not a refinement: it went elsewhere)
    return out


def find_board(game: Game, photo: Image.Image, empty: Image.Image | None = None,
               empty_view: Image.Image | None = None) -> Found:
    """The board in `photo` (a view with `game`'s position on it): from the kept view of the empty board
    when there is one, else from the huts against the empty board's photograph."""
    if empty_view is not None:
        found = match_view(empty_view, photo, game)
        if found.corners is not None or empty is None:
            return found
    if empty is None:
        return Found(None, "huts", "no photograph of the empty board: take one, or tap the corners")
    return hut_fit(game, photo, empty)
