"""The camera adapters (companion.hw.camera): a USB webcam through linuxpy on a fake UVC camera at the
kernel's door (its ioctls answered as uvcvideo answers them, its buffers mapped with the real mmap);
OpenCV's own VideoCapture reads an image sequence as it reads a webcam; the Pi camera through
Picamera2's calls, mocked; the folder camera gives the newest whole picture; a camera that cannot
open says what to do; the config's camera section is checked."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from companion.box.config import ConfigError, load_config_text
from companion.hw.camera import CameraError, FolderCamera, OpenCVCamera, V4L2Camera, open_camera


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
        OpenCVCamera(str(tmp_path / "video9"), (640, 480))


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


# --- a USB webcam through linuxpy, on a fake UVC camera at the kernel's door (companion.hw.fake_v4l2) ---

def _colour(k: int) -> tuple[int, int, int]:
    return (10 * k % 250, 120, 255 - 10 * k % 250)


def _webcam_frame(k: int, w: int, h: int, fourcc: str, colour=_colour) -> bytes:
    """Frame k: one colour that names k, as the camera sends it (MJPEG, or YUYV in BT.601's limited range)."""
    picture = Image.new("RGB", (w, h), colour(k))
    if fourcc == "YUYV":
        y, cb, cr = (band.point(lambda v, lo=lo, span=span: round(lo + v * span / 255))
                     for band, lo, span in zip(picture.convert("YCbCr").split(), (16, 16, 16), (219, 224, 224)))
        out = bytearray(2 * w * h)
        out[0::2], out[1::4], out[3::4] = y.tobytes(), cb.tobytes()[0::2], cr.tobytes()[0::2]
        return bytes(out)
    data = io.BytesIO()
    picture.save(data, "JPEG", quality=95)
    return data.getvalue()


def _near(a, b, by=6):
    return all(abs(x - y) <= by for x, y in zip(a, b))


@pytest.fixture
def webcam(tmp_path):
    pytest.importorskip("linuxpy.video", reason="linuxpy (the camera extra) is not installed")
    from companion.hw.fake_v4l2 import FakeWebcam

    clock = [0.0]
    made: list = []

    def make(**kw):
        kw.setdefault("clock", lambda: clock[0])
        made.append(FakeWebcam(tmp_path / f"video{len(made)}", kw.pop("frame", _webcam_frame), **kw))
        return made[-1]

    yield make, clock


def test_a_webcam_gives_its_newest_mjpeg_frame_decoded_by_pillow(webcam):
    make, clock = webcam
    with make() as cam:
        camera = open_camera("v4l2", str(cam.path), (1280, 900), 4)
        assert isinstance(camera, V4L2Camera)
        assert (camera.format.width, camera.format.height, camera.format.pixel_format.name) == (1280, 960, "MJPEG")
        assert cam.fps == 5, "the frame rate asked for, the camera's nearest"
        clock[0] = 1.0  # frames 0-5 arrived: the two buffers hold 0 and 1, the rest were dropped
        first = camera.grab()
        assert first.mode == "RGB" and first.size == (1280, 960) and _near(first.getpixel((9, 9)), _colour(1))
        clock[0] = 1.5  # 6 and 7 went into the buffers given back at 1.0: the newest is 7, not 6
        assert _near(camera.grab().getpixel((9, 9)), _colour(7))
        assert camera.grab() is None, "nothing new: no frame this time, no exception"
        camera.close()
        assert cam.calls[-2:] == ["STREAMOFF", "REQBUFS"] and not cam.streaming


def test_a_webcam_without_mjpeg_gives_yuyv_frames_in_their_colours(webcam):
    make, clock = webcam
    colours = [(0, 0, 0), (240, 242, 238), (0, 0, 0), (200, 30, 60)]  # near white, then a strong red: the range's ends
    with make(formats=("YUYV",), sizes=((640, 480),),
              frame=lambda k, w, h, f: _webcam_frame(k, w, h, f, colours.__getitem__)) as cam:
        camera = open_camera("v4l2", str(cam.path), (1280, 960), 4)
        assert (camera.format.width, camera.format.pixel_format.name) == (640, "YUYV")
        for k, at in ((1, 0.3), (3, 0.7)):  # frames 0, 1, then 2, 3 arrived: the newest each time
            clock[0] = at
            frame = camera.grab()
            assert frame.size == (640, 480) and _near(frame.getpixel((5, 5)), colours[k])


def _without_huffman_tables(jpeg: bytes) -> bytes:
    """The JPEG without its DHT segments, as many UVC cameras send their MJPEG frames (the standard
    tables are implied)."""
    out, i = bytearray(jpeg[:2]), 2
    while jpeg[i + 1] != 0xDA:  # up to the scan
        length = int.from_bytes(jpeg[i + 2:i + 4], "big")
        if jpeg[i + 1] != 0xC4:
            out += jpeg[i:i + 2 + length]
        i += 2 + length
    return bytes(out + jpeg[i:])


def test_a_uvc_frame_without_its_huffman_tables_is_decoded(webcam):
    make, clock = webcam
    with make(frame=lambda k, w, h, f: _without_huffman_tables(_webcam_frame(k, w, h, f))) as cam:
        assert b"\xff\xc4" not in cam.frame_source(0, 64, 48, "MJPG")
        camera = open_camera("v4l2", str(cam.path), (1280, 960), 4)
        clock[0] = 0.21
        assert _near(camera.grab().getpixel((9, 9)), _colour(1))
        camera.close()


def test_a_broken_frame_is_no_frame(webcam):
    make, clock = webcam
    with make(frame=lambda k, w, h, f: _webcam_frame(k, w, h, f)[:300] if k == 1 else _webcam_frame(k, w, h, f)) as cam:
        camera = open_camera("v4l2", str(cam.path), (1280, 960), 4)
        clock[0] = 0.21  # frames 0 and 1: the newest, cut short by a USB hiccup
        assert camera.grab() is None
        clock[0] = 0.61
        assert _near(camera.grab().getpixel((9, 9)), _colour(3))
        camera.close()


def test_a_webcam_that_cannot_stream_pictures_says_what_to_do(webcam, tmp_path):
    make, _ = webcam
    with make(picture_node=False) as cam:
        with pytest.raises(CameraError, match="metadata: use camera.device auto"):
            open_camera("v4l2", str(cam.path), (1280, 960))
    with make(formats=("H264",)) as cam:
        with pytest.raises(CameraError, match="H264, not MJPEG or YUYV"):
            open_camera("v4l2", str(cam.path), (1280, 960))
    with pytest.raises(CameraError, match="plugged in"):
        open_camera("v4l2", str(tmp_path / "video9"), (1280, 960))


def test_auto_takes_the_first_usb_camera_udev_named(tmp_path, monkeypatch):
    from companion.hw import camera as adapters

    monkeypatch.setattr(adapters, "WEBCAMS", str(tmp_path / "*-video-index0"))
    assert adapters.find_webcam("auto") == "/dev/video0"
    for name in ("usb-Cam_B-video-index0", "usb-Cam_A-video-index0", "usb-Cam_A-video-index1"):
        (tmp_path / name).touch()
    assert adapters.find_webcam("auto") == str(tmp_path / "usb-Cam_A-video-index0")
    assert adapters.find_webcam("/dev/video2") == "/dev/video2"


def test_v4l2_takes_linuxpy_and_opencv_where_only_opencv_is_installed(tmp_path, monkeypatch):
    from companion.hw import camera as adapters

    opened = []
    monkeypatch.setattr(adapters, "V4L2Camera", lambda *a: opened.append("linuxpy"))
    monkeypatch.setattr(adapters, "OpenCVCamera", lambda *a: opened.append("opencv"))
    have = {"linuxpy.video", "cv2"}
    monkeypatch.setattr(adapters, "importable", lambda name: name in have)
    adapters.open_camera("v4l2", "/dev/video0", (640, 480))
    adapters.open_camera("v4l2", "frames/%04d.jpg", (640, 480))  # an image sequence: OpenCV's alone
    have.discard("linuxpy.video")
    adapters.open_camera("v4l2", "auto", (640, 480))
    assert opened == ["linuxpy", "opencv", "opencv"]
    have.clear()
    with pytest.raises(CameraError, match=r"needs linuxpy: pip install '\.\[camera\]'"):
        adapters.open_camera("v4l2", "auto", (640, 480))


def test_the_pi_camera_through_picamera2s_calls(monkeypatch):
    """Picamera2 mocked at its API (picamera2.Picamera2: create_video_configuration(main=...), configure,
    start, capture_image("main") -> a PIL image, stop, close; as in Raspberry Pi's picamera2 source)."""
    import sys
    import types

    calls = []

    class Picamera2:
        def __init__(self):
            calls.append("Picamera2()")

        def create_video_configuration(self, main=None, **kw):
            calls.append(("create_video_configuration", main))
            return {"main": main}

        def configure(self, config):
            calls.append(("configure", config))

        def start(self):
            calls.append("start")

        def capture_image(self, name="main"):
            calls.append(("capture_image", name))
            return Image.new("RGBA", (640, 480), (1, 2, 3, 255))

        def stop(self):
            calls.append("stop")

        def close(self):
            calls.append("close")

    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=Picamera2))
    cam = open_camera("picamera2", "", (640, 480))
    frame = cam.grab()
    cam.close()
    assert frame.mode == "RGB" and frame.getpixel((0, 0)) == (1, 2, 3)
    main = {"size": (640, 480), "format": "RGB888"}
    assert calls == ["Picamera2()", ("create_video_configuration", main), ("configure", {"main": main}), "start",
                     ("capture_image", "main"), "stop", "close"]

    def broken(self):
        raise RuntimeError("Camera __init__ sequence did not complete.")

    monkeypatch.setattr(Picamera2, "start", broken)
    with pytest.raises(CameraError, match="ribbon cable"):
        open_camera("picamera2", "", (640, 480))


