"""`companion bench --only camera`: the camera's proposal, timed beside one JPEG decode of the same photograph.

A Pi runs everything several times slower than a laptop, but it decodes a JPEG slower by about
as much as it does the rest, so the ratio of a proposal's time to one decode holds there. The
bench needs no camera and no board picture: it paints a board-like picture of its own (the
four terrains' colours in patches, grain), puts the huts of a real position on it as coloured
blocks, photographs it through a tilted camera at 1280x960 and saves it as JPEG. For `runs`
random legal moves it takes the photographs before and after the move and times `propose` (the
three decoded photographs mapped onto the board and compared), and one decode of the after photograph.
"""

from __future__ import annotations

import io
import random
import statistics
import time
from typing import Callable

from PIL import Image, ImageDraw, ImageFilter

from companion.games.clans.game import Game

PHOTO = (1280, 960)
CORNERS = [(150.0, 120.0), (1130.0, 100.0), (1210.0, 860.0), (70.0, 880.0)]  # a tilted camera
TERRAIN = [(80, 85, 80), (167, 159, 140), (211, 169, 99), (169, 165, 87)]
HUT = {"red": (190, 40, 35), "blue": (35, 70, 170), "green": (40, 140, 60), "yellow": (230, 190, 40),
       "black": (30, 30, 30)}


def board_picture(rng: random.Random) -> Image.Image:
    """A 1200x800 board-like picture: terrain-coloured patches with grain."""
    im = Image.new("RGB", (1200, 800), TERRAIN[2])
    draw = ImageDraw.Draw(im)
    for _ in range(400):
        x, y, r = rng.randrange(1200), rng.randrange(800), rng.randrange(20, 90)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=rng.choice(TERRAIN))
    grain = Image.effect_noise((1200, 800), 40).convert("RGB")
    return Image.blend(im.filter(ImageFilter.GaussianBlur(2)), grain, 0.15)


