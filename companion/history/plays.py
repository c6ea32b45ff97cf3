"""Finished games as `Play` values, read from the kiosk's journal (read only, never a lock held).

Each journal entry is read through its game's history plug-in (`GameType.history`, a
module with `facts(result)`): the table names no game. A game whose result row cannot
be read (damaged JSON, fields missing, times no date can be made of) is listed in `History.damaged` with why, and the
rest of the history is kept. An abandoned game (a new game started over it) is a
`Play` with `abandoned` True: listed when asked for, never counted as played. A game taken
out of the history (`companion history --remove N`, `journal.store.IN_HISTORY`) is not read at all.

A game brought in from a BG Stats backup or a CSV export has its scores only, not its moves
(`SCORES_ONLY`, companion.history.foreign): its facts are read from the result itself (`result_facts`),
its `record` is None (no `export --format json`, which writes records).

A game's own facts (Clans' founders of villages, an extinction) are its `extras`, a dict its
history module fills (`facts(result)["extras"]`) and its statistics read (`GameType.statistics`,
companion.history.stats); nothing here knows what they are.

A lean read (`read_history(full=False)`: the lists and the statistics) asks the journal to leave out
of each result what its game's history module says a list or a statistic never reads (`HEAVY`, dotted
keys: Clans' "huts", "record.setup", "record.moves"; `lean_parts`); the journal names no game's parts.

Names: one per seat, the table's names (spec section 8, at most 24 characters) when the
game had them, else "Player 1" ... "Player N"; a bot seat is "Bot N (level)".
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from companion.journal.repair import json_or_none
from companion.table.gametimes import stored_times_problem
from companion.table.seatnames import default_name, names_problem

__all__ = ["Play", "History", "read_history", "iso_time", "play_from_row", "seat_names", "box_of", "SCORES_ONLY",
           "result_facts", "scores_facts", "lean_parts"]

SCORES_ONLY = "scores_only"  # a result that came with its scores, not its moves (BG Stats, CSV): its source


def iso_time(seconds: float) -> str:
    """Seconds since the epoch as ISO 8601 with the box's UTC offset, to the second."""
    return dt.datetime.fromtimestamp(seconds).astimezone().replace(microsecond=0).isoformat()


@dataclass(frozen=True)
class Play:
    """One game of the journal. `winners` are seat indexes (0-based); a shared win lists every winner."""

    game_id: int
    game: str
    started: float
    finished: float
    players: tuple[str, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    actions: int
    abandoned: bool = False
    first_player: int | None = None
    colors: tuple[str, ...] | None = None  # each seat's colour, for a game that deals them (Clans' secret ones)
    extras: Mapping[str, Any] = field(default_factory=dict, hash=False)  # the game's own facts (its history module's)
    record: dict | None = field(default=None, compare=False, repr=False)  # the game's record (export json)
    box: str = field(default="", compare=False, repr=False)  # the box's id (journal.Journal.box_id): players' uuids

    @property
    def duration_min(self) -> int:
        """Whole minutes from the start (the set-up questions) to the end, at least 1."""
        return max(1, round((self.finished - self.started) / 60))

    @property
    def source_id(self) -> str:
        """A stable id for the play that survives an export and import (BG Stats' sourcePlayId)."""
        digest = hashlib.sha1(f"{self.game}|{self.started:.3f}".encode()).hexdigest()[:12]
        return f"companion-{self.game}-{digest}"

    def history_json(self) -> dict[str, Any]:
        """The `companion history --json` entry (spec section 8)."""
        out = {"game_id": self.game_id, "game": self.game, "started": iso_time(self.started),
               "finished": iso_time(self.finished), "players": list(self.players), "totals": list(self.totals),
               "winners": list(self.winners), "actions": self.actions}
        if self.abandoned:
            out["abandoned"] = True
        return out


@dataclass
class History:
    """Every readable game of a journal, oldest first, and the entries that could not be read."""

    plays: list[Play] = field(default_factory=list)
    damaged: list[str] = field(default_factory=list)  # "game 12: its result is not readable JSON"
    damaged_ids: list[int] = field(default_factory=list)  # their games' ids, in the same order
    box: str = ""  # the box's id (journal.Journal.box_id)

    @property
    def finished(self) -> list[Play]:
        """The games that count: finished, not abandoned."""
        return [p for p in self.plays if not p.abandoned]


def seat_names(raw: Any, players: int) -> tuple[str, ...]:
    """A game's names as the history reads them: the kept names when readable, else "Player 1" ..."""
    if names_problem(raw, players) is None:
        return tuple(raw)
    return tuple(default_name(i) for i in range(players))


def box_of(state_dir: str | Path, stored: Any) -> str:
    """The box's id: the journal's setting (`Journal.box_id`), else one made from the state
    directory's path (a journal no command has written to since the setting came)."""
    import uuid

    if isinstance(stored, str) and stored:
        return stored
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"file://{Path(state_dir).resolve()}"))


