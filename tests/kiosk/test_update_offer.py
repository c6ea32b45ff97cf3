"""A USB stick's update on the OLED: the kiosk asks, # asks root to install it (request.json), * keeps
what runs; a bundle that may not be installed is only told; the last update's outcome is told once.
The root side (`companion update offer`) mounts the stick and writes offer.json: here with a folder
for the stick."""

from __future__ import annotations

import json
import queue
import time
from pathlib import Path

import pytest

from companion.hw.keyevents import UpdateNews, UpdateOffer
from companion.kiosk.update_watch import UpdateWatch
from companion.update import usb
from companion.update.bundle import load_key
from companion.update.status import write_status
from tests.update.bundles import TEST_PUBLIC, make, needs_openssl, other_key
from tests.web.webtools import table

KEY = load_key(TEST_PUBLIC)


def test_hash_installs_the_offer_and_star_keeps_what_runs(tmp_path: Path) -> None:
    d = table(tmp_path / "state", "--players", "2", "--seed", "3")
    before = d.shell.screen().name
    d.step(UpdateOffer("2.0", "/run/companion-usb/sda1/clans-companion.bundle"))
    screen = d.shell.screen()
    assert screen.name == "update?" and "2.0" in " ".join(screen.lines) and screen.confirm
    d.step("*")
    assert d.shell.screen().name == before and not (tmp_path / "state" / "update" / "request.json").exists()
    d.step(UpdateOffer("2.0", "/run/companion-usb/sda1/clans-companion.bundle"))
    d.step("#")
    request = json.loads((tmp_path / "state" / "update" / "request.json").read_text())
    assert request == {"bundle": "/run/companion-usb/sda1/clans-companion.bundle", "from": "usb"}
    assert d.shell.screen().name == "update-started"


def test_a_refused_bundle_and_the_outcome_are_told(tmp_path: Path) -> None:
    d = table(tmp_path / "state", "--players", "2", "--seed", "3")
    d.step(UpdateOffer("?", "/x.bundle", "x.bundle: it is signed by another key"))
    assert d.shell.screen().name == "update-refused" and "another key" in " ".join(d.shell.screen().lines)
    d.step("*")
    d.step(UpdateNews("refused", "unit", "1.0"))
    text = " ".join(d.shell.screen().lines)
    assert "refused" in text and "failed to start" in text
    assert not (tmp_path / "state" / "update" / "request.json").exists()


def test_the_watch_puts_each_new_offer_and_an_outcome_once(tmp_path: Path) -> None:
    folder = tmp_path / "update"
    folder.mkdir()
    got: queue.Queue = queue.Queue()
    watch = UpdateWatch(folder, got.put, started=time.time() - 5)
    watch.look()
    assert got.empty()
    (folder / "offer.json").write_text(json.dumps({"version": "2.0", "bundle": "/b.bundle", "problem": ""}))
    watch.look()
    watch.look()
    assert got.get_nowait() == UpdateOffer("2.0", "/b.bundle") and got.empty()
    write_status("installed", folder, version="2.0")
    watch.look()
    watch.look()
    assert got.get_nowait() == UpdateNews("installed", "", "2.0") and got.empty()
    (folder / "offer.json").write_text("{broken")
    watch.look()
    assert got.empty()


