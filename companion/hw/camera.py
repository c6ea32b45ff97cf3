"""The camera above the board: where its frames come from (the config's `camera.source`).

- `v4l2`: a USB webcam (UVC) through V4L2. With linuxpy (`pip install '.[camera]'`; the SD-card
  image has it): a small pure-Python V4L2 binding, the camera's own MJPEG frames (YUYV when it
  has no MJPEG) decoded by Pillow, which the box has anyway (`V4L2Camera`). Where linuxpy is not
  installed but OpenCV is (`apt install python3-opencv` on Raspberry Pi OS, or opencv-python-headless),
  OpenCV's `VideoCapture` (`OpenCVCamera`). `device` is a /dev/video* path, `auto` (the first
  USB camera under /dev/v4l/by-id, else /dev/video0), or an image sequence such as
  `frames/%04d.jpg` (OpenCV's own image-sequence reader: the tests use it, so that adapter is tried
  with OpenCV's real calls). Why linuxpy and not OpenCV on the image: docs/box.md, the camera.
- `picamera2`: the Raspberry Pi camera through libcamera's Picamera2 (Raspberry Pi OS:
  `apt install python3-picamera2`; the venv sees it with --system-site-packages).
- `folder`: the newest picture in a folder (by name): a stand-in camera for the emulated box and the
  tests, which write the table's photographs there as it changes.

Each has `grab()` -> a PIL RGB image or None (no frame this time) and `close()`. The libraries
are imported when a camera opens, never at module level; a camera that cannot open raises
`CameraError` with one line saying what to do.
"""

from __future__ import annotations

import glob
import io
import logging
import os
import select
from typing import Any, Protocol

from PIL import Image

PICTURES = (".jpg", ".jpeg", ".png")
MAX_FRAME_PIXELS = 4096 * 4096  # a 16 MP camera's frame; a bigger picture in the folder is no frame
WEBCAMS = "/dev/v4l/by-id/*-video-index0"  # udev's names of the USB cameras' capture nodes
V4L2_BUFFERS = 2  # frames the driver may hold for us (linuxpy's default): the newest is taken
WAIT_S = 1.0  # a grab waits at most this long for a frame when none is queued
FULL_LUMA = [min(255, max(0, round((v - 16) * 255 / 219))) for v in range(256)]  # limited range -> full
FULL_CHROMA = [min(255, max(0, round((v - 128) * 255 / 224 + 128))) for v in range(256)]


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


def find_webcam(device: str) -> str:
    """The device path for `device`: itself, or for `auto` the first USB camera udev named under
    /dev/v4l/by-id (its capture node, -video-index0), else /dev/video0."""
    if device != "auto":
        return device
    found = sorted(glob.glob(WEBCAMS))
    return found[0] if found else "/dev/video0"


class V4L2Camera:
    """A USB webcam through linuxpy's V4L2 binding: MJPEG frames (YUYV when the camera has no MJPEG)
    at `size` or the nearest the camera has, decoded by Pillow. The driver keeps `V4L2_BUFFERS`
    frames; each grab takes every frame queued and keeps the newest (at most one look old, as
    OpenCV's one-buffer capture), so a slow look never judges a picture from seconds ago."""

    def __init__(self, device: str, size: tuple[int, int], fps: float = 4.0) -> None:
        try:
            from linuxpy.video.device import BufferType, Capability, Device, PixelFormat, VideoCapture
        except ImportError:
            raise CameraError("camera.source v4l2 needs linuxpy: pip install '.[camera]' in the checkout "
                              "(or OpenCV: apt install python3-opencv)") from None
        logging.getLogger("linuxpy").setLevel(logging.WARNING)  # its every open and close is not news
        self.path = find_webcam(device)
        self.device: Any = Device(self.path)  # non-blocking, as linuxpy opens it
        self.capture: Any = None
        try:
            self.device.open()
            caps = self.device.info.device_capabilities
            if Capability.VIDEO_CAPTURE not in caps or Capability.STREAMING not in caps:
                raise CameraError(f"camera {self.path}: not a camera's picture node (a webcam's second node "
                                  "carries metadata: use camera.device auto or its -video-index0 name)")
            offered = {f.pixel_format for f in self.device.info.buffer_formats(BufferType.VIDEO_CAPTURE)}
            fourcc = next((f for f in (PixelFormat.MJPEG, PixelFormat.JPEG, PixelFormat.YUYV) if f in offered), None)
            if fourcc is None:
                names = ", ".join(sorted(f.name for f in offered)) or "none"
                raise CameraError(f"camera {self.path}: gives {names}, not MJPEG or YUYV")
            self.capture = VideoCapture(self.device, size=V4L2_BUFFERS)
            self.capture.set_format(size[0], size[1], fourcc)
            self.format = self.capture.get_format()  # what the camera took: its nearest size
            try:
                self.capture.set_fps(fps)
            except OSError:
                pass  # a camera without frame rates of its own: it streams at its pace
            self.capture.open()  # its buffers mapped and queued, the stream on
        except CameraError:
            self.close()
            raise
        except OSError as exc:
            self.close()
            why = exc.strerror or str(exc)
            hint = " (is the webcam plugged in? `ls /dev/v4l/by-id`)" if isinstance(exc, FileNotFoundError) else (
                " (the service's user needs the video group)" if isinstance(exc, PermissionError) else "")
            raise CameraError(f"camera {self.path}: {why}{hint}") from None

    def grab(self) -> Image.Image | None:
        source = self.capture.buffer
        newest = None
        for _ in range(2 * V4L2_BUFFERS):  # the queue's frames, oldest first; each given back at once
            try:
                newest, _ = source.raw_grab()
            except BlockingIOError:
                break
        if newest is None:
            ready, _, _ = select.select([self.device], [], [], WAIT_S)
            try:
                newest, _ = source.raw_grab() if ready else (None, None)
            except BlockingIOError:
                return None
        if newest is None:
            return None
        return self.decode(bytes(newest))

    def decode(self, data: bytes) -> Image.Image | None:
        """One frame's bytes as an RGB picture; a broken or empty frame (a USB hiccup) is no frame."""
        w, h = self.format.width, self.format.height
        try:
            if self.format.pixel_format.name == "YUYV":
                return yuyv_picture(data, w, h, self.format.bytes_per_line or 2 * w)
            with Image.open(io.BytesIO(data)) as im:
                if im.width * im.height > MAX_FRAME_PIXELS:
                    return None
                return im.convert("RGB")
        except (OSError, ValueError, SyntaxError, Image.DecompressionBombError):
            return None

    def close(self) -> None:
        try:
            if self.capture is not None:
                self.capture.close()
        finally:
            self.capture = None
            self.device.close()


