"""The serial 4x4 keypad (one ASCII byte per key press) behind a USB-serial
bridge, read on a background thread.

`open_keypad(cfg, put)` returns a `SerialKeypad`; `start()` begins reading.
The port is a device path (preferably a stable /dev/serial/by-id/... link)
or any pyserial URL (loop:// in tests). Bytes go through `KeyFilter`; keys
go to `put`. Unplugging the adapter (SerialException/OSError) is logged
once; the thread then re-opens the port with exponential backoff (0.5 s
doubling to 10 s), resolving the by-id link afresh each time, because the
kernel may give the re-plugged adapter a new ttyUSB number.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from typing import Any, Callable

from companion.table.keys import KeyFilter

log = logging.getLogger(__name__)

Put = Callable[[str], Any]
READ_TIMEOUT_S = 0.2
STABLE_S = 5.0


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
    `close()` cuts short).
    """

    def __init__(self, port: str, baudrate: int, put: Put, *,
                 opener: Callable[[str, int], Any] | None = None,
                 sleep: Callable[[float], Any] | None = None,
                 backoff_start: float = 0.5, backoff_max: float = 10.0) -> None:
        self.port = port
        self.baudrate = baudrate
        self._put = put
        self._opener = opener or self._open_serial
        self._stop = threading.Event()
        self._sleep = sleep or self._stop.wait
        self._backoff_start = backoff_start
        self._backoff_max = backoff_max
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._conn: Any = None
        self.filter = KeyFilter(source=f"keypad {port}")
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
            for key in self.filter.feed(data):
                try:
                    self._put(key)
                except Exception:
                    self.put_errors += 1
                    log.exception("keypad: put(%r) failed", key)


def open_keypad(cfg: Any, put: Put, **kwargs: Any) -> SerialKeypad:
    """A `SerialKeypad` for the configured port (not started yet).

    `cfg` is the whole Config (its keypad section must be set) or the keypad
    section (a `KeypadConfig`, companion.hw.settings). Extra keyword arguments (opener, sleep, backoff_start,
    backoff_max) go to `SerialKeypad`.
    """
    kcfg = cfg.keypad if hasattr(cfg, "keypad") else cfg
    if kcfg is None:
        raise ValueError("no keypad configured")
    return SerialKeypad(kcfg.port, kcfg.baudrate, put, **kwargs)
