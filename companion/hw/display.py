"""Display sinks: where finished 1-bit frames (PIL images) go.

`open_display(cfg)` returns a sink with ``show(image)``, ``set_contrast()``,
``set_power()``, ``tick()``, ``close()``, ``size`` and ``device``:

- ``ssd1306`` / ``sh1106``: a real OLED through luma.oled over I2C
  (``luma.core.interface.serial.i2c``), with ``persist = True`` so a
  restarting daemon does not blank the panel at exit;
- ``dummy``: ``luma.core.device.dummy`` (``sink.device.image`` is the frame);
- ``terminal``: the frame drawn with Unicode half blocks, redrawn in place;
- ``png``: frame_00001.png, frame_00002.png, ... in ``frames_dir``.

Identical consecutive frames are skipped by every sink.

The OLED may vanish (a loose cable): luma raises DeviceNotFoundError when
the device is created, and a raw OSError (errno 121, EREMOTEIO) from a
write. ``show()`` never raises: it logs once, drops the device, tries to
create it again at most every ``retry_seconds`` (on ``show()`` or
``tick()``; the clock is injectable) and, once it is back, re-shows the
last frame with the current contrast and power state.
"""

from __future__ import annotations

import logging
import os
import re
import sys
import time
from typing import Any, Callable, TextIO

from companion.config import Config, DisplayConfig

log = logging.getLogger(__name__)

DeviceFactory = Callable[[], Any]
SerialFactory = Callable[[int, int], Any]

# SSD1306 and SH1106 both treat 0xE3 as a no-op command: a harmless probe.
_NOP = 0xE3


def _is_device_fault(e: BaseException) -> bool:
    """An error that means 'the panel is gone', not a bug of ours."""
    if isinstance(e, OSError):
        return True
    try:
        import luma.core.error
    except ImportError:  # pragma: no cover - luma is a dependency
        return False
    return isinstance(e, luma.core.error.Error)


class DisplaySink:
    """Base class; also the do-nothing sink. Subclasses override `_write`."""

    device: Any = None

    def __init__(self, width: int = 128, height: int = 64) -> None:
        self.size = (width, height)
        self.contrast = 255
        self.powered = True
        self.frames_shown = 0
        self._last: Any = None
        self._last_key: bytes | None = None

    @staticmethod
    def _key(image: Any) -> bytes:
        return f"{image.mode}{image.size}".encode() + image.tobytes()

    def show(self, image: Any, force: bool = False) -> None:
        """Show a PIL image of `size`; identical frames are skipped unless
        `force`. Never raises."""
        try:
            key = self._key(image)
            if not force and key == self._last_key:
                return
            self._last = image.copy()
            if self._write(self._last):
                self._last_key = key
                self.frames_shown += 1
        except Exception:
            log.exception("display: cannot show a frame")

    def _write(self, image: Any) -> bool:
        """Put the frame out; False if it was not (so it is retried)."""
        return True

    def set_contrast(self, level: int) -> None:
        """Set the contrast (0-255); kept across reconnects. Never raises."""
        self.contrast = max(0, min(255, int(level)))

    def set_power(self, on: bool) -> None:
        """Switch the panel on or off (burn-in care when idle)."""
        self.powered = bool(on)

    def tick(self) -> None:
        """Periodic housekeeping (reconnecting a lost panel)."""

    def close(self, blank: bool = False) -> None:
        """Release the display; the last frame stays up unless `blank`."""


