#!/usr/bin/env python3
"""bundle.py: write a signed update bundle of the SD-card image (companion/update/bundle.py reads it).

    tools/image/bundle.py --system ROOT.ext4 --kernel VMLINUZ --initrd INITRD.IMG \\
        --version V --built UNIX_SECONDS --key PRIVATE.pem --out OUT.bundle

build.sh calls it with the system partition it made; tests call it to make bundles of their own
(another key, a broken system). Standard library and `openssl` only (the builder's machine, as
root, before any virtualenv): the ed25519 signature is `openssl pkeyutl -sign -rawin`. The
bundle is a tar: manifest.json, manifest.sig, boot.tar (vmlinuz, initrd.img), system.img.gz.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

PRODUCT = "clans-companion"
BOARD = "rpi-arm64"
CHUNK = 1 << 20


def _info(name: str, size: int) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.size, info.mode, info.mtime = size, 0o644, 0
    return info


def public_raw(key: Path) -> bytes:
    """The 32 raw bytes of `key`'s ed25519 public key (the end of its DER form)."""
    der = subprocess.run(["openssl", "pkey", "-in", str(key), "-pubout", "-outform", "DER"],
                         capture_output=True, check=True).stdout
    return der[-32:]


def sign(key: Path, data: Path, out: Path) -> None:
    subprocess.run(["openssl", "pkeyutl", "-sign", "-inkey", str(key), "-rawin", "-in", str(data),
                    "-out", str(out)], check=True, capture_output=True)


def gzip_system(system: Path, out: Path) -> dict:
    raw, size = hashlib.sha256(), 0
    with open(system, "rb") as src, open(out, "wb") as dst:
        with gzip.GzipFile(fileobj=dst, mode="wb", compresslevel=6, mtime=0) as gz:
            while chunk := src.read(CHUNK):
                raw.update(chunk)
                size += len(chunk)
                gz.write(chunk)
    packed = hashlib.sha256()
    with open(out, "rb") as f:
        while chunk := f.read(CHUNK):
            packed.update(chunk)
    return {"size": out.stat().st_size, "sha256": packed.hexdigest(), "raw_size": size, "raw_sha256": raw.hexdigest()}


def boot_tar(kernel: Path, initrd: Path, out: Path) -> dict:
    with tarfile.open(out, "w", format=tarfile.USTAR_FORMAT) as tar:
        for name, path in (("vmlinuz", kernel), ("initrd.img", initrd)):
            with open(path, "rb") as f:
                tar.addfile(_info(name, path.stat().st_size), f)
    return {"size": out.stat().st_size, "sha256": hashlib.sha256(out.read_bytes()).hexdigest()}


def write_bundle(system: Path, kernel: Path, initrd: Path, version: str, built: int, key: Path, out: Path,
                 board: str = BOARD) -> dict:
    """Write the bundle at `out`; its manifest (as a dict)."""
    with tempfile.TemporaryDirectory(dir=out.parent) as tmp_name:
        tmp = Path(tmp_name)
        files = {"boot.tar": boot_tar(kernel, initrd, tmp / "boot.tar"),
                 "system.img.gz": gzip_system(system, tmp / "system.img.gz")}
        manifest = {"format": 1, "product": PRODUCT, "board": board, "version": version, "built": built,
                    "key_id": hashlib.sha256(public_raw(key)).hexdigest()[:16], "files": files}
        (tmp / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
        sign(key, tmp / "manifest.json", tmp / "manifest.sig")
        part = out.with_name(out.name + ".part")
        with tarfile.open(part, "w", format=tarfile.USTAR_FORMAT) as tar:
            for name in ("manifest.json", "manifest.sig", "boot.tar", "system.img.gz"):
                with open(tmp / name, "rb") as f:
                    tar.addfile(_info(name, (tmp / name).stat().st_size), f)
        part.replace(out)
    return manifest


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name in ("system", "kernel", "initrd", "key", "out"):
        p.add_argument(f"--{name}", type=Path, required=True)
    p.add_argument("--version", required=True)
    p.add_argument("--built", type=int, required=True)
    p.add_argument("--board", default=BOARD)
    a = p.parse_args(argv)
    if shutil.which("openssl") is None:
        print("bundle: error: openssl is missing (apt-get install openssl)", file=sys.stderr)
        return 2
    m = write_bundle(a.system, a.kernel, a.initrd, a.version, a.built, a.key, a.out, a.board)
    print(f"bundle: {a.out} ({a.out.stat().st_size // 1000000} MB), version {m['version']}, key {m['key_id']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
