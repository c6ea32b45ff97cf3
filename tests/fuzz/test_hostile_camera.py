"""The camera's doors under seeded random input: the page's corners (HTTP and the key socket), the
folder camera's files (cut, junk, bombs), the kept picture of the empty board, random pictures
through the watcher, and the camera's news arriving at any moment of a game played with random keys.
Nothing raises, nothing is taken that is not exactly 8 plain numbers, and the game always replays."""

from __future__ import annotations

import io
import json
import math
import os
import random
import struct
import zlib
from pathlib import Path

from PIL import Image

from companion.games.clans.camera.watch import Position, Watcher
from companion.games.clans.controller import Controller
from companion.games.clans.record import Record
from companion.hw.camera import FolderCamera
from companion.table import keys as K
from companion.table import pagelink as link
from companion.table.effects import Persist

from tests.web.webtools import app_for, client, run, table

CASES = int(os.environ.get("COMPANION_FUZZ_CASES", "300"))


def _value(rnd: random.Random, depth: int = 0):
    pick = rnd.randrange(9)
    if pick == 0:
        return rnd.uniform(-2e5, 2e5)
    if pick == 1:
        return rnd.randint(-10**6, 10**6)
    if pick == 2:
        return rnd.choice([True, False, None, "12", "", "NaN", float("inf")])
    if pick == 3 and depth < 3:
        return [_value(rnd, depth + 1) for _ in range(rnd.choice((0, 7, 8, 8, 8, 9, 50)))]
    if pick == 4 and depth < 3:
        return {rnd.choice(("corners", "x", "")): _value(rnd, depth + 1)}
    return [rnd.uniform(0, 700) for _ in range(8)]  # a good one now and then


def _good(value) -> bool:
    return (isinstance(value, list) and len(value) == 8
            and all(type(v) in (int, float) and math.isfinite(v) and -1e5 < v < 1e5 for v in value))


def test_random_corners_on_the_page_and_the_socket_are_taken_only_when_they_are_eight_numbers(tmp_path):
    table(tmp_path / "state", "--players", "2", "--seed", "1")
    app = app_for(tmp_path / "state", pin="4711471147")  # no key socket: a good one answers 503
    rnd = random.Random(43)
    bodies = [{"corners": _value(rnd)} if rnd.random() < 0.9 else _value(rnd) for _ in range(CASES)]

    async def go():
        async with client(app) as c:
            origin = {"Origin": f"http://{c.host}:{c.port}"}
            csrf = (await (await c.post("/api/login", json={"pin": "4711471147"}, headers=origin)).json())["csrf"]
            out = []
            for body in bodies:
                text = json.dumps(body, allow_nan=True)
                reply = await c.post("/api/camera/corners", data=text, headers={
                    **origin, "X-CSRF-Token": csrf, "Content-Type": "application/json"})
                out.append(reply.status)
            return out

    statuses = run(go())
    for body, status in zip(bodies, statuses):
        good = isinstance(body, dict) and _good(body.get("corners"))
        assert status == 503 if good else status in (400, 413), (body, status)  # 413: a body too big
        value = body.get("corners") if isinstance(body, dict) else body
        decoded = link.decode(json.dumps({"camera_corners": value}, allow_nan=True).encode())
        assert (decoded is not None) == _good(value) and (decoded is None or isinstance(decoded, link.CameraCorners))


def _png_header(width: int, height: int) -> bytes:
    """A PNG whose header says `width` x `height` (a bomb, or nothing at all), its data a 1x1 picture's."""
    one = io.BytesIO()
    Image.new("RGB", (1, 1)).save(one, "PNG")
    data = one.getvalue()
    chunk = b"IHDR" + struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return data[:12] + chunk + struct.pack(">I", zlib.crc32(chunk)) + data[33:]


