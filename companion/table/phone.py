"""The "Phone view" screen: the table page's address, as text and as a QR code a phone scans.

The web service (a process of its own) tells the daemon its address in capitals, e.g.
"HTTP://192.168.1.23:8080", so the QR code holds only characters of the alphanumeric
mode and stays small (version 1 or 2 for an IP address and a port). The code is drawn
dark on a lit 64x64 square (phone readers such as zbar do not read inverted codes), at
2 pixels per module when it fits with a quiet zone, else 1, else not at all (the address
is still written on the left, in lower case for people to read and type).

Only the page's address belongs in the code: scheme and host are case-insensitive, and
the web service serves its page under "/", so the capitals change nothing it needs.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from companion.table import texts as T
from companion.table.screen import (PICTURE, PICTURE_COLS, PICTURE_QUIET, PICTURE_ROWS, PICTURE_SIZE,
                                    Screen, text_screen)

SCALES = (2, 1)  # pixels per module, the largest that fits first


if TYPE_CHECKING:
    import segno


def make_qr(url: str) -> "segno.QRCode | None":
    """The QR code of `url` in capitals: error level L, never a micro QR; None when too long."""
    import segno  # only when the Phone view shows: the kiosk's start-up does not pay for it

    try:
        return segno.make(url.upper(), error="l", micro=False, boost_error=False)
    except segno.DataOverflowError:
        return None


def qr_modules(url: str) -> list[list[bool]]:
    """The modules of `url`'s QR code without its border, row by row (True: dark); [] when too long."""
    qr = make_qr(url)
    if qr is None:
        return []
    return [[bool(m) for m in row] for row in qr.matrix_iter(border=0)]


def fitting_scale(modules: int) -> int | None:
    """Pixels per module for a code `modules` wide: 2 or 1, whichever fits the square with a
    quiet zone of PICTURE_QUIET pixels on every side; None when not even 1 does."""
    for scale in SCALES:
        if modules * scale + 2 * PICTURE_QUIET <= PICTURE_SIZE:
            return scale
    return None


def address_lines(url: str, cols: int = PICTURE_COLS) -> list[str]:
    """`url` in lower case, cut into lines of at most `cols` characters where a reader expects it:
    after "://", before ":port" and "/path", then at dots; a piece longer than a line is cut."""
    text = url.lower()
    scheme, sep, rest = text.partition("://")
    pieces = [scheme + sep] if sep else []
    if not sep:
        rest = text
    piece = ""
    for ch in rest:  # host, ":port", "/path..." as separate pieces
        if ch in ":/" and piece and not piece.endswith(("/", ":")):
            pieces.append(piece)
            piece = ""
        piece += ch
    if piece:
        pieces.append(piece)
    words: list[str] = []
    for piece in pieces:
        while len(piece) > cols:
            dot = piece.rfind(".", 0, cols)  # keep the dot at the end of the line
            cut = dot + 1 if dot > 0 else cols
            words.append(piece[:cut])
            piece = piece[cut:]
        if piece:
            words.append(piece)
    lines: list[str] = []
    for word in words:
        if lines and len(lines[-1]) + len(word) <= cols:
            lines[-1] += word
        else:
            lines.append(word)
    return lines


def phone_screen(url: str | None) -> Screen:
    """The screen of the "Phone view" item: the address and its QR code, or, without an
    address (no web service), a text saying how to turn it on."""
    if not url:
        return text_screen("phone-off", T.PHONE_VIEW, [T.PHONE_OFF, T.PHONE_HOW])
    picture, scale = _picture(url)
    return Screen(PICTURE, "phone", T.PHONE_VIEW, tuple(address_lines(url)[:PICTURE_ROWS]), picture=picture,
                  picture_scale=scale, alt=url.lower())


@lru_cache(maxsize=4)
def _picture(url: str) -> tuple[tuple[str, ...] | None, int]:
    """The code as the screen's picture rows ("1" dark) and its scale; (None, 1) when none fits.
    Kept for the few last addresses: the shell builds the screen at every frame."""
    modules = qr_modules(url)
    scale = fitting_scale(len(modules)) if modules else None
    if scale is None:
        return None, 1
    return tuple("".join("1" if m else "0" for m in row) for row in modules), scale
