"""The camera names the move on synthetic photographs of real games (the harness: accuracy.py).

The accuracy tests run the harness on a seeded sample of about 200 moves (tens of seconds: marked
slow) and skip until the detector `companion.games.clans.camera.propose` exists. The harness's own
plumbing is tested quickly with stand-in proposers.
"""

from __future__ import annotations

import platform

import json
from types import SimpleNamespace

import pytest

from companion.games.clans.camera.geometry import to_board
from companion.games.clans.camera.propose import judge
from companion.games.clans.camera.views import detail
from companion.games.clans.record import Record

from tests.games.clans.camera import photos
from tests.games.clans.camera.accuracy import (CLEAN_ISH, CONDITIONS, DEFAULT_MIX, LIFE, REFUSALS, Report,
                                               example_records, parse_sizes, parse_weights, run, verdict)

# 200 moves here, 80 on the aarch64 check (under emulation): fixed per machine kind, never by how busy
# the CPU is now (a loaded CI drew 138, a different sample, where 4 clean-ish moves stayed unsure: 96.9%)
EMULATED = platform.machine() in ("aarch64", "arm64")
SAMPLE_MOVES = 80 if EMULATED else 200
SEED = 7
SMALL = {(640, 480): 1.0}

needs_picture = pytest.mark.skipif(not photos.have_board_picture(),
                                   reason=f"the board picture {photos.BOARD_PICTURE} is not there (../shared)")


@pytest.fixture(scope="module")
def report() -> Report:
    if not photos.have_board_picture():
        pytest.skip(f"the board picture {photos.BOARD_PICTURE} is not there (../shared)")
    pytest.importorskip("companion.games.clans.camera.propose",
                        reason="the camera's detector companion.games.clans.camera.propose is not there yet")
    return run(SAMPLE_MOVES, SEED)


def cases(report: Report, *verdicts: str) -> str:
    return "\n".join(s.describe() for s in report.cases(*verdicts)) + "\n" + report.line()


@pytest.mark.slow
def test_the_camera_never_names_a_move_nobody_made(report):
    assert report.total.wrong == 0, cases(report, "wrong")
    assert report.total.error == 0, cases(report, "error")


@pytest.mark.slow
def test_the_camera_is_nearly_always_right_on_clean_ish_photos(report):
    tally = report.clean_ish
    assert tally.n >= 0.6 * SAMPLE_MOVES
    assert tally.share >= 0.97, cases(report, "unsure", "wrong")


@pytest.mark.slow
def test_a_hand_over_the_board_gives_none_or_the_true_move(report):
    hands = report.tally(("hand",))
    assert hands.n >= SAMPLE_MOVES // 25  # (the seeded sample has enough of them to mean something)
    assert hands.wrong == 0 and hands.error == 0, cases(report, "wrong", "error")


@pytest.mark.slow
def test_two_moves_or_none_are_refused(report):
    refusals = report.tally(REFUSALS)
    assert refusals.n >= SAMPLE_MOVES // 40
    assert refusals.wrong == 0, cases(report, "wrong")


# ----- a table's life: a cup, a phone or a paw set down, dusk, a lamp's glare (issue 51, item 4) ----
# The first 90 moves of seed 11 held 3 wrong moves before the rules against them (two paws, a glare),
# and named 18 of 29 dusk moves; as many on a slower CPU (the wrong ones are among them).
LIFE_MOVES = 90
LIFE_SEED = 11
DUSK_MOVES = 60  # judged as the watcher judges (the corners as given): one of seed 11's was named backwards


def as_watched(game, before, after, empty, corners):
    """The watcher's way: the views through the corners as given (no orientation), judged."""
    ref, was, now = (detail(to_board(photo, corners)) for photo in (empty, before, after))
    return judge(game, was, now, ref)


@pytest.fixture(scope="module")
def life() -> Report:
    if not photos.have_board_picture():
        pytest.skip(f"the board picture {photos.BOARD_PICTURE} is not there (../shared)")
    return run(LIFE_MOVES, LIFE_SEED, {condition: 1.0 for condition in LIFE})


@pytest.mark.slow
@pytest.mark.parametrize("condition", LIFE)
def test_a_tables_life_never_names_a_wrong_move(life, condition):
    tally = life.tally((condition,))
    assert tally.n >= LIFE_MOVES // 5
    assert tally.wrong == 0 and tally.error == 0, cases(life, "wrong", "error")


@pytest.mark.slow
def test_at_dusk_and_under_a_glare_most_moves_are_still_named(life):
    assert life.tally(("dusk",)).share >= 0.75, cases(life, "unsure")
    assert life.tally(("glare",)).share >= 0.5, cases(life, "unsure")


@pytest.mark.slow
def test_dusk_judged_as_the_watcher_judges_never_names_a_wrong_move():
    if not photos.have_board_picture():
        pytest.skip(f"the board picture {photos.BOARD_PICTURE} is not there (../shared)")
    report = run(DUSK_MOVES, LIFE_SEED, {"dusk": 1.0}, proposer=as_watched)
    assert report.total.wrong == 0 and report.total.error == 0, cases(report, "wrong", "error")
    assert report.total.share >= 0.9, cases(report, "unsure")


