"""Which system slot the card starts, and how far an update has come: two small files on the FAT.

The firmware reads `slot.txt` (config.txt includes it): the kernel and initramfs of slot a or
b. The initramfs and `companion update` read and write `try.txt`, one line of TRY_BYTES:

    none                      nothing under way
    writing B                 slot B is being written (the card still starts the running slot)
    try B N A                 B starts next, N more tries; then A again (the initramfs counts)
    ok B                      B started, reached READY and the page answered: it stays
    refused B A REASON        B did not come up (REASON); the card is back on A

Both files are rewritten in place at the same length (one sector of the FAT, no new cluster or
directory entry), so a power cut leaves the old line or the new one. The initramfs's side is the
shell script tools/image/rootfs/etc/initramfs-tools/scripts/init-premount/companion-slot.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

SLOTS = ("a", "b")
TRY_BYTES = 64
TRIES = 1  # starts of a new slot before the initramfs gives up on it
REASONS = ("start", "unit", "ready", "cut")  # codes of refusals: see companion.update.status.REASON_TEXT


def slot_text(slot: str) -> str:
    """slot.txt for `slot`: the same length for a and b."""
    return f"kernel=vmlinuz-{slot}\ninitramfs initrd-{slot}.img\n"


@dataclass(frozen=True)
class Try:
    state: str = "none"
    slot: str = ""
    tries: int = 0
    fallback: str = ""
    reason: str = ""

    def line(self) -> str:
        words = {"none": [], "writing": [self.slot], "ok": [self.slot], "try": [self.slot, str(self.tries), self.fallback],
                 "refused": [self.slot, self.fallback, self.reason]}[self.state]
        return " ".join([self.state, *words])


def parse_try(text: str) -> Try:
    """try.txt's line; anything unreadable is "none" (the card starts what slot.txt says)."""
    words = text.split()
    try:
        state, rest = words[0], words[1:]
        if state == "none":
            return Try()
        if rest[0] not in SLOTS:
            return Try()
        if state in ("writing", "ok"):
            return Try(state, rest[0])
        if state == "try" and rest[2] in SLOTS:
            return Try("try", rest[0], max(0, int(rest[1])), rest[2])
        if state == "refused" and rest[1] in SLOTS:
            return Try("refused", rest[0], fallback=rest[1], reason=rest[2] if len(rest) > 2 else "start")
    except (IndexError, ValueError):
        pass
    return Try()


def parse_slot(text: str) -> str | None:
    for slot in SLOTS:
        if f"kernel=vmlinuz-{slot}" in text:
            return slot
    return None


def write_in_place(path: Path, data: bytes) -> None:
    """`data` over `path`'s first bytes without truncating (the same length each time), synced."""
    flags = os.O_WRONLY | (os.O_CREAT if not path.exists() else 0)
    fd = os.open(path, flags, 0o600)
    try:
        os.pwrite(fd, data, 0)
        if os.fstat(fd).st_size > len(data):
            os.ftruncate(fd, len(data))
        os.fsync(fd)
    finally:
        os.close(fd)


class BootState:
    """slot.txt and try.txt in the FAT mounted at `fat`."""

    def __init__(self, fat: Path) -> None:
        self.fat = Path(fat)

    def read_try(self) -> Try:
        try:
            return parse_try((self.fat / "try.txt").read_text(encoding="ascii", errors="replace"))
        except OSError:
            return Try()

    def write_try(self, t: Try) -> None:
        line = t.line()[:TRY_BYTES - 1]
        write_in_place(self.fat / "try.txt", (line.ljust(TRY_BYTES - 1) + "\n").encode("ascii"))

    def read_slot(self) -> str | None:
        try:
            return parse_slot((self.fat / "slot.txt").read_text(encoding="ascii", errors="replace"))
        except OSError:
            return None

    def write_slot(self, slot: str) -> None:
        write_in_place(self.fat / "slot.txt", slot_text(slot).encode("ascii"))
