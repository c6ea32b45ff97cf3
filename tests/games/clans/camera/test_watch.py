"""The camera at the table (companion.games.clans.camera.watch) on rendered photographs of a game:
the empty board taken at the questions, stillness, the anchor, the proposal, the check after a
move that the board does not show, and a hand that moves is never judged."""

from __future__ import annotations

import math
import random

import pytest

from companion.games.clans.camera.watch import Position, Watcher, moved, still_picture
from companion.games.clans.game import Game

from tests.games.clans.camera import photos

pytestmark = pytest.mark.skipif(not photos.have_board_picture(),
                                reason=f"the board picture {photos.BOARD_PICTURE} is not there (../shared)")


class Shoot:
    """One camera over one table, a clock, and the watcher fed with what it sees."""

    def __init__(self, seed: int = 3) -> None:
        self.rng = random.Random(seed)
        self.game = Game.new(3, seed=seed)
        self.table = photos.Table.setup(self.game, random.Random(seed))
        self.camera = photos.random_camera(self.rng, (640, 480), flip=False)
        self.now = 0.0
        self.watcher: Watcher | None = None

    def photo(self, table=photos.Table, hand=None, look: str = "clean"):
        shown = self.table if table is photos.Table else table
        return photos.photograph(shown, self.camera, photos.random_look(self.rng, look), hand)

    def feed(self, phase: str, frames: int = 6, table=photos.Table, hand=None, step: float = 0.25,
             look: str = "clean"):
        """`frames` frames a quarter of a second apart; everything the watcher said."""
        seen = []
        for _ in range(frames):
            photo, corners = self.photo(table, hand() if hand else None, look)
            if self.watcher is None:
                self.watcher = Watcher(corners, still_s=1.0)
            said = self.watcher.frame(photo, self.now, Position(self.game.copy(), phase))
            if said is not None:
                seen.append(said)
            self.now += step
        return seen


def kinds(seen) -> list[str]:
    return [s.kind for s in seen]


def test_a_still_picture_is_judged_once_and_a_moving_one_never():
    shot = Shoot()
    assert kinds(shot.feed("empty", table=None)) == ["empty"]  # judged after a second, then quiet
    assert shot.feed("empty", table=None) == []
    # an arm that moves every frame: never still, never judged
    assert shot.feed("other", hand=lambda: photos.random_hand(shot.rng, shot.camera)) == []


def test_the_box_proposes_the_move_the_table_made_and_checks_the_next():
    shot = Shoot()
    shot.feed("empty", table=None)
    assert kinds(shot.feed("move")) == ["anchored"]
    a, b = shot.game.random_move(shot.rng.random)
    shot.table.move(a, b)
    seen = shot.feed("move")
    assert [(s.kind, s.move) for s in seen] == [("proposal", (a, b))], seen
    shot.game.push(a, b)  # confirmed with #: the same still picture is judged again at the new position
    shot.table.reconcile(shot.game)
    seen = shot.feed("move")
    assert kinds(seen) == ["anchored"], seen


def test_a_typed_move_the_board_does_not_show_is_named():
    shot = Shoot(5)
    shot.feed("empty", table=None)
    shot.feed("move")
    a = next(t for t in shot.game.movable() if len(shot.game.targets(t)) >= 2)
    shown, typed = shot.game.targets(a)[:2]
    shot.game.push(a, typed)  # typed before the pieces moved: the board still shows the old position
    assert kinds(shot.feed("move")) == ["waiting"]
    shot.table.move(a, shown)
    seen = shot.feed("move")
    assert [(s.kind, s.move) for s in seen][:1] == [("mismatch", (a, shown))], seen
    shot.now += 1
    assert [(s.kind, s.move) for s in shot.feed("move")][:1] in ([], [("waiting", (a, shown))])  # said once


def test_no_empty_board_no_proposal():
    shot = Shoot()
    assert kinds(shot.feed("move")) == ["no_empty"]


def test_stillness_is_measured_on_a_small_grey_picture():
    shot = Shoot()
    one, _ = shot.photo(None)
    two, _ = shot.photo(None)
    assert not moved(still_picture(one), still_picture(two))  # noise and light of two shots
    hand, _ = shot.photo(None, photos.random_hand(shot.rng, shot.camera))
    assert moved(still_picture(one), still_picture(hand))


def test_a_noisy_camera_comes_to_rest_and_still_sees_one_hut_move():
    shot = Shoot(4)
    assert kinds(shot.feed("empty", table=None, look="noise")) == ["empty"]
    assert kinds(shot.feed("move", look="noise")) == ["anchored"]
    a, b = shot.game.random_move(shot.rng.random)
    shot.table.move(a, b)
    assert [(s.kind, s.move) for s in shot.feed("move", look="noise")] == [("proposal", (a, b))]


