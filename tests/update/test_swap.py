"""A bundle that changes while it is installed: rewritten in place (by another signed bundle, an older
one, one without its system or its kernel), cut short, emptied, replaced or removed, at every step of
the install (before it opens the file, inside the manifest, right after the signature, inside the
kernel, inside the system, at the end), with the plug pulled there or not. The card then starts what
it ran, or exactly what was checked: never a mixture, never an older build, never a switch to a slot
that was not written whole."""

from __future__ import annotations

import os
import tarfile
from pathlib import Path

import pytest

import companion.update.install as inst
from companion.update.bootstate import BootState, Try, slot_text
from companion.update.box import Box
from companion.update.bundle import BundleError, load_key
from companion.update.check import boot_check
from tests.update.bundles import TEST_PUBLIC, make, needs_openssl

pytestmark = needs_openssl
KEY = load_key(TEST_PUBLIC)
SLOT_BYTES = 2 << 20
RUNNING_BUILT = 1_700_000_000


class Bundles:
    """The bundles of one test, each made in a folder of its own (its parts kept to compare)."""

    def __init__(self, tmp: Path) -> None:
        self.parts: dict[str, tuple[bytes, bytes]] = {}  # version -> (system, kernel)
        self.data: dict[str, bytes] = {}
        for name, version, built, seed in (("good", "2.0", 1_800_000_000, 1), ("newer", "3.0", 1_900_000_000, 2),
                                           ("older", "0.9", 1_600_000_000, 3)):
            folder = tmp / name
            folder.mkdir()
            path = make(folder, version=version, built=built, seed=seed, system_bytes=1 << 20)
            self.data[name] = path.read_bytes()
            self.parts[version] = ((folder / "system.ext4").read_bytes(), (folder / "vmlinuz").read_bytes())
        good = self.data["good"]
        with tarfile.open(tmp / "good" / "good.bundle") as tar:
            offsets = {m.name: (m.offset, m.offset_data + m.size) for m in tar.getmembers()}
        self.offsets = offsets
        self.data["no-system"] = good[:offsets["system.img.gz"][0]] + bytes(1024)
        self.data["no-kernel"] = good[:offsets["boot.tar"][0]] + good[offsets["system.img.gz"][0]:]
        self.data["after-signature"] = good[:offsets["boot.tar"][0]]


def rewrite(path: Path, data: bytes) -> None:
    with open(path, "r+b") as f:
        f.write(data)
        f.truncate(len(data))


