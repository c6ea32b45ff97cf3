"""`companion camera propose` (docs/contracts.md section 9): bad input is one line and exit 2,
never a traceback; the answer's JSON is the contract's."""

from __future__ import annotations

import json
import random
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image

from tests.support import run_cli

from conftest import SHARED

RECORD = SHARED / "spec" / "examples" / "in-progress.record.json"
CORNERS = "10,10,630,10,630,470,10,470"


@pytest.fixture
def photos(tmp_path: Path) -> dict[str, Path]:
    out = {}
    for name, shade in (("before", 120), ("after", 120), ("empty", 110)):
        out[name] = tmp_path / f"{name}.jpg"
        Image.new("RGB", (640, 480), (shade, shade, 90)).save(out[name])
    return out


def propose(photos: dict[str, Path], *extra: str, record: Path = RECORD, corners: str = CORNERS):
    return run_cli("camera", "propose", "--record", str(record), "--before", str(photos["before"]),
                   "--after", str(photos["after"]), "--empty", str(photos["empty"]), "--corners", corners, *extra)


def one_line_exit_2(result: tuple[int, str, str], *words: str) -> str:
    status, out, err = result
    assert status == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, (status, err)
    for w in words:
        assert w in err, err
    return err


@pytest.mark.skipif(not RECORD.exists(), reason="../shared not present")
def test_an_unchanged_board_is_no_move_and_exit_0_with_the_contracts_json(photos):
    status, out, err = propose(photos, "--json")
    assert status == 0, err
    answer = json.loads(out.strip().splitlines()[-1])
    assert answer == {"move": None, "reason": "nothing changed on the board", "code": "still", "changed": []}
    status, out, _ = propose(photos)
    assert (status, out.strip()) == (0, "no move: nothing changed on the board")


@pytest.mark.skipif(not RECORD.exists(), reason="../shared not present")
def test_bad_input_is_one_line_and_exit_2(photos, tmp_path):
    one_line_exit_2(propose(photos, corners="1,2,3"), "--corners", "8 numbers")
    one_line_exit_2(propose(photos, corners="0,0,10,10,10,0,0,10"), "--corners", "convex")
    one_line_exit_2(propose(photos, corners="a,b,c,d,e,f,g,h"), "--corners")
    one_line_exit_2(propose(photos, record=tmp_path / "none.json"), "none.json")
    bad_record = tmp_path / "bad.json"
    bad_record.write_text('{"players": 9}')
    one_line_exit_2(propose(photos, record=bad_record), "bad.json")
    (tmp_path / "text.jpg").write_text("not a photograph")
    one_line_exit_2(propose({**photos, "after": tmp_path / "text.jpg"}), "text.jpg", "not a photograph")
    one_line_exit_2(propose({**photos, "empty": tmp_path / "missing.jpg"}), "missing.jpg", "cannot read")
    one_line_exit_2(propose({**photos, "before": tmp_path}), str(tmp_path))
    small = tmp_path / "small.png"
    Image.new("RGB", (320, 240)).save(small)
    one_line_exit_2(propose({**photos, "after": small}), "differ in size")


def png_header_only(path: Path, width: int, height: int) -> None:
    """A PNG that claims a huge picture (a decompression bomb's header, its data cut short)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(b"\0" * 100)) + chunk(b"IEND", b""))


@pytest.mark.skipif(not RECORD.exists(), reason="../shared not present")
def test_a_huge_or_broken_photograph_is_refused_before_it_is_decoded(photos, tmp_path):
    bomb = tmp_path / "bomb.png"
    png_header_only(bomb, 50000, 50000)  # beyond Pillow's own limit
    one_line_exit_2(propose({**photos, "after": bomb}), "bomb.png", "pixels")
    png_header_only(bomb, 5000, 5000)  # within Pillow's, beyond a photograph of the board
    one_line_exit_2(propose({**photos, "after": bomb}), "bomb.png", "5000x5000", "at most")
    rng = random.Random(7)
    for i in range(30):  # seeded junk: cut and flipped bytes of a real JPEG
        data = bytearray(photos["before"].read_bytes())
        for _ in range(rng.randint(1, 20)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        junk = tmp_path / f"junk{i}.jpg"
        junk.write_bytes(bytes(data[: rng.randint(10, len(data))]))
        status, _out, err = propose({**photos, "after": junk})
        assert status in (0, 2) and "Traceback" not in err, err


@pytest.mark.skipif(not RECORD.exists(), reason="../shared not present")
def test_seeded_corners_of_any_kind_never_crash(photos):
    rng = random.Random(11)
    answered = refused = 0
    for _ in range(60):
        values = [rng.choice([rng.uniform(-1000, 1700), rng.uniform(0, 640), float(rng.randrange(-3, 4)), 1e5])
                  for _ in range(8)]
        status, out, err = propose(photos, "--json", corners=",".join(f"{v:g}" for v in values))
        assert status in (0, 2) and "Traceback" not in err, err
        if status == 0:
            answered += 1
            assert json.loads(out.strip().splitlines()[-1])["move"] is None
        else:
            refused += 1
            assert len(err.strip().splitlines()) == 1
    assert refused > 0
