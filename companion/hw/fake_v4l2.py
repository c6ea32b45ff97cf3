"""A USB webcam as linuxpy sees it through the kernel, for the tests and `companion bench`: no
v4l2loopback, no /dev/video.

A regular file stands for /dev/videoN: linuxpy opens it as it opens the device and maps the
frame buffers from it with the real `mmap`, and the V4L2 calls linuxpy makes (its module
`linuxpy.ioctl` calls `fcntl.ioctl`) are answered for that file as uvcvideo answers them:
QUERYCAP, ENUM_FMT, S_FMT/G_FMT/TRY_FMT (the nearest size the camera has, `sizeimage`), S_PARM/G_PARM
(the nearest frame interval), REQBUFS, QUERYBUF, QBUF, DQBUF (EAGAIN when no frame is done: the
device is opened non-blocking), STREAMON and STREAMOFF; anything else is ENOTTY, as a driver says
for a call it does not know. Only `linuxpy.ioctl`'s own reference to fcntl is replaced, and only for
the fake's file: every other ioctl in the process is the kernel's.

The capture queue is the driver's: frame k arrives at `k / fps` seconds after STREAMON (on
`clock`) and fills the oldest queued buffer; with none queued it is dropped, as a UVC camera drops
frames nobody gave a buffer for. Frames are computed when a call comes in, before the call
changes the queue, so the order of arrivals and queueing is exact. `frame(k, width, height, fourcc)`
gives frame k's bytes (MJPEG: a JPEG; YUYV: width * height * 2 bytes).

    with FakeWebcam(tmp / "video0", frame) as cam:      # patched while inside
        camera = open_camera("v4l2", str(cam.path), (1280, 960))
"""

from __future__ import annotations

import errno
import mmap
import os
import time
import types
from pathlib import Path
from typing import Any, Callable
from unittest import mock

FrameSource = Callable[[int, int, int, str], bytes]
SIZES = ((1280, 960), (1280, 720), (640, 480))
FRAME_RATES = (30, 15, 10, 5)  # the intervals a cheap UVC camera offers (1/fps)


