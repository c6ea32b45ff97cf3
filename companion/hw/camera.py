"""The camera above the board: where its frames come from (the config's `camera.source`).

- `v4l2`: a USB webcam through OpenCV's `VideoCapture` (`pip install '.[camera]'`: the
  opencv-python-headless and numpy wheels, aarch64 too). `device` is a /dev/video* path (read
  through V4L2), or an image sequence such as `frames/%04d.jpg` (OpenCV's own image-sequence
  reader: the tests use it, so the adapter is tried with OpenCV's real calls).
- `picamera2`: the Raspberry Pi camera through libcamera's Picamera2 (Raspberry Pi OS:
  `apt install python3-picamera2`; the venv sees it with --system-site-packages).
- `folder`: the newest picture in a folder (by name): a stand-in camera for the emulated box and the
  tests, which write the table's photographs there as it changes.

Each has `grab()` -> a PIL RGB image or None (no frame this time) and `close()`. The libraries
are imported when a camera opens, never at module level; a camera that cannot open raises
`CameraError` with one line saying what to do.
"""

from __future__ import annotations

import os
from typing import Any, Protocol

from PIL import Image

PICTURES = (".jpg", ".jpeg", ".png")
MAX_FRAME_PIXELS = 4096 * 4096  # a 16 MP camera's frame; a bigger picture in the folder is no frame


class CameraError(RuntimeError):
    """The camera cannot be opened or read; the message says what to do."""


class Camera(Protocol):
    def grab(self) -> Image.Image | None: ...

    def close(self) -> None: ...


class FolderCamera:
    """The newest picture in `folder` (by name); read again only when it changed. A picture that
    cannot be read yet (half written) is no frame."""

    def __init__(self, folder: str) -> None:
        if not os.path.isdir(folder):
            raise CameraError(f"camera folder {folder}: not a folder (camera.device)")
        self.folder = folder
        self.stamp: tuple[str, int, int] | None = None
        self.image: Image.Image | None = None

    def grab(self) -> Image.Image | None:
        try:
            names = sorted(n for n in os.listdir(self.folder) if n.lower().endswith(PICTURES))
        except OSError:
            return None
        if not names:
            return None
        path = os.path.join(self.folder, names[-1])
        try:
            st = os.stat(path)
            stamp = (names[-1], st.st_mtime_ns, st.st_size)
            if stamp != self.stamp:
                with Image.open(path) as im:
                    if im.width * im.height > MAX_FRAME_PIXELS:
                        return None  # no camera's frame (a bomb): not decoded
                    self.image = im.convert("RGB")
                self.stamp = stamp
        except (OSError, ValueError, SyntaxError, Image.DecompressionBombError):
            return None
        return self.image

    def close(self) -> None:
        self.image = None


class OpenCVCamera:
    """A V4L2 webcam (or an image sequence) through OpenCV's VideoCapture, at `size` when it can."""

    def __init__(self, device: str, size: tuple[int, int]) -> None:
        try:
            import cv2  # the camera extra: opencv-python-headless
        except ImportError:
            raise CameraError("camera.source v4l2 needs OpenCV: pip install '.[camera]' in the checkout "
                              "(or apt install python3-opencv)") from None
        self.cv2 = cv2
        api = cv2.CAP_IMAGES if "%" in device else cv2.CAP_V4L2
        self.cap = cv2.VideoCapture(device, api)
        if not self.cap.isOpened():
            raise CameraError(f"camera {device}: OpenCV cannot open it (is the webcam plugged in? `ls /dev/video*`)")
        if api == cv2.CAP_V4L2:
            self.cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self.cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
            self.cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # the newest frame, not one from seconds ago

    def grab(self) -> Image.Image | None:
        ok, frame = self.cap.read()
        if not ok or frame is None:
            return None
        return Image.fromarray(self.cv2.cvtColor(frame, self.cv2.COLOR_BGR2RGB))

    def close(self) -> None:
        self.cap.release()


class PiCamera:
    """The Raspberry Pi camera through Picamera2 (libcamera), at `size`."""

    def __init__(self, size: tuple[int, int]) -> None:
        try:
            from picamera2 import Picamera2  # Raspberry Pi OS: python3-picamera2
        except ImportError:
            raise CameraError("camera.source picamera2 needs Picamera2: on Raspberry Pi OS "
                              "apt install python3-picamera2 (or use a USB webcam: source v4l2)") from None
        try:
            self.cam: Any = Picamera2()
            self.cam.configure(self.cam.create_video_configuration(main={"size": size, "format": "RGB888"}))
            self.cam.start()
        except Exception as exc:  # libcamera's errors are of its own kinds: one line for the table
            raise CameraError(f"the Pi camera does not start ({exc}): is its ribbon cable in?") from None

    def grab(self) -> Image.Image | None:
        return self.cam.capture_image("main").convert("RGB")

    def close(self) -> None:
        self.cam.stop()
        self.cam.close()


def open_camera(source: str, device: str, size: tuple[int, int]) -> Camera:
    """The camera the config names (CameraError when it cannot open)."""
    if source == "folder":
        return FolderCamera(device)
    if source == "v4l2":
        return OpenCVCamera(device, size)
    if source == "picamera2":
        return PiCamera(size)
    raise CameraError(f"camera.source {source!r}: use v4l2, picamera2 or folder")
