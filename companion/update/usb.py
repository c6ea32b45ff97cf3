"""A USB stick with an update bundle at its root: offered on the OLED, where `#` installs it.

udev (90-companion-usb-update.rules) starts companion-usb-update@DEVICE.service (root) for a file system on a USB disk;
`companion update offer /dev/DEVICE` mounts it read-only under /run/companion-usb, looks for
`*.bundle` at its root, checks the newest one's signature, board and age (every byte is checked
again by the install), and writes offer.json in the update directory for the kiosk
(companion.kiosk.update_watch): the version, or the problem that keeps it from being installed.
When the stick goes, `--gone` takes the offer back and unmounts it. A stick without a bundle is
left alone (unmounted), so a stick holding anything else is never touched.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Callable

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from companion.update.bundle import BundleError, Manifest, fits, peek, shown

MOUNTS = Path("/run/companion-usb")
OFFER = "offer.json"
MAX_BUNDLES = 50  # judged on one stick: each costs a signature check
Mount = Callable[[Path, Path], None]


def _mount(device: Path, where: Path) -> None:
    where.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-o", "ro,nosuid,nodev,noexec", str(device), str(where)], check=True, capture_output=True)


def _umount(where: Path) -> None:
    subprocess.run(["umount", str(where)], check=False, capture_output=True)


def _write_offer(folder: Path, body: dict) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / (OFFER + ".tmp")
    tmp.write_text(json.dumps(body), encoding="utf-8")
    os.chmod(tmp, 0o644)
    tmp.replace(folder / OFFER)


def _judge(found: list[Path], key: Ed25519PublicKey, board: str,
           running_built: int | None) -> tuple[tuple[Manifest, Path] | None, str, bool]:
    """(the newest good bundle, the first problem, whether one holds what runs), each judged alone."""
    best: tuple[Manifest, Path] | None = None
    problem = ""
    current = False
    for path in found:
        try:
            manifest = fits(peek(path, key), board, running_built)
        except BundleError as exc:
            problem = problem or f"{shown(path.name)}: {exc}"
            continue
        if manifest.built == running_built:
            current = True  # what runs already: a stick left in after its update is not offered again
            continue
        if best is None or manifest.built > best[0].built:
            best = (manifest, path)
    return best, problem, current


def offer(device: Path, folder: Path, key: Ed25519PublicKey, board: str, running_built: int | None,
          mounts: Path = MOUNTS, mount: Mount = _mount, umount: Callable[[Path], None] = _umount) -> dict | None:
    """Offer the newest good bundle on the stick `device` (offer.json in `folder`); None when it has
    none. Each bundle is judged on its own: a bad one is a problem told, never a stop. The stick stays
    mounted only while an offer stands."""
    where = mounts / device.name
    mount(device, where)
    offered = False
    try:
        found = sorted((p for p in where.iterdir() if p.suffix.lower() == ".bundle" and p.is_file()),
                       key=lambda p: p.name)[:MAX_BUNDLES]
        best, problem, current = _judge(found, key, board, running_built)
        if best is None and (current or not problem):
            return None
        body = ({"version": best[0].version, "bundle": str(best[1]), "problem": "", "device": device.name} if best
                else {"version": "?", "bundle": str(found[0]), "problem": problem, "device": device.name})
        _write_offer(folder, body)
        offered = True
        return body
    finally:
        if not offered:
            umount(where)


def gone(device: Path, folder: Path, mounts: Path = MOUNTS, umount: Callable[[Path], None] = _umount) -> None:
    """The stick `device` is gone: its offer is taken back, its mount undone."""
    try:
        body = json.loads((folder / OFFER).read_text(encoding="utf-8"))
        if body.get("device") == device.name:
            (folder / OFFER).unlink()
    except (OSError, ValueError, AttributeError):
        pass
    umount(mounts / device.name)
