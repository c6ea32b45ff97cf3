"""A family table's life, for the camera (issue 51, item 4): the measures that keep it from naming a
move nobody made (companion.games.clans.camera.views: `relit`, `colour_change`, `patches`,
`arrivals`) on made-up views, and the renders of it (tests/games/clans/camera/photos.py: a cup, a
phone or a paw set down, dusk, a lamp's glare). The accuracy over whole games is in
test_accuracy.py (slow); the rules that use these measures in test_decide.py."""

from __future__ import annotations

import math
import random

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat

from companion.games.clans.board import load_board
from companion.games.clans.camera.geometry import BOARD_VIEW
from companion.games.clans.camera.views import (COARSE, Detail, arrivals, change, clear_change, colour_change, detail,
                                                patches, relit)
from companion.games.clans.game import Game

from tests.games.clans.camera import photos

needs_picture = pytest.mark.skipif(not photos.have_board_picture(),
                                   reason=f"the board picture {photos.BOARD_PICTURE} is not there (../shared)")
HUT_COLOURS = ((190, 40, 35), (35, 70, 170), (40, 140, 60), (230, 190, 40))


def printed(seed: int = 1) -> Image.Image:
    """A made-up board's print in the view's size: a yellowish ground with blotches of every colour."""
    rng = random.Random(seed)
    w, h = BOARD_VIEW
    blotches = Image.merge("RGB", [Image.frombytes("L", (w // 4, h // 4), rng.randbytes(w * h // 16))
                                   .resize(BOARD_VIEW, Image.Resampling.BICUBIC) for _ in range(3)])
    return Image.blend(Image.new("RGB", BOARD_VIEW, (200, 170, 90)), blotches, 0.35)


def with_huts(view: Image.Image) -> tuple[Image.Image, Image.Image]:
    """The view with 30 huts (14 x 10 px, the huts' colours) on it, and where they are (L, 255)."""
    view, where = view.copy(), Image.new("L", view.size, 0)
    for k in range(30):
        x, y = 60 + 90 * (k % 6), 60 + 70 * (k // 6)
        ImageDraw.Draw(view).rectangle([x, y, x + 14, y + 10], fill=HUT_COLOURS[k % 4])
        ImageDraw.Draw(where).rectangle([x, y, x + 14, y + 10], fill=255)
    return view, where


def lit(view: Image.Image, gains: tuple[float, float, float], noise: int = 4, seed: int = 3) -> Image.Image:
    """The view under other light: each colour scaled by its gain, and a sensor's noise (+-noise)."""
    scaled = Image.merge("RGB", [c.point(lambda v, f=f: round(v * f)) for c, f in zip(view.split(), gains)])
    rng = random.Random(seed)
    grain = Image.frombytes("RGB", view.size, rng.randbytes(view.size[0] * view.size[1] * 3))
    return ImageChops.add(scaled, grain.point(lambda v: 128 + (v - 128) * noise // 128), 1.0, -128)


def found(clear: Image.Image, where: Image.Image) -> tuple[float, float]:
    """The share of `where` that changed clearly, and of the rest."""
    return (ImageStat.Stat(clear, where).mean[0] / 255, ImageStat.Stat(clear, ImageChops.invert(where)).mean[0] / 255)


# ----- the light drifted since the empty board: the huts are still seen -----------------------
@pytest.mark.parametrize("gains", [(0.3, 0.22, 0.12), (0.2, 0.14, 0.07)], ids=["dusk", "late dusk"])
def test_huts_at_dusk_are_seen_against_the_daylight_empty_board(gains):
    empty = detail(printed())
    board, where = with_huts(printed())
    dusk = detail(lit(board, gains))
    huts, elsewhere = found(clear_change(change(dusk, empty)), where)
    assert huts >= 0.7 and elsewhere <= 0.01, (huts, elsewhere)
    assert relit(dusk, empty) is not dusk
    assert relit(detail(lit(board, (1.1, 1.0, 0.9))), empty).darks == empty.darks  # (a lamp's change: as it was)


def test_a_detail_made_by_hand_is_compared_as_it_always_was():
    plain = tuple(detail(printed()))
    other = tuple(detail(with_huts(printed())[0]))
    assert not isinstance(plain, Detail) and relit(plain, detail(printed())) is plain  # type: ignore[arg-type]
    assert change(plain, other).size == BOARD_VIEW  # type: ignore[arg-type]
    assert arrivals(plain, other, load_board()) is None  # type: ignore[arg-type]


# ----- what arrived: the colour's own change, in patches -------------------------------------
def test_a_lamp_changes_no_colour_and_a_hut_or_a_paw_a_patch_of_its_size():
    board = load_board()
    before = printed()
    lamp = Image.linear_gradient("L").resize(BOARD_VIEW).point(lambda v: 140 + v * 115 // 255)  # 0.55 to 1.0 across
    brighter = ImageChops.multiply(before, Image.merge("RGB", (lamp, lamp, lamp)))
    assert patches(colour_change(before, lit(brighter, (1.3, 1.25, 1.2), noise=3)), board) == []
    hut = before.copy()
    ImageDraw.Draw(hut).rectangle([300, 200, 314, 210], fill=HUT_COLOURS[0])
    paw = before.copy()
    ImageDraw.Draw(paw).ellipse([280, 180, 330, 228], fill=(128, 124, 120))
    (one_hut,) = patches(colour_change(before, hut), board)
    (one_paw,) = patches(colour_change(before, paw), board)
    assert 6 <= one_hut.area <= 25, one_hut  # (reduced pixels: a hut is 14 x 10 of the view)
    assert one_paw.area >= 5 * one_hut.area, (one_paw, one_hut)
    for patch, xy in ((one_hut, (307, 205)), (one_paw, (305, 204))):
        assert math.dist(patch.centre, (2 * xy[0], 2 * xy[1])) <= 2 * COARSE, patch  # (the board's frame: 2x)


def test_patches_name_the_territories_they_touch_largest_first():
    board = load_board()
    mask = Image.new("L", (BOARD_VIEW[0] // COARSE, BOARD_VIEW[1] // COARSE), 0)
    centres = {t: (board.territories[t].xy[0] / 2 / COARSE, board.territories[t].xy[1] / 2 / COARSE) for t in (1, 30)}
    x, y = centres[1]
    ImageDraw.Draw(mask).rectangle([x - 1, y - 1, x + 1, y + 1], fill=255)  # 9 pixels on 1
    x, y = centres[30]
    ImageDraw.Draw(mask).rectangle([x - 3, y - 2, x + 3, y + 2], fill=255)  # 35 on 30
    big, small = patches(mask, board)
    assert (big.area, small.area) == (35, 9)
    assert 30 in big.territories and small.territories == frozenset({1})
    assert math.dist(small.centre, board.territories[1].xy) <= COARSE * 2


def test_arrivals_are_the_patches_between_the_views_of_two_details():
    board = load_board()
    before = printed()
    after = before.copy()
    ImageDraw.Draw(after).rectangle([300, 200, 314, 210], fill=HUT_COLOURS[1])
    (patch,) = arrivals(detail(before), detail(after), board) or [None]
    assert patch is not None and math.dist(patch.centre, (614, 410)) <= 2 * COARSE


def test_the_judge_weighs_what_arrived(monkeypatch):
    """judge hands decide the patches where the colour changed between the views before and after,
    once the measures alone name a move; for no move it never measures them (the watcher judges
    every still view)."""
    from companion.games.clans.camera import propose

    seen = []

    def decide(game, moved, before, after, arrived=None):
        seen.append(arrived)
        return propose.Proposal((1, 2), "move", "a stand-in")

    monkeypatch.setattr(propose, "decide", decide)
    before = printed()
    after = before.copy()
    ImageDraw.Draw(after).rectangle([300, 200, 314, 210], fill=HUT_COLOURS[1])
    propose.judge(Game.new(3, seed=1), detail(before), detail(after), detail(printed(2)))
    first, arrived = seen
    assert first is None
    assert arrived is not None and len(arrived) == 1 and math.dist(arrived[0].centre, (614, 410)) <= 2 * COARSE

    monkeypatch.setattr(propose, "decide", lambda *args: propose.Proposal(None, "still", "a stand-in"))
    monkeypatch.setattr(propose, "arrivals", lambda *args: pytest.fail("measured for no move"))
    assert propose.judge(Game.new(3, seed=1), detail(before), detail(after), detail(printed(2))).code == "still"


# ----- the renders: a cup, a phone or a paw, dusk, a glare ------------------------------------
def table_and_camera(seed: int = 5):
    game = Game.new(3, seed=seed)
    table = photos.Table.setup(game, random.Random(seed))
    camera = photos.random_camera(random.Random(seed), (640, 480), flip=False, angle=0.0, keystone=0.0)
    return table, camera


def frame_change(a: Image.Image, b: Image.Image, xy, r: float, beyond: float) -> tuple[float, float]:
    """The mean change within r of the frame point xy, and beyond `beyond` of it."""
    diff = ImageChops.difference(a, b).convert("L")
    near = Image.new("L", a.size, 0)
    ImageDraw.Draw(near).ellipse([xy[0] - r, xy[1] - r, xy[0] + r, xy[1] + r], fill=255)
    far = Image.new("L", a.size, 255)
    ImageDraw.Draw(far).ellipse([xy[0] - beyond, xy[1] - beyond, xy[0] + beyond, xy[1] + beyond], fill=0)
    return ImageStat.Stat(diff, near).mean[0], ImageStat.Stat(diff, far).mean[0]


@needs_picture
@pytest.mark.parametrize("kind", photos.THINGS)
def test_a_thing_set_down_covers_its_place_and_nothing_far_from_it(kind):
    table, camera = table_and_camera()
    xy = table.centre(30)
    thing = photos.random_thing(random.Random(2), xy, kind)
    assert thing == photos.random_thing(random.Random(2), xy, kind) and math.dist((thing.x, thing.y), xy) <= 15
    bare = photos.render_frame(table, camera)
    near, far = frame_change(bare, photos.render_frame(table, camera, [thing]), (thing.x, thing.y), 20, 280)
    assert near >= 40 and far == 0, (near, far)  # (a phone: 16.5 cm long at most, 330 px)


@needs_picture
def test_a_glare_shines_on_the_board_and_on_the_pieces_only_its_share():
    table, camera = table_and_camera()
    hut = table.huts[30][0]
    bare = photos.render_frame(table, camera)
    for pieces in (0.0, 1.0):
        glare = photos.Glare(hut.x, hut.y, 60.0, 60.0, 0.0, 400.0, (255, 250, 236), pieces)
        shone = photos.render_frame(table, camera, glare=glare)
        board_near, far = frame_change(bare, shone, (hut.x + 25, hut.y + 25), 4, 190)
        on_hut, _ = frame_change(bare, shone, (hut.x, hut.y), 2, 190)
        assert board_near >= 60 and far == 0, (board_near, far)
        assert (on_hut >= 60) == (pieces == 1.0), (pieces, on_hut)
    glare = photos.random_glare(random.Random(4), table.centre(30))
    assert glare == photos.random_glare(random.Random(4), table.centre(30))
    assert math.dist((glare.x, glare.y), table.centre(30)) <= 25 and 180 <= glare.strength <= 420


@needs_picture
def test_dusk_is_darker_and_warmer_the_deeper_and_a_seed_repeats_it():
    table, camera = table_and_camera()
    day = photos.random_look(random.Random(1), "light")
    shots = [photos.photograph(table, camera, photos.dusk_look(random.Random(9), depth, day))[0] for depth in (0.0, 0.5, 1.0)]
    r, g, b = zip(*(ImageStat.Stat(shot).mean for shot in shots))
    assert r[0] > r[1] > r[2] and b[0] > b[1] > b[2] and b[2] / r[2] < 0.8 * b[0] / r[0], (r, b)
    assert r[2] < 0.35 * r[0]
    again = photos.photograph(table, camera, photos.dusk_look(random.Random(9), 1.0, day))[0]
    assert again.tobytes() == shots[2].tobytes()
