"""A card whose data partition is gone (a tool deleted it, a parent "repaired" the card) still
boots into the kiosk, never emergency mode: companion-data puts a stand-in in RAM on /data and the
kiosk's first screen says the games last only until power off. Needs the image and QEMU, as
test_image_boot.py."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from tests.image.image_machine import Card, Machine
from tests.image.test_image_boot import BOOT_S, IMAGE_XZ, _skip_reason

pytestmark = pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")


def test_a_card_without_its_data_partition_boots_and_plays_in_ram(tmp_path: Path) -> None:
    card = Card(IMAGE_XZ, tmp_path / "card.img")
    subprocess.run(["sfdisk", "-q", "--delete", str(card.path), "3"], check=True)
    table = subprocess.run(["sfdisk", "-d", str(card.path)], capture_output=True, text=True, check=True).stdout
    assert table.count("start=") == 2, "only the FAT and the root are left"
    kernel, initrd = card.kernel_and_initrd(tmp_path)
    m = Machine(card, kernel, initrd, tmp_path / "console.log")
    try:
        m.wait_for(r"companion-data: missing: the box plays", BOOT_S)
        m.wait_page(BOOT_S)
        page = time.monotonic() - m.started
        m.shell(BOOT_S)
        assert m.run("systemctl is-active companion companion-web companion-card").split() == ["active"] * 3
        assert m.run("systemctl is-system-running --wait || true") in ("running", "degraded")
        assert m.run("findmnt -no FSTYPE /data") == "tmpfs"
        assert m.run("findmnt -no FSTYPE /var/lib/companion") == "tmpfs", "the journal's folder is the stand-in's"
        assert m.run("cat /run/companion-box/data-stand-in") == "missing"
        assert "games are kept in RAM" in m.run("journalctl -b -u companion --no-pager | grep 'data partition'")
        assert m.run("touch /var/lib/companion/probe && rm /var/lib/companion/probe && echo writable") == "writable"
    finally:
        m.kill()
    print(f"no data partition: the page answered {page:.0f} s after QEMU started")
