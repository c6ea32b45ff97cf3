"""tools/image/update-card.sh: a new image's partitions 1 and 2 go onto a card, its data partition
stays byte for byte; a card laid out differently is refused untouched. Small synthetic images
with the image's partition table shape (sfdisk), no root needed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UPDATE = ROOT / "tools" / "image" / "update-card.sh"
MIB = 1 << 20

pytestmark = pytest.mark.skipif(shutil.which("sfdisk") is None or shutil.which("xz") is None,
                                reason="sfdisk or xz missing: apt-get install fdisk xz-utils")


def disk(path: Path, size_mib: int, parts: list[tuple[int, int | None]], fill: bytes) -> Path:
    """A disk image with dos partitions (start MiB, size MiB or None: to the end), each filled
    with `fill` followed by its number."""
    with open(path, "wb") as f:
        f.truncate(size_mib * MIB)
    table = "label: dos\n" + "".join(f"start={s}MiB" + (f", size={n}MiB" if n else "") + ", type=83\n"
                                     for s, n in parts)
    subprocess.run(["sfdisk", "-q", str(path)], input=table, text=True, check=True)
    with open(path, "r+b") as f:
        for i, (start, _) in enumerate(parts, 1):
            f.seek(start * MIB)
            f.write(fill + bytes([48 + i]))
    return path


def at(path: Path, mib: int, n: int = 8) -> bytes:
    with open(path, "rb") as f:
        f.seek(mib * MIB)
        return f.read(n)


def test_the_system_is_replaced_and_the_data_partition_kept(tmp_path):
    new = disk(tmp_path / "new.img", 12, [(1, 2), (3, 4), (7, 2)], b"NEW-")
    subprocess.run(["xz", "-k", str(new)], check=True)
    card = disk(tmp_path / "card.img", 24, [(1, 2), (3, 4), (7, None)], b"OLD-")  # data grown to the end
    out = subprocess.run(["bash", str(UPDATE), str(new) + ".xz", str(card)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert at(card, 1, 5) == b"NEW-1" and at(card, 3, 5) == b"NEW-2"
    assert at(card, 7, 5) == b"OLD-3", "the data partition is untouched"
    assert "is as it was" in out.stdout


@pytest.mark.parametrize("parts", [[(1, 2), (3, 5), (8, None)], [(1, 2), (4, 3), (7, None)], [(1, 2), (3, 4)]])
def test_a_card_laid_out_otherwise_is_refused_and_left_alone(tmp_path, parts):
    new = disk(tmp_path / "new.img", 12, [(1, 2), (3, 4), (7, 2)], b"NEW-")
    card = disk(tmp_path / "card.img", 24, parts, b"OLD-")
    before = card.read_bytes()
    out = subprocess.run(["bash", str(UPDATE), str(new), str(card)], capture_output=True, text=True)
    assert out.returncode == 2
    assert "flash the whole card instead" in out.stderr or "not a card of the companion's image" in out.stderr
    assert card.read_bytes() == before
