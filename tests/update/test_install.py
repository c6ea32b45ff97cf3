"""Installing a bundle into the other slot and the check at the next start, on a card made of files:
the FAT a directory, each slot a file of the slot's size. Every stop (a crash at any step, a bundle
changed while written, a slot that does not come up) leaves a card that starts a working slot."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.update.bootstate import BootState, Try, parse_try, slot_text
from companion.update.box import Box, NoSlot
from companion.update.bundle import BundleError, load_key
from companion.update.check import boot_check, wait_ready
from companion.update.install import InstallError, install
from companion.update.status import read_status, write_status
from tests.update.bundles import TEST_PUBLIC, make, needs_openssl

pytestmark = needs_openssl
KEY = load_key(TEST_PUBLIC)
SLOT_BYTES = 4 << 20


@pytest.fixture
def card(tmp_path: Path, monkeypatch) -> Box:
    fat = tmp_path / "fat"
    fat.mkdir()
    (fat / "slot.txt").write_text(slot_text("a"))
    BootState(fat).write_try(Try())
    devices = {}
    for slot in "ab":
        devices[slot] = tmp_path / f"slot-{slot}"
        devices[slot].write_bytes(bytes([ord(slot)]) * SLOT_BYTES)
    monkeypatch.setenv("COMPANION_UPDATE_DIR", str(tmp_path / "update"))
    monkeypatch.setattr("companion.update.status.UPDATE_DIR", tmp_path / "update")
    return Box(fat, "a", devices, version="1.0", built=1_700_000_000)


def starts(box: Box) -> str:
    """What the firmware starts next: slot.txt's slot."""
    return BootState(box.fat).read_slot()


def test_install_writes_the_other_slot_and_starts_it_once(card: Box, tmp_path: Path) -> None:
    bundle = make(tmp_path)
    seen = []
    m = install(bundle, card, KEY, lambda s, p: seen.append((s, p)))
    system = (tmp_path / "system.ext4").read_bytes()
    assert card.devices["b"].read_bytes()[:len(system)] == system
    assert card.devices["a"].read_bytes() == b"a" * SLOT_BYTES, "the running slot is never touched"
    assert (card.fat / "vmlinuz-b").read_bytes() == (tmp_path / "vmlinuz").read_bytes()
    assert (card.fat / "initrd-b.img").read_bytes() == (tmp_path / "initrd.img").read_bytes()
    assert BootState(card.fat).read_try() == Try("try", "b", 1, "a")
    assert starts(card) == "b" and m.version == "1.0-test"
    assert [s for s, _ in seen][0] == "checking" and seen[-1] == ("restarting", 100)
    assert len((card.fat / "try.txt").read_bytes()) == 64 and len((card.fat / "slot.txt").read_bytes()) == len(slot_text("a"))

    # the new slot's first start: ready -> it stays
    card.running = "b"
    assert boot_check(card, lambda: None, lambda: pytest.fail("no reboot")) == "installed"
    assert starts(card) == "b" and BootState(card.fat).read_try() == Try("ok", "b")
    assert read_status()["state"] == "installed"
    write_status("trying", version="1.0")  # the plug pulled between try.txt's "ok" and status.json
    assert boot_check(card, lambda: pytest.fail("not waited"), lambda: pytest.fail("no reboot")) == "installed"
    assert read_status()["state"] == "installed"
    assert boot_check(card, lambda: pytest.fail("not waited"), lambda: pytest.fail("no reboot")) == "idle"


def test_a_new_slot_that_does_not_get_ready_sends_the_card_back(card: Box, tmp_path: Path) -> None:
    install(make(tmp_path), card, KEY)
    card.running = "b"
    reboots = []
    assert boot_check(card, lambda: "unit", lambda: reboots.append(1)) == "refused"
    assert reboots == [1] and starts(card) == "a"
    assert BootState(card.fat).read_try() == Try("refused", "b", fallback="a", reason="unit")
    card.running = "a"  # the old slot starts and says why, once
    assert boot_check(card, lambda: pytest.fail("not waited"), lambda: pytest.fail("no reboot")) == "refused"
    assert read_status()["reason"] == "unit" and BootState(card.fat).read_try() == Try()
    assert boot_check(card, lambda: None, lambda: None) == "idle"


