"""The synthetic photographs themselves: the table follows the engine, the camera's geometry is
what it says, a move changes the photo where it should and nowhere else, and a seed repeats."""

from __future__ import annotations

import math
import random
import time

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat

from companion.games.clans.game import Game
from companion.games.clans.record import Record

from conftest import SHARED, example_dir
from tests.games.clans.camera import photos
from tests.games.clans.camera.photos import (CHIP_OFFSET, FAR, FRAME, FRAME_CORNERS, LOOKS, NEAR, Table,
                                             apply_homography, board_picture, homography, photograph,
                                             random_camera, random_hand, random_look, render_frame)

needs_picture = pytest.mark.skipif(not photos.have_board_picture(),
                                   reason=f"the board picture {photos.BOARD_PICTURE} is not there (../shared)")


def engine_counts(game: Game) -> dict[int, dict[str, int]]:
    return {t: {c: n for c, n in game.huts(t).items() if n} for t in game.board.numbers if sum(game.huts(t).values())}


def played_table(seed: int = 7, moves: int = 20, players: int = 3) -> tuple[Game, Table]:
    rng = random.Random(seed)
    game = Game.new(players, seed=seed)
    table = Table.setup(game, random.Random(seed + 1))
    for _ in range(moves):
        if game.is_over:
            break
        a, b = game.random_move(rng.random)
        table.move(a, b)
        game.push(a, b)
        table.reconcile(game)
    return game, table


def frame_view(photo: Image.Image, corners) -> Image.Image:
    """The photo mapped back onto the board frame through the given corners."""
    return photo.transform(FRAME, Image.PERSPECTIVE, homography(FRAME_CORNERS, corners), Image.BILINEAR)


def disc_mean(image: Image.Image, xy, r: float) -> float:
    mask = Image.new("L", image.size, 0)
    ImageDraw.Draw(mask).ellipse([xy[0] - r, xy[1] - r, xy[0] + r, xy[1] + r], fill=255)
    return ImageStat.Stat(image.convert("L"), mask).mean[0]


def test_the_shared_folder_is_the_one_tests_use():
    assert photos.SHARED.resolve() == SHARED.resolve()
    assert photos.BOARD_PICTURE == SHARED / "reference" / "clans-board-numbered.jpg"


@needs_picture
def test_the_board_picture_is_the_board_frame():
    image = board_picture()
    assert image.size == FRAME and image.mode == "RGB"


# ----- the table ------------------------------------------------------------------------------
def test_setup_puts_one_hut_of_the_setup_colour_on_every_territory():
    game = Game.new(4, seed=3)
    table = Table.setup(game, random.Random(1))
    assert table.counts() == {t: {c: 1} for t, c in game.setup.items()}
    spots = []
    for t, hut in table.all_huts():
        assert math.dist((hut.x, hut.y), table.centre(t)) <= NEAR + 2
        spots.append((hut.x, hut.y))
    closest = min(math.dist(p, q) for i, p in enumerate(spots) for q in spots[:i])
    assert closest >= 15


@pytest.mark.parametrize("path", sorted(example_dir().glob("*.record.json")), ids=lambda p: p.name.split(".")[0])
def test_the_table_follows_a_recorded_game(path):
    """Every move: the table agrees with the engine, the moved huts stand near the target's centre,
    the target's own huts did not move, and every village has its chip."""
    record = Record.load(path)
    game = record.new_game()
    table = Table.setup(game, random.Random(5))
    for move in record.moves:
        stay = {id(h): (h.x, h.y) for h in table.huts.get(move.to, [])}
        table.move(move.frm, move.to)
        assert move.frm not in table.huts
        for hut in table.huts[move.to]:
            if id(hut) in stay:
                assert (hut.x, hut.y) == stay[id(hut)]
            assert math.dist((hut.x, hut.y), table.centre(move.to)) <= FAR + 2
        game.push(move)
        table.reconcile(game)
        assert table.counts() == engine_counts(game)
        assert set(table.chips) == {v.territory for v in game.villages}
    for v in game.villages:
        chip = table.chips[v.territory]
        assert CHIP_OFFSET - 1 <= math.dist((chip.x, chip.y), table.centre(v.territory)) <= CHIP_OFFSET + 8
        if v.destroyed:
            assert v.territory not in table.huts


def test_big_piles_stay_on_their_territory():
    game, table = played_table(seed=11, moves=200, players=2)
    assert game.is_over
    biggest = max(len(p) for p in table.huts.values())
    assert biggest >= 6
    for t, hut in table.all_huts():
        assert math.dist((hut.x, hut.y), table.centre(t)) <= FAR + 2
        x0, y0, x1, y1 = photos.PLAY_AREA
        assert x0 <= hut.x <= x1 and y0 <= hut.y <= y1


