"""`companion update verify`: a whole bundle signed by the trusted key passes; anything else exits 2
with one line. Bundles are written by tools/image/bundle.py, signed by openssl as on the builder.
Off the image no key is trusted by default: these checks give the test key's public half with --key."""

from __future__ import annotations

import io
import os
import random
import shutil
import subprocess
import tarfile
import time
from pathlib import Path

import pytest

from companion.cli import main
from companion.update.bundle import BundleError, check, load_key
from companion.update.status import INSTALL_REASONS as REASONS
from tests.update.bundles import TEST_PUBLIC, make, maker, needs_openssl, other_key, resigned

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


def signed_with_manifest(tmp_path: Path, **changes) -> Path:
    """A bundle whose manifest says `changes` (any JSON values) and is signed by the test key."""
    return resigned(make(tmp_path), tmp_path / "lying.bundle", **changes)


def unsigned_manifest(tmp_path: Path, manifest: bytes) -> Path:
    """A bundle whose manifest.json is `manifest` (not what was signed): the signature is another's."""
    good = make(tmp_path)
    out = tmp_path / "unsigned.bundle"
    with tarfile.open(good) as src, tarfile.open(out, "w", format=tarfile.USTAR_FORMAT) as dst:
        for info in src.getmembers():
            data = src.extractfile(info).read()
            if info.name == "manifest.json":
                data = manifest
            dst.addfile(maker._info(info.name, len(data)), io.BytesIO(data))
    return out


@pytest.mark.parametrize("manifest", [
    b'{"format": 1, "product": "clans-companion", "built": 1e999}',
    b"[" * 60_000,
    b'{"key_id": "ab\\ncd\\nef", "built": 1800000000}',
    b'{"version": "1.0\\u001b[2J\\u001b]0;pwned\\u0007", "files": {}}',
    b"\xff\xfe" + "not json".encode("utf-16-le"),
    b"",
], ids=["huge built", "deep", "key id with newlines", "terminal escapes", "utf-16", "empty"])
def test_an_unsigned_manifest_is_never_parsed(tmp_path: Path, capsys, manifest: bytes) -> None:
    status, line = verify(capsys, str(unsigned_manifest(tmp_path, manifest)))
    assert status == 2 and len(line.splitlines()) == 1, line
    assert "signed" in line and "\x1b" not in line, line


@pytest.mark.parametrize("changes", [
    {"built": 10**20}, {"built": 1.8e9}, {"built": True}, {"built": 100}, {"version": "2.0\nrm -rf /"},
    {"version": "\x1b[31mred"}, {"version": ""}, {"version": "x" * 200}, {"key_id": "a\nb"},
    {"board": "rpi-arm64\n"}, {"files": {"boot.tar": {}, "system.img.gz": []}}, {"files": []}, {"format": 2},
    {"files": {"boot.tar": {"size": -1, "sha256": "0" * 64},
               "system.img.gz": {"size": 1, "sha256": "0" * 64, "raw_size": 1, "raw_sha256": "0" * 64}}},
], ids=lambda c: repr(c)[:40])
def test_a_signed_manifest_out_of_bounds_is_one_line(tmp_path: Path, capsys, changes: dict) -> None:
    status, line = verify(capsys, str(signed_with_manifest(tmp_path, **changes)))
    assert status == 2 and len(line.splitlines()) == 1, line
    assert "manifest is signed but not one this companion reads" in line and "\x1b" not in line, line


def test_other_doors_end_in_one_line(tmp_path: Path, capsys) -> None:
    """A folder, an empty name, a device, a pipe: each refused at once in one line, never waited on."""
    fifo = tmp_path / "pipe.bundle"
    os.mkfifo(fifo)
    good = make(tmp_path)
    for args, says in (([str(tmp_path)], "is a folder"), ([""], "empty"), (["/dev/zero"], "device"),
                       ([str(fifo)], "is a pipe"), ([str(good), "--key", "/dev/zero"], "device"),
                       ([str(good), "--key", str(fifo)], "is a pipe"), ([str(good), "--key", str(tmp_path)], "folder"),
                       ([str(good), "--key", str(good)], "not a key")):
        started = time.monotonic()
        status, line = verify(capsys, *args)
        assert status == 2 and len(line.splitlines()) == 1 and says in line, (args, line)
        assert time.monotonic() - started < 5, f"{args}: waited"