class FakeWebcam:
    """A UVC camera behind `path` (see the module). `formats`: the fourccs it offers, in its order;
    `sizes` at each; `fps` its frame rate until S_PARM picks another of `rates`."""

    def __init__(self, path: str | Path, frame: FrameSource, formats: tuple[str, ...] = ("MJPG", "YUYV"),
                 sizes: tuple[tuple[int, int], ...] = SIZES, fps: float = 30.0,
                 rates: tuple[int, ...] = FRAME_RATES, clock: Callable[[], float] = time.monotonic,
                 picture_node: bool = True) -> None:
        from linuxpy.video import raw

        self.raw = raw
        self.path = Path(path)
        self.path.write_bytes(b"")
        self.frame_source = frame
        self.formats = [raw.v4l2_fourcc(*f) for f in formats]
        self.sizes, self.fps, self.rates, self.clock = sizes, fps, rates, clock
        self.picture_node = picture_node  # False: the second node a UVC camera has, its metadata
        self.fourcc, (self.width, self.height) = self.formats[0], sizes[0]
        self.buffers: list[dict] = []  # index -> {"state": "idle" | "queued" | "done", ...}
        self.queue: list[int] = []  # queued buffers, oldest first
        self.done: list[int] = []  # filled ones, in the order they were filled
        self.streaming = False
        self.started = 0.0
        self.next_frame = 0  # the next frame to arrive
        self.dropped = 0  # frames that found no queued buffer
        self.calls: list[str] = []  # every request linuxpy made, by name
        self.fd = -1
        self._patch: Any = None

    # --- the patch --------------------------------------------------------------------------------
    def __enter__(self) -> FakeWebcam:
        import fcntl

        import linuxpy.ioctl

        real = fcntl.ioctl
        shim = types.SimpleNamespace(**{n: getattr(fcntl, n) for n in dir(fcntl) if not n.startswith("__")})
        shim.ioctl = lambda fd, request, *args: (self.ioctl(fd, request, *args) if self.owns(fd)
                                                 else real(fd, request, *args))
        self._patch = mock.patch.object(linuxpy.ioctl, "fcntl", shim)
        self._patch.start()
        self.fd = os.open(self.path, os.O_RDWR)
        return self

    def __exit__(self, *exc: Any) -> None:
        self._patch.stop()
        os.close(self.fd)

    def owns(self, fd: Any) -> bool:
        """True for a descriptor (or file object) of the fake's file."""
        try:
            number = fd if isinstance(fd, int) else fd.fileno()
            mine, theirs = os.fstat(self.fd), os.fstat(number)
        except (OSError, AttributeError, ValueError):
            return False
        return (mine.st_dev, mine.st_ino) == (theirs.st_dev, theirs.st_ino)

    # --- the driver -------------------------------------------------------------------------------
    def ioctl(self, fd: Any, request: int, arg: Any = None) -> int:
        IOC = self.raw.IOC
        try:
            name = IOC(request).name
        except ValueError:
            name = hex(request)
        self.calls.append(name)
        self.arrive()
        handler = getattr(self, f"do_{name.lower()}", None)
        if handler is None:
            raise OSError(errno.ENOTTY, os.strerror(errno.ENOTTY))
        handler(arg)
        return 0

    def fail(self, code: int) -> OSError:
        return OSError(code, os.strerror(code))

    def capture_type(self, arg: Any) -> None:
        if arg.type != self.raw.BufType.VIDEO_CAPTURE:
            raise self.fail(errno.EINVAL)

    def do_querycap(self, arg: Any) -> None:
        cap = self.raw.Capability
        arg.driver, arg.card, arg.bus_info = b"uvcvideo", b"Fake UVC Camera", b"usb-0000:01:00.0-1.3"
        arg.version = 6 << 16 | 12 << 8
        node = (cap.VIDEO_CAPTURE | cap.STREAMING | cap.EXT_PIX_FORMAT) if self.picture_node else (
            cap.META_CAPTURE | cap.STREAMING)
        arg.device_caps = node
        arg.capabilities = node | cap.VIDEO_CAPTURE | cap.META_CAPTURE | cap.DEVICE_CAPS

    def do_enum_fmt(self, arg: Any) -> None:
        self.capture_type(arg)
        if arg.index >= len(self.formats):
            raise self.fail(errno.EINVAL)
        fourcc = self.formats[arg.index]
        arg.pixelformat = fourcc
        arg.flags = self.raw.ImageFormatFlag.COMPRESSED if self.fourcc_name(fourcc) == "MJPG" else 0
        arg.description = b"Motion-JPEG" if self.fourcc_name(fourcc) == "MJPG" else b"YUYV 4:2:2"

    @staticmethod
    def fourcc_name(fourcc: int) -> str:
        return "".join(chr(fourcc >> s & 0xFF) for s in (0, 8, 16, 24))

    def fill_format(self, arg: Any, fourcc: int, width: int, height: int) -> None:
        pix = arg.fmt.pix
        pix.width, pix.height, pix.pixelformat = width, height, fourcc
        pix.field = self.raw.Field.NONE
        raw_frame = self.fourcc_name(fourcc) == "YUYV"
        pix.bytesperline = 2 * width if raw_frame else 0
        pix.sizeimage = 2 * width * height  # uvcvideo: the camera's largest frame at this size
        pix.colorspace = self.raw.Colorspace.SRGB

    def nearest(self, arg: Any) -> tuple[int, int, int]:
        pix = arg.fmt.pix
        fourcc = pix.pixelformat if pix.pixelformat in self.formats else self.formats[0]  # uvcvideo: its first
        w, h = min(self.sizes, key=lambda s: abs(s[0] * s[1] - pix.width * pix.height))
        return fourcc, w, h

    def do_try_fmt(self, arg: Any) -> None:
        self.capture_type(arg)
        self.fill_format(arg, *self.nearest(arg))

    def do_s_fmt(self, arg: Any) -> None:
        self.capture_type(arg)
        if self.buffers:
            raise self.fail(errno.EBUSY)
        self.fourcc, self.width, self.height = self.nearest(arg)
        self.fill_format(arg, self.fourcc, self.width, self.height)

    def do_g_fmt(self, arg: Any) -> None:
        self.capture_type(arg)
        self.fill_format(arg, self.fourcc, self.width, self.height)

    def do_s_parm(self, arg: Any) -> None:
        self.capture_type(arg)
        per = arg.parm.capture.timeperframe
        asked = per.denominator / per.numerator if per.numerator else self.fps
        self.fps = min(self.rates, key=lambda r: abs(r - asked))
        self.do_g_parm(arg)

    def do_g_parm(self, arg: Any) -> None:
        self.capture_type(arg)
        arg.parm.capture.capability = 0x1000  # V4L2_CAP_TIMEPERFRAME
        arg.parm.capture.timeperframe.numerator, arg.parm.capture.timeperframe.denominator = 1, int(self.fps)

    def buffer_size(self) -> int:
        return -(-2 * self.width * self.height // mmap.PAGESIZE) * mmap.PAGESIZE

    def do_reqbufs(self, arg: Any) -> None:
        self.capture_type(arg)
        if arg.memory != self.raw.Memory.MMAP:
            raise self.fail(errno.EINVAL)
        if self.streaming:
            raise self.fail(errno.EBUSY)
        count = min(arg.count, 32)
        self.buffers = [{"state": "idle", "sequence": 0, "size": 0, "stamp": 0.0} for _ in range(count)]
        self.queue, self.done = [], []
        os.ftruncate(self.fd, count * self.buffer_size())
        arg.count = count

    def buffer(self, arg: Any) -> dict:
        self.capture_type(arg)
        if arg.memory != self.raw.Memory.MMAP or not 0 <= arg.index < len(self.buffers):
            raise self.fail(errno.EINVAL)
        return self.buffers[arg.index]

    def do_querybuf(self, arg: Any) -> None:
        b = self.buffer(arg)
        arg.length, arg.m.offset = self.buffer_size(), arg.index * self.buffer_size()
        flag = self.raw.BufferFlag
        arg.flags = flag.MAPPED | (flag.QUEUED if b["state"] == "queued" else 0) | (
            flag.DONE if b["state"] == "done" else 0)

    def do_qbuf(self, arg: Any) -> None:
        b = self.buffer(arg)
        if b["state"] != "idle":
            raise self.fail(errno.EINVAL)
        b["state"] = "queued"
        self.queue.append(arg.index)

    def do_dqbuf(self, arg: Any) -> None:
        self.capture_type(arg)
        if not self.streaming:
            raise self.fail(errno.EINVAL)
        if not self.done:
            raise BlockingIOError(errno.EAGAIN, os.strerror(errno.EAGAIN))
        index = self.done.pop(0)
        b = self.buffers[index]
        b["state"] = "idle"
        flag = self.raw.BufferFlag
        arg.index, arg.bytesused, arg.sequence = index, b["size"], b["sequence"]
        arg.field = self.raw.Field.NONE
        arg.flags = flag.MAPPED | flag.DONE | flag.TIMESTAMP_MONOTONIC
        arg.timestamp.secs, arg.timestamp.usecs = int(b["stamp"]), int(b["stamp"] % 1 * 1e6)

    def do_streamon(self, arg: Any) -> None:
        if arg.value != self.raw.BufType.VIDEO_CAPTURE or not self.buffers:
            raise self.fail(errno.EINVAL)
        if not self.streaming:
            self.streaming, self.started, self.next_frame = True, self.clock(), 0

    def do_streamoff(self, arg: Any) -> None:
        if arg.value != self.raw.BufType.VIDEO_CAPTURE:
            raise self.fail(errno.EINVAL)
        self.streaming = False
        for b in self.buffers:
            b["state"] = "idle"
        self.queue, self.done = [], []

    def arrive(self) -> None:
        """The frames due by now, each into the oldest queued buffer, else dropped."""
        if not self.streaming:
            return
        due = int((self.clock() - self.started) * self.fps) + 1
        while self.next_frame < due:
            k, self.next_frame = self.next_frame, self.next_frame + 1
            if not self.queue:
                self.dropped += 1
                continue
            index = self.queue.pop(0)
            data = self.frame_source(k, self.width, self.height, self.fourcc_name(self.fourcc))
            data = data[:self.buffer_size()]
            os.pwrite(self.fd, data, index * self.buffer_size())
            self.buffers[index].update(state="done", sequence=k, size=len(data), stamp=self.started + k / self.fps)
            self.done.append(index)
