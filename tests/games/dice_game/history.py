"""The dice game's part of the history: the counter game's, plus the rolls a game took (its extras),
which its statistics count (about.py)."""

from __future__ import annotations

from typing import Any

from counter_game.history import color_name, import_result  # noqa: F401
from counter_game.history import facts as counter_facts


def facts(result: dict) -> dict[str, Any]:
    """The counter game's facts, and the rolls it took to reach 20."""
    return {**counter_facts(result), "extras": {"rolls": int(result["adds"])}}


def rolls(plays: list) -> int:
    """The rolls a player made over their dice games ((Play, seats) pairs)."""
    return sum(play.extras.get("rolls", 0) for play, _seats in plays)


def fastest(plays: list) -> int | None:
    """The fewest rolls a group's game took (None: no dice game)."""
    return min((play.extras["rolls"] for play in plays if "rolls" in play.extras), default=None)


def broken(plays: list) -> int:
    """A statistic with a bug (tests/games/test_fourth_game.py): it raises on any play."""
    return sum(1 // 0 for _play in plays)


def odd(plays: list) -> set:
    """A statistic that gives what is no number."""
    return {len(plays)}
