"""A booted copy of the SD-card image in qemu-system-aarch64, driven from outside.

`Card` is a copy of the image (decompressed from the .img.xz as Raspberry Pi Imager would, once per
test run: `raw_image`; grown to a bigger card) whose FAT partition is read and written with mtools,
as any computer would write the settings card. `Machine` boots it (`-M virt`, the image's own kernel and
initrd from that FAT partition), reads the serial console line by line in a thread, runs
commands in the root shell the serial console logs into, and forwards a loopback port to the
page (port 8080 inside). Everything waits for what it reads, with generous deadlines: QEMU's
emulation is slow and its speed varies. `PiMachine` boots the card on QEMU's Raspberry Pi models
instead, from what the card's FAT holds for that board under its config.txt (`boot_files`).
"""

from __future__ import annotations

import atexit
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from tests.image import devicetree

FAT_OFFSET = "@@4M"  # build.sh starts the boot partition 4 MiB into the card
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")  # colours, bracketed paste: not part of what a command printed
VIRT_CMDLINE = "root=LABEL=clans-root ro rootwait console=ttyAMA0 net.ifnames=0 fsck.repair=yes"


_RAW: dict[Path, Path] = {}


def raw_image(image_xz: Path) -> Path:
    """The image as Raspberry Pi Imager writes it, decompressed from the .img.xz once per test run
    (xz takes 15 to 45 s a time on this 2-core machine, a sparse copy of its output about 1: every card
    copies this);
    a raw image (a developer's quicker loop) is itself. Read it, never write it."""
    if image_xz.suffix != ".xz":
        return image_xz
    raw = _RAW.get(image_xz)
    if raw is None or not raw.exists():
        folder = Path(tempfile.mkdtemp(prefix="companion-image-"))
        atexit.register(shutil.rmtree, folder, True)
        raw = folder / image_xz.stem
        with subprocess.Popen(["xz", "-dc", str(image_xz)], stdout=subprocess.PIPE) as xz, open(raw, "wb") as out:
            assert xz.stdout is not None
            while block := xz.stdout.read(1 << 20):
                if block.count(0) == len(block):
                    out.seek(len(block), os.SEEK_CUR)  # a hole: the zeros of the empty partitions
                else:
                    out.write(block)
            out.truncate()
        assert xz.returncode == 0, f"xz -dc {image_xz} failed ({xz.returncode})"
        _RAW[image_xz] = raw
    return raw


