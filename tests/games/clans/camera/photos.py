"""Synthetic photographs of a Clans table, for testing the camera's move detector.

A camera above the board photographs the table before and after a move (and once, the empty
board); the detector (`companion.games.clans.camera.propose`) names the move. This module makes
such photographs from real positions, so the detector can be measured without a table:

- `Table`: the physical pieces. Every hut is a piece with a colour and a position in the board
  file's 1200x800 frame, at a free spot near its territory's centre (`Board.territories[t].xy`).
  `Table.setup` puts one hut on each territory (the engine's setup), `Table.move(a, b)` carries
  all huts of a onto free spots near b's centre, `Table.reconcile(game)` makes the table agree
  with the engine after it played the move (huts of destroyed villages and strife leave, a
  founded village gets its chip), `Table.nudge` knocks a few huts a little.
- `Camera` (`random_camera`): where the camera looks from, fixed for a whole game: a homography
  from the board frame to the photo (tilt, rotation, 180 degrees from the other side of the
  table, scale, offset), the table around the board, the lamp (the pieces' shadows) and the
  parallax of the pieces' tops. `Camera.tapped` are the board's corners as a person tapped them.
- `Look` (`random_look`): what differs from shot to shot: uneven and changing light, colour
  temperature, blur, sensor noise, a JPEG round trip.
- `Hand` (`random_hand`): an arm reaching over the board (and its shadow), drawn in the photo.
- `photograph(table, camera, look, hand)` -> (photo, corners): the picture, and where the board
  frame's corners (0,0), (1200,0), (1200,800), (0,800) are in it (as tapped).

Everything is drawn from `random.Random` seeds, so a seed gives the same photographs on every
run. Pieces are drawn on the board picture (in the board frame, at twice the resolution, then
reduced) and the frame is mapped into the photo with one perspective transform. Coordinates are
continuous pixel coordinates: (0, 0) is the outer corner of the first pixel, a pixel's centre is
at (i + 0.5, j + 0.5), as PIL's transforms use them.

The board picture is `../shared/reference/clans-board-numbered.jpg` (never copied into the
repository): the board's art with blue lines between the regions and each territory's number
printed at its centre, under the huts.
"""

from __future__ import annotations

import io
import math
import random
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from statistics import NormalDist
from typing import Iterable, Sequence

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageOps

from companion.games.clans.board import Board, load_board
from companion.games.clans.camera.geometry import perspective
from companion.games.clans.game import Game

REPO = Path(__file__).resolve().parents[4]
SHARED = REPO.parent / "shared"  # as tests/conftest.py has it (this module also runs outside pytest)
BOARD_PICTURE = SHARED / "reference" / "clans-board-numbered.jpg"

FRAME = (1200, 800)  # the board file's frame: territory centres and the picture are in it
FRAME_CORNERS: tuple[tuple[float, float], ...] = ((0.0, 0.0), (1200.0, 0.0), (1200.0, 800.0), (0.0, 800.0))
PLAY_AREA = (14.0, 14.0, 996.0, 786.0)  # where pieces stand (x0, y0, x1, y1): the score track starts at x 1005

# Wooden pieces: painted, not pure RGB. Each hut varies a little around its colour.
HUT_RGB: dict[str, tuple[int, int, int]] = {
    "red": (190, 40, 35), "blue": (35, 70, 170), "green": (40, 140, 60), "yellow": (230, 190, 40),
    "black": (30, 30, 30),
}
CHIP_RGB = (206, 170, 112)  # a village chip: a flat disc of light wood with a dark rim
CHIP_RIM = (92, 62, 34)
CHIP_RADIUS = 16.0
CHIP_OFFSET = 35.0  # the chip lies this far from the territory's centre, beside the village's huts

# Where a hut goes: within NEAR of its territory's centre and SPACING from other huts where it
# can, spiralling out for a big pile, never beyond FAR.
NEAR, FAR, SPACING = 30.0, 45.0, 20.0
HUT_LENGTH = (26.0, 30.0)  # along the ridge, board frame pixels (the frame is about 0.5 mm a pixel)
HUT_WIDTH = (18.0, 22.0)

LOOKS = ("clean", "light", "noise", "blur", "rough")  # the kinds of `random_look`
_SUPER = 2  # pieces are drawn at twice the frame's resolution, then reduced: anti-aliased edges


# ----- the board picture -------------------------------------------------------------------
def have_board_picture() -> bool:
    return BOARD_PICTURE.is_file()


@lru_cache(maxsize=1)
def board_picture() -> Image.Image:
    """The empty board in the board file's frame (1200x800 RGB), read once. Do not modify it."""
    image = Image.open(BOARD_PICTURE)
    image = image.convert("RGB")
    if image.size != FRAME:
        raise ValueError(f"{BOARD_PICTURE}: {image.size[0]}x{image.size[1]}, expected the frame 1200x800")
    return image


@lru_cache(maxsize=1)
def _board() -> Board:
    return load_board()


# ----- the pieces on the table ---------------------------------------------------------------
@dataclass
class Hut:
    """One hut on the table: a little wooden house, its ridge at `angle` degrees in the frame."""

    color: str
    x: float
    y: float
    angle: float
    length: float
    width: float
    rgb: tuple[int, int, int]
    seq: int = 0  # placing order: a hut put down later is drawn over earlier ones


@dataclass
class Chip:
    """A village chip lying flat on the board."""

    x: float
    y: float
    rgb: tuple[int, int, int]


