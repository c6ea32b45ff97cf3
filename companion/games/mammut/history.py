"""Valley of the Mammoths' part of the table's history (companion.history): facts, records out and in.

The game has no points (`no_points` in its description, about.py): a tribe's "total" in the
history is the camps it holds at the end (the measure of victory, 4 to win). The record
is the game's log (`companion run --game mammut --record-out`), checked on import by
replaying it with its recorded dice, which must land on its books. Its statistics (about.py)
count the games that ended in extinction (`extinct` among a play's extras).
"""

from __future__ import annotations

import random
from typing import Any


def facts(result: dict) -> dict[str, Any]:
    """What the history keeps of a finished game's result (KeyError/TypeError when it lacks it)."""
    log = result["log"]
    tribes = log["state"]["tribes"]
    totals = [int(t["villages"]) + int(t["caves"]) for t in tribes]
    winners = sorted(int(n) - 1 for n in result.get("winners") or [])
    if not all(0 <= w < len(totals) for w in winners):
        raise ValueError("winners do not fit the tribes")
    given = log["log"][0]["args"].get("names") or []
    names = given if given and all(isinstance(n, str) and n for n in given) else None
    return {"totals": totals, "winners": winners, "first_player": None, "names": names, "record": log,
            "extras": {"extinct": bool(result.get("extinct"))}}


def player_extinctions(plays: list) -> int:
    """How many of a player's Valley of the Mammoths plays ((Play, seats) pairs) ended in extinction."""
    return sum(1 for play, _seats in plays if play.extras.get("extinct"))


def extinctions(plays: list) -> int:
    """How many of a group's Valley of the Mammoths plays ended in extinction."""
    return sum(1 for play in plays if play.extras.get("extinct"))


def import_result(data: Any) -> dict[str, Any] | None:
    """The journal result of a game log from elsewhere (ValueError saying why when it is not one);
    None when the game is not over."""
    from companion.games.mammut.game import MammutGame
    from companion.games.mammut.rules import MammutError

    if not isinstance(data, dict) or data.get("game") != "mammut":
        raise ValueError('not a Valley of the Mammoths record (its "game" must be "mammut")')
    try:
        game = MammutGame.from_dict(data, roll=random.Random(0))
    except MammutError as exc:
        raise ValueError(str(exc)) from None
    if not game.over:
        return None
    log = {"game": "mammut", **game.to_dict()}
    return {"winners": list(game.winners), "extinct": bool(game.extinct), "log": log}


def color_name(color: str) -> str:
    """Mammut deals no colours: a colour is shown as it is."""
    return color
