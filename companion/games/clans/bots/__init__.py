"""Bots for Clans: the companion plays empty seats and gives hints.

Every bot implements `Bot.choose(game, seat, color, rng, *, move_time=None) -> Move`:
a legal move for `seat` (which must be the seat to move) knowing only its own
secret `color`, with a founding `order` whenever the move isolates two or more
territories and the order matters. Bots are pure: no I/O, all randomness from `rng`.

- `random`: a uniformly random legal move and founding order.
- `greedy`: the best immediate gain for its own color (points + chips).
- `mcts`: information-set MCTS over the unknown colors of the other seats (companion.games.clans.bots.mcts).
- the table's levels (companion.games.clans.levels): `easy` (bots.easy), `normal` (the mcts bot
  as the table tunes it) and `hard` (bots.hard).

`hint(game, seat, rng, move_time)` suggests a move for a human without using any secret.
"""

from __future__ import annotations

import random
from typing import Protocol

from companion.games.clans.game import Game, Move
from companion.games.clans.bots.mcts import ColorModel, MCTSBot, hint
from companion.games.clans.bots.simple import GreedyBot, RandomBot
from companion.games.clans.bots.easy import EasyBot
from companion.games.clans.bots.hard import HardBot


class Bot(Protocol):
    name: str

    def choose(self, game: Game, seat: int, color: str, rng: random.Random, *,
               move_time: float | None = None) -> Move: ...


class NormalBot(MCTSBot):
    """The normal level: the mcts bot as the table has always played it."""

    name = "normal"


BOTS: dict[str, type] = {"easy": EasyBot, "normal": NormalBot, "hard": HardBot,
                         "random": RandomBot, "greedy": GreedyBot, "mcts": MCTSBot}


def make_bot(name: str, **options) -> Bot:
    """A bot by name (a level: "easy", "normal", "hard"; or "random", "greedy", "mcts"); options go to its constructor (e.g. iterations=200)."""
    try:
        cls = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}: use one of {', '.join(BOTS)}") from None
    return cls(**options)


__all__ = ["Bot", "BOTS", "make_bot", "hint", "RandomBot", "GreedyBot", "MCTSBot", "ColorModel", "EasyBot",
           "NormalBot", "HardBot"]
