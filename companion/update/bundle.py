"""The update bundle: what it holds, and whether a box may trust it.

A bundle is one uncompressed ustar file written by tools/image/bundle.py, members in this order:

- `manifest.json`: the product, the board, the version, the build time, and each payload
  member's size and SHA-256 (the system's also its size and SHA-256 once inflated);
- `manifest.sig`: the ed25519 signature of manifest.json's bytes (64 bytes);
- `boot.tar`: the slot's kernel and initramfs (`vmlinuz`, `initrd.img`);
- `system.img.gz`: the slot's ext4 file system, gzip-compressed.

What is trusted, and when (docs/box.md, "What an update trusts"): a bundle is read once, from one
open file, start to end (`Reading`). The signature is checked over the manifest's raw bytes before
a byte of it is parsed; only a signed manifest is parsed, and every field is bounded; then each
payload member's bytes are hashed as they are read (and, by `install`, written), and believed only
when the whole member matched. Nothing is read twice, so a file changed, cut or swapped while it is
read can only fail a hash, never be half-believed. Every refusal is a `BundleError` whose message
is one printable line that says what is wrong and what to do, and whose `code` says why in a word
(companion.update.status.REASONS).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from companion.update.tarstream import Cut, Member, TarError, TarStream
from companion.util.safe_text import printable

PRODUCT = "clans-companion"
BOARD = "rpi-arm64"  # the image's boards: Raspberry Pi 3, 4, Zero 2 W, 64-bit
FORMAT = 1
PAYLOAD = ("boot.tar", "system.img.gz")  # in this order
BOOT_FILES = ("vmlinuz", "initrd.img")
MANIFEST_MAX = 16 * 1024
SIGNATURE_BYTES = 64
KEY_MAX = 16 * 1024
# Bounds of a signed manifest's fields: a build time between 2000 and 2100; a version, a board and a
# key id of a few printable characters; each part's size as big as a card's slot can hold.
BUILT_MIN, BUILT_MAX = 946_684_800, 4_102_444_800
VERSION = re.compile(r"[0-9A-Za-z][0-9A-Za-z.+~_-]{0,47}")
BOARD_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")
HEX16 = re.compile(r"[0-9a-f]{16}")
HEX64 = re.compile(r"[0-9a-f]{64}")
SIZE_MAX = {"boot.tar": 256 << 20, "system.img.gz": 8 << 30, "raw": 16 << 30}
Progress = Callable[[int, int], None]  # (bytes done, bytes in all)


class BundleError(Exception):
    """A bundle this box must not install; the message is the one line to show, `code` the reason
    in a word (what the page and the OLED translate)."""

    def __init__(self, message: str, code: str = "bundle") -> None:
        super().__init__(message)
        self.code = code


def shown(path: str | Path) -> str:
    """A file's name for a message: what a terminal cannot print (a newline, an escape) as its code."""
    return printable(os.fsdecode(path)) or "''"


@dataclass(frozen=True)
class Manifest:
    version: str
    built: int  # Unix seconds: the order of versions
    board: str
    key_id: str
    files: dict[str, dict]

    @property
    def system_bytes(self) -> int:
        return self.files["system.img.gz"]["raw_size"]

    def day(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M", time.gmtime(self.built))


def key_id(key: Ed25519PublicKey) -> str:
    """A short name for a public key: the first 16 hex digits of its raw bytes' SHA-256."""
    raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:16]


