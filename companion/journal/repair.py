"""Checking the journal at start-up, and rescuing what a damaged one still holds.

The check never touches the journal itself: the database and its write-ahead log (WAL)
are first copied into a scratch directory, and SQLite's own checks run on the copy
(`PRAGMA integrity_check`, the WAL as SQLite reads it, every row's CRC32). Nothing can
therefore checkpoint or delete a damaged WAL before it is kept.

A damaged journal is moved aside, byte for byte (database, WAL, shared-memory file and
the BEHIND marker), under a name reserved with O_EXCL and a counter
(`journal-damaged-3.sqlite3`), so two repairs in the same second never overwrite each
other; `keep_aside` is that one step, and it also copies a journal in use when a game's
actions are set aside (`Journal.truncate_to`). Every row that can
still be read is salvaged row by row (per-rowid SELECTs, so one damaged row or page
does not hide the valid rows after it), and a fresh journal holding the salvaged games
takes the journal's place. Each game keeps its unbroken prefix of actions; readable
actions after a hole are kept in the `set_aside` table, never replayed and never
dropped. The repair is summed up in one short sentence for the OLED.

A WAL loses committed transactions silently when one of its frames is damaged: SQLite
stops reading the log at the first bad frame. The damage is detected by looking for
commit frames of the WAL's current generation (same salts) beyond the last frame
SQLite accepted; the last transaction of the log is not counted, as a write torn by a
power cut looks the same and was never confirmed. A WAL lost whole is no loss when every
commit was checkpointed (the journal does that before it confirms); the BEHIND marker
(`journal.sqlite3-behind`) exists while confirmed saves are in the WAL only, so the
marker without a WAL means saves were lost.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import sqlite3
import tempfile
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from companion.util.errors import CompanionError

log = logging.getLogger("companion.table.journal")  # the journal's one name in the box's log (store.py)

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
CREATE TABLE IF NOT EXISTS set_aside (
    game INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    payload TEXT NOT NULL,
    crc INTEGER NOT NULL,
    reason TEXT NOT NULL,
    at REAL NOT NULL
);
"""

EXPECTED_COLUMNS = {"games": "id, kind, started, finished, result", "actions": "game, seq, payload, crc",
                    "settings": "key, value"}
MAX_PROBE = 200_000  # rowids probed one by one in a damaged table, at most
BEHIND = "-behind"  # `journal.sqlite3-behind`: confirmed saves live in the WAL only (a checkpoint held back)
SIDE_FILES = ("-wal", "-shm", BEHIND)  # what a journal's database has beside it


class JournalError(CompanionError, OSError):
    """The journal cannot be opened or checked (no room, no permission): run without one."""


class JournalWriteError(JournalError):
    """A write to the journal failed; it was rolled back and the journal is as before it."""


def crc(payload: str) -> int:
    return zlib.crc32(payload.encode("utf-8"))


def valid_action(payload: Any, checksum: Any) -> dict[str, Any] | None:
    """The action stored as `payload`, or None when its type, checksum or JSON is wrong."""
    if not isinstance(payload, str) or not isinstance(checksum, int) or crc(payload) != checksum:
        return None
    try:
        action = json.loads(payload)
    except ValueError:
        return None
    return action if isinstance(action, dict) else None


def readable_prefix(rows: Iterable[tuple[Any, Any, Any]]) -> tuple[list[dict[str, Any]], str | None]:
    """A game's unbroken readable actions from its (seq, payload, crc) rows in seq order, and
    what ended them early ("action 5 is missing" / "action 5 is damaged"), or None."""
    actions: list[dict[str, Any]] = []
    for seq, payload, checksum in rows:
        action = valid_action(payload, checksum)
        if seq != len(actions) + 1:
            return actions, f"action {len(actions) + 1} is missing"
        if action is None:
            return actions, f"action {seq} is damaged"
        actions.append(action)
    return actions, None


def json_or_none(text: Any) -> Any:
    """The JSON value stored as `text`, or None when it is not text or not JSON."""
    try:
        return json.loads(text) if isinstance(text, str) else None
    except ValueError:
        return None


