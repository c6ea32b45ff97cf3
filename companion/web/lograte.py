"""Warnings a hostile client can cause, logged at a bounded rate.

A refused viewer, a foreign Host or a wrong PIN is worth a line in the journal, but a
flood of them must not become 3,000 lines a minute: `RateLimitedLog.warning` writes at
most one line per kind every `every_s` seconds and says, on the next line it writes,
how many it left out in between. The clock is injected for tests.

`ServerLog` is the logger aiohttp's server itself writes to: a request its parser refuses (a
duplicate or negative Content-Length, a NUL in a header, a 20 KB header line, a bad chunk) comes
from anyone on the network, so it is one line without a traceback, at the same bounded rate; an
error of the page's own keeps its traceback, at a bounded rate too. The card's system journal is
capped (16 MB): a flood must not push out the lines that explain a crash.
"""

from __future__ import annotations

import logging
import time
import sys
from typing import Any, Callable

from companion.util.bounded import shorten
from companion.util.safe_text import printable

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
        return self.log(logging.WARNING, kind, message, *args)

    def log(self, level: int, kind: str, message: str, *args: Any, exc_info: Any = None) -> bool:
        """`warning` at `level`, with `exc_info` (a traceback) when given."""
        now = self.clock()
        last = self._last.get(kind)
        if last is not None and now - last < self.every_s:
            self._skipped[kind] = self._skipped.get(kind, 0) + 1
            return False
        self._last[kind] = now
        skipped = self._skipped.pop(kind, 0)
        if skipped:
            message += f" (and {skipped} more like it in the last {now - last:.0f} s)"
        self.logger.log(level, message, *args, exc_info=exc_info)
        return True


class ServerLog:
    """The logger given to aiohttp's server (module docstring): `debug` and `exception` as it calls them."""

    def __init__(self, logger: logging.Logger, rate: RateLimitedLog | None = None) -> None:
        self.logger = logger
        self.rate = rate or RateLimitedLog(logger)

    def debug(self, message: str, *args: Any, **kw: Any) -> None:
        self.logger.debug(message, *args)

    def exception(self, message: str, *args: Any, exc_info: Any = True, **kw: Any) -> None:
        from aiohttp.http_exceptions import HttpProcessingError

        exc = exc_info if isinstance(exc_info, BaseException) else sys.exc_info()[1]
        who = printable(str(args[0])) if args else "?"
        if isinstance(exc, HttpProcessingError):
            why = printable(shorten(getattr(exc, "message", "") or type(exc).__name__, 120))
            self.rate.warning("malformed", "web: refused a malformed request from %s: %s", who, why)
            return
        self.rate.log(logging.ERROR, "server-error", "web: %s", printable(shorten(message % args if args else message)),
                      exc_info=exc if exc is not None else None)