def open_file(path: str | Path, what: str = "it") -> BinaryIO:
    """`path` opened for reading when it is a regular file (a FIFO, a device or a folder is refused at
    once, never waited on); BundleError otherwise."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except (OSError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise BundleError(f"{what} cannot be read: {why}", "unreadable") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a folder" if stat.S_ISDIR(mode) else "a pipe" if stat.S_ISFIFO(mode) else "a device or socket"
            raise BundleError(f"{what} is {kind}, not a file", "unreadable")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def load_key(path: str | Path) -> Ed25519PublicKey:
    """The ed25519 public key in a PEM file (`openssl pkey -pubout` writes one)."""
    name = shown(path)
    with open_file(path, f"the trusted key {name}") as f:
        data = f.read(KEY_MAX + 1)
    if len(data) > KEY_MAX:
        raise BundleError(f"the trusted key {name} is not a key (it is over {KEY_MAX // 1024} KiB)", "nokey")
    try:
        key = serialization.load_pem_public_key(data)
    except (ValueError, TypeError):
        raise BundleError(f"the trusted key {name} is not a public key in PEM", "nokey") from None
    if not isinstance(key, Ed25519PublicKey):
        raise BundleError(f"the trusted key {name} is not an ed25519 public key", "nokey")
    return key


def _no_constant(name: str) -> None:
    raise ValueError(name)


def _int(value: object, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise ValueError("a number out of bounds")
    return value


def _text(value: object, pattern: re.Pattern[str]) -> str:
    if not isinstance(value, str) or not pattern.fullmatch(value):
        raise ValueError("a text out of bounds")
    return value


def parse_manifest(data: bytes) -> Manifest:
    """A signed manifest's fields, each within its bounds; BundleError for anything else."""
    try:
        raw = json.loads(data.decode("utf-8"), parse_float=_no_constant, parse_constant=_no_constant)
        if not isinstance(raw, dict) or raw.get("format") != FORMAT or raw.get("product") != PRODUCT:
            raise ValueError("format")
        files = raw["files"]
        if not isinstance(files, dict) or sorted(files) != sorted(PAYLOAD):
            raise ValueError("files")
        parts = {}
        for name in PAYLOAD:
            spec = files[name]
            if not isinstance(spec, dict):
                raise ValueError("file")
            parts[name] = {"size": _int(spec["size"], 1, SIZE_MAX[name]), "sha256": _text(spec["sha256"], HEX64)}
        system = files["system.img.gz"]
        parts["system.img.gz"].update(raw_size=_int(system["raw_size"], 1, SIZE_MAX["raw"]),
                                      raw_sha256=_text(system["raw_sha256"], HEX64))
        return Manifest(_text(raw["version"], VERSION), _int(raw["built"], BUILT_MIN, BUILT_MAX),
                        _text(raw["board"], BOARD_NAME), _text(raw.get("key_id", "0" * 16), HEX16), parts)
    except (ValueError, KeyError, TypeError, RecursionError, UnicodeDecodeError):
        raise BundleError("its manifest is signed but not one this companion reads: a bundle for a newer "
                          "companion, or a broken build", "manifest") from None


def _named_key(head: bytes) -> str | None:
    """The key id an unsigned manifest names, found without parsing it (16 hex digits, or None)."""
    found = re.search(rb'"key_id"\s*:\s*"([0-9a-f]{16})"', head)
    return found.group(1).decode("ascii") if found else None


def fits(manifest: Manifest, board: str, running_built: int | None, allow_downgrade: bool = False) -> Manifest:
    """`manifest` when its bundle is for `board` and not older than `running_built`; else BundleError."""
    if manifest.board != board:
        raise BundleError(f"it is for another board ({manifest.board}); this box is {board}: refused", "board")
    if running_built is not None and manifest.built < running_built and not allow_downgrade:
        raise BundleError(f"it is version {manifest.version}, older than what this box runs: refused "
                          "(--allow-downgrade installs it anyway)", "older")
    return manifest


_CUT = "it is cut short: copy or download the bundle again"


