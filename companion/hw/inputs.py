"""The input adapters the config names, opened onto a daemon: the serial keypad, the USB keypad,
the GPIO buttons and encoder, and the terminal's keyboard when emulating.

`open_inputs(daemon, cfg, emulated)` needs three things of `daemon`: `put(key)` (where the
adapters send their keys), `inputs` (the list the adapters are appended to, to be started
and closed) and `terminal`. `companion run` opens its inputs with it (companion.kiosk.daemon),
and so does `companion doctor --keys`, onto its key test (companion.box.doctor). An adapter
that cannot be opened is logged and left out: the table plays on with the others.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

log = logging.getLogger("companion.run")


def open_inputs(daemon: Any, cfg: Any, emulated: bool) -> None:
    """Start whatever input adapters are configured; the terminal keyboard when emulating."""
    if cfg is not None and cfg.keypad is not None:
        try:
            from companion.hw.keypad import open_keypad

            daemon.inputs.append(open_keypad(cfg, daemon.put))
        except Exception as exc:
            log.error("keypad: %s", exc)
    if cfg is not None and getattr(cfg, "usb_keypad", None) is not None:
        try:
            from companion.hw.usbkeypad import open_usb_keypad

            daemon.inputs.append(open_usb_keypad(cfg, daemon.put))
        except Exception as exc:
            log.error("usb keypad: %s", exc)
    if cfg is not None and not emulated and (cfg.buttons is not None or cfg.encoder is not None):
        try:
            from companion.hw.buttons import open_buttons

            daemon.inputs.append(open_buttons(cfg, daemon.put))
        except Exception as exc:
            log.error("buttons: %s", exc)
    if emulated or sys.stdin.isatty():
        from companion.hw.terminal import open_terminal

        daemon.terminal = open_terminal(daemon.put)
        daemon.inputs.append(daemon.terminal)
