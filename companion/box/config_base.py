"""What a start needs of the config before (or without) a config file: the display's settings
(the driver names, `DisplayConfig` and the OLED's addresses, which live beside the adapters
in companion.hw.settings, are re-exported here) and the bots' limits.

`companion.box.config` re-exports everything here; it is a module of its own so a headless run
(`companion run --display dummy --keys FILE`) starts without the rest of the config (its
dataclasses, checks and example) and without luma.oled, whose driver list `oled_drivers()`
asks only when a driver name has to be checked.
"""

from __future__ import annotations

from companion.hw.settings import (KNOWN_OLED_DRIVERS, OLED_ADDRESSES, DisplayConfig,  # noqa: F401  (re-exported)
                                   display_drivers, is_display_driver, oled_drivers)
from companion.hw.sinks import is_oled  # noqa: F401  (re-exported)

# The unit's WatchdogSec= (systemd/companion.service; a test keeps them equal).
# A bot may think for at most MAX_BOT_MOVE_TIME seconds per move, a third of
# the watchdog, so a move can never look like a hung daemon.
WATCHDOG_SEC = 30
MAX_BOT_MOVE_TIME = 10.0
HINT_LEVELS = ("easy", "normal", "hard")  # game.hint: the bot levels a hint may play at (companion.games.clans.levels.LEVELS)
