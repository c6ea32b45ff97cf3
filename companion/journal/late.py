"""A journal that could not be opened (storage full, read-only, damaged beyond reading):
`LateJournal` stands in for the `JournalWriter` and refuses every write, so the table
never confirms a key that is not durable, and it tries to open the real journal again at
each write, so play goes on as soon as the storage works again.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Iterable

from companion.table.effects import Effect
from companion.journal.store import Journal, JournalWriter, Resumed
from companion.journal.repair import JournalWriteError

log = logging.getLogger("companion.table.journal_late")  # the name the box's log has always shown


class NoJournal:
    """What the table reads from a journal it could not open: nothing to resume, no history,
    no setting; a write is refused (JournalWriteError). It answers the port (`JournalPort`)."""

    def __init__(self, reason: str, state_dir: str = "") -> None:
        self.repairs = [reason]
        self.state_dir = state_dir

    def write_all(self, effects: Iterable[Effect]) -> list[Effect]:
        raise JournalWriteError("the journal cannot be opened")

    def resume(self, include_finished: bool = True) -> None:
        return None

    def setting(self, key: str) -> Any:
        return None

    def set_setting(self, key: str, value: Any) -> None:
        raise JournalWriteError("the journal cannot be opened")

    def started_at(self, game_id: int) -> float | None:
        return None

    def truncate_to(self, n_actions: int, reason: str, game_id: int | None = None) -> int:
        """`Journal.truncate_to` of a journal that could not be opened: nothing to set aside."""
        return 0

    def remove_game(self, game_id: int, reason: str) -> str | None:
        return "the journal cannot be opened"

    def history(self, limit: int = 20) -> list[dict[str, Any]]:
        return []

    def close(self) -> None:
        return None


class LateJournal:
    """A JournalWriter whose journal opens on the first write that finds the storage working.
    Until then it reads as `NoJournal`; it answers the port (`JournalPort`) either way."""

    def __init__(self, state_dir: str, reason: str, opener: Callable[[str], Journal] = Journal) -> None:
        self.state_dir = state_dir
        self.opener = opener
        self.writer: JournalWriter | None = None
        self.missing = NoJournal(reason, state_dir)

    @property
    def journal(self) -> Any:
        """The journal behind it (the tools'), `NoJournal` while it is not open."""
        return self.writer.journal if self.writer is not None else self.missing

    @property
    def _now(self) -> JournalWriter | NoJournal:
        """Who answers now: the writer once the journal opened, else the stand-in."""
        return self.writer if self.writer is not None else self.missing

    def write_all(self, effects: Iterable[Effect]) -> list[Effect]:
        if self.writer is None:
            try:
                self.writer = JournalWriter(self.opener(self.state_dir))
            except OSError as exc:
                raise JournalWriteError(f"the journal still cannot be opened: {exc}") from None
            log.warning("journal %s opened: games are protected again", self.state_dir)
        return self.writer.write_all(effects)

    @property
    def repairs(self) -> list[str]:
        return self._now.repairs

    def setting(self, key: str) -> Any:
        return self._now.setting(key)

    def set_setting(self, key: str, value: Any) -> None:
        self._now.set_setting(key, value)

    def resume(self, include_finished: bool = False) -> Resumed | None:
        return self._now.resume(include_finished=include_finished)

    def started_at(self, game_id: int) -> float | None:
        return self._now.started_at(game_id)

    def truncate_to(self, n_actions: int, reason: str, game_id: int | None = None) -> int:
        return self._now.truncate_to(n_actions, reason, game_id)

    def remove_game(self, game_id: int, reason: str) -> str | None:
        return self._now.remove_game(game_id, reason)

    def history(self, limit: int = 20) -> list[dict[str, Any]]:
        return self._now.history(limit)

    def close(self) -> None:
        self._now.close()
