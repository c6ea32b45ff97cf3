"""The bundle's tar read as one stream from one open file: ustar headers and their data, bounded.

A bundle is a plain ustar archive of regular files (tools/image/bundle.py writes it with Python's
tarfile, USTAR_FORMAT; GNU tar reads and writes the same headers). Python's tarfile would also
follow pax and GNU long-name headers, whose sizes a hostile file sets (a pax header "of 1 GB" is
read into memory whole); this reader knows only what a bundle holds: 512-byte ustar headers of
regular files, their data, and the end of the archive. Every byte read passes through one SHA-256,
so the bundle's hash is known when the end is reached, from the very bytes that were believed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

BLOCK = 512
RECORD = 20 * BLOCK  # tar pads an archive to a whole record: at most this many zeros follow its end
CHUNK = 1 << 20
NAME_MAX = 100


class TarError(Exception):
    """The stream is not the plain ustar archive a bundle is; the message says how, in a few words."""


class Cut(TarError):
    """The stream ended inside a header or a member's data."""


@dataclass(frozen=True)
class Member:
    name: str
    size: int
    offset: int  # of its data, from the start of the file


def _octal(field: bytes) -> int:
    text = field.split(b"\0", 1)[0].strip(b" ")
    if not text or any(c not in b"01234567" for c in text):
        raise TarError("a header's number is not octal")
    return int(text, 8)


def parse_header(block: bytes) -> tuple[str, int]:
    """(name, size) of a ustar header block of a regular file; TarError for anything else."""
    stored = _octal(block[148:156])
    if stored != sum(block[:148]) + 8 * 0x20 + sum(block[156:]):
        raise TarError("a header's checksum is wrong")
    if block[257:263] not in (b"ustar\x00", b"ustar "):
        raise TarError("a header is not ustar")
    if block[156:157] not in (b"0", b"\x00"):
        raise TarError("it holds something other than a plain file")
    if block[345:346] != b"\x00":  # a ustar prefix: a path longer than a bundle's names
        raise TarError("a member's name is too long")
    raw = block[:NAME_MAX].split(b"\0", 1)[0]
    try:
        name = raw.decode("ascii")
    except UnicodeDecodeError:
        raise TarError("a member's name is not plain ASCII") from None
    if not name or not name.isprintable():
        raise TarError("a member has no printable name")
    return name, _octal(block[124:136])


class TarStream:
    """Members of the ustar archive in `f`, in order, read once; `digest` has seen every byte read.

    `progress(offset)` is called after each piece read (the bytes from the file's start)."""

    def __init__(self, f: BinaryIO, progress: Callable[[int], None] | None = None) -> None:
        self.f = f
        self.offset = 0
        self.digest = hashlib.sha256()
        self.progress = progress
        self._owed = 0  # padding after the last member's data, not yet read

    def _read(self, n: int) -> bytes:
        data = self.f.read(n)
        self._take(data)
        if len(data) != n:  # a short read from a regular file is its end: cut (or cut while read)
            raise Cut("it ends too soon")
        return data

    def _take(self, data: bytes) -> None:
        self.digest.update(data)
        self.offset += len(data)
        if self.progress:
            self.progress(self.offset)

    def next(self) -> Member | None:
        """The next member's header, or None at the archive's end (after checking that only zeros follow)."""
        if self._owed:
            self._read(self._owed)
            self._owed = 0
        block = self._read(BLOCK)
        if block == bytes(BLOCK):
            self._end()
            return None
        name, size = parse_header(block)
        return Member(name, size, self.offset)

    def data(self, member: Member, chunk: int = CHUNK) -> Iterator[bytes]:
        """`member`'s data in pieces of at most `chunk` bytes (the header must be the last thing read)."""
        if self.offset != member.offset:
            raise TarError("members must be read in order")
        left = member.size
        while left:
            piece = self._read(min(chunk, left))
            left -= len(piece)
            yield piece
        self._owed = -member.size % BLOCK

    def _end(self) -> None:
        """After the first zero block: the rest of the file is zeros, at most a record's padding."""
        rest = self.f.read(RECORD + 1)
        self._take(rest)
        if len(rest) > RECORD or rest.count(0) != len(rest):
            raise TarError("something follows the archive's end")

    def hexdigest(self) -> str:
        return self.digest.hexdigest()
