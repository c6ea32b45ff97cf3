"""Records from elsewhere (what `companion export --format json` writes) into the table's history.

The file is read and told apart by companion.history.foreign (a size cap, no deep nesting, no
over-long numbers, a byte order mark taken off): one record, or a JSON list of them; a BG Stats
backup or the companion's CSV export, whose plays of our games come in with their scores only
(`scores_game`, checked for times and names as a record is); anything else is refused in one
line naming what the file is. Every record is checked first, by its
game's history plug-in exactly as `companion replay` checks it (`import_result`); one
record that is not valid refuses the whole file ("record 3: <replay's message>") and
nothing is imported; so does a name the names' rule refuses (`seatnames.check_name`: "record 2:
names: player 1: ..."), and the names kept are the rule's (NFC, no surrounding spaces). Then the
finished games are written in ONE journal transaction: all of them or none survive a power cut.

A game not finished is skipped with a note, and so is a game already in the history: the
same game (kind), the same play (`fingerprint`: its record's setup and moves, the names, the
totals and winners) and, when the record carries a start time, the same start. A missing time
never makes two games the same: three different games without times are three games, and
importing a file twice doubles nothing.

The `"companion"` metadata key of an exported record gives the game, its start and end
(epoch seconds) and its number of actions; without it the game is dated now. Given times must
be a game's (`gametimes.import_times_problem`: a start between 2000 and 2100, a finish after
it, less than a day later), else the file is refused. Two games of a
kind never share a start to the millisecond (the history's play ids are made of it): a game
that would is moved on by a millisecond.

Ids: every game keeps a positive id. Imported games take the next free ids (after every
game already there) and are marked `"imported"` in their result, so the journal's resume
(`Journal.resume`, `journal.PLAYED_HERE`) never takes one for the table's current game; the
history lists games by their start, so they take their place in play order.

The import's modules import one way: this one reads a file through companion.history.foreign
(what the file is; BG Stats' plays, our CSV's games), and both make their checked games with
companion.history.incoming (`Prepared`, `ImportRefused`, `scores_game`), re-exported here.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from companion.history import foreign
from companion.history.incoming import SCORES_ONLY, ImportRefused, Prepared, checked_names, scores_game
from companion.history.plays import result_facts, seat_names
from companion.table.gametimes import import_times_problem, stored_times_problem
from companion.util.bounded import shorten

__all__ = ["ImportRefused", "ImportReport", "Prepared", "read_file", "prepare", "import_records", "import_file",
           "scores_game",
           "fingerprint", "IMPORTED"]

IMPORTED = "imported"  # the result key that marks an imported game (journal.PLAYED_HERE reads it)


@dataclass
class ImportReport:
    """What an import did: the games added, and notes on the records skipped."""

    imported: list[Prepared] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _kind(record: dict[str, Any], meta: Any) -> str:
    from companion.games import DEFAULT_GAME, GAMES

    if isinstance(meta, dict) and isinstance(meta.get("game"), str):
        kind = meta["game"]
    elif isinstance(record.get("game"), str):
        kind = record["game"]
    else:
        kind = DEFAULT_GAME  # a spec-section-1 record (a Clans record) names no game
    entry = GAMES.get(kind)
    if entry is None or entry.history is None:
        raise ImportRefused(f"game {shorten(repr(kind), 40)} is not a game this companion knows")
    return kind


def _number(meta: dict[str, Any], key: str) -> float | None:
    value = meta.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise ImportRefused(f"companion: {key} must be seconds since 1970, got {shorten(repr(value), 40)}")
    return float(value)


def _metadata(meta: Any, now: float) -> tuple[float | None, float, int | None]:
    if meta is None:
        return None, now, None
    if not isinstance(meta, dict):
        raise ImportRefused("companion: must be an object with game, started, finished and actions")
    started, finished = _number(meta, "started"), _number(meta, "finished")
    actions = meta.get("actions")
    if actions is not None and (type(actions) is not int or actions < 0):
        raise ImportRefused(f"companion: actions must be a whole number 0 or more, got {shorten(repr(actions), 40)}")
    if started is None:
        if finished is not None and import_times_problem(finished, finished) is not None:
            raise ImportRefused(f"companion: finished {finished:g} is not a time between 2000 and 2100")
        return None, now if finished is None else max(finished, now), actions
    finished = max(started, now) if finished is None else finished
    problem = import_times_problem(started, finished)
    if problem is not None:
        raise ImportRefused(f"companion: {problem}")
    return started, finished, actions


def _prepare_one(record: Any, now: float) -> Prepared | None:
    from companion.games import GAMES

    if not isinstance(record, dict):
        raise ImportRefused("a record must be a JSON object")
    meta = record.get("companion")
    kind = _kind(record, meta)
    started, finished, actions = _metadata(meta, now)
    module = GAMES[kind].history_module()
    data = {k: v for k, v in record.items() if k != "companion"}
    try:
        result = module.import_result(data)
    except ImportRefused:
        raise
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
        raise ImportRefused(str(exc) or type(exc).__name__) from None
    if result is None:
        return None
    try:
        facts = module.facts(result)
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        raise ImportRefused(f"its result cannot be read back ({exc})") from None
    if "names" in record:
        result["names"] = checked_names(record["names"], len(facts["totals"]))
    elif facts.get("names") is not None:  # a game's own names (a Valley of the Mammoths log's): the same rule
        checked_names(facts["names"], len(facts["totals"]))
    if actions is not None:
        result["actions_played"] = actions
    if started is None:  # dated now: it ends when it starts
        return Prepared(kind, now, now, result, timed=False)
    return Prepared(kind, started, finished, result)


def prepare(records: list[Any], now: float | None = None) -> tuple[list[tuple[int, Prepared]], list[str]]:
    """Check every record: the finished games (with their 1-based record numbers) and notes on the
    unfinished ones; ImportRefused("record N: why") at the first record that is not valid."""
    now = time.time() if now is None else now
    ready: list[tuple[int, Prepared]] = []
    notes: list[str] = []
    for n, record in enumerate(records, start=1):
        try:
            game = _prepare_one(record, now)
        except ImportRefused as exc:
            raise ImportRefused(f"record {n}: {exc}") from None
        if game is None:
            notes.append(f"record {n}: the game is not finished: skipped")
        else:
            ready.append((n, game))
    return ready, notes


def _same_start(a: float, b: float) -> bool:
    return abs(a - b) < 0.0005  # the history's source ids keep the start to the millisecond


def fingerprint(kind: str, result: Any, loose: bool = False) -> str | None:
    """What makes a finished game this game, whatever its times: a digest of its kind, its record
    (setup and moves; a Valley of the Mammoths game's log; none for a game that came with its scores
    only), its seat names, totals and winners; with `loose`, of its kind and number of seats only
    (what a BG Stats file or a CSV keeps of a play can differ: an anonymous seat, a game without
    points). None when the result cannot be read (a damaged row is never taken for a game)."""
    from companion.games import GAMES

    entry = GAMES.get(kind)
    if not isinstance(result, dict) or entry is None or entry.history is None or result.get("abandoned") \
            or "removed" in result:  # a game taken out of the history may be imported again
        return None
    try:
        facts = result_facts(entry, result)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return None
    if loose:  # a play kept by its scores only: its kind and how many seats
        return hashlib.sha256(f"{kind}|{len(facts['totals'])} seats".encode()).hexdigest()
    record = facts.get("record")
    if isinstance(record, dict):
        record = {k: v for k, v in record.items() if k not in ("names", "companion")}
    names = seat_names(result.get("names", facts.get("names")), len(facts["totals"]))
    text = json.dumps({"kind": kind, "record": record, "names": list(names), "totals": list(facts["totals"]),
                       "winners": list(facts["winners"])}, sort_keys=True, ensure_ascii=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _known(rows: Iterable[tuple[Any, Any, Any]]
           ) -> tuple[dict[str, list[tuple[str, float]]], list[tuple[str, float]]]:
    """The journal's finished games by fingerprint, exact and loose ((kind, start) each), and every
    game's (kind, start), from the history's (kind, started, result text) rows (`Journal.import_games`)."""
    by_print: dict[str, list[tuple[str, float]]] = {}
    starts: list[tuple[str, float]] = []
    for kind, started, result in rows:
        if stored_times_problem(started, None):
            continue
        starts.append((str(kind), float(started or 0)))
        try:
            parsed = json.loads(result) if isinstance(result, str) else None
        except ValueError:
            continue
        for mark in {fingerprint(str(kind), parsed), fingerprint(str(kind), parsed, loose=True)} - {None}:
            by_print.setdefault(mark, []).append((str(kind), float(started or 0)))
    return by_print, starts


def _already(game: Prepared, by_print: dict[str, list[tuple[str, float]]]) -> bool:
    """Whether `game` is in the history: the same play (a record's exact fingerprint, at the same start
    when it gave one), or for a game that came with its scores only, a game of its kind with as many
    seats starting within the same second (BG Stats and the CSV keep times to the second)."""
    if SCORES_ONLY in game.result:
        mark = fingerprint(game.kind, game.result, loose=True)
        return any(k == game.kind and abs(s - game.started) < 1.0 for k, s in by_print.get(mark or "", []))
    mark = fingerprint(game.kind, game.result)
    same = by_print.get(mark, []) if mark is not None else []
    return any(k == game.kind and (not game.timed or _same_start(s, game.started)) for k, s in same)


def _free_start(kind: str, started: float, starts: list[tuple[str, float]]) -> float:
    """`started`, or a millisecond later until no game of `kind` starts then (play ids stay unique)."""
    while any(k == kind and _same_start(s, started) for k, s in starts):
        started = round(started + 0.001, 6)
    return started


def import_records(state_dir: str | Path, records: list[Any], now: float | None = None) -> ImportReport:
    """Check `records` and add their finished games to the journal of `state_dir` in one transaction,
    each under a new positive id after every game already there."""
    ready, notes = prepare(records, now)
    return _write(state_dir, ready, notes)


def _write(state_dir: str | Path, ready: list[tuple[int, Prepared]], notes: list[str]) -> ImportReport:
    """Add the checked games `ready` to the journal of `state_dir` in one transaction (those already
    in the history skipped with a note)."""
    from companion.journal.store import Journal

    report = ImportReport(notes=notes)
    if not ready:
        return report
    journal = Journal(state_dir)
    fresh: list[Prepared] = []

    def choose(rows: list[tuple[Any, Any, Any]]) -> list[tuple[str, float, float, dict[str, Any]]]:
        """The games of `ready` not in the history yet (`rows`), each at a start of its own."""
        by_print, starts = _known(rows)
        for n, game in ready:
            if _already(game, by_print):
                report.notes.append(f"{game.label or f'record {n}'}: already in the history: skipped")
                continue
            game.started = _free_start(game.kind, game.started, starts)
            game.finished = max(game.finished, game.started)
            starts.append((game.kind, game.started))
            for mark in {fingerprint(game.kind, game.result),
                         fingerprint(game.kind, game.result, loose=True)} - {None}:
                by_print.setdefault(mark, []).append((game.kind, game.started))
            fresh.append(game)
        return [(game.kind, game.started, game.finished, {**game.result, IMPORTED: True}) for game in fresh]

    try:
        journal.box_id()
        journal.import_games(choose)
        report.imported = fresh
    finally:
        journal.close()
    return report


def read_file(path: str | Path, now: float | None = None) -> tuple[list[tuple[int, Prepared]], list[str]]:
    """The checked finished games of file `path` and notes: the companion's records (one or a JSON list),
    a BG Stats backup or play file, or the companion's CSV export (companion.history.foreign); anything
    else is ImportRefused saying what the file is."""
    try:
        found = foreign.sniff(str(path))
    except OSError as exc:
        raise ImportRefused(f"cannot read it: {exc.strerror or exc}") from None
    if found.kind == "bgstats":
        return foreign.bgstats_games(found.data)
    if found.kind == "csv":
        return foreign.csv_games(found.rows)
    return prepare(found.data if isinstance(found.data, list) else [found.data], now)


def import_file(state_dir: str | Path, path: str | Path, now: float | None = None) -> ImportReport:
    """The games of file `path` (`read_file`) into the journal of `state_dir`, in one transaction."""
    ready, notes = read_file(path, now)
    return _write(state_dir, ready, notes)
