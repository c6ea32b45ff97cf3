"""What machine this is: the one Raspberry Pi check (device tree model), imported by
whatever needs it without loading any hardware library."""

from __future__ import annotations

import os
import tempfile

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


def prepare_lgpio() -> str:
    """Call before lgpio is imported (gpiozero's pin factory on a Pi). At import lgpio makes its
    notification pipe (`.lgd-nfyN`) in the directory LG_WD names, else in the current one, and
    moves the process there. A service starts in `/`, which the `companion` user cannot write
    (and which is read-only on the SD-card image), so the import failed and the buttons with
    it. LG_WD, when unset, becomes the service's runtime directory, else the temporary one."""
    runtime = os.environ.get("RUNTIME_DIRECTORY", "").split(":")[0]
    return os.environ.setdefault("LG_WD", runtime or tempfile.gettempdir())
