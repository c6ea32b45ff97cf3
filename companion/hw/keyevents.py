"""The key socket's events that are not keys: where the table's page is, and the page's roster.

Kept apart from `companion.hw.keysocket` (which re-exports them) so the loop can tell them
from keys without importing the socket adapter: a table without its page, or a headless run,
never loads `socket`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RosterUpdate:
    """The page set the table's roster to `names` (checked again by the daemon before it keeps them)."""

    names: tuple[str, ...]


@dataclass(frozen=True)
class PhoneUrl:
    """The table's page is at `url` (None: the web service is gone)."""

    url: str | None
