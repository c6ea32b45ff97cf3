"""Updates on the SD-card image, booted in QEMU: the bundle beside the image installs through the page
into system slot b, and the plug is pulled (SIGKILL to QEMU) at four points while it is written, while
the new slot first starts and the moment it is kept; after each, the card starts on one of its slots
and the game goes on. Then a bundle whose system cannot start (the companion's unit broken) comes
back to the slot that ran, by itself.

The test is a row of boots of one card, and a boot costs a minute or more: each boot that comes up
first checks what the boot before it left (the slot, status.json, the game), then takes the next
step. The plug pulled later in the new slot's first start, while the check waits for the companion,
takes the same way back (no tries left: the initramfs sends the card back) and is checked on the
card's files below (test_the_plug_pulled_while_the_check_waits_leaves_a_start_without_tries).

QEMU has no Pi firmware: each boot here does what the firmware does, it starts the kernel and
initramfs that config.txt (and the slot.txt it includes) names on the card's FAT (Card.kernel_and_
initrd). The guest's reboot ends QEMU (-no-reboot); the next boot reads the FAT again. Times go to
build/image/update-times.txt for README's numbers.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from companion.update.bootstate import BootState, Try, slot_text
from companion.update.box import Box as SlotBox
from companion.update.check import boot_check
from companion.update.status import read_status
from tests.image.image_machine import Card, Machine
from tests.image.test_image_boot import BOOT_S, IMAGE_XZ, PIN, ROOT, login, play
from tests.image.test_image_boot import _skip_reason as image_skip_reason
from tests.update.bundles import maker, resigned

BUNDLE = IMAGE_XZ.with_name("clans-companion.bundle")
OUT = ROOT / "build" / "image"


def sha256_of(path: Path) -> str:
    import hashlib

    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def build_key() -> Path:
    """The private key the build signed with (build.sh names it in signed-with.txt): the one key the
    image trusts, so the bundles this test makes are signed with it too."""
    text = (IMAGE_XZ.parent / "signed-with.txt").read_text(encoding="utf-8")
    return Path(text.strip().partition("UPDATE_KEY=")[2])

CARD = f"page_pin = {PIN}\r\nlanguage = en\r\n"
REQUEST = "echo '{\"bundle\": \"/var/lib/companion/update/upload.bundle\"}' > /var/lib/companion/update/request.json"

def _skip_reason() -> str | None:
    why = image_skip_reason()
    if why is None and not BUNDLE.exists() and os.environ.get("COMPANION_IMAGE_REQUIRED") != "1":
        return f"no bundle at {BUNDLE}: build it with `sudo tools/image/build.sh` (CI does)"
    if why is None and shutil.which("debugfs") is None and os.environ.get("COMPANION_IMAGE_REQUIRED") != "1":
        return "debugfs is missing (apt-get install e2fsprogs)"
    return why


needs_image = pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")


class Box:
    """The card, booted again and again as the firmware would; one console log for all boots."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.card = Card(IMAGE_XZ, tmp / "card.img")
        self.card.write("companion.txt", CARD.encode(), tmp / "companion.txt")
        self.log = OUT / "update-console.log" if OUT.is_dir() else tmp / "console.log"
        self.log.write_text("")
        self.m: Machine | None = None
        self.extra: tuple[str, ...] = ()  # more of QEMU's devices (a USB stick)

    def boot(self) -> Machine:
        kernel, initrd = self.card.kernel_and_initrd(self.tmp)
        self.m = Machine(self.card, kernel, initrd, self.log, extra=self.extra)
        return self.m

    def ended(self, timeout: float = BOOT_S) -> None:
        """Wait for QEMU to end by itself (the guest restarted)."""
        assert self.m is not None
        self.m.proc.wait(timeout=timeout)
        self.m.reader.join(timeout=10)
        self.m.log.close()

    def restarts_after(self, line: str) -> None:
        """Boot, wait for `line` on the console, then for the guest to restart by itself."""
        m = self.boot()
        try:
            m.wait_for(line, BOOT_S)
            self.ended()
        finally:
            m.stop()

    def pulled_at(self, line: str) -> None:
        """Boot, and pull the plug the moment `line` is on the console."""
        m = self.boot()
        try:
            m.wait_for(line, BOOT_S)
        finally:
            m.kill()

    def up(self, played: dict) -> tuple[Machine, dict]:
        """Boot until the page shows the game `played` (its id) with its actions at least; the shell ready."""
        m = self.boot()
        state = m.wait_state(lambda s: s.get("game_id") == played["game_id"]
                             and s.get("actions", 0) >= played["actions"], BOOT_S)
        m.shell(BOOT_S)
        return m, state


