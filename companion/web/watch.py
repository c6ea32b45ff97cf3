"""Noticing a commit at once: the journal's files are looked at (`os.stat`) every `WATCH_S`.

The daemon's commit writes the journal's WAL, and its checkpoint the database file: either
changes a file's size, time or inode, which costs one `stat` a file to see (microseconds,
no SQLite, nothing opened, nothing written). Only then is the journal itself asked
(`Views.refresh`); the WAL is written a moment before its index says the commit is there,
so a look that finds nothing new is repeated for `SETTLE_S`. The full signature is still
read every `POLL_S` in case a change leaves every file's size and time as they were.
"""

from __future__ import annotations

import os
from pathlib import Path

WATCH_S = 0.005
SETTLE_S = 0.25
POLL_S = 1.0


def look(path: Path | None) -> tuple | None:
    """A file's identity and times (one `stat`); what the stat said when it failed; None for no file."""
    if path is None:
        return None
    try:
        st = os.stat(path)
    except OSError as exc:
        return ("missing", exc.errno)
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


class FilesWatch:
    """Some files (None: no file): `moved()` says when any changed (made, replaced, edited, removed)."""

    def __init__(self, paths: list[Path | None]) -> None:
        self.paths = paths
        self.seen = self._looks()

    def _looks(self) -> list[tuple | None]:
        return [look(p) for p in self.paths]

    def moved(self) -> bool:
        looks = self._looks()
        if looks == self.seen:
            return False
        self.seen = looks
        return True


class JournalWatch(FilesWatch):
    """The journal's files at `path` (the database, -wal, -shm): `moved()` says when any changed."""

    def __init__(self, path: Path) -> None:
        super().__init__([path, Path(f"{path}-wal"), Path(f"{path}-shm")])