class Card:
    """A card holding the image, and its FAT boot partition through mtools."""

    def __init__(self, image_xz: Path, path: Path, size: str = "4G") -> None:
        self.path = path
        subprocess.run(["cp", "--sparse=always", str(raw_image(image_xz)), str(path)], check=True)
        subprocess.run(["truncate", "-s", size, str(path)], check=True)

    @classmethod
    def existing(cls, path: Path) -> "Card":
        """A disk image already in place (no FAT partition needed: the kernel comes from elsewhere)."""
        card = cls.__new__(cls)
        card.path = path
        return card

    def fat(self) -> str:
        return f"{self.path}{FAT_OFFSET}"

    def listing(self) -> list[str]:
        out = subprocess.run(["mdir", "-b", "-i", self.fat(), "::/"], capture_output=True, text=True, check=True)
        return [line.rsplit("/", 1)[-1] for line in out.stdout.split()]

    def read(self, name: str) -> bytes:
        return subprocess.run(["mtype", "-i", self.fat(), f"::/{name}"], capture_output=True, check=True).stdout

    def write(self, name: str, data: bytes, scratch: Path) -> None:
        scratch.write_bytes(data)
        subprocess.run(["mcopy", "-o", "-i", self.fat(), str(scratch), f"::/{name}"], check=True)

    def take(self, name: str, dest: Path) -> Path:
        subprocess.run(["mcopy", "-o", "-i", self.fat(), f"::/{name}", str(dest)], check=True)
        return dest

    def fat_bytes(self) -> bytes:
        """The whole FAT partition, free clusters included (what stays readable on the card)."""
        with open(self.path, "rb") as f:
            f.seek(4 << 20)
            return f.read(256 << 20)

    def kernel_and_initrd(self, into: Path) -> tuple[Path, Path]:
        """The kernel and initramfs a Pi 3's firmware starts from this card now (config.txt and
        the slot.txt it includes: system slot a or b)."""
        files = boot_files(self.read("config.txt").decode(), BOARDS["Pi 3B"], self.text)
        assert files.initramfs is not None, "config.txt names no initramfs"
        return self.take(files.kernel, into / "vmlinuz"), self.take(files.initramfs, into / "initrd.img")

    def text(self, name: str) -> str:
        """A text file of the FAT ('' when there is none: the firmware skips a missing include)."""
        done = subprocess.run(["mtype", "-i", self.fat(), f"::/{name}"], capture_output=True)
        return done.stdout.decode("ascii", "replace") if done.returncode == 0 else ""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Machine:
    """qemu-system-aarch64 -M virt on a card; the serial console as lines, the page on `port`."""

    def __init__(self, card: Card, kernel: Path, initrd: Path, log: Path, memory: str = "1024",
                 cmdline: str = VIRT_CMDLINE, extra: tuple[str, ...] = ()) -> None:
        self.port = free_port()
        self.lines: list[str] = []
        self.cond = threading.Condition()
        self.log = open(log, "a", encoding="utf-8", errors="replace")
        cmd = ["qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a53", "-smp", "2", "-m", memory,
               "-kernel", str(kernel), "-initrd", str(initrd), "-append", cmdline,
               "-drive", f"if=none,file={card.path},format=raw,id=card", "-device", "virtio-blk-pci,drive=card",
               "-netdev", f"user,id=net,hostfwd=tcp:127.0.0.1:{self.port}-:8080",
               "-device", "virtio-net-pci,netdev=net,romfile=",  # no boot ROM: QEMU boots the kernel itself
               "-display", "none", "-monitor", "none", "-serial", "stdio", "-no-reboot", *extra]
        self.started = time.monotonic()
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.marks = 0

    def _read(self) -> None:
        buf = b""
        assert self.proc.stdout is not None
        while True:
            chunk = self.proc.stdout.read1(4096)
            if not chunk:
                break
            buf += chunk
            *done, buf = re.split(rb"\r?\n", buf)
            with self.cond:
                for raw in done:
                    line = ANSI.sub("", raw.decode("utf-8", "replace").replace("\r", ""))
                    self.lines.append(line)
                    self.log.write(line + "\n")
                if buf:  # a prompt has no line end: keep it visible as a partial line
                    self.partial = buf.decode("utf-8", "replace")
                self.log.flush()
                self.cond.notify_all()
        with self.cond:
            self.lines.append("<qemu exited>")
            self.cond.notify_all()

    partial = ""

    def wait_for(self, pattern: str, timeout: float, since: int = 0, partial: bool = True) -> re.Match:
        """The first serial line from index `since` that matches `pattern` (with `partial`, also
        the line being printed, a prompt that has no line end yet)."""
        rx = re.compile(pattern)
        deadline = time.monotonic() + timeout
        with self.cond:
            i = since
            while True:
                while i < len(self.lines):
                    m = rx.search(self.lines[i])
                    if m:
                        return m
                    if self.lines[i] == "<qemu exited>":
                        raise AssertionError(f"QEMU exited before {pattern!r}; the console: {self.lines[-30:]}")
                    i += 1
                if partial and rx.search(self.partial):
                    return rx.search(self.partial)
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no {pattern!r} on the serial console in {timeout:.0f} s; "
                                         f"its last lines: {self.lines[-30:]}")
                self.cond.wait(left)

    def shell(self, timeout: float) -> None:
        """Wait for the serial console's root shell (it logs in by itself) and quiet the kernel."""
        self.wait_for(r"login: root \(automatic login\)|root@[\w-]+:", timeout)
        self.run("dmesg -n 1; stty -echo cols 200", timeout=120)

    def send(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text.encode())
        self.proc.stdin.flush()

    def run(self, command: str, timeout: float = 120) -> str:
        """`command`'s output in the serial root shell, between two marker lines."""
        self.marks += 1
        tag = f"M{self.marks}X{os.getpid()}"
        with self.cond:
            since = len(self.lines)
        # The markers are printed by the shell, so the echoed command line never matches them.
        self.send(f"echo {tag[:1]}''{tag[1:]}-begin; {command}; echo {tag[:1]}''{tag[1:]}-end $?\n")
        self.wait_for(rf"^{tag}-end \d+", timeout, since, partial=False)
        with self.cond:
            out = self.lines[since:]
        begin = next(i for i, line in enumerate(out) if line == f"{tag}-begin")
        end = next(i for i, line in enumerate(out) if line.startswith(f"{tag}-end"))
        return "\n".join(out[begin + 1:end]).strip()

    def get(self, path: str, timeout: float = 10) -> tuple[int, bytes]:
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}")
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    def answer(self) -> tuple[int, dict] | None:
        """The page's /api/state: (200, the state) or (503, {"problem": ...}) before a game; None
        while nothing answers."""
        try:
            status, body = self.get("/api/state")
        except OSError:
            return None
        try:
            return status, json.loads(body)
        except ValueError:
            return None

    def state(self) -> dict | None:
        got = self.answer()
        return got[1] if got is not None and got[0] == 200 else None

    def wait_page(self, timeout: float) -> dict:
        """Poll until the page answers at all (a fresh box: 503 and "no game in the journal yet")."""
        return self.wait_state(lambda s: True, timeout, answered=True)

    def wait_state(self, ok, timeout: float, answered: bool = False) -> dict:
        """Poll the page until its /api/state passes `ok` (the page is reached through QEMU's port)."""
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"QEMU exited ({self.proc.returncode}); the console: {self.lines[-30:]}")
            got = self.answer()
            last = got[1] if got is not None and (got[0] == 200 or answered) else None
            if last is not None and ok(last):
                return last
            with self.cond:  # between polls, wake early on anything the console says
                self.cond.wait(1.0)
        raise AssertionError(f"the page's state never passed the check in {timeout:.0f} s; last: {last}")

    def post(self, path: str, body: dict, headers: dict) -> tuple[int, dict, str]:
        data = json.dumps(body).encode()
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method="POST",
                                     headers={"Content-Type": "application/json",
                                              "Origin": f"http://127.0.0.1:{self.port}", **headers})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, json.loads(r.read() or b"{}"), r.headers.get("Set-Cookie", "")
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"{}"), ""

    def kill(self) -> None:
        """Pull the plug: SIGKILL, no shutdown."""
        self.proc.kill()
        self.proc.wait(timeout=30)
        self.reader.join(timeout=10)
        self.log.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.kill()