def upload(m: Machine, headers: dict, bundle: Path) -> dict:
    with open(bundle, "rb") as f:
        req = urllib.request.Request(f"http://127.0.0.1:{m.port}/api/update", data=f, method="POST", headers={
            **headers, "Content-Type": "application/octet-stream", "Content-Length": str(bundle.stat().st_size),
            "Origin": f"http://127.0.0.1:{m.port}"})
        with urllib.request.urlopen(req, timeout=BOOT_S) as r:
            assert r.status == 202
            return json.loads(r.read())


def confirm_the_question(m: Machine, headers: dict) -> None:
    """0 dismisses the news if it shows over the stick's question (the question ignores it), then # is
    pressed in a request of its own until the kiosk asks root to install: a # that reaches the kiosk
    before the question has shown is dropped as typed ahead (companion.kiosk.loop), as "0#" in one
    request was."""
    status_code, body, _ = m.post("/api/keys", {"keys": "0"}, headers)
    assert status_code == 200, body
    for _ in range(10):
        status_code, body, _ = m.post("/api/keys", {"keys": "#"}, headers)
        assert status_code == 200, body
        if m.run("timeout 60 sh -c 'until journalctl -b -u companion --no-pager | grep -q \"install of .* asked for\"; "
                 "do sleep 1; done' && echo taken", timeout=BOOT_S) == "taken":
            return
    raise AssertionError("# never asked for the stick's install; the kiosk's journal: "
                         + m.run("journalctl -b -u companion --no-pager | tail -n 25", timeout=BOOT_S))


def slot(m: Machine) -> str:
    return {"/dev/vda2": "a", "/dev/vda4": "b"}[m.run("findmnt -no SOURCE /")]


def status(m: Machine) -> dict:
    return json.loads(m.run("cat /var/lib/companion/update/status.json; echo"))


def broken_bundle(tmp: Path) -> Path:
    """The same system with the companion's unit broken (it exits at once, again and again), signed
    with the test key as the builder signs."""
    with open(BUNDLE, "rb") as f:
        import tarfile

        with tarfile.open(fileobj=f, mode="r|") as tar:
            for info in tar:
                if info.name in ("boot.tar", "system.img.gz"):
                    with open(tmp / info.name, "wb") as out:
                        shutil.copyfileobj(tar.extractfile(info), out, 1 << 20)
    system = tmp / "system.ext4"
    with gzip.open(tmp / "system.img.gz", "rb") as src, open(system, "wb") as dst:
        shutil.copyfileobj(src, dst, 1 << 20)
    (tmp / "system.img.gz").unlink()
    drop = tmp / "broken.conf"
    drop.write_text("[Service]\nExecStart=\nExecStart=/bin/false\n")
    subprocess.run(["debugfs", "-w", "-R", f"write {drop} /etc/systemd/system/companion.service.d/broken.conf",
                    str(system)], check=True, capture_output=True)
    with tarfile.open(tmp / "boot.tar") as boot:
        boot.extractall(tmp / "boot", filter="data")
    manifest = json.loads(subprocess.run(["tar", "-xOf", str(BUNDLE), "manifest.json"], capture_output=True,
                                         check=True).stdout)
    out = tmp / "broken.bundle"
    maker.write_bundle(system, tmp / "boot" / "vmlinuz", tmp / "boot" / "initrd.img", manifest["version"] + "-broken",
                       manifest["built"], build_key(), out)
    system.unlink()
    return out


