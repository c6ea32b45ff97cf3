"""config.txt read as each Pi's firmware reads it (image_machine.boot_files): what the Pi boot test
asserts the card's FAT against, and the device tree it hands QEMU. No image needed."""

from __future__ import annotations

from tests.image import devicetree
from tests.image.image_machine import BOARDS, boot_files, firmware_dtb, kernel_format

DEBIAN = """# Debian's raspi-firmware writes this
arm_64bit=1
enable_uart=1
upstream_kernel=1

kernel=vmlinuz-6.12.57+deb13-arm64
# For details on the initramfs directive, see
initramfs initrd.img-6.12.57+deb13-arm64 followkernel
"""


def test_debians_config_names_one_kernel_and_each_boards_upstream_device_tree() -> None:
    got = {name: boot_files(DEBIAN, board) for name, board in BOARDS.items()}
    assert {f.kernel for f in got.values()} == {"vmlinuz-6.12.57+deb13-arm64"}
    assert {f.initramfs for f in got.values()} == {"initrd.img-6.12.57+deb13-arm64"}
    assert {name: f.dtb for name, f in got.items()} == {
        "Pi 3B": "bcm2837-rpi-3-b.dtb", "Pi 3B+": "bcm2837-rpi-3-b-plus.dtb", "Pi 4B": "bcm2711-rpi-4-b.dtb",
        "Pi 400": "bcm2711-rpi-400.dtb", "Zero 2 W": "bcm2837-rpi-zero-2-w.dtb"}


def test_model_filters_apply_to_their_boards_only_until_all() -> None:
    config = DEBIAN.replace("upstream_kernel=1\n", "") + (
        "[pi4]\nkernel=k4\n[pi400]\ndevice_tree=custom.dtb\n[pi3+]\ninitramfs i3plus\n[all]\nenable_uart=1\n")
    assert boot_files(config, BOARDS["Pi 4B"]).kernel == "k4"
    assert boot_files(config, BOARDS["Pi 400"]).kernel == "k4", "[pi4] covers the 400"
    assert boot_files(config, BOARDS["Pi 400"]).dtb == "custom.dtb"
    assert boot_files(config, BOARDS["Pi 4B"]).dtb == "bcm2711-rpi-4-b.dtb"
    assert boot_files(config, BOARDS["Pi 3B"]).dtb == "bcm2710-rpi-3-b.dtb", "no upstream_kernel: the Pi kernel's name"
    assert boot_files(config, BOARDS["Pi 3B+"]).initramfs == "i3plus"
    assert boot_files(config, BOARDS["Pi 3B"]).initramfs == "initrd.img-6.12.57+deb13-arm64"


def test_the_kernel_of_the_slot_that_slot_txt_names() -> None:
    config = DEBIAN.replace("kernel=vmlinuz-6.12.57+deb13-arm64", "include slot.txt").replace(
        "initramfs initrd.img-6.12.57+deb13-arm64 followkernel\n", "")
    files = {"slot.txt": "kernel=vmlinuz-b\ninitramfs initrd-b.img\n"}
    got = boot_files(config, BOARDS["Pi 3B"], lambda name: files.get(name, ""))
    assert (got.kernel, got.initramfs) == ("vmlinuz-b", "initrd-b.img")
    assert boot_files(config, BOARDS["Pi 3B"]).initramfs is None, "a missing include names nothing"


def test_kernel_formats_the_firmware_can_and_cannot_start() -> None:
    image = bytearray(64)
    image[0x38:0x3C] = b"ARM\x64"
    assert kernel_format(bytes(image)) == "Image"
    assert kernel_format(b"\x1f\x8b\x08" + bytes(61)) == "gzip"
    assert kernel_format(b"MZ\0\0zimg" + bytes(56)) == "zboot"
    assert kernel_format(bytes(64)) == "unknown"


def _pi4_like() -> bytes:
    hdmi = devicetree.Node("hdmi@7ef00700", {"compatible": b"brcm,bcm2711-hdmi0\0", "reg": bytes(range(8))})
    soc = devicetree.Node("soc", {"#address-cells": b"\0\0\0\1"}, [hdmi])
    symbols = devicetree.Node("__symbols__", {"hdmi0": b"/soc/hdmi@7ef00700\0"})
    root = devicetree.Node("", {"model": b"Raspberry Pi 4 Model B\0"}, [soc, symbols])
    return devicetree.dump(devicetree.Tree(root, bytes(16), 0))


def test_a_device_tree_survives_the_round_trip() -> None:
    data = _pi4_like()
    tree = devicetree.load(data)
    assert devicetree.dump(tree) == data
    assert tree.node("/soc/hdmi@7ef00700").props["reg"] == bytes(range(8))
    assert tree.symbol("hdmi0") == "/soc/hdmi@7ef00700" and tree.symbol("nothing") is None


def test_the_firmwares_additions_and_qemus_gaps() -> None:
    tree = devicetree.load(firmware_dtb(_pi4_like(), "raspi4b"))
    assert tree.node("/system").props["linux,revision"] == b"\0\xb0\x31\x15"
    assert tree.node("/soc/hdmi@7ef00700").props["status"] == b"disabled\0"
    assert "status" not in devicetree.load(firmware_dtb(_pi4_like(), "raspi3b")).node("/soc/hdmi@7ef00700").props
