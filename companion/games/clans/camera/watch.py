"""The camera at the table: from a stream of photographs to what the box should say.

Pure: each frame comes with the time it was taken and the table's position (`Position`: a copy
of the game and its phase); out comes at most one `Seen` per still spell and position.

- Stillness: each frame, reduced to a small picture, is compared with the one before; a
  frame where more than `STILL_SHARE` of the pixels moved starts the spell again. A picture
  still for `still_s` is judged once (and again when the position changes under it: a move
  confirmed, taken back).
- The empty board: while the table answers the questions before the huts go down ("empty"
  phase), the still view is the reference for "nothing here" (`Seen("empty")`), kept in the
  board's own frame (`kept_empty`: the one picture the kiosk keeps), so new corners still use it.
- The setup: before the first move, a still view where a territory shows no hut, or a hut that
  looks like another colour than the setup's (each colour's look measured on the huts the setup
  gives it: the light calibrates itself), names them (`Seen("setup-missing")`,
  `Seen("setup-colour")`) and is not anchored on.
- The anchor: the view of the board that agrees with the current position: every bare territory
  (not a village: its chip stays) looks like the empty board. The first still view that agrees
  becomes the anchor; until then the table is still doing what the box said (huts removed, a
  chip put down), `Seen("waiting")`.
- After a move (confirmed with `#`, typed or a bot's), each still view is checked against the
  anchor before it until the board agrees: when it shows another legal move, `Seen("mismatch")`
  names it once ("the board shows 12 -> 14"), and the box does not anchor on it.
- The corners: given (the config's, the page's) they are not used until a still view with huts
  shows the position under them, in whichever of their eight orders it does
  (companion.games.clans.camera.orient); without them, or when no order agrees, the board is found
  (companion.games.clans.camera.find: from the kept view of the empty board, or from the huts
  against its photograph). Until then nothing is judged (`Seen("unplaced")`, with why); once placed,
  `placed()` hands the corners and how they were had to the kiosk, once.
- A moved camera: when the whole picture differs from the empty board's (not a part of it, as
  huts, a hand or a lamp make it), the board no longer lies where the corners say. It is looked
  for again in the kept view of the empty board; not found, `Seen("moved")` says so (once, until
  new corners or the board agrees).
- While a person is to move ("move" phase) a still view that differs from the anchor is judged
  (companion.games.clans.camera.propose): one legal move is `Seen("proposal")`, anything else
  `Seen("unsure")` with the reason.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import median
from typing import Sequence

from PIL import Image, ImageChops, ImageFilter, ImageStat

from companion.games.clans.camera.find import NoLibrary, find_board, match_view
from companion.games.clans.camera.geometry import BOARD_FRAME, BOARD_VIEW, Point, check_corners, perspective, to_board
from companion.games.clans.camera.orient import orient
from companion.games.clans.camera.propose import judge
from companion.games.clans.camera.views import Detail, change, detail, hut_colours, shares
from companion.games.clans.game import Game

STILL_SIZE = (160, 120)  # the small picture stillness is measured on (a hut: a few pixels of it)
STILL_LEVEL = 32  # a pixel of it moved when it changed by this much (0-255)
STILL_SHARE = 0.004  # more than this share of its pixels moved: not still (a hand, a sleeve)
STILL_S = 1.0  # still this long: judged
CHANGED_PIXELS = 6  # this many pixels of it changed since the picture was judged: judged again (a hut moved)
MISSING = 0.002  # a territory with huts differs from the empty board by more (a missing hut: 0.0;
#                  a badly seen one 0.0005 once in 60 setups, else 0.008 or more) ...
BARE = 0.035  # ... and a bare one by at most this (measured: 0.022 at worst)
MOVED_MEDIAN = 30  # the median change from the empty board above this: the camera moved
COLOUR_SPREAD = 25  # a setup hut this near its colour's look (RGB distance) is right whatever else ...
COLOUR_NEARER = 0.6  # ... else wrong when another colour's look is nearer than this share of its own


@dataclass(frozen=True)
class Position:
    """What the table is at: `game` (the watcher's own copy) and `phase`: "empty" (the questions
    before the huts go down), "move" (a person is to move), "other" (anything else)."""

    game: Game | None
    phase: str

    def key(self) -> tuple:
        return (self.phase, None if self.game is None else played(self.game))


@dataclass(frozen=True)
class Seen:
    """What the watcher saw: `kind` is "empty", "waiting", "anchored", "mismatch", "proposal",
    "unsure", "no_empty", "unplaced" (no corners agree with the position, and the board was not found:
    `reason`), "moved" (the camera: the board no longer lies where the corners say, and was not found again),
    "setup-missing" or "setup-colour" (before the first move: `territories` without their hut, or
    with a hut of another colour than the setup's); `ply` the position's; `move` the move shown (mismatch, proposal);
    `territories` those that disagree with the position (waiting)."""

    kind: str
    ply: int
    move: tuple[int, int] | None = None
    reason: str = ""
    territories: tuple[int, ...] = ()


def played(game: Game) -> tuple[tuple[int, int], ...]:
    """The moves made so far, as (from, to) pairs: what tells two positions of one game apart here."""
    return tuple((m.frm, m.to) for m in game.moves)


def left_over(game: Game, share: dict[int, float]) -> list[int]:
    """The bare territories (not villages: their chips stay) that still hold something: huts the
    table has not taken away yet (`share`: each territory's difference from the empty board)."""
    held = set(game.occupied())
    return sorted(t for t, s in share.items() if t not in held and s > BARE and not game.is_village(t))


def missing_huts(game: Game, share: dict[int, float]) -> list[int]:
    """The territories with huts that look exactly like the empty board: no hut there at all. (A
    hut the camera sees badly still differs a little; a wrong "missing" would stop the table.)"""
    return sorted(t for t in game.occupied() if share[t] < MISSING)


def camera_moved(diff: Image.Image) -> bool:
    """True when the board's whole picture differs from the empty board's (`diff`, their change): the
    picture moved under the corners. Huts, a hand or a lamp change a part of it: the median pixel
    stays near the noise (3-15 measured; a moved camera 60-72)."""
    return ImageStat.Stat(diff).median[0] > MOVED_MEDIAN


def wrong_colours(game: Game, measured: dict[int, tuple[float, float, float] | None]) -> list[int]:
    """The territories of the setup (one hut each) whose hut looks like another colour. Each colour's
    look is the median of the huts the setup says have it, so the table's light calibrates itself;
    a hut is named when it lies much nearer another colour's look than its own."""
    want = game.setup
    looks = {}
    for colour in set(want.values()):
        seen = [m for t, m in measured.items() if want.get(t) == colour and m is not None]
        if seen:
            looks[colour] = tuple(median(m[i] for m in seen) for i in range(3))
    wrong = []
    for t, colour in want.items():
        m = measured.get(t)
        if m is None or colour not in looks:
            continue
        own = math.dist(m, looks[colour])
        other = min((math.dist(m, look) for c, look in looks.items() if c != colour), default=own)
        if own > COLOUR_SPREAD and other < COLOUR_NEARER * own:
            wrong.append(t)
    return sorted(wrong)


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
        self.given = None if corners is None else check_corners(corners)  # as given: not yet checked
        self.corners: list[Point] | None = None  # those in use, in the order that agrees (None: none yet)
        self.still_s = still_s
        self.ref: Detail | None = None  # the empty board's detail, in the board's frame
        self.empty_view: Image.Image | None = None  # ... and its view (RGB, BOARD_VIEW): the camera's pose is gone
        self.empty_raw: Image.Image | None = None  # its photograph, while the camera has not moved since
        if empty is not None:
            self.set_empty(empty)
        self.last: Image.Image | None = None  # the previous frame's still picture
        self.still_since = 0.0
        self.judged: tuple | None = None  # the position key this still spell was judged at
        self.seen: Image.Image | None = None  # ... and its picture
        self.anchor: Detail | None = None
        self.anchor_game: Game | None = None
        self.checked: tuple | None = None  # the position whose move the board did not show (said once)
        self.told_moved = False  # "the camera moved" was said (once, until the board agrees again)
        self.news: tuple[list[Point], str] | None = None  # corners just placed and how, for `placed()`
        self.unsure = 0.0  # how far the corners may be off (found from the huts): no move hangs on their place

    def set_empty(self, photo: Image.Image) -> None:
        """A photograph of the empty board (the questions', or one kept by an earlier run)."""
        if self.corners is not None:
            self.set_empty_view(to_board(photo, self.corners))
        self.empty_raw = photo

    def set_empty_view(self, view: Image.Image) -> None:
        """The empty board in the board's frame (`kept_empty`), whatever the camera's pose."""
        self.empty_view = view.convert("RGB").resize(BOARD_VIEW)
        self.ref = detail(self.empty_view)

    def load_empty(self, picture: Image.Image) -> None:
        """A kept picture of the empty board: a view (`kept_empty`), or a photograph (an older run's)."""
        if picture.size == BOARD_VIEW:
            self.set_empty_view(picture)
        else:
            self.set_empty(picture)

    def kept_empty(self) -> Image.Image | None:
        """What to keep of the empty board across restarts: its view in the board's frame, which a
        moved camera still measures against and is found again by (None: the board is not placed yet)."""
        return self.empty_view

    def placed(self) -> tuple[list[Point], str] | None:
        """The corners placed since the last call and how ("given", "huts", "view"), else None."""
        news, self.news = self.news, None
        return news

    @staticmethod
    def corners_problem(corners: Sequence[Point], size: tuple[int, int] | None = None) -> str | None:
        """Why `corners` make no board in a picture of `size` (None: they do)."""
        try:
            check_corners(corners, size)
        except ValueError as exc:
            return str(exc)
        return None

    def set_corners(self, corners: Sequence[Point]) -> None:
        """New corners (a player tapped them): used once a still view agrees with the position under
        them (in one of their orders); the empty board's view, in the board's frame, stays."""
        self.given, self.corners = check_corners(corners), None
        self.anchor, self.anchor_game, self.judged, self.told_moved = None, None, None, False

    def use(self, corners: list[Point], how: str, unsure: float = 0.0) -> None:
        """Judge with `corners` from now on. Placed against the empty board's photograph ("given",
        "huts"), its view is made anew; found from its kept view ("view"), the photograph is of
        another pose and goes."""
        self.corners, self.news, self.unsure = corners, (corners, how), unsure
        if how == "view":
            self.empty_raw = None
        elif self.empty_raw is not None:
            self.set_empty_view(to_board(self.empty_raw, corners))
        self.anchor, self.anchor_game = None, None

    def frame(self, photo: Image.Image, now: float, position: Position) -> Seen | None:
        """One frame at time `now` with the table at `position`: what to say, if anything."""
        small = still_picture(photo)
        if self.last is None or self.last.size != small.size or moved(self.last, small) or (
                self.seen is not None and changed_pixels(self.seen, small) >= CHANGED_PIXELS):
            self.still_since, self.judged, self.seen = now, None, None
        self.last = small
        key = position.key()
        if now - self.still_since < self.still_s or self.judged == key:
            return None
        self.judged, self.seen = key, small
        return self.look(photo, position)

    def place(self, photo: Image.Image, game: Game) -> Seen | None:
        """Corners for `photo` (with `game`'s position on it) when none are in use: the given ones in the
        order that agrees with the position, else the board found. None: placed; else why not."""
        raw = self.empty_raw if self.empty_raw is not None and self.empty_raw.size == photo.size else None
        why = []
        if self.given is not None:
            for empty, view in ((raw, None), (None, self.empty_view)):
                if empty is None and view is None:
                    continue
                try:
                    oriented = orient(game, photo, self.given, empty, view)
                except ValueError as exc:  # (corners beyond this camera's picture)
                    why.append(str(exc))
                    break
                if oriented.corners is not None:
                    self.use(oriented.corners, "given" if empty is not None else "view")
                    return None
                why.append(oriented.reason)
        try:
            found = find_board(game, photo, raw, self.empty_view)
        except NoLibrary as exc:
            why.append(str(exc))
        else:
            if found.corners is not None:
                self.use(found.corners, found.how, found.uncertainty)
                return None
            why.append(found.reason)
        return Seen("unplaced", game.ply, reason="; ".join(why))

    def found_again(self, photo: Image.Image, game: Game) -> bool:
        """The board looked for in `photo` by the kept view of the empty board (the camera moved)."""
        if self.empty_view is None:
            return False
        try:
            found = match_view(self.empty_view, photo, game)
        except NoLibrary:
            return False
        if found.corners is None:
            return False
        self.use(found.corners, "view")
        return True

    def look(self, photo: Image.Image, position: Position, again: bool = True) -> Seen | None:
        """Judge one still photograph at `position` (`again`: a moved camera may be looked for)."""
        game = position.game
        if position.phase == "empty":
            self.set_empty(photo)
            self.anchor, self.anchor_game = None, None
            return Seen("empty", 0 if game is None else game.ply)
        if game is None:
            return None
        if self.ref is None and self.empty_raw is None:
            return Seen("no_empty", game.ply, reason="no view of the empty board yet")
        moves = played(game)
        if self.corners is None:
            if not moves and position.phase != "move":
                return None  # the setup is being laid: placed once it is done
            unplaced = self.place(photo, game)
            if unplaced is not None:
                return unplaced
        board = to_board(photo, self.corners)  # type: ignore[arg-type]
        view = detail(board)
        diff = change(view, self.ref)
        if camera_moved(diff):
            self.anchor, self.anchor_game = None, None
            if again and self.found_again(photo, game):
                return self.look(photo, position, again=False)
            if self.told_moved:
                return None
            self.told_moved = True
            return Seen("moved", game.ply, reason="the board no longer lies where the corners say")
        self.told_moved = False
        if not moves and position.phase != "move":
            return None  # the setup is being laid: judged once it is done
        share = shares(diff, game.board)
        if self.anchor is None or self.anchor_game is None or played(self.anchor_game) != moves:
            if not moves:  # the setup done: its huts checked before the first anchor
                problem = self.check_setup(game, board, diff, share)
                if problem is not None:
                    return problem
            return self.reanchor(view, share, game, moves)
        if position.phase != "move":
            return None
        found = judge(game, self.anchor, view, self.ref, self.unsure)
        if found.code == "still":
            return None
        if found.move is not None:
            return Seen("proposal", game.ply, found.move, found.reason)
        return Seen("unsure", game.ply, None, found.reason)

    def check_setup(self, game: Game, board: Image.Image, diff: Image.Image, share: dict[int, float]) -> Seen | None:
        """Before the first move: a territory without its hut, or a hut of another colour than the setup's."""
        missing = missing_huts(game, share)
        if missing:
            return Seen("setup-missing", 0, reason="no hut seen", territories=tuple(missing))
        wrong = wrong_colours(game, hut_colours(board, diff, game.board))
        if wrong:
            return Seen("setup-colour", 0, reason="another colour than the setup's", territories=tuple(wrong))
        return None

    def reanchor(self, view: Detail, share: dict[int, float], game: Game, moves: tuple[tuple[int, int], ...]) -> Seen:
        """The position changed since the anchor: check the move just made, then anchor when the board agrees."""
        before = self.anchor_game
        if self.anchor is not None and before is not None and played(before) == moves[:-1]:
            # checked at every still view until the board agrees (the pieces may not have moved yet)
            found = judge(before, self.anchor, view, self.ref, self.unsure)  # type: ignore[arg-type]
            if found.move is not None and found.move != moves[-1]:
                was = f"{moves[-1][0]} -> {moves[-1][1]} was played"
                if self.checked == moves:  # said already: not anchored on while it shows
                    return Seen("waiting", game.ply, found.move, f"the board shows another move; {was}")
                self.checked = moves
                return Seen("mismatch", game.ply, found.move, was)
        wrong = left_over(game, share)
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
        corners = self.corners or self.given
        if corners is None:
            return out
        a, b, c, d, e, f, g, k = perspective([(0, 0), (w, 0), (w, h), (0, h)], corners)

        def at(x: float, y: float) -> tuple[float, float]:
            z = g * x + k * y + 1
            return (a * x + b * y + c) / z, (d * x + e * y + f) / z

        draw = ImageDraw.Draw(out)
        for t in load_board().territories.values():
            draw.polygon([at(x, y) for x, y in t.outline], outline=(255, 230, 0))
            draw.text(at(*t.xy), str(t.number), fill=(255, 255, 255), anchor="mm")
        draw.polygon([at(0, 0), at(w, 0), at(w, h), at(0, h)], outline=(255, 0, 255))
        return out
