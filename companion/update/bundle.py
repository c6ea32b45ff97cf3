"""The update bundle: what it holds, and whether a box may trust it.

A bundle is one uncompressed tar file written by tools/image/bundle.py, members in this order:

- `manifest.json`: the product, the board, the version, the build time, and each payload
  member's size and SHA-256 (the system's also its size and SHA-256 once inflated);
- `manifest.sig`: the ed25519 signature of manifest.json's bytes (64 bytes);
- `boot.tar`: the slot's kernel and initramfs (`vmlinuz`, `initrd.img`);
- `system.img.gz`: the slot's ext4 file system, gzip-compressed.

`check` reads it once from start to end: the signature first (by the trusted key, before a
payload byte is believed), then every payload member against the manifest. Every refusal is
a `BundleError` whose message is one line that says what is wrong and what to do.
"""

from __future__ import annotations

import hashlib
import json
import tarfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

PRODUCT = "clans-companion"
BOARD = "rpi-arm64"  # the image's boards: Raspberry Pi 3, 4, Zero 2 W, 64-bit
FORMAT = 1
PAYLOAD = ("boot.tar", "system.img.gz")
BOOT_FILES = ("vmlinuz", "initrd.img")
MANIFEST_MAX = 64 * 1024
CHUNK = 1 << 20
TEST_KEY = Path(__file__).with_name("test-update-key.pub.pem")
Progress = Callable[[int, int], None]  # (bytes done, bytes in all)


class BundleError(Exception):
    """A bundle this box must not install; the message is the one line to show."""


@dataclass(frozen=True)
class Manifest:
    version: str
    built: int  # Unix seconds: the order of versions
    board: str
    key_id: str
    files: dict[str, dict]

    @property
    def system_bytes(self) -> int:
        return int(self.files["system.img.gz"]["raw_size"])

    def day(self) -> str:
        import time

        return time.strftime("%Y-%m-%d %H:%M", time.gmtime(self.built))


def key_id(key: Ed25519PublicKey) -> str:
    """A short name for a public key: the first 16 hex digits of its raw bytes' SHA-256."""
    raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:16]


def load_key(path: str | Path) -> Ed25519PublicKey:
    """The ed25519 public key in a PEM file (`openssl pkey -pubout` writes one)."""
    try:
        key = serialization.load_pem_public_key(Path(path).read_bytes())
    except (OSError, ValueError) as exc:
        raise BundleError(f"the trusted key {path} cannot be read: {exc}") from None
    if not isinstance(key, Ed25519PublicKey):
        raise BundleError(f"the trusted key {path} is not an ed25519 public key")
    return key


def _manifest(data: bytes) -> Manifest:
    try:
        raw = json.loads(data)
        files = raw["files"]
        if raw["format"] != FORMAT or raw["product"] != PRODUCT or sorted(files) != sorted(PAYLOAD):
            raise ValueError("format")
        for name in PAYLOAD:
            int(files[name]["size"]), str(files[name]["sha256"])
        int(files["system.img.gz"]["raw_size"]), str(files["system.img.gz"]["raw_sha256"])
        return Manifest(str(raw["version"])[:64], int(raw["built"]), str(raw["board"])[:32],
                        str(raw.get("key_id", "?"))[:16], files)
    except (ValueError, KeyError, TypeError, AttributeError):
        raise BundleError("its manifest is not one this companion reads: not an update bundle, or one "
                          "for a newer companion") from None


def _open(path: Path) -> tarfile.TarFile:
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise BundleError(f"cannot read it: {exc.strerror or exc}") from None
    if size == 0:
        raise BundleError("it is empty (0 bytes): copy the bundle again")
    try:
        return tarfile.open(path, mode="r|")
    except tarfile.TarError:
        raise BundleError("it is not an update bundle (not a tar file)") from None