def test_nudge_moves_a_few_huts_of_other_territories_a_little():
    game, table = played_table()
    before = {id(h): (t, h.x, h.y) for t, h in table.all_huts()}
    avoid = set(table.huts) - {min(table.huts), max(table.huts)}
    moved = table.nudge(random.Random(2), 3, avoid=avoid)
    assert 1 <= len(moved) <= 3 and not set(moved) & avoid
    shifts = [math.dist((h.x, h.y), before[id(h)][1:]) for _t, h in table.all_huts()]
    changed = [d for d in shifts if d > 0]
    assert len(changed) == len(moved) and all(2.9 <= d <= 10.1 for d in changed)
    assert table.counts() == engine_counts(game)


def test_copy_is_independent():
    _game, table = played_table()
    other = table.copy()
    t = next(iter(table.huts))
    other.huts[t][0].x += 50
    assert table.huts[t][0].x != other.huts[t][0].x


# ----- the camera -------------------------------------------------------------------------------
def test_homography_takes_the_points_where_asked():
    rng = random.Random(4)
    for _ in range(20):
        dst = [(x + rng.uniform(-80, 80), y + rng.uniform(-80, 80)) for x, y in ((100, 90), (900, 60), (950, 700), (80, 650))]
        h = homography(FRAME_CORNERS, dst)
        for p, q in zip(FRAME_CORNERS, dst):
            got = apply_homography(h, *p)
            assert math.dist(got, q) < 1e-6


@pytest.mark.parametrize("size", [(1280, 960), (640, 480)])
def test_camera_poses_stay_in_their_ranges(size):
    w, h = size
    for seed in range(60):
        cam = random_camera(random.Random(seed), size, corner_error=3.0)
        for x, y in cam.corners:
            assert 0 <= x <= w and 0 <= y <= h
        xs = [x for x, _ in cam.corners]
        assert 0.55 * w <= max(xs) - min(xs) <= 0.98 * w
        for (x, y), (tx, ty) in zip(cam.corners, cam.tapped):
            assert math.dist((x, y), (tx, ty)) <= 3.0 + 1e-9
        for p in ((0, 0), (600, 400), (1200, 800), (37.5, 712.25)):
            assert math.dist(cam.to_frame(*cam.to_photo(*p)), p) < 1e-6
        c = cam.corners
        top, bottom = math.dist(c[0], c[1]), math.dist(c[3], c[2])  # frame's top and bottom edges
        far, near = (bottom, top) if cam.flipped else (top, bottom)
        assert near * 0.73 <= far <= near * 1.03  # the far edge is shorter: up to 25% keystone
        tl_low = c[0][1] > h / 2  # from the other side of the table the frame's (0,0) is at the bottom
        assert tl_low == cam.flipped


def test_flip_and_exact_pose_can_be_asked_for():
    cam = random_camera(random.Random(1), flip=True, fill=0.8, keystone=0.0, angle=0.0)
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = cam.corners
    assert x0 > x1 and y0 > y3  # (0,0) bottom right, (1200,0) bottom left, (0,800) top right
    assert abs((x0 - x1) - 0.8 * 1280) < 15


# ----- the photographs --------------------------------------------------------------------------
@needs_picture
@pytest.mark.parametrize("size", [(1280, 960), (640, 480)])
def test_a_photo_maps_back_onto_the_rendered_frame(size):
    """Map a clean photo back through its corners: it is the rendered board, give or take the light."""
    game, table = played_table()
    rng = random.Random(9)
    cam = random_camera(rng, size, corner_error=0.0)
    look = photos.Look("clean", ("linear", 0.0, 1.0, 1.0), 1.0, 0.0, 0.0, 2.0, 92, 1)
    photo, corners = photograph(table, cam, look)
    assert photo.size == size and photo.mode == "RGB"
    assert corners == list(cam.corners)
    back = frame_view(photo, corners).crop((40, 40, 1160, 760))
    truth = render_frame(table, cam).crop((40, 40, 1160, 760))
    if size[0] < 1000:  # a small photo is blurry by nature: compare at its resolution
        truth, back = truth.resize((560, 360), Image.BILINEAR), back.resize((560, 360), Image.BILINEAR)
    err = ImageStat.Stat(ImageChops.difference(back, truth).convert("L")).mean[0]
    assert err < 12, f"mean difference {err:.1f}"
    shifted = ImageStat.Stat(ImageChops.difference(back, ImageChops.offset(truth, 6, 0)).convert("L")).mean[0]
    assert shifted > err * 1.5  # (the comparison does see a misplaced board)


