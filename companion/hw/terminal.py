"""Keys from the terminal keyboard, for development and bench tests.

On a tty the terminal is put in cbreak mode (single keys, no echo; Ctrl-C
still interrupts) and restored on `close()`, at exit, and when the reader
thread ends for any reason. Keys: the keypad characters themselves (0-9 # *
A-D, a-d), Up/Down arrows -> "A"/"B", Enter -> "#", Backspace or a lone Esc
-> "*", u -> "C" (undo), m -> "D" (menu), r -> "REPEAT" (say the last announcement
again, a long press of MENU at the table), q -> "QUIT".

When the stream is not a tty (a pipe, a file) it is read line by line with
the same mapping, except that line ends are ignored rather than read as
Enter, so ``printf '12#13#\\n'`` types exactly one move. End of input only
sets `eof`: a daemon started with stdin on /dev/null must not quit.

`read_piped_keys` reads a whole non-tty stdin at once with that mapping, for
``echo 12#13# | companion run``: the keys are then played like ``--keys FILE``.
"""

from __future__ import annotations

import atexit
import logging
import os
import select
import sys
import threading
from typing import Any, Callable, TextIO

from companion.table.keys import BACK, DOWN, MENU, OK, QUIT, REPEAT, UNDO, UP, KeyFilter
from companion.table.keyscript import MAX_KEY_SCRIPT_BYTES, read_capped

log = logging.getLogger(__name__)

Put = Callable[[str], Any]

ESC = 0x1B
# Letters the keypad does not have: terminal shortcuts.
_SHORTCUTS = {ord("u"): UNDO, ord("m"): MENU, ord("r"): REPEAT, ord("q"): QUIT}
_TTY_ONLY = {ord("\r"): OK, ord("\n"): OK, 0x7F: BACK, 0x08: BACK}
_ARROWS = {ord("A"): UP, ord("B"): DOWN}


class KeyDecoder:
    """Bytes typed on a terminal -> key tokens; escape sequences may arrive
    split across reads. `flush()` ends a pending lone Esc (call it when no
    more input came within a short time)."""

    def __init__(self, tty: bool = True) -> None:
        self.tty = tty
        self.filter = KeyFilter(source="terminal", warn_every=300.0)
        self._pending = bytearray()

    def feed(self, data: bytes) -> list[str]:
        buf = self._pending + data
        self._pending = bytearray()
        out: list[str] = []
        i = 0
        while i < len(buf):
            b = buf[i]
            if b == ESC and self.tty:
                end = self._escape_end(buf, i)
                if end is None:          # incomplete: wait for more bytes
                    self._pending = bytearray(buf[i:])
                    break
                if end == i + 1:         # lone Esc followed by a plain key
                    out.append(BACK)
                else:
                    final = buf[end - 1]
                    if end - i == 3 and final in _ARROWS:
                        out.append(_ARROWS[final])
                    # other sequences (right arrow, F-keys, ...) are ignored
                i = end
                continue
            if b in _SHORTCUTS:
                out.append(_SHORTCUTS[b])
            elif self.tty and b in _TTY_ONLY:
                out.append(_TTY_ONLY[b])
            else:
                out.extend(self.filter.feed(bytes([b])))
            i += 1
        return out

    @staticmethod
    def _escape_end(buf: bytes | bytearray, i: int) -> int | None:
        """Index just past the escape sequence at buf[i] (ESC), i + 1 for a
        lone Esc, None if the sequence is not complete yet."""
        if i + 1 >= len(buf):
            return None
        intro = buf[i + 1]
        if intro == ord("O"):            # SS3: ESC O <final>
            return i + 3 if i + 2 < len(buf) else None
        if intro != ord("["):
            return i + 1
        j = i + 2                        # CSI: params, intermediates, final
        while j < len(buf):
            if 0x40 <= buf[j] <= 0x7E:
                return j + 1
            if not 0x20 <= buf[j] <= 0x3F:
                return j                 # malformed: drop what we have
            j += 1
        return None

    def flush(self) -> list[str]:
        """Keys for input left pending (a lone Esc becomes "*")."""
        pending, self._pending = bytes(self._pending), bytearray()
        return [BACK] if pending[:1] == bytes([ESC]) and len(pending) == 1 else []


