"""Hostile files for `companion import` (issue 41): every seeded mutation of a BG Stats backup,
of the companion's CSV export and of a list of records is imported or refused in one line, never
a traceback; and whatever came in, `history`, `stats` and every export still read the journal.

COMPANION_FUZZ_CASES mutations (120 by default) of the three files, bytes flipped, cut, repeated or
planted with what the issue's hostile tester tried (times of 1e18 and 1e300, a finish in 1e15,
one name twice in two cases, the table's own names, byte order marks, NULs).
"""

from __future__ import annotations

import json
import os
import random

from tests.fuzz import mutation

from companion.history.importer import ImportRefused, import_file
from companion.history.plays import read_history
from companion.history.stats import player_stats, table_stats
from companion.history.formats import FORMATS
from tests.history.fixture import build_journal
from tests.history.test_import import clans_record
from tests.history.test_import_foreign import bgstats_backup
from tests.support import run_cli

CASES = int(os.environ.get("COMPANION_FUZZ_CASES", "120"))
MAX_LINE = 400
PLANTS = [b"1e18", b"1e300", b"1000000000000000", b"253402300800", b"-1", b"null", b"true", b'"ANNA"', b'" Anna "',
          b'"Guest 1"', b'"Bot 2 (mcts)"', b'"Player 3"', b"\xef\xbb\xbf", b"\x00", b'"10+"', b"\"\\ud800\"",
          b",,,,", b"\r\n", b'"9999-12-31 23:59:59"', b"[[[[[[[[", b'{"x":', b"NaN"]


def sources(tmp_path) -> list[tuple[str, bytes]]:
    box = tmp_path / "box"
    build_journal(box)
    csv_text = run_cli("export", "--format", "csv", "--state-dir", str(box))[1]
    records = [clans_record(s, 2 + s % 3, [f"N{s}a", f"N{s}b", f"N{s}c", f"N{s}d"][:2 + s % 3]) for s in (1, 2)]
    return [("backup.json", json.dumps(bgstats_backup()).encode()), ("history.csv", csv_text.encode("utf-8-sig")),
            ("records.json", json.dumps(records).encode())]


def test_seeded_hostile_imports_come_in_or_are_refused_in_one_line_and_the_history_still_reads(tmp_path):
    rnd = random.Random(41)
    state = tmp_path / "state"
    bases = sources(tmp_path)
    outcomes = {"imported": 0, "refused": 0}
    for case in range(CASES):
        name, data = bases[case % len(bases)]
        path = tmp_path / f"case{case}-{name}"
        path.write_bytes(mutation.mutate(data, rnd, b'{}[]":,0123456789.e-+ \n', PLANTS))
        try:
            import_file(state, path)
            outcomes["imported"] += 1
        except ImportRefused as exc:
            said = str(exc)
            assert "\n" not in said and 0 < len(said) <= MAX_LINE, (case, said)
            outcomes["refused"] += 1
    assert outcomes["imported"] and outcomes["refused"], outcomes
    history = read_history(state)
    player_stats(history.finished)
    table_stats(history.finished)
    for fmt in FORMATS.values():
        fmt.render(history, "here")
    for command in (["history"], ["stats", "--tables"], ["export", "--format", "csv"]):
        status, _out, err = run_cli(*command, "--state-dir", str(state))
        assert status == 0 and "internal error" not in err, (command, err)


def test_a_few_hostile_imports_through_the_command_line(tmp_path):
    rnd = random.Random(4101)
    bases = sources(tmp_path)
    for case in range(6):
        name, data = bases[case % len(bases)]
        path = tmp_path / f"cli{case}-{name}"
        path.write_bytes(mutation.mutate(data, rnd, b'{}[]":,0123456789', PLANTS))
        status, out, err = run_cli("import", str(path), "--state-dir", str(tmp_path / "state"))
        assert status in (0, 2) and "internal error" not in err, err
        if status == 2:
            assert out == "" and err.count("\n") == 1 and err.startswith(f"companion import: {path}: ")