@dataclass
class Salvage:
    """What could be read from a damaged journal."""

    games: dict[int, tuple[str, float, float | None, str | None]] = field(default_factory=dict)
    actions: dict[tuple[int, int], tuple[str, int]] = field(default_factory=dict)  # valid rows
    known: set[tuple[int, int]] = field(default_factory=set)  # every (game, seq) seen, valid or not
    settings: dict[str, str] = field(default_factory=dict)
    set_aside: dict[int, tuple] = field(default_factory=dict)  # rowid: (game, seq, payload, crc, reason, at)


def fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _scan(db: sqlite3.Connection, sql: str, args: tuple = ()) -> list[tuple]:
    """The rows of `sql` up to the first error (a damaged page ends the scan, not the salvage)."""
    out: list[tuple] = []
    try:
        for row in db.execute(sql, args):
            out.append(row)
    except (sqlite3.Error, OverflowError, ValueError):
        pass
    return out


def _one(db: sqlite3.Connection, sql: str, args: tuple = ()) -> tuple | None:
    try:
        return db.execute(sql, args).fetchone()
    except (sqlite3.Error, OverflowError, ValueError):
        return None


def shm_committed_frames(shm: bytes, wal: bytes) -> int:
    """How many WAL frames the shared-memory index says were committed (0 when it says nothing
    trustworthy): its header's two copies must agree and carry the WAL's salts. SQLite updates it
    only after the WAL is synced, so it never claims more than was durably written."""
    if len(shm) < 96 or len(wal) < 32 or shm[0:48] != shm[48:96] or shm[12] != 1:
        return 0
    order = "little" if int.from_bytes(shm[0:4], "little") == 3007000 else "big"
    if int.from_bytes(shm[0:4], order) != 3007000 or shm[32:40] != wal[16:24]:
        return 0
    return int.from_bytes(shm[16:20], order)


def wal_lost_saves(wal: bytes, valid_frames: int, db_header: bytes, shm: bytes = b"") -> int:
    """Committed transactions of the WAL's current generation that SQLite did not read (see the module doc)."""
    if len(wal) < 32 + 24:
        return 0
    page = int.from_bytes(wal[8:12], "big")
    if page < 512 or page > 65536 or page & (page - 1):
        page = int.from_bytes(db_header[16:18], "big") if len(db_header) >= 18 else 0
        page = 65536 if page == 1 else page
        if page < 512 or page & (page - 1):
            return 0
    salts = {wal[16:24], wal[32 + 8:32 + 16]}  # the header's, and the first frame's (always current)
    frames = (len(wal) - 32) // (24 + page)
    commits = []
    for i in range(frames):
        head = wal[32 + i * (24 + page):32 + i * (24 + page) + 24]
        if int.from_bytes(head[4:8], "big") and head[8:16] in salts:
            commits.append(i)
    claimed = shm_committed_frames(shm, wal)
    lost = [i for i in commits if i >= valid_frames]
    sure = [i for i in lost if i < claimed]  # the shared memory saw them committed
    unsure = len(lost) - len(sure)
    count = len(sure) + max(0, unsure - 1)  # the last may be a write torn by a power cut: never confirmed
    if claimed > valid_frames:  # committed frames SQLite could not read (damaged, or the log cut short)
        count = max(count, 1)
    return count


