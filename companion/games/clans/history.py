"""Clans' part of the table's history (companion.history): a finished game's facts, its record out and in.

The journal keeps a finished game's result as `companion replay --json` of its record
(totals and winners included) plus the record itself; `facts` reads it back,
`import_result` checks a record from elsewhere exactly as `companion replay` does and
makes the same result, so an imported game counts as if played at this table.
`villages_founded` is its statistic (about.py): the villages each player founded.
"""

from __future__ import annotations

from typing import Any

from companion.games.clans.record import Record, RecordError, summary
from companion.table.seatnames import names_problem

# What a list of the history or a statistic never reads of a result (`facts` works without it): the
# board's huts at the end, the record's setup and moves. A lean read leaves them in the journal
# (companion.history.plays.lean_parts); an export of records reads them.
HEAVY = ("huts", "record.setup", "record.moves")


def facts(result: dict) -> dict[str, Any]:
    """What the history keeps of a finished game's result (KeyError/TypeError when it lacks it)."""
    record = result["record"]
    players = int(record["players"])
    totals, winners = [int(t) for t in result["totals"]], [int(w) for w in result["winners"]]
    if len(totals) != players or not all(0 <= w < players for w in winners):
        raise ValueError("totals or winners do not fit the players")
    villages = [0] * players
    for v in result.get("villages") or []:
        if isinstance(v, dict) and isinstance(v.get("founder"), int) and 0 <= v["founder"] < players:
            villages[v["founder"]] += 1
    return {"totals": totals, "winners": winners, "first_player": int(record.get("first_player", 0)),
            "colors": record.get("colors"), "names": record.get("names"), "record": record,
            "extras": {"villages": villages}}


def villages_founded(plays: list) -> int:
    """The villages a player founded over their Clans plays ((Play, seats) pairs); a game that came
    with its scores only says nothing of them."""
    return sum(sum(play.extras["villages"][s] for s in seats) for play, seats in plays if "villages" in play.extras)


def import_result(data: Any) -> dict[str, Any] | None:
    """The journal result of a record from elsewhere (RecordError, replay's message, when it is not
    valid); None when the record is valid but its game is not finished (nothing to count)."""
    record = Record.from_dict(data)
    game = record.play()
    if not game.is_over or record.colors is None:
        return None
    if "names" in record.extra:
        check_names(record.extra["names"], record.players)
    result = summary(game, record.colors)
    result["record"] = record.to_dict()
    return result


def check_names(names: Any, players: int) -> list[str]:
    """A record's `names` (spec section 8), or a RecordError saying what is wrong with them."""
    why = names_problem(names, players)
    if why is not None:
        raise RecordError(why)
    return names


def color_name(color: str) -> str:
    """A clan colour in the table's language (unchanged when it is no clan colour)."""
    from companion.games.clans.words import color as color_word

    try:
        return color_word(color)
    except KeyError:
        return color