@pytest.mark.parametrize("at", ["checking", "writing", "restarting"])
def test_a_crash_at_any_step_leaves_the_running_slot_starting(card: Box, tmp_path: Path, at: str) -> None:
    bundle = make(tmp_path, system_bytes=SLOT_BYTES)

    def crash(state: str, percent: int) -> None:
        if state == at and (at != "writing" or percent > 0):
            raise KeyboardInterrupt  # the plug, as far as this process can tell

    with pytest.raises(KeyboardInterrupt):
        install(bundle, card, KEY, crash)
    if at == "restarting":  # everything written and switched: the new slot starts next
        assert starts(card) == "b"
        return
    assert starts(card) == "a"
    result = boot_check(card, lambda: pytest.fail("not waited"), lambda: pytest.fail("no reboot"))
    assert result == ("failed" if at == "writing" else "idle")
    assert starts(card) == "a" and BootState(card.fat).read_try() == Try()
    install(bundle, card, KEY)  # and it installs again
    assert starts(card) == "b"


def test_a_refused_install_leaves_nothing_under_way(card: Box, tmp_path: Path) -> None:
    """A bundle whose system does not match its manifest is found out while it is written: nothing is
    switched, try.txt says nothing is under way (not `writing b`), nothing is left aside on the FAT."""
    bundle = make(tmp_path)
    data = bytearray(bundle.read_bytes())
    data[len(data.rstrip(b"\0")) - 10] ^= 0xFF  # inside system.img.gz
    bundle.write_bytes(data)
    with pytest.raises(BundleError, match="nothing was switched") as refused:
        install(bundle, card, KEY)
    assert refused.value.code == "changed"
    assert starts(card) == "a" and BootState(card.fat).read_try() == Try()
    assert sorted(p.name for p in card.fat.iterdir()) == ["slot.txt", "try.txt"]


def test_refusals_before_a_byte_is_written(card: Box, tmp_path: Path) -> None:
    older = make(tmp_path, "old.bundle", built=1_600_000_000)
    with pytest.raises(BundleError, match="older"):
        install(older, card, KEY)
    assert card.devices["b"].read_bytes() == b"b" * SLOT_BYTES and BootState(card.fat).read_try() == Try()
    big = make(tmp_path, "big.bundle", system_bytes=SLOT_BYTES + 4096)
    with pytest.raises(InstallError, match="does not fit"):
        install(big, card, KEY)
    del card.devices["b"]
    with pytest.raises(NoSlot, match="Raspberry Pi Imager"):
        install(make(tmp_path), card, KEY)
    card.devices["b"] = tmp_path / "slot-b"
    BootState(card.fat).write_try(Try("try", "b", 1, "a"))
    with pytest.raises(InstallError, match="being tried"):
        install(make(tmp_path), card, KEY)


def test_a_system_of_zeros_is_written_in_small_pieces(tmp_path: Path) -> None:
    """An ext4 image is mostly zeros: a megabyte of them gzipped inflates to a gigabyte. The install
    holds a few megabytes at a time (a Pi Zero 2 W has 512 MB; QEMU's 1 GB box was killed for it)."""
    import tracemalloc

    size = 96 << 20
    fat = tmp_path / "fat"
    fat.mkdir()
    (fat / "slot.txt").write_text(slot_text("a"))
    box = Box(fat, "a", {"a": tmp_path / "a", "b": tmp_path / "b"})
    for dev in box.devices.values():
        with open(dev, "wb") as f:
            f.truncate(size)
    bundle = make(tmp_path, system_bytes=size)
    seen = []
    tracemalloc.start()
    try:
        install(bundle, box, KEY, lambda state, percent: seen.append(percent) if state == "writing" else None)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (tmp_path / "b").read_bytes() == (tmp_path / "system.ext4").read_bytes()
    assert peak < 24 << 20, f"{peak >> 20} MiB held at once"
    assert seen[-1] == 100 and max(b - a for a, b in zip(seen, seen[1:])) <= 5, \
        f"the write's progress goes in small steps, through the zeros too: {seen}"


