"""A game coming into the history from a file, checked: what `companion import` refuses, and a game
that came with its scores only.

The lowest of the import's three modules, whose imports go one way: `importer` (a file's games
into the journal: records checked, games already there skipped, one transaction) reads the file
through `foreign` (what the file is; the plays of a BG Stats file, the games of our CSV), and both
make their games here: `Prepared` (one checked, finished game), `ImportRefused` (the one-line
refusal), `scores_game` (a game known by its scores only, `SCORES_ONLY`, checked for its times,
names and facts as a record is).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.history.plays import SCORES_ONLY, scores_facts
from companion.table.gametimes import import_times_problem
from companion.table.seatnames import NameRefused, check_names

__all__ = ["ImportRefused", "Prepared", "checked_names", "scores_result", "scores_game", "SCORES_ONLY"]


class ImportRefused(ValueError):
    """A file that cannot be imported, said in one line ("record 3: move 12 (4->5): ...")."""


@dataclass
class Prepared:
    """One checked, finished game, ready for the games table."""

    kind: str
    started: float
    finished: float
    result: dict[str, Any]
    timed: bool = True  # the record gave its start time (else it is dated now)
    label: str = ""  # what the notes call it: "record 3", "play 12" (a BG Stats play), "game 7" (a CSV's)


def checked_names(names: Any, players: int) -> list[str]:
    """A game's names by the names' rule, as the rule keeps them; ImportRefused naming the player,
    the name and why."""
    try:
        return check_names(names, players)
    except NameRefused as exc:
        raise ImportRefused(str(exc)) from None


def scores_result(source: str, names: list[str], totals: list[int], winners: list[int],
                  first_player: int | None, colors: list[str] | None) -> dict[str, Any]:
    """The journal result of a game that came with its scores only (`SCORES_ONLY`: its source)."""
    return {SCORES_ONLY: source, "names": names, "totals": totals, "winners": winners,
            "first_player": first_player, "colors": colors}


def scores_game(kind: str, started: float, finished: float, result: dict[str, Any], label: str) -> Prepared:
    """A game that came with its scores only (a BG Stats play, a CSV export's game), checked as a record
    is: its times (`import_times_problem`), its names (the names' rule), its facts; ImportRefused
    ("play 12: ...") when one is not right."""
    from companion.games import GAMES

    problem = import_times_problem(started, finished)
    if problem is not None:
        raise ImportRefused(f"{label}: {problem}")
    try:
        facts = scores_facts(result)
    except (ValueError, TypeError, KeyError) as exc:
        raise ImportRefused(f"{label}: {exc}") from None
    try:
        result["names"] = checked_names(result["names"], len(facts["totals"]))
    except ImportRefused as exc:
        raise ImportRefused(f"{label}: {exc}") from None
    assert kind in GAMES
    return Prepared(kind, started, finished, result, label=label)
