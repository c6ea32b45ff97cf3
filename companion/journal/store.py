"""The write-ahead journal (its schema, `Journal`) and the kiosk's writer (`JournalWriter`):
every accepted move and decision is on disk before the screen confirms it.

SQLite (WAL, synchronous=FULL) gives atomic commits through power loss. Each commit is
then checkpointed (copied into the database file, synced) before it is confirmed, so a
card that loses the -wal file (with or without its -shm) loses nothing confirmed; when a
reader of an older snapshot holds a checkpoint back, the `journal.sqlite3-behind` marker
says so until one completes, and a start that finds it without the WAL says saves were
lost. Rows carry a CRC32 of their JSON payload so that a damaged row (a torn sector, a
bad SD card) is detected. Every start checks the journal on a copy first
(`companion.journal.repair`): a damaged journal is kept aside byte for byte under a fresh name,
every readable action is salvaged into a fresh journal, and `Journal.repairs` says what
happened in short sentences for the OLED. Actions a game refuses are set aside
(`truncate_to`), the journal's files first copied under such a name too. Finished games
stay in the database as the kiosk's history; table-wide settings (the brightness) live
beside them, whatever game is played.

`JournalWriter` is the daemon's side: `write_all(effects)` writes every journal effect
of one batch (Persist, GameOver, SetBrightness) in ONE transaction, so a game's last
action and its "finished" entry survive a power cut together, and logs
`confirmed {action}` for every action once it is durable. A failed write raises
`JournalWriteError` (an OSError), rolls the transaction back and leaves the journal
as it was; the next write tries again.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from companion.table.effects import (Effect, GameOver, Persist, RemoveFromHistory, SetBrightness, SetLanguage,
                                     SetSound)
from companion.journal.repair import (BEHIND, SCHEMA, JournalError, JournalWriteError, check_and_repair, crc,
                                      fsync_dir, json_or_none, keep_aside, readable_prefix)

__all__ = ["Journal", "JournalWriter", "Resumed", "JournalError", "JournalWriteError", "find_state_dir", "PLAYED_HERE",
           "BOX_SETTING", "REMOVED", "IN_HISTORY"]

log = logging.getLogger("companion.table.journal")  # the name the box's log has always shown

BUSY_MS = 5000  # how long a write waits for another writer (sqlite3.connect's default)
CHECKPOINT_WAIT_MS = 200  # how long a checkpoint waits for a reader of an older snapshot (the page)
BOX_SETTING = "box_id"  # the box's own id (a uuid): its players' uuids in the exports are made from it
# A games row played at this table, not brought in by `companion import` (which marks its games'
# results "imported" and gives them the next ids): the table's current game is the newest of these.
PLAYED_HERE = ("NOT (finished IS NOT NULL AND CASE WHEN json_valid(result) "
               "THEN coalesce(json_extract(result, '$.imported'), 0) ELSE 0 END)")

# A finished game taken out of the history (`Journal.remove_game`, `companion history --remove N`): its
# row stays, its result marked {"removed": {"at": ..., "reason": ...}}; the history, statistics,
# exports, the page and the OLED read only the games rows that are IN_HISTORY.
REMOVED = "removed"
IN_HISTORY = ("NOT (CASE WHEN json_valid(result) THEN json_type(result, '$.removed') IS NOT NULL ELSE 0 END)")


def find_state_dir(explicit: str | None, cfg: Any, on_box: bool) -> str:
    """The one place that decides where the journal lives: `explicit` (--state-dir); else on the
    box (a config file, or a Raspberry Pi) the config's (its state_dir, else systemd's
    $STATE_DIRECTORY, else /var/lib/companion); else, on a laptop, a per-user state directory."""
    if explicit:
        return explicit
    if cfg is not None and (cfg.source != "<defaults>" or on_box or cfg.state_dir):
        return cfg.resolved_state_dir()
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(base, "companion")


@dataclass
class Resumed:
    """The newest game in the journal: unfinished, or finished with no newer game started.

    `actions` is its unbroken, readable prefix; `dropped` says what had to be set aside
    (those actions are kept in the `set_aside` table, never replayed). A finished game
    (`finished` True, `result` its result) is there so the final screen can be rebuilt.
    """

    game_id: int
    kind: str
    actions: list[dict[str, Any]]
    dropped: list[str] = field(default_factory=list)
    finished: bool = False
    result: dict[str, Any] | None = None


class Journal:
    """A durable, append-only log of the current game's actions, plus finished games' results.

    `repairs`: sentences for the table (repairs, set-asides); `last_copy`: the copy the last
    set-aside kept; `behind`: the last checkpoint was held back (saves in the WAL only).
    """

    def __init__(self, state_dir: str | Path, filename: str = "journal.sqlite3") -> None:
        self.dir = Path(state_dir)
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(f"cannot create the journal directory {self.dir}: {exc}") from exc
        self.path = self.dir / filename
        self.repairs: list[str] = check_and_repair(self.path)  # short sentences for the OLED
        self.game_id: int | None = None
        self.resumed_id: int | None = None
        self._seq = 0
        self._depth = 0
        self._pending: tuple[int, int, str] | None = None  # a set-aside whose write failed: (game, n, reason)
        self.last_copy: Path | None = None  # the copy the last set-aside kept (journal-damaged-N.sqlite3)
        self.behind = False  # the last checkpoint left confirmed saves in the WAL only (retried at each commit)
        self.db = self._connect()

    @property
    def notes(self) -> list[str]:
        """The repairs (the former name)."""
        return self.repairs

    def _connect(self) -> sqlite3.Connection:
        try:
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            db.execute(f"PRAGMA busy_timeout={BUSY_MS}")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.executescript(f"BEGIN IMMEDIATE; {SCHEMA} COMMIT;")  # all tables or none
            self.db = db
            self._checkpoint()  # the tables (a new journal) in the database file too
            return db
        except sqlite3.Error as exc:
            raise JournalError(f"cannot open the journal {self.path}: {exc}") from exc

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One transaction (BEGIN IMMEDIATE ... COMMIT); nested uses join the outer one.

        On any error it is rolled back, the in-memory position (game, seq) restored, and a
        database error raised as JournalWriteError. A set-aside whose write failed earlier
        (`truncate_to`) is made first, in the same transaction. Once committed, the WAL is
        checkpointed (`_checkpoint`): nothing confirmed lives in the WAL alone.
        """
        if self._depth:
            self._depth += 1
            try:
                yield self.db
            finally:
                self._depth -= 1
            return
        saved = (self.game_id, self._seq, self._pending)
        self._depth = 1
        try:
            self.db.execute("BEGIN IMMEDIATE")
            if self._pending is not None:
                self._set_aside(*self._pending)
            yield self.db
            self.db.execute("COMMIT")
        except BaseException as exc:
            self.game_id, self._seq, self._pending = saved
            try:
                self.db.execute("ROLLBACK")
            except sqlite3.Error:
                pass  # SQLite rolled back already (disk full, I/O error)
            if isinstance(exc, sqlite3.Error):
                log.error("journal write failed and was rolled back: %s", exc)
                raise JournalWriteError(f"journal write failed: {exc}") from exc
            raise
        finally:
            self._depth = 0
        self._checkpoint()

    def _checkpoint(self) -> None:
        """Copy the WAL's committed pages into the database file and sync it (a FULL checkpoint).

        A card that loses the -wal file (and its -shm) then loses nothing confirmed: the
        writer confirms an action only after this. It waits at most CHECKPOINT_WAIT_MS for a
        reader of an older snapshot (the table's page); if one holds it back, or the disk
        refuses, the saves are durable in the WAL all the same (`behind` says so, and the next
        commit tries again). Never raises: the transaction is committed whatever happens here.
        """
        try:
            self.db.execute(f"PRAGMA busy_timeout={CHECKPOINT_WAIT_MS}")
            try:
                busy, frames, copied = self.db.execute("PRAGMA wal_checkpoint(FULL)").fetchone()
            finally:
                self.db.execute(f"PRAGMA busy_timeout={BUSY_MS}")
        except sqlite3.Error as exc:
            busy, frames, copied = 1, -1, -1
            log.warning("journal: checkpoint failed (%s); the last saves are in the WAL only", exc)
        behind = bool(busy) or copied < frames
        if behind and not self.behind:
            log.warning("journal: checkpoint held back (%s of %s frames); the last saves are in the WAL only",
                        copied, frames)
        self.behind = behind
        self._mark_behind(behind)

    def _mark_behind(self, behind: bool) -> None:
        """Keep the marker `journal.sqlite3-behind` exactly while confirmed saves live in the WAL only.

        Made (and synced) before the save is confirmed, removed once a checkpoint has copied them:
        a start that finds it without the WAL says saves were lost (`repair.inspect`).
        It costs nothing while checkpoints complete (one stat a commit)."""
        marker = Path(f"{self.path}{BEHIND}")
        try:
            if behind and not marker.exists():
                fd = os.open(marker, os.O_CREAT | os.O_WRONLY, 0o644)
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)
                fsync_dir(self.dir)
            elif not behind and marker.exists():
                marker.unlink()
                fsync_dir(self.dir)
        except OSError as exc:
            log.warning("journal: marker %s not %s: %s", marker.name, "made" if behind else "removed", exc)

    # ----- writing -------------------------------------------------------------------
    def start_game(self, kind: str, first_actions: Iterable[dict[str, Any]] = ()) -> int:
        """Begin a new game (any unfinished one is closed as abandoned) and log its first actions."""
        with self._tx():
            self.db.execute("UPDATE games SET finished=?, result=? WHERE finished IS NULL",
                            (time.time(), json.dumps({"abandoned": True})))
            cur = self.db.execute("INSERT INTO games(kind, started) VALUES (?, ?)", (kind, time.time()))
            self.game_id = int(cur.lastrowid)
            self._seq = 0
            for action in first_actions:
                self._insert(action)
        return self.game_id

    def append(self, action: dict[str, Any]) -> None:
        """Log one action durably (returns only once it is on disk)."""
        self.extend([action])

    def extend(self, actions: Iterable[dict[str, Any]]) -> None:
        """Log several actions in one transaction: all of them or none survive a power cut."""
        actions = list(actions)
        if not actions:
            return
        if self.game_id is None:
            raise RuntimeError("no game started in the journal")
        with self._tx():
            for action in actions:
                self._insert(action)

    def _insert(self, action: dict[str, Any]) -> None:
        payload = json.dumps(action, separators=(",", ":"), sort_keys=True)
        self._seq += 1
        self.db.execute("INSERT INTO actions(game, seq, payload, crc) VALUES (?, ?, ?, ?)",
                        (self.game_id, self._seq, payload, crc(payload)))

    def finish(self, result: dict[str, Any]) -> None:
        """Mark the current game finished with its result (winners, totals...), for the history."""
        if self.game_id is None:
            return
        with self._tx():
            self.db.execute("UPDATE games SET finished=?, result=? WHERE id=?",
                            (time.time(), json.dumps(result), self.game_id))
            self.game_id = None

    def box_id(self) -> str:
        """The box's own id, made (a random uuid) and kept in the settings the first time it is asked for."""
        import uuid

        value = self.setting(BOX_SETTING)
        if not isinstance(value, str) or not value:
            value = str(uuid.uuid4())
            self.set_setting(BOX_SETTING, value)
        return value

    def set_setting(self, key: str, value: Any) -> None:
        """Keep a table-wide setting (e.g. the brightness) durably, whatever game is played."""
        with self._tx():
            self.db.execute("INSERT OR REPLACE INTO settings(key, value) VALUES (?, ?)", (key, json.dumps(value)))

    def setting(self, key: str) -> Any:
        """A setting kept by `set_setting`, or None (never set, or unreadable)."""
        try:
            row = self.db.execute("SELECT value FROM settings WHERE key=?", (key,)).fetchone()
            return json.loads(row[0]) if row else None
        except (sqlite3.Error, ValueError, TypeError):
            return None

    def truncate_to(self, n_actions: int, reason: str, game_id: int | None = None) -> int:
        """Keep the first `n_actions` actions of game `game_id` in play and set the later ones aside.

        The game is `game_id`, else the resumed one, else the current one, else (a journal just
        opened, nothing resumed) the newest game in the journal, finished or not. Returns how
        many actions were set aside (0: nothing after `n_actions`, nothing done, nothing said).

        What it keeps: the later actions move to the `set_aside` table with `reason` and the
        time (never deleted, never replayed); before they move, the journal's files as they
        were (database and WAL, byte for byte) are copied to `journal-damaged-N.sqlite3`
        (`repair.keep_aside`, the name a repair uses; `last_copy` holds it), in the
        same write-locked transaction. A sentence for the table joins `repairs`:
        "Game replays 3 actions: 3 later set aside (reason). Saved as journal-damaged-1.sqlite3".
        Later appends continue from action `n_actions` (when it is the current game).

        Safe right after opening: nothing needs to be resumed first, and `resume()` then
        returns only the first `n_actions`. It never raises for the storage: when the copy
        cannot be made the actions are set aside all the same (the sentence says "no copy");
        when the set-aside cannot be written (a full or failing card), `resume()` already
        leaves those actions out and the next write makes the set-aside first, in its own
        transaction (a write that fails is refused, as any other).
        """
        n = max(0, int(n_actions))
        gid = next((g for g in (game_id, self.resumed_id, self.game_id) if g is not None), None)
        try:
            if gid is None:
                row = self.db.execute(f"SELECT max(id) FROM games WHERE {PLAYED_HERE}").fetchone()
                gid = row[0] if row else None
            if gid is None:
                return 0
            moved = self._set_aside(gid, n, reason)
        except (JournalWriteError, sqlite3.Error) as exc:
            self._pending = (gid, n, reason)
            if gid == self.game_id:
                self._seq = min(self._seq, n)
            log.error("journal: game %s: the actions after %d cannot be set aside now (%s); "
                      "the next write does it first", gid, n, exc)
            self.repairs.append(f"Game replays {n} actions: the later ones are set aside at the next save "
                                f"({reason})")
            return 0
        if moved:
            self.repairs.append(f"Game replays {n} actions: {moved} later set aside ({reason}). {self._copy_said()}")
        return moved

    def _copy_said(self) -> str:
        """The repair sentences' last words: the copy's name, or that none could be kept."""
        return f"Saved as {self.last_copy.name}" if self.last_copy is not None else "No copy kept (no room?)"

    def _set_aside(self, gid: int, n: int, reason: str) -> int:
        """Move game `gid`'s actions after `n` to `set_aside`, the journal first copied aside (`truncate_to`)."""
        with self._tx():
            later = self.db.execute("SELECT count(*) FROM actions WHERE game=? AND seq>?", (gid, n)).fetchone()[0]
            if self._pending is not None and self._pending[0] == gid:
                self._pending = None
            if gid == self.game_id:
                self._seq = min(self._seq, n)
            if not later:
                return 0
            try:  # under the write lock: the files are as they were before this transaction
                self.last_copy = keep_aside(self.path, copy=True)
            except OSError as exc:
                self.last_copy = None
                log.error("journal: no copy of %s kept before setting actions aside: %s", self.path, exc)
            moved = self.db.execute(
                "INSERT INTO set_aside(game, seq, payload, crc, reason, at) "
                "SELECT game, seq, payload, crc, ?, ? FROM actions WHERE game=? AND seq>?",
                (reason, time.time(), gid, n)).rowcount
            self.db.execute("DELETE FROM actions WHERE game=? AND seq>?", (gid, n))
        log.warning("journal: game %s kept to action %d, %d set aside: %s (copy: %s)", gid, n, moved, reason,
                    self.last_copy)
        return moved

    def remove_game(self, game_id: int, reason: str) -> str | None:
        """Take finished game `game_id` out of the history: kept aside in its own row, as a set-aside
        action is kept (its result, actions and times stay; the result gains `REMOVED` with `reason`
        and the time; an unreadable result is kept whole under "unreadable"). None when done, else why
        not, in a few words (no such game, not finished, taken out already)."""
        with self._tx() as db:
            row = db.execute("SELECT finished, result FROM games WHERE id=?", (game_id,)).fetchone()
            if row is None:
                return "there is no such game"
            if row[0] is None:
                return "it is not finished"
            result = json_or_none(row[1])
            mark = {"at": time.time(), "reason": reason}
            if isinstance(result, dict):
                if REMOVED in result:
                    return "it was taken out already"
                kept = {**result, REMOVED: mark}
            else:
                kept = {REMOVED: mark, "unreadable": row[1] if isinstance(row[1], str) else None}
            db.execute("UPDATE games SET result=? WHERE id=?", (json.dumps(kept), game_id))
        log.warning("journal: game %s taken out of the history: %s", game_id, reason)
        return None

    def import_games(self, choose: Callable[[list[tuple[Any, Any, Any]]], list[tuple[str, float, float, dict]]]
                     ) -> list[tuple[str, float, float, dict]]:
        """Add finished games brought from elsewhere (`companion import`), in ONE transaction.

        `choose` is handed the history's games as (kind, started, result text) rows (those taken out
        left out) and returns the games to add, as (kind, started, finished, result); each is added
        under a new id after every game already there, in order. Returns what `choose` returned."""
        with self._tx() as db:
            known = db.execute(f"SELECT kind, started, result FROM games WHERE {IN_HISTORY}").fetchall()
            fresh = choose(known)
            top = db.execute("SELECT max(id) FROM games").fetchone()[0]
            first = max(0, int(top or 0)) + 1
            for i, (kind, started, finished, result) in enumerate(fresh):
                db.execute("INSERT INTO games(id, kind, started, finished, result) VALUES (?, ?, ?, ?, ?)",
                           (first + i, kind, started, finished, json.dumps(result)))
        return fresh

    # ----- reading -------------------------------------------------------------------
    def resume(self, include_finished: bool = False) -> Resumed | None:
        """The newest game: unfinished (appends continue it), or, with `include_finished`,
        finished with no newer game started (`finished` True; appends need a new game).

        Its actions are the unbroken readable prefix; anything after a hole is set aside.
        """
        try:
            row = self.db.execute(f"SELECT id, kind, finished, result FROM games WHERE {PLAYED_HERE} "
                                  "ORDER BY id DESC LIMIT 1").fetchone()
            if row is None:
                return None
            game_id, kind, finished = int(row[0]), str(row[1]), row[2] is not None
            result = json_or_none(row[3])
            if finished and (not include_finished or not isinstance(result, dict) or result.get("abandoned")):
                return None
            rows = self.db.execute("SELECT seq, payload, crc FROM actions WHERE game=? ORDER BY seq",
                                   (game_id,)).fetchall()
        except sqlite3.Error as exc:
            note = f"Journal unreadable while resuming ({exc}); a new game starts"
            log.error(note)
            self.repairs.append(note)
            return None
        actions, problem = readable_prefix(rows)
        pending = self._pending
        if pending is not None and pending[0] == game_id and pending[1] <= len(actions):
            actions, problem = actions[:pending[1]], None  # a set-aside not written yet: the rest is out
        dropped: list[str] = []
        if problem is not None:
            try:
                moved = self._set_aside(game_id, len(actions), problem)
                copy = f". {self._copy_said()}" if moved else ""
            except JournalWriteError:  # made by the next write, first (see truncate_to)
                self._pending = (game_id, len(actions), problem)
                moved, copy = len(rows) - len(actions), ""
            dropped.append(f"{problem}; set it and later actions aside ({moved})")
            self.repairs.append(f"Journal: {problem}, {moved} action(s) set aside{copy}")
        self.resumed_id = game_id
        self.game_id, self._seq = (None, 0) if finished else (game_id, len(actions))
        return Resumed(game_id, kind, actions, dropped, finished, result if finished else None)

    def started_at(self, game_id: int) -> float | None:
        """When game `game_id` was started (seconds since the epoch), or None if unknown."""
        row = self.db.execute("SELECT started FROM games WHERE id=?", (game_id,)).fetchone()
        return row[0] if row else None

    def set_aside_rows(self) -> list[dict[str, Any]]:
        """The actions kept out of play (salvaged after a hole, or refused by their game)."""
        rows = self.db.execute("SELECT game, seq, payload, reason FROM set_aside ORDER BY game, seq").fetchall()
        return [{"game": r[0], "seq": r[1], "action": json_or_none(r[2]), "reason": r[3]} for r in rows]

    def history(self, limit: int = 20) -> list[dict[str, Any]]:
        """Finished games, newest first (by their start: an imported game takes its place in play
        order), those taken out of the history left out: id, kind, start and end times, result."""
        try:
            rows = self.db.execute(
                f"SELECT id, kind, started, finished, result FROM games WHERE finished IS NOT NULL AND {IN_HISTORY} "
                "ORDER BY started DESC, id DESC LIMIT ?", (limit,)).fetchall()
        except sqlite3.Error:
            return []
        return [{"id": r[0], "kind": r[1], "started": r[2], "finished": r[3], "result": json_or_none(r[4])}
                for r in rows]

    def close(self) -> None:
        """Close the journal: SQLite copies the WAL into the database and deletes it (when no
        reader is left), and then nothing lives in a WAL: the BEHIND marker goes too."""
        try:
            self.db.close()
        except sqlite3.Error:
            pass
        if not Path(f"{self.path}-wal").exists():
            self._mark_behind(False)


