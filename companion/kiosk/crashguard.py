"""No crash loop: a start that dies twice at the same journal position sets the last action aside.

Failures inside the loop are contained (companion.kiosk.recovery), but a process can still die:
a bug outside it, memory, a kill. systemd then restarts the daemon, which resumes the
journal into the same state, and it could die the same way for ever. So each start leaves
a marker in the state dir, `starting.json` (the game's id, its number of journaled actions,
and how many starts in a row died there), written before the game is rebuilt and removed
once the first screens showed and the loop is about to take keys:

- no marker: the last start went through; this one writes `starts: 1`;
- a marker at another position: the game moved on since; `starts: 1` again;
- a marker at this position: that start died before it could show the game, and the
  marker counts one more. A start that finds two such deaths (the second start that knows
  it died there) sets the game's last action aside (kept in the journal's `set_aside` table
  and a `journal-damaged-N` copy, as the repair of damaged journals does), resumes the
  game before it, and the table is told with the journal's repair message.

Two small writes a start, none per key.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from companion.table.fsutil import atomic_write_text

log = logging.getLogger("companion.run")

MARKER = "starting.json"
DIED_BEFORE_SETTING_ASIDE = 2  # starts in a row that died at one position: the next sets its last action aside
REASON = "the box stopped twice while showing it"


class CrashGuard:
    """The start marker of one journal (a `JournalWriter`)."""

    def __init__(self, writer: Any) -> None:
        self.writer = writer
        self.path = Path(writer.journal.dir) / MARKER

    def _position(self) -> tuple[int, int] | None:
        """(game id, journaled actions) of the game a start resumes; None when there is none to resume."""
        resumed = self.writer.journal.resume(include_finished=True)
        if resumed is None or resumed.finished:
            return None
        return resumed.game_id, len(resumed.actions)

    def _read(self) -> dict:
        try:
            marker = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            log.warning("start marker %s unreadable (%s): taken as absent", self.path, exc)
            return {}
        return marker if isinstance(marker, dict) else {}

    def before_start(self) -> int:
        """Look at the last starts, set the last action aside on a crash loop, mark this start.
        Returns how many actions were set aside (0 or 1)."""
        position = self._position()
        marker = self._read()
        died = 0  # starts in a row that died at this position before showing the game
        if position is not None and [marker.get("game"), marker.get("actions")] == list(position):
            died = marker.get("starts") if isinstance(marker.get("starts"), int) else 1
        set_aside = 0
        if position is not None and died >= DIED_BEFORE_SETTING_ASIDE and position[1] > 0:
            game_id, n = position
            log.error("journal: %d starts in a row died at action %d of game %s: setting it aside", died, n, game_id)
            set_aside = self.writer.journal.truncate_to(n - 1, REASON, game_id)
            position, died = (game_id, n - 1), 0
        self._write(position, died + 1)
        return set_aside

    def _write(self, position: tuple[int, int] | None, starts: int) -> None:
        game, actions = position if position is not None else (None, None)
        try:
            atomic_write_text(self.path, json.dumps({"game": game, "actions": actions, "starts": starts}))
        except OSError as exc:  # a full card: the journal says so at its first write
            log.warning("start marker %s not written (%s)", self.path, exc)

    def started(self) -> None:
        """The first screens showed: this start went through."""
        try:
            self.path.unlink(missing_ok=True)
        except OSError as exc:
            log.warning("start marker %s not removed (%s)", self.path, exc)