class Table:
    """The physical pieces on the board: huts by territory and village chips, in frame pixels.

    The table follows the engine: `move(a, b)` does what the hand does (all huts of a onto b),
    `reconcile(game)` what the players do after the engine played the move (take away the huts
    the engine removed, lay a chip on each new village). Placement draws from `rng`.
    """

    def __init__(self, rng: random.Random, board: Board | None = None) -> None:
        self.board = board or _board()
        self.rng = rng
        self.huts: dict[int, list[Hut]] = {}
        self.chips: dict[int, Chip] = {}
        self._seq = 0
        self._centre = {t: (float(self.board.territories[t].xy[0]), float(self.board.territories[t].xy[1]))
                        for t in self.board.numbers}
        self._rivals = {t: [self._centre[u] for u in self.board.numbers
                            if u != t and math.dist(self._centre[t], self._centre[u]) < 140]
                        for t in self.board.numbers}

    @classmethod
    def setup(cls, game: Game, rng: random.Random) -> "Table":
        """The table at the start: one hut of the setup's colour on each territory."""
        table = cls(rng, game.board)
        setup = game.setup
        for t in sorted(setup):
            table.add(t, setup[t])
        return table

    def copy(self, rng: random.Random | None = None) -> "Table":
        """An independent copy (its own pieces; `rng`, or a copy of this table's generator)."""
        if rng is None:
            rng = random.Random()
            rng.setstate(self.rng.getstate())
        other = Table(rng, self.board)
        other.huts = {t: [Hut(**vars(h)) for h in pile] for t, pile in self.huts.items()}
        other.chips = {t: Chip(c.x, c.y, c.rgb) for t, c in self.chips.items()}
        other._seq = self._seq
        return other

    # ----- what is on the table --------------------------------------------------------------
    def counts(self) -> dict[int, dict[str, int]]:
        """{territory: {colour: huts}} for the territories with huts."""
        return {t: dict(Counter(h.color for h in pile)) for t, pile in self.huts.items() if pile}

    def all_huts(self) -> list[tuple[int, Hut]]:
        """(territory, hut) for every hut, in placing order (the order they are drawn)."""
        return sorted(((t, h) for t, pile in self.huts.items() for h in pile), key=lambda th: th[1].seq)

    def centre(self, t: int) -> tuple[float, float]:
        return self._centre[t]

    # ----- changing it -------------------------------------------------------------------------
    def add(self, t: int, color: str) -> Hut:
        """Put a new hut of `color` on territory t at a free spot."""
        rng = self.rng
        x, y = self._spot(t)
        hut = Hut(color, x, y, rng.uniform(0.0, 180.0), rng.uniform(*HUT_LENGTH), rng.uniform(*HUT_WIDTH),
                  _vary(HUT_RGB[color], rng), self._next())
        self.huts.setdefault(t, []).append(hut)
        return hut

    def move(self, frm: int, to: int) -> None:
        """All huts of `frm` onto free spots near `to`'s centre; `to`'s own huts stay where they are."""
        moving = self.huts.pop(frm, [])
        if not moving:
            raise ValueError(f"territory {frm} has no huts on the table")
        rng = self.rng
        rng.shuffle(moving)
        pile = self.huts.setdefault(to, [])
        for hut in moving:
            hut.x, hut.y = self._spot(to)
            hut.angle = (hut.angle + rng.uniform(-50.0, 50.0)) % 180.0
            hut.seq = self._next()
            pile.append(hut)

    def reconcile(self, game: Game) -> None:
        """Make the table agree with the engine's position: huts the engine removed (a destroyed
        village, strife) leave the table, and every village gets its chip."""
        for t in self.board.numbers:
            pile = self.huts.get(t)
            want = game.huts(t)
            have = Counter(h.color for h in pile) if pile else Counter()
            for color, n in want.items():
                if n > have[color]:
                    raise AssertionError(f"territory {t}: the engine has {n} {color} huts, the table {have[color]}")
            if not pile:
                continue
            for color, n in have.items():
                extra = n - want.get(color, 0)
                if extra > 0:
                    gone = self.rng.sample([h for h in pile if h.color == color], extra)
                    pile[:] = [h for h in pile if all(h is not g for g in gone)]
            if not pile:
                del self.huts[t]
        for village in game.villages:
            if village.territory not in self.chips:
                x, y = self._chip_spot(village.territory)
                self.chips[village.territory] = Chip(x, y, _vary(CHIP_RGB, self.rng, 0.04))

    def nudge(self, rng: random.Random, count: int, avoid: Iterable[int] = ()) -> list[int]:
        """Knock `count` huts (of territories not in `avoid`) 3-10 px aside; returns their territories."""
        avoid = set(avoid)
        choices = [(t, h) for t, pile in sorted(self.huts.items()) if t not in avoid for h in pile]
        picked = rng.sample(choices, min(count, len(choices)))
        x0, y0, x1, y1 = PLAY_AREA
        for _t, hut in picked:
            d, a = rng.uniform(3.0, 10.0), rng.uniform(0.0, 2 * math.pi)
            hut.x = min(max(hut.x + d * math.cos(a), x0), x1)
            hut.y = min(max(hut.y + d * math.sin(a), y0), y1)
            hut.angle = (hut.angle + rng.uniform(-15.0, 15.0)) % 180.0
        return [t for t, _h in picked]

    # ----- placing -----------------------------------------------------------------------------
    def _next(self) -> int:
        self._seq += 1
        return self._seq

    def _spot(self, t: int) -> tuple[float, float]:
        """A free spot for one more hut on t: spiral out from the centre (a Vogel spiral with a random
        phase), take the first spots that keep SPACING from other huts and chips within NEAR, and
        are nearer t's centre than any other territory's; relax that step by step up to FAR."""
        rng = self.rng
        cx, cy = self._centre[t]
        others = [(h.x, h.y) for pile in self.huts.values() for h in pile
                  if abs(h.x - cx) < FAR + 30 and abs(h.y - cy) < FAR + 30]
        chips = [(c.x, c.y) for c in self.chips.values() if abs(c.x - cx) < FAR + 40 and abs(c.y - cy) < FAR + 40]
        rivals = self._rivals[t]
        x0, y0, x1, y1 = PLAY_AREA
        phase = rng.uniform(0.0, 2 * math.pi)
        spots = []  # (r, gap, fair, x, y)
        for k in range(80):
            r = 6.0 * math.sqrt(k)
            if r > FAR:
                break
            a = phase + k * 2.399963  # the golden angle
            x = cx + r * math.cos(a) + rng.uniform(-1.5, 1.5)
            y = cy + r * math.sin(a) + rng.uniform(-1.5, 1.5)
            if not (x0 <= x <= x1 and y0 <= y <= y1):
                continue
            r = math.hypot(x - cx, y - cy)
            if r > FAR:
                continue
            gap = min((math.hypot(x - ox, y - oy) for ox, oy in others), default=1e9)
            gap = min(gap, min((math.hypot(x - ox, y - oy) - 10.0 for ox, oy in chips), default=1e9))
            fair = all(math.hypot(x - rx, y - ry) - 8.0 >= r for rx, ry in rivals)
            spots.append((r, gap, fair, x, y))
        for limit, spacing, need_fair in ((NEAR, SPACING, True), (38.0, 18.0, True), (FAR, 15.0, True),
                                          (FAR, 15.0, False)):
            ok = [s for s in spots if s[0] <= limit and s[1] >= spacing and (s[2] or not need_fair)]
            if ok:
                s = rng.choice(ok[:3])
                return s[3], s[4]
        if not spots:  # (a centre is never this close to the frame's edge)
            return cx, cy
        s = max(spots, key=lambda s: (s[2], s[1]))  # a big pile: the roomiest spot, huts overlap
        return s[3], s[4]

    def _chip_spot(self, t: int) -> tuple[float, float]:
        """Where the chip of a village on t lies: CHIP_OFFSET from the centre, on the side with most room."""
        cx, cy = self._centre[t]
        huts = [(h.x, h.y) for pile in self.huts.values() for h in pile
                if abs(h.x - cx) < 110 and abs(h.y - cy) < 110]
        chips = [(c.x, c.y) for c in self.chips.values()]
        x0, y0, x1, y1 = PLAY_AREA
        best, best_score = (cx, cy), -1e9
        phase = self.rng.uniform(0.0, 2 * math.pi)
        for r in (CHIP_OFFSET, CHIP_OFFSET + 6.0):
            for k in range(24):
                a = phase + k * math.pi / 12
                x, y = cx + r * math.cos(a), cy + r * math.sin(a)
                if not (x0 + CHIP_RADIUS <= x <= x1 - CHIP_RADIUS and y0 + CHIP_RADIUS <= y <= y1 - CHIP_RADIUS):
                    continue
                score = min((math.hypot(x - hx, y - hy) for hx, hy in huts), default=100.0)
                score = min(score, min((math.hypot(x - qx, y - qy) - 12.0 for qx, qy in chips), default=100.0))
                score -= (r - CHIP_OFFSET) * 0.5
                if score > best_score:
                    best, best_score = (x, y), score
        return best


def _vary(rgb: Sequence[int], rng: random.Random, amount: float = 0.05) -> tuple[int, int, int]:
    """A piece's own shade: the colour scaled a little, channel by channel and as a whole."""
    whole = rng.uniform(1 - amount * 1.4, 1 + amount * 1.4)
    return tuple(max(0, min(255, round(c * whole * rng.uniform(1 - amount, 1 + amount) + rng.uniform(-3, 3))))
                 for c in rgb)  # type: ignore[return-value]