def replace(path: Path, data: bytes) -> None:
    tmp = path.with_name("swap.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


MUTATIONS = {
    "rewritten by a newer bundle": lambda p, b: rewrite(p, b.data["newer"]),
    "rewritten by an older bundle": lambda p, b: rewrite(p, b.data["older"]),
    "rewritten without its system": lambda p, b: rewrite(p, b.data["no-system"]),
    "rewritten without its kernel": lambda p, b: rewrite(p, b.data["no-kernel"]),
    "cut after its signature": lambda p, b: os.truncate(p, len(b.data["after-signature"])),
    "emptied": lambda p, b: os.truncate(p, 0),
    "replaced by an older bundle": lambda p, b: replace(p, b.data["older"]),
    "removed": lambda p, b: p.unlink(),
}
STEPS = {"before it opens": -1, "inside the manifest": 100, "right after the signature": "boot.tar",
         "between the check and the write": "writing", "inside the kernel": "boot.tar+",
         "inside the system": "system.img.gz+", "at the end": "end"}


class Spy:
    """The install's open bundle, which calls `act` once `at` bytes were read from it (the swap)."""

    def __init__(self, f, at: int, act) -> None:
        self.f, self.at, self.act, self.seen = f, at, act, 0

    def read(self, n: int = -1) -> bytes:
        if self.act is not None and self.seen >= self.at:
            act, self.act = self.act, None
            act()
        data = self.f.read(n)
        self.seen += len(data)
        return data

    def fileno(self) -> int:
        return self.f.fileno()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.f.close()


def offset(step: str, bundles: Bundles) -> int:
    where = STEPS[step]
    if isinstance(where, int):
        return where
    if where == "end":  # the system read whole, the archive's end not yet: the next read is the last
        return bundles.offsets["system.img.gz"][1]
    if where == "writing":  # told by the install's report, not by a byte count
        return bundles.offsets["boot.tar"][0]
    start, end = bundles.offsets[where.rstrip("+")]
    return (start + end) // 2 if where.endswith("+") else start


@pytest.fixture
def card(tmp_path: Path, monkeypatch) -> Box:
    fat = tmp_path / "fat"
    fat.mkdir()
    (fat / "slot.txt").write_text(slot_text("a"))
    (fat / "vmlinuz-a").write_bytes(b"running kernel")
    BootState(fat).write_try(Try())
    devices = {}
    for slot in "ab":
        devices[slot] = tmp_path / f"slot-{slot}"
        devices[slot].write_bytes(bytes([ord(slot)]) * SLOT_BYTES)
    monkeypatch.setattr("companion.update.status.UPDATE_DIR", tmp_path / "update")
    return Box(fat, "a", devices, version="1.0", built=RUNNING_BUILT)


def what_starts(card: Box, bundles: Bundles) -> str:
    """What the card starts next, judged from its files: "a" (what it ran) or the version whose
    system and kernel slot b holds byte for byte; AssertionError for a mixture."""
    state = BootState(card.fat)
    if state.read_slot() == "a":
        assert (card.fat / "vmlinuz-a").read_bytes() == b"running kernel"
        assert card.devices["a"].read_bytes() == b"a" * SLOT_BYTES, "the running slot is never written"
        return "a"
    assert state.read_try() == Try("try", "b", 1, "a")
    held = card.devices["b"].read_bytes()
    kernel = (card.fat / "vmlinuz-b").read_bytes()
    for version, (system, vmlinuz) in bundles.parts.items():
        if held[:len(system)] == system and kernel == vmlinuz:
            return version
    raise AssertionError("slot b holds a mixture, or no bundle's system and kernel")


@pytest.mark.parametrize("plug", [False, True], ids=["", "plug pulled"])
@pytest.mark.parametrize("step", STEPS)
@pytest.mark.parametrize("mutation", MUTATIONS)
def test_a_bundle_changed_while_installed_starts_what_ran_or_exactly_what_was_checked(
        card: Box, tmp_path: Path, monkeypatch, mutation: str, step: str, plug: bool) -> None:
    bundles = Bundles(tmp_path)
    path = tmp_path / "upload.bundle"
    path.write_bytes(bundles.data["good"])
    real_open = inst.open_file
    checked = []
    done = []

    def swap() -> None:
        if done:
            return
        done.append(step)
        MUTATIONS[mutation](path, bundles)
        if plug:
            raise KeyboardInterrupt  # the plug, as far as this process can tell

    def report(state: str, percent: int) -> None:
        if state == "writing" and STEPS[step] == "writing":
            swap()

    if offset(step, bundles) < 0:
        try:
            swap()
        except KeyboardInterrupt:
            return  # nothing was opened: nothing can have changed
    by_bytes = STEPS[step] != "writing"
    monkeypatch.setattr(inst, "open_file", lambda p: Spy(real_open(p), offset(step, bundles), swap if by_bytes else None))
    try:
        m = inst.install(path, card, KEY, report)
        checked.append(m.version)
    except (BundleError, KeyboardInterrupt):
        pass
    assert done, "the swap happened"
    started = what_starts(card, bundles)
    if checked:
        assert started == checked[0], f"installed {checked[0]} but slot b holds {started}"
        assert started != "0.9", "never an older build"
    else:
        assert started == "a"
        assert not list(card.fat.glob("*.new")) or plug, "what was kept aside goes with a refusal"
        assert BootState(card.fat).read_try().state in (("none", "writing") if plug else ("none",))
        # the next start: the running slot, and it says what happened
        assert boot_check(card, lambda: pytest.fail("not waited"), lambda: pytest.fail("no reboot")) in ("idle", "failed")
        assert BootState(card.fat).read_slot() == "a" and BootState(card.fat).read_try() == Try()


def test_the_swaps_do_happen_where_they_are_said_to(tmp_path: Path) -> None:
    """The test above proves nothing if its steps fall outside the bundle: each lies inside it, in order."""
    bundles = Bundles(tmp_path)
    points = [offset(step, bundles) for step in STEPS]
    assert points == sorted(points) and 0 < points[1] < points[2] <= points[3] < points[4] < points[5] < points[6]
    assert points[6] < len(bundles.data["good"])
    assert bundles.parts["2.0"][0] != bundles.parts["3.0"][0], "the bundles' systems differ, so a mixture shows"