def photograph(board: Image.Image, game: Game | None, coeffs: list[float]) -> bytes:
    """The board with the game's huts on it (None: the empty board), as the camera sees it, as JPEG bytes."""
    im = board.copy()
    draw = ImageDraw.Draw(im)
    for t in (game.board.territories.values() if game else ()):
        k = 0
        for color, n in game.huts(t.number).items():
            for _ in range(n):
                x, y = t.xy[0] + 22 * (k % 3) - 22, t.xy[1] + 22 * (k // 3) - 11
                draw.rectangle((x - 9, y - 6, x + 11, y + 10), fill=(40, 35, 30))  # its shadow
                draw.rectangle((x - 11, y - 8, x + 9, y + 8), fill=HUT[color], outline=(20, 20, 20))
                k += 1
    shot = im.transform(PHOTO, Image.Transform.PERSPECTIVE, coeffs, Image.Resampling.BILINEAR, fillcolor=(90, 70, 50))
    out = io.BytesIO()
    shot.save(out, "JPEG", quality=85)
    return out.getvalue()


def decode(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.load()
    return im


def camera_bench(runs: int, seed: int) -> dict:
    """The proposal's and one decode's median time (ms), their ratio, what it named, what each frame
    costs the watcher (is it still?), and memory."""
    from companion.bench.path import current_rss_mb, peak_rss_mb
    from companion.games.clans.camera.geometry import perspective
    from companion.games.clans.camera.propose import propose
    from companion.games.clans.camera.watch import changed_pixels, still_picture

    rng = random.Random(seed)
    board = board_picture(rng)
    coeffs = perspective(CORNERS, [(0, 0), (1200, 0), (1200, 800), (0, 800)])
    empty = decode(photograph(board, None, coeffs))
    rss_before = current_rss_mb()
    proposals, decodes, frames, right = [], [], [], 0
    game = Game.new(3, seed=seed)
    for _ in range(runs):
        if game.is_over:
            game = Game.new(3, seed=rng.randrange(10 ** 6))
        before = photograph(board, game, coeffs)
        a, b = game.random_move(rng.random)
        after_game = game.copy()
        after_game.push(a, b)
        after = photograph(board, after_game, coeffs)
        seen_before, seen_after = decode(before), decode(after)
        t0 = time.perf_counter()
        found = propose(game, seen_before, seen_after, empty, CORNERS)
        proposals.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        decode(after)
        decodes.append(time.perf_counter() - t0)
        t0 = time.perf_counter()  # what every frame costs the watcher: is the picture still?
        changed_pixels(still_picture(seen_before), still_picture(seen_after))
        frames.append(time.perf_counter() - t0)
        right += found.move == (a, b)
        game.push(a, b)
    proposal_ms, decode_ms = statistics.median(proposals) * 1000, statistics.median(decodes) * 1000
    return {"runs": runs, "photo": f"{PHOTO[0]}x{PHOTO[1]}", "proposal_ms_median": round(proposal_ms, 1),
            "proposal_ms_max": round(max(proposals) * 1000, 1), "jpeg_decode_ms_median": round(decode_ms, 1),
            "ratio": round(proposal_ms / decode_ms, 1), "named_the_move": right,
            "stillness_ms_median": round(statistics.median(frames) * 1000, 2),
            "rss_mb_growth": round(current_rss_mb() - rss_before, 1), "peak_rss_mb": peak_rss_mb()}


# --- the camera at the table: what it costs the keys, and which library reads the webcam ------------

def table_shots(seed: int, count: int = 6) -> list[bytes]:
    """JPEG photographs (the bench's board, its tilted camera, 1280x960) of a game's first positions:
    the empty board, then one a move."""
    from companion.games.clans.camera.geometry import perspective

    rng = random.Random(seed)
    board = board_picture(rng)
    coeffs = perspective(CORNERS, [(0, 0), (1200, 0), (1200, 800), (0, 800)])
    game = Game.new(3, seed=seed)
    shots = [photograph(board, None, coeffs)]
    while len(shots) < count:
        shots.append(photograph(board, game, coeffs))
        game.push(*game.random_move(rng.random))
    return shots


class Feeder:
    """The table in front of a folder camera: every 1/fps seconds the next photograph goes into the
    folder whole (written aside, then renamed), each position held for `hold` frames (longer than
    the watcher's still time, so each is judged), the oldest removed."""

    def __init__(self, folder: str, shots: list[bytes], fps: float, hold: int = 6) -> None:
        import threading

        self.folder, self.shots, self.period, self.hold = folder, shots, 1.0 / fps, hold
        self.stop = threading.Event()
        self.frames = 0
        self.thread = threading.Thread(target=self.run, name="feeder", daemon=True)

    def run(self) -> None:
        import os

        while not self.stop.is_set():
            n = self.frames
            tmp = os.path.join(self.folder, f".{n:06d}.tmp")
            with open(tmp, "wb") as f:
                f.write(self.shots[(n // self.hold) % len(self.shots)])
            os.rename(tmp, os.path.join(self.folder, f"{n:06d}.jpg"))
            if n >= 3:
                os.remove(os.path.join(self.folder, f"{n - 3:06d}.jpg"))
            self.frames += 1
            self.stop.wait(self.period)

    def __enter__(self) -> "Feeder":
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()


class Gated:
    """A camera that gives frames only while `gate` is set: the bench turns the camera's work on and off
    without stopping its thread."""

    def __init__(self, camera: object, gate: object) -> None:
        self.camera, self.gate = camera, gate

    def grab(self) -> object:
        return self.camera.grab() if self.gate.is_set() else None  # type: ignore[attr-defined]

    def close(self) -> None:
        self.camera.close()  # type: ignore[attr-defined]


def latency_with_camera(key_to_frame: Callable[..., dict], games: int, seed: int, fps: float = 4.0,
                        still_s: float = 1.0, idle_s: float = 5.0, block_s: float = 1.0) -> dict:
    """Key -> frame (`key_to_frame`: companion.bench.run's, one game a call) with the camera off and on:
    the kiosk's camera thread (companion.kiosk.camera.CameraWatch, the Clans watcher, the page's
    picture written every 2 s) watches a folder camera fed a changing table at `fps` throughout, and
    its frames are let through in turn, a block of about `block_s` seconds of whole games on, the same
    games off (which goes first alternates), `games` blocks each: so a machine's other work falls on
    both alike. Then the camera alone for `idle_s`: its share of one core, and this process's memory
    with the camera on."""
    import os
    import tempfile
    import threading

    from companion.bench.path import current_rss_mb, percentile
    from companion.games import find_game
    from companion.games.clans.camera.watch import Position
    from companion.hw.camera import FolderCamera
    from companion.kiosk.camera import CameraWatch

    shots = table_shots(seed)
    seen: list = []
    gate = threading.Event()
    off: list[float] = []
    on: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = os.path.join(tmp, "camera")
        os.mkdir(folder)
        watcher = find_game("clans").make_camera_watcher(CORNERS, still_s)
        watcher.set_empty(decode(shots[0]).convert("RGB"))
        rss_off = current_rss_mb()
        watch = CameraWatch(lambda: Gated(FolderCamera(folder), gate), watcher, seen.append, fps,
                            frame_file=os.path.join(tmp, "frame.jpg"))
        watch.publish(Position(Game.new(3, seed=seed), "move"))
        next_seed = seed
        with Feeder(folder, shots, fps) as feeder:
            watch.start()
            try:
                for block in range(games):
                    seeds, started = [], time.perf_counter()
                    while not seeds or time.perf_counter() - started < block_s:  # the first run of the pair
                        seeds.append(next_seed)
                        next_seed += 1
                        (gate.set if block % 2 else gate.clear)()
                        (on if block % 2 else off).extend(key_to_frame(1, seeds[-1], keep=True)["times_ms"])
                    (gate.clear if block % 2 else gate.set)()
                    for s in seeds:
                        (off if block % 2 else on).extend(key_to_frame(1, s, keep=True)["times_ms"])
                gate.set()
                wall, cpu = time.perf_counter(), time.process_time()
                watch._closed.wait(idle_s)
                share = (time.process_time() - cpu) / (time.perf_counter() - wall)
                rss_on = current_rss_mb()
            finally:
                watch.close()

    def timing(ms: list[float]) -> dict:
        return {"keys": len(ms), "p50_ms": round(percentile(ms, 50), 3), "p99_ms": round(percentile(ms, 99), 3),
                "max_ms": round(max(ms), 3)}

    return {"camera_fps": fps, "without_camera": timing(off), "with_camera": timing(on),
            "p99_ratio": round(percentile(on, 99) / percentile(off, 99), 2),
            "camera_cpu_share": round(share, 3), "rss_mb_camera_off": rss_off, "rss_mb_camera_on": rss_on,
            "frames_fed": feeder.frames, "camera_said": len(seen)}


def write_photos(folder: str, seed: int) -> dict:
    """A game's record and three photographs of it (the empty board, before and after a move) in
    `folder`, for `companion camera propose` where no camera is (the booted image's check): what
    to give it and the move it should name."""
    import os

    from companion.games.clans.camera.geometry import perspective
    from companion.games.clans.record import Record

    rng = random.Random(seed)
    board = board_picture(rng)
    coeffs = perspective(CORNERS, [(0, 0), (1200, 0), (1200, 800), (0, 800)])
    game = Game.new(3, seed=seed)
    move = game.random_move(rng.random)
    after = game.copy()
    after.push(*move)
    Record.from_game(game).save(os.path.join(folder, "record.json"))
    for name, shown in (("empty", None), ("before", game), ("after", after)):
        with open(os.path.join(folder, f"{name}.jpg"), "wb") as f:
            f.write(photograph(board, shown, coeffs))
    return {"folder": folder, "corners": ",".join(f"{v:g}" for xy in CORNERS for v in xy), "move": list(move)}


def library_bench(library: str, frames: int, seed: int, fps: float = 4.0) -> dict:
    """A webcam read through `library` ("linuxpy": companion.hw.fake_v4l2's UVC camera giving the
    table's MJPEG frames; "opencv": OpenCV's image-sequence reader on the same JPEG files), `frames`
    frames at `fps`, each judged by the Clans watcher, in this process (run it fresh:
    `python -m companion.bench.camera library NAME FRAMES SEED`): the library's import time, the
    memory with the kiosk's modules alone and with the camera on, and the median time to grab one
    frame (read and decode to RGB) and to judge it."""
    import os
    import statistics
    import tempfile
    import time as clock

    import companion.kiosk.daemon  # noqa: F401  (what the kiosk has loaded before its camera opens)
    from companion.bench.path import current_rss_mb, peak_rss_mb
    from companion.games import find_game
    from companion.games.clans.camera.watch import Position
    from companion.hw.camera import OpenCVCamera, V4L2Camera

    shots = table_shots(seed)
    hold = max(1, round(fps * 1.5))
    watcher = find_game("clans").make_camera_watcher(CORNERS, 1.0)
    watcher.set_empty(decode(shots[0]).convert("RGB"))
    position = Position(Game.new(3, seed=seed), "move")
    rss_kiosk = current_rss_mb()
    grabs: list[float] = []
    judges: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        t0 = clock.perf_counter()
        if library == "linuxpy":
            import linuxpy.video.device  # noqa: F401

            from companion.hw.fake_v4l2 import FakeWebcam

            imported = clock.perf_counter() - t0
            rss_library = current_rss_mb()
            fake = FakeWebcam(os.path.join(tmp, "video0"), lambda k, w, h, f: shots[(k * 4 // 30 // hold) % len(shots)],
                              formats=("MJPG",), sizes=(PHOTO,))
            fake.__enter__()
            camera = V4L2Camera(str(fake.path), PHOTO, fps)
        else:
            import cv2  # noqa: F401

            imported = clock.perf_counter() - t0
            rss_library = current_rss_mb()
            for n in range(frames + 1):
                with open(os.path.join(tmp, f"{n:06d}.jpg"), "wb") as f:
                    f.write(shots[(n // hold) % len(shots)])
            camera = OpenCVCamera(os.path.join(tmp, "%06d.jpg"), PHOTO)
        try:
            while len(grabs) < frames:
                started = clock.perf_counter()
                photo = camera.grab()
                took = clock.perf_counter()
                if photo is not None:
                    watcher.frame(photo, took, position)
                    grabs.append(took - started)
                    judges.append(clock.perf_counter() - took)
                clock.sleep(max(0.0, 1 / fps - (clock.perf_counter() - started)))
            rss_on = current_rss_mb()
        finally:
            camera.close()
            if library == "linuxpy":
                fake.__exit__()
    both = [g + j for g, j in zip(grabs, judges)]
    return {"library": library, "frames": frames, "import_s": round(imported, 3), "rss_mb_kiosk": rss_kiosk,
            "rss_mb_library": rss_library, "rss_mb_camera_on": rss_on, "peak_rss_mb": peak_rss_mb(),
            "grab_ms_median": round(statistics.median(grabs) * 1000, 1),
            "judge_ms_median": round(statistics.median(judges) * 1000, 1),
            "grab_and_judge_ms_median": round(statistics.median(both) * 1000, 1),
            "grab_and_judge_ms_max": round(max(both) * 1000, 1)}


def libraries(frames: int, seed: int) -> dict:
    """`library_bench` for each webcam library installed here, each in a fresh process."""
    import json
    import subprocess
    import sys

    from companion.hw.camera import importable

    out = {}
    for name, module in (("linuxpy", "linuxpy.video"), ("opencv", "cv2")):
        if importable(module):
            done = subprocess.run([sys.executable, "-m", "companion.bench.camera", "library", name, str(frames),
                                   str(seed)], check=True, capture_output=True, text=True)
            out[name] = json.loads(done.stdout.splitlines()[-1])
    return out


if __name__ == "__main__":  # the bench's photographs, and one library's run in a process of its own
    import json
    import sys

    if len(sys.argv) == 4 and sys.argv[1] == "photos":
        print(json.dumps(write_photos(sys.argv[2], int(sys.argv[3]))))
    elif len(sys.argv) == 5 and sys.argv[1] == "library" and sys.argv[2] in ("linuxpy", "opencv"):
        print(json.dumps(library_bench(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))))
    else:
        sys.exit("usage: python -m companion.bench.camera photos FOLDER SEED | library linuxpy|opencv FRAMES SEED")
