"""The kiosk's journal, read only, for the table's page and the history: never a write, never a lock held.

Every read opens its own connection (`mode=ro`): the daemon may replace the journal
file (a repair keeps a damaged one aside under a new name), restart, or not run at all.
WAL lets this process read while the daemon writes. A read-only reader of a WAL
database needs the -wal/-shm files, and SQLite makes them when they are missing and the
directory is writable: so they are used only when both are there already (the daemon
keeps them while it runs). When either is gone (the daemon closed the journal cleanly,
or never ran here), the file is read as `immutable`, a snapshot that is right because
nobody writes it then (the daemon checkpoints every commit into the file), and nothing
is created beside it.

`signature()` is the cheap question asked a few times a second: which game is newest,
how many actions it has, whether it is finished, the table's language. The newest game is
the newest played at this table (`store.PLAYED_HERE`): games brought in by `companion
import` take the next ids but are never the page's current game (they are in the list of
games, in play order, and replay like any other). Any change means
"rebuild the view". Damaged rows end a game's actions at the last good one, like the
daemon's own resume; nothing here raises sqlite3 errors: `JournalUnavailable` says why.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence
from urllib.parse import quote

from companion.journal.store import BOX_SETTING, IN_HISTORY, PLAYED_HERE
from companion.table.gametimes import stored_times_problem
from companion.journal.repair import json_or_none, readable_prefix

JOURNAL_FILE = "journal.sqlite3"

_PART = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")  # a dotted key: "record.moves"


def _lean_result(leave_out: Mapping[str, Sequence[str]]) -> tuple[str, tuple]:
    """The SQL of a games row's result without the parts `leave_out` names per game kind (removed in
    SQLite, parsed in C: thousands of games read in a fraction of a second), and its arguments (the
    kinds and the parts are bound, never written into the statement). ValueError for a part that is
    not a dotted key."""
    cases, args = [], []
    for kind, parts in leave_out.items():
        parts = (parts,) if isinstance(parts, str) else tuple(parts)
        bad = [p for p in parts if not isinstance(p, str) or not _PART.fullmatch(p)]
        if bad or not isinstance(kind, str):
            raise ValueError(f"parts of a result to leave out are dotted keys (record.moves), not {bad[:1]}")
        if parts:
            cases.append(f"WHEN ? THEN json_remove(g.result{', ?' * len(parts)})")
            args += [kind, *(f"$.{p}" for p in parts)]
    if not cases:
        return "g.result", ()
    return f"CASE WHEN json_valid(g.result) THEN CASE g.kind {' '.join(cases)} ELSE g.result END " \
           "ELSE g.result END", tuple(args)


def _text(raw: bytes) -> str:
    """A stored text, its damaged bytes replaced: one bad row must not make a whole query fail."""
    return raw.decode("utf-8", "replace")


def _start(started: Any, finished: Any) -> float:
    """A row's start, 0 (no date) when its times are none a date can be made of (`gametimes`)."""
    return 0.0 if stored_times_problem(started, finished) else float(started or 0)


class JournalUnavailable(Exception):
    """The journal cannot be read now (missing, damaged, not a journal): the message says which."""


@dataclass
class GameRows:
    """One game of the journal: its entry and the unbroken readable prefix of its actions."""

    game_id: int
    kind: str
    started: float
    finished: float | None
    result: Any
    actions: list[dict] = field(default_factory=list)

    @property
    def abandoned(self) -> bool:
        return isinstance(self.result, dict) and bool(self.result.get("abandoned"))


