"""The Clans searcher the daemon runs for `Search` (a bot's move) and `Hint` effects.

`make_searcher(options)` is named in the games registry; options are the table's
{"bot", "bot_options", "move_time", "iterations", "seed", "hint", "most"}: the table's bot (one of Clans's,
chosen by `GameType.bot_for`), the keywords it is made with (its `bot_options` in about.py) and the
level hints play at (config `game.hint`, normal by default). A bot seat plays the level journaled
with its game (`Search.level`; an older game's seats: the table's bot), thinking as long as
levels.thinking_time gives that level, at most `most` seconds (the box's MAX_BOT_MOVE_TIME). Each search gets its own rng, derived from
the seed, the kind of search and the ply (so a hint depends on nothing secret, and a
seeded run with `iterations` is reproducible); without a seed, fresh entropy.
"""

from __future__ import annotations

import random
from typing import Any, Mapping

from companion.games.clans.levels import SEARCHING, thinking_time
from companion.games.clans.game import Game, Move
from companion.table.effects import Hint, Search


class BotRunner:
    """Runs each seat's bot (see the module doc); the search modules are imported on first use."""

    def __init__(self, name: str = "normal", move_time: float | None = 0.5, iterations: int | None = None,
                 seed: int | None = None, bot_options: Mapping[str, Any] | None = None,
                 hint_level: str = "normal", most: float | None = None) -> None:
        self.name = name
        self.bot_options = dict(bot_options or {})
        self.iterations = iterations
        self.move_time = None if iterations else move_time  # a fixed search must not depend on the clock
        self.seed = seed
        self.hint_level = hint_level
        self.most = most
        self._bots: dict[str, Any] = {}

    @property
    def bot(self) -> Any:
        """The table's own bot (an older game's seats, and what `name` says)."""
        return self.bot_named(self.name)

    def bot_named(self, name: str) -> Any:
        if name not in self._bots:  # a table without bots never loads the search
            from companion.games.clans.bots import make_bot

            options = dict(self.bot_options) if name == self.name else {}
            if self.iterations and name in SEARCHING:
                options["iterations"] = self.iterations
            self._bots[name] = make_bot(name, **options)
        return self._bots[name]

    def time_for(self, name: str) -> float | None:
        """How long bot `name` thinks per move: its level's share of the table's time, at most the box's limit."""
        t = thinking_time(name, self.move_time)
        return t if t is None or self.most is None else min(t, max(self.most, self.move_time or 0.0))

    def _rng(self, kind: str, game: Game) -> random.Random:
        return random.Random(f"{self.seed}:{kind}:{game.ply}") if self.seed is not None else random.Random()

    def run(self, effect: Search | Hint) -> Move:
        """The move for a bot's turn (it secretly owns `effect.secret`) or a hint (public information only)."""
        game = effect.position.copy()
        if isinstance(effect, Search):
            name = effect.level or self.name
            return self.bot_named(name).choose(game, effect.seat, effect.secret, self._rng("bot", game),
                                               move_time=self.time_for(name))
        from companion.games.clans.bots.hints import hint_at

        return hint_at(self.hint_level, game, effect.seat, self._rng("hint", game), self.time_for(self.hint_level),
                       iterations=self.iterations)


def make_searcher(options: Mapping[str, Any]) -> BotRunner:
    """The searcher for the table's options (see the module docstring)."""
    return BotRunner(options.get("bot") or "normal", options.get("move_time", 0.5), options.get("iterations"),
                     options.get("seed"), options.get("bot_options"), options.get("hint") or "normal",
                     options.get("most"))