class LumaSink(DisplaySink):
    """A luma device made by `factory`, re-made after it vanishes."""

    def __init__(self, factory: DeviceFactory, *, name: str, width: int, height: int,
                 contrast: int = 255, retry_seconds: float = 5.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(width, height)
        self.name = name
        self.contrast = contrast
        self._factory = factory
        self._retry = retry_seconds
        self._clock = clock
        self._next_try = float("-inf")
        self._lost_since: float | None = None
        self.device = None
        self.failures = 0
        self.reconnects = 0
        self._connect()

    # --- device life cycle -------------------------------------------------
    def _connect(self) -> bool:
        now = self._clock()
        if now < self._next_try:
            return False
        self._next_try = now + self._retry
        dev = None
        try:
            dev = self._factory()
            dev.persist = True
            self.size = dev.size
            dev.contrast(self.contrast)
            if not self.powered:
                dev.hide()
        except Exception as e:
            if not _is_device_fault(e) and self._lost_since is None:
                log.exception("display %s: creating the device failed", self.name)
            if dev is not None:
                try:
                    dev.cleanup()
                except Exception:
                    pass
            self._fault("not found", e)
            return False
        self.device = dev
        if self._lost_since is not None:
            self.reconnects += 1
            log.warning("display %s: back after %.0f s", self.name, now - self._lost_since)
        else:
            log.info("display %s: %dx%d ready", self.name, *self.size)
        self._lost_since = None
        if self._last is not None and self._write(self._last):
            self._last_key = self._key(self._last)
        return True

    def _fault(self, what: str, e: BaseException) -> None:
        self.failures += 1
        if self._lost_since is None:
            self._lost_since = self._clock()
            log.warning("display %s: %s (%s: %s); retrying every %g s",
                        self.name, what, type(e).__name__, e, self._retry)
        else:
            log.debug("display %s: still unavailable: %s", self.name, e)

    def _drop(self, e: BaseException) -> None:
        dev, self.device = self.device, None
        self._last_key = None
        self._next_try = self._clock() + self._retry
        self._fault("lost", e)
        if dev is not None:
            try:
                dev.cleanup()    # persist=True: only frees the I2C bus handle
            except Exception:
                pass

    def _guard(self, action: Callable[[Any], Any]) -> bool:
        if self.device is None:
            return False
        try:
            action(self.device)
            return True
        except Exception as e:
            if _is_device_fault(e):
                self._drop(e)
            else:
                log.exception("display %s: unexpected error", self.name)
            return False

    # --- sink API --------------------------------------------------------------
    def _fit(self, image: Any) -> Any:
        dev = self.device
        if image.mode != dev.mode:
            image = image.convert(dev.mode)
        if image.size != dev.size:
            from PIL import Image
            fitted = Image.new(dev.mode, dev.size)
            fitted.paste(image, (0, 0))
            image = fitted
        return image

    def _write(self, image: Any) -> bool:
        if self.device is None:
            # _connect() re-shows self._last (this frame) when it succeeds.
            return self._connect() and self.device is not None and self._last is image
        return self._guard(lambda d: d.display(self._fit(image)))

    def set_contrast(self, level: int) -> None:
        super().set_contrast(level)
        self._guard(lambda d: d.contrast(self.contrast))

    def set_power(self, on: bool) -> None:
        super().set_power(on)
        self._guard(lambda d: d.show() if self.powered else d.hide())

    def tick(self) -> None:
        if self.device is None:
            try:
                self._connect()
            except Exception:
                log.exception("display %s: reconnect failed", self.name)

    def close(self, blank: bool = False) -> None:
        dev, self.device = self.device, None
        if dev is None:
            return
        try:
            if blank:
                dev.clear()
                dev.hide()
            dev.cleanup()
        except Exception as e:
            log.debug("display %s: close: %s", self.name, e)


class TerminalSink(DisplaySink):
    """Draws frames on a text terminal with Unicode block characters, redrawing in
    place with ANSI cursor movement. Half blocks (1x2 pixels a cell, 130 columns)
    where the terminal is wide enough, else quadrant blocks (2x2 pixels a cell,
    66 columns, still every pixel)."""

    _HALF = {(0, 0): " ", (1, 0): "\u2580", (0, 1): "\u2584", (1, 1): "\u2588"}
    # index = top-left*8 + top-right*4 + bottom-left*2 + bottom-right
    _QUAD = " \u2597\u2596\u2584\u259d\u2590\u259e\u259f\u2598\u259a\u258c\u2599\u2580\u259c\u259b\u2588"

    def __init__(self, width: int, height: int, stream: TextIO | None = None, cells: str = "auto") -> None:
        super().__init__(width, height)
        self._stream = stream if stream is not None else sys.stdout
        self._lines_drawn = 0
        self._broken = False
        if cells == "auto":
            import shutil

            cells = "half" if shutil.get_terminal_size((80, 24)).columns >= width + 2 else "quad"
        if cells not in ("half", "quad"):
            raise ValueError(f"terminal cells must be 'half', 'quad' or 'auto', got {cells!r}")
        self.cells = cells

    def render(self, image: Any) -> list[str]:
        """The frame as text lines, framed by a border."""
        img = image if image.mode == "1" else image.convert("1")
        w, h = img.size
        px = img.load()

        def on(x: int, y: int) -> int:
            return 1 if x < w and y < h and px[x, y] else 0

        rows = []
        if self.cells == "half":
            for y in range(0, h, 2):
                rows.append("".join(self._HALF[on(x, y), on(x, y + 1)] for x in range(w)))
        else:
            quad = self._QUAD
            for y in range(0, h, 2):
                rows.append("".join(quad[on(x, y) * 8 + on(x + 1, y) * 4 + on(x, y + 1) * 2 + on(x + 1, y + 1)]
                                    for x in range(0, w, 2)))
        width = len(rows[0]) if rows else 0
        return ["\u250c" + "\u2500" * width + "\u2510"] + ["\u2502" + r + "\u2502" for r in rows] + \
               ["\u2514" + "\u2500" * width + "\u2518"]

    def _write(self, image: Any) -> bool:
        if self._broken:
            return False
        lines = self.render(image)
        # Move back up over the previous frame, then overwrite it.
        prefix = f"\x1b[{self._lines_drawn}A\r" if self._lines_drawn else ""
        try:
            self._stream.write(prefix + "\n".join(lines) + "\n")
            self._stream.flush()
        except (OSError, ValueError) as e:
            self._broken = True
            log.warning("display terminal: cannot write (%s); frames dropped", e)
            return False
        self._lines_drawn = len(lines)
        return True


class PngSink(DisplaySink):
    """Writes each changed frame to frames_dir/frame_NNNNN.png, numbering on
    after any frames already there."""

    _NAME = re.compile(r"frame_(\d+)\.png$")

    def __init__(self, width: int, height: int, frames_dir: str) -> None:
        super().__init__(width, height)
        self.frames_dir = frames_dir
        os.makedirs(frames_dir, exist_ok=True)
        numbers = [int(m.group(1)) for n in os.listdir(frames_dir)
                   if (m := self._NAME.match(n))]
        self._next = max(numbers, default=0) + 1
        self._failed = False

    def _write(self, image: Any) -> bool:
        path = os.path.join(self.frames_dir, f"frame_{self._next:05d}.png")
        try:
            image.save(path, format="PNG")
        except OSError as e:
            if not self._failed:
                log.warning("display png: cannot write %s: %s", path, e)
                self._failed = True
            return False
        self._failed = False
        self._next += 1
        return True


def luma_factory(dcfg: DisplayConfig, serial_factory: SerialFactory | None = None) -> DeviceFactory:
    """A zero-argument callable that builds the configured luma device.

    For ssd1306/sh1106, `serial_factory(port, address)` makes the serial
    interface (default ``luma.core.interface.serial.i2c``); the panel is
    probed with a no-op command first, so a missing panel fails before a
    luma device (which registers an atexit hook) is made on every retry.
    """
    driver = dcfg.driver

    def make() -> Any:
        if driver == "dummy":
            from luma.core.device import dummy
            return dummy(width=dcfg.width, height=dcfg.height, rotate=dcfg.rotate, mode="1")
        import luma.oled.device
        cls = {"ssd1306": luma.oled.device.ssd1306, "sh1106": luma.oled.device.sh1106}[driver]
        if serial_factory is None:
            from luma.core.interface.serial import i2c
            serial = i2c(port=dcfg.port, address=dcfg.address)
        else:
            serial = serial_factory(dcfg.port, dcfg.address)
        try:
            serial.command(_NOP)
            return cls(serial, width=dcfg.width, height=dcfg.height, rotate=dcfg.rotate)
        except BaseException:
            try:
                serial.cleanup()
            except Exception:
                pass
            raise

    return make


def open_display(cfg: Config | DisplayConfig, *, device_factory: DeviceFactory | None = None,
                 serial_factory: SerialFactory | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 stream: TextIO | None = None) -> DisplaySink:
    """The display sink for the configured driver. Never raises for a
    missing panel (the sink keeps retrying); `device_factory` replaces the
    luma device construction (tests), `stream` is the terminal driver's
    output (default stdout)."""
    dcfg = cfg.display if isinstance(cfg, Config) else cfg
    if dcfg.driver == "terminal":
        sink: DisplaySink = TerminalSink(dcfg.width, dcfg.height, stream)
    elif dcfg.driver == "png":
        if not dcfg.frames_dir:
            raise ValueError("display driver png needs frames_dir")
        sink = PngSink(dcfg.width, dcfg.height, dcfg.frames_dir)
    elif dcfg.driver in ("ssd1306", "sh1106", "dummy"):
        factory = device_factory or luma_factory(dcfg, serial_factory)
        # Until a device exists, report the size it will have (luma swaps
        # width and height for a quarter-turn rotation).
        w, h = (dcfg.height, dcfg.width) if dcfg.rotate % 2 else (dcfg.width, dcfg.height)
        sink = LumaSink(factory, name=dcfg.driver, width=w, height=h,
                        contrast=dcfg.contrast, retry_seconds=dcfg.retry_seconds, clock=clock)
    else:
        raise ValueError(f"unknown display driver {dcfg.driver!r}")
    if not isinstance(sink, LumaSink):
        sink.contrast = dcfg.contrast
    return sink