class JournalReader:
    """Reads the journal in `state_dir` (see the module docstring)."""

    def __init__(self, state_dir: str | Path) -> None:
        self.path = Path(state_dir) / JOURNAL_FILE

    def _open(self) -> sqlite3.Connection:
        if not self.path.is_file():
            raise JournalUnavailable(f"no journal yet in {self.path.parent} (the table has not played there)")
        uri = "file:" + quote(str(self.path.resolve()))
        try:
            if not self.writer_files():
                raise sqlite3.OperationalError("no -wal/-shm: read a snapshot")  # never make them
            return self._connect(uri + "?mode=ro", timeout=0.5)
        except sqlite3.DatabaseError as exc:
            self._not_a_journal(exc)
        try:  # no -wal/-shm (or no right to use them): nobody writes now, read a snapshot
            return self._connect(uri + "?immutable=1")
        except sqlite3.DatabaseError as exc:
            self._not_a_journal(exc)
            raise JournalUnavailable(f"the journal cannot be read ({exc})") from None

    @staticmethod
    def _connect(uri: str, **options: float) -> sqlite3.Connection:
        db = sqlite3.connect(uri, uri=True, **options)
        db.text_factory = _text
        db.execute("SELECT 1 FROM games LIMIT 1").fetchall()
        return db

    def _not_a_journal(self, exc: sqlite3.DatabaseError) -> None:
        """Raise JournalUnavailable when `exc` says the file is no companion journal at all."""
        if "no such table" in str(exc) or "not a database" in str(exc):
            raise JournalUnavailable(f"{self.path.name} is not a companion journal ({exc})") from None

    def writer_files(self) -> bool:
        """True when the journal's -wal and -shm both exist (a daemon has it open, or was stopped
        hard): only then may SQLite use them, since a reader would otherwise create them."""
        return Path(f"{self.path}-wal").is_file() and Path(f"{self.path}-shm").is_file()

    def query(self, sql: str, args: tuple = ()) -> list[tuple]:
        db = self._open()
        try:
            return db.execute(sql, args).fetchall()
        except sqlite3.DatabaseError as exc:
            raise JournalUnavailable(f"the journal cannot be read ({exc})") from None
        finally:
            db.close()

    def signature(self) -> tuple:
        """Changes whenever the page must be rebuilt (a move, an undo, a new game, the language)."""
        db = self._open()
        try:
            top = db.execute(f"SELECT id, finished IS NOT NULL FROM games WHERE {PLAYED_HERE} "
                             "ORDER BY id DESC LIMIT 1").fetchone()
            count = db.execute("SELECT count(*), max(seq) FROM actions WHERE game=?",
                               (top[0],)).fetchone() if top else None
            lang = db.execute("SELECT value FROM settings WHERE key='language'").fetchone()
            return (tuple(top) if top else None, tuple(count) if count else None, lang[0] if lang else None)
        except sqlite3.DatabaseError as exc:
            raise JournalUnavailable(f"the journal cannot be read ({exc})") from None
        finally:
            db.close()

    def latest_id(self) -> int | None:
        """The table's current game: the newest played here (an imported game never is)."""
        rows = self.query(f"SELECT id FROM games WHERE {PLAYED_HERE} ORDER BY id DESC LIMIT 1")
        return int(rows[0][0]) if rows else None

    def game(self, game_id: int) -> GameRows | None:
        """Game `game_id` with its readable actions; None when there is no such game."""
        rows = self.query("SELECT id, kind, started, finished, result FROM games WHERE id=?", (game_id,))
        if not rows:
            return None
        gid, kind, started, finished, result = rows[0]
        # a hole or a damaged row ends them, as the daemon's resume does (it sets the rest aside)
        actions, _problem = readable_prefix(self.query(
            "SELECT seq, payload, crc FROM actions WHERE game=? ORDER BY seq", (game_id,)))
        return GameRows(int(gid), str(kind), _start(started, finished), finished, json_or_none(result), actions)

    def games(self, limit: int = 100) -> list[GameRows]:
        """The games, the last played first (by their start: an imported game takes a new id but
        keeps its time), without their actions (the replay list); those taken out of the history
        (`store.IN_HISTORY`) left out."""
        rows = self.query(f"SELECT id, kind, started, finished, result FROM games WHERE {IN_HISTORY} "
                          "ORDER BY started DESC, id DESC LIMIT ?", (limit,))
        return [GameRows(int(r[0]), str(r[1]), _start(r[2], r[3]), r[3], json_or_none(r[4])) for r in rows]

    def setting(self, key: str) -> Any:
        rows = self.query("SELECT value FROM settings WHERE key=?", (key,))
        return json_or_none(rows[0][0]) if rows else None

    # ----- the history's questions (companion.history, the page's history): asked here, no SQL there --
    def check(self) -> None:
        """Nothing when the journal can be read, else JournalUnavailable saying why (nothing is made)."""
        self.query("SELECT 1 FROM games LIMIT 1")

    def has_setting(self, key: str) -> bool:
        """Whether setting `key` is kept at all (whatever its value)."""
        return bool(self.query("SELECT 1 FROM settings WHERE key=?", (key,)))

    def box_setting(self) -> Any:
        """The box's own id as kept (`store.BOX_SETTING`), None without one."""
        return self.setting(BOX_SETTING)

    def history_signature(self) -> tuple:
        """(how many finished games the history holds, when the last finished): changes when one is added,
        taken out or imported."""
        return tuple(self.query(
            f"SELECT count(*), max(finished) FROM games WHERE finished IS NOT NULL AND {IN_HISTORY}")[0])

    def finished_games(self, game_id: int | None = None,
                       leave_out: Mapping[str, Sequence[str]] | None = None) -> list[tuple]:
        """The history's finished games, oldest first by their start (imported games keep theirs), as rows
        (id, kind, started, finished, result text, how many actions). `game_id`: that game only (if in the
        history). `leave_out`: per game kind, the parts of its result (dotted keys: "record.moves") the
        caller never reads, taken out before they leave SQLite; the journal knows no game's result, the
        caller names them (the history asks each game: companion.history.plays.lean_parts)."""
        result, args = _lean_result(leave_out or {})
        only = "AND g.id = ? " if game_id is not None else ""
        return self.query(
            f"SELECT g.id, g.kind, g.started, g.finished, {result}, "
            "(SELECT count(*) FROM actions a WHERE a.game = g.id) "
            f"FROM games g WHERE g.finished IS NOT NULL AND {IN_HISTORY} {only}ORDER BY g.started, g.id",
            args + (() if game_id is None else (game_id,)))

    def in_history(self, game_id: int) -> bool:
        """True while the journal holds `game_id` as a finished game of the history."""
        return bool(self.query(f"SELECT 1 FROM games WHERE id=? AND finished IS NOT NULL AND {IN_HISTORY}",
                               (game_id,)))
