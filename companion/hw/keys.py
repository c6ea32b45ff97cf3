"""Key tokens shared by every input adapter, and the byte filter for them.

All inputs (serial keypad, GPIO buttons, rotary encoder, terminal) produce
the same tokens: the 4x4 keypad's "0"-"9", "#", "*", "A", "B", "C", "D",
plus "POWER" (safe shutdown, from a long hold on a button) and "QUIT" (the
terminal's q). `KeyFilter` turns raw keypad bytes into tokens: CR, LF and
space are ignored, a-d are read as A-D, anything else is dropped, counted,
and reported in a rate-limited log warning (a noisy line must not flood the
journal).
"""

from __future__ import annotations

import logging
import time
from typing import Callable

# The tokens and the byte mapping are the controller's (companion.table.keys): one definition, re-exported here
# for the adapters.
from companion.table.keys import (  # noqa: F401
    BACK, BYTE_TO_KEY as _BYTE_TO_KEY, DIGITS, DOWN, KEYPAD, MENU, OK, POWER, QUIT, SKIPPED_BYTES as _IGNORED, UNDO, UP,
)

log = logging.getLogger(__name__)

KEYPAD_KEYS = frozenset(KEYPAD)
TOKENS = KEYPAD_KEYS | {POWER, QUIT}


def normalize_token(token: str) -> str | None:
    """The canonical token for `token` ("a" -> "A", "POWER" -> "POWER"),
    or None if it is not a key."""
    if token in TOKENS:
        return token
    if len(token) == 1:
        return _BYTE_TO_KEY.get(ord(token))
    return None


class KeyFilter:
    """Stateless byte -> key mapping with a count of dropped bytes.

    `warn_every` seconds at most one warning is logged about dropped bytes;
    `clock` is injectable for tests.
    """

    def __init__(self, source: str = "keypad", warn_every: float = 30.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.source = source
        self.dropped = 0
        self._warn_every = warn_every
        self._clock = clock
        self._last_warn: float | None = None
        self._unreported = 0
        self._examples: list[int] = []

    def feed(self, data: bytes | bytearray | str) -> list[str]:
        """Return the key tokens in `data`, in order."""
        if isinstance(data, str):
            data = data.encode("utf-8", "replace")
        keys = []
        bad = 0
        for b in data:
            key = _BYTE_TO_KEY.get(b)
            if key is not None:
                keys.append(key)
            elif b not in _IGNORED:
                bad += 1
                if len(self._examples) < 8:
                    self._examples.append(b)
        if bad:
            self.dropped += bad
            self._unreported += bad
            self._maybe_warn()
        return keys

    def _maybe_warn(self) -> None:
        now = self._clock()
        if self._last_warn is not None and now - self._last_warn < self._warn_every:
            return
        self._last_warn = now
        shown = " ".join(f"0x{b:02x}" for b in self._examples)
        log.warning("%s: dropped %d byte(s) that are not keys (e.g. %s); "
                    "%d in total; check the baud rate and wiring",
                    self.source, self._unreported, shown, self.dropped)
        self._unreported = 0
        self._examples = []
