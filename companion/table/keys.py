"""Key tokens: what every input (keypad, buttons, terminal, key script) turns into.

A key is a one-character string from the 4x4 keypad (spec section 4) or the word
"POWER" (a configured long press asking for a safe shutdown). Bytes from the serial
keypad or a key script become tokens with `tokens_from_bytes`, with the same mapping
as the serial keypad reader (companion.hw.keys uses these): CR, LF and space are skipped, a-d
read as A-D, anything else is dropped and reported to the caller (who logs it once),
so junk on the line can never turn into a move. "QUIT" (the terminal's q) is for the
daemon, never for the controller.
"""

from __future__ import annotations

from typing import Iterable, Iterator

DIGITS = "0123456789"
OK = "#"
BACK = "*"
UP = "A"
DOWN = "B"
UNDO = "C"
MENU = "D"
POWER = "POWER"
QUIT = "QUIT"

KEYPAD = DIGITS + "#*ABCD"
KEYS: frozenset[str] = frozenset(KEYPAD) | {POWER}
SKIPPED_BYTES = frozenset(b"\r\n ")
# byte -> token; lowercase a-d count as A-D (some keypad firmwares send them)
BYTE_TO_KEY = {ord(k): k for k in KEYPAD} | {ord(k.lower()): k for k in "ABCD"}


def is_key(token: object) -> bool:
    """True for a token the controller understands."""
    return isinstance(token, str) and token in KEYS


def tokens_from_bytes(data: bytes | bytearray | Iterable[int], unknown: set[int] | None = None) -> Iterator[str]:
    """Keypad bytes -> key tokens. Unknown bytes are skipped; their values are added to `unknown`."""
    for byte in data:
        key = BYTE_TO_KEY.get(byte)
        if key is not None:
            yield key
        elif byte not in SKIPPED_BYTES and unknown is not None:
            unknown.add(byte)
