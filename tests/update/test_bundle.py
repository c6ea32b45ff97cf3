"""`companion update verify`: a whole bundle signed by the trusted key passes; anything else exits 2
with one line. Bundles are written by tools/image/bundle.py, signed by openssl as on the builder.
Off the image no key is trusted by default: these checks give the test key's public half with --key."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.cli import main
from tests.update.bundles import TEST_PUBLIC, make, needs_openssl, other_key

pytestmark = needs_openssl


def verify(capsys, *args: str) -> tuple[int, str]:
    if "--key" not in args:
        args = (*args, "--key", str(TEST_PUBLIC))
    status = main(["update", "verify", *args])
    out = capsys.readouterr()
    return status, (out.out + out.err).strip()


def test_a_whole_bundle_signed_by_the_test_key_passes(tmp_path: Path, capsys) -> None:
    bundle = make(tmp_path)
    status, line = verify(capsys, str(bundle))
    assert status == 0, line
    assert "whole and signed" in line and "version 1.0-test" in line and len(line.splitlines()) == 1


@pytest.mark.parametrize("cut", ["empty", "head", "manifest", "middle", "last byte"])
def test_a_bundle_cut_short_is_refused(tmp_path: Path, capsys, cut: str) -> None:
    data = make(tmp_path).read_bytes()
    keep = {"empty": 0, "head": 100, "manifest": 700, "middle": len(data) // 2, "last byte": len(data) - 1}[cut]
    # the tar's end (two zero blocks) is not data: cut into the last member itself
    if cut == "last byte":
        keep = len(data.rstrip(b"\0")) - 1
    bad = tmp_path / "cut.bundle"
    bad.write_bytes(data[:keep])
    status, line = verify(capsys, str(bad))
    assert status == 2 and len(line.splitlines()) == 1, line
    assert ("empty" in line) if cut == "empty" else ("cut short" in line or "not an update bundle" in line), line


def test_a_changed_byte_anywhere_is_refused(tmp_path: Path, capsys) -> None:
    data = bytearray(make(tmp_path).read_bytes())
    end = len(bytes(data).rstrip(b"\0"))
    rnd = random.Random(44)
    for _ in range(25):
        changed = bytearray(data)
        i = rnd.randrange(end)
        changed[i] ^= 1 << rnd.randrange(8)
        bad = tmp_path / "changed.bundle"
        bad.write_bytes(changed)
        status, line = verify(capsys, str(bad))
        assert status == 2 and len(line.splitlines()) == 1, (i, line)


def test_another_key_another_board_and_an_older_version_are_refused(tmp_path: Path, capsys, monkeypatch) -> None:
    status, line = verify(capsys, str(make(tmp_path, "other.bundle", key=other_key(tmp_path))))
    assert status == 2 and "another key" in line, line
    status, line = verify(capsys, str(make(tmp_path, "board.bundle", board="x86-64")))
    assert status == 2 and "another board" in line, line
    old = make(tmp_path, "old.bundle", built=1_700_000_000)
    version = tmp_path / "image-version"
    version.write_text("IMAGE_VERSION=1.1\nIMAGE_BUILT=1750000000\nIMAGE_BOARD=rpi-arm64\n")
    monkeypatch.setattr("companion.update.cli.running_build", lambda: __import__(
        "companion.update.box", fromlist=["x"]).running_build(version))
    status, line = verify(capsys, str(old))
    assert status == 2 and "older" in line and "--allow-downgrade" in line, line
    assert verify(capsys, str(old), "--allow-downgrade")[0] == 0


def test_a_bundle_verified_with_the_other_key_passes_only_with_that_key(tmp_path: Path, capsys) -> None:
    import subprocess

    key = other_key(tmp_path)
    pub = tmp_path / "other.pub.pem"
    subprocess.run(["openssl", "pkey", "-in", str(key), "-pubout", "-out", str(pub)], check=True)
    bundle = make(tmp_path, key=key)
    assert verify(capsys, str(bundle), "--key", str(pub))[0] == 0
    assert verify(capsys, str(make(tmp_path, "test.bundle")), "--key", str(pub))[0] == 2


def test_not_a_bundle_at_all(tmp_path: Path, capsys) -> None:
    rnd = random.Random(7)
    for i in range(20):
        junk = tmp_path / f"junk{i}"
        junk.write_bytes(rnd.randbytes(rnd.randrange(1, 20000)))
        status, line = verify(capsys, str(junk))
        assert status == 2 and len(line.splitlines()) == 1, line
    status, line = verify(capsys, str(tmp_path / "missing.bundle"))
    assert status == 2, line