def members(tar: tarfile.TarFile) -> Iterator[tuple[tarfile.TarInfo, IO[bytes]]]:
    """The tar's regular members in order with their data; a cut file is a BundleError."""
    try:
        for info in tar:
            if not info.isfile():
                raise BundleError(f"it holds {info.name!r}, which is not a file: not an update bundle")
            f = tar.extractfile(info)
            assert f is not None
            yield info, f
    except (tarfile.TarError, EOFError, OSError) as exc:
        raise BundleError(f"it is cut short ({exc}): copy or download the bundle again") from None


def _read_head(it: Iterator[tuple[tarfile.TarInfo, IO[bytes]]], key: Ed25519PublicKey) -> Manifest:
    head = []
    for want in ("manifest.json", "manifest.sig"):
        try:
            info, f = next(it)
        except StopIteration:
            raise BundleError("it is cut short before its signature: copy or download the bundle again") from None
        if info.name != want or info.size > MANIFEST_MAX:
            raise BundleError("it does not start with a signed manifest: not an update bundle")
        head.append(b"".join(hashed(f, info.size)))
    manifest = _manifest(head[0])
    try:
        key.verify(head[1], head[0])
    except InvalidSignature:
        trusted = key_id(key)
        if manifest.key_id != trusted:
            raise BundleError(f"it is signed by another key ({manifest.key_id}), not the one this box trusts "
                              f"({trusted}): refused") from None
        raise BundleError("its manifest was changed after it was signed: refused") from None
    return manifest


def hashed(f: IO[bytes], size: int, progress: Callable[[int], None] | None = None) -> Iterator[bytes]:
    """`f`'s data in chunks, each passed on as read (progress: the bytes of this member so far)."""
    done = 0
    while True:
        try:
            chunk = f.read(CHUNK)
        except (tarfile.TarError, EOFError, OSError):
            raise BundleError("it is cut short: copy or download the bundle again") from None
        if not chunk:
            break
        done += len(chunk)
        if progress:
            progress(done)
        yield chunk
    if done != size:
        raise BundleError("it is cut short: copy or download the bundle again")


def fits(manifest: Manifest, board: str, running_built: int | None, allow_downgrade: bool = False) -> Manifest:
    """`manifest` when its bundle is for `board` and not older than `running_built`; else BundleError."""
    if manifest.board != board:
        raise BundleError(f"it is for another board ({manifest.board}); this box is {board}: refused")
    if running_built is not None and manifest.built < running_built and not allow_downgrade:
        raise BundleError(f"it is version {manifest.version}, older than what this box runs: refused "
                          "(--allow-downgrade installs it anyway)")
    return manifest


def check(path: str | Path, key: Ed25519PublicKey, board: str = BOARD, running_built: int | None = None,
          allow_downgrade: bool = False, progress: Progress | None = None) -> Manifest:
    """The manifest of the bundle at `path` when it is whole, signed by `key`, for `board`, and
    not older than `running_built` (unless `allow_downgrade`); else BundleError."""
    path = Path(path)
    total = path.stat().st_size if path.exists() else 0
    with _open(path) as tar:
        it = members(tar)
        manifest = fits(_read_head(it, key), board, running_built, allow_downgrade)
        seen = []
        for info, f in it:
            spec = manifest.files.get(info.name)
            if spec is None or info.name in seen or len(seen) >= len(PAYLOAD):
                raise BundleError(f"it holds {info.name!r}, which its manifest does not name: refused")
            seen.append(info.name)
            digest = hashlib.sha256()
            base = info.offset_data
            tick = (lambda n, b=base: progress(b + n, total)) if progress else None
            for chunk in hashed(f, info.size, tick):
                digest.update(chunk)
            if info.size != int(spec["size"]) or digest.hexdigest() != spec["sha256"]:
                raise BundleError(f"its {info.name} was changed after it was signed: refused")
        if sorted(seen) != sorted(PAYLOAD):
            raise BundleError("it is cut short (a part is missing): copy or download the bundle again")
    return manifest


def peek(path: str | Path, key: Ed25519PublicKey) -> Manifest:
    """The signed manifest at the bundle's start, its signature checked (not yet its payload: `check`
    reads every byte). What the page shows as offered the moment an upload ends."""
    with _open(Path(path)) as tar:
        return _read_head(members(tar), key)
