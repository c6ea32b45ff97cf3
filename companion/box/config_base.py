"""What a start needs of the config before (or without) a config file: the display's settings
(the driver names; `DisplayConfig` and the OLED's addresses, which live beside the adapters
in companion.hw.settings, are re-exported here) and the bots' limits.

`companion.box.config` re-exports everything here; it is a module of its own so a headless run
(`companion run --display dummy --keys FILE`) starts without the rest of the config (its
dataclasses, checks and example) and without luma.oled, whose driver list `oled_drivers()`
asks only when a driver name has to be checked.
"""

from __future__ import annotations

import functools

from companion.hw.settings import OLED_ADDRESSES, DisplayConfig  # noqa: F401  (re-exported)
from companion.hw.sinks import is_oled, stand_ins  # noqa: F401  (is_oled: re-exported)

# The unit's WatchdogSec= (systemd/companion.service; a test keeps them equal).
# A bot may think for at most MAX_BOT_MOVE_TIME seconds per move, a third of
# the watchdog, so a move can never look like a hung daemon.
WATCHDOG_SEC = 30
MAX_BOT_MOVE_TIME = 10.0


# The OLED drivers of luma.oled 3.16 (luma.oled.device.__all__); `oled_drivers()` asks the
# installed luma.oled itself and falls back to this list only when it cannot be imported.
KNOWN_OLED_DRIVERS = ("ssd1305", "ssd1306", "ssd1309", "ssd1315", "ssd1316", "ssd1322",
                      "ssd1322_nhd", "ssd1325", "ssd1327", "ssd1331", "ssd1351", "ssd1362",
                      "ssd1363", "sh1106", "sh1107", "ws0010", "winstar_weh", "ch1115")


@functools.lru_cache(maxsize=1)
def oled_drivers() -> tuple[str, ...]:
    """The OLED device names the installed luma.oled provides (luma.oled.device.__all__),
    else KNOWN_OLED_DRIVERS. Imports luma.oled.device, which touches no hardware."""
    try:
        import luma.oled.device as devices
    except ImportError:
        return KNOWN_OLED_DRIVERS
    names = tuple(n for n in getattr(devices, "__all__", ()) if isinstance(getattr(devices, n, None), type))
    return names or KNOWN_OLED_DRIVERS


def display_drivers() -> tuple[str, ...]:
    """Every accepted `display.driver`: luma.oled's devices, then the stand-ins (dummy, terminal,
    png: companion.hw.sinks)."""
    return oled_drivers() + stand_ins()


def is_display_driver(name: object) -> bool:
    """True for an accepted `display.driver`; asks luma.oled's list (an import of luma.oled.device)
    only for a name that is not a stand-in, so a headless start never imports it."""
    return isinstance(name, str) and (name in stand_ins() or name in oled_drivers())

