"""Display sinks: where finished 1-bit frames (PIL images) go.

`open_display(cfg)` returns a sink with ``show(image)``, ``set_contrast()``,
``set_power()``, ``tick()``, ``close()``, ``size`` and ``device``:

- any luma.oled device name (``ssd1306``, ``sh1106``, ``ssd1309``,
  ``ssd1315``, ``sh1107``, ``ssd1322`` ...: ``companion.box.config.oled_drivers()``):
  a real OLED through luma.oled over I2C (``luma.core.interface.serial.i2c``).
  With no ``address`` configured, 0x3C then 0x3D are probed and the one that
  answered is remembered (``sink.address``) and tried first on a reconnect.
  ``persist = True``, so luma's own exit hook never blanks the panel behind
  our back (a crash keeps the last frame for the log reader); ``close()``
  clears the panel and switches it off before releasing the bus;
- ``dummy``: ``luma.core.device.dummy`` (``sink.device.image`` is the frame);
- ``terminal``: the frame drawn with Unicode blocks or braille, redrawn in place
  (``companion.hw.terminal_sink``);
- ``png``: frame_00001.png, frame_00002.png, ... in ``frames_dir``
  (``companion.hw.png_sink``).

``set_shift(dx, dy)`` moves the picture against burn-in (the panel asks now and then):
the frames shown are moved, and an SSD1306 or SH1106 moves its rows itself
(``companion.hw.oled_window``), so its RAM stays aligned to its pages.

Identical consecutive frames are skipped by every sink (their base:
``companion.hw.sink.DisplaySink``). ``close()`` blanks a real OLED (a shut-down
box shows no stale screen and the panel sleeps);
the ``dummy`` driver keeps its last frame for the tests that read it,
unless ``close(blank=True)``.

The OLED may vanish (a loose cable): luma raises DeviceNotFoundError when
the device is created, and a raw OSError (errno 121, EREMOTEIO) from a
write. ``show()`` never raises: it logs once, drops the device, tries to
create it again at most every ``retry_seconds`` (on ``show()`` or
``tick()``; the clock is injectable) and, once it is back, re-shows the
last frame with the current contrast and power state.
"""

from __future__ import annotations

import errno
import logging
import time
from typing import Any, Callable, TextIO

from companion.hw.settings import OLED_ADDRESSES, DisplayConfig
from companion.hw.sinks import is_oled, sink_entry
from companion.hw.sink import DisplaySink

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


class LumaSink(DisplaySink):
    """A luma device made by `factory`, re-made after it vanishes."""

    def __init__(self, factory: DeviceFactory, *, name: str, width: int, height: int,
                 contrast: int = 255, retry_seconds: float = 5.0,
                 clock: Callable[[], float] = time.monotonic,
                 blank_on_close: bool = True) -> None:
        super().__init__(width, height)
        self.name = name
        self.blank_on_close = blank_on_close
        self.contrast = contrast
        self._factory = factory
        self._retry = retry_seconds
        self._clock = clock
        self._next_try = float("-inf")
        self._lost_since: float | None = None
        self.device = None
        self._writer: Any = None  # only the changed windows of a frame go on the bus (oled_window)
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
        from companion.hw.oled_window import writer_for
        self._writer = writer_for(dev)  # a new panel's RAM is unknown: its first frame goes whole
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
        if self._writer is not None:  # it moves the rows in the controller: the RAM stays page-aligned
            return self._guard(lambda d: self._writer.display(self._fit(image), self.shift))
        return self._guard(lambda d: d.display(self._moved(self._fit(image))))

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

    @property
    def address(self) -> int | None:
        """The I2C address that answered (None before, or for a device without one)."""
        return getattr(self._factory, "address", None)

    def close(self, blank: bool | None = None) -> None:
        """Clear the panel and send display-off (unless `blank` is False, or
        None on a sink made with blank_on_close=False), then free the bus.
        Never raises: a panel already gone is just released."""
        dev, self.device = self.device, None
        if dev is None:
            return
        if self.blank_on_close if blank is None else blank:
            try:
                dev.clear()
                dev.hide()
                self.powered = False
            except Exception as e:
                log.debug("display %s: blanking at close: %s", self.name, e)
        try:
            dev.cleanup()    # persist=True: frees the bus handle, sends nothing
        except Exception as e:
            log.debug("display %s: close: %s", self.name, e)


def _release(serial: Any) -> None:
    try:
        serial.cleanup()
    except Exception:
        pass


def no_answer(e: BaseException) -> bool:
    """Nothing acknowledged at that address (luma's DeviceNotFoundError from a
    write, or the raw OSError 121/5 of a bus without luma's wrapping)."""
    if isinstance(e, OSError):
        return e.errno in (errno.EREMOTEIO, errno.EIO, errno.ENXIO)
    try:
        from luma.core.error import DeviceNotFoundError
    except ImportError:  # pragma: no cover - luma is a dependency
        return False
    return isinstance(e, DeviceNotFoundError)


