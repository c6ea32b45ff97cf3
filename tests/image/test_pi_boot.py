"""The SD-card image on QEMU's Raspberry Pi models, booted from the card's own FAT.

What a Pi's firmware takes from the card is read with mtools from a copy of the image: config.txt
(as each board's firmware reads it: its model filters, `arm_64bit`, `upstream_kernel`), the
firmware files of the Pi 3, 3B+, 4, 400 and Zero 2 W, the kernel and initramfs config.txt names,
each board's device tree under the name the firmware looks for, and cmdline.txt. Then one boot per
model, with exactly those files: `-M raspi3b` with this machine's QEMU, `-M raspi4b` with QEMU 10
from a Debian 13 root (../shared/tools/debian-root makes it once; QEMU runs in it by `debian-root
run`). Each boot checks over the serial console: the companion reached READY (Type=notify: active
only after READY=1), the system is not in emergency or rescue mode, the `companion` user (with the
unit's groups) opens the GPIO chip with lgpio, and `companion doctor`'s gpio line is OK. The
times it measures (kernel start to READY) go to the test's output (`-s`) and to
build/image/pi-boot-times.txt, for README's numbers.

It needs the image (`sudo tools/image/build.sh`; CI builds it first), mtools and QEMU; the
raspi4b boot also root, apt-get and the debian-root tool. Without them it skips and says which;
with COMPANION_IMAGE_REQUIRED=1 (CI) a missing piece is a failure.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Callable

import pytest

from tests.image.image_machine import (BOARDS, PI_MODELS, Card, PiMachine, boot_files, firmware_dtb, kernel_format,
                                       model_cmdline, raw_image)
from tests.image.test_image_boot import IMAGE_XZ, _skip_reason  # the same image, the same reasons to skip

ROOT = Path(__file__).resolve().parents[2]
REQUIRED = os.environ.get("COMPANION_IMAGE_REQUIRED") == "1"
BOOT_S = 1200  # the emulated Pi is far slower than -M virt (no virtio; the SD card model)
TOOL = Path(os.environ.get("DEBIAN_ROOT") or ROOT.parent / "shared/tools/debian-root")
QEMU10_ROOT = Path(os.environ.get("COMPANION_QEMU10_ROOT", "/var/tmp/qemu10-root"))
VENV = "/opt/companion/venv"
OUT = ROOT / "build" / "image"
NO_NETWORK = {"systemd-networkd-wait-online.service"}  # QEMU's Pi models have no network device


def _no_qemu10() -> str | None:
    """Why QEMU 10 (trixie's, for -M raspi4b) cannot be had here, or None."""
    if os.geteuid() != 0:
        return "needs root: QEMU 10 runs in a Debian 13 root (chroot; CI runs as root)"
    if not TOOL.is_file():
        return f"the debian-root tool is not at {TOOL} (set DEBIAN_ROOT)"
    if shutil.which("apt-get") is None:
        return "needs apt-get (the Debian registry) to make the Debian 13 root QEMU 10 comes from"
    return None


pytestmark = pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")


@pytest.fixture(scope="module")
def card() -> Card:
    """The image as written to a card, only read here (each boot takes a copy of its own: a first boot
    grows the data partition)."""
    return Card.existing(raw_image(IMAGE_XZ))


def test_the_fat_holds_what_config_txt_names_for_each_pi(card: Card) -> None:
    names = {n.lower() for n in card.listing()}
    config = card.read("config.txt").decode()
    problems = []
    for board in BOARDS.values():
        files = boot_files(config, board, card.text)
        if files.settings.get("arm_64bit") != "1":
            problems.append(f"{board.name}: config.txt has no arm_64bit=1 (the firmware would start a 32-bit kernel)")
        wanted = [*board.firmware, files.kernel, files.dtb]
        if files.initramfs is None:
            problems.append(f"{board.name}: config.txt names no initramfs (the root's label is found by the initrd)")
        else:
            wanted.append(files.initramfs)
        problems += [f"{board.name}: {name} is not on the FAT" for name in wanted if name.lower() not in names]
    assert not problems, "\n".join(problems) + f"\nconfig.txt:\n{config}\nthe FAT: {sorted(names)}"
    kernel = boot_files(config, BOARDS["Pi 3B"], card.text).kernel
    assert kernel_format(card.read(kernel)[:4096]) in ("gzip", "Image"), \
        f"{kernel} is neither a gzip'd nor a raw arm64 Image: the Pi firmware cannot start it"
    cmdline = card.read("cmdline.txt").decode().split()
    assert "root=LABEL=clans-root" in cmdline and "ro" in cmdline, cmdline


def _qemu10(boot_dir: Path) -> tuple[tuple[str, ...], Callable[[Path], str]]:
    """QEMU 10 in the Debian 13 root (made once, with qemu-system-arm), `boot_dir` bound inside."""
    why = _no_qemu10()
    if why:
        if REQUIRED:
            pytest.fail(f"-M raspi4b: {why}")
        pytest.skip(f"-M raspi4b: {why}")
    env = {**os.environ, "DEBIAN_SUITE": "trixie"}
    if not (QEMU10_ROOT / "usr/bin/qemu-system-aarch64").exists():
        steps = [["create", "systemd", str(QEMU10_ROOT)],
                 ["run", str(QEMU10_ROOT), "--", "sh", "-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive "
                  "apt-get install -y -qq --no-install-recommends qemu-system-arm"]]
        for step in steps:
            done = subprocess.run(["bash", str(TOOL), *step], capture_output=True, text=True, env=env, timeout=1800)
            assert done.returncode == 0, f"debian-root {' '.join(step)}: {done.stderr[-2000:]}"
    inside = QEMU10_ROOT / "mnt" / "pi-boot"
    inside.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "--bind", str(boot_dir), str(inside)], check=True)
    return ("bash", str(TOOL), "run", str(QEMU10_ROOT), "--"), lambda p: f"/mnt/pi-boot/{p.relative_to(boot_dir)}"


