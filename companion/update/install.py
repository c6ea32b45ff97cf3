"""Install a bundle into the other slot: read once, written as read, switched only when all matched.

The steps, each leaving the card able to start (bootstate's module docstring):
1. the bundle is opened once; its signed manifest is read and checked (signature, board, age) and the
   new system's size against the other slot, before anything is written;
2. try.txt says `writing B`; from the same open file, B's kernel and initramfs are read and kept
   aside on the FAT (vmlinuz-B.new, initrd-B.img.new) and the system is inflated onto slot B, each
   part hashed as it is read: a part is believed only when every one of its bytes matched;
3. only when every part the manifest names was written and matched, and the archive ended: the boot
   files are renamed into place, try.txt says `try B 1 A`, then slot.txt says B: the next start is
   B's, once.
Nothing is read twice, so a file rewritten, cut, swapped or removed while it is installed fails a
hash or ends too soon (nothing is switched: try.txt goes back to `none`, the aside files go), and
an older bundle can never be written past the age check. A power cut before step 3 leaves slot.txt
on A: the card starts what it ran, and `check` says the update was cut off. The caller reboots
(`companion update install` does). Each slot's version and bundle hash go to slots.json (status).
"""

from __future__ import annotations

import hashlib
import io
import os
import tarfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Callable

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from companion.update.bootstate import TRIES, BootState, Try
from companion.update.box import Box, other
from companion.update.bundle import BOOT_FILES, BundleError, Manifest, Reading, fits, open_file
from companion.update.status import record_slot
from companion.update.tarstream import CHUNK

Report = Callable[[str, int], None]  # (state, percent)
INFLATE = 4 << 20
SYNC_EVERY = 64 << 20  # bytes written between fsyncs: the page cache never holds a whole system


class InstallError(BundleError):
    """The install stopped; the message is the one line to show, `code` why in a word."""


def _device_bytes(dev: Path) -> int:
    with open(dev, "rb") as f:
        return f.seek(0, os.SEEK_END)


def _write_system(pieces: Iterator[bytes], spec: dict, dev: Path, report: Report) -> None:
    """Inflate `pieces` onto `dev`; the inflated bytes' size and hash must be the manifest's."""
    raw = hashlib.sha256()
    inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
    total = spec["raw_size"]
    written = since_sync = percent = 0
    too_big = InstallError("the bundle's system is bigger than its manifest says: nothing was switched", "changed")
    fd = os.open(dev, os.O_WRONLY)
    try:
        for chunk in pieces:
            # at most INFLATE bytes at a time: a chunk of an ext4 image's zeros inflates a thousandfold
            data = inflate.decompress(chunk, INFLATE)
            while True:
                if written + len(data) > total:
                    raise too_big
                raw.update(data)
                os.write(fd, data)
                written += len(data)
                since_sync += len(data)
                if since_sync >= SYNC_EVERY:
                    os.fsync(fd)
                    since_sync = 0
                if 100 * written // max(total, 1) != percent:
                    percent = 100 * written // max(total, 1)
                    report("writing", percent)
                if not inflate.unconsumed_tail:
                    break
                data = inflate.decompress(inflate.unconsumed_tail, INFLATE)
        rest = inflate.flush()
        if written + len(rest) > total:
            raise too_big
        raw.update(rest)
        os.write(fd, rest)
        written += len(rest)
        os.fsync(fd)
    except zlib.error as exc:
        raise InstallError(f"the bundle's system does not inflate ({exc}): nothing was switched", "changed") from None
    finally:
        os.close(fd)
    if raw.hexdigest() != spec["raw_sha256"] or written != total:
        raise InstallError("the bundle's system is not what its manifest says: nothing was switched", "changed")


def _aside(fat: Path, slot: str) -> dict[str, tuple[Path, Path]]:
    """Each boot file's (aside, final) path on the FAT for `slot`."""
    names = {"vmlinuz": f"vmlinuz-{slot}", "initrd.img": f"initrd-{slot}.img"}
    return {name: (fat / f"{names[name]}.new", fat / names[name]) for name in BOOT_FILES}


def _write_boot(pieces: Iterator[bytes], fat: Path, slot: str) -> None:
    """The kernel and initramfs of boot.tar, kept aside on the FAT until the switch."""
    data = b"".join(pieces)  # boot.tar is bounded by the signed manifest (bundle.SIZE_MAX)
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as tar:
            for name, (aside, _final) in _aside(fat, slot).items():
                member = tar.extractfile(name)
                if member is None:
                    raise KeyError(name)
                with open(aside, "wb") as out:
                    while chunk := member.read(CHUNK):
                        out.write(chunk)
                    out.flush()
                    os.fsync(out.fileno())
    except (tarfile.TarError, KeyError):
        raise InstallError("the bundle's boot.tar lacks the kernel or the initramfs: a broken build; "
                           "nothing was switched", "bundle") from None


def _put_boot_in_place(fat: Path, slot: str) -> None:
    for aside, final in _aside(fat, slot).values():
        aside.replace(final)
    os.sync()


def _drop_aside(fat: Path, slot: str) -> None:
    for aside, _final in _aside(fat, slot).values():
        aside.unlink(missing_ok=True)


def install(bundle: str | Path, box: Box, key: Ed25519PublicKey, report: Report = lambda s, p: None,
            allow_downgrade: bool = False) -> Manifest:
    """Write `bundle` to `box`'s other slot and make the next start that slot's, once."""
    state = BootState(box.fat)
    if state.read_try().state == "try":
        raise InstallError("an update is being tried right now: wait until the box has started again", "busy")
    target = box.target()
    new = other(box.running)
    report("checking", 0)
    with open_file(bundle) as f:
        reading = Reading(f)
        manifest = fits(reading.read_manifest(key), box.board, box.built, allow_downgrade)
        if manifest.system_bytes > _device_bytes(target):
            raise InstallError(f"the new system ({manifest.system_bytes // 2**20} MiB) does not fit the card's second "
                               f"slot ({_device_bytes(target) // 2**20} MiB): write the image with Raspberry Pi Imager",
                               "nofit")
        box.remount(box.fat, "rw")
        try:
            state.write_try(Try("writing", new))
            report("writing", 0)
            try:
                for name, pieces in reading.parts():
                    if name == "boot.tar":
                        _write_boot(pieces, box.fat, new)
                    else:
                        _write_system(pieces, manifest.files[name], target, report)
                digest = reading.end()
            except BundleError:
                _drop_aside(box.fat, new)
                state.write_try(Try())  # nothing switched: the next start is an ordinary one
                raise
            _put_boot_in_place(box.fat, new)
            record_slot(new, version=manifest.version, built=manifest.built, bundle_sha256=digest, state="written")
            state.write_try(Try("try", new, TRIES, box.running))
            state.write_slot(new)
            report("restarting", 100)
        finally:
            box.remount(box.fat, "ro")
    return manifest
