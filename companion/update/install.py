"""Install a bundle into the other slot: checked whole first, then written, then started once.

The steps, each leaving the card able to start (bootstate's module docstring):
1. the bundle is checked from start to end (signature, every byte) before anything is written;
2. try.txt says `writing B`; B's kernel and initramfs go to the FAT as vmlinuz-B and
   initrd-B.img (written aside, synced, then renamed); the system is inflated onto slot B, its
   SHA-256 checked while it is written (a bundle changed after step 1 stops here);
3. try.txt says `try B 1 A`, then slot.txt says B: the next start is B's, once.
A power cut before step 3 leaves slot.txt on A: the card starts what it ran, and `check` says
the update was cut off. The caller reboots (`companion update install` does).
"""

from __future__ import annotations

import hashlib
import io
import os
import tarfile
import zlib
from pathlib import Path
from typing import Callable

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from companion.update.bootstate import TRIES, BootState, Try
from companion.update.box import Box, other
from companion.update.bundle import BOOT_FILES, CHUNK, BundleError, Manifest, _open, check, hashed, members

Report = Callable[[str, int], None]  # (state, percent)
INFLATE = 4 << 20
SYNC_EVERY = 64 << 20  # bytes written between fsyncs: the page cache never holds a whole system


class InstallError(Exception):
    """The install stopped; the message is the one line to show."""


def _device_bytes(dev: Path) -> int:
    with open(dev, "rb") as f:
        return f.seek(0, os.SEEK_END)


def _write_system(f, spec: dict, dev: Path, report: Report) -> None:
    raw = hashlib.sha256()
    packed = hashlib.sha256()
    inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
    total = int(spec["raw_size"])
    written = since_sync = percent = 0
    fd = os.open(dev, os.O_WRONLY)
    try:
        for chunk in hashed(f, int(spec["size"])):
            packed.update(chunk)
            # at most INFLATE bytes at a time: a chunk of an ext4 image's zeros inflates a thousandfold
            data = inflate.decompress(chunk, INFLATE)
            while True:
                if written + len(data) > total:
                    raise InstallError("the bundle's system is bigger than its manifest says: nothing was switched")
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
            raise InstallError("the bundle's system is bigger than its manifest says: nothing was switched")
        raw.update(rest)
        os.write(fd, rest)
        written += len(rest)
        os.fsync(fd)
    except zlib.error as exc:
        raise InstallError(f"the bundle's system does not inflate ({exc}): nothing was switched") from None
    finally:
        os.close(fd)
    if packed.hexdigest() != spec["sha256"] or raw.hexdigest() != spec["raw_sha256"] or written != total:
        raise InstallError("the bundle changed while it was written: nothing was switched; copy it again")


def _write_boot(f, spec: dict, fat: Path, slot: str) -> None:
    data = b"".join(hashed(f, int(spec["size"])))
    if hashlib.sha256(data).hexdigest() != spec["sha256"]:
        raise InstallError("the bundle changed while it was written: nothing was switched; copy it again")
    names = {"vmlinuz": f"vmlinuz-{slot}", "initrd.img": f"initrd-{slot}.img"}
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as tar:
        for name in BOOT_FILES:
            member = tar.extractfile(name)
            assert member is not None
            aside = fat / f"{names[name]}.new"
            with open(aside, "wb") as out:
                while chunk := member.read(CHUNK):
                    out.write(chunk)
                out.flush()
                os.fsync(out.fileno())
            aside.replace(fat / names[name])
    os.sync()


def install(bundle: str | Path, box: Box, key: Ed25519PublicKey, report: Report = lambda s, p: None,
            allow_downgrade: bool = False) -> Manifest:
    """Write `bundle` to `box`'s other slot and make the next start that slot's, once."""
    state = BootState(box.fat)
    if state.read_try().state == "try":
        raise InstallError("an update is being tried right now: wait until the box has started again")
    target = box.target()
    new = other(box.running)
    manifest = check(bundle, key, box.board, box.built, allow_downgrade,
                     progress=lambda done, total: report("checking", 100 * done // max(total, 1)))
    if manifest.system_bytes > _device_bytes(target):
        raise InstallError(f"the new system ({manifest.system_bytes // 2**20} MiB) does not fit the card's "
                           f"second slot ({_device_bytes(target) // 2**20} MiB): write the image with Raspberry Pi Imager")
    box.remount(box.fat, "rw")
    try:
        state.write_try(Try("writing", new))
        report("writing", 0)
        with _open(Path(bundle)) as tar:
            for info, f in members(tar):
                if info.name == "system.img.gz":
                    _write_system(f, manifest.files[info.name], target, report)
                elif info.name == "boot.tar":
                    _write_boot(f, manifest.files[info.name], box.fat, new)
        state.write_try(Try("try", new, TRIES, box.running))
        state.write_slot(new)
        report("restarting", 100)
    except BundleError as exc:
        raise InstallError(f"the bundle changed while it was written ({exc}): nothing was switched") from None
    finally:
        box.remount(box.fat, "ro")
    return manifest