def yuyv_picture(data: bytes, width: int, height: int, stride: int) -> Image.Image:
    """A YUYV frame (YUV 4:2:2, Y0 U Y1 V; BT.601 in the limited range V4L2 gives it: luma 16-235,
    chroma 16-240) as RGB, in Pillow's C code: the luma at full size, each chroma sample widened to the
    two pixels it stands for, both stretched to the full range of Pillow's (JPEG's) YCbCr."""
    if len(data) < stride * height:
        raise ValueError("a short frame")
    luma = Image.frombuffer("LA", (width, height), data, "raw", "LA", stride, 1).getchannel("L")
    pairs = Image.frombuffer("RGBA", (width // 2, height), data, "raw", "RGBA", stride, 1)
    cb, cr = (pairs.getchannel(c).resize((width, height), Image.Resampling.NEAREST).point(FULL_CHROMA)
              for c in ("G", "A"))
    return Image.merge("YCbCr", (luma.point(FULL_LUMA), cb, cr)).convert("RGB")


class OpenCVCamera:
    """A V4L2 webcam (or an image sequence) through OpenCV's VideoCapture, at `size` when it can."""

    def __init__(self, device: str, size: tuple[int, int]) -> None:
        try:
            import cv2  # Raspberry Pi OS's python3-opencv, or opencv-python-headless
        except ImportError:
            raise CameraError("this camera needs OpenCV: pip install opencv-python-headless numpy "
                              "(or apt install python3-opencv)") from None
        self.cv2 = cv2
        api = cv2.CAP_IMAGES if "%" in device else cv2.CAP_V4L2
        device = device if "%" in device else find_webcam(device)
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


def importable(name: str) -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def v4l2_library(device: str) -> str:
    """Which library reads a v4l2 camera here: "linuxpy" when installed, else "opencv" (also for an
    image sequence, OpenCV's alone), "" when neither is."""
    if "%" in device:
        return "opencv" if importable("cv2") else ""
    return next((name for name, module in (("linuxpy", "linuxpy.video"), ("opencv", "cv2")) if importable(module)), "")


def open_camera(source: str, device: str, size: tuple[int, int], fps: float = 4.0) -> Camera:
    """The camera the config names (CameraError when it cannot open)."""
    if source == "folder":
        return FolderCamera(device)
    if source == "v4l2":
        if v4l2_library(device) == "linuxpy":
            return V4L2Camera(device, size, fps)
        if v4l2_library(device) == "opencv":
            return OpenCVCamera(device, size)
        raise CameraError("camera.source v4l2 needs linuxpy: pip install '.[camera]' in the checkout "
                          "(or OpenCV: apt install python3-opencv)")
    if source == "picamera2":
        return PiCamera(size)
    raise CameraError(f"camera.source {source!r}: use v4l2, picamera2 or folder")