def tools_missing() -> str | None:
    for tool in ("qemu-system-aarch64", "xz", "mcopy", "mtype", "mdir"):
        if shutil.which(tool) is None:
            return tool
    return None


# --- The Raspberry Pi models: what the card's own FAT boots, and QEMU's -M raspi3b / raspi4b -----

@dataclass(frozen=True)
class Board:
    """A Pi the card claims, as its firmware sees it: the config.txt filters that apply to it, the
    firmware files it loads from the FAT (the Pi 4 and 400 have their first stage in EEPROM), and
    the device tree it looks for: with `upstream_kernel=1` the upstream Linux name, else the
    Raspberry Pi kernel's."""

    name: str
    filters: frozenset[str]
    firmware: tuple[str, ...]
    upstream_dtb: str
    downstream_dtb: str


PI3_FIRMWARE = ("bootcode.bin", "start.elf", "fixup.dat")
PI4_FIRMWARE = ("start4.elf", "fixup4.dat")
BOARDS = {
    "Pi 3B": Board("Pi 3B", frozenset({"pi3"}), PI3_FIRMWARE, "bcm2837-rpi-3-b.dtb", "bcm2710-rpi-3-b.dtb"),
    "Pi 3B+": Board("Pi 3B+", frozenset({"pi3", "pi3+"}), PI3_FIRMWARE,
                    "bcm2837-rpi-3-b-plus.dtb", "bcm2710-rpi-3-b-plus.dtb"),
    "Pi 4B": Board("Pi 4B", frozenset({"pi4"}), PI4_FIRMWARE, "bcm2711-rpi-4-b.dtb", "bcm2711-rpi-4-b.dtb"),
    "Pi 400": Board("Pi 400", frozenset({"pi4", "pi400"}), PI4_FIRMWARE, "bcm2711-rpi-400.dtb", "bcm2711-rpi-400.dtb"),
    "Zero 2 W": Board("Zero 2 W", frozenset({"pi0", "pi02"}), PI3_FIRMWARE,
                      "bcm2837-rpi-zero-2-w.dtb", "bcm2710-rpi-zero-2-w.dtb"),
}


