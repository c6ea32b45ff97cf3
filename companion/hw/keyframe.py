"""The serial keypad's framed protocol: one checked frame per key press, so noise never plays a key.

A frame is six ASCII bytes (firmware/serial-keypad/keyframe.h writes them):

    K  <key>  <seq>  <crc hi>  <crc lo>  LF        e.g. b"K#3F2\\n"

`key` is one of the keypad's 16 keys (0-9 * # A-D, upper case), `seq` a hex digit 0-F
counting the presses (it wraps), and the check is CRC-8 (polynomial 0x07, init 0, the
SMBus CRC) of the first three bytes, as two upper-case hex digits. Shared test vectors:
firmware/serial-keypad/frames.txt.

How often random bytes pass: at a given offset a frame needs 'K' (1 in 256), a key (16 in
256), a hex digit (16 in 256), the two exact check digits (1 in 65,536) and LF (1 in 256):
2**-40. At 9600 baud (960 bytes a second, the line's full rate) that is once in about
36 years of unbroken noise (3 years at 115200), and a confirmation takes two such frames in
a row. `FrameDecoder` takes only whole, checked frames and counts every other byte as noise.
"""

from __future__ import annotations

from companion.hw.settings import KEYPAD_PROTOCOLS
from companion.table.keys import KEYPAD

FRAME_LEN = 6
START = ord("K")
END = ord("\n")
HEX = b"0123456789ABCDEF"
_KEY_BYTES = frozenset(KEYPAD.encode())
_HEX_BYTES = frozenset(HEX)
FALSE_FRAME_ODDS = 2 ** 40  # one offset in this many starts a valid frame by chance
FRAMED, LEGACY = KEYPAD_PROTOCOLS


def years_per_false_key(baudrate: int) -> float:
    """How many years of unbroken random noise at `baudrate` (8N1: ten bits a byte) form one valid frame,
    on average."""
    return FALSE_FRAME_ODDS / (baudrate / 10) / (365.25 * 24 * 3600)


def crc8(data: bytes) -> int:
    """CRC-8 with polynomial 0x07, initial value 0, no reflection (crc8(b"123456789") == 0xF4)."""
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc


def encode(key: str, seq: int) -> bytes:
    """The frame for `key` (one of the keypad's 16) as press number `seq` (taken modulo 16)."""
    if len(key) != 1 or key not in KEYPAD:
        raise ValueError(f"{key!r} is not a keypad key")
    head = b"K" + key.encode() + HEX[seq % 16:seq % 16 + 1]
    check = crc8(head)
    return head + HEX[check >> 4:(check >> 4) + 1] + HEX[check & 15:(check & 15) + 1] + b"\n"


def decode(frame: bytes) -> tuple[str, int] | None:
    """(key, seq) of one whole frame, None when any byte or the check is wrong."""
    if len(frame) != FRAME_LEN or frame[0] != START or frame[5] != END:
        return None
    if frame[1] not in _KEY_BYTES or frame[2] not in _HEX_BYTES:
        return None
    check = crc8(frame[:3])
    if frame[3] != HEX[check >> 4] or frame[4] != HEX[check & 15]:
        return None
    return chr(frame[1]), HEX.index(frame[2])


class FrameDecoder:
    """Bytes in, keys of whole checked frames out; every other byte counts in `noise`.

    A frame cut by the end of a read waits (at most five bytes) for the next; after a bad
    frame the search starts again one byte later, so a good frame right after noise is kept.
    `lost` counts presses the sequence numbers say went missing (a frame noise destroyed).
    """

    def __init__(self) -> None:
        self._pending = bytearray()
        self.noise = 0
        self.frames = 0
        self.lost = 0
        self._seq: int | None = None

    def restart(self) -> None:
        """A new connection: a frame cut by the old one is dropped, the count of presses starts afresh
        (a Nano resets when its port is opened)."""
        self._pending.clear()
        self._seq = None

    def feed(self, data: bytes | bytearray) -> list[str]:
        """The keys of the frames completed by `data`, in order."""
        buf = self._pending
        buf += data
        keys: list[str] = []
        i, n = 0, len(buf)
        while i < n:
            j = buf.find(b"K", i)
            if j < 0:
                self.noise += n - i
                i = n
                break
            self.noise += j - i
            if n - j < FRAME_LEN:
                i = j
                break
            got = decode(bytes(buf[j:j + FRAME_LEN]))
            if got is None:
                self.noise += 1
                i = j + 1
                continue
            key, seq = got
            if self._seq is not None:
                self.lost += (seq - self._seq - 1) % 16
            self._seq = seq
            self.frames += 1
            keys.append(key)
            i = j + FRAME_LEN
        del buf[:i]
        return keys
