"""The counter game's part of the history: a finished game is one seat that reached 20."""

from __future__ import annotations

from typing import Any


def facts(result: dict) -> dict[str, Any]:
    """One seat, its total, and it won."""
    return {"totals": [int(result["total"])], "winners": [0], "first_player": 0, "names": result.get("names"),
            "record": None}


def import_result(data: Any) -> dict[str, Any] | None:
    """A counter game from elsewhere: {"adds": [...]} adding up to 20 (ValueError otherwise)."""
    adds = data.get("adds") if isinstance(data, dict) else None
    if not isinstance(adds, list) or not all(type(n) is int and 0 <= n < 100 for n in adds):
        raise ValueError('a counter record is {"adds": [numbers]}')
    return {"total": sum(adds), "adds": len(adds)} if sum(adds) >= 20 else None


def color_name(color: str) -> str:
    """The counter game deals no colours."""
    return color