class TerminalKeys:
    """Reads the terminal on a daemon thread; build with `open_terminal`."""

    def __init__(self, put: Put, stream: TextIO | None = None,
                 esc_timeout: float = 0.05) -> None:
        self._put = put
        self.stream = stream if stream is not None else sys.stdin
        self._esc_timeout = esc_timeout
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._saved: Any = None
        self._fd: int | None = None
        self.eof = threading.Event()
        try:
            self.is_tty = self.stream.isatty()
        except (AttributeError, ValueError):
            self.is_tty = False
        self.decoder = KeyDecoder(tty=self.is_tty)

    def start(self) -> None:
        """Enter cbreak mode (on a tty) and start the reader thread."""
        if self._thread is not None:
            return
        if self.is_tty:
            import termios
            import tty
            self._fd = self.stream.fileno()
            self._saved = termios.tcgetattr(self._fd)
            atexit.register(self.restore)
            tty.setcbreak(self._fd)
        target = self._read_tty if self.is_tty else self._read_lines
        self._thread = threading.Thread(target=self._guarded, args=(target,),
                                        name="terminal-keys", daemon=True)
        self._thread.start()

    def restore(self) -> None:
        """Put the terminal back as it was (idempotent)."""
        with self._lock:
            saved, self._saved = self._saved, None
        if saved is not None and self._fd is not None:
            import termios
            try:
                termios.tcsetattr(self._fd, termios.TCSADRAIN, saved)
            except (OSError, termios.error) as e:
                log.debug("terminal: restore failed: %s", e)
            atexit.unregister(self.restore)

    def close(self) -> None:
        """Stop reading and restore the terminal."""
        self._stop.set()
        if self.is_tty and self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1.0)
        self.restore()

    def __enter__(self) -> "TerminalKeys":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _emit(self, keys: list[str]) -> None:
        for key in keys:
            try:
                self._put(key)
            except Exception:
                log.exception("terminal: put(%r) failed", key)

    def _guarded(self, target: Callable[[], None]) -> None:
        try:
            target()
        except Exception:
            log.exception("terminal: reader stopped")
        finally:
            self.restore()

    def _read_tty(self) -> None:
        fd = self._fd
        assert fd is not None
        while not self._stop.is_set():
            timeout = self._esc_timeout if self.decoder._pending else 0.1
            ready, _, _ = select.select([fd], [], [], timeout)
            if not ready:
                self._emit(self.decoder.flush())
                continue
            data = os.read(fd, 64)
            if not data:
                self.eof.set()
                return
            self._emit(self.decoder.feed(data))

    def _read_lines(self) -> None:
        while not self._stop.is_set():
            line = self.stream.readline()
            if not line:
                self.eof.set()
                return
            data = line.encode("utf-8", "replace") if isinstance(line, str) else line
            self._emit(self.decoder.feed(data))


def stdin_is_tty(stream: Any = None) -> bool:
    """True when `stream` (default sys.stdin) is a terminal someone types on."""
    stream = sys.stdin if stream is None else stream
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def read_piped_keys(stream: Any = None, max_bytes: int = MAX_KEY_SCRIPT_BYTES) -> list[str]:
    """Every key of a non-tty `stream` (default sys.stdin: a pipe or a file), read to its end with
    the terminal's pipe mapping (line ends skipped, u/m/q as undo/menu/quit). At most `max_bytes`,
    like a key script: UsageError in one line for more, or when the stream cannot be read."""
    stream = sys.stdin if stream is None else stream
    raw = getattr(stream, "buffer", stream)
    data = read_capped(raw, "stdin", max_bytes) if raw is not None else b""
    return KeyDecoder(tty=False).feed(data)


def open_terminal(put: Put, stream: TextIO | None = None) -> TerminalKeys:
    """Terminal keys from `stream` (default sys.stdin) to `put`; call
    `start()` to begin and `close()` to restore the terminal."""
    return TerminalKeys(put, stream if stream is not None else sys.stdin)
