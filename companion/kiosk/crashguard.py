"""No crash loop: a start that dies of an error twice at the same journal position sets the last action aside.

Failures inside the loop are contained (companion.kiosk.recovery), but a start can still die
of an error before the loop takes keys: a bug while the journal's game is rebuilt or first
shown. systemd then restarts the daemon, which resumes the journal into the same state, and
it could die the same way for ever. So each start leaves a marker in the state dir,
`starting.json` (the game's id, its number of journaled actions, and how many starts died of
an error there), written before the game is rebuilt and removed once the first screens
showed and the loop is about to take keys. A start that dies of an error on the way
(`died`, called by `companion.kiosk.daemon.main` with the exception) first writes the
error into the marker, durably, at the position the journal had then.

A start that dies of a fatal signal instead (a crash in a C library, an abort) cannot write
JSON: while it starts, faulthandler writes its traceback into `starting-fatal.txt`, and the
next start at the same position counts a non-empty file as one more error.

A start that just stops (a pulled plug, a flaky power supply, a kill) writes nothing and so
counts for nothing, however often it happens: only recorded errors are counted.

- no marker, or one at another position: no error known here; this start counts from 0;
- a marker at this position: the errors it records. A start that finds two (two starts
  died of an error at this very position) sets the game's last action aside (kept in the
  journal's `set_aside` table and a `journal-damaged-N` copy, as the repair of damaged
  journals does), resumes the game before it, and the table is told with the journal's
  repair message.

Not counted: a refused input (exit 2), a storage failure (an OSError: setting a move aside
mends nothing there), Ctrl-C. Markers of older versions (`starts`, no `errors`) count 0.
Two small writes a start, none per key; one more when a start dies of an error.

The run's last error: a run that dies of an error at any time, before or after its first
screens (`run_died`, from the same handler), also writes LAST_ERROR; a start that died of a
fatal signal counts as one too. The next start keeps it in `last_error`, and the kiosk's
first screen says the companion stopped with an error last time (the log has the rest); the
file goes once that start's screens showed. A pulled plug writes nothing, so it says nothing.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from companion.util.errors import UsageError
from companion.util.fsutil import atomic_write_text

log = logging.getLogger("companion.run")

MARKER = "starting.json"
FATAL = "starting-fatal.txt"  # faulthandler's traceback of a start that died of a fatal signal
LAST_ERROR = "last-error.json"  # the error the last run died of, for the next start's first screen
ERRORS_BEFORE_SETTING_ASIDE = 2  # starts that died of an error at one position: the next sets its last action aside
REASON = "the box stopped twice while showing it"


class CrashGuard:
    """The start marker of one journal (a `JournalWriter`)."""

    def __init__(self, writer: Any) -> None:
        self.writer = writer
        self.path = Path(writer.state_dir) / MARKER
        self.position: tuple[int, int] | None = None  # where this start began
        self.done = False  # went through, or its death is recorded
        self.fatal_path = Path(writer.state_dir) / FATAL
        self._fatal_file: Any = None  # open while faulthandler writes into it
        self.last_error_path = Path(writer.state_dir) / LAST_ERROR
        self.last_error: str | None = None  # what the last run died of, when it died of an error

    def _position(self) -> tuple[int, int] | None:
        """(game id, journaled actions) of the game a start resumes; None when there is none to resume."""
        resumed = self.writer.resume(include_finished=True)
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
        """Look at the errors of the last starts, set the last action aside on a crash loop, mark
        this start. Returns how many actions were set aside (0 or 1)."""
        position = self._position()
        errors = self._errors_at(position)
        self.last_error = self._read_last_error()
        if self._died_fatally():
            self.last_error = self.last_error or "a fatal signal"
            if self._read_at(position) is not None:
                errors += 1
            log.error("the last start died of a fatal signal (%s)", self.fatal_path)
        set_aside = 0
        if position is not None and errors >= ERRORS_BEFORE_SETTING_ASIDE and position[1] > 0:
            game_id, n = position
            log.error("journal: %d starts died of an error at action %d of game %s: setting it aside",
                      errors, n, game_id)
            set_aside = self.writer.truncate_to(n - 1, REASON, game_id)
            position, errors = (game_id, n - 1), 0
        global _starting
        self.position, self.done, _starting = position, False, self
        self._write(position, errors)
        self._watch_fatal()
        return set_aside

    def _read_last_error(self) -> str | None:
        try:
            data = json.loads(self.last_error_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            log.warning("%s unreadable (%s): taken as an error all the same", self.last_error_path, exc)
            return "unknown"
        error = data.get("error") if isinstance(data, dict) else None
        return error if isinstance(error, str) and error else "unknown"

    def ran_into(self, exc: BaseException) -> None:
        """The run is dying of `exc`, before or after its first screens: LAST_ERROR records it,
        durably, for the next start's first screen."""
        if not isinstance(exc, Exception) or isinstance(exc, UsageError):
            return
        try:
            atomic_write_text(self.last_error_path, json.dumps({"error": f"{type(exc).__name__}: {exc}"[:300]}))
        except OSError as exc2:
            log.warning("%s not written (%s)", self.last_error_path, exc2)

    def _read_at(self, position: tuple[int, int] | None) -> dict | None:
        """The marker when it was left at `position`, else None."""
        marker = self._read()
        if position is None or [marker.get("game"), marker.get("actions")] != list(position):
            return None
        return marker

    def _errors_at(self, position: tuple[int, int] | None) -> int:
        """How many starts the marker says died of an error at `position`."""
        errors = (self._read_at(position) or {}).get("errors")
        return errors if isinstance(errors, int) and not isinstance(errors, bool) and errors > 0 else 0

    def _died_fatally(self) -> bool:
        """The last start left a traceback of a fatal signal (then it is cleared: counted once)."""
        try:
            fatal = self.fatal_path.stat().st_size > 0
            self.fatal_path.unlink()
        except OSError:
            return False
        return fatal

    def _watch_fatal(self) -> None:
        """Until the first screens showed, a fatal signal's traceback goes into FATAL. Not when
        faulthandler is on already (PYTHONFAULTHANDLER, a test runner): that one is left as it is."""
        import faulthandler

        if faulthandler.is_enabled():
            return
        try:
            self._fatal_file = open(self.fatal_path, "w", encoding="utf-8")
        except OSError as exc:
            log.warning("start: %s not opened (%s): a fatal signal would go uncounted", self.fatal_path, exc)
            return
        faulthandler.enable(self._fatal_file)

    def died(self, exc: BaseException) -> None:
        """This start is dying of `exc` before its first screens: the marker records it, durably,
        at the journal's position now (a start may have journaled a loaded game first)."""
        if self.done or not counts(exc):
            return
        self.done = True
        try:
            position = self._position()
        except Exception:  # noqa: BLE001 - the journal itself may be what failed: its position at start
            position = self.position
        log.error("the start died of an error at action %s of game %s (%s: %s)",
                  position and position[1], position and position[0], type(exc).__name__, exc)
        self._write(position, self._errors_at(position) + 1, f"{type(exc).__name__}: {exc}"[:300])

    def _write(self, position: tuple[int, int] | None, errors: int, error: str | None = None) -> None:
        game, actions = position if position is not None else (None, None)
        marker: dict[str, Any] = {"game": game, "actions": actions, "errors": errors}
        if error is not None:
            marker["error"] = error
        try:
            atomic_write_text(self.path, json.dumps(marker))  # fsynced: a power cut right after keeps it
        except OSError as exc:  # a full card: the journal says so at its first write
            log.warning("start marker %s not written (%s)", self.path, exc)

    def started(self) -> None:
        """The first screens showed: this start went through."""
        self.done = True
        if self._fatal_file is not None:
            import faulthandler

            faulthandler.disable()
            self._fatal_file.close()
            self._fatal_file = None
        try:
            self.fatal_path.unlink(missing_ok=True)
            self.path.unlink(missing_ok=True)
            self.last_error_path.unlink(missing_ok=True)  # the first screens told it
        except OSError as exc:
            log.warning("start marker %s not removed (%s)", self.path, exc)


_starting: CrashGuard | None = None  # the guard of the start under way in this process, if any


def start_died(exc: BaseException) -> None:
    """The process is dying of `exc`: when a start is under way, its marker records the error;
    either way the next start's first screen will say the last run died of an error."""
    if _starting is not None:
        _starting.died(exc)
        _starting.ran_into(exc)


def counts(exc: BaseException) -> bool:
    """Whether a start dying of `exc` counts towards setting a move aside: an error of the
    program, not a refused input, a storage failure or an interruption."""
    return isinstance(exc, Exception) and not isinstance(exc, (UsageError, OSError))
