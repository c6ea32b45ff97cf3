"""`companion export` and `companion import`: the table's history out to other apps, and records in.

    companion export [--state-dir DIR] --format bgstats|bgg|csv|json [--game-id N] [--out FILE]
                     [--location TEXT] [--bgg-id GAME=ID]
    companion import [--state-dir DIR] FILE

Without --state-dir, the table's own journal (`where.table_state_dir`: where `companion run`
keeps it; on the box, the kiosk's). `--format json --game-id N` writes that one record (an
object, what `companion replay` reads); without --game-id, a list of records.

Exit status: 0 done; 1 nothing to export or the destination cannot be written (said in
one line, no half file left); 2 a record that is not valid (replay's message, nothing
imported) or bad arguments.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.argtypes import directory, new_file, whole
from companion.history.bgstats import LOCATION
from companion.history import formats
from companion.history.export import file_text, record_of, write_reason
from companion.util.safe_text import json_text

__all__ = ["export", "import_", "REASONS"]

REASONS = {"full": "no space left on the device", "read-only": "the folder is read-only"}


def _state_dir(explicit: str | None) -> str:
    from companion.history.where import table_state_dir

    return table_state_dir(explicit)


def export(argv: list[str]) -> int:
    """`companion export`: the finished games (or one) for BG Stats, BoardGameGeek, a spreadsheet, or records."""
    from companion.history.plays import read_history
    from companion.util.fsutil import atomic_write_text
    from companion.journal.reader import JournalUnavailable

    ap = argparse.ArgumentParser(prog="companion export", description=export.__doc__)
    ap.add_argument("--state-dir", default=None, type=directory, help="the table's state directory (its journal)")
    ap.add_argument("--format", required=True, choices=formats.names(), help=formats.help_text())
    ap.add_argument("--game-id", type=whole(1), default=None, help="only this game (its id in `companion history`)")
    ap.add_argument("--location", default=None, help="where the games were played (BG Stats, BGG)")
    ap.add_argument("--out", default=None, type=new_file, help="the file to write (default: standard output)")
    ap.add_argument("--bgg-id", action="append", default=[], metavar="GAME=ID",
                    help="a game's BoardGameGeek id for bgstats and bgg (e.g. clans=4636; 0: none)")
    args = ap.parse_args(argv)
    from companion.history.gamefacts import parse_bgg_ids
    from companion.history.where import ensure_box_id

    try:
        bgg_ids = parse_bgg_ids(args.bgg_id)
        state_dir = _state_dir(args.state_dir)
    except ValueError as exc:
        print(f"companion export: {exc}", file=sys.stderr)
        return 2
    ensure_box_id(state_dir)
    try:
        history = read_history(state_dir)
    except JournalUnavailable as exc:
        print(f"companion export: {exc}", file=sys.stderr)
        return 1
    plays = history.finished
    if args.game_id is not None:
        plays = [p for p in plays if p.game_id == args.game_id]
        if not plays:
            print(f"companion export: no finished game {args.game_id} in the history", file=sys.stderr)
            return 1
    records = formats.FORMATS[args.format].records
    if records:
        plays = [p for p in plays if isinstance(p.record, dict)]
    if records and args.game_id is not None and plays:
        text = json_text(record_of(plays[0]), indent=1) + "\n"  # one record: what `companion replay` reads
    else:
        text = file_text(plays, args.format, args.location or LOCATION, bgg_ids)
    for line in history.damaged:
        print(f"companion export: left out {line}", file=sys.stderr)
    if args.out is None:
        sys.stdout.write(text)
        return 0
    try:
        atomic_write_text(Path(args.out), text)
    except OSError as exc:
        reason = write_reason(exc)
        print(f"companion export: cannot write {args.out}: {REASONS.get(reason, reason)}", file=sys.stderr)
        return 1
    print(f"companion export: {len(plays)} game(s) written to {args.out}", file=sys.stderr)
    return 0


def import_(argv: list[str]) -> int:
    """`companion import`: bring exported game records (one, or a JSON list), the companion's CSV export or
    the plays of our games in a BG Stats backup into this table's history."""
    from companion.history.importer import ImportRefused, import_file
    from companion.journal.store import JournalError

    ap = argparse.ArgumentParser(prog="companion import", description=import_.__doc__)
    ap.add_argument("--state-dir", default=None, type=directory,
                    help="the table's state directory (its journal; default: where `companion run` keeps it)")
    ap.add_argument("file", help="a record or a JSON list of records (companion export --format json), "
                                 "the companion's CSV export, or a BG Stats backup (its JSON export)")
    args = ap.parse_args(argv)
    try:
        state_dir = _state_dir(args.state_dir)
    except ValueError as exc:
        print(f"companion import: {exc}", file=sys.stderr)
        return 2
    try:
        report = import_file(state_dir, args.file)
    except ImportRefused as exc:
        print(f"companion import: {args.file}: {exc}", file=sys.stderr)
        return 2
    except (JournalError, OSError) as exc:
        print(f"companion import: {args.file}: cannot write the history: {exc}", file=sys.stderr)
        return 1
    for note in report.notes:
        print(f"companion import: {args.file}: {note}", file=sys.stderr)
    print(f"companion import: {len(report.imported)} game(s) added to the history")
    return 0