def _unbind() -> None:
    inside = str(QEMU10_ROOT / "mnt" / "pi-boot")
    # /proc/self/mounts, not os.path.ismount: a bind mount from the same filesystem has the parent's
    # st_dev, so ismount says False and the bind stayed behind after every run
    while any(line.split()[1] == inside for line in Path("/proc/self/mounts").read_text().splitlines()):
        if subprocess.run(["umount", inside], check=False).returncode != 0:
            break


@pytest.mark.parametrize("model", list(PI_MODELS))
def test_the_card_boots_on_the_pi_model_to_ready(model: str, tmp_path: Path) -> None:
    board = BOARDS[PI_MODELS[model][0]]
    wrap: tuple[str, ...] = ()
    inside: Callable[[Path], str] = str
    if model == "raspi4b":
        wrap, inside = _qemu10(tmp_path)
    try:
        card = Card(IMAGE_XZ, tmp_path / "card.img")
        config = card.read("config.txt").decode()
        files = boot_files(config, board, card.text)
        assert files.initramfs is not None, f"config.txt names no initramfs for the {board.name}"
        taken = {"kernel": card.take(files.kernel, tmp_path / "kernel"),
                 "initrd": card.take(files.initramfs, tmp_path / "initrd"),
                 "dtb": tmp_path / "board.dtb"}
        taken["dtb"].write_bytes(firmware_dtb(card.read(files.dtb), model))
        cmdline = model_cmdline(card.read("cmdline.txt").decode().strip(), model)
        log = OUT / f"pi-boot-{model}.log" if OUT.is_dir() else tmp_path / "console.log"
        log.write_text("")
        m = PiMachine(card, model, taken, cmdline, log, wrap=wrap, inside=inside)
        try:
            _check_boot(m, model, board.name)
        finally:
            m.stop()
    finally:
        if wrap:
            _unbind()