confirmed_log = logging.getLogger("companion.run")  # tests outside the repo read these lines

JOURNAL_EFFECTS = (Persist, GameOver, SetBrightness, SetLanguage, SetSound, RemoveFromHistory)


class JournalWriter:
    """Writes a game's effects to the journal: Persist (a new game opens a new entry), GameOver, SetBrightness."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal  # the tools' (bench, tests); the kiosk asks through the methods below

    # ----- the port (companion.journal.port.JournalPort): what the kiosk asks of its journal ------
    @property
    def repairs(self) -> list[str]:
        return self.journal.repairs

    @property
    def state_dir(self) -> str:
        return str(self.journal.dir)

    def setting(self, key: str) -> Any:
        return self.journal.setting(key)

    def set_setting(self, key: str, value: Any) -> None:
        self.journal.set_setting(key, value)

    def resume(self, include_finished: bool = False) -> Resumed | None:
        return self.journal.resume(include_finished=include_finished)

    def started_at(self, game_id: int) -> float | None:
        return self.journal.started_at(game_id)

    def truncate_to(self, n_actions: int, reason: str, game_id: int | None = None) -> int:
        return self.journal.truncate_to(n_actions, reason, game_id)

    def remove_game(self, game_id: int, reason: str) -> str | None:
        return self.journal.remove_game(game_id, reason)

    def history(self, limit: int = 20) -> list[dict[str, Any]]:
        return self.journal.history(limit)

    def close(self) -> None:
        self.journal.close()

    def _persist(self, effect: Persist) -> None:
        actions = list(effect.actions)
        if effect.new_game or self.journal.game_id is None:
            self.journal.start_game(effect.kind, actions[:1])
            actions = actions[1:]
        self.journal.extend(actions)

    def _one(self, effect: Effect) -> None:
        if isinstance(effect, Persist):
            self._persist(effect)
        elif isinstance(effect, GameOver):
            self.journal.finish(effect.result)
        elif isinstance(effect, SetBrightness):
            self.journal.set_setting("brightness", effect.level)
        elif isinstance(effect, SetLanguage):
            self.journal.set_setting("language", effect.code)
        elif isinstance(effect, SetSound):
            self.journal.set_setting("sound", effect.settings.as_dict())
        elif isinstance(effect, RemoveFromHistory):
            why = self.journal.remove_game(effect.game_id, "taken out at the table (History, C)")
            if why is not None:
                log.warning("journal: game %s not taken out of the history: %s", effect.game_id, why)

    def write_all(self, effects: Iterable[Effect]) -> list[Effect]:
        """Write every journal effect of `effects` (Persist, GameOver, SetBrightness) in ONE
        transaction, in order; return the other effects, in order, for the caller to carry out.

        SetBrightness is journaled and not returned: the caller sets the panel itself.
        Raises JournalWriteError (nothing of the batch written) when the write fails.
        """
        effects = list(effects)
        mine = [e for e in effects if isinstance(e, JOURNAL_EFFECTS)]
        if mine:
            with self.journal._tx():
                for effect in mine:
                    self._one(effect)
            self._confirm(mine)
        return [e for e in effects if not isinstance(e, JOURNAL_EFFECTS)]

    def persist(self, effect: Persist) -> None:
        self.write_all([effect])

    def write(self, effect: Effect) -> bool:
        """Write `effect` if it is the journal's (JournalWriteError if that fails); False for any other effect."""
        return not self.write_all([effect])

    @staticmethod
    def _confirm(effects: list[Effect]) -> None:
        for effect in effects:
            if isinstance(effect, Persist):
                for action in effect.public():  # only now are they durable: tests of power cuts read these
                    confirmed_log.info("confirmed %s", json.dumps(action, separators=(",", ":")))