# ----- the camera ----------------------------------------------------------------------------
def homography(src: Sequence[tuple[float, float]], dst: Sequence[tuple[float, float]]) -> tuple[float, ...]:
    """The 8 coefficients (a, b, c, d, e, f, g, h) of the projective map taking the 4 points `src`
    to the 4 points `dst` (the camera's own `perspective`): x' = (a x + b y + c) / (g x + h y + 1),
    y' = (d x + e y + f) / (g x + h y + 1). PIL's Image.PERSPECTIVE wants the map from OUTPUT
    pixels to INPUT pixels."""
    try:
        return tuple(perspective(src, dst))
    except ValueError:
        raise ValueError("degenerate points: three of them on a line") from None


def apply_homography(coeffs: Sequence[float], x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f, g, h = coeffs
    w = g * x + h * y + 1.0
    return (a * x + b * y + c) / w, (d * x + e * y + f) / w


@dataclass
class Camera:
    """Where the camera looks from, fixed for a game, and the scene around the board.

    `corners`: the exact photo positions of the frame's corners (0,0), (1200,0), (1200,800),
    (0,800); `tapped`: the same as a person tapped them (a few pixels off, see corner_error).
    `nadir` is the frame point straight below the lens: the top of a piece appears displaced
    away from it by (p - nadir) * lift per unit of the piece's height (a hut's ridge: 1).
    `shadow` is the frame vector from a hut to the tip of its shadow (the lamp is opposite).
    """

    size: tuple[int, int]
    corners: tuple[tuple[float, float], ...]
    tapped: tuple[tuple[float, float], ...]
    flipped: bool
    nadir: tuple[float, float]
    lift: float
    shadow: tuple[float, float]
    seed: int = 0  # the table's look (wood grain)
    to_frame_coeffs: tuple[float, ...] = field(init=False, repr=False)
    to_photo_coeffs: tuple[float, ...] = field(init=False, repr=False)
    _background: Image.Image | None = field(default=None, init=False, repr=False, compare=False)
    _mask: Image.Image | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.to_frame_coeffs = homography(self.corners, FRAME_CORNERS)
        self.to_photo_coeffs = homography(FRAME_CORNERS, self.corners)

    def to_photo(self, x: float, y: float) -> tuple[float, float]:
        """A board frame point's position in the photo."""
        return apply_homography(self.to_photo_coeffs, x, y)

    def to_frame(self, u: float, v: float) -> tuple[float, float]:
        """A photo point's position in the board frame."""
        return apply_homography(self.to_frame_coeffs, u, v)

    @property
    def scale(self) -> float:
        """Photo pixels per frame pixel, on average over the board."""
        c = self.corners
        top, bottom = math.dist(c[0], c[1]), math.dist(c[3], c[2])
        left, right = math.dist(c[0], c[3]), math.dist(c[1], c[2])
        return ((top + bottom) / 2400.0 + (left + right) / 1600.0) / 2

    def background(self) -> Image.Image:
        """The table around the board (wood grain, the board's shadow), made once per camera."""
        if self._background is None:
            self._background = _table_image(self)
        return self._background

    def mask(self) -> Image.Image:
        """Where the board is in the photo (L, 255 on the board, soft at its edge), made once."""
        if self._mask is None:
            self._mask = Image.new("L", FRAME, 255).transform(self.size, Image.PERSPECTIVE, self.to_frame_coeffs,
                                                               Image.BILINEAR, fillcolor=0)
        return self._mask


def random_camera(rng: random.Random, size: tuple[int, int] = (1280, 960), *, flip: bool | None = None,
                  corner_error: float = 0.0, fill: float | None = None, keystone: float | None = None,
                  angle: float | None = None) -> Camera:
    """A camera pose for one game: the board seen from above, its far edge shorter by `keystone`
    (0-25%), turned by `angle` degrees (small; plus 180 when `flip`, from the other side of the
    table), `fill` (60-95%) of the photo's width, somewhere in the photo; None draws each.
    `corner_error`: the tapped corners are off by up to that many photo pixels."""
    w, h = size
    flip = rng.random() < 0.25 if flip is None else flip
    fill = rng.uniform(0.6, 0.95) if fill is None else fill
    k = rng.uniform(0.0, 0.25) if keystone is None else keystone
    angle = rng.uniform(-6.0, 6.0) if angle is None else angle
    hh = (1.0 / 3.0) * (1.0 - 0.35 * k)  # the tilt also foreshortens the board
    far_l, far_r = (-0.5 * (1 - k), -hh), (0.5 * (1 - k), -hh)
    near_r, near_l = (0.5, hh), (-0.5, hh)
    quad = [near_r, near_l, far_l, far_r] if flip else [far_l, far_r, near_r, near_l]  # frame TL, TR, BR, BL
    quad = [(x + rng.uniform(-0.008, 0.008), y + rng.uniform(-0.008, 0.008)) for x, y in quad]  # a little skew
    ca, sa = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    quad = [(x * ca - y * sa, x * sa + y * ca) for x, y in quad]
    xs, ys = [p[0] for p in quad], [p[1] for p in quad]
    bw, bh = max(xs) - min(xs), max(ys) - min(ys)
    s = min(fill * w / bw, 0.97 * w / bw, 0.97 * h / bh)
    free_x, free_y = w - bw * s, h - bh * s
    left = rng.uniform(0.15, 0.85) * free_x - min(xs) * s
    top = rng.uniform(0.15, 0.85) * free_y - min(ys) * s
    corners = tuple((x * s + left, y * s + top) for x, y in quad)
    tapped = []
    for x, y in corners:
        d, a = rng.uniform(0.0, corner_error), rng.uniform(0.0, 2 * math.pi)
        tapped.append((x + d * math.cos(a), y + d * math.sin(a)))
    shadow_angle, shadow_len = rng.uniform(0.0, 2 * math.pi), rng.uniform(3.0, 7.0)
    camera = Camera(size, corners, tuple(tapped), flip, (0.0, 0.0), rng.uniform(0.008, 0.014),
                    (shadow_len * math.cos(shadow_angle), shadow_len * math.sin(shadow_angle)),
                    rng.randrange(1 << 30))
    # the lens is above the photo's centre tilted away from the near edge: its nadir is nearer the viewer
    camera.nadir = camera.to_frame(w / 2, h / 2 + h * (k / 0.25) * 0.8)
    return camera


_TABLE_WOODS = (((112, 74, 46), (158, 112, 72)), ((84, 56, 38), (126, 88, 58)), ((150, 118, 86), (192, 160, 120)),
                ((70, 64, 58), (104, 96, 86)), ((40, 70, 52), (60, 96, 72)))  # woods, a grey and a green cloth


def _table_image(camera: Camera) -> Image.Image:
    rng = random.Random(camera.seed)
    w, h = camera.size
    dark, light = rng.choice(_TABLE_WOODS)
    across = rng.random() < 0.5  # grain along x or along y
    gw, gh = (8, 160) if across else (160, 8)
    grain = Image.frombytes("L", (gw, gh), rng.randbytes(gw * gh)).resize((w, h), Image.BICUBIC)
    grain = grain.filter(ImageFilter.BoxBlur(1))
    table = ImageOps.colorize(ImageOps.autocontrast(grain, cutoff=2), dark, light)
    # the board stands a few millimetres above the table: its shadow
    shade = Image.new("L", camera.size, 0)
    dx, dy = camera.shadow[0] * camera.scale * 0.8, camera.shadow[1] * camera.scale * 0.8
    ImageDraw.Draw(shade).polygon([(x + dx, y + dy) for x, y in camera.corners], fill=150)
    shade = shade.filter(ImageFilter.GaussianBlur(4))
    return Image.composite(table.point(lambda v: v * 45 // 100), table, shade)


# ----- drawing the pieces ---------------------------------------------------------------------
def _q(v: float) -> float:
    """Quantised to a quarter pixel: sprites of pieces that did not move come from the cache."""
    return round(v * 4) / 4


def _shade(rgb: Sequence[int], f: float, add: float = 0.0) -> tuple[int, int, int]:
    return tuple(max(0, min(255, round(c * f + add))) for c in rgb)  # type: ignore[return-value]


def _hull(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    pts = sorted(set(points))
    if len(pts) < 3:
        return pts

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[tuple[float, float]] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[tuple[float, float]] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def _sprite_box(x: float, y: float, reach: float) -> tuple[int, int, int, float, float]:
    r = int(math.ceil(reach))
    ox, oy = int(math.floor(x)) - r, int(math.floor(y)) - r
    return ox, oy, 2 * r + 2, (x - ox) * _SUPER, (y - oy) * _SUPER


def _finish(sprite: Image.Image) -> Image.Image:
    """Reduce a 2x sprite to the frame's resolution (premultiplied, so edges blend right)."""
    return sprite.convert("RGBa").reduce(_SUPER).convert("RGBA")


@lru_cache(maxsize=4096)
def _hut_sprite(rgb: tuple[int, int, int], x: float, y: float, angle: float, length: float, width: float,
                tx: float, ty: float, sx: float, sy: float) -> tuple[Image.Image, int, int]:
    """A hut seen from above (RGBA, with its soft shadow) and where to paste it in the frame.
    (tx, ty): how far its ridge appears displaced from its footprint (parallax); (sx, sy): its shadow."""
    S = _SUPER
    ox, oy, n, cx, cy = _sprite_box(x, y, max(length, width) / 2 + max(abs(tx), abs(ty)) + max(abs(sx), abs(sy)) + 9)
    a = math.radians(angle)
    ux, uy = math.cos(a), math.sin(a)
    vx, vy = -uy, ux
    hl, hw = length / 2 * S, width / 2 * S

    def pt(cu: float, cv: float, lift: float) -> tuple[float, float]:
        return (cx + ux * cu + vx * cv + tx * S * lift, cy + uy * cu + vy * cv + ty * S * lift)

    base = [pt(hl, hw, 0), pt(-hl, hw, 0), pt(-hl, -hw, 0), pt(hl, -hw, 0)]
    eave_lift, over = 0.55, 1.07  # the walls' height (the ridge's is 1) and the roof's overhang
    eave = [pt(hl * over, hw * over, eave_lift), pt(-hl * over, hw * over, eave_lift),
            pt(-hl * over, -hw * over, eave_lift), pt(hl * over, -hw * over, eave_lift)]
    ridge = [pt(hl * over, 0, 1.0), pt(-hl * over, 0, 1.0)]

    shadow = Image.new("L", (n * S, n * S), 0)
    draw = ImageDraw.Draw(shadow)
    for i in range(5):
        f = i / 4
        draw.polygon([(px + sx * S * f, py + sy * S * f) for px, py in base], fill=255)
    shadow = shadow.filter(ImageFilter.BoxBlur(2.2 * S)).point(lambda v: v * 120 // 255)
    sprite = Image.new("RGBA", shadow.size, (0, 0, 0, 0))
    sprite.putalpha(shadow)

    draw = ImageDraw.Draw(sprite)
    wall = _shade(rgb, 0.62)
    edge = _shade(rgb, 0.42) + (255,)
    draw.polygon(_hull(base + eave), fill=wall + (255,))
    for end in ((0, 3, 0), (1, 2, 1)):  # the gable walls under the ridge's ends
        draw.polygon([eave[end[0]], eave[end[1]], ridge[end[2]]], fill=_shade(rgb, 0.7) + (255,))
    slen = math.hypot(sx, sy) or 1.0
    lx, ly = -sx / slen, -sy / slen  # towards the lamp
    planes = []
    for sign, poly in ((1, [eave[0], eave[1], ridge[1], ridge[0]]), (-1, [eave[3], eave[2], ridge[1], ridge[0]])):
        nx, ny = sign * vx, sign * vy  # the plane's outward direction, seen from above
        lit = nx * lx + ny * ly
        color = _shade(rgb, 0.84 + 0.14 * lit, 12.0 * max(lit, 0.0) + 5.0)
        facing = -(nx * tx + ny * ty)  # a plane turned towards the lens is drawn last
        planes.append((facing, poly, color))
    for _facing, poly, color in sorted(planes, key=lambda p: p[0]):
        draw.polygon(poly, fill=color + (255,), outline=edge, width=S)
    draw.line(ridge, fill=_shade(rgb, 0.38) + (255,), width=S + 1)
    return _finish(sprite), ox, oy


@lru_cache(maxsize=512)
def _chip_sprite(rgb: tuple[int, int, int], x: float, y: float, tx: float, ty: float, sx: float,
                 sy: float) -> tuple[Image.Image, int, int]:
    """A village chip: a flat wooden disc with a dark rim, its edge and its shadow."""
    S = _SUPER
    r = CHIP_RADIUS
    ox, oy, n, cx, cy = _sprite_box(x, y, r + max(abs(tx), abs(ty)) * 0.2 + max(abs(sx), abs(sy)) * 0.3 + 8)
    th = 0.15  # the chip's thickness, a fraction of a hut's height
    shadow = Image.new("L", (n * S, n * S), 0)
    draw = ImageDraw.Draw(shadow)
    sxs, sys_ = cx + sx * S * 0.3, cy + sy * S * 0.3
    draw.ellipse([sxs - r * S, sys_ - r * S, sxs + r * S, sys_ + r * S], fill=255)
    shadow = shadow.filter(ImageFilter.BoxBlur(1.5 * S)).point(lambda v: v * 100 // 255)
    sprite = Image.new("RGBA", shadow.size, (0, 0, 0, 0))
    sprite.putalpha(shadow)
    draw = ImageDraw.Draw(sprite)
    draw.ellipse([cx - r * S, cy - r * S, cx + r * S, cy + r * S], fill=CHIP_RIM + (255,))
    px, py = cx + tx * S * th, cy + ty * S * th
    draw.ellipse([px - r * S, py - r * S, px + r * S, py + r * S], fill=rgb + (255,), outline=CHIP_RIM + (255,),
                 width=2 * S)
    draw.ellipse([px - 0.45 * r * S, py - 0.45 * r * S, px + 0.45 * r * S, py + 0.45 * r * S],
                 outline=_shade(rgb, 0.8) + (255,), width=S)  # a ring pressed in the wood
    return _finish(sprite), ox, oy


def render_frame(table: Table | None, camera: Camera, things: Sequence["Thing"] = (),
                 glare: "Glare | None" = None) -> Image.Image:
    """The board with its pieces, in the board frame (1200x800 RGB), as this camera sees them
    (the parallax of the pieces' tops and the lamp's shadows depend on the camera). None: empty.
    `things` (a cup, a phone, a paw) are set down over the pieces; `glare` shines on the board."""
    frame = board_picture().copy()
    if glare is not None:
        frame = glare.shine(frame, 1.0 - glare.pieces)
    nx, ny = camera.nadir
    lift = camera.lift
    sx, sy = _q(camera.shadow[0]), _q(camera.shadow[1])
    for chip in table.chips.values() if table is not None else ():
        tx, ty = _q((chip.x - nx) * lift), _q((chip.y - ny) * lift)
        sprite, ox, oy = _chip_sprite(chip.rgb, _q(chip.x), _q(chip.y), tx, ty, sx, sy)
        frame.paste(sprite, (ox, oy), sprite)
    for _t, hut in table.all_huts() if table is not None else ():
        tx, ty = _q((hut.x - nx) * lift), _q((hut.y - ny) * lift)
        sprite, ox, oy = _hut_sprite(hut.rgb, _q(hut.x), _q(hut.y), round(hut.angle, 1), round(hut.length, 1),
                                     round(hut.width, 1), tx, ty, sx, sy)
        frame.paste(sprite, (ox, oy), sprite)
    for thing in things:
        sprite, ox, oy = _thing_sprite(thing, (thing.x - nx) * lift, (thing.y - ny) * lift, sx, sy)
        frame.paste(sprite, (ox, oy), sprite)
    if glare is not None:
        frame = glare.shine(frame, glare.pieces)
    return frame


# ----- the light, the lens, the sensor ----------------------------------------------------------
@dataclass(frozen=True)
class Look:
    """What one shot's light and sensor do to it. `gradient`: ("linear", angle, gain_from, gain_to)
    across the photo, or ("radial", cx, cy, gain_centre, gain_edge) with the centre as a fraction
    of the photo; `gain` and `warmth` (red up, blue down) the whole photo; `blur` a box radius in
    photo pixels (a slightly defocused lens); `noise` a gaussian sigma; `jpeg` a quality or None;
    `glare` a lamp's reflection on the board (`Glare`, in the board's frame), or None."""

    kind: str
    gradient: tuple
    gain: float
    warmth: float
    blur: float
    noise: float
    jpeg: int | None
    seed: int
    glare: "Glare | None" = None


def random_look(rng: random.Random, kind: str = "rough") -> Look:
    """A shot's conditions. Kinds: "clean" (a steady lamp, a good sensor), "light" (uneven light,
    0.7-1.2, and a changing lamp), "noise" (a noisy sensor, strong JPEG), "blur" (out of focus),
    "rough" (everything at once, anywhere in its range)."""
    if kind not in LOOKS:
        raise ValueError(f"unknown look {kind!r}: one of {', '.join(LOOKS)}")
    u = rng.uniform
    spread = {"clean": (0.95, 1.05), "light": (0.7, 1.2), "rough": (0.7, 1.2)}.get(kind, (0.9, 1.1))
    if kind in ("light", "rough") and rng.random() < 0.5:
        gradient: tuple = ("radial", u(0.2, 0.8), u(0.2, 0.8), u(1.0, spread[1]), u(spread[0], 0.95))
    else:
        gradient = ("linear", u(0.0, 360.0), u(*spread), u(*spread))
    if kind == "clean":
        gain, warmth, blur, noise, jpeg = u(0.97, 1.03), u(-0.01, 0.01), u(0.0, 0.3), 2.0, rng.randint(88, 92)
    elif kind == "light":
        gain, warmth, blur, noise, jpeg = u(0.85, 1.15), u(-0.05, 0.05), u(0.0, 0.4), u(2.0, 3.0), rng.randint(85, 92)
    elif kind == "noise":
        gain, warmth, blur, noise, jpeg = u(0.95, 1.05), u(-0.02, 0.02), u(0.0, 0.3), u(5.0, 8.0), rng.randint(60, 75)
    elif kind == "blur":
        gain, warmth, blur, noise, jpeg = u(0.95, 1.05), u(-0.02, 0.02), u(0.8, 1.5), u(2.0, 4.0), rng.randint(80, 92)
    else:
        gain, warmth, blur, noise, jpeg = u(0.85, 1.15), u(-0.05, 0.05), u(0.0, 1.5), u(2.0, 8.0), rng.randint(60, 92)
    return Look(kind, gradient, gain, warmth, blur, noise, jpeg, rng.randrange(1 << 30))


_GAIN_TOP = 1.25  # the gain map is stored as gain / _GAIN_TOP in 8 bits, the rest is in the channels' tables


def _gain_map(look: Look, size: tuple[int, int]) -> Image.Image:
    gw, gh = 32, 24
    values = []
    g = look.gradient
    if g[0] == "linear":
        _, angle, g0, g1 = g
        dx, dy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        lo = min(0.0, dx) + min(0.0, dy)
        hi = max(0.0, dx) + max(0.0, dy)
        for j in range(gh):
            for i in range(gw):
                t = ((i / (gw - 1)) * dx + (j / (gh - 1)) * dy - lo) / (hi - lo)
                values.append(g0 + (g1 - g0) * t)
    else:
        _, cx, cy, gc, ge = g
        for j in range(gh):
            for i in range(gw):
                d = min(1.0, math.hypot(i / (gw - 1) - cx, j / (gh - 1) - cy) / 0.8)
                values.append(gc + (ge - gc) * d * d)
    small = Image.new("L", (gw, gh))
    small.putdata([max(0, min(255, round(v / _GAIN_TOP * 255))) for v in values])
    return small.resize(size, Image.BILINEAR)


@lru_cache(maxsize=64)
def _noise_table(sigma: float) -> list[int]:
    """Uniform bytes -> gaussian noise around 128 with this sigma (the inverse normal CDF)."""
    nd = NormalDist()
    one = [max(0, min(255, round(128 + sigma * nd.inv_cdf((u + 0.5) / 256)))) for u in range(256)]
    return one * 3


def apply_look(photo: Image.Image, look: Look) -> Image.Image:
    """The shot's light (gain map, gain, colour temperature), lens blur, sensor noise and JPEG."""
    size = photo.size
    gain = _gain_map(look, size)
    photo = ImageChops.multiply(photo, Image.merge("RGB", (gain, gain, gain)))
    table: list[int] = []
    for f in (1 + look.warmth, 1 + look.warmth * 0.3, 1 - look.warmth):
        f *= _GAIN_TOP * look.gain
        table += [min(255, round(v * f)) for v in range(256)]
    photo = photo.point(table)
    if look.blur >= 0.25:  # (a box narrower than that hardly changes a pixel)
        photo = photo.filter(ImageFilter.BoxBlur(look.blur))
    if look.noise > 0:
        rng = random.Random(look.seed)
        noise = Image.frombytes("RGB", size, rng.randbytes(size[0] * size[1] * 3)).point(_noise_table(round(look.noise, 1)))
        photo = ImageChops.add(photo, noise, 1.0, -128)
    if look.jpeg:
        buf = io.BytesIO()
        photo.save(buf, "JPEG", quality=look.jpeg)
        photo = Image.open(io.BytesIO(buf.getvalue()))
        photo = photo.convert("RGB")
    return photo


# ----- a hand over the board ------------------------------------------------------------------
_SKINS = ((224, 172, 140), (236, 196, 164), (198, 140, 106), (160, 108, 76), (112, 72, 50))
_SLEEVES = ((40, 48, 70), (120, 30, 34), (90, 90, 96), (200, 200, 196), (46, 84, 60))


@dataclass
class Hand:
    """An arm reaching in from `start` (a point just outside the photo) with its palm over `palm`
    (photo pixels); `size` is the palm's width in photo pixels. Drawn with its soft shadow."""

    start: tuple[float, float]
    palm: tuple[float, float]
    size: float
    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int] | None
    fingers: tuple[float, ...]  # each finger's length, a fraction of `size` (a curled finger is short)
    spread: float  # degrees between fingers
    thumb_side: int  # +1 or -1
    shadow: tuple[float, float]  # the shadow's offset in photo pixels
    shadow_gain: float  # how much light the shadow leaves
    _masks: dict = field(default_factory=dict, repr=False, compare=False)

    def _geometry(self) -> list[tuple[str, tuple[float, float], tuple[float, float], float]]:
        """Capsules (part, from, to, width) making up the arm and hand."""
        (x0, y0), (px, py), s = self.start, self.palm, self.size
        d = math.hypot(px - x0, py - y0) or 1.0
        dx, dy = (px - x0) / d, (py - y0) / d
        qx, qy = -dy, dx
        wrist = (px - dx * 0.45 * s, py - dy * 0.45 * s)
        parts = [("arm", (x0 - dx * s, y0 - dy * s), wrist, 0.78 * s),
                 ("palm", (px - dx * 0.2 * s, py - dy * 0.2 * s), (px + dx * 0.22 * s, py + dy * 0.22 * s), 0.95 * s)]
        for i, length in enumerate(self.fingers):
            off = (i - 1.5)
            a = math.radians(self.spread * off)
            fx = dx * math.cos(a) - dy * math.sin(a)
            fy = dx * math.sin(a) + dy * math.cos(a)
            bx = px + dx * 0.4 * s + qx * off * 0.22 * s
            by = py + dy * 0.4 * s + qy * off * 0.22 * s
            parts.append(("finger", (bx, by), (bx + fx * length * s, by + fy * length * s), 0.19 * s))
        side = self.thumb_side
        a = math.radians(55 * side)
        tx = dx * math.cos(a) - dy * math.sin(a)
        ty = dx * math.sin(a) + dy * math.cos(a)
        bx, by = px + qx * side * 0.35 * s - dx * 0.1 * s, py + qy * side * 0.35 * s - dy * 0.1 * s
        parts.append(("thumb", (bx, by), (bx + tx * 0.5 * s, by + ty * 0.5 * s), 0.24 * s))
        return parts

    def mask(self, size: tuple[int, int]) -> Image.Image:
        """Where the hand is in a photo of this size (L, 255 under the hand), soft-edged."""
        if size not in self._masks:
            mask = Image.new("L", size, 0)
            draw = ImageDraw.Draw(mask)
            for _part, a, b, w in self._geometry():
                _capsule(draw, a, b, w, 255)
            self._masks[size] = mask.filter(ImageFilter.BoxBlur(1))
        return self._masks[size]

    def covers(self, camera: Camera, xy: tuple[float, float], radius: float = 20.0) -> bool:
        """Whether the hand hides any of 9 points within `radius` frame pixels of the frame point xy."""
        mask = self.mask(camera.size)
        w, h = camera.size
        for dx, dy in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1), (0.7, 0.7), (-0.7, 0.7), (0.7, -0.7), (-0.7, -0.7)):
            u, v = camera.to_photo(xy[0] + dx * radius, xy[1] + dy * radius)
            if 0 <= u < w and 0 <= v < h and mask.getpixel((int(u), int(v))) > 128:
                return True
        return False

    def draw(self, photo: Image.Image) -> Image.Image:
        """The photo with the hand's shadow and the hand on it (a new image)."""
        size = photo.size
        mask = self.mask(size)
        small = mask.resize((size[0] // 4, size[1] // 4), Image.BILINEAR)
        shadow = Image.new("L", small.size, 0)
        shadow.paste(small, (round(self.shadow[0] / 4), round(self.shadow[1] / 4)))
        shadow = shadow.filter(ImageFilter.GaussianBlur(max(1.0, self.size / 40))).resize(size, Image.BILINEAR)
        dark = photo.point(lambda v: round(v * self.shadow_gain))
        photo = Image.composite(dark, photo, shadow)
        color = Image.new("RGB", size, _shade(self.skin, 0.9))
        draw = ImageDraw.Draw(color)
        parts = self._geometry()
        arm = parts[0]
        _capsule(draw, arm[1], arm[2], arm[3], _shade(self.skin, 0.8))
        if self.sleeve is not None:
            (ax, ay), (bx, by) = arm[1], arm[2]
            f = 0.55
            _capsule(draw, (ax, ay), (ax + (bx - ax) * f, ay + (by - ay) * f), arm[3] * 1.15, self.sleeve)
        for part, a, b, w in parts[1:]:
            _capsule(draw, a, b, w, _shade(self.skin, 0.95 if part == "palm" else 0.88))
            _capsule(draw, a, b, w * 0.45, _shade(self.skin, 1.06, 6))  # the light on its top
        color = color.filter(ImageFilter.BoxBlur(max(1.0, self.size / 30)))
        photo.paste(color, (0, 0), mask)
        return photo


def _capsule(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], width: float, fill) -> None:
    r = width / 2
    draw.line([a, b], fill=fill, width=max(1, round(width)))
    for x, y in (a, b):
        draw.ellipse([x - r, y - r, x + r, y + r], fill=fill)


def random_hand(rng: random.Random, camera: Camera, over: tuple[float, float] | None = None) -> Hand:
    """A hand over the board, its palm over the frame point `over` (None: anywhere on the board),
    its arm coming in from an edge of the photo (mostly the near one or a side)."""
    w, h = camera.size
    if over is None:
        over = (rng.uniform(60.0, 980.0), rng.uniform(60.0, 740.0))
    px, py = camera.to_photo(*over)
    board_width = (math.dist(camera.corners[0], camera.corners[1]) + math.dist(camera.corners[3], camera.corners[2])) / 2
    size = board_width * rng.uniform(0.13, 0.18)
    px += rng.uniform(-0.2, 0.2) * size
    py += rng.uniform(-0.2, 0.2) * size
    edge = rng.choices(("bottom", "left", "right", "top"), (5, 2, 2, 1))[0]
    along = rng.uniform(-0.3, 0.3)
    out = 0.1 * size
    if edge == "bottom":
        start = (min(max(px + along * w, 0.0), w), h + out)
    elif edge == "top":
        start = (min(max(px + along * w, 0.0), w), -out)
    elif edge == "left":
        start = (-out, min(max(py + along * h, 0.0), h))
    else:
        start = (w + out, min(max(py + along * h, 0.0), h))
    fingers = tuple(rng.uniform(0.45, 0.75) * (0.5 if rng.random() < 0.15 else 1.0) for _ in range(4))
    sx, sy = camera.shadow
    sl = math.hypot(sx, sy) or 1.0
    reach = size * rng.uniform(0.15, 0.45)
    # (the shadow falls away from the lamp; in the photo, roughly the frame's direction turned with the board)
    (ax, ay), (bx, by) = camera.to_photo(600, 400), camera.to_photo(600 + sx / sl * 50, 400 + sy / sl * 50)
    dl = math.hypot(bx - ax, by - ay) or 1.0
    return Hand(start, (px, py), size, _vary(rng.choice(_SKINS), rng, 0.04),
                rng.choice(_SLEEVES) if rng.random() < 0.6 else None, fingers, rng.uniform(6.0, 16.0),
                rng.choice((1, -1)), ((bx - ax) / dl * reach, (by - ay) / dl * reach), rng.uniform(0.55, 0.8))


# ----- a table's life: things set down on the board, dusk, a lamp's glare -------------------------
THINGS = ("cup", "phone", "paw")
_CUPS = ((236, 234, 226), (226, 212, 186), (38, 38, 42), (166, 42, 40), (50, 82, 150), (62, 122, 80),
         (224, 182, 58))  # white, cream, black, and mugs in the huts' own colours
_PHONES = ((24, 24, 28), (40, 46, 64), (204, 204, 208), (150, 40, 60), (72, 104, 84))  # the case
_FURS = ((204, 128, 66), (128, 124, 120), (36, 32, 30), (232, 228, 218), (142, 104, 70))  # ginger, grey, black, ...
_COFFEE = (58, 34, 20)
_SCREEN = (18, 20, 24)


@dataclass(frozen=True)
class Thing:
    """Something that is not a piece, set down on the board: a "cup" (from above: its rim, the coffee
    in it or its empty inside, its side and its handle), a "phone" lying flat (its case and dark
    screen) or a cat's "paw" (fur, four toes, the leg going off towards `angle`). `x`, `y`: where it
    stands (frame pixels, about 0.5 mm each); `size`: the cup's base, the phone's width, the paw's
    width; `length`: the cup's handle, the phone's length, the leg; `height` in huts' heights (its
    top's parallax and its shadow); `inner`: the coffee or the cup's inside, the screen, the fur's
    second colour (a tabby's stripes)."""

    kind: str
    x: float
    y: float
    size: float
    length: float
    angle: float
    height: float
    rgb: tuple[int, int, int]
    inner: tuple[int, int, int]
    seed: int

    def describe(self) -> str:
        return f"{self.kind} {self.size / 20:.1f} cm"


def random_thing(rng: random.Random, xy: tuple[float, float], kind: str | None = None) -> Thing:
    """A cup (base 5.5-8.5 cm, 6-10 cm tall), a phone (6.5-7.8 x 13.5-16.5 cm) or a cat's paw
    (3.5-5 cm, its leg 0-7 cm long on the board) set down within 15 frame px of `xy`."""
    kind = kind or rng.choice(THINGS)
    if kind not in THINGS:
        raise ValueError(f"unknown thing {kind!r}: one of {', '.join(THINGS)}")
    d, a = rng.uniform(0.0, 15.0), rng.uniform(0.0, 2 * math.pi)
    x, y = xy[0] + d * math.cos(a), xy[1] + d * math.sin(a)
    angle = rng.uniform(0.0, 360.0)
    if kind == "cup":
        size = rng.uniform(110.0, 170.0)
        rgb = _vary(rng.choice(_CUPS), rng, 0.04)
        inner = _vary(_COFFEE, rng, 0.08) if rng.random() < 0.6 else _shade(rgb, 0.7)
        return Thing(kind, x, y, size, size * rng.uniform(0.3, 0.4), angle, rng.uniform(5.0, 8.0), rgb, inner,
                     rng.randrange(1 << 30))
    if kind == "phone":
        return Thing(kind, x, y, rng.uniform(130.0, 156.0), rng.uniform(270.0, 330.0), angle, rng.uniform(0.6, 0.8),
                     _vary(rng.choice(_PHONES), rng, 0.04), _vary(_SCREEN, rng, 0.1), rng.randrange(1 << 30))
    fur = _vary(rng.choice(_FURS), rng, 0.05)
    inner = _shade(fur, 0.62) if rng.random() < 0.5 else fur
    return Thing(kind, x, y, rng.uniform(70.0, 100.0), rng.uniform(0.0, 140.0), angle, rng.uniform(1.5, 2.5), fur,
                 inner, rng.randrange(1 << 30))


def _thing_sprite(thing: Thing, tx: float, ty: float, sx: float, sy: float) -> tuple[Image.Image, int, int]:
    """A thing seen from above (RGBA, with its soft shadow) and where to paste it in the frame.
    (tx, ty): its top's displacement per hut height (parallax); (sx, sy): a hut's shadow."""
    S = _SUPER
    h = thing.height
    lean = (abs(tx) + abs(ty) + abs(sx) + abs(sy)) * h
    if thing.kind == "cup":
        reach = thing.size * 0.56 + thing.length + lean + 10
    elif thing.kind == "phone":
        reach = 0.5 * math.hypot(thing.size, thing.length) + lean + 10
    else:
        reach = thing.size * 0.8 + thing.length + lean + 10
    ox, oy, n, cx, cy = _sprite_box(thing.x, thing.y, reach)
    a = math.radians(thing.angle)
    ux, uy = math.cos(a), math.sin(a)
    vx, vy = -uy, ux

    def pt(cu: float, cv: float, lift: float) -> tuple[float, float]:
        return (cx + (ux * cu + vx * cv + tx * lift) * S, cy + (uy * cu + vy * cv + ty * lift) * S)

    def ring(cu: float, cv: float, r: float, lift: float, stretch: float = 1.0) -> list[tuple[float, float]]:
        return [pt(cu + r * stretch * math.cos(t), cv + r * math.sin(t), lift)
                for t in (2 * math.pi * k / 32 for k in range(32))]

    if thing.kind == "cup":
        r = thing.size / 2
        foot = ring(0, 0, r, 0)
        rim = ring(0, 0, r * 1.12, h)
        shapes = [foot]
    elif thing.kind == "phone":
        hw, hl = thing.size / 2, thing.length / 2
        corners = [(hl, hw), (-hl, hw), (-hl, -hw), (hl, -hw)]
        foot = [pt(u, v, 0) for u, v in corners]
        top = [pt(u, v, h) for u, v in corners]
        shapes = [foot]
    else:
        w = thing.size
        pad = ring(0, 0, w / 2, h * 0.5, 1.1)
        leg = [pt(0, -w * 0.42, h), pt(thing.length, -w * 0.42, h * 1.4), pt(thing.length, w * 0.42, h * 1.4),
               pt(0, w * 0.42, h)]
        toes = [ring(-w * 0.55, (k - 1.5) * w * 0.24, w * 0.15, h * 0.4) for k in range(4)]
        shapes = [pad, leg, *toes]

    shadow = Image.new("L", (n * S, n * S), 0)
    draw = ImageDraw.Draw(shadow)
    steps = max(2, round(h * 2))
    for i in range(steps + 1):
        f = h * i / steps
        for poly in shapes:
            draw.polygon([(x + sx * S * f, y + sy * S * f) for x, y in poly], fill=255)
    shadow = shadow.filter(ImageFilter.BoxBlur(3 * S)).point(lambda v: v * 110 // 255)
    sprite = Image.new("RGBA", shadow.size, (0, 0, 0, 0))
    sprite.putalpha(shadow)
    draw = ImageDraw.Draw(sprite)
    rgb = thing.rgb
    if thing.kind == "cup":
        r = thing.size / 2
        draw.polygon(_hull(foot + rim), fill=_shade(rgb, 0.72) + (255,))
        hx, hy = math.cos(a + 1.0), math.sin(a + 1.0)  # the handle, off the rim's side
        base = pt(hx * r * 1.0, hy * r * 1.0, h * 0.6)
        end = pt(hx * (r + thing.length), hy * (r + thing.length), h * 0.6)
        _capsule(draw, base, end, thing.size * 0.14 * S, _shade(rgb, 0.85) + (255,))
        draw.polygon(rim, fill=_shade(rgb, 1.04, 8) + (255,))
        draw.polygon(ring(0, 0, r * 0.98, h), fill=thing.inner + (255,))
        draw.polygon(ring(r * 0.25, -r * 0.2, r * 0.22, h), fill=_shade(thing.inner, 1.15, 10) + (255,))
    elif thing.kind == "phone":
        draw.polygon(_hull(foot + top), fill=_shade(rgb, 0.6) + (255,))
        draw.polygon(top, fill=rgb + (255,))
        hw, hl = thing.size / 2 - 6, thing.length / 2 - 16
        screen = [pt(u, v, h) for u, v in ((hl, hw), (-hl, hw), (-hl, -hw), (hl, -hw))]
        draw.polygon(screen, fill=thing.inner + (255,))
        draw.polygon([screen[0], screen[1], pt(-hl, 0, h)], fill=_shade(thing.inner, 1.2, 12) + (255,))
    else:
        mask = Image.new("L", sprite.size, 0)
        md = ImageDraw.Draw(mask)
        for poly in shapes:
            md.polygon(poly, fill=255)
        trng = random.Random(thing.seed)
        gw = max(4, n // 6)
        texture = Image.frombytes("L", (gw, gw), trng.randbytes(gw * gw)).resize(sprite.size, Image.BICUBIC)
        fur = ImageOps.colorize(ImageOps.autocontrast(texture), _shade(rgb, 0.8), _shade(rgb, 1.12, 6))
        if thing.inner != rgb:  # a tabby: darker stripes across the leg
            stripes = Image.new("L", sprite.size, 0)
            sd = ImageDraw.Draw(stripes)
            for k in range(-3, 8):
                u = k * thing.size * 0.28
                sd.line([pt(u, -thing.size, h), pt(u, thing.size, h)], fill=200, width=round(thing.size * 0.08 * S))
            fur = Image.composite(Image.new("RGB", sprite.size, thing.inner), fur, stripes.filter(ImageFilter.BoxBlur(2 * S)))
        sprite.paste(fur, (0, 0), mask)
    return _finish(sprite), ox, oy


@dataclass(frozen=True)
class Glare:
    """A lamp's reflection on the board, fixed while the lamp and the camera stay: a soft bright
    ellipse at (x, y) in the board's frame, radii `rx`, `ry` (frame pixels) turned by `angle`
    degrees, adding up to `strength` of the lamp's colour `rgb` (over 255: its core is clipped
    white). The board's print shines; the matt wooden pieces, whose faces look elsewhere, take
    only `pieces` of it (1: all of it, as a glare painted over a finished photo would)."""

    x: float
    y: float
    rx: float
    ry: float
    angle: float
    strength: float
    rgb: tuple[int, int, int]
    pieces: float = 0.0

    def shine(self, image: Image.Image, share: float = 1.0) -> Image.Image:
        """The frame `image` with `share` of the glare added (a new image)."""
        reach = 2.2 * max(self.rx, self.ry)
        x0, y0 = max(0, int(self.x - reach)), max(0, int(self.y - reach))
        x1, y1 = min(image.size[0], int(self.x + reach) + 1), min(image.size[1], int(self.y + reach) + 1)
        strength = self.strength * share
        if x1 <= x0 or y1 <= y0 or strength <= 0:
            return image
        a = math.radians(self.angle)
        ca, sa = math.cos(a), math.sin(a)
        core = [(self.x - x0 + 0.6 * (self.rx * math.cos(t) * ca - self.ry * math.sin(t) * sa),
                 self.y - y0 + 0.6 * (self.rx * math.cos(t) * sa + self.ry * math.sin(t) * ca))
                for t in (2 * math.pi * k / 48 for k in range(48))]
        mask = Image.new("L", (x1 - x0, y1 - y0), 0)
        ImageDraw.Draw(mask).polygon(core, fill=255)
        mask = mask.filter(ImageFilter.GaussianBlur(0.45 * min(self.rx, self.ry)))
        light = Image.merge("RGB", [mask.point(lambda v, c=c: min(255, round(v * strength * c / 255 / 255)))
                                    for c in self.rgb])
        image = image.copy()
        box = (x0, y0, x1, y1)
        image.paste(ImageChops.add(image.crop(box), light), box)
        return image


def random_glare(rng: random.Random, over: tuple[float, float]) -> Glare:
    """A lamp's glare near the frame point `over` (within 25 frame px): 3.5-9 cm across its halo, up
    to 1.8 times as long as wide, its core clipped white or nearly; on the pieces 0-35% of it, or
    (3 times in 10) all of it."""
    d, a = rng.uniform(0.0, 25.0), rng.uniform(0.0, 2 * math.pi)
    r = rng.uniform(35.0, 90.0)
    lamp = rng.choice(((255, 250, 236), (255, 238, 204), (246, 248, 255)))
    pieces = 1.0 if rng.random() < 0.3 else rng.uniform(0.0, 0.35)
    return Glare(over[0] + d * math.cos(a), over[1] + d * math.sin(a), r, r * rng.uniform(1.0, 1.8),
                 rng.uniform(0.0, 180.0), rng.uniform(180.0, 420.0), lamp, pieces)


DUSK_GAIN = 0.86  # at dusk's full depth the light is this much dimmer than by day (a webcam's exposure no longer keeps up)
DUSK_WARMTH = 0.45  # ... and this much warmer (the room's lamps over the last daylight)
DUSK_NOISE = 5.0  # ... and the sensor's noise this much stronger (its gain up)


def dusk_look(rng: random.Random, depth: float, day: Look | None = None) -> Look:
    """A shot as the day goes: the `day`'s look (a "light" look: the room's uneven light, the lens;
    None draws one) `depth` into dusk: 0 is daylight, 1 far into dusk (the light DUSK_GAIN dimmer,
    DUSK_WARMTH warmer, the sensor's noise DUSK_NOISE stronger). Two shots of one evening share
    their `day`, and only their depth and their noise differ."""
    depth = min(1.0, max(0.0, depth))
    day = day if day is not None else random_look(rng, "light")
    return replace(day, kind="dusk", gain=day.gain * (1 - DUSK_GAIN * depth), warmth=day.warmth + DUSK_WARMTH * depth,
                   noise=day.noise + DUSK_NOISE * depth, seed=rng.randrange(1 << 30))


# ----- the photograph ---------------------------------------------------------------------------
def photograph(table: Table | None, camera: Camera, look: Look, hand: Hand | None = None,
               things: Sequence[Thing] = ()) -> tuple[Image.Image, list[tuple[float, float]]]:
    """A photo (RGB, camera.size) of the table (None: the empty board) under `look`, with `hand`
    over it and `things` set down on the board if given; and the board frame's corners in it as
    tapped (camera.tapped)."""
    frame = render_frame(table, camera, things, look.glare)
    coeffs = camera.to_frame_coeffs
    if camera.scale < 0.55:  # a small photo: halve the frame first (the bilinear map does not average)
        frame = frame.reduce(2)
        coeffs = tuple(c / 2 for c in coeffs[:6]) + tuple(coeffs[6:])
    board = frame.transform(camera.size, Image.PERSPECTIVE, coeffs, Image.BILINEAR)
    photo = camera.background().copy()
    photo.paste(board, (0, 0), camera.mask())
    if hand is not None:
        photo = hand.draw(photo)
    return apply_look(photo, look), list(camera.tapped)
