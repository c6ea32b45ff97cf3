"""tools/image/update-card.sh: a new image's partitions 1 and 2 go onto a card, its data partition
stays byte for byte; a card laid out differently is refused untouched. Small synthetic images
with the image's partition table shape (sfdisk), no root needed. A card in a reader is a disk
image named like one in a fake /sys (UPDATE_CARD_SYSFS): no real disk is ever looked at."""

from __future__ import annotations

import os
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


# --- a card in a reader: a disk image standing for /dev/sdz, with a fake /sys -----------------

def reader(tmp_path: Path, *, removable: str = "1", bus: str = "usb1/1-1", mmc_type: str | None = None,
           mounts: str = "", system: str = "") -> tuple[Path, dict[str, str]]:
    """A card (tmp/dev/sdz, the companion's layout, a labelled FAT at partition 1) reached through
    tmp/by-id/usb-Card_Reader-0:0, and the environment that points the script at a fake /sys
    (a disk sdz, 8:16, with sdz1-3; its device under `bus`), mounts, swaps and system devices."""
    (tmp_path / "dev").mkdir()
    card = disk(tmp_path / "dev" / "sdz", 24, [(1, 2), (3, 4), (7, None)], b"OLD-")
    subprocess.run(["mkfs.fat", "-n", "COMPANION", "--offset=2048", str(card), "2048"],
                   capture_output=True, check=True)
    (tmp_path / "by-id").mkdir()
    (tmp_path / "by-id" / "usb-Card_Reader-0:0").symlink_to("../dev/sdz")
    sys = tmp_path / "sys"
    device = sys / "devices" / "pci0000:00" / bus / "host6" / "6:0:0:0"
    device.mkdir(parents=True)
    (device / "vendor").write_text("Generic \n")
    (device / "model").write_text("STORAGE DEVICE  \n")
    if mmc_type:
        (device / "type").write_text(mmc_type + "\n")
    block = sys / "class" / "block"
    sdz = block / "sdz"
    (sdz / "holders").mkdir(parents=True)
    (sdz / "device").symlink_to(device)
    for name, value in {"dev": "8:16", "removable": removable, "size": str(24 * 2048)}.items():
        (sdz / name).write_text(value + "\n")
    for n in (1, 2, 3):
        part = sdz / f"sdz{n}"
        (part / "holders").mkdir(parents=True)
        (part / "partition").write_text(f"{n}\n")
        (part / "dev").write_text(f"8:{16 + n}\n")
        (block / f"sdz{n}").symlink_to(f"sdz/sdz{n}")
        (tmp_path / "dev" / f"sdz{n}").touch()  # stands for the partition's node
    (tmp_path / "mounts").write_text(mounts)
    (tmp_path / "swaps").write_text("Filename\tType\tSize\tUsed\tPriority\n")
    env = dict(os.environ, UPDATE_CARD_SYSFS=str(sys), UPDATE_CARD_MOUNTS=str(tmp_path / "mounts"),
               UPDATE_CARD_SWAPS=str(tmp_path / "swaps"), UPDATE_CARD_SYSTEM_DEVS=system)
    return card, env


def new_image(tmp_path: Path) -> Path:
    return disk(tmp_path / "new.img", 12, [(1, 2), (3, 4), (7, 2)], b"NEW-")


def update(tmp_path: Path, env: dict[str, str], *args: str, target: str = "by-id/usb-Card_Reader-0:0",
           answer: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(UPDATE), *args, str(new_image(tmp_path)), str(tmp_path / target)],
                          input=answer, capture_output=True, text=True, env=env, timeout=60)


def test_a_card_in_a_usb_reader_is_named_and_written_once_confirmed(tmp_path):
    card, env = reader(tmp_path, removable="0")  # USB card readers often say removable=0
    out = update(tmp_path, env, answer="yes\n")
    assert out.returncode == 0, out.stderr
    assert f"{card}: Generic STORAGE DEVICE, 0.0 GB" in out.stdout, "the link is resolved, the disk named"
    assert "partition 1: 2 MiB, vfat 'COMPANION': overwritten" in out.stdout
    assert "partition 3: 17 MiB, no file system: kept as it is" in out.stdout
    assert "Type yes" in out.stdout
    assert at(card, 1, 5) == b"NEW-1" and at(card, 3, 5) == b"NEW-2" and at(card, 7, 5) == b"OLD-3"


@pytest.mark.parametrize("answer", ["", "no\n", "y\n"])
def test_without_a_yes_nothing_is_written(tmp_path, answer):
    card, env = reader(tmp_path)
    before = card.read_bytes()
    out = update(tmp_path, env, answer=answer)
    assert out.returncode == 2 and "nothing written" in out.stderr
    assert card.read_bytes() == before


def test_yes_on_the_command_line_writes_without_asking(tmp_path):
    card, env = reader(tmp_path)
    out = update(tmp_path, env, "--yes")
    assert out.returncode == 0, out.stderr
    assert "Type yes" not in out.stdout and "partition 2: 4 MiB" in out.stdout
    assert at(card, 3, 5) == b"NEW-2"


def test_an_sd_card_in_a_built_in_slot_is_a_card(tmp_path):
    card, env = reader(tmp_path, removable="0", bus="mmc_host/mmc0/mmc0:aaaa", mmc_type="SD")
    assert update(tmp_path, env, "--yes").returncode == 0


def refused(tmp_path: Path, words: str, target: str = "by-id/usb-Card_Reader-0:0", **kwargs) -> None:
    card, env = reader(tmp_path, **kwargs)
    before = card.read_bytes()
    out = update(tmp_path, env, "--yes", target=target)
    assert out.returncode == 2, out.stdout
    assert words in out.stderr and len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert card.read_bytes() == before


@pytest.mark.parametrize("kwargs", [dict(removable="0", bus="ata1/host0/target0:0:0"),
                                    dict(removable="0", bus="mmc_host/mmc0/mmc0:0001", mmc_type="MMC")])
def test_a_disk_that_is_not_a_card_is_refused(tmp_path, kwargs):
    refused(tmp_path, "is not a removable disk, a USB card reader or an SD card slot", **kwargs)


def test_a_mounted_partition_is_refused_by_any_name(tmp_path):
    (tmp_path / "by-uuid").mkdir()
    (tmp_path / "by-uuid" / "1234-ABCD").symlink_to("../dev/sdz1")
    refused(tmp_path, "/dev/sdz1 is mounted", mounts=f"{tmp_path}/by-uuid/1234-ABCD /media/x vfat rw 0 0\n")


def test_the_running_system_is_refused(tmp_path):
    """/ mounted as /dev/root (no name to match): its device number gives it away."""
    refused(tmp_path, "holds the running system", system="8:18", mounts="/dev/root / ext4 rw 0 0\n")


def test_a_partition_is_refused_with_the_disk_to_give(tmp_path):
    refused(tmp_path, "is a partition: give the whole card (/dev/sdz)", target="dev/sdz1")


def test_a_disk_held_by_lvm_is_refused(tmp_path):
    card, env = reader(tmp_path)
    (tmp_path / "sys" / "class" / "block" / "sdz" / "sdz3" / "holders" / "dm-0").mkdir()
    before = card.read_bytes()
    out = update(tmp_path, env, "--yes")
    assert out.returncode == 2 and "in use by dm-0" in out.stderr
    assert card.read_bytes() == before