# ----- the harness itself, with stand-in proposers --------------------------------------------
def recorded_proposer():
    """Answers the first example record's next move (the harness's first game is that record)."""
    moves = Record.load(example_records()[0]).moves
    seen = []

    def propose(game, before, after, empty, corners):
        seen.append((game.ply, before.size, after.size, empty.size, len(corners)))
        m = moves[game.ply]
        return SimpleNamespace(move=(m.frm, m.to), reason="from the record")

    return propose, seen


def test_verdicts():
    assert verdict((3, 4), (3, 4)) == "right"
    assert verdict((3, 4), None) == "unsure"
    assert verdict((3, 4), (4, 3)) == "wrong"
    assert verdict(None, None) == "right"
    assert verdict(None, (3, 4)) == "wrong"


@needs_picture
def test_a_proposer_that_knows_the_move_is_right_and_sees_the_position_before_it():
    propose, seen = recorded_proposer()
    report = run(6, seed=1, mix={"clean": 1, "nudge": 1}, sizes=SMALL, proposer=propose)
    assert report.total.n == 6 and report.total.right == 6, report.line()
    assert [ply for ply, *_ in seen] == list(range(6))
    assert all(s[1:] == ((640, 480),) * 3 + (4,) for s in seen)
    assert report.samples[0].game.startswith("record:")


@needs_picture
def test_a_move_where_none_was_made_is_wrong():
    propose, _ = recorded_proposer()
    report = run(4, seed=1, mix={"no_move": 1}, sizes=SMALL, proposer=propose)
    assert report.total.wrong == 4 and all(s.expected is None and s.moves == () for s in report.samples)


@needs_picture
def test_refusing_is_right_only_where_no_single_move_explains_the_photos():
    never = lambda *args: SimpleNamespace(move=None, reason="not sure")  # noqa: E731
    report = run(12, seed=3, mix={"two_moves": 1, "no_move": 1, "hand": 1, "clean": 1}, sizes=SMALL, proposer=never,
                 records=False)
    for s in report.samples:
        assert s.verdict == ("right" if s.condition in REFUSALS else "unsure")
        if s.condition == "two_moves":
            assert len(s.moves) == 2 and s.moves[0][0] != s.moves[1][0]
    line = report.line()
    assert line.startswith("camera accuracy: 12 moves, right ") and "wrong 0" in line and "ms per proposal" in line
    data = json.loads(json.dumps(report.as_dict()))
    assert data["n"] == 12 and data["wrong"] == 0 and sum(c["n"] for c in data["conditions"].values()) == 12


@needs_picture
def test_a_crashing_proposer_is_scored_and_the_run_goes_on(tmp_path):
    def crash(*args):
        raise RuntimeError("no idea")

    report = run(3, seed=2, mix={"clean": 1}, sizes=SMALL, proposer=crash, save=tmp_path)
    assert report.total.error == 3 and "RuntimeError: no idea" in report.samples[0].reason
    assert len(list(tmp_path.glob("*-after.png"))) == 3


@needs_picture
def test_a_tables_life_is_photographed_as_its_conditions_say():
    propose, seen = recorded_proposer()
    report = run(9, seed=6, mix={condition: 1.0 for condition in LIFE}, sizes=SMALL, proposer=propose)
    assert report.total.n == 9 and report.total.right == 9, report.line()
    assert {s.condition for s in report.samples} == set(LIFE)
    for s in report.samples:
        word = {"object": ("cup", "phone", "paw"), "dusk": ("dusk",), "glare": ("glare over",)}[s.condition]
        assert any(w in s.scene for w in word) and s.scene in s.describe(), s.describe()
    again = run(9, seed=6, mix={condition: 1.0 for condition in LIFE}, sizes=SMALL, proposer=recorded_proposer()[0])
    assert [s.scene for s in again.samples] == [s.scene for s in report.samples]


def test_the_mix_and_sizes_options():
    assert parse_weights("clean=3,hand", DEFAULT_MIX) == {"clean": 3.0, "hand": 1.0}
    assert parse_sizes("1280x960=3,640x480") == {(1280, 960): 3.0, (640, 480): 1.0}
    with pytest.raises(Exception):
        parse_weights("foggy=1", DEFAULT_MIX)
    with pytest.raises(ValueError):
        run(1, mix={"foggy": 1}, proposer=lambda *a: None)
    assert set(CLEAN_ISH) <= set(DEFAULT_MIX) and not set(CLEAN_ISH) & set(REFUSALS)
    assert set(LIFE) <= set(CONDITIONS) and not set(LIFE) & set(DEFAULT_MIX)  # (the default mix is as it was)
    assert parse_weights("object=2,dusk,glare", CONDITIONS) == {"object": 2.0, "dusk": 1.0, "glare": 1.0}


@pytest.mark.slow
def test_the_setup_check_names_the_faults_and_never_questions_a_right_setup():
    if not photos.have_board_picture():
        pytest.skip(f"the board picture {photos.BOARD_PICTURE} is not there (../shared)")
    from tests.games.clans.camera.accuracy import setup_run

    counts = setup_run(15 if EMULATED else 45, seed=3)
    assert counts["false"] == 0, counts
    assert counts["named"] >= 0.9 * counts["faults"], counts
