"""A card written by Raspberry Pi Imager with its OS customisation boots into the kiosk.

Imager 2.x's systemd form (what its own source writes, tests/box/imager_outputs.py): firstrun.sh
on the FAT and `systemd.run=/boot/firstrun.sh ... systemd.unit=kernel-command-line.target`
appended to cmdline.txt. On `-M virt` QEMU hands the kernel its command line (the firmware
reads cmdline.txt on a Pi), so the first boot gets Imager's words that way. That boot applies
Imager's settings, takes its file and words off the FAT and reboots once (QEMU exits: -no-reboot);
the second boot, on the card's own line again, is the kiosk with Imager's host name, Wi-Fi, time
zone and SSH key. Needs the image and QEMU, as test_image_boot.py.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.image.image_machine import VIRT_CMDLINE, Card, Machine
from tests.image.test_image_boot import BOOT_S, IMAGE_XZ, _skip_reason
from tests.box.imager_outputs import KEY1, RUN_WORDS, imager_writes

pytestmark = pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")
PSK = "3797d6d790cf1e2818219b654bd49aa4502b23adc63230b530a16beef7865ee3"  # Imager's PBKDF2 of "correct horse battery"


def test_a_card_imager_customised_boots_into_the_kiosk_with_its_settings(tmp_path: Path) -> None:
    card = Card(IMAGE_XZ, tmp_path / "card.img")
    own = card.read("cmdline.txt").decode()
    for name, data in imager_writes("systemd", own).items():
        card.write(name, data, tmp_path / name)
    assert RUN_WORDS.strip() in card.read("cmdline.txt").decode()
    kernel, initrd = card.kernel_and_initrd(tmp_path)
    log = tmp_path / "console.log"

    m = Machine(card, kernel, initrd, log, cmdline=VIRT_CMDLINE + RUN_WORDS)
    try:
        m.wait_for(r"keyboard layout, user name and password are not used", BOOT_S)
        m.wait_for(r"companion-card: rebooting once, without Raspberry Pi Imager's first-run line", BOOT_S)
        m.wait_for(r"^<qemu exited>$", BOOT_S, partial=False)
    finally:
        m.stop()
    assert "firstrun.sh" not in card.listing(), "Imager's script is gone from the card"
    assert card.read("cmdline.txt").decode().split() == own.split(), "cmdline.txt is the card's own again"
    assert PSK.encode() not in card.fat_bytes() and b"correct horse" not in card.fat_bytes()

    m = Machine(card, kernel, initrd, log)
    try:
        m.wait_page(BOOT_S)
        m.shell(BOOT_S)
        ready = time.monotonic() - m.started
        assert m.run("systemctl is-active companion") == "active"
        assert m.run("hostname") == "tavolo"
        assert m.run("cat /data/box/timezone") == "Europe/Rome"
        assert f"psk={PSK}" in m.run("cat /data/box/wpa_supplicant-wlan0.conf")
        assert m.run("cat /data/box/ssh/authorized_keys") == KEY1
    finally:
        m.kill()
    print(f"Imager's card: the kiosk's page answered {ready:.0f} s after QEMU started its second boot")
