"""The settings card and Raspberry Pi Imager's OS customisation together (companion.box.card.run
with companion.box.imager): what Imager wrote applies as if it were on companion.txt, the card's
own lines win, Imager's files and words leave the FAT, and Imager's first-run boot reboots once."""

from __future__ import annotations

import pytest

from tests.box.imager_outputs import RUN_WORDS, imager_writes
from tests.box.test_card import box_at

from companion.box import card as C

OWN = "console=serial0,115200 console=tty1 root=LABEL=clans-root rootfstype=ext4 fsck.repair=yes rootwait ro"


def put(box: C.Box, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        (box.card.parent / name).write_bytes(data)


@pytest.mark.parametrize("form", ["systemd", "cloudinit"])
def test_imagers_settings_apply_and_its_files_leave_the_card(tmp_path, form):
    box = box_at(tmp_path, "# the image's card, untouched\n")
    files = imager_writes(form, OWN + "\n")
    put(box, files)
    proc = tmp_path / "proc-cmdline"
    proc.write_text(OWN + (RUN_WORDS if form == "systemd" else " ds=nocloud;i=rpi-imager-1") + "\n")
    names, reboots = [], []
    problems = C.run(box, sethostname=names.append, proc_cmdline=proc, reboot=lambda: reboots.append(1))
    assert problems == []
    assert names == ["tavolo"]
    wpa = (box.data / "wpa_supplicant-wlan0.conf").read_text()
    psk = "3797d6d790cf1e2818219b654bd49aa4502b23adc63230b530a16beef7865ee3"  # Imager's PBKDF2 of the passphrase
    assert "country=IT" in wpa and f"ssid={b'Casa Rossi'.hex()}" in wpa and f"psk={psk}" in wpa
    assert (box.data / "timezone").read_text().strip() == "Europe/Rome"
    left = sorted(p.name for p in box.card.parent.iterdir())
    assert left == ["cmdline.txt", "companion.txt"], left
    assert (box.card.parent / "cmdline.txt").read_text().split() == OWN.split()
    assert reboots == ([1] if form == "systemd" else []), "Imager's first-run target never reaches the kiosk"
    for left_file in box.card.parent.iterdir():
        assert psk.encode() not in left_file.read_bytes() and b"correct horse" not in left_file.read_bytes()
    # the next boot: nothing of Imager's is left, nothing reboots
    proc.write_text(OWN + "\n")
    assert C.run(box, sethostname=names.append, proc_cmdline=proc, reboot=lambda: reboots.append(2)) == []
    assert reboots == ([1] if form == "systemd" else [])


def test_the_cards_own_lines_win_and_a_bad_imager_value_names_imagers_file(tmp_path):
    box = box_at(tmp_path, "hostname = salotto\n")
    put(box, imager_writes("systemd", OWN + "\n", timezone="Mars/Olympus"))
    names = []
    problems = C.run(box, sethostname=names.append, proc_cmdline=tmp_path / "none", reboot=lambda: None)
    assert names == ["salotto"], "companion.txt's own line wins over Imager's host name"
    assert [p.key for p in problems] == ["timezone"]
    assert problems[0].text().startswith("firstrun.sh line "), problems[0].text()
