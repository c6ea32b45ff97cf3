"""What machine this is: the one Raspberry Pi check (device tree model), imported by
whatever needs it without loading any hardware library."""

from __future__ import annotations

MODEL_PATHS = ("/proc/device-tree/model", "/sys/firmware/devicetree/base/model")


def is_raspberry_pi() -> bool:
    """True when the device tree says this is a Raspberry Pi."""
    for path in MODEL_PATHS:
        try:
            with open(path, "rb") as f:
                return b"Raspberry Pi" in f.read()
        except OSError:
            continue
    return False