def test_try_txt_lines_read_back_and_junk_is_none() -> None:
    for t in (Try(), Try("writing", "b"), Try("try", "a", 1, "b"), Try("ok", "a"), Try("refused", "b", fallback="a", reason="cut")):
        assert parse_try(t.line()) == t
    for junk in ("", "try", "try c 1 a", "try b x a", "writing", "refused b", "\0\0\0", "ok z"):
        assert parse_try(junk) == Try()


def test_wait_ready_gives_up_on_a_failing_unit_and_on_the_deadline() -> None:
    clock = iter(range(0, 10_000, 5)).__next__
    assert wait_ready(lambda u: ("active", 0), lambda: True, 60, clock, lambda s: None) is None
    assert wait_ready(lambda u: ("activating", 3 if u == "companion.service" else 0), lambda: False, 60,
                      clock, lambda s: None) == "unit"
    assert wait_ready(lambda u: ("failed", 0), lambda: False, 60, clock, lambda s: None) == "unit"
    assert wait_ready(lambda u: ("active", 0), lambda: False, 60, clock, lambda s: None) == "ready"


@pytest.mark.parametrize("request_text", ["[1]", '{"bundle": 7}', '{"bundle": "relative.bundle"}', "{", "\x00" * 10,
                                          '{"bundle": "/x\\u0000y"}', "[" * 50_000])
def test_a_request_that_names_no_bundle_is_one_line(tmp_path: Path, capsys, request_text: str) -> None:
    from companion.cli import main

    folder = tmp_path / "update"
    folder.mkdir()
    (folder / "request.json").write_text(request_text)
    status = main(["update", "install", "--request", "--update-dir", str(folder)])
    out = capsys.readouterr()
    assert status == 2 and len(out.err.strip().splitlines()) == 1 and "no request" in out.err, out
    assert not (folder / "request.json").exists(), "a request is used once, whatever it holds"


def test_each_slot_keeps_its_version_and_bundle_hash(card: Box, tmp_path: Path, capsys) -> None:
    import hashlib
    import json

    from companion.cli import main
    from companion.update.status import read_slots

    bundle = make(tmp_path)
    install(bundle, card, KEY)
    slots = read_slots()
    assert slots["b"]["version"] == "1.0-test" and slots["b"]["state"] == "written"
    assert slots["b"]["bundle_sha256"] == hashlib.sha256(bundle.read_bytes()).hexdigest(), "the file's own sha256sum"
    card.running = "b"
    boot_check(card, lambda: None, lambda: pytest.fail("no reboot"))
    assert read_slots()["b"]["state"] == "kept" and read_slots()["b"]["bundle_sha256"]
    capsys.readouterr()
    main(["update", "status", "--update-dir", str(tmp_path / "update")])
    assert json.loads(capsys.readouterr().out)["slots"]["b"]["state"] == "kept"


@pytest.mark.parametrize("code", ["it", "es", "fr", "de"])
def test_a_refusal_keeps_its_reason_for_the_page_and_the_oled(card: Box, tmp_path: Path, monkeypatch, capsys,
                                                              code: str) -> None:
    """`companion update install` of a bundle signed by another key: exit 2, status.json says `failed`
    with the reason code `key`, which the page and the OLED say in the table's language."""
    from companion import i18n
    from companion.cli import main
    from companion.table import texts as T
    from tests.update.bundles import other_key

    monkeypatch.setattr("companion.update.cli.detect", lambda: card)
    monkeypatch.setattr("companion.update.box.TRUSTED_KEY", TEST_PUBLIC)
    folder = tmp_path / "update"
    bad = make(tmp_path, key=other_key(tmp_path))
    assert main(["update", "install", str(bad), "--no-reboot", "--update-dir", str(folder)]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    status = read_status(folder)
    assert status["state"] == "failed" and status["reason"] == "key"
    english = T.update_news(status["state"], status["reason"], "")
    assert english == ("The update was not installed (it is not signed with this box's key): the box runs as before. "
                       "Nothing was lost.")
    try:
        i18n.set_language(code)
        said = T.update_news(status["state"], status["reason"], "")
    finally:
        i18n.set_language("en")
    assert said != english and "signed" not in said, f"{code}: {said}"
    assert starts(card) == "a" and BootState(card.fat).read_try() == Try()