@needs_image
def test_updates_survive_pulled_plugs_and_a_broken_system_comes_back(tmp_path: Path) -> None:
    box = Box(tmp_path)
    times: dict[str, float] = {}
    broken = broken_bundle(tmp_path)  # made first: the host's CPU is QEMU's once it runs

    # A fresh card starts slot a; a game is played through the page, in progress all along.
    # 1. The plug pulled while the bundle is written: sent through the page, root installs it, 30% written.
    m = box.boot()
    try:
        m.wait_page(BOOT_S)
        m.shell(BOOT_S)
        assert slot(m) == "a" and m.run("lsblk -bno SIZE /dev/vda4") == str(1536 << 20)
        headers = login(m)
        play(m, headers, "##1#2#", 2)
        played = play(m, headers, "#######", 3)
        since = len(m.lines)
        t0 = time.monotonic()
        assert upload(m, headers, BUNDLE)["offered"]
        times["upload"] = time.monotonic() - t0
        m.wait_for(r"update: writing 30%", BOOT_S, since)
    finally:
        m.kill()

    # 2. The plug pulled at the end of the write, with the command a builder types over SSH (here in
    # the serial console's root shell).
    m, state = box.up(played)
    try:
        assert slot(m) == "a" and status(m)["state"] == "failed" and "cut off" in status(m)["message"], "after 1"
        since = len(m.lines)
        m.send("companion update install /var/lib/companion/update/upload.bundle\n")
        m.wait_for(r"update: writing 9[5-9]%", BOOT_S, since)
    finally:
        m.kill()

    # 3. The bundle swapped while it is written: once root writes it, the page's user (who owns the
    # upload folder) puts a bundle cut after its signature in its place. The install goes on from the
    # file it opened and writes exactly what it checked (before, it opened the name again and switched
    # to a slot it never wrote). Then the plug is pulled in the new slot's first start, in its
    # initramfs (the start is counted): the next start has no tries left, and the initramfs sends the
    # card back to slot a.
    m, state = box.up(played)
    try:
        assert slot(m) == "a" and status(m)["state"] == "failed" and "cut off" in status(m)["message"], "after 2"
        since = len(m.lines)
        t0 = time.monotonic()
        m.run(REQUEST)
        m.wait_for(r"update: writing [1-9]\d?%", BOOT_S, since)
        folder = "/var/lib/companion/update"
        m.run(f"head -c 4096 {folder}/upload.bundle > {folder}/swap.tmp && chown companion {folder}/swap.tmp && "
              f"runuser -u companion -- mv {folder}/swap.tmp {folder}/upload.bundle && echo swapped")
        m.wait_for(r"update: version \S+ written to system b: restarting", BOOT_S, since)
        times["install"] = time.monotonic() - t0
        written = json.loads(m.run(f"cat {folder}/slots.json; echo"))["b"]
        assert written["bundle_sha256"] == sha256_of(BUNDLE), "slot b holds exactly the bundle that was checked"
        box.ended()
    finally:
        m.stop()
    box.pulled_at(r"companion-slot: first start of system b")
    box.restarts_after(r"companion-slot: system b did not finish its last start: back to system a")

    # 4. From a USB stick: the OLED asks, # (here from the page's keys) installs it; the plug is pulled
    # the moment the new slot is kept.
    stick = tmp_path / "stick.img"
    subprocess.run(["mkfs.vfat", "-C", str(stick), str(BUNDLE.stat().st_size // 1024 + 65536)], check=True,
                   capture_output=True)
    # a newer build than the one that runs (a stick holding what runs is not offered): the same system
    newer = resigned(BUNDLE, tmp_path / "newer.bundle", key=build_key(), built=int(json.loads(subprocess.run(
        ["tar", "-xOf", str(BUNDLE), "manifest.json"], capture_output=True, check=True).stdout)["built"]) + 60)
    subprocess.run(["mcopy", "-i", str(stick), str(newer), "::/clans-companion.bundle"], check=True)
    newer.unlink()
    box.extra = ("-device", "qemu-xhci", "-drive", f"if=none,id=stick,format=raw,file={stick}",
                 "-device", "usb-storage,drive=stick")
    m, state = box.up(played)
    try:
        assert slot(m) == "a" and status(m)["state"] == "refused" and status(m)["reason"] == "start", "after 3"
        m.wait_for(r"update: /dev/sda: offers \S+", BOOT_S)
        # the stick's question and the news of step 3's refusal, in either order (confirm_the_question)
        asked = m.run("timeout 600 sh -c 'until journalctl -b -u companion --no-pager | grep -q \"asking whether\" && "
                      "journalctl -b -u companion --no-pager | grep -q \"told what the last update did\"; "
                      "do sleep 1; done' && echo asked", timeout=BOOT_S)
        assert asked == "asked", "the OLED never asked about the stick's update, or never told step 3's refusal"
        since = len(m.lines)
        confirm_the_question(m, login(m))
        m.wait_for(r"update: version \S+ written to system b: restarting", BOOT_S, since)
        t0 = time.monotonic()
        box.ended()
    finally:
        m.stop()
    box.extra = ()
    box.pulled_at(r"update: system b \(\S+\) started well: it stays")
    times["restart into the new system"] = time.monotonic() - t0

    # 5. A system that cannot start (the companion's unit broken), sent through the page: written to
    # slot a, started once, refused, and the card is back on slot b by itself.
    m, state = box.up(played)
    try:
        assert slot(m) == "b" and status(m)["state"] == "installed", "after 4"
        headers = login(m)
        since = len(m.lines)
        upload(m, headers, broken)
        m.wait_for(r"update: version \S+ written to system a: restarting", BOOT_S, since)
        box.ended()
    finally:
        m.stop()
    t0 = time.monotonic()
    box.restarts_after(r"update: system a refused: a part of the new system failed to start; back to system b")
    m, state = box.up(played)
    try:
        times["fall back"] = time.monotonic() - t0
        assert slot(m) == "b" and status(m)["reason"] == "unit", "after 5"
        assert state["state"] == played["state"], "the game on the data partition was never touched"
    finally:
        m.kill()
    lines = [f"{what}: {s:.0f} s" for what, s in times.items()] + [f"bundle: {BUNDLE.stat().st_size // 1000000} MB"]
    print("\n".join(lines))
    if OUT.is_dir():
        (OUT / "update-times.txt").write_text("\n".join(lines) + "\n")


def test_the_plug_pulled_while_the_check_waits_leaves_a_start_without_tries(tmp_path: Path, monkeypatch) -> None:
    """The new slot's first start, on the card's files: the initramfs counted it (no tries left), the
    companion starts and `companion update check` waits for it; a plug pulled then must leave the
    card as the initramfs left it, so that the next start goes back to the old slot (step 3 above
    boots that way back). A check that kept the slot before the companion and the page were up
    would keep a system that never started."""
    fat = tmp_path / "fat"
    fat.mkdir()
    (fat / "slot.txt").write_text(slot_text("b"))
    card = BootState(fat)
    card.write_try(Try("try", "b", 0, "a"))
    monkeypatch.setattr("companion.update.status.UPDATE_DIR", tmp_path / "update")
    box = SlotBox(fat, "b", {"a": tmp_path / "slot-a", "b": tmp_path / "slot-b"}, version="2.0")

    class PluggedOut(BaseException):
        pass

    left = []

    def waiting() -> str | None:  # the check waits for the companion: what the card holds now
        left.append((card.read_slot(), card.read_try(), read_status()["state"]))
        raise PluggedOut

    with pytest.raises(PluggedOut):
        boot_check(box, waiting, lambda: pytest.fail("no restart while it waits"))
    assert left == [("b", Try("try", "b", 0, "a"), "trying")]
    assert card.read_slot() == "b" and card.read_try() == Try("try", "b", 0, "a")
