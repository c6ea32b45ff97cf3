"""The camera adapters (companion.hw.camera): OpenCV's own VideoCapture reads an image sequence as
it reads a webcam; the folder camera gives the newest whole picture; a camera that cannot open
says what to do; the config's camera section is checked."""

from __future__ import annotations

import pytest
from PIL import Image

from companion.box.config import ConfigError, load_config_text
from companion.hw.camera import CameraError, FolderCamera, OpenCVCamera, open_camera


def _pictures(folder, colours):
    folder.mkdir(exist_ok=True)
    for i, colour in enumerate(colours):
        Image.new("RGB", (64, 48), colour).save(folder / f"{i:04d}.png")


def test_opencv_reads_frames_through_its_own_capture(tmp_path):
    pytest.importorskip("cv2", reason="OpenCV (the camera extra) is not installed")
    _pictures(tmp_path / "seq", [(250, 0, 0), (0, 0, 250)])
    cam = open_camera("v4l2", str(tmp_path / "seq" / "%04d.png"), (64, 48))
    assert isinstance(cam, OpenCVCamera)
    first, second = cam.grab(), cam.grab()
    assert first.size == (64, 48) and first.getpixel((5, 5)) == (250, 0, 0)  # RGB, not OpenCV's BGR
    assert second.getpixel((5, 5)) == (0, 0, 250)
    assert cam.grab() is None  # the sequence has ended: no frame, no exception
    cam.close()


def test_a_webcam_that_is_not_there_says_so(tmp_path):
    pytest.importorskip("cv2", reason="OpenCV (the camera extra) is not installed")
    with pytest.raises(CameraError, match="cannot open"):
        open_camera("v4l2", str(tmp_path / "video9"), (640, 480))


def test_the_folder_camera_gives_the_newest_whole_picture(tmp_path):
    cam = open_camera("folder", str(tmp_path), (64, 48))
    assert isinstance(cam, FolderCamera) and cam.grab() is None
    _pictures(tmp_path, [(1, 2, 3), (200, 100, 50)])
    assert cam.grab().getpixel((0, 0)) == (200, 100, 50)
    (tmp_path / "0002.png").write_bytes(b"\x89PNG half")  # being written: no frame this time
    assert cam.grab() is None
    with pytest.raises(CameraError, match="not a folder"):
        FolderCamera(str(tmp_path / "nowhere"))


def test_the_pi_camera_without_picamera2_says_what_to_install():
    pytest.importorskip("PIL")
    try:
        import picamera2  # noqa: F401
    except ImportError:
        with pytest.raises(CameraError, match="python3-picamera2"):
            open_camera("picamera2", "", (640, 480))
    else:
        pytest.skip("Picamera2 is installed here: this checks the message without it")


CORNERS = "[10, 10, 630, 10, 630, 470, 10, 470]"


def test_the_config_takes_a_camera_with_its_corners():
    cfg = load_config_text(f"camera:\n  source: folder\n  device: /tmp/x\n  corners: {CORNERS}\n  fps: 2\n")
    assert cfg.camera.source == "folder" and cfg.camera.corners[2] == 630.0 and cfg.camera.fps == 2.0
    assert load_config_text("camera: null\n").camera is None
    assert load_config_text("").camera is None  # off by default
    assert load_config_text("camera:\n  source: v4l2\n").camera.corners == []  # tapped on the page


@pytest.mark.parametrize("text, words", [
    ("camera:\n  corners: [1, 2, 3]\n", "camera.corners"),
    (f"camera:\n  corners: {CORNERS}\n  source: usb\n", "camera.source"),
    (f"camera:\n  corners: {CORNERS}\n  fps: 0\n", "frames a second"),
    (f"camera:\n  corners: {CORNERS}\n  lens: wide\n", "camera.lens: unknown key"),
])
def test_a_bad_camera_section_is_one_clear_line(text, words):
    with pytest.raises(ConfigError, match=words.replace(".", r"\.")):
        load_config_text(text)


def test_doctor_camera_writes_the_frame_with_the_territories_where_the_corners_put_them(tmp_path):
    from tests.support import run_cli

    Image.new("RGB", (640, 480), (20, 20, 20)).save(tmp_path / "0001.png")
    cfg = tmp_path / "config.yaml"
    cfg.write_text(f"camera:\n  source: folder\n  device: {tmp_path}\n  corners: {CORNERS}\n")
    out = tmp_path / "seen.png"
    code, stdout, stderr = run_cli("doctor", "--camera", str(out), "--config", str(cfg))
    assert code == 0, stderr
    assert "640x480 from camera folder" in stdout
    seen = Image.open(out).convert("RGB")
    assert seen.getpixel((10, 240)) == (255, 0, 255)  # the board's left edge, as the corners say
    assert any(seen.getpixel((x, 240)) == (255, 230, 0) for x in range(12, 630))  # territories inside it
    cfg.write_text("buttons: null\n")
    code, _, stderr = run_cli("doctor", "--camera", str(out), "--config", str(cfg))
    assert code == 2 and stderr.count("\n") == 1 and "no camera section" in stderr


def test_doctor_names_the_camera_and_what_is_missing(tmp_path):
    from companion.box import doctor

    cfg = load_config_text(f"camera:\n  source: folder\n  device: {tmp_path}\n  corners: {CORNERS}\n")
    ok = doctor.check_camera(doctor.Probe(config=cfg))
    assert ok.level == doctor.OK and "companion doctor --camera" in ok.line
    cfg.camera.device = str(tmp_path / "gone")
    assert doctor.check_camera(doctor.Probe(config=cfg)).level == doctor.FAIL
    cfg.camera.source, cfg.camera.device = "picamera2", ""
    missing = doctor.check_camera(doctor.Probe(config=cfg, importable=lambda name: False))
    assert missing.level == doctor.FAIL and "python3-picamera2" in missing.line
    assert doctor.check_camera(doctor.Probe(config=load_config_text(""))).level == doctor.OK