def test_a_camera_that_moved_is_found_again_and_named_once_when_it_cannot_be():
    shot = Shoot(6)
    shot.feed("empty", table=None)
    for _ in range(12):  # bare territories: enough to tell a moved camera from a hand
        a, b = shot.game.random_move(shot.rng.random)
        shot.table.move(a, b)
        shot.game.push(a, b)
        shot.table.reconcile(shot.game)
    assert kinds(shot.feed("move")) == ["anchored"]
    assert shot.watcher.placed()[1] == "given"
    hand = photos.random_hand(shot.rng, shot.camera)
    assert "moved" not in kinds(shot.feed("move", hand=lambda: hand))  # a hand held still over the board
    assert kinds(shot.feed("move")) in ([], ["anchored"])
    assert shot.watcher.placed() is None  # (a hand is not a moved camera)
    # the stand knocked: the same table from a little further left and turned: found again by the kept
    # view of the empty board, without taps
    shot.camera = photos.random_camera(random.Random(99), (640, 480), flip=False)
    assert kinds(shot.feed("move")) == ["anchored"]
    corners, how = shot.watcher.placed()
    assert how == "view" and max(math.dist(p, q) for p, q in zip(corners, shot.camera.corners)) < 8
    a, b = shot.game.random_move(shot.rng.random)
    shot.table.move(a, b)
    assert [(s.kind, s.move) for s in shot.feed("move")] == [("proposal", (a, b))]
    # knocked so far the board is out of view: said once, then quiet
    aside = shot.camera.background()
    said = [shot.watcher.frame(aside, shot.now + 0.3 * i, Position(shot.game.copy(), "move")) for i in range(8)]
    assert [s.kind for s in said if s is not None] == ["moved"]
    shot.now += 3
    shot.watcher.set_corners(shot.photo()[1])  # tapped again on the page: the empty board's view stays
    assert kinds(shot.feed("move")) == ["anchored"]


@pytest.mark.parametrize("seed", [11, 12])
def test_the_setup_is_checked_a_missing_hut_and_a_wrong_colour_named(seed):
    shot = Shoot(seed)
    shot.feed("empty", table=None)
    setup = shot.game.setup
    a = 7
    b = next(t for t in sorted(setup) if setup[t] != setup[a] and t > 30)
    missing = shot.table.huts.pop(20)
    ha, hb = shot.table.huts[a][0], shot.table.huts[b][0]
    ha.rgb, hb.rgb = hb.rgb, ha.rgb  # two huts of the wrong colours
    assert kinds(shot.feed("other")) == []  # still being set up: nothing said, nothing anchored
    seen = shot.feed("move")
    assert [(s.kind, s.territories) for s in seen] == [("setup-missing", (20,))]
    shot.table.huts[20] = missing
    shot.now += 0.1  # (the hut put down: a new picture)
    seen = shot.feed("move")
    assert [(s.kind, s.territories) for s in seen] == [("setup-colour", tuple(sorted((a, b))))]
    ha.rgb, hb.rgb = hb.rgb, ha.rgb
    assert kinds(shot.feed("move")) == ["anchored"]


def test_a_right_setup_is_never_questioned():
    for seed in range(20, 26):
        shot = Shoot(seed)
        shot.feed("empty", table=None)
        assert kinds(shot.feed("move", look=("clean", "noise", "blur")[seed % 3])) == ["anchored"], seed


def test_corners_in_any_order_are_turned_round_and_none_are_needed():
    """The config's or the page's corners in one of the seven other orders are used the right way round
    (so the move named is the move made); with none at all, the board is found from the setup's huts."""
    from companion.games.clans.camera.orient import ORDERS, reorder

    for index, corners in ((3, True), (6, True), (None, False)):
        shot = Shoot(21 + (index or 0))
        tapped = shot.photo()[1]
        shot.watcher = Watcher(reorder(tapped, ORDERS[index]) if corners else None, still_s=1.0)
        shot.feed("empty", table=None)
        assert kinds(shot.feed("move")) == ["anchored"], index
        used, how = shot.watcher.placed()
        assert how == ("given" if corners else "huts")
        assert max(math.dist(p, q) for p, q in zip(used, shot.camera.corners)) < (5 if corners else 15), used
        a, b = shot.game.random_move(shot.rng.random)
        shot.table.move(a, b)
        assert [(s.kind, s.move) for s in shot.feed("move")] == [("proposal", (a, b))], index


def test_corners_that_agree_in_no_order_are_not_used_and_say_why():
    shot = Shoot(31)
    shot.watcher = Watcher([(20, 20), (200, 20), (200, 140), (20, 140)], still_s=1.0)  # a corner of the table
    shot.feed("empty", table=None)
    seen = shot.feed("move")
    assert kinds(seen) == ["anchored"] and shot.watcher.placed()[1] == "huts"  # found instead
    shot = Shoot(32)
    shot.watcher = Watcher([(20, 20), (200, 20), (200, 140), (20, 140)], still_s=1.0)
    shot.feed("empty", table=None, frames=6)
    shot.watcher.empty_raw = shot.watcher.empty_raw.transpose(0)  # an empty board from another pose: no fit
    seen = shot.feed("move")
    assert kinds(seen) == ["unplaced"] and "in any order" in seen[0].reason and "not found" in seen[0].reason
    assert shot.watcher.placed() is None
