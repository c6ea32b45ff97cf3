"""Warnings a hostile client can cause, logged at a bounded rate.

A refused viewer, a foreign Host or a wrong PIN is worth a line in the journal, but a
flood of them must not become 3,000 lines a minute: `RateLimitedLog.warning` writes at
most one line per kind every `every_s` seconds and says, on the next line it writes,
how many it left out in between. The clock is injected for tests.
"""

from __future__ import annotations

import logging
import time
from typing import Any, Callable

EVERY_S = 10.0


class RateLimitedLog:
    """At most one WARNING per kind per `every_s` seconds (see the module docstring)."""

    def __init__(self, logger: logging.Logger, every_s: float = EVERY_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.logger = logger
        self.every_s = every_s
        self.clock = clock
        self._last: dict[str, float] = {}
        self._skipped: dict[str, int] = {}

    def warning(self, kind: str, message: str, *args: Any) -> bool:
        """Log `message % args` unless a line of `kind` was written less than `every_s` ago;
        True when it was written."""
        now = self.clock()
        last = self._last.get(kind)
        if last is not None and now - last < self.every_s:
            self._skipped[kind] = self._skipped.get(kind, 0) + 1
            return False
        self._last[kind] = now
        skipped = self._skipped.pop(kind, 0)
        if skipped:
            message += f" (and {skipped} more like it in the last {now - last:.0f} s)"
        self.logger.warning(message, *args)
        return True
