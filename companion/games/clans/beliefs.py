"""After the reveal: what each bot of the game believed of the other seats' colors.

`told(state)` gives, once a game with bots is over (every color public), each bot seat with
its level and its beliefs (`bots.story.beliefs`; None for a bot that keeps no color model),
computed once per position. Before the end it gives nothing: a belief tells a bot's secret
color apart from the others', so it is never shown, said or recorded while the game runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.clans.actions import TableState
from companion.games.clans.levels import DEFAULT_LEVEL


@dataclass(frozen=True)
class BotBeliefs:
    """One bot seat's story: its level and what it believed (None: it kept no guesses)."""

    seat: int
    level: str
    beliefs: tuple[Any, ...] | None  # bots.story.Belief

    def record(self) -> list[dict]:
        """Its beliefs as the record keeps them (docs/contracts.md: "beliefs")."""
        return [{**b.to_dict(), "level": self.level} for b in self.beliefs or ()]


_CACHE: dict[int, tuple[Any, int, tuple[BotBeliefs, ...]]] = {}


def told(state: TableState) -> tuple[BotBeliefs, ...]:
    """Each bot seat's beliefs once the game is over and its colors public; () before, or without bots.
    A seat journaled without a level (an older game) is told as the default level's."""
    game = state.game
    if game is None or not state.bots or not game.is_over:
        return ()
    colors = state.final_colors()
    if len(colors) != game.players:
        return ()
    hit = _CACHE.get(id(state))
    if hit is not None and hit[0] is game and hit[1] == game.ply:
        return hit[2]
    from companion.games.clans.bots.story import beliefs, model_of

    out = []
    for seat in sorted(state.bots):
        level = state.levels.get(seat) or DEFAULT_LEVEL
        model = model_of(level)
        found = None if model is None else tuple(beliefs(game, seat, state.bots[seat], model, colors))
        out.append(BotBeliefs(seat, level, found))
    result = tuple(out)
    _CACHE.clear()  # one table, one game at a time: keep only the last
    _CACHE[id(state)] = (game, game.ply, result)
    return result