@needs_openssl
def test_offer_picks_the_newest_signed_bundle_on_the_stick(tmp_path: Path) -> None:
    stick = tmp_path / "mounts" / "sda1"
    stick.mkdir(parents=True)
    folder = tmp_path / "update"
    made = []
    mount = lambda device, where: made.append(("mount", device.name))  # noqa: E731  (the stick is a folder)
    umount = lambda where: made.append(("umount", where.name))  # noqa: E731
    assert usb.offer(Path("/dev/sda1"), folder, KEY, "rpi-arm64", None, tmp_path / "mounts", mount, umount) is None
    assert made == [("mount", "sda1"), ("umount", "sda1")] and not (folder / "offer.json").exists()
    make(tmp_path, "old.bundle", built=1_700_000_000, version="1.0").replace(stick / "old.bundle")
    make(tmp_path, "new.BUNDLE", built=1_800_000_000, version="2.0").replace(stick / "new.BUNDLE")
    body = usb.offer(Path("/dev/sda1"), folder, KEY, "rpi-arm64", 1_600_000_000, tmp_path / "mounts", mount, umount)
    assert body == {"version": "2.0", "bundle": str(stick / "new.BUNDLE"), "problem": "", "device": "sda1"}
    same = usb.offer(Path("/dev/sda1"), folder, KEY, "rpi-arm64", 1_800_000_000, tmp_path / "mounts", mount, umount)
    assert same is None, "a stick holding what runs (and an older one) offers nothing"
    usb.gone(Path("/dev/sdb1"), folder, tmp_path / "mounts", umount)
    assert (folder / "offer.json").exists(), "another stick's removal takes nothing back"
    usb.gone(Path("/dev/sda1"), folder, tmp_path / "mounts", umount)
    assert not (folder / "offer.json").exists()
    for p in stick.iterdir():
        p.unlink()
    make(tmp_path, "other.bundle", key=other_key(tmp_path)).replace(stick / "other.bundle")
    body = usb.offer(Path("/dev/sda1"), folder, KEY, "rpi-arm64", None, tmp_path / "mounts", mount, umount)
    assert body["problem"].startswith("other.bundle: it is signed by another key")


@needs_openssl
def test_each_bundle_on_a_stick_is_judged_alone(tmp_path: Path, monkeypatch) -> None:
    """A lying bundle (its unsigned manifest says "built": 1e999) beside a good one: the good one is
    offered; a stick whose reading fails anyway is unmounted, never left mounted."""
    stick = tmp_path / "mounts" / "sda1"
    stick.mkdir(parents=True)
    folder = tmp_path / "update"
    made = []
    mount = lambda device, where: made.append(("mount", device.name))  # noqa: E731
    umount = lambda where: made.append(("umount", where.name))  # noqa: E731
    good = make(tmp_path, "b.bundle", built=1_800_000_000, version="2.0").read_bytes()
    lying = bytearray(good)
    at = lying.index(b'"built": ') + 9
    lying[at:at + 10] = b"1e999     "
    (stick / "a-lying.bundle").write_bytes(bytes(lying))
    (stick / "b.bundle").write_bytes(good)
    (stick / "c.bundle").mkdir()  # a folder named like a bundle is not one
    body = usb.offer(Path("/dev/sda1"), folder, KEY, "rpi-arm64", 1_700_000_000, tmp_path / "mounts", mount, umount)
    assert body == {"version": "2.0", "bundle": str(stick / "b.bundle"), "problem": "", "device": "sda1"}
    assert made == [("mount", "sda1")], "mounted while its offer stands"
    made.clear()

    def broken(path, key):
        raise MemoryError  # whatever a reader could still raise: the stick is not left mounted

    monkeypatch.setattr(usb, "peek", broken)
    with pytest.raises(MemoryError):
        usb.offer(Path("/dev/sda1"), folder, KEY, "rpi-arm64", None, tmp_path / "mounts", mount, umount)
    assert made == [("mount", "sda1"), ("umount", "sda1")]


def test_news_of_the_last_update_does_not_drop_a_sticks_question(tmp_path: Path) -> None:
    """A box that starts after a refused update with a stick already in: the stick's question and
    the news come in either order; the news is read first if it came last, and the question is
    still there to answer (it was dropped: # then only dismissed the news)."""
    for news_first in (True, False):
        d = table(tmp_path / f"state{news_first}", "--players", "2", "--seed", "3")
        offer = UpdateOffer("2.0", "/run/companion-usb/sda1/clans-companion.bundle")
        news = UpdateNews("refused", "start", "1.0")
        for event in ((news, offer) if news_first else (offer, news)):
            d.step(event)
        if not news_first:
            assert d.shell.screen().name == "update-news"
            d.step("0")  # read: any key but # (which pages a long message) dismisses it
        assert d.shell.screen().name == "update?"
        d.step("#")
        assert (tmp_path / f"state{news_first}" / "update" / "request.json").exists()
        assert d.shell.screen().name == "update-started"