def default_serial(port: int, address: int) -> Any:
    """luma's I2C interface on /dev/i2c-`port` (raises luma's DeviceNotFoundError
    when the bus does not exist, DevicePermissionError when it may not be opened)."""
    from luma.core.interface.serial import i2c
    return i2c(port=port, address=address)


def find_oled(port: int, addresses: tuple[int, ...] = OLED_ADDRESSES,
              serial_factory: SerialFactory | None = None) -> tuple[int, Any]:
    """Probe `addresses` in order with a no-op command; returns (the address that
    answered, its open serial interface). Raises the last "no answer" error when
    none does, and at once what opening the bus raises (no bus, no permission)."""
    make = serial_factory or default_serial
    last: BaseException | None = None
    for address in addresses:
        serial = make(port, address)
        try:
            serial.command(_NOP)
            return address, serial
        except Exception as e:
            _release(serial)
            if not no_answer(e):
                raise
            last = e
    assert last is not None, "no address to probe"
    raise last


def oled_class(driver: str) -> Any:
    """The luma.oled device class named `driver` (ValueError when luma.oled has none)."""
    import luma.oled.device
    cls = getattr(luma.oled.device, driver, None)
    if driver not in getattr(luma.oled.device, "__all__", ()) or not callable(cls):
        raise ValueError(f"luma.oled has no display driver {driver!r}")
    return cls


class LumaFactory:
    """A zero-argument callable that builds the configured luma device.

    For an OLED, `serial_factory(port, address)` makes the serial interface
    (default ``luma.core.interface.serial.i2c``); the panel is probed with a
    no-op command first, so a missing panel fails before a luma device (which
    registers an atexit hook) is made on every retry. With no address in the
    config, 0x3C then 0x3D are probed; `address` keeps the one that answered
    and is tried first next time."""

    def __init__(self, dcfg: DisplayConfig, serial_factory: SerialFactory | None = None) -> None:
        self.dcfg = dcfg
        self.serial_factory = serial_factory
        self.address: int | None = dcfg.address

    def candidates(self) -> tuple[int, ...]:
        """Addresses to probe, the remembered one first."""
        if self.dcfg.address is not None:
            return (self.dcfg.address,)
        if self.address is None:
            return OLED_ADDRESSES
        return (self.address,) + tuple(a for a in OLED_ADDRESSES if a != self.address)

    def __call__(self) -> Any:
        d = self.dcfg
        if d.driver == "dummy":
            from luma.core.device import dummy
            return dummy(width=d.width, height=d.height, rotate=d.rotate, mode="1")
        cls = oled_class(d.driver)
        address, serial = find_oled(d.port, self.candidates(), self.serial_factory)
        try:
            dev = cls(serial, width=d.width, height=d.height, rotate=d.rotate)
        except BaseException:
            _release(serial)
            raise
        if address != self.address:
            log.info("display %s: found at i2c-%d address 0x%02X", d.driver, d.port, address)
        self.address = address
        return dev


def open_luma(dcfg: DisplayConfig, *, device_factory: DeviceFactory | None = None,
              serial_factory: SerialFactory | None = None,
              clock: Callable[[], float] = time.monotonic, **_: Any) -> DisplaySink:
    """The luma sink (an OLED, or luma's `dummy`): never raises for a missing panel."""
    factory = device_factory or LumaFactory(dcfg, serial_factory)
    # Until a device exists, report the size it will have (luma swaps
    # width and height for a quarter-turn rotation).
    w, h = (dcfg.height, dcfg.width) if dcfg.rotate % 2 else (dcfg.width, dcfg.height)
    return LumaSink(factory, name=dcfg.driver, width=w, height=h,
                    contrast=dcfg.contrast, retry_seconds=dcfg.retry_seconds, clock=clock,
                    blank_on_close=is_oled(dcfg.driver))


def open_display(cfg: Any, *, device_factory: DeviceFactory | None = None,
                 serial_factory: SerialFactory | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 stream: TextIO | None = None) -> DisplaySink:
    """The display sink for the configured driver (companion.hw.sinks names them). Never raises
    for a missing panel (the sink keeps retrying); `device_factory` replaces the
    luma device construction (tests), `stream` is the terminal driver's
    output (default stdout)."""
    dcfg = getattr(cfg, "display", cfg)  # a Config's display part, or a DisplayConfig itself
    sink: DisplaySink = sink_entry(dcfg.driver).open(dcfg, device_factory=device_factory,
                                                     serial_factory=serial_factory, clock=clock, stream=stream)
    if not isinstance(sink, LumaSink):
        sink.contrast = dcfg.contrast
    return sink
