"""The serial 4x4 keypad behind a USB-serial bridge, read on a background thread.

`open_keypad(cfg, put)` returns a `SerialKeypad`; `start()` begins reading.
The port is a device path (preferably a stable /dev/serial/by-id/... link)
or any pyserial URL (loop:// in tests). Each key press comes as a checked
frame (companion.hw.keyframe, what firmware/serial-keypad sends): only whole
frames become keys, on `put`. Any other byte is noise: a `LineNoise` event goes
to `put` (at most one a second; the loop shows it and holds confirmations) and
a warning to the log (at most one in 30 s). An old keypad's one ASCII byte per
key (`protocol: one-byte`, named in the config, warned about: noise can form
keys there) goes through `KeyFilter` instead. Unplugging the adapter
(SerialException/OSError) is logged once; the thread then re-opens the port
with exponential backoff (0.5 s doubling to 10 s), resolving the by-id link
afresh each time, because the kernel may give the re-plugged adapter a new
ttyUSB number.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from typing import Any, Callable

from companion.hw.keyevents import LineNoise
from companion.hw.keyframe import FRAMED, LEGACY, FrameDecoder
from companion.hw.settings import KEYPAD_PROTOCOLS
from companion.table.keys import BYTE_TO_KEY, KeyFilter

log = logging.getLogger(__name__)

Put = Callable[[Any], Any]
READ_TIMEOUT_S = 0.2
STABLE_S = 5.0
NOISE_EVENT_S = 1.0   # at most one LineNoise event a second: the loop needs only "noise lately"
NOISE_WARN_S = 30.0   # at most one log warning about noise in this time


def _describe_port(port: str) -> str:
    if "://" in port:
        return port
    real = os.path.realpath(port)
    return port if real == port else f"{port} -> {real}"


class SerialKeypad:
    """A reader thread for the serial keypad; build with `open_keypad`.

    `opener(port, baudrate)` returns an open pyserial-like object (default:
    ``serial.serial_for_url(port, baudrate, timeout=0.2)``); `sleep(seconds)`
    waits between reconnect attempts (default: an interruptible wait that
    `close()` cuts short). `protocol`: "framed" or "one-byte" (KEYPAD_PROTOCOLS);
    `clock` times the noise reports.
    """

    def __init__(self, port: str, baudrate: int, put: Put, *,
                 opener: Callable[[str, int], Any] | None = None,
                 sleep: Callable[[float], Any] | None = None,
                 backoff_start: float = 0.5, backoff_max: float = 10.0,
                 protocol: str = FRAMED, clock: Callable[[], float] = time.monotonic) -> None:
        if protocol not in KEYPAD_PROTOCOLS:
            raise ValueError(f"keypad.protocol {protocol!r} is not one of {', '.join(KEYPAD_PROTOCOLS)}")
        self.port = port
        self.baudrate = baudrate
        self.protocol = protocol
        self._clock = clock
        self._put = put
        self._opener = opener or self._open_serial
        self._stop = threading.Event()
        self._sleep = sleep or self._stop.wait
        self._backoff_start = backoff_start
        self._backoff_max = backoff_max
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._conn: Any = None
        self.filter = KeyFilter(source=f"keypad {port}")  # the one-byte protocol
        self.frames = FrameDecoder()                       # the framed one
        self.noise = 0             # bytes that were no key, since start
        self._noise_event_at: float | None = None
        self._noise_warned_at: float | None = None
        self._noise_unwarned = 0
        self._noise_examples = bytearray()
        if protocol == LEGACY:
            log.warning("keypad %s: protocol one-byte (keypad.protocol): noise on the cable can type keys; "
                        "flash firmware/serial-keypad and remove the setting", port)
        self.connected = threading.Event()
        self.connects = 0          # successful opens (1 + reconnects)
        self.failed_attempts = 0   # failed opens since start
        self.put_errors = 0

    @staticmethod
    def _open_serial(port: str, baudrate: int) -> Any:
        import serial  # lazy: only when a keypad is configured
        return serial.serial_for_url(port, baudrate=baudrate, timeout=READ_TIMEOUT_S)

    @property
    def connection(self) -> Any:
        """The open serial object, or None while disconnected."""
        return self._conn

    def start(self) -> None:
        """Start the reader thread (idempotent)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="keypad", daemon=True)
            self._thread.start()

    def close(self) -> None:
        """Stop the thread and close the port (idempotent)."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)
        self._close_conn()

    def __enter__(self) -> "SerialKeypad":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _close_conn(self) -> None:
        with self._lock:
            conn, self._conn = self._conn, None
        self.connected.clear()
        if conn is not None:
            try:
                conn.close()
            except Exception:
                log.debug("keypad: close failed", exc_info=True)

    def _run(self) -> None:
        delay = self._backoff_start
        outage_logged = False
        while not self._stop.is_set():
            try:
                conn = self._opener(self.port, self.baudrate)
            except Exception as e:  # SerialException, OSError, ValueError
                self.failed_attempts += 1
                if not outage_logged:
                    log.warning("keypad %s: cannot open (%s); retrying every %g-%g s",
                                self.port, e, self._backoff_start, self._backoff_max)
                    outage_logged = True
                else:
                    log.debug("keypad %s: still unavailable: %s", self.port, e)
                self._sleep(delay)
                delay = min(delay * 2, self._backoff_max)
                continue
            with self._lock:
                self._conn = conn
            self.connects += 1
            log.info("keypad %s: %s", _describe_port(self.port),
                     "reconnected" if self.connects > 1 else "connected")
            outage_logged = False
            self.frames.restart()
            connected_at = time.monotonic()
            self.connected.set()
            try:
                self._read_loop(conn)
            except Exception as e:
                if not self._stop.is_set():
                    log.warning("keypad %s: lost (%s); reconnecting", self.port, e)
                    outage_logged = True
            finally:
                self._close_conn()
            if not self._stop.is_set():
                # The backoff only restarts after a connection that lasted:
                # a flapping adapter must not make us spin and flood the log.
                if time.monotonic() - connected_at >= STABLE_S:
                    delay = self._backoff_start
                self._sleep(delay)
                delay = min(delay * 2, self._backoff_max)

    def _read_loop(self, conn: Any) -> None:
        while not self._stop.is_set():
            # Block for one byte (or the timeout), then take whatever else
            # is already buffered: keys arrive without waiting for a block.
            data = conn.read(1)
            if not data:
                continue
            waiting = conn.in_waiting
            if waiting:
                data += conn.read(waiting)
            for key in self.decode(data):
                self._give(key)

    def decode(self, data: bytes) -> list[str]:
        """The keys in `data` by the configured protocol; noise, if any, is reported first."""
        if self.protocol == LEGACY:
            before = self.filter.dropped  # KeyFilter warns in the log itself
            keys = self.filter.feed(data)
            noise = self.filter.dropped - before
        else:
            before = self.frames.noise
            keys = self.frames.feed(data)
            noise = self.frames.noise - before
            if noise:
                self._warn_noise(noise, data)
        if noise:
            self.noise += noise
            now = self._clock()
            if self._noise_event_at is None or now - self._noise_event_at >= NOISE_EVENT_S:
                self._noise_event_at = now
                self._give(LineNoise(self.port, self.noise))
        return keys

    def _warn_noise(self, noise: int, data: bytes) -> None:
        self._noise_unwarned += noise
        if len(self._noise_examples) < 8:
            self._noise_examples += data[:8 - len(self._noise_examples)]
        now = self._clock()
        if self._noise_warned_at is not None and now - self._noise_warned_at < NOISE_WARN_S:
            return
        self._noise_warned_at = now
        old_keypad = all(b in BYTE_TO_KEY for b in self._noise_examples)
        log.warning("keypad %s: %d byte(s) of noise on the line, no key taken from them (%d in total); %s",
                    self.port, self._noise_unwarned, self.noise + noise,
                    "they look like an old keypad's one-byte keys: flash firmware/serial-keypad, "
                    "or set keypad.protocol: one-byte" if old_keypad else
                    "check the cable and keypad.baudrate")
        self._noise_unwarned = 0
        self._noise_examples.clear()

    def _give(self, item: Any) -> None:
        try:
            self._put(item)
        except Exception:
            self.put_errors += 1
            log.exception("keypad: put(%r) failed", item)


def open_keypad(cfg: Any, put: Put, **kwargs: Any) -> SerialKeypad:
    """A `SerialKeypad` for the configured port (not started yet).

    `cfg` is the whole Config (its keypad section must be set) or the keypad
    section (a `KeypadConfig`, companion.hw.settings). Extra keyword arguments (opener, sleep, backoff_start,
    backoff_max, clock) go to `SerialKeypad`.
    """
    kcfg = cfg.keypad if hasattr(cfg, "keypad") else cfg
    if kcfg is None:
        raise ValueError("no keypad configured")
    return SerialKeypad(kcfg.port, kcfg.baudrate, put, protocol=kcfg.protocol, **kwargs)
