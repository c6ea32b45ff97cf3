"""The kiosk's one door to the journal: `JournalPort`, what every journal the kiosk holds answers.

Three things stand where the kiosk keeps its journal, and all three answer the same calls:
`store.JournalWriter` (the journal opened), `late.LateJournal` (the journal could not be
opened yet: every write refused until it can) and `late.NoJournal` (what a journal that could
not be opened reads as: nothing to resume, no history, no setting). The kiosk calls these
methods on the port and never reaches through it to the SQLite `store.Journal` behind it.
(A headless run without --state-dir keeps no journal at all: None.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Protocol, runtime_checkable

if TYPE_CHECKING:
    from companion.table.effects import Effect
    from companion.journal.store import Resumed

__all__ = ["JournalPort"]


@runtime_checkable
class JournalPort(Protocol):
    """What the kiosk asks of its journal (see the module docstring)."""

    @property
    def repairs(self) -> list[str]:
        """Short sentences for the table: what a repair or a set-aside did, or why nothing is saved."""
        ...

    @property
    def state_dir(self) -> str:
        """The directory the journal lives in (also while it cannot be opened)."""
        ...

    def write_all(self, effects: Iterable[Effect]) -> list[Effect]:
        """Write a batch's journal effects in one transaction; the others back, in order
        (JournalWriteError when nothing of the batch could be written)."""
        ...

    def setting(self, key: str) -> Any:
        """A table-wide setting (brightness, language, sound, roster), None when never set."""
        ...

    def set_setting(self, key: str, value: Any) -> None:
        """Keep a table-wide setting durably (JournalWriteError when it cannot be)."""
        ...

    def resume(self, include_finished: bool = False) -> Resumed | None:
        """The newest game, to take up (`store.Journal.resume`)."""
        ...

    def started_at(self, game_id: int) -> float | None:
        """When game `game_id` started, None when unknown."""
        ...

    def truncate_to(self, n_actions: int, reason: str, game_id: int | None = None) -> int:
        """Keep a game's first `n_actions` actions in play, set the later ones aside; how many were."""
        ...

    def remove_game(self, game_id: int, reason: str) -> str | None:
        """Take a finished game out of the history: None when done, else why not."""
        ...

    def history(self, limit: int = 20) -> list[dict[str, Any]]:
        """The finished games in the history, newest first."""
        ...

    def close(self) -> None:
        """Close the journal (nothing pending afterwards)."""
        ...
