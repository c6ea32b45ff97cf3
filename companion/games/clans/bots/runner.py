"""The Clans searcher the daemon runs for `Search` (a bot's move) and `Hint` effects.

`make_searcher(options)` is named in the games registry; options are the table's
{"bot", "bot_options", "move_time", "iterations", "seed"}: the bot (one of Clans's, chosen by
`GameType.bot_for`) and the keywords it is made with (its `bot_options` in about.py). Each search gets its own rng, derived from
the seed, the kind of search and the ply (so a hint depends on nothing secret, and a
seeded run with `iterations` is reproducible); without a seed, fresh entropy.
"""

from __future__ import annotations

import random
from typing import Any, Mapping

from companion.games.clans.game import Game, Move
from companion.table.effects import Hint, Search


class BotRunner:
    """Runs the bot named in the options; the search module is imported on first use."""

    def __init__(self, name: str = "mcts", move_time: float | None = 0.5, iterations: int | None = None,
                 seed: int | None = None, bot_options: Mapping[str, Any] | None = None) -> None:
        self.name = name
        self.bot_options = dict(bot_options or {})
        self.iterations = iterations
        self.move_time = None if iterations else move_time  # a fixed search must not depend on the clock
        self.seed = seed
        self._bot: Any = None

    @property
    def bot(self) -> Any:
        if self._bot is None:  # a table without bots never loads the search
            from companion.games.clans.bots import make_bot

            options = dict(self.bot_options)
            if self.iterations and self.name == "mcts":
                options["iterations"] = self.iterations
            self._bot = make_bot(self.name, **options)
        return self._bot

    def _rng(self, kind: str, game: Game) -> random.Random:
        return random.Random(f"{self.seed}:{kind}:{game.ply}") if self.seed is not None else random.Random()

    def run(self, effect: Search | Hint) -> Move:
        """The move for a bot's turn (it secretly owns `effect.secret`) or a hint (public information only)."""
        game = effect.position.copy()
        if isinstance(effect, Search):
            return self.bot.choose(game, effect.seat, effect.secret, self._rng("bot", game), move_time=self.move_time)
        from companion.games.clans.bots import hint

        return hint(game, effect.seat, self._rng("hint", game), self.move_time, iterations=self.iterations)


def make_searcher(options: Mapping[str, Any]) -> BotRunner:
    """The searcher for the table's options (see the module docstring)."""
    return BotRunner(options.get("bot") or "mcts", options.get("move_time", 0.5), options.get("iterations"),
                     options.get("seed"), options.get("bot_options"))
