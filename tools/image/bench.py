#!/usr/bin/env python3
"""The image's numbers beside a plain Debian arm64 root booted the same way (README's table).

    sudo .venv/bin/python tools/image/bench.py [--image build/image/clans-companion.img.xz]

1. A plain root: `mmdebstrap` minbase with systemd, udev, the same kernel and the same small
   initrd (tools/image/rootfs's initramfs settings), the serial console logging in by itself;
   its build time, its size as an ext4 image raw and as .xz.
2. Both booted with the same `qemu-system-aarch64 -M virt -cpu cortex-a53 -smp 2 -m 1024`:
   seconds from QEMU's start to the serial console's login, the kernel's monotonic time at
   which multi-user.target (plain) or the companion's READY (the image) was reached, and for
   the image the page's first answer through the forwarded port.
Prints one line per figure; build/image/build-times.txt (from build.sh) has the image's build.
Needs root (mmdebstrap), QEMU and the built image; writes its work to a temporary directory.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "image"))

from image_machine import Card, Machine  # noqa: E402

PLAIN = "systemd-sysv,udev,kmod,linux-image-arm64,initramfs-tools,zstd"
ROOTFS = ROOT / "tools" / "image" / "rootfs"


def mirror() -> str:
    out = subprocess.run(["bash", "-c", "grep -rhoE '(URIs:|deb) +https?://[^ ]+/debian/?' /etc/apt/sources.list "
                          "/etc/apt/sources.list.d/ 2>/dev/null | grep -v security | head -1 | awk '{print $2}'"],
                         capture_output=True, text=True)
    return out.stdout.strip() or "http://deb.debian.org/debian"


def plain_root(work: Path) -> tuple[float, Path, Path, Path]:
    """Build the plain root and its ext4 image; (build seconds, image, kernel, initrd)."""
    root = work / "plain"
    hook = (f'mkdir -p "$1/etc/initramfs-tools/conf.d" "$1/etc/initramfs-tools/hooks"; '
            f'cp {ROOTFS}/etc/initramfs-tools/conf.d/companion-box "$1/etc/initramfs-tools/conf.d/"; '
            f'cp {ROOTFS}/etc/initramfs-tools/hooks/companion-box "$1/etc/initramfs-tools/hooks/"; '
            f'mkdir -p "$1/etc/systemd/system/serial-getty@.service.d"; '
            f'cp {ROOTFS}/etc/systemd/system/serial-getty@.service.d/autologin.conf '
            f'"$1/etc/systemd/system/serial-getty@.service.d/"; '
            f'echo "LABEL=plain-root / ext4 ro 0 1" > "$1/etc/fstab"')
    start = time.monotonic()
    subprocess.run(["mmdebstrap", "--architectures=arm64", "--variant=minbase", f"--include={PLAIN}",
                    "--aptopt=APT::Install-Recommends \"false\"", f"--setup-hook={hook}",
                    "bookworm", str(root), mirror()], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    took = time.monotonic() - start
    kver = sorted(p.name for p in (root / "lib" / "modules").iterdir())[-1]
    kernel, initrd = work / "plain-vmlinuz", work / "plain-initrd.img"
    shutil.copy(root / "boot" / f"vmlinuz-{kver}", kernel)
    shutil.copy(root / "boot" / f"initrd.img-{kver}", initrd)
    used = int(subprocess.run(["du", "-sb", "--apparent-size", str(root)], capture_output=True, text=True,
                              check=True).stdout.split()[0])
    img = work / "plain.img"
    size_mb = used * 115 // 100 // (1 << 20) + 64
    subprocess.run(["mkfs.ext4", "-q", "-L", "plain-root", "-d", str(root), str(img), f"{size_mb}M"], check=True,
                   stdout=subprocess.DEVNULL)
    return took, img, kernel, initrd


def plain(work: Path) -> list[str]:
    """The plain root's figures: build, size, boot."""
    took, img, kernel, initrd = plain_root(work)
    raw = img.stat().st_size
    subprocess.run(["xz", "-T0", "-3", "-k", str(img)], check=True)
    packed = Path(str(img) + ".xz").stat().st_size
    lines = [f"plain: built in {took:.0f} s; {raw / 1e6:.0f} MB raw, {packed / 1e6:.0f} MB .xz"]
    subprocess.run(["truncate", "-s", "4G", str(img)], check=True)
    machine = Machine(Card.existing(img), kernel, initrd, work / "plain.log",
                      cmdline="root=LABEL=plain-root ro console=ttyAMA0")
    return lines + ["plain: " + line for line in boot(machine, "multi-user.target", page=False)]


def boot(machine: Machine, unit: str, page: bool) -> list[str]:
    out = []
    if page:
        machine.wait_page(900)
        out.append(f"page answered {time.monotonic() - machine.started:5.1f} s after QEMU started")
    machine.wait_for(r"login: root \(automatic login\)", 900)
    out.append(f"login on the serial console {time.monotonic() - machine.started:5.1f} s after QEMU started")
    machine.shell(900)
    us = int(machine.run(f"systemctl show -p ActiveEnterTimestampMonotonic --value {unit}") or 0)
    what = "the companion's READY" if unit == "companion" else f"{unit} reached"
    out.append(f"{what} at {us / 1e6:5.1f} s after the kernel started")
    machine.kill()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--image", type=Path, default=ROOT / "build" / "image" / "clans-companion.img.xz")
    parser.add_argument("--no-plain", action="store_true", help="only the image (the plain root takes minutes)")
    args = parser.parse_args()
    lines = Lines()
    with tempfile.TemporaryDirectory(dir="/var/tmp") as tmp:
        work = Path(tmp)
        if not args.no_plain:
            lines += plain(work)
        card = Card(args.image, work / "card.img", size="4G")
        k, i = card.kernel_and_initrd(work)
        image = Machine(card, k, i, work / "image.log")
        lines += ["image: " + line for line in boot(image, "companion", page=True)]
    return 0


class Lines(list):
    """Each figure printed as soon as it is measured (the whole run takes minutes)."""

    def append(self, line: str) -> None:
        print(line, flush=True)
        super().append(line)

    def __iadd__(self, more):
        for line in more:
            self.append(line)
        return self


if __name__ == "__main__":
    sys.exit(main())