def _hostile_picture(rnd: random.Random) -> bytes:
    good = io.BytesIO()
    Image.new("RGB", (rnd.randint(1, 200), rnd.randint(1, 200)), (rnd.randrange(256),) * 3).save(
        good, rnd.choice(("PNG", "JPEG")))
    data = good.getvalue()
    return rnd.choice([
        data, data[:rnd.randrange(len(data))], b"", os.urandom(rnd.randint(1, 4000)),
        _png_header(100_000, 100_000), _png_header(0, 0), data[:20] + os.urandom(200),
    ])


def test_the_folder_camera_never_raises_on_what_lands_in_its_folder(tmp_path):
    rnd = random.Random(44)
    cam = FolderCamera(str(tmp_path))
    for i in range(CASES):
        (tmp_path / f"{i:05d}.{rnd.choice(('png', 'jpg', 'JPEG'))}").write_bytes(_hostile_picture(rnd))
        frame = cam.grab()
        assert frame is None or (frame.mode == "RGB" and frame.width * frame.height <= 40_000)


def test_random_pictures_through_the_watcher_never_raise(tmp_path):
    rnd = random.Random(45)
    game = Record.load(_record()).play()
    watcher = Watcher([(10, 10), (300, 12), (305, 200), (8, 210)], still_s=0.0)
    for i in range(min(CASES, 120)):
        size = (rnd.randint(310, 700), rnd.randint(215, 500))
        photo = Image.frombytes("RGB", size, os.urandom(size[0] * size[1] * 3)) if rnd.random() < 0.5 else \
            Image.new("RGB", size, tuple(rnd.randrange(256) for _ in range(3)))
        phase = rnd.choice(("empty", "move", "other"))
        watcher.frame(photo, float(i), Position(game.copy() if rnd.random() < 0.9 else None, phase))


def test_a_damaged_kept_empty_board_is_logged_and_taken_again(tmp_path, caplog):
    from companion.kiosk.camera import EMPTY_FILE, CameraWatch

    (tmp_path / EMPTY_FILE).write_bytes(_png_header(100_000, 100_000))
    watcher = Watcher([(10, 10), (300, 12), (305, 200), (8, 210)])
    CameraWatch(lambda: None, watcher, lambda e: None, 4.0, str(tmp_path))
    assert watcher.ref is None and "taken again at the next new game" in caplog.text


def _record() -> str:
    """A game in progress (the repository's copy of the spec's example: the aarch64 check has no ../shared)."""
    return str(Path(__file__).resolve().parent.parent / "data" / "examples" / "in-progress.record.json")


def test_the_cameras_news_at_any_moment_never_breaks_a_game():
    """Random keys with the camera's news (right, stale, illegal) in between: nothing raises, and the
    journaled actions rebuild exactly the game the table shows."""
    keys = list("0123456789") + [K.OK, K.OK, K.BACK, K.UP, K.DOWN, K.UNDO]
    proposals = 0
    for seed in range(max(10, CASES // 10)):
        rnd = random.Random(seed)
        c = Controller.quick_start(rnd.choice((2, 3, 4)), random.Random(seed)) if seed % 2 else Controller(rnd)
        actions: list = []
        for _ in range(400):
            game = c.game
            if rnd.random() < 0.25:
                if game is not None and not game.is_over and rnd.random() < 0.6:
                    move = game.random_move(rnd.random)
                else:
                    move = (rnd.randint(-3, 70), rnd.randint(-3, 70))
                ply = game.ply if game is not None and rnd.random() < 0.8 else rnd.randint(-1, 99)
                c.camera_seen(rnd.choice(("proposal", "mismatch", "unsure", "moved")), ply, move)
                proposals += c.screen().name == "camera"
            else:
                c.handle(rnd.choice(keys), 0.0)
            c.screen()
            for effect in c.pop_effects():
                if isinstance(effect, Persist):
                    actions = list(effect.actions) if effect.new_game else actions + list(effect.actions)
        if c.game is not None:
            rebuilt = Controller.from_actions(actions)
            assert rebuilt.game.state_key() == c.game.state_key(), seed
    assert proposals > 0  # (the camera's proposals were shown at all)
