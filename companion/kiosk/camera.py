"""The camera above the board at the table: a thread that looks at a few frames a second.

    camera (companion.hw.camera) -> watcher (companion.games.clans.camera.watch)
        -> a proposal or a mismatch as a `CameraSaw` event on the daemon's queue (the loop hands it
           to the game, which puts "12 -> 13?" in the move entry, or says what the board shows)

The loop tells the thread where the table is after every change (`publish`: a copy of the game and
its phase, made on the loop's thread, so the watcher never reads what the loop changes). Only the
last few frames are kept, in memory (`frames`), and the latest is written for the page every
`FRAME_EVERY_S` in the runtime directory (RAM); the one picture kept on the card is the empty
board, in the board's frame (`EMPTY_FILE` in the state directory, 0600), so a restart or a
moved camera in the middle of a game still has it. Nothing leaves the box. A camera that fails is logged once and
looked at again every `RETRY_S`; the game goes on with keys.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
from collections import deque
from typing import Any, Callable

log = logging.getLogger("companion.camera")

EMPTY_FILE = "camera-empty.png"
KEEP_FRAMES = 3
RETRY_S = 10.0
TOLD = ("moved", "setup-missing", "setup-colour")  # what the watcher saw that the table hears without a move
TROUBLE_CHARS = 60  # the OLED's notice names the cause in this much
PLACED = {"given": "the corners given, in the order that agrees with the position",
          "huts": "found from the huts", "view": "found again from the empty board's print"}
FRAME_EVERY_S = 2.0  # the page's picture is this fresh
FRAME_WIDTH = 1280  # ... and at most this wide (the page's corners are in its pixels: scaled back to the camera's)
# While the camera watches, a thread that wants the interpreter takes it from another after this long (Python's
# default is 5 ms): a key waits at most this for the watcher's Python, not 5 ms (companion bench --only latency).
SWITCH_S = 0.0005


class CameraWatch:
    """`start()`, `close()` like the other adapters; `publish(position)` from the loop's thread."""

    def __init__(self, open_camera: Callable[[], Any], watcher: Any, put: Callable[[Any], Any], fps: float,
                 state_dir: str | None = None, clock: Callable[[], float] = time.monotonic,
                 frame_file: str | None = None) -> None:
        self.open_camera = open_camera
        self.watcher = watcher
        self.put = put
        self.period = 1.0 / fps
        self.state_dir = state_dir
        self.clock = clock
        self.frame_file = frame_file  # the latest frame for the page (pagelink.CAMERA_FRAME), None: none
        self.frame_written = -FRAME_EVERY_S
        self.shared_scale = 1.0  # camera pixels per pixel of the page's picture
        self.frames: deque = deque(maxlen=KEEP_FRAMES)
        self._position: Any = None
        self._corners: list | None = None  # new corners from the page, for the thread to take
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._thread: threading.Thread | None = None
        self._switch = sys.getswitchinterval()  # the interpreter's, given back at close()
        self.camera: Any = None
        self.failed: str | None = None  # the last failure, logged once
        self._load_empty()

    def publish(self, position: Any) -> None:
        with self._lock:
            self._position = position

    def camera_pixels(self, values: list[float]) -> list[float]:
        """Numbers in the pixels of the page's picture, in the camera's."""
        return [v * self.shared_scale for v in values]

    def set_corners(self, values: list[float]) -> str | None:
        """New corners (8 numbers, the camera's pixels): why they make no board, else None (the thread
        takes them)."""
        pairs = [(values[i], values[i + 1]) for i in range(0, 8, 2)]
        size = self.frames[-1].size if self.frames else None
        why = self.watcher.corners_problem(pairs, size)
        if why is None:
            with self._lock:
                self._corners = pairs
        return why

    def start(self) -> None:
        self._switch = sys.getswitchinterval()
        sys.setswitchinterval(min(self._switch, SWITCH_S))
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._closed.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            sys.setswitchinterval(self._switch)
        if self.camera is not None:
            try:
                self.camera.close()
            except Exception:
                log.exception("camera: closing")

    # the thread ---------------------------------------------------------------------------------
    def _run(self) -> None:
        while not self._closed.is_set():
            started = self.clock()
            try:
                self._look()
            except Exception as exc:  # a camera unplugged, a broken frame: logged once, tried again
                self._fail(f"{type(exc).__name__}: {exc}")
                if self.camera is not None:
                    try:
                        self.camera.close()
                    except Exception:
                        pass
                    self.camera = None
                self._closed.wait(RETRY_S)
                continue
            self._closed.wait(max(0.0, self.period - (self.clock() - started)))

    def _fail(self, why: str) -> None:
        if why != self.failed:
            from companion.hw.keyevents import CameraTrouble

            log.error("camera: %s (the game goes on with keys; tried again every %.0f s)", why, RETRY_S)
            self.put(CameraTrouble(why[:TROUBLE_CHARS]))
        self.failed = why

    def _look(self) -> None:
        if self.camera is None:
            self.camera = self.open_camera()
            log.info("camera: open")
            self.failed = None
        photo = self.camera.grab()
        if photo is None:
            return
        self.frames.append(photo)
        with self._lock:
            position, corners, self._corners = self._position, self._corners, None
        if corners is not None:
            self.watcher.set_corners(corners)
            log.info("camera: new corners %s", ", ".join(f"{x:.0f},{y:.0f}" for x, y in corners))
        self._share(photo)
        if position is None:
            return
        seen = self.watcher.frame(photo, self.clock(), position)
        placed = self.watcher.placed() if hasattr(self.watcher, "placed") else None
        if placed is not None:
            self._placed(*placed)
        if seen is None:
            return
        self._tell(seen, photo)

    def _placed(self, corners: Any, how: str) -> None:
        """The watcher placed the board: said in the log, and the empty board kept in the board's frame."""
        log.info("camera: the board placed (%s): corners %s", PLACED.get(how, how),
                 ", ".join(f"{x:.0f},{y:.0f}" for x, y in corners))
        kept = self.watcher.kept_empty()
        if kept is not None:
            self._keep_empty(kept)

    def _tell(self, seen: Any, photo: Any) -> None:
        from companion.hw.keyevents import CameraSaw

        move = f" {seen.move[0]} -> {seen.move[1]}" if seen.move else ""
        extra = f" ({seen.reason})" if seen.reason else ""
        where = f" territories {', '.join(map(str, seen.territories))}" if seen.territories else ""
        log.info("camera: %s%s at ply %d%s%s", seen.kind, move, seen.ply, where, extra)
        if seen.kind in ("proposal", "mismatch") and seen.move is not None or seen.kind in TOLD:
            self.put(CameraSaw(seen.kind, seen.ply, seen.move, seen.territories))
        elif seen.kind == "empty":
            self._keep_empty(self.watcher.kept_empty() or photo)

    def _share(self, photo: Any) -> None:
        """The latest frame for the page (in the runtime directory: RAM), every FRAME_EVERY_S. Written
        at the camera's own size when it is at most FRAME_WIDTH wide, so a tap on it is a pixel of the camera."""
        now = self.clock()
        if self.frame_file is None or now - self.frame_written < FRAME_EVERY_S:
            return
        self.frame_written = now
        shown = photo if photo.width <= FRAME_WIDTH else photo.resize(
            (FRAME_WIDTH, round(photo.height * FRAME_WIDTH / photo.width)))
        self.shared_scale = photo.width / shown.width
        why = write_picture(self.frame_file, shown, "JPEG", quality=80)
        if why is not None:
            self._fail(f"the page's picture not written to {self.frame_file}: {why}")

    # the empty board, kept across restarts ------------------------------------------------------
    def _empty_path(self) -> str | None:
        return os.path.join(self.state_dir, EMPTY_FILE) if self.state_dir else None

    def _keep_empty(self, photo: Any) -> None:
        path = self._empty_path()
        why = None if path is None else write_picture(path, photo, "PNG")
        if why is not None:
            log.error("camera: the empty board not kept in %s: %s", path, why)

    def _load_empty(self) -> None:
        path = self._empty_path()
        if path is None or not os.path.exists(path):
            return
        try:
            from PIL import Image

            with Image.open(path) as im:
                self.watcher.load_empty(im.convert("RGB"))
            log.info("camera: the empty board from %s", path)
        except Exception as exc:  # a damaged file: the next questions take a new one
            log.error("camera: %s cannot be read (%s): the empty board is taken again at the next new game",
                      path, exc)


