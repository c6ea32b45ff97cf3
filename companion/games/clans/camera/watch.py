"""The camera at the table: from a stream of photographs to what the box should say.

Pure: each frame comes with the time it was taken and the table's position (`Position`: a copy
of the game and its phase); out comes at most one `Seen` per still spell and position.

- Stillness: each frame, reduced to a small picture, is compared with the one before; a
  frame where more than `STILL_SHARE` of the pixels moved starts the spell again. A picture
  still for `still_s` is judged once (and again when the position changes under it: a move
  confirmed, taken back).
- The empty board: while the table answers the questions before the huts go down ("empty"
  phase), the still view is the reference for "nothing here" (`Seen("empty")`: the kiosk keeps
  that photograph, the only one it keeps).
- The anchor: the view of the board that agrees with the current position: every territory
  with huts holds something, every bare one (not a village: its chip stays) looks like the
  empty board. The first still view that agrees becomes the anchor; until then the table is
  still doing what the box said (huts removed, a chip put down), `Seen("waiting")`.
- After a move (confirmed with `#`, typed or a bot's), the first still view is checked against
  the view before it: when it shows another legal move, `Seen("mismatch")` names it ("the board
  shows 12 -> 14"), and the box does not anchor on it.
- A moved camera: when the whole picture differs from the empty board's (not a part of it, as huts,
  a hand or a lamp make it), the board no longer lies where the corners say (`Seen("moved")`, once, until new corners or the board agrees).
- While a person is to move ("move" phase) a still view that differs from the anchor is judged
  (companion.games.clans.camera.propose): one legal move is `Seen("proposal")`, anything else
  `Seen("unsure")` with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from PIL import Image, ImageChops, ImageFilter, ImageStat

from companion.games.clans.camera.geometry import BOARD_FRAME, BOARD_VIEW, Point, check_corners, perspective, to_board
from companion.games.clans.camera.propose import judge
from companion.games.clans.camera.views import Detail, change, detail, shares
from companion.games.clans.game import Game

STILL_SIZE = (160, 120)  # the small picture stillness is measured on (a hut: a few pixels of it)
STILL_LEVEL = 32  # a pixel of it moved when it changed by this much (0-255)
STILL_SHARE = 0.004  # more than this share of its pixels moved: not still (a hand, a sleeve)
STILL_S = 1.0  # still this long: judged
CHANGED_PIXELS = 6  # this many pixels of it changed since the picture was judged: judged again (a hut moved)
HOLDS = 0.010  # a territory with huts differs from the empty board by at least this share ...
BARE = 0.035  # ... and a bare one by at most this (measured: 0.024 and 0.022 at worst)
MOVED_MEDIAN = 30  # the median change from the empty board above this: the camera moved

PHASES = ("empty", "move", "other")


@dataclass(frozen=True)
class Position:
    """What the table is at: `game` (the watcher's own copy) and `phase`: "empty" (the questions
    before the huts go down), "move" (a person is to move), "other" (anything else)."""

    game: Game | None
    phase: str

    def key(self) -> tuple:
        g = self.game
        return (self.phase, None if g is None else tuple((m.frm, m.to) for m in g.moves))


@dataclass(frozen=True)
class Seen:
    """What the watcher saw: `kind` is "empty", "waiting", "anchored", "mismatch", "proposal",
    "unsure", "no_empty" or "moved" (the camera: the board no longer lies where the corners say); `ply` the position's; `move` the move shown (mismatch, proposal);
    `territories` those that disagree with the position (waiting)."""

    kind: str
    ply: int
    move: tuple[int, int] | None = None
    reason: str = ""
    territories: tuple[int, ...] = ()


def disagreements(game: Game, share: dict[int, float]) -> list[int]:
    """The territories whose look (`share`: each one's difference from the empty board) disagrees with
    `game`: huts that look bare, bare ones that hold something."""
    held = set(game.occupied())
    return sorted(t for t, s in share.items()
                  if (s < HOLDS if t in held else s > BARE and not game.is_village(t)))


def camera_moved(diff: Image.Image) -> bool:
    """True when the board's whole picture differs from the empty board's (`diff`, their change): the
    picture moved under the corners. Huts, a hand or a lamp change a part of it: the median pixel
    stays near the noise (3-15 measured; a moved camera 60-72)."""
    return ImageStat.Stat(diff).median[0] > MOVED_MEDIAN


def still_picture(photo: Image.Image) -> Image.Image:
    return photo.convert("RGB").resize(STILL_SIZE, Image.Resampling.BOX).filter(ImageFilter.GaussianBlur(1))


def changed_pixels(a: Image.Image, b: Image.Image) -> int:
    """How many pixels changed by STILL_LEVEL or more in any colour from `a` to `b` (a yellow hut on
    the light board barely changes the grey)."""
    r, g, b_ = ImageChops.difference(a, b).split()
    return sum(ImageChops.lighter(ImageChops.lighter(r, g), b_).histogram()[STILL_LEVEL:])


def moved(a: Image.Image, b: Image.Image) -> bool:
    """True when more than STILL_SHARE of the pixels changed from `a` to `b`."""
    return changed_pixels(a, b) > STILL_SHARE * a.width * a.height


class Watcher:
    """Frames in (`frame`), what to say out (see the module docstring)."""

    def __init__(self, corners: Sequence[Point] | None, empty: Image.Image | None = None,
                 still_s: float = STILL_S) -> None:
        self.corners = None if corners is None else check_corners(corners)  # None: nothing is judged
        self.still_s = still_s
        self.ref: Detail | None = None  # the empty board's detail, in the board's frame
        self.empty_view: Image.Image | None = None  # ... and its view (RGB, BOARD_VIEW): the camera's pose is gone
        self.empty_raw: Image.Image | None = None  # a photograph of it waiting for the corners
        if empty is not None:
            self.set_empty(empty)
        self.last: Image.Image | None = None  # the previous frame's still picture
        self.still_since = 0.0
        self.judged: tuple | None = None  # the position key this still spell was judged at
        self.seen: Image.Image | None = None  # ... and its picture
        self.anchor: Detail | None = None
        self.anchor_game: Game | None = None
        self.checked: tuple | None = None  # the position whose move was checked
        self.told_moved = False  # "the camera moved" was said (once, until the board agrees again)

    def view(self, photo: Image.Image) -> Detail:
        return detail(to_board(photo, self.corners))

    def set_empty(self, photo: Image.Image) -> None:
        """A photograph of the empty board (the questions', or one kept by an earlier run)."""
        if self.corners is None:
            self.empty_raw = photo
            return
        self.set_empty_view(to_board(photo, self.corners))

    def set_empty_view(self, view: Image.Image) -> None:
        """The empty board in the board's frame (`kept_empty`), whatever the camera's pose."""
        self.empty_view = view.convert("RGB").resize(BOARD_VIEW)
        self.ref, self.empty_raw = detail(self.empty_view), None

    def load_empty(self, picture: Image.Image) -> None:
        """A kept picture of the empty board: a view (`kept_empty`), or a photograph (an older run's)."""
        if picture.size == BOARD_VIEW:
            self.set_empty_view(picture)
        else:
            self.set_empty(picture)

    def kept_empty(self) -> Image.Image | None:
        """What to keep of the empty board across restarts: its view in the board's frame, which a
        moved camera (new corners) still measures against."""
        return self.empty_view

    @staticmethod
    def corners_problem(corners: Sequence[Point], size: tuple[int, int] | None = None) -> str | None:
        """Why `corners` make no board in a picture of `size` (None: they do)."""
        try:
            check_corners(corners, size)
        except ValueError as exc:
            return str(exc)
        return None

    def set_corners(self, corners: Sequence[Point]) -> None:
        """New corners (the camera moved, or a player tapped them): every view is measured anew; the empty
        board's view, in the board's frame, stays."""
        self.corners = check_corners(corners)
        if self.ref is None and self.empty_raw is not None:  # the empty board's photograph, now placed
            self.set_empty(self.empty_raw)
        self.anchor, self.anchor_game, self.judged, self.told_moved = None, None, None, False

    def frame(self, photo: Image.Image, now: float, position: Position) -> Seen | None:
        """One frame at time `now` with the table at `position`: what to say, if anything."""
        small = still_picture(photo)
        if self.last is None or self.last.size != small.size or moved(self.last, small) or (
                self.seen is not None and changed_pixels(self.seen, small) >= CHANGED_PIXELS):
            self.still_since, self.judged, self.seen = now, None, None
        self.last = small
        key = position.key()
        if now - self.still_since < self.still_s or self.judged == key or self.corners is None:
            return None
        self.judged, self.seen = key, small
        return self.look(photo, position)

    def look(self, photo: Image.Image, position: Position) -> Seen | None:
        """Judge one still photograph at `position`."""
        game = position.game
        if position.phase == "empty":
            self.set_empty(photo)
            self.anchor, self.anchor_game = None, None
            return Seen("empty", 0 if game is None else game.ply)
        if game is None:
            return None
        if self.ref is None:
            return Seen("no_empty", game.ply, reason="no view of the empty board yet")
        view = self.view(photo)
        diff = change(view, self.ref)
        if camera_moved(diff):
            self.anchor, self.anchor_game = None, None
            if self.told_moved:
                return None
            self.told_moved = True
            return Seen("moved", game.ply, reason="the board no longer lies where the corners say")
        self.told_moved = False
        share = shares(diff, game.board)
        moves = [(m.frm, m.to) for m in game.moves]
        if self.anchor is None or self.anchor_game is None or \
                [(m.frm, m.to) for m in self.anchor_game.moves] != moves:
            return self.reanchor(view, share, game, moves)
        if position.phase != "move":
            return None
        found = judge(game, self.anchor, view, self.ref)
        if found.code == "still":
            return None
        if found.move is not None:
            return Seen("proposal", game.ply, found.move, found.reason)
        return Seen("unsure", game.ply, None, found.reason)

    def reanchor(self, view: Detail, share: dict[int, float], game: Game, moves: list[tuple[int, int]]) -> Seen:
        """The position changed since the anchor: check the move just made, then anchor when the board agrees."""
        before = self.anchor_game
        if (self.anchor is not None and before is not None and self.checked != tuple(moves)
                and [(m.frm, m.to) for m in before.moves] == moves[:-1]):
            self.checked = tuple(moves)
            found = judge(before, self.anchor, view, self.ref)  # type: ignore[arg-type]
            if found.move is not None and found.move != moves[-1]:
                return Seen("mismatch", game.ply, found.move, f"{moves[-1][0]} -> {moves[-1][1]} was played")
        wrong = disagreements(game, share)
        if wrong:
            return Seen("waiting", game.ply, reason="the board does not show the position yet",
                        territories=tuple(wrong))
        self.anchor, self.anchor_game = view, game
        return Seen("anchored", game.ply)

    def outlined(self, photo: Image.Image) -> Image.Image:
        """`photo` with each territory's outline and number drawn where the corners put the board
        (`companion doctor --camera`: an outline off its territory is a corner to fix)."""
        from PIL import ImageDraw

        from companion.games.clans.board import load_board

        out = photo.convert("RGB")
        w, h = BOARD_FRAME
        a, b, c, d, e, f, g, k = perspective([(0, 0), (w, 0), (w, h), (0, h)], self.corners)

        def at(x: float, y: float) -> tuple[float, float]:
            z = g * x + k * y + 1
            return (a * x + b * y + c) / z, (d * x + e * y + f) / z

        draw = ImageDraw.Draw(out)
        for t in load_board().territories.values():
            draw.polygon([at(x, y) for x, y in t.outline], outline=(255, 230, 0))
            draw.text(at(*t.xy), str(t.number), fill=(255, 255, 255), anchor="mm")
        draw.polygon([at(0, 0), at(w, 0), at(w, h), at(0, h)], outline=(255, 0, 255))
        return out