@dataclass
class BootFiles:
    """What one board's firmware takes from the FAT under config.txt: kernel, initramfs, device tree."""

    board: Board
    settings: dict[str, str]
    kernel: str
    initramfs: str | None
    dtb: str


def boot_files(config_txt: str, board: Board, include: Callable[[str], str] = lambda name: "") -> BootFiles:
    """Read config.txt as `board`'s firmware does (the model filters; [all] ends them; other
    conditions such as [gpio4=1] or [EDID=...] are taken as not matching: the firmware's defaults;
    `include NAME` reads NAME's lines in its place, through `include`)."""
    settings: dict[str, str] = {}
    initramfs = None
    active = True
    lines = config_txt.splitlines()
    for depth in range(8):  # the firmware follows includes a few levels deep
        expanded = []
        for raw in lines:
            word = raw.split("#", 1)[0].split()
            expanded += include(word[1]).splitlines() if len(word) == 2 and word[0] == "include" else [raw]
        if expanded == lines:
            break
        lines = expanded
    for raw in lines:
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip().lower()
            active = section == "all" or section in board.filters
            continue
        if not active:
            continue
        if line.startswith("initramfs "):
            initramfs = line.split()[1]
        elif "=" in line:
            key, value = (part.strip() for part in line.split("=", 1))
            settings[key] = value
    kernel = settings.get("kernel", "kernel8.img" if settings.get("arm_64bit") == "1" else "kernel7.img")
    dtb = settings.get("device_tree") or (board.upstream_dtb if settings.get("upstream_kernel") == "1"
                                          else board.downstream_dtb)
    return BootFiles(board, settings, kernel, initramfs, dtb)


def kernel_format(data: bytes) -> str:
    """gzip (the Pi firmware inflates it), Image (arm64's raw kernel), zboot (an EFI application the
    firmware cannot start), or unknown."""
    if data[:2] == b"\x1f\x8b":
        return "gzip"
    if data[0x38:0x3C] == b"ARM\x64":
        return "Image"
    if data[:2] == b"MZ" and data[4:8] == b"zimg":
        return "zboot"
    return "unknown"


# QEMU's models: memory is fixed by the board (1 GiB, 2 GiB), the card must be a power of two
# in size. The console: on raspi3b the mini UART (ttyS1: the upstream device trees give the
# PL011 to Bluetooth), QEMU's second serial port, as on a Pi. On raspi4b the mini UART's
# interrupt never clears under Linux 6.12 (the boot hangs in an interrupt storm the moment
# /dev/console is opened: RCU stalls, soft lockups), so there the PL011 (ttyAMA0, QEMU's first
# port) is the console, with Bluetooth and the mini UART disabled in the tree.
PI_MODELS = {"raspi3b": ("Pi 3B", "1G"), "raspi4b": ("Pi 4B", "2G")}
CONSOLE = {"raspi3b": ("ttyS1", 1), "raspi4b": ("ttyAMA0", 0)}  # the device, QEMU's serial port


# The board revision QEMU's model reports (its mailbox, /proc/cpuinfo), and what of the upstream
# device tree QEMU 10 does not model but Linux touches at boot (an external abort kills it): the
# Pi 4's HDMI block, its clock, interrupt controller, encoders and DDC buses (labels in
# /__symbols__); Bluetooth and the mini UART (the console, above). QEMU disables the PCIe, RNG,
# thermal and Ethernet nodes itself. Its firmware does not answer for the GPIO expander, so the
# regulators and the Wi-Fi power sequence on those GPIOs never probe and the SD controllers
# that use them wait for ever: those references go. QEMU's SD card sits on the Arasan SDHCI
# (`sdhci`, the Pi 4's Wi-Fi slot), not on EMMC2.
QEMU_REVISION = {"raspi3b": 0xA02082, "raspi4b": 0xB03115}
UNMODELLED = {"raspi3b": (), "raspi4b": ("dvp", "aon_intr", "hdmi0", "hdmi1", "ddc0", "ddc1", "bt", "uart1")}
UNMODELLED_SUPPLIES = {"raspi3b": (), "raspi4b": (("emmc2", "vqmmc-supply"), ("emmc2", "vmmc-supply"),
                                                  ("sdhci", "mmc-pwrseq"))}


