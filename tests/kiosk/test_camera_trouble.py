"""A camera that cannot be opened or read: the log and the OLED say so once per cause, the camera
is tried again, and the game goes on with keys; the game's news from the camera reaches the table
only as the daemon's queue hands it on."""

from __future__ import annotations

import queue

from companion.hw.camera import CameraError
from companion.hw.keyevents import CameraSaw, CameraTrouble
from companion.kiosk import camera as kcamera
from companion.kiosk.camera import CameraWatch

from tests.web.webtools import table


class Watcher:
    def frame(self, photo, now, position):
        return None

    def corners_problem(self, corners, size):
        return None

    def set_corners(self, corners):
        pass


def test_a_camera_that_does_not_open_is_told_once_and_tried_again(monkeypatch):
    monkeypatch.setattr(kcamera, "RETRY_S", 0.01)  # (tried again at once, so the test sees it)
    got: queue.Queue = queue.Queue()
    tries: queue.Queue = queue.Queue()

    def unplugged():
        tries.put(1)
        raise CameraError("camera /dev/video0: OpenCV cannot open it")

    watch = CameraWatch(unplugged, Watcher(), got.put, fps=50.0)
    watch.start()
    try:
        for _ in range(5):
            tries.get(timeout=30)  # five attempts ...
    finally:
        watch.close()
    told = [got.get_nowait() for _ in range(got.qsize())]
    assert told == [CameraTrouble("CameraError: camera /dev/video0: OpenCV cannot open it")]  # ... one notice


def test_the_oled_says_what_the_camera_lacks_and_play_goes_on(tmp_path):
    d = table(tmp_path / "state", "--players", "2", "--seed", "3")
    d.step(CameraTrouble("CameraError: camera /dev/video0: OpenCV cannot open it"))
    screen = d.shell.screen()
    assert screen.title == "Camera" and "does not answer" in " ".join(screen.lines)
    d.step("*")  # any key takes the notice away: the game is there as before
    assert d.shell.screen().name == "entry"
    game = d.shell.game.game
    frm = game.movable()[0]
    d.step(CameraSaw("proposal", game.ply, (frm, game.targets(frm)[0])))
    assert d.shell.screen().name == "camera" and "?" in d.shell.screen().entry
    d.step("#")
    assert game.ply == 1


def test_while_the_camera_watches_a_key_waits_at_most_a_short_switch_for_the_interpreter():
    """Python hands the interpreter from a busy thread to a waiting one after its switch interval (5 ms by
    default); while the camera's thread watches, the kiosk's loop waits at most SWITCH_S for it, and
    the interval is the interpreter's own again once the camera closes."""
    import sys

    before = sys.getswitchinterval()
    watch = CameraWatch(lambda: (_ for _ in ()).throw(CameraError("no camera here")), Watcher(), lambda e: None,
                        fps=1.0)
    watch.start()
    try:
        assert sys.getswitchinterval() <= kcamera.SWITCH_S < before
    finally:
        watch.close()
    assert sys.getswitchinterval() == before
