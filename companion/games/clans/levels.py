"""The table's three bot strengths: easy, normal and hard, and how long each thinks.

A level is a bot name like any other (`make_bot("hard")`), so `companion arena --bots
hard,normal,normal` and the table's bot seats name them the same way. The table gives the
normal level its move time (`--bot-time`, the config's `bot_move_time`); the others think
`TIME_SCALE` times that (`thinking_time`): easy plays at once, hard may take three times as long
(1.5 s on a Pi 3 at the box's 0.5 s; the issue's ceiling is 2 s).
"""

from __future__ import annotations

LEVELS = ("easy", "normal", "hard")
DEFAULT_LEVEL = "normal"
TIME_SCALE = {"easy": 0.0, "normal": 1.0, "hard": 3.0}


def thinking_time(name: str, move_time: float | None) -> float | None:
    """The move time bot `name` gets when the normal level gets `move_time` (None stays None: a fixed
    iteration budget); bots that are not levels (random, greedy, mcts) get it as it is."""
    if move_time is None:
        return None
    return move_time * TIME_SCALE.get(name, 1.0)


SEARCHING = ("mcts", "normal", "hard")  # the bots a fixed iteration budget (--iterations, --bot-iterations) reaches
LEVEL_CYCLE = ("normal", "hard", "easy")  # the Bots? screen's order after the table's own level