def test_a_name_a_terminal_cannot_print_is_escaped(tmp_path: Path, capsys) -> None:
    odd = tmp_path / "new\nline\x1b[2J.bundle"
    make(tmp_path).replace(odd)
    status, line = verify(capsys, str(odd))
    assert status == 0 and len(line.splitlines()) == 1 and "\x1b" not in line and "\\u000a" in line, line
    status, line = verify(capsys, str(odd) + ".missing")
    assert status == 2 and len(line.splitlines()) == 1 and "\x1b" not in line, line


def test_without_a_key_of_its_own_verify_refuses(tmp_path: Path, capsys) -> None:
    status = main(["update", "verify", str(make(tmp_path))])
    out = capsys.readouterr()
    line = (out.out + out.err).strip()
    assert status == 2 and "trusts no update key" in line and "--key" in line and len(line.splitlines()) == 1


def test_a_bundle_gnu_tar_wrote_is_read_the_same(tmp_path: Path, capsys) -> None:
    """The bundle's reader knows ustar as GNU tar writes it, not only as Python's tarfile does."""
    if shutil.which("tar") is None:
        pytest.skip("GNU tar is missing")
    good = make(tmp_path)
    parts = tmp_path / "parts"
    parts.mkdir()
    subprocess.run(["tar", "-xf", str(good), "-C", str(parts)], check=True)
    again = tmp_path / "gnu.bundle"
    subprocess.run(["tar", "--format=ustar", "-cf", str(again), "-C", str(parts), "manifest.json", "manifest.sig",
                    "boot.tar", "system.img.gz"], check=True)
    assert again.read_bytes() != good.read_bytes()
    status, line = verify(capsys, str(again))
    assert status == 0, line


def test_seeded_fuzzing_of_the_reader_and_the_manifest(tmp_path: Path) -> None:
    """Bytes changed in the headers, cut anywhere, members shuffled, signed manifests of random JSON:
    every outcome is a pass or a BundleError, never another exception."""
    good = make(tmp_path).read_bytes()
    key = load_key(TEST_PUBLIC)
    rnd = random.Random(52)
    path = tmp_path / "fuzz.bundle"
    head = 4096
    passed = 0
    for case in range(300):
        data = bytearray(good)
        kind = case % 3
        if kind == 0:  # bytes changed where the headers and the manifest are
            for _ in range(rnd.randint(1, 8)):
                data[rnd.randrange(head)] = rnd.randrange(256)
        elif kind == 1:
            data = data[:rnd.randrange(len(data))]
        else:
            data[rnd.randrange(head):rnd.randrange(head)] = rnd.randbytes(rnd.randrange(1, 1024))
        path.write_bytes(bytes(data))
        try:
            check(path, key)
            passed += 1
        except BundleError as exc:
            assert "\n" not in str(exc) and exc.code in REASONS, (case, exc)
    assert passed < 10, "almost every change is refused"
    values = [None, True, -1, 0, 1.5, 10**30, "", "x" * 10_000, [], {}, [[[[]]]], {"a": {"b": {}}}, "\u202e"]
    for case in range(60):
        changes = {rnd.choice(["format", "product", "board", "version", "built", "key_id", "files"]): rnd.choice(values)
                   for _ in range(rnd.randint(1, 3))}
        bundle = resigned(make(tmp_path), tmp_path / "resigned.bundle", **changes)
        try:
            check(bundle, key)
        except BundleError as exc:
            assert "\n" not in str(exc) and exc.code in REASONS, (changes, exc)