@needs_picture
def test_a_move_changes_the_photo_at_its_two_territories_only():
    game, table = played_table(seed=21, moves=12)
    rng = random.Random(3)
    cam = random_camera(rng, corner_error=0.0)
    before, corners = photograph(table, cam, random_look(rng, "clean"))
    a, b = game.random_move(rng.random)
    table.move(a, b)
    after, _ = photograph(table, cam, random_look(rng, "clean"))
    diff = ImageChops.difference(frame_view(before, corners), frame_view(after, corners))
    change = {t: disc_mean(diff, table.centre(t), 32) for t in game.board.numbers}
    others = max(v for t, v in change.items() if t not in (a, b))
    assert min(change[a], change[b]) > 2 * others, (a, b, sorted(change.items(), key=lambda kv: -kv[1])[:4])


@needs_picture
def test_a_hut_shows_its_colour():
    """The roof over each hut's spot (seen with the parallax of its height) is of the hut's colour."""
    game = Game.new(2, seed=1)
    table = Table.setup(game, random.Random(1))
    cam = random_camera(random.Random(2), corner_error=0.0)
    frame = render_frame(table, cam)
    for t, hut in table.all_huts():
        x = hut.x + (hut.x - cam.nadir[0]) * cam.lift * 0.8
        y = hut.y + (hut.y - cam.nadir[1]) * cam.lift * 0.8
        r, g, b = ImageStat.Stat(frame.crop((int(x) - 3, int(y) - 3, int(x) + 4, int(y) + 4))).mean
        ok = {"red": r > 1.8 * max(g, b), "blue": b > 1.5 * max(r, g), "green": g > 1.4 * max(r, b),
              "yellow": min(r, g) > 1.8 * b, "black": max(r, g, b) < 80}[hut.color]
        assert ok, (t, hut.color, (r, g, b))


@needs_picture
def test_the_same_seeds_give_the_same_photo():
    shots = []
    for _ in range(2):
        game, table = played_table()
        rng = random.Random(5)
        cam = random_camera(rng, (640, 480), corner_error=2.0)
        hand = random_hand(rng, cam)
        shots.append(photograph(table, cam, random_look(rng, "rough"), hand))
    assert shots[0][1] == shots[1][1]
    assert shots[0][0].tobytes() == shots[1][0].tobytes()


@needs_picture
def test_a_photo_takes_well_under_a_tenth_of_a_second():
    game, table = played_table()
    rng = random.Random(6)
    cam = random_camera(rng)
    photograph(table, cam, random_look(rng, "clean"))  # the pieces' sprites, the table's wood: made once
    t0 = time.perf_counter()
    for kind in LOOKS:
        photograph(table, cam, random_look(rng, kind))
    per_photo = (time.perf_counter() - t0) / len(LOOKS)
    assert per_photo < 0.3  # about 0.05 s natively; generous for a busy machine


@needs_picture
def test_a_hand_hides_the_board_under_it():
    game, table = played_table()
    rng = random.Random(8)
    cam = random_camera(rng, corner_error=0.0)
    look = random_look(rng, "clean")
    t = next(iter(table.huts))
    hand = random_hand(rng, cam, over=table.centre(t))
    assert hand.covers(cam, table.centre(t))
    plain, _ = photograph(table, cam, look)
    covered, _ = photograph(table, cam, look, hand)
    mask = hand.mask(cam.size)
    area = ImageStat.Stat(mask).mean[0] / 255
    assert 0.03 < area < 0.4  # a large blob, not the whole board
    u, v = cam.to_photo(*table.centre(t))
    r, g, b = covered.getpixel((int(u), int(v)))
    assert r > b and r > 60  # skin, whatever the hut there was
    away = ImageChops.difference(plain, covered).convert("L")
    outside = ImageStat.Stat(away, mask.point(lambda m: 255 if m == 0 else 0)).mean[0]
    inside = ImageStat.Stat(away, mask.point(lambda m: 255 if m > 200 else 0)).mean[0]
    assert inside > 4 * outside


def test_looks_stay_in_their_ranges():
    rng = random.Random(1)
    for kind in LOOKS:
        for _ in range(50):
            look = random_look(rng, kind)
            assert look.kind == kind
            assert 0.85 <= look.gain <= 1.15 and abs(look.warmth) <= 0.05
            assert 0 <= look.blur <= 1.5 and 2 <= look.noise <= 8 and 60 <= look.jpeg <= 92
            gains = look.gradient[2:] if look.gradient[0] == "linear" else look.gradient[3:]
            assert all(0.7 <= g <= 1.2 for g in gains)
    with pytest.raises(ValueError):
        random_look(rng, "foggy")
