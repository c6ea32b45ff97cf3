"""The camera at the table, end to end: `companion run` with a `folder` camera (its newest picture is
the frame) and rendered photographs of a real game. The box anchors on the board, proposes the move
the table made ("From 12 to 13? Hash confirms."), # through the key socket confirms it, a typed
move the board does not show is named, and the empty board kept in the state directory survives a
restart. Every wait is for a log line or an announcement."""

from __future__ import annotations

import json
import random
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from PIL import Image

from companion.games.clans.record import Record

from tests.games.clans.camera import photos

from conftest import SHARED

pytestmark = pytest.mark.skipif(not photos.have_board_picture(),
                                reason=f"the board picture {photos.BOARD_PICTURE} is not there (../shared)")

RECORD = SHARED / "spec" / "examples" / "in-progress.record.json"
WAIT_S = 120  # an emulated aarch64 is several times slower; an event ends each wait far sooner
RELOOK_S = 0.5


class Box:
    """`companion run` with a folder camera; the table's photographs go into the folder."""

    def __init__(self, tmp: Path) -> None:
        self.tmp, self.folder, self.state = tmp, tmp / "camera", tmp / "state"
        self.folder.mkdir(exist_ok=True)
        self.state.mkdir(exist_ok=True)
        self.rng = random.Random(11)
        record = Record.load(str(RECORD))
        self.game = record.play(0)
        self.table = photos.Table.setup(self.game, random.Random(11))
        for move in record.moves:
            self.play(move.frm, move.to)
        self.camera = photos.random_camera(self.rng, (640, 480), flip=False)
        self.shots = 0
        self.empty, corners = photos.photograph(None, self.camera, photos.random_look(self.rng, "clean"))
        self.corners = [round(v, 1) for xy in corners for v in xy]
        self.configure(self.corners)
        self.proc: subprocess.Popen | None = None
        self.lines: list[str] = []
        self.said: list[str] = []
        self.news = threading.Condition()

    def configure(self, corners: list[float] | None) -> None:
        (self.tmp / "config.yaml").write_text(
            "buttons: null\ncamera:\n  source: folder\n  device: {}\n{}  fps: 8\n  still_s: 0.4\n".format(
                self.folder, f"  corners: {corners}\n" if corners else ""))

    def play(self, frm: int, to: int) -> None:
        self.table.move(frm, to)
        self.game.push(frm, to)
        self.table.reconcile(self.game)

    def shoot(self, table=photos.Table) -> None:
        """The camera's next frame: the table as it is (or `table`)."""
        photo, _ = photos.photograph(self.table if table is photos.Table else table, self.camera,
                                     photos.random_look(self.rng, "clean"))
        self.shots += 1
        tmp = self.folder / f".{self.shots:04d}.tmp"
        photo.save(tmp, "PNG")
        tmp.rename(self.folder / f"{self.shots:04d}.png")  # whole, or not there

    def start(self, *more: str) -> None:
        self.lines, self.said = [], []
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "run", "--display", "dummy", "--config", str(self.tmp / "config.yaml"),
             "--state-dir", str(self.state), "--key-socket", str(self.tmp / "keys.sock"),
             "--announce-log", str(self.tmp / "said.jsonl"), *more],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        threading.Thread(target=self._read, daemon=True).start()
        self.wait(lambda: any("camera: open" in line for line in self.lines), "the camera opens")

    def _read(self) -> None:
        for line in self.proc.stderr:
            with self.news:
                self.lines.append(line)
                self.news.notify_all()
        with self.news:
            self.news.notify_all()  # the box ended

    def wait(self, done, what: str) -> None:
        """Until `done()`: woken by each log line the box writes (the announce log is written beside
        them, so a wait for it is looked at again every RELOOK_S too)."""
        deadline = time.monotonic() + WAIT_S
        with self.news:
            while not done():
                if self.proc.poll() is not None:
                    raise AssertionError(f"the box ended waiting for {what}:\n{''.join(self.lines[-30:])}")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no {what} in {WAIT_S} s:\n{''.join(self.lines[-30:])}")
                self.news.wait(min(left, RELOOK_S))

    def logged(self, text: str) -> bool:
        return any(text in line for line in self.lines)

    def heard(self, text: str) -> bool:
        path = self.tmp / "said.jsonl"
        return path.exists() and any(text in json.loads(line)["text"] for line in path.read_text().splitlines())

    def keys(self, text: str) -> None:
        self.send({"keys": list(text)})

    def send(self, message: dict) -> None:
        with socket.socket(socket.AF_UNIX) as s:
            s.connect(str(self.tmp / "keys.sock"))
            s.sendall((json.dumps(message) + "\n").encode())

    def move_confirmed(self, ply: int) -> None:
        """A move made on the table at `ply`: proposed, said, confirmed with #, and the board anchored after it."""
        a, b = self.game.random_move(self.rng.random)
        self.play(a, b)
        self.shoot()
        self.wait(lambda: self.logged(f"camera: proposal {a} -> {b} at ply {ply}"), "the proposal")
        self.wait(lambda: self.heard(f"From {a} to {b}? Hash confirms."), "the proposal said")
        self.keys("#")
        self.wait(lambda: self.logged(f"camera: anchored at ply {ply + 1}"), "the anchor after the move")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(30)


