"""A journal that could not be opened (storage full, read-only, damaged beyond reading):
`LateJournal` stands in for the `JournalWriter` and refuses every write, so the table
never confirms a key that is not durable, and it tries to open the real journal again at
each write, so play goes on as soon as the storage works again.
"""

from __future__ import annotations

import logging
from typing import Any, Callable

from companion.table.effects import Effect
from companion.journal.store import Journal, JournalWriter
from companion.journal.repair import JournalWriteError

log = logging.getLogger("companion.table.journal_late")  # the name the box's log has always shown


class NoJournal:
    """What the table reads from a journal it could not open: nothing to resume, no history."""

    def __init__(self, reason: str) -> None:
        self.repairs = [reason]

    def resume(self, include_finished: bool = True) -> None:
        return None

    def setting(self, key: str) -> Any:
        return None

    def truncate_to(self, n_actions: int, reason: str, game_id: int | None = None) -> int:
        """`Journal.truncate_to` of a journal that could not be opened: nothing to set aside."""
        return 0

    def history(self, limit: int = 20) -> list[dict[str, Any]]:
        return []

    def close(self) -> None:
        return None


class LateJournal:
    """A JournalWriter whose journal opens on the first write that finds the storage working."""

    def __init__(self, state_dir: str, reason: str, opener: Callable[[str], Journal] = Journal) -> None:
        self.state_dir = state_dir
        self.opener = opener
        self.writer: JournalWriter | None = None
        self.missing = NoJournal(reason)

    @property
    def journal(self) -> Any:
        return self.writer.journal if self.writer is not None else self.missing

    def write_all(self, effects: list[Effect]) -> list[Effect]:
        if self.writer is None:
            try:
                self.writer = JournalWriter(self.opener(self.state_dir))
            except OSError as exc:
                raise JournalWriteError(f"the journal still cannot be opened: {exc}") from None
            log.warning("journal %s opened: games are protected again", self.state_dir)
        return self.writer.write_all(effects)
