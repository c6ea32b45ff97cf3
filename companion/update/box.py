"""The card this box runs from: its FAT, which slot runs, where the other slot is.

The card's partitions (tools/image/build.sh): 1 the FAT, 2 system slot a, 3 data, 4 system slot
b (made by the first start, at the end of the card: companion-grow-data). The running slot is the
partition `/` is on (2 or 4), whatever any file says. A card written before updates existed has
no partition 4: it cannot take updates (NoSlot says what to do).
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from companion.update.bundle import BOARD, BundleError, load_key

PARTITION = {"a": 2, "b": 4}
FAT = Path("/boot/firmware")
IMAGE_VERSION = Path("/usr/share/companion-box/image-version")
TRUSTED_KEY = Path("/usr/share/companion-box/update-key.pem")


class NoSlot(Exception):
    """This card cannot take an update; the message says why and what to do."""


def other(slot: str) -> str:
    return "b" if slot == "a" else "a"


def trusted_key() -> Path | None:
    """The public key bundles must be signed with: the one the image was built with (build.sh puts
    it there); None where there is none (off the image). No key is ever trusted by default."""
    return TRUSTED_KEY if TRUSTED_KEY.exists() else None


def load_trusted(given: Path | None = None, off_image: bool = False) -> Ed25519PublicKey:
    """The key `given`, else the box's own; BundleError ("nokey") when there is none: a box or a
    computer that trusts no key of its own refuses every bundle."""
    path = given or trusted_key()
    if path is None:
        raise BundleError("this computer trusts no update key: give the box's public key with --key "
                          "(clans-companion.update-key.pem, written beside the image)" if off_image else
                          "this box trusts no update key (its image was built without one): write a new image "
                          "with Raspberry Pi Imager", "nokey")
    return load_key(path)


def image_values(path: Path = IMAGE_VERSION) -> dict[str, str]:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")[:4096]
    except OSError:
        return {}
    return {k.strip(): v.strip() for k, _, v in (line.partition("=") for line in text.splitlines()) if _}


def running_build(path: Path = IMAGE_VERSION) -> tuple[str, int | None]:
    """(the board, the build time) of the image that runs: what a bundle must fit; (BOARD, None) off
    the image (then no bundle is older)."""
    values = image_values(path)
    built = values.get("IMAGE_BUILT", "")
    return values.get("IMAGE_BOARD", BOARD), int(built) if built.isdigit() else None


def _remount(fat: Path, mode: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{mode}", str(fat)], check=True, capture_output=True)


@dataclass
class Box:
    fat: Path
    running: str
    devices: dict[str, Path]
    version: str = "unknown"
    built: int | None = None
    board: str = BOARD
    remount: Callable[[Path, str], None] = field(default=lambda fat, mode: None)

    def target(self) -> Path:
        """The other slot's block device (or file, in tests); NoSlot when the card has none."""
        dev = self.devices.get(other(self.running))
        if dev is None:
            raise NoSlot("this card has no second system slot (it was written before updates, or it is "
                         "smaller than 4 GB): save the games from the page (History, Export), then write "
                         "the new image to the card with Raspberry Pi Imager")
        return dev


def _block(dev: int) -> Path:
    return Path(f"/sys/dev/block/{os.major(dev)}:{os.minor(dev)}")


def detect(fat: Path = FAT) -> Box:
    """The box this runs on; NoSlot when it is not the image (no FAT, / not on slot a or b)."""
    sysdir = _block(os.stat("/").st_dev)
    try:
        number = int((sysdir / "partition").read_text())
    except (OSError, ValueError):
        raise NoSlot("this is not the companion's SD-card image (/ is not on a partition of a card): "
                     "updates are for the image; update a pip install with pip") from None
    running = next((s for s, n in PARTITION.items() if n == number), None)
    if running is None or not (fat / "slot.txt").exists():
        raise NoSlot("this card's system is not in slot a or b (it was written before updates): write the "
                     "new image to the card with Raspberry Pi Imager, or with tools/image/update-card.sh")
    disk = sysdir.resolve().parent
    devices = {}
    for part in disk.iterdir():
        try:
            n = int((part / "partition").read_text())
        except (OSError, ValueError):
            continue
        for slot, want in PARTITION.items():
            if n == want:
                devices[slot] = Path("/dev") / part.name
    board, built = running_build()
    return Box(fat, running, devices, image_values().get("IMAGE_VERSION", "unknown"), built, board, _remount)