@pytest.fixture
def box(tmp_path):
    made = Box(tmp_path)
    yield made
    made.stop()


def test_the_box_proposes_the_move_it_sees_and_names_one_it_does_not(box):
    ply = box.game.ply
    box.start("--load", str(RECORD))
    box.shoot()  # the board as the record left it, but no empty board yet
    box.wait(lambda: box.logged(f"camera: no_empty at ply {ply}"), "the camera asking for the empty board")

    # the empty board as an earlier game's questions kept it, then a restart
    box.stop()
    box.empty.save(box.state / "camera-empty.png")
    box.start()  # (the journal resumes the record's game)
    box.shoot()
    box.wait(lambda: box.logged(f"camera: anchored at ply {ply}"), "the anchor")

    box.move_confirmed(ply)

    # a move typed, and another made on the board
    c = next(t for t in box.game.movable() if len(box.game.targets(t)) >= 2)
    shown, typed = box.game.targets(c)[:2]
    box.keys(f"{c}#{typed}#")
    box.table.move(c, shown)
    box.game.push(c, typed)
    box.shoot()
    box.wait(lambda: box.logged(f"camera: mismatch {c} -> {shown} at ply {ply + 2}"), "the mismatch")
    box.wait(lambda: box.heard(f"The board shows {c} to {shown}, but {c} to {typed} was played."),
             "the mismatch said")


def test_corners_tapped_on_the_page_are_taken_kept_and_outlive_a_restart(box):
    ply = box.game.ply
    box.configure(None)  # no corners in the config: the page's are awaited
    box.empty.save(box.state / "camera-empty.png")
    box.start("--load", str(RECORD))
    assert box.logged("camera: no corners given")
    box.shoot()
    frame = box.tmp / "camera.jpg"  # the page's picture, beside the key socket
    box.wait(frame.exists, "the page's picture")
    assert oct(frame.stat().st_mode & 0o777) == "0o600"
    box.send({"camera_corners": [1, 2, 3, 4, 5, 6, 7, 8]})  # no board: refused, nothing kept
    box.wait(lambda: box.logged("camera corners from the page refused"), "the refusal")
    box.send({"camera_corners": box.corners})
    box.wait(lambda: box.logged("camera: new corners"), "the corners taken")
    box.wait(lambda: box.logged(f"camera: anchored at ply {ply}"), "the anchor")
    box.stop()
    box.start()
    box.shoot()
    box.wait(lambda: box.logged(f"camera: anchored at ply {ply}"), "the anchor after a restart")
    assert not box.logged("camera: no corners given")


def test_without_corners_the_box_finds_the_board_and_again_when_the_camera_moved(box):
    ply = box.game.ply
    box.configure(None)
    box.empty.save(box.state / "camera-empty.png")  # the questions' photograph of the empty board
    box.start("--load", str(RECORD))
    assert box.logged("camera: no corners given")
    box.shoot()
    box.wait(lambda: box.logged("camera: the board placed (found from the huts)"), "the board found")
    box.wait(lambda: box.logged(f"camera: anchored at ply {ply}"), "the anchor")
    with Image.open(box.state / "camera-empty.png") as kept:
        assert kept.size == (600, 400)  # kept anew in the board's frame
    box.move_confirmed(ply)
    box.stop()
    # the stand knocked while the box was off: the board found again from the kept view, no taps
    box.camera = photos.random_camera(random.Random(5), (640, 480), flip=True)
    for old in box.folder.iterdir():  # (the frames from before: the camera looks from elsewhere now)
        old.unlink()
    box.start()
    box.shoot()
    box.wait(lambda: box.logged("camera: the board placed (found again from the empty board's print)"),
             "the board found again")
    box.wait(lambda: box.logged(f"camera: anchored at ply {ply + 1}"), "the anchor after a restart")
    c, d = box.game.random_move(box.rng.random)
    box.play(c, d)
    box.shoot()
    box.wait(lambda: box.logged(f"camera: proposal {c} -> {d} at ply {ply + 1}"), "the proposal after it")


def test_corners_in_another_order_in_the_config_are_turned_round(box):
    ply = box.game.ply
    pairs = [box.corners[i:i + 2] for i in range(0, 8, 2)]
    box.configure([v for xy in (pairs[1], pairs[0], pairs[3], pairs[2]) for v in xy])  # mirrored
    box.empty.save(box.state / "camera-empty.png")
    box.start("--load", str(RECORD))
    box.shoot()
    box.wait(lambda: box.logged("camera: the board placed (the corners given"), "the corners turned round")
    box.wait(lambda: box.logged(f"camera: anchored at ply {ply}"), "the anchor")
    a, b = box.game.random_move(box.rng.random)
    box.play(a, b)
    box.shoot()
    box.wait(lambda: box.logged(f"camera: proposal {a} -> {b} at ply {ply}"), "the proposal")
    assert all(f"proposal {a} -> {b}" in line for line in box.lines if "camera: proposal" in line)