def _whole(value: Any) -> int:
    if type(value) is not int:
        raise TypeError(f"{str(value)[:20]} is not a whole number")
    return value


def scores_facts(result: dict) -> dict[str, Any]:
    """The facts of a game that came with its scores only (`SCORES_ONLY`: a BG Stats play, a CSV row);
    ValueError/TypeError when they do not fit together."""
    totals = [_whole(t) for t in result["totals"]]
    winners = [_whole(w) for w in result["winners"]]
    first, colors = result.get("first_player"), result.get("colors")
    if not 1 <= len(totals) <= 8 or not all(0 <= w < len(totals) for w in winners) or \
            (first is not None and not 0 <= _whole(first) < len(totals)):
        raise ValueError("totals, winners or the first player do not fit the players")
    if colors is not None and (type(colors) is not list or len(colors) != len(totals)
                               or not all(isinstance(c, str) for c in colors)):
        raise ValueError("colors do not fit the players")
    return {"totals": totals, "winners": winners, "first_player": first, "colors": colors,
            "names": result.get("names"), "record": None, "extras": {}}


def result_facts(entry: Any, result: dict) -> dict[str, Any]:
    """A finished game's facts: its game's (`GameType.history_module().facts`), or for a game that came
    with its scores only, `scores_facts`."""
    if SCORES_ONLY in result:
        return scores_facts(result)
    return entry.history_module().facts(result)


def play_from_row(row: tuple, entries: dict[str, Any], box: str = "") -> Play:
    """A `Play` from a games row (id, kind, started, finished, result JSON, action count);
    ValueError (why, in a few words) when the row cannot be read."""
    gid, kind, started, finished, result_text, actions = row
    times = stored_times_problem(started, finished)
    if times is not None:
        raise ValueError(times)
    result = json_or_none(result_text)
    if not isinstance(result, dict):
        raise ValueError("its result is not readable")
    if result.get("abandoned"):
        return Play(int(gid), str(kind), float(started or 0), float(finished or 0), (), (), (), int(actions or 0),
                    abandoned=True, box=box)
    entry = entries.get(kind)
    if entry is None or entry.history is None:
        raise ValueError(f"{kind!r} is not a game this companion knows")
    try:
        facts = result_facts(entry, result)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise ValueError(f"its result lacks what a history needs ({type(exc).__name__}: {exc})") from None
    extras = facts.get("extras") or {}
    if not isinstance(extras, dict):
        raise ValueError("its game's extras are not a dict")
    n = len(facts["totals"])
    names = seat_names(result.get("names", facts.get("names")), n)
    return Play(int(gid), str(kind), float(started or 0), float(finished or started or 0), names,
                tuple(facts["totals"]), tuple(facts["winners"]), int(result.get("actions_played", actions) or 0),
                first_player=facts.get("first_player"),
                colors=tuple(facts["colors"]) if facts.get("colors") else None,
                extras=extras, record=facts.get("record"), box=box)


def lean_parts() -> dict[str, tuple[str, ...]]:
    """Per registered game, the parts of its journal result a list or a statistic never reads: its
    history module's `HEAVY` (dotted keys, "record.moves"; none when it names none)."""
    from companion.games import GAMES

    out = {}
    for kind, entry in GAMES.items():
        module = entry.history_module()
        heavy = tuple(getattr(module, "HEAVY", ()) or ())
        if heavy:
            out[kind] = heavy
    return out


def read_history(state_dir: str | Path, include_abandoned: bool = False, full: bool = True,
                 game_id: int | None = None) -> History:
    """The journal's finished games, oldest first by their start (imported games keep theirs), or
    JournalUnavailable when there is no journal to read. Without `full`, each result lacks what its
    game says a list or a statistic never reads (`lean_parts`: a Clans play's `record` lacks its
    setup and moves; exports need them). `game_id`: that game only."""
    from companion.games import GAMES
    from companion.journal.reader import JournalReader

    reader = JournalReader(state_dir)
    rows = reader.finished_games(game_id=game_id, leave_out=None if full else lean_parts())
    box = box_of(state_dir, reader.box_setting())
    out = History(box=box)
    for row in rows:
        try:
            play = play_from_row(row, GAMES, box)
        except ValueError as exc:
            out.damaged.append(f"game {row[0]}: {exc}")
            out.damaged_ids.append(int(row[0]))
            continue
        if include_abandoned or not play.abandoned:
            out.plays.append(play)
    return out
