"""Bundles for the tests, written by tools/image/bundle.py (openssl signs, as on the builder)."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TEST_KEY = Path(__file__).with_name("keys") / "test-update-key.pem"
TEST_PUBLIC = TEST_KEY.with_name("test-update-key.pub.pem")
_spec = importlib.util.spec_from_file_location("image_bundle", REPO / "tools" / "image" / "bundle.py")
maker = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(maker)

needs_openssl = pytest.mark.skipif(shutil.which("openssl") is None,
                                   reason="openssl is missing (apt-get install openssl): bundles cannot be signed")


def parts(tmp: Path, system_bytes: int = 3 << 20, seed: int = 1) -> tuple[Path, Path, Path]:
    """A small "system" (random bytes and zeros, as an ext4 image has), a kernel, an initramfs."""
    rnd = __import__("random").Random(seed)
    system = tmp / "system.ext4"
    system.write_bytes(rnd.randbytes(system_bytes // 3) + bytes(system_bytes - system_bytes // 3))
    kernel, initrd = tmp / "vmlinuz", tmp / "initrd.img"
    kernel.write_bytes(b"kernel " + rnd.randbytes(5000))
    initrd.write_bytes(b"initrd " + rnd.randbytes(3000))
    return system, kernel, initrd


def make(tmp: Path, name: str = "good.bundle", key: Path = TEST_KEY, built: int = 1_800_000_000,
         board: str = "rpi-arm64", version: str = "1.0-test", **kw) -> Path:
    system, kernel, initrd = parts(tmp, **kw)
    out = tmp / name
    maker.write_bundle(system, kernel, initrd, version, built, key, out, board)
    return out


def other_key(tmp: Path) -> Path:
    key = tmp / "other-key.pem"
    subprocess.run(["openssl", "genpkey", "-algorithm", "ed25519", "-out", str(key)], check=True, capture_output=True)
    os.chmod(key, 0o600)
    return key


def resigned(bundle: Path, out: Path, key: Path = TEST_KEY, **changes) -> Path:
    """`bundle` with its manifest changed (`built`, `version` ...) and signed again by `key`; the
    payload copied as it is (a newer build of the same system, without inflating it)."""
    import json
    import tarfile

    with tarfile.open(bundle, "r|") as src, tarfile.open(out, "w", format=tarfile.USTAR_FORMAT) as dst:
        for info in src:
            data = src.extractfile(info)
            if info.name == "manifest.json":
                manifest = {**json.loads(data.read()), **changes}
                body = (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode()
                (out.parent / "manifest.json").write_bytes(body)
                maker.sign(key, out.parent / "manifest.json", out.parent / "manifest.sig")
                for name in ("manifest.json", "manifest.sig"):
                    path = out.parent / name
                    with open(path, "rb") as f:
                        dst.addfile(maker._info(name, path.stat().st_size), f)
            elif info.name != "manifest.sig":
                dst.addfile(info, data)
    return out
