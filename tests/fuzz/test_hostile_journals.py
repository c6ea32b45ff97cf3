"""Hostile journals: seeded damage to the database and its write-ahead log never crashes the
start, never deletes the damaged files, leaves a writable journal, and salvages at least
every committed action that SQLite's own plain read of the damaged files still returns.

COMPANION_FUZZ_CASES cases (300 by default; set it higher by hand) overwrite random byte
ranges, zero whole pages or WAL frames, and truncate either file, on three journals: a
closed one (database only), one cut by a power loss (database + WAL + shm), and a large
one spanning many pages. `-s` prints what came back against what was committed.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import tempfile
from pathlib import Path

import pytest

from companion.journal.store import Journal, JournalError
from tests.journal.journal_helpers import moves, plain_read

CASES = int(os.environ.get("COMPANION_FUZZ_CASES", "300"))
NAMES = ("journal.sqlite3", "journal.sqlite3-wal", "journal.sqlite3-shm")


def _snapshot(state: Path, dest: Path) -> None:
    dest.mkdir(parents=True)
    for name in NAMES:
        if (state / name).exists():
            shutil.copyfile(state / name, dest / name)


def _committed(dest: Path, state: Path) -> set[tuple[int, int, str]]:
    db = sqlite3.connect(state / "journal.sqlite3")  # the live journal, still open elsewhere: reads the WAL
    try:
        rows = {(g, s, p) for g, s, p in db.execute("SELECT game, seq, payload FROM actions")}
    finally:
        db.close()
    (dest / "committed.json").write_text(json.dumps(sorted(rows)))
    return rows


@pytest.fixture(scope="module")
def templates(tmp_path_factory) -> dict[str, tuple[Path, set]]:
    root = tmp_path_factory.mktemp("templates")
    out = {}
    j = Journal(root / "closed-live")  # a finished game, then 25 moves, closed cleanly
    j.start_game("mammut", [{"a": "new"}, {"a": "roll"}])
    j.finish({"totals": [3, 9]})
    j.set_setting("brightness", 3)
    j.start_game("clans", [{"a": "new"}])
    for action in moves(25):
        j.append(action)
    j.close()
    _snapshot(root / "closed-live", root / "closed")
    out["closed"] = (root / "closed", _committed(root / "closed", root / "closed-live"))
    j = Journal(root / "cut-live")  # 5 moves checkpointed, 25 more only in the WAL, then the power goes
    j.start_game("clans", [{"a": "new"}] + moves(5))
    j.close()
    j = Journal(root / "cut-live")
    j.resume()
    for action in moves(25):
        j.append({**action, "n": action["n"] + 5})
    _snapshot(root / "cut-live", root / "cut")
    out["cut"] = (root / "cut", _committed(root / "cut", root / "cut-live"))
    j.close()
    j = Journal(root / "big-live")  # 200 padded moves over many pages, closed
    j.start_game("clans", [{"a": "new"}])
    j.extend(moves(200, pad=120))
    j.close()
    _snapshot(root / "big-live", root / "big")
    out["big"] = (root / "big", _committed(root / "big", root / "big-live"))
    return out


def damage(case: Path, rnd: random.Random) -> list[str]:
    """Apply 1-3 seeded damages to the files in `case`; what was done, for the failure message."""
    done = []
    for _ in range(rnd.randint(1, 3)):
        present = [n for n in NAMES[:2] if (case / n).exists() and (case / n).stat().st_size]
        if not present:
            break
        name = rnd.choice(present)
        path = case / name
        data = bytearray(path.read_bytes())
        unit = 4096 + (24 if name.endswith("-wal") else 0)
        op = rnd.choice(["bytes", "bytes", "page", "truncate"])
        if op == "bytes":
            at, n = rnd.randrange(len(data)), rnd.randint(1, 300)
            data[at:at + n] = bytes(rnd.randrange(256) for _ in range(len(data[at:at + n])))
        elif op == "page":
            first = 32 if name.endswith("-wal") else 0
            at = first + rnd.randrange(max(1, (len(data) - first) // unit)) * unit
            data[at:at + unit] = bytes(len(data[at:at + unit]))
        else:
            at = rnd.randrange(len(data))
            del data[at:]
        path.write_bytes(bytes(data))
        done.append(f"{op} {name} @{at}")
    return done


STATS: dict[str, int] = {}


@pytest.fixture
def scratch(tmp_path) -> Path:
    """Where the cases run: RAM when there is some (every repair fsyncs), else the test's tmp_path."""
    if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
        with tempfile.TemporaryDirectory(dir="/dev/shm", prefix="companion-fuzz-") as d:
            yield Path(d)
    else:
        yield tmp_path


@pytest.mark.parametrize("kind", ["closed", "cut", "big"])
def test_seeded_damage_never_crashes_deletes_or_loses_readable_actions(templates, scratch, kind):
    tmp_path = scratch
    source, committed = templates[kind]
    stats = {"cases": 0, "repaired": 0, "committed": 0, "plain": 0, "salvaged": 0, "silent_loss": 0, "refused": 0}
    for i in range(CASES // 3 + 1):
        rnd = random.Random(f"{kind}-{i}")
        case = tmp_path / f"c{i}"
        case.mkdir()
        for name in NAMES:
            if (source / name).exists():
                shutil.copyfile(source / name, case / name)
        done = damage(case, rnd)
        before = {n: (case / n).read_bytes() for n in NAMES[:2] if (case / n).exists()}
        plain = plain_read(case, tmp_path / f"p{i}")
        try:
            j = Journal(case)
        except JournalError:
            stats["refused"] += 1  # a clear error is allowed (e.g. no room), never anything else
            continue
        where = f"case {kind}-{i}: {done}"
        rows = j.db.execute("SELECT game, seq, payload FROM actions UNION ALL "
                            "SELECT game, seq, payload FROM set_aside").fetchall()
        assert {tuple(r) for r in rows} <= committed, f"invented actions, {where}"
        assert len(rows) >= plain, f"salvaged {len(rows)} < plain read {plain}, {where}"
        if j.repairs:
            stats["repaired"] += 1
            (aside,) = [p for p in case.glob("journal-damaged-*.sqlite3")]
            for name, data in before.items():  # kept byte for byte, the WAL too
                assert Path(str(aside) + name[len("journal.sqlite3"):]).read_bytes() == data, where
        elif len(rows) < len(committed):
            stats["silent_loss"] += 1
            print(f"silent loss of {len(committed) - len(rows)}: {done}")
            assert kind == "cut", f"lost {len(committed) - len(rows)} without a word, {where}"
        j.start_game("clans", [{"a": "new"}])  # the fresh journal is writable
        j.append({"a": "move", "n": 1})
        j.close()
        again = Journal(case)
        assert again.repairs == [] and again.resume().actions == [{"a": "new"}, {"a": "move", "n": 1}], where
        again.close()
        stats["cases"] += 1
        stats["committed"] += len(committed)
        stats["plain"] += plain
        stats["salvaged"] += len(rows)
        shutil.rmtree(case)
        shutil.rmtree(tmp_path / f"p{i}", ignore_errors=True)
    STATS[kind] = stats
    print(f"\nhostile journals [{kind}]: {stats}")
    assert stats["salvaged"] >= stats["plain"]