def inspect(path: Path, wal: bytes, shm: bytes = b"",
            behind: bool = False) -> tuple[list[str], sqlite3.Connection | None]:
    """The problems SQLite and the checksums find in the copy at `path` (empty: healthy), and its
    connection. `behind`: the journal's BEHIND marker was there (confirmed saves in the WAL only)."""
    try:
        db = sqlite3.connect(path, isolation_level=None)
    except sqlite3.Error as exc:
        return [f"cannot be opened ({exc})"], None
    try:
        check = [r[0] for r in db.execute("PRAGMA integrity_check")]
    except (sqlite3.Error, OverflowError, ValueError) as exc:
        check = [f"cannot be read ({exc})"]
    problems = [] if check == ["ok"] else [f"integrity check: {'; '.join(map(str, check[:3]))}"]
    tables = {r[0] for r in _scan(db, "SELECT name FROM sqlite_master WHERE type='table'")}
    for table, cols in EXPECTED_COLUMNS.items():  # a table never created (a first start cut short) is no damage
        if table in tables and _one(db, f"SELECT count(*) FROM (SELECT {cols} FROM {table})") is None:
            problems.append(f"table {table} is unreadable")
    expected: dict[int, int] = {}
    try:
        for table in tables & {"games", "settings", "set_aside"}:  # every stored text decodes
            db.execute(f"SELECT * FROM {table}").fetchall()
        rows = db.execute("SELECT game, seq, payload, crc FROM actions ORDER BY game, seq") \
            if "actions" in tables else []
        for game, seq, payload, checksum in rows:
            if valid_action(payload, checksum) is None:
                problems.append(f"action {seq} of game {game} is damaged")
            elif seq != expected.get(game, 1):
                problems.append(f"action {expected.get(game, 1)} of game {game} is missing")
            expected[game] = seq + 1 if isinstance(seq, int) else 0
    except (sqlite3.Error, OverflowError, ValueError, TypeError) as exc:
        problems.append(f"rows unreadable ({exc})"[:200])
    if wal:
        frames = _one(db, "PRAGMA wal_checkpoint(PASSIVE)")
        head = path.read_bytes()[:100] if path.exists() else b""
        lost = wal_lost_saves(wal, frames[1] if frames and frames[1] >= 0 else 0, head, shm)
        if lost:
            problems.append(f"the write-ahead log is damaged: {lost} later save(s) lost")
    elif behind:  # confirmed saves were in the WAL only, and the WAL is gone
        problems.append("the write-ahead log is missing: 1 later save(s) lost")
    return problems, db


def salvage(db: sqlite3.Connection | None) -> Salvage:
    """Every row of the damaged copy that can still be read, row by row."""
    out = Salvage()
    if db is None:
        return out
    cols = "rowid, game, seq, payload, crc"
    read: set[int] = set()

    def take(row: tuple | None) -> None:
        if row is None or not all(isinstance(v, int) for v in row[:3]):
            return
        rowid, game, seq, payload, checksum = row
        read.add(rowid)
        out.known.add((game, seq))
        if valid_action(payload, checksum) is not None:
            out.actions[(game, seq)] = (payload, checksum)

    # both ends of the table in order (as far as each scan gets), then every other rowid one by one
    for row in _scan(db, f"SELECT {cols} FROM actions NOT INDEXED ORDER BY rowid") + \
            _scan(db, f"SELECT {cols} FROM actions NOT INDEXED ORDER BY rowid DESC"):
        take(row)
    rowids = set(read)
    for rowid, game, seq in _scan(db, "SELECT rowid, game, seq FROM actions INDEXED BY sqlite_autoindex_actions_1"):
        rowids.add(rowid)
        out.known.add((game, seq))
    top = _one(db, "SELECT max(rowid) FROM actions")
    hi = max([r for r in rowids if isinstance(r, int)] + [top[0] if top and isinstance(top[0], int) else 0])
    probe = set(range(1, min(hi, MAX_PROBE) + 1)) | {r for r in rowids if isinstance(r, int)}
    for rowid in sorted(probe - read):
        take(_one(db, f"SELECT {cols} FROM actions WHERE rowid=?", (rowid,)))
    ids = {r[0] for r in _scan(db, "SELECT id FROM games")} | {g for g, _ in out.known}
    top = _one(db, "SELECT max(id) FROM games")
    ids |= set(range(1, min(max([i for i in ids if isinstance(i, int)] + [top[0] if top and isinstance(
        top[0], int) else 0]), MAX_PROBE) + 1))
    for gid in sorted(i for i in ids if isinstance(i, int)):
        row = _one(db, "SELECT kind, started, finished, result FROM games WHERE id=?", (gid,))
        if row and isinstance(row[0], str) and isinstance(row[1], (int, float)):
            finished = row[2] if isinstance(row[2], (int, float)) else None
            result = row[3] if isinstance(row[3], str) else None
            out.games[gid] = (row[0], float(row[1]), finished, result if finished is not None else None)
    cols = "game, seq, payload, crc, reason, at"
    for rowid in {r[0] for r in _scan(db, "SELECT rowid FROM set_aside")}:
        row = _one(db, f"SELECT {cols} FROM set_aside WHERE rowid=?", (rowid,))
        if row and all(isinstance(v, t) for v, t in zip(row, (int, int, str, int, str, (int, float)))) \
                and valid_action(row[2], row[3]) is not None:
            out.set_aside[rowid] = row
    for key, value in _scan(db, "SELECT key, value FROM settings"):
        if isinstance(key, str) and isinstance(value, str):
            out.settings[key] = value
    return out