def _check_boot(m: PiMachine, model: str, board: str) -> None:
    m.shell(BOOT_S)
    shell_s = time.monotonic() - m.started
    # Type=notify: `systemctl start` returns once READY=1 came (or the start failed).
    started = m.run("systemctl start companion 2>&1; echo start=$?", timeout=BOOT_S)
    show = m.run("systemctl show -p ActiveState,SubState,ActiveEnterTimestampMonotonic,StatusText companion")
    props = dict(line.split("=", 1) for line in show.splitlines() if "=" in line)
    assert props.get("ActiveState") == "active" and props.get("SubState") == "running", \
        f"{model}: the companion never reached READY: {started}\n{show}\n" + \
        m.run("journalctl -b -u companion --no-pager | tail -25")
    ready_s = int(props["ActiveEnterTimestampMonotonic"]) / 1e6
    line = (f"{model} ({board}): READY at {ready_s:.1f} s after the kernel started; "
            f"root shell {shell_s:.1f} s after QEMU started")
    print(f"\n{line}")
    if OUT.is_dir():
        with open(OUT / "pi-boot-times.txt", "a", encoding="utf-8") as f:
            f.write(line + "\n")
    # Never emergency or rescue mode: the boot finished. The model has no network, so only
    # waiting for one may fail.
    state = m.run("systemctl is-system-running --wait", timeout=BOOT_S)
    failed = m.run("systemctl --failed --no-legend --plain --no-pager")
    unexpected = [u for u in failed.splitlines() if u.split()[0] not in NO_NETWORK]
    assert state in ("running", "degraded") and not unexpected, \
        f"{model}: the system is {state!r}; failed units: {failed}"
    assert m.run("systemctl is-active emergency.target rescue.target || true").split() == ["inactive"] * 2
    assert not any("emergency mode" in line.lower() for line in m.lines), f"{model}: emergency mode on the console"
    assert m.run("findmnt -no TARGET /data") == "/data", f"{model}: no data partition mounted"
    # The GPIO chip, opened with lgpio by the unit's user with the unit's groups.
    groups = m.run("systemctl show -p SupplementaryGroups --value companion")
    chips = m.run("ls -l /dev/gpiochip* 2>&1")
    opened = m.run(
        f"systemd-run --quiet --wait --pipe --collect -p User=companion -p Group=companion "
        f"-p 'SupplementaryGroups={groups}' -p WorkingDirectory=/tmp -E LG_WD=/tmp {VENV}/bin/python -c "
        "'import lgpio; h = lgpio.gpiochip_open(0); print(\"gpiochip0 opened:\", lgpio.gpio_get_chip_info(h)); "
        "lgpio.gpiochip_close(h)' 2>&1 | tail -3", timeout=300)
    assert "gpiochip0 opened" in opened, (
        f"{model}: the companion user (groups {groups}) cannot open the GPIO chip with lgpio: {opened}\n"
        f"{chips}\n(lgpio in {VENV} and a udev rule giving /dev/gpiochip* to a group the unit has are needed)")
    buttons = m.run("journalctl -b -u companion --no-pager -o cat | grep -i -m3 'button\\|gpio' || true")
    print(f"  failed units: {failed or 'none'}\n  {opened}\n  the companion on GPIO: {buttons or 'nothing logged'}")
    # `companion doctor` as the box's owner runs it: in the root shell, from its home directory.
    doctor = m.run(f"{VENV}/bin/companion doctor 2>&1 | grep ' gpio:' || true", timeout=300)
    assert doctor.startswith("OK") and "gpiochip" in doctor, (
        f"{model}: companion doctor's gpio line: {doctor!r}; lgpio imported by root in $HOME: "
        + m.run(f"{VENV}/bin/python -c 'import lgpio' 2>&1 | tail -1 || true"))
