"""The board file: the shipped copy loads, and broken boards are refused with a useful message."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import yaml

from companion.games.clans.board import BoardError, load_board, load_board_file, parse_board

from conftest import SHARED

PACKAGED = Path(__file__).resolve().parents[3] / "companion" / "games" / "clans" / "clans.yaml"


@pytest.fixture
def raw() -> dict:
    return yaml.safe_load(PACKAGED.read_text())


def test_shipped_board_is_complete():
    b = load_board()
    assert len(b.territories) == 60
    assert sum(len(t.neighbors) for t in b.territories.values()) == 2 * 135
    for terrain in ("forest", "mountain", "steppe", "grassland"):
        assert sum(t.terrain == terrain for t in b.territories.values()) == 15
    assert [len(b.region_members(r)) for r in range(1, 13)] == [5] * 12
    assert b.chip_epochs() == [1, 1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 5]
    assert b.territories[16].neighbors == (14, 15, 17, 20, 22)
    assert b.epoch(3).favorable == "steppe" and b.epoch(3).hostile == "forest" and b.epoch(3).bonus == 3


@pytest.mark.skipif(not (SHARED / "boards" / "clans.yaml").exists(), reason="../shared not present")
def test_package_data_is_the_shared_board():
    """The package's board file is the shared one, word for word, with the territories' outlines
    (tools/board_outlines.py) after it."""
    text = PACKAGED.read_text(encoding="utf-8")
    cut = text.index("\n# outlines:") + 1
    assert text[:cut].encode("utf-8") == (SHARED / "boards" / "clans.yaml").read_bytes()
    assert yaml.safe_load(text[cut:]).keys() == {"outlines"}


def inside(point: tuple[int, int], polygon: tuple) -> bool:
    x, y = point
    hit = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def test_every_outline_holds_its_own_centre_and_no_other():
    b = load_board()
    for t in b.territories.values():
        assert len(t.outline) >= 6, t.number
        assert [o.number for o in b.territories.values() if inside(o.xy, t.outline)] == [t.number]
        xs, ys = [p[0] for p in t.outline], [p[1] for p in t.outline]
        assert max(xs) < 1010 and max(xs) - min(xs) < 400 and max(ys) - min(ys) < 400, t.number


@pytest.mark.parametrize("outlines, message", [
    ([1, 2], "outlines: expected a mapping"),
    ({61: [[0, 0], [1, 1], [2, 0]]}, "outline 61: numbers must be 1..60"),
    ({5: [[0, 0], [1, 1]]}, "outline 5: must be a list of 3 or more"),
    ({5: [[0, 0], [1, 1], [2, -1]]}, "outline 5: must be a list of 3 or more"),
    ({5: [[0, 0], [1, 1], [2, "3"]]}, "outline 5: must be a list of 3 or more"),
])
def test_broken_outlines_are_refused(raw, outlines, message):
    raw["outlines"] = outlines
    with pytest.raises(BoardError, match=message):
        parse_board(raw)


def test_a_board_without_outlines_still_loads(raw):
    raw.pop("outlines", None)
    assert all(t.outline == () for t in parse_board(raw).territories.values())


def test_neighbor_masks_match_lists():
    b = load_board()
    masks = b.neighbor_masks()
    for t in b.territories.values():
        assert [n for n in range(1, 61) if masks[t.number] >> n & 1] == list(t.neighbors)


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d["territories"][7]["neighbors"].remove(8), "territory 8: lists 7 as a neighbor but 7 does not"),
        (lambda d: d["territories"].pop(33), "territory 33: missing"),
        (lambda d: d["territories"][5].update(terrain="swamp"), "territory 5: unknown terrain 'swamp'"),
        (lambda d: d["territories"][6].update(region=1), "territory 6: region is 1, expected 2"),
        (lambda d: d["territories"][9]["neighbors"].append(9), "territory 9: lists itself"),
        (lambda d: d["territories"][9]["neighbors"].append(61), "territory 9: neighbor 61 is not a territory"),
        (lambda d: d["territories"][9].update(xy=[1]), "territory 9: xy must be two integers"),
        (lambda d: d["epochs"][0].update(chips=5), "epochs: the chart must hold 12 chips in all, it holds 13"),
        (lambda d: d["epochs"][1].update(hostile="lava"), "epoch 2: unknown hostile terrain 'lava'"),
    ],
)
def test_broken_board_names_territory_and_problem(raw, mutate, message):
    data = copy.deepcopy(raw)
    mutate(data)
    with pytest.raises(BoardError, match=message.replace("(", r"\(")):
        parse_board(data)


def test_board_file_that_is_not_yaml(tmp_path):
    bad = tmp_path / "b.yaml"
    bad.write_text("territories: [1, 2\n")
    with pytest.raises(BoardError, match="not valid YAML"):
        load_board_file(bad)


def test_the_engine_plays_the_board_its_gametype_declares():
    from companion.games import find_game
    from companion.games.clans import board
    from companion.table.gametype import read_resource

    declared = find_game("clans").board
    assert declared == board.BOARD_FILE
    data = json.loads(read_resource(declared))
    data["territories"] = {int(k): v for k, v in data["territories"].items()}
    assert parse_board(data) == load_board()


@pytest.mark.skipif(not (SHARED / "reference" / "clans-board-numbered.jpg").exists(), reason="../shared not present")
def test_the_outlines_are_what_the_tool_derives_from_the_photo():
    from PIL import Image

    from tools.board_outlines import outlines

    derived = outlines(Image.open(SHARED / "reference" / "clans-board-numbered.jpg"))
    assert {n: tuple(map(tuple, p)) for n, p in derived.items()} == \
        {t.number: t.outline for t in load_board().territories.values()}