class Reading:
    """One pass over one open bundle: `manifest` (signed, checked), then `parts` (each payload member's
    bytes, hashed as they go), then `end`. `progress(done, total)` follows the bytes read."""

    def __init__(self, f: BinaryIO, progress: Progress | None = None) -> None:
        total = os.fstat(f.fileno()).st_size
        if total == 0:
            raise BundleError("it is empty (0 bytes): copy the bundle again", "short")
        tick = (lambda done: progress(done, max(total, done))) if progress else None
        self.stream = TarStream(f, tick)
        self.manifest: Manifest | None = None

    def _next(self) -> Member | None:
        try:
            return self.stream.next()
        except Cut:
            raise BundleError(_CUT, "short") from None
        except TarError as exc:
            raise BundleError(f"it is not an update bundle ({exc})", "bundle") from None

    def _small(self, want: str, limit: int) -> bytes:
        member = self._next()
        if member is None:
            raise BundleError("it is cut short before its signature: copy or download the bundle again", "short")
        if member.name != want or member.size > limit:
            raise BundleError("it does not start with a signed manifest: not an update bundle", "bundle")
        return b"".join(self._pieces(member))

    def _pieces(self, member: Member) -> Iterator[bytes]:
        try:
            yield from self.stream.data(member)
        except Cut:
            raise BundleError(_CUT, "short") from None

    def read_manifest(self, key: Ed25519PublicKey) -> Manifest:
        """The manifest, its signature checked over its raw bytes before a byte of it is parsed."""
        head = self._small("manifest.json", MANIFEST_MAX)
        signature = self._small("manifest.sig", SIGNATURE_BYTES)
        try:
            key.verify(signature, head)
        except InvalidSignature:
            trusted, named = key_id(key), _named_key(head)
            if named is not None and named != trusted:
                raise BundleError(f"it is signed by another key ({named}), not the one this box trusts "
                                  f"({trusted}): refused", "key") from None
            raise BundleError("its manifest was changed after it was signed, or it was signed by another key: "
                              "refused", "key") from None
        self.manifest = parse_manifest(head)
        return self.manifest

    def parts(self) -> Iterator[tuple[str, Iterator[bytes]]]:
        """Each payload member in the manifest's order as (name, its pieces). A member is whole and
        as signed only once its pieces were all taken: the last piece's step checks the hash."""
        assert self.manifest is not None, "read_manifest first"
        for name in PAYLOAD:
            member = self._next()
            if member is None:
                raise BundleError("it is cut short (a part is missing): copy or download the bundle again", "short")
            if member.name != name:
                raise BundleError(f"it holds {shown(member.name)} where its manifest names {name}: refused", "bundle")
            spec = self.manifest.files[name]
            if member.size != spec["size"]:
                raise BundleError(f"its {name} was changed after it was signed: refused", "changed")
            yield name, self._verified(member, spec["sha256"])

    def _verified(self, member: Member, sha256: str) -> Iterator[bytes]:
        digest = hashlib.sha256()
        for piece in self._pieces(member):
            digest.update(piece)
            yield piece
        if digest.hexdigest() != sha256:
            raise BundleError(f"its {member.name} was changed after it was signed (or while it was read): "
                              "refused", "changed")

    def end(self) -> str:
        """After the parts: nothing but the archive's end follows; the SHA-256 of every byte read."""
        if self._next() is not None:
            raise BundleError("it holds more than its manifest names: refused", "bundle")
        return self.stream.hexdigest()


def check(path: str | Path, key: Ed25519PublicKey, board: str = BOARD, running_built: int | None = None,
          allow_downgrade: bool = False, progress: Progress | None = None) -> Manifest:
    """The manifest of the bundle at `path` when it is whole, signed by `key`, for `board`, and
    not older than `running_built` (unless `allow_downgrade`); else BundleError."""
    with open_file(path) as f:
        reading = Reading(f, progress)
        manifest = fits(reading.read_manifest(key), board, running_built, allow_downgrade)
        for _name, pieces in reading.parts():
            for _piece in pieces:
                pass
        reading.end()
    return manifest


def peek(path: str | Path, key: Ed25519PublicKey) -> Manifest:
    """The signed manifest at the bundle's start, its signature checked (not yet its payload: `check`
    reads every byte). What the page shows as offered the moment an upload ends."""
    with open_file(path) as f:
        return Reading(f).read_manifest(key)