def firmware_dtb(dtb: bytes, model: str) -> bytes:
    """The card's device tree as a Pi's firmware hands it to Linux, which QEMU's models do not do:
    `/system/linux,revision` (gpiozero tells the board by it); and what the model lacks disabled."""
    tree = devicetree.load(dtb)
    tree.node("/system", create=True).props["linux,revision"] = QEMU_REVISION[model].to_bytes(4, "big")
    for label in UNMODELLED[model]:
        path = tree.symbol(label)
        if path:
            tree.node(path).props["status"] = b"disabled\0"
    for label, prop in UNMODELLED_SUPPLIES[model]:
        path = tree.symbol(label)
        if path:
            tree.node(path).props.pop(prop, None)
    return devicetree.dump(tree)


def model_cmdline(cmdline: str, model: str) -> str:
    """The card's cmdline.txt with the model's console (CONSOLE) in place of the Pi's mini UART."""
    device, _ = CONSOLE[model]
    return " ".join(f"console={device},115200" if w.startswith("console=ttyS1") else w for w in cmdline.split())


class PiMachine(Machine):
    """qemu-system-aarch64 -M raspi3b or raspi4b on a card, booting the kernel, initramfs, device
    tree and cmdline.txt taken from the card's FAT; the serial console as lines, as `Machine`.
    The model has no network (no page). `wrap` runs QEMU through another command (a chroot
    holding a newer QEMU); `inside` maps a host path to what QEMU sees there."""

    def __init__(self, card: Card, model: str, files: dict[str, Path], cmdline: str, log: Path,
                 wrap: tuple[str, ...] = (), inside: Callable[[Path], str] = str) -> None:
        self.port = 0
        self.lines = []
        self.cond = threading.Condition()
        self.log = open(log, "a", encoding="utf-8", errors="replace")
        self.wrapped = bool(wrap)
        _, memory = PI_MODELS[model]
        cmd = [*wrap, "qemu-system-aarch64", "-M", model, "-m", memory,
               "-kernel", inside(files["kernel"]), "-initrd", inside(files["initrd"]), "-dtb", inside(files["dtb"]),
               "-append", cmdline, "-drive", f"if=sd,format=raw,file={inside(card.path)}",
               *(["-serial", "stdio", "-serial", "null"] if CONSOLE[model][1] == 0 else ["-serial", "null", "-serial", "stdio"]),
               "-display", "none", "-monitor", "none", "-no-reboot"]
        self.started = time.monotonic()
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.marks = 0

    def shell(self, timeout: float) -> None:
        """Wait for the root shell's prompt itself: a command typed while login still sets up the
        console is flushed away (the slow model takes seconds between the two)."""
        self.wait_for(r"login: root \(automatic login\)", timeout)
        with self.cond:
            since = len(self.lines)
        self.wait_for(r"root@[\w-]+:\S*# ?$", timeout, since)
        self.run("dmesg -n 1; stty -echo cols 200", timeout=120)

    def kill(self) -> None:
        """Pull the plug. Through a wrapper: QEMU itself (the deepest process), so the wrapper
        still undoes its mounts; the whole group if that does not end it."""
        if self.wrapped and self.proc.poll() is None:
            for pid in reversed(_descendants(self.proc.pid)):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
        super().kill()


def _descendants(pid: int) -> list[int]:
    """`pid`'s children, grandchildren, ... (parents first)."""
    found: list[int] = []
    todo = [pid]
    while todo:
        parent = todo.pop(0)
        try:
            kids = Path(f"/proc/{parent}/task/{parent}/children").read_text().split()
        except OSError:
            continue
        found += [int(k) for k in kids]
        todo += [int(k) for k in kids]
    return found
