"""When the program itself fails at the table: contained, logged once, and a way back to the game.

No failure in a game's screens or texts, speech, an effect, rendering or an adapter may end
the daemon: on a kiosk systemd would restart it into the same state and it would fail again.
The loop runs each stage through `Failures.contain`, which logs a failure's traceback the
first time it is seen (not once per frame) and tells the loop whether the stage worked.

When no screen can be built or drawn, the table sees `fallback_screen()`: "Something went
wrong: C takes back the last key, D opens the menu". `Rollback` takes keys back:
- keys that changed nothing durable (a form half filled, a page turned) are undone by
  rebuilding the game at its last saved action;
- with none of those, the last saved key's actions are set aside (kept in the journal's
  `set_aside` table and a `journal-damaged-N` copy; without a journal they are dropped)
  and the game is rebuilt before them. Each further C goes back one more action.
"""

from __future__ import annotations

import logging
import random
import traceback
from typing import Any, Callable

from companion.table import texts as T
from companion.table.screen import Screen, text_screen

log = logging.getLogger("companion.run")

MAX_SIGNATURES = 200  # distinct failures remembered for "logged once" (a bounded set)


class Failures:
    """Runs stages of the loop, containing what they raise; each distinct failure's traceback is logged once."""

    def __init__(self) -> None:
        self.seen: set[tuple[str, str, str]] = set()
        self.count = 0

    def contain(self, stage: str, work: Callable[[], Any], default: Any = None) -> tuple[bool, Any]:
        """(True, what `work()` returned), or (False, `default`) when it raised (logged, never re-raised)."""
        try:
            return True, work()
        except Exception as exc:  # noqa: BLE001 - containing every failure is the point
            self.failed(stage, exc)
            return False, default

    def failed(self, stage: str, exc: BaseException) -> None:
        self.count += 1
        where = traceback.extract_tb(exc.__traceback__)[-1:] if exc.__traceback__ else []
        place = f"{where[0].filename}:{where[0].lineno}" if where else ""
        signature = (stage, f"{type(exc).__name__}: {exc}"[:300], place)
        if signature in self.seen:
            log.debug("%s failed again (%s: %s)", stage, type(exc).__name__, exc)
            return
        if len(self.seen) < MAX_SIGNATURES:
            self.seen.add(signature)
        log.error("%s failed; the game is kept", stage, exc_info=(type(exc), exc, exc.__traceback__))


def fallback_screen() -> Screen:
    """What shows when the game's own screen cannot be built or drawn (plain words only)."""
    return text_screen("failed", T.FAILED_TITLE, [T.FAILED])


class Rollback:
    """Takes keys back after a failure: rebuilds the current game from what was saved, or sets
    the last saved actions aside first. Works from the journal, or, without one, from the
    actions the loop kept in memory (`remember`)."""

    def __init__(self, journal: Any, rng: random.Random) -> None:
        self.journal = journal
        self.rng = rng
        self.kind: str | None = None
        self.actions: list[dict] = []  # without a journal: the current game's actions
        self.unsaved_keys = 0  # keys handled since the last saved action or rebuild
        self.last_saved = 0  # how many actions the last saving key wrote

    def remember(self, kind: str, actions: list[dict], new_game: bool) -> None:
        """A key's actions were saved (journaled, or kept here without a journal)."""
        if self.journal is None:
            if new_game or kind != self.kind:
                self.actions = []
            self.kind = kind
            self.actions += actions
        self.last_saved = len(actions)
        self.unsaved_keys = 0

    def key(self) -> None:
        self.unsaved_keys += 1

    def take_back(self, kind: str, rebuild: Callable[..., tuple[str, Any]]) -> tuple[str, Any, int]:
        """(kind, game) rebuilt after taking keys back, and how many saved actions were set aside."""
        drop = 0 if self.unsaved_keys else max(1, self.last_saved)
        self.unsaved_keys, self.last_saved = 0, 0
        resumed = self._saved(kind)
        if resumed is not None and drop:
            drop = min(drop, len(resumed.actions))
            keep = len(resumed.actions) - drop
            if self.journal is not None:
                self.journal.truncate_to(keep, "taken back after a failure", resumed.game_id)
                resumed = self._saved(kind)
            else:
                self.actions = self.actions[:keep]
                resumed = self._saved(kind)
        new_kind, game = rebuild(self.journal, resumed, kind, self.rng)
        if self.journal is None:
            self.kind = new_kind
        return new_kind, game, drop

    def _saved(self, kind: str) -> Any:
        """The current game as saved: the journal's newest entry, or the actions kept here."""
        if self.journal is not None:
            return self.journal.resume(include_finished=True)
        if self.kind is None:
            return None
        from companion.journal.store import Resumed

        return Resumed(0, self.kind, list(self.actions), [], False, None)
