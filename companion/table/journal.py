"""The write-ahead journal: every accepted move and decision is on disk before the screen confirms it.

SQLite (WAL, synchronous=FULL) gives atomic commits through power loss; each
action is one transaction. Rows carry a CRC32 of their JSON payload so that a
damaged row (a torn sector, a bad SD card) is detected: replay stops at the first
bad row, the rest is dropped, and the journal says so. A database that cannot be
opened at all is moved aside (never deleted) and a fresh one started, so start-up
never crashes. Finished games stay in the database as the kiosk's history; table-wide
settings (the brightness) live beside them, whatever game is played.

`JournalWriter` is the daemon's side: it takes the effects a game puts in its outbox
(Persist, GameOver, SetBrightness) and writes them, logging `confirmed {action}` for
every action once it is durable.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.table.effects import Effect, GameOver, Persist, SetBrightness

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    started REAL NOT NULL,
    finished REAL,
    result TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    payload TEXT NOT NULL,
    crc INTEGER NOT NULL,
    PRIMARY KEY (game, seq)
);
CREATE TABLE IF NOT EXISTS settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


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


def _crc(payload: str) -> int:
    return zlib.crc32(payload.encode("utf-8"))


@dataclass
class Resumed:
    """The unfinished game found in the journal, and what (if anything) had to be dropped."""

    game_id: int
    kind: str
    actions: list[dict[str, Any]]
    dropped: list[str] = field(default_factory=list)


class Journal:
    """A durable, append-only log of the current game's actions, plus finished games' results."""

    def __init__(self, state_dir: str | Path, filename: str = "journal.sqlite3") -> None:
        self.dir = Path(state_dir)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.path = self.dir / filename
        self.notes: list[str] = []  # what start-up had to repair, for the log and the screen
        self.db = self._open()
        self.game_id: int | None = None
        self._seq = 0

    def _open(self) -> sqlite3.Connection:
        try:
            db = self._connect()
            db.execute("SELECT count(*) FROM actions").fetchone()
            return db
        except sqlite3.DatabaseError as exc:
            aside = self.path.with_name(f"{self.path.name}.damaged-{int(time.time())}")
            for suffix in ("", "-wal", "-shm"):
                src = Path(str(self.path) + suffix)
                if src.exists():
                    os.replace(src, Path(str(aside) + suffix))
            note = f"journal {self.path} could not be read ({exc}); moved aside to {aside.name}, starting afresh"
            log.error(note)
            self.notes.append(note)
            return self._connect()

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.executescript(SCHEMA)
        return db

    # ----- writing -------------------------------------------------------------------
    def start_game(self, kind: str, first_actions: list[dict[str, Any]] = ()) -> int:
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
        if self.game_id is None:
            raise RuntimeError("no game started in the journal")
        with self._tx():
            self._insert(action)

    def extend(self, actions: list[dict[str, Any]]) -> None:
        """Log several actions in one transaction: all of them or none survive a power cut."""
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
                        (self.game_id, self._seq, payload, _crc(payload)))

    def finish(self, result: dict[str, Any]) -> None:
        """Mark the current game finished with its result (winners, totals...), for the history."""
        if self.game_id is None:
            return
        with self._tx():
            self.db.execute("UPDATE games SET finished=?, result=? WHERE id=?",
                            (time.time(), json.dumps(result), self.game_id))
        self.game_id = None

    def set_setting(self, key: str, value: Any) -> None:
        """Keep a table-wide setting (e.g. the brightness) durably, whatever game is played."""
        with self._tx():
            self.db.execute("INSERT OR REPLACE INTO settings(key, value) VALUES (?, ?)", (key, json.dumps(value)))

    def setting(self, key: str) -> Any:
        """A setting kept by `set_setting`, or None (never set, or unreadable)."""
        try:
            row = self.db.execute("SELECT value FROM settings WHERE key=?", (key,)).fetchone()
            return json.loads(row[0]) if row else None
        except (sqlite3.DatabaseError, ValueError):
            return None

    def _tx(self):
        return _Transaction(self.db)

    # ----- reading -------------------------------------------------------------------
    def resume(self) -> Resumed | None:
        """The unfinished game, with its actions up to the first damaged row (the rest is dropped)."""
        try:
            row = self.db.execute(
                "SELECT id, kind FROM games WHERE finished IS NULL ORDER BY id DESC LIMIT 1").fetchone()
            if row is None:
                return None
            game_id, kind = int(row[0]), str(row[1])
            rows = self.db.execute("SELECT seq, payload, crc FROM actions WHERE game=? ORDER BY seq",
                                   (game_id,)).fetchall()
        except sqlite3.DatabaseError as exc:
            note = f"journal unreadable while resuming ({exc}); starting a new game"
            log.error(note)
            self.notes.append(note)
            return None
        actions: list[dict[str, Any]] = []
        dropped: list[str] = []
        expected = 1
        for i, (seq, payload, crc) in enumerate(rows):
            problem = None
            if seq != expected:
                problem = f"action {expected} is missing"
            elif not isinstance(payload, str) or _crc(payload) != crc:
                problem = f"action {seq} is damaged (checksum mismatch)"
            else:
                try:
                    action = json.loads(payload)
                    if not isinstance(action, dict):
                        raise ValueError("not an object")
                except ValueError:
                    problem = f"action {seq} is not valid JSON"
            if problem:
                dropped.append(f"{problem}; dropped it and {len(rows) - i - 1} later action(s)")
                self._truncate(game_id, seq)
                break
            actions.append(action)
            expected += 1
        for d in dropped:
            log.warning("journal: %s", d)
        self.game_id, self._seq = game_id, len(actions)
        return Resumed(game_id, kind, actions, dropped)

    def _truncate(self, game_id: int, from_seq: int) -> None:
        try:
            with self._tx():
                self.db.execute("DELETE FROM actions WHERE game=? AND seq>=?", (game_id, from_seq))
        except sqlite3.DatabaseError as exc:
            log.error("journal: could not drop damaged actions: %s", exc)

    def history(self, limit: int = 20) -> list[dict[str, Any]]:
        """Finished games, newest first: kind, start and end times, result."""
        rows = self.db.execute(
            "SELECT id, kind, started, finished, result FROM games WHERE finished IS NOT NULL "
            "ORDER BY id DESC LIMIT ?", (limit,)).fetchall()
        return [{"id": r[0], "kind": r[1], "started": r[2], "finished": r[3],
                 "result": json.loads(r[4]) if r[4] else None} for r in rows]

    def close(self) -> None:
        try:
            self.db.close()
        except sqlite3.Error:
            pass


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on error (the connection is in autocommit mode)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, exc_type, exc, tb) -> None:
        self.db.execute("ROLLBACK" if exc_type else "COMMIT")


confirmed_log = logging.getLogger("companion.run")  # tests outside the repo read these lines


class JournalWriter:
    """Writes a game's effects to the journal: Persist (a new game opens a new entry), GameOver, SetBrightness."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal

    def persist(self, effect: Persist) -> None:
        actions = list(effect.actions)
        if effect.new_game or self.journal.game_id is None:
            self.journal.start_game(effect.kind, actions[:1])
            actions = actions[1:]
        self.journal.extend(actions)
        for action in effect.public():  # only now are they durable: tests of power cuts read these lines
            confirmed_log.info("confirmed %s", json.dumps(action, separators=(",", ":")))

    def write(self, effect: Effect) -> bool:
        """Write `effect` if it is the journal's; False for any other effect."""
        if isinstance(effect, Persist):
            self.persist(effect)
        elif isinstance(effect, GameOver):
            self.journal.finish(effect.result)
        elif isinstance(effect, SetBrightness):
            self.journal.set_setting("brightness", effect.level)
        else:
            return False
        return True