def test_doctor_finds_the_usb_camera_udev_named_and_says_what_is_missing(tmp_path):
    from companion.box import doctor

    cfg = load_config_text("camera:\n  source: v4l2\n  device: auto\n")
    p = doctor.Probe(config=cfg, root=tmp_path, importable=lambda name: name == "linuxpy")
    missing = doctor.check_camera(p)
    assert missing.level == doctor.FAIL and "plug the camera in" in missing.line and "/dev/v4l/by-id" in missing.line
    (tmp_path / "dev/v4l/by-id").mkdir(parents=True)
    (tmp_path / "dev/video0").touch()  # no udev names (a container): the first node, as the adapter takes it
    assert doctor.check_camera(p).level == doctor.OK and "auto: /dev/video0" in doctor.check_camera(p).line
    (tmp_path / "dev/v4l/by-id/usb-046d_C270_A1B2-video-index0").touch()
    found = doctor.check_camera(p)
    assert found.level == doctor.OK and "auto: /dev/v4l/by-id/usb-046d_C270_A1B2-video-index0" in found.line
    opencv = doctor.Probe(config=cfg, root=tmp_path, importable=lambda name: name == "cv2")
    assert doctor.check_camera(opencv).level == doctor.OK
    none = doctor.check_camera(doctor.Probe(config=cfg, root=tmp_path, importable=lambda name: False))
    assert none.level == doctor.FAIL and "needs linuxpy" in none.line and ".[webcam]" in none.line


def test_doctor_camera_shows_a_webcams_picture_before_any_corners(webcam, tmp_path):
    """As on the card: camera = on gives a camera section without corners (they are tapped on the page)."""
    from tests.support import run_cli

    make, _ = webcam
    with make() as cam:
        cfg = tmp_path / "config.yaml"
        cfg.write_text(f"camera:\n  source: v4l2\n  device: {cam.path}\n")
        out = tmp_path / "seen.png"
        code, stdout, stderr = run_cli("doctor", "--camera", str(out), "--config", str(cfg))
    assert code == 0, stderr
    assert "1280x960 from camera v4l2" in stdout and "no corners in the config" in stdout
    assert _near(Image.open(out).convert("RGB").getpixel((640, 480)), _colour(0)), "the first frame after STREAMON"