def reserve_aside(path: Path) -> Path:
    """A new name beside `path` that no earlier repair used (created with O_EXCL, numbered)."""
    stem, _, ext = path.name.partition(".")
    n = 0
    while True:
        n += 1
        name = path.with_name(f"{stem}-damaged-{n}{'.' + ext if ext else ''}")
        if any(Path(f"{name}{s}").exists() for s in SIDE_FILES):
            continue
        try:
            os.close(os.open(name, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
        except FileExistsError:
            continue
        return name


def _copy_synced(src: Path, dest: Path) -> None:
    """`src` copied to `dest` byte for byte and synced to the disk."""
    with open(src, "rb") as fin, open(dest, "wb") as fout:
        shutil.copyfileobj(fin, fout)
        fout.flush()
        os.fsync(fout.fileno())


def keep_aside(path: Path, copy: bool = False) -> Path:
    """Keep the journal at `path` under a fresh name (`journal-damaged-N.sqlite3`, see
    `reserve_aside`), byte for byte, synced; the name is returned. Raises OSError.

    A repair moves the database, its WAL, its shared-memory index and its BEHIND marker away. With `copy`, the
    journal stays in use and its database and WAL are copied (the index is rebuilt from the
    log by SQLite, so it is left out): the caller holds the write lock, so nothing changes
    the files meanwhile. Copies are made under a scratch name first (a power cut never
    leaves half a copy under the kept name; `check_and_repair` removes the scratch)."""
    suffixes = ("", "-wal") if copy else ("",) + SIDE_FILES
    present = [s for s in suffixes if Path(f"{path}{s}").exists()]
    staged: dict[str, Path] = {}
    try:
        if copy:
            for suffix in present:
                staged[suffix] = path.with_name(f".{path.name}.salvaging-{os.getpid()}-copy{suffix}")
                _copy_synced(Path(f"{path}{suffix}"), staged[suffix])
        name = reserve_aside(path)
        for suffix in present:
            os.replace(staged.get(suffix, f"{path}{suffix}"), f"{name}{suffix}")
    finally:
        for scratch in staged.values():
            scratch.unlink(missing_ok=True)
    fsync_dir(path.parent)
    return name


def write_fresh(target: Path, found: Salvage) -> tuple[int, int, int]:
    """Build a fresh journal at `target` from `found`: (actions kept in play, set aside, lost)."""
    kept = aside = 0
    now = time.time()
    db = sqlite3.connect(target, isolation_level=None)
    try:
        db.executescript(SCHEMA)
        db.execute("BEGIN")
        for gid, (kind, started, finished, result) in found.games.items():
            db.execute("INSERT INTO games(id, kind, started, finished, result) VALUES (?, ?, ?, ?, ?)",
                       (gid, kind, started, finished, result))
        by_game: dict[int, list[int]] = {}
        for game, seq in found.actions:
            by_game.setdefault(game, []).append(seq)
        for game, seqs in by_game.items():
            expected = 1
            for seq in sorted(seqs):
                payload, checksum = found.actions[(game, seq)]
                if game in found.games and seq == expected:
                    db.execute("INSERT INTO actions(game, seq, payload, crc) VALUES (?, ?, ?, ?)",
                               (game, seq, payload, checksum))
                    expected += 1
                    kept += 1
                else:
                    why = "after a damaged action" if game in found.games else "its game's entry was damaged"
                    db.execute("INSERT INTO set_aside(game, seq, payload, crc, reason, at) VALUES (?, ?, ?, ?, ?, ?)",
                               (game, seq, payload, checksum, why, now))
                    aside += 1
        for rowid in sorted(found.set_aside):
            db.execute("INSERT INTO set_aside(game, seq, payload, crc, reason, at) VALUES (?, ?, ?, ?, ?, ?)",
                       found.set_aside[rowid])
        for key, value in found.settings.items():
            db.execute("INSERT INTO settings(key, value) VALUES (?, ?)", (key, value))
        db.execute("COMMIT")
    finally:
        db.close()
    with open(target, "rb+") as fh:
        os.fsync(fh.fileno())
    seen = set(found.known) | set(found.actions)
    for game in {g for g, _ in seen}:
        top = max((s for g, s in seen if g == game and isinstance(s, int)), default=0)
        seen |= {(game, s) for s in range(1, min(top, MAX_PROBE) + 1)}  # holes below the last seen action
    return kept, aside, len(seen) - kept - aside


def check_and_repair(path: Path) -> list[str]:
    """Check the journal at `path`; if damaged, keep it aside and put a salvaged one in its place.

    Returns the repair sentences (none when the journal is healthy). Raises JournalError when
    the check itself cannot be made (e.g. no room for the scratch copy).
    """
    wal_path = Path(f"{path}-wal")
    salvaged = Path(f"{path}.salvaged")
    if not path.exists() and salvaged.exists():  # a repair interrupted after the move aside: finish it
        os.replace(salvaged, path)
        fsync_dir(path.parent)
        return []
    for stale in list(path.parent.glob(".journal-check-*")) + list(path.parent.glob(f".{path.name}.salvaging-*")):
        shutil.rmtree(stale, ignore_errors=True) if stale.is_dir() else stale.unlink(missing_ok=True)  # a crash's
    if not path.exists() and not wal_path.exists():
        return []
    try:
        scratch = Path(tempfile.mkdtemp(prefix=".journal-check-", dir=path.parent))
    except OSError as exc:
        raise JournalError(f"cannot check the journal: {exc}") from exc
    try:
        try:
            copy = scratch / "journal.sqlite3"
            if path.exists():
                shutil.copyfile(path, copy)
            wal = wal_path.read_bytes() if wal_path.exists() else b""
            if wal:
                Path(f"{copy}-wal").write_bytes(wal)
            shm_path = Path(f"{path}-shm")  # read, never copied: SQLite rebuilds the index from the log
            shm = shm_path.read_bytes()[:96] if wal and shm_path.exists() else b""
        except OSError as exc:
            raise JournalError(f"cannot check the journal (no room for a copy?): {exc}") from exc
        problems, db = inspect(copy, wal, shm, Path(f"{path}{BEHIND}").exists())
        if not problems:
            if db is not None:
                db.close()
            return []
        found = salvage(db)
        if db is not None:
            db.close()
        building = path.with_name(f".{path.name}.salvaging-{os.getpid()}")
        building.unlink(missing_ok=True)
        try:
            kept, aside, lost = write_fresh(building, found)
            os.replace(building, salvaged)
            fsync_dir(path.parent)
            aside_name = keep_aside(path)
            os.replace(salvaged, path)
            fsync_dir(path.parent)
        except (OSError, sqlite3.Error) as exc:
            building.unlink(missing_ok=True)
            raise JournalError(f"journal damaged ({problems[0]}) and cannot be repaired: {exc}") from exc
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    wal_lost = sum(int(p.split(": ")[1].split()[0]) for p in problems if p.startswith("the write-ahead log"))
    lost_text = f"lost {lost}" + (f" + at least {wal_lost} later save(s)" if wal_lost else "")
    aside_text = f", set {aside} aside" if aside else ""
    sentence = f"Journal damaged: kept {kept} actions, {lost_text}{aside_text}. Saved as {aside_name.name}"
    log.error("journal %s damaged (%s): %s", path, "; ".join(" ".join(p.split())[:200] for p in problems[:5]), sentence)
    return [sentence]
