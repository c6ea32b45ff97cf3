"""`companion camera propose` (docs/contracts.md section 9): bad input is one line and exit 2,
never a traceback; the answer's JSON is the contract's."""

from __future__ import annotations

import io
import json
import os
import random
import struct
import threading
import time
import warnings
import zlib
from pathlib import Path

import pytest
from PIL import Image

from companion.games.clans.camera.command import corners_joined

from tests.cpu_budget import slowness
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
def test_photographs_that_do_not_show_the_position_are_not_read_and_exit_0_with_the_contracts_json(photos):
    status, out, err = propose(photos, "--json")
    assert status == 0, err
    answer = json.loads(out.strip().splitlines()[-1])
    assert answer == {"move": None, "code": "no_board", "changed": [], "corners": None, "found": False,
                      "reason": "the photograph does not show the position under these corners in any order "
                                "(40 of the 40 territories with huts look empty)"}
    status, out, _ = propose(photos)
    assert (status, out.strip()) == (0, f"no move: {answer['reason']}")
    # without corners the board is looked for, and the answer says it was not found
    status, out, err = run_cli("camera", "propose", "--record", str(RECORD), "--before", str(photos["before"]),
                               "--after", str(photos["after"]), "--empty", str(photos["empty"]), "--json")
    answer = json.loads(out.strip().splitlines()[-1])
    assert status == 0 and answer["code"] == "no_board" and answer["found"] is True and answer["corners"] is None
    assert answer["reason"] == "the board was not found: hardly anything differs from the empty board", answer


@pytest.mark.skipif(not RECORD.exists(), reason="../shared not present")
def test_corners_with_a_negative_first_number_are_read(photos):
    for corners in ("-3,5,630,5,630,470,-3,470", "-3.6,5,630,5,630,470,-.5,470"):
        status, out, err = propose(photos, "--json", corners=corners)
        assert status == 0, err  # (argparse alone takes "-3,..." for an option: "expected one argument")
        assert json.loads(out.strip().splitlines()[-1])["code"] == "no_board"
    status, _out, err = run_cli("camera", "propose", "--record", str(RECORD), "--before", str(photos["before"]),
                                "--after", str(photos["after"]), "--empty", str(photos["empty"]),
                                "--corners=-3,5,630,5,630,470,-3,470")
    assert status == 0, err
    one_line_exit_2(propose(photos, corners="-x,5"), "--corners")
    assert corners_joined(["--corners", "-1,2", "--json", "--corners", "--json"]) == [
        "--corners=-1,2", "--json", "--corners", "--json"]


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


def answered_in(seconds: float, *argv: str, release: Path | None = None) -> tuple[tuple[int, str, str], float]:
    """`companion ARGV` in a thread: its result and how long it took, failing when it has not answered in
    `seconds` (then the FIFO `release` is opened for writing once, so the stuck reader ends)."""
    done, result = threading.Event(), []

    def call() -> None:
        t0 = time.monotonic()
        result.append(run_cli(*argv))
        result.append(time.monotonic() - t0)
        done.set()

    threading.Thread(target=call, daemon=True).start()
    if not done.wait(seconds):
        if release is not None:
            os.close(os.open(release, os.O_WRONLY | os.O_NONBLOCK))
        done.wait(seconds)
        pytest.fail(f"companion {' '.join(argv[:2])} had not answered after {seconds} s")
    return result[0], result[1]


@pytest.mark.skipif(not RECORD.exists(), reason="../shared not present")
def test_a_fifo_a_device_or_a_folder_given_as_a_photograph_is_one_line_and_exit_2_at_once(photos, tmp_path):
    fifo = tmp_path / "camera.jpg"
    os.mkfifo(fifo)
    budget = max(1.0, slowness())  # "within a second", on this machine
    for where, picture, word in (("before", fifo, "a pipe"), ("after", Path("/dev/zero"), "a device"),
                                 ("empty", tmp_path, "a folder")):
        argv = ["camera", "propose", "--record", str(RECORD), "--corners", CORNERS]
        for name in ("before", "after", "empty"):
            argv += [f"--{name}", str(picture if name == where else photos[name])]
        result, took = answered_in(10 * budget, *argv, release=fifo)
        one_line_exit_2(result, str(picture), word)
        assert took < budget, (where, took)


def png_with_a_warning(path: Path, size: tuple[int, int]) -> None:
    """A good PNG with an animation chunk that says 0 frames: Pillow warns "Invalid APNG" as it opens it."""
    data = io.BytesIO()
    Image.new("RGB", size, (120, 120, 90)).save(data, "PNG")
    raw = data.getvalue()
    at = raw.index(b"IDAT") - 4  # before the first data chunk
    actl = struct.pack(">II", 0, 0)
    chunk = struct.pack(">I", len(actl)) + b"acTL" + actl + struct.pack(">I", zlib.crc32(b"acTL" + actl))
    path.write_bytes(raw[:at] + chunk + raw[at:])


@pytest.mark.skipif(not RECORD.exists(), reason="../shared not present")
def test_pillows_warnings_never_reach_the_user(photos, tmp_path):
    odd = tmp_path / "odd.png"
    png_with_a_warning(odd, (640, 480))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with Image.open(odd):  # (the picture does make Pillow warn)
            pass
        assert caught and "APNG" in str(caught[0].message)
        caught.clear()
        status, out, err = propose({**photos, "after": odd}, "--json")
    assert status == 0 and err == "" and not caught, (err, [str(w.message) for w in caught])
    assert json.loads(out.strip().splitlines()[-1])["code"] == "no_board"