def write_picture(path: str, picture: Any, fmt: str, **options: Any) -> str | None:
    """`picture` as `fmt` to `path` at once, for the kiosk's user only (0600); why it failed, or None."""
    import io

    from companion.util.fsutil import atomic_write_bytes

    data = io.BytesIO()
    picture.save(data, fmt, **options)
    try:
        atomic_write_bytes(path, data.getvalue(), mode=0o600)
    except OSError as exc:
        return str(exc.strerror or exc)
    return None


def camera_watch(settings: Any, kind: str, put: Callable[[Any], Any], state_dir: str | None,
                 corners: list[float] | None = None, frame_file: str | None = None) -> CameraWatch | None:
    """The camera of the config's `camera` section (companion.hw.settings.CameraConfig) for game
    `kind`, or None (logged) when the game has no camera or the corners make no board. `corners`:
    those the page set (a journal setting), over the config's; none at all: the camera waits for them."""
    from companion.games import find_game
    from companion.hw.camera import open_camera

    c = corners or settings.corners
    if not c:
        log.info("camera: no corners given: the board is found from the setup's huts "
                 "(or tap them on the table's page, /camera, with the PIN)")
    try:
        watcher = find_game(kind).make_camera_watcher(
            [(c[i], c[i + 1]) for i in range(0, len(c), 2)] if c else None, settings.still_s)
    except ValueError as exc:
        log.error("camera.corners: %s: the camera stays off (companion doctor --camera shows the picture)", exc)
        return None
    if watcher is None:
        log.info("camera: %s has no use for it; it stays off", kind)
        return None
    size = (settings.width, settings.height)
    return CameraWatch(lambda: open_camera(settings.source, settings.device, size, settings.fps), watcher, put,
                       settings.fps, state_dir, frame_file=frame_file)
