"""Key tokens: what every input (keypad, buttons, terminal, key script) turns into, and the ONE byte decoder.

A key is a one-character string from the 4x4 keypad (spec section 4) or the word
"POWER" (a configured long press asking for a safe shutdown) or "REPEAT" (a long press of
MENU: say the last announcement again). Bytes from the serial
keypad or a key script become tokens with `tokens_from_bytes`, with the same mapping
as the serial keypad reader (companion.hw.keys uses these): CR, LF and space are skipped, a-d
read as A-D, anything else is dropped and reported to the caller (who logs it once),
so junk on the line can never turn into a move. "QUIT" (the terminal's q) is for the
daemon, never for a game. `KeyFilter` is the serial keypad's use of the same decoder,
with a count of dropped bytes and a rate-limited warning (a noisy line must not flood
the journal).
"""

from __future__ import annotations

import logging
import time
from typing import Callable, Iterable, Iterator, MutableSequence

DIGITS = "0123456789"
OK = "#"
BACK = "*"
UP = "A"
DOWN = "B"
UNDO = "C"
MENU = "D"
POWER = "POWER"
REPEAT = "REPEAT"  # say the last announcement again (a long press of MENU; the menu has the item too)
QUIT = "QUIT"

KEYPAD = DIGITS + "#*ABCD"
KEYS: frozenset[str] = frozenset(KEYPAD) | {POWER, REPEAT}
SKIPPED_BYTES = frozenset(b"\r\n ")
# byte -> token; lowercase a-d count as A-D (some keypad firmwares send them)
BYTE_TO_KEY = {ord(k): k for k in KEYPAD} | {ord(k.lower()): k for k in "ABCD"}


def is_key(token: object) -> bool:
    """True for a token the controller understands."""
    return isinstance(token, str) and token in KEYS


def step(key: str) -> int:
    """+1 for DOWN (B), -1 for UP (A)."""
    return 1 if key == DOWN else -1


def select(key: str, selected: int, n: int, wrap: bool = True) -> int | None:
    """The highlighted row of a list of `n` rows after `key`: A/B move it (round the ends, or
    stopping there without `wrap`), a digit 1..n jumps to that row; None for any other key."""
    if key in (UP, DOWN):
        moved = selected + step(key)
        return moved % n if wrap else max(0, min(n - 1, moved))
    if key in DIGITS and 1 <= int(key) <= n:
        return int(key) - 1
    return None


def select_number(key: str, selected: int, n: int, typed: str = "", wrap: bool = True) -> tuple[int | None, str]:
    """`select` for a list that may hold 10 rows or more, where digits make numbers: (the highlighted row
    or None, as `select` gives it; the digits typed so far). A digit goes on the number typed so far while
    that is a row ("1" then "1": row 11 of 14), else starts a new one ("1" then "5" of 14: row 5); the
    number is kept only while a longer one could still be a row, so "2" of 14 (or any digit of a list of
    9 rows or fewer, as `select`) jumps at once and the next digit starts afresh. Any other key forgets it."""
    if len(key) != 1 or key not in DIGITS:
        return select(key, selected, n, wrap), ""
    for number in (typed + key, key):
        row = int(number)
        if 1 <= row <= n:
            return row - 1, number if row * 10 <= n else ""
    return None, ""


def tokens_from_bytes(data: bytes | bytearray | Iterable[int],
                      unknown: set[int] | MutableSequence[int] | None = None) -> Iterator[str]:
    """Keypad bytes -> key tokens. Unknown bytes are skipped and added to `unknown` (a set or a list)."""
    for byte in data:
        key = BYTE_TO_KEY.get(byte)
        if key is not None:
            yield key
        elif byte not in SKIPPED_BYTES and unknown is not None:
            if isinstance(unknown, set):
                unknown.add(byte)
            else:
                unknown.append(byte)


log = logging.getLogger(__name__)

TOKENS = KEYS | {QUIT}


def normalize_token(token: str) -> str | None:
    """The canonical token for `token` ("a" -> "A", "POWER" -> "POWER"),
    or None if it is not a key."""
    if token in TOKENS:
        return token
    if len(token) == 1:
        return BYTE_TO_KEY.get(ord(token))
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
        unknown: list[int] = []
        keys = list(tokens_from_bytes(data, unknown))
        if unknown:
            self.dropped += len(unknown)
            self._unreported += len(unknown)
            self._examples = (self._examples + unknown)[:8]
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
