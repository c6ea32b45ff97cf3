"""The one link between the kiosk (`companion run`) and its page (`companion web`), both sides.

Two channels, and nothing else passes between the two processes but the journal:

- **The key socket**: a Unix socket the kiosk listens on (companion.hw.keysocket) and the page
  writes to (companion.web.keylink), one UTF-8 JSON object a line:

      {"keys": ["1", "2", "#"]}             keys typed on a phone: the keypad's 16 keys only
      {"url": "HTTP://192.168.1.23:8080"}   where the page is (the OLED's Phone view shows it)
      {"roster": ["Anna", "Ben"]}           the players' names, set on the page with the PIN
      {"remove_game": 7}                    take finished game 7 out of the history

  The page builds its lines with `keys`, `url`, `roster`, `remove_game` and `encode`; the
  kiosk reads them with `decode`, which takes exactly these and nothing else.
- **The camera's picture** (`CAMERA_FRAME`, beside the key socket, in the kiosk's runtime
  directory: RAM): the camera's latest frame, written by the kiosk a few times a minute while a
  camera is set up, shown by the page behind the PIN; the only picture that leaves the kiosk's memory.
- **The PIN file** (`PIN_FILE`, in the state directory beside the journal): the page's PIN while
  it exists, written by the kiosk's New PIN or the settings card, read by the page; its rules
  (`PIN_DIGITS`, `PIN_MIN_DIGITS`, `PIN_MAX_DIGITS`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Sequence, Union

from companion.table.keys import KEYPAD

CAMERA_FRAME = "camera.jpg"  # beside the key socket: the camera's latest frame (the page shows it with the PIN)
PIN_FILE = "web-pin"  # in the state directory, beside the journal: the page's PIN while it exists
PIN_DIGITS = 10  # what New PIN makes: 10**10 PINs, at one guess a second a day's guesses find it with p < 1e-5
PIN_MIN_DIGITS = 4  # shorter PINs than PIN_DIGITS are accepted with a warning (older boxes have 4-12)
PIN_MAX_DIGITS = 16  # the page (companion.web.guard) and the settings card (companion.box.card) take 4 to 16

MAX_LINE = 4096  # bytes in one line, its end included: the kiosk drops a longer one
MAX_KEYS_PER_LINE = 64
MAX_URL = 200
MAX_GAME_ID = 2 ** 63 - 1  # SQLite's largest integer: a journal's game ids are within 1..this


@dataclass(frozen=True)
class Keys:
    keys: tuple[str, ...]


@dataclass(frozen=True)
class Url:
    url: str | None  # None: the page went away


@dataclass(frozen=True)
class Roster:
    names: tuple[str, ...]


@dataclass(frozen=True)
class RemoveGame:
    game_id: int


@dataclass(frozen=True)
class CameraCorners:
    corners: tuple[float, ...]  # 8 numbers: x1, y1 ... x4, y4, pixels of the camera's picture


Message = Union[Keys, Url, Roster, RemoveGame, CameraCorners]


def game_id(value: Any) -> int | None:
    """`value` when it is a whole number a journal's game may have (1 to `MAX_GAME_ID`; never a bool,
    a float or a string of digits), else None."""
    return value if type(value) is int and 1 <= value <= MAX_GAME_ID else None


def _keypad(key: Any) -> bool:
    """One of the keypad's 16 keys (never POWER or QUIT from a phone)."""
    return isinstance(key, str) and len(key) == 1 and key in KEYPAD


# --- the page's side -------------------------------------------------------------------------

def keys(typed: Sequence[str]) -> dict:
    return {"keys": list(typed)}


def url(address: str | None) -> dict:
    return {"url": address}


def roster(names: Sequence[str]) -> dict:
    return {"roster": list(names)}


def remove_game(number: int) -> dict:
    return {"remove_game": number}


def camera_corners(values: Sequence[float]) -> dict:
    return {"camera_corners": [float(v) for v in values]}


def corner_values(value: Any) -> tuple[float, ...] | None:
    """8 finite numbers (pixels, never a bool or a string) as a tuple, else None."""
    if not isinstance(value, list) or len(value) != 8:
        return None
    if not all(type(v) in (int, float) and -1e5 < v < 1e5 for v in value):  # (NaN fails the comparison)
        return None
    return tuple(float(v) for v in value)


def encode(message: dict) -> bytes:
    """One line on the key socket."""
    return json.dumps(message).encode("utf-8") + b"\n"


# --- the kiosk's side ------------------------------------------------------------------------

def decode(line: bytes) -> Message | None:
    """One line from the key socket as a message, or None for anything that is not exactly one of
    them (not UTF-8 JSON, nested too deep for the parser, an unknown or malformed message)."""
    try:
        # decoded first: json.loads(bytes) would also take UTF-16 and UTF-32
        message = json.loads(line.decode("utf-8"))
    except (ValueError, RecursionError):  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        return None
    if not isinstance(message, dict):
        return None
    if "keys" in message:
        typed = message["keys"]
        if not isinstance(typed, list) or len(typed) > MAX_KEYS_PER_LINE or not all(_keypad(k) for k in typed):
            return None
        return Keys(tuple(typed))
    if "url" in message:
        address = message["url"]
        if address is not None and (not isinstance(address, str) or len(address) > MAX_URL
                                    or not address.isprintable()):
            return None
        return Url(address)
    if "roster" in message:
        names = message["roster"]
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            return None
        return Roster(tuple(names))
    if "remove_game" in message:
        wanted = game_id(message["remove_game"])
        if wanted is None or len(message) != 1:
            return None
        return RemoveGame(wanted)
    if "camera_corners" in message:
        corners = corner_values(message["camera_corners"])
        if corners is None or len(message) != 1:
            return None
        return CameraCorners(corners)
    return None
