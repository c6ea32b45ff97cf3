"""The times a game's row may carry: the sane range an imported record's must fall in, and what a
journal row must hold for the history to show it at all.

An imported record (`companion import`) is refused in one line unless it started between 2000 and
2100 and finished after its start, less than a day later. A row already in a journal (written by
an older version's import, or edited by hand) is looser: a table's clock may stand at 1970 (a Pi
without a network) or go back during a game, so only times no date can be made of (not a number,
before 1970, after 2100: `1e18`, year 10000) make a row unreadable; the history, the statistics, the
exports, the page and the OLED then leave that game out and name it.
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["EARLIEST", "LATEST", "LONGEST", "import_times_problem", "stored_times_problem"]

EARLIEST = 946_684_800.0  # 2000-01-01 00:00 UTC
LATEST = 4_102_444_800.0  # 2100-01-01 00:00 UTC
LONGEST = 86_400.0  # a game lasts less than a day


def _seconds(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        seconds = float(value)
    except OverflowError:  # an int too large for a float
        return None
    return seconds if math.isfinite(seconds) else None


def import_times_problem(started: float, finished: float) -> str | None:
    """Why an imported game's start and end (seconds since 1970) are not a game's, or None."""
    if not EARLIEST <= started < LATEST:
        return f"started {started:g} is not a time between 2000 and 2100 (seconds since 1970)"
    if finished < started:
        return "the game finished before it started"
    if finished - started >= LONGEST:
        return f"finished {finished:g} is a day or more after its start (a game lasts less than a day)"
    return None


def stored_times_problem(started: Any, finished: Any) -> str | None:
    """Why a journal row's times cannot be shown as dates (None: they can; `finished` may be None)."""
    for name, value in (("start", started), ("finish", finished)):
        if value is None and name == "finish":
            continue
        seconds = _seconds(value)
        if seconds is None or not 0 <= seconds < LATEST:
            shown = f"{value:g}" if isinstance(value, float) else repr(value)[:24]
            return f"its {name} ({shown}) is not a time between 1970 and 2100"
    return None
