"""A game's one typed description, `GameType`: what it is, and where its code is.

Everything the rest of the companion needs to know of a game, written once in the game's
own folder (`companion/games/<kind>/about.py`, `GAME = GameType(...)`) and registered by
one line in `companion.games` (models: OpenSpiel's `GameType` with `register_game`,
python-chess's variants with `find_variant`):

* its facts: `kind` (the `--game` name and the journal's), `title` (menus, the page),
  `name` (the published name, for the history and the exports), designers, players,
  who wins (`highest_wins`), whether its totals are points (`no_points`), the
  BoardGameGeek id and year, playing time and age (0: nobody could confirm it), the
  bots `--bot` may name;
* its hooks, named as "module" or "module:function" strings so that nothing of a game is
  imported until it is used: the table game (`module` defines `TABLE_GAME`, the
  `TableGame` of companion.table.protocol), the bots' searcher, its subcommands of
  `companion`, its speech (`GameSpeech`), its page (companion.table.gameweb.GameWeb) and
  its history (`GameHistory`).

A light module (the standard library only): the registry, `companion.cli` and the
configuration load it without any screen, effect or text of the table.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Protocol

if TYPE_CHECKING:  # the annotation only: the page's helpers are not loaded with the registry
    from companion.table.gameweb import GameWeb

KIND = re.compile(r"[a-z][a-z0-9_]{0,19}$")


class GameSpeech(Protocol):
    """A game's speech module (`GameType.speech`)."""

    def say(self, event: str, fields: dict) -> str:
        """The spoken sentence of one of the game's `Announce` effects (KeyError: none for it)."""


class GameHistory(Protocol):
    """A game's history module (`GameType.history`), read by companion.history."""

    def facts(self, result: dict) -> dict[str, Any]:
        """What the history keeps of a finished game's journal result: totals, winners, first_player,
        names, record (and colors, villages, extinct where the game has them)."""

    def import_result(self, data: Any) -> dict[str, Any] | None:
        """The journal result of a record from elsewhere (ValueError saying why when it is not one);
        None when that game is not finished."""

    def color_name(self, color: str) -> str:
        """A colour the game dealt, in the table's language (the colour itself when it has none)."""


@dataclass(frozen=True)
class GameType:
    """One game, described once (see the module docstring); `companion.games.register_game` checks it."""

    kind: str
    title: str
    name: str
    module: str
    designers: str = ""
    min_players: int = 0
    max_players: int = 0
    highest_wins: bool = True
    no_points: bool = False  # its "total" is no score (Mammut: the camps held at the end)
    bgg_id: int = 0
    bgg_year: int = 0
    min_play_time: int = 0  # minutes
    max_play_time: int = 0
    min_age: int = 0
    bots: tuple[str, ...] = ()  # the names `--bot` and `game.bot` accept for it
    searcher: str | None = None  # "module:function(options)" -> an object with run(effect) -> answer
    commands: Mapping[str, tuple[str, str]] = field(default_factory=dict)  # name -> ("module:function", help)
    speech: str | None = None  # a GameSpeech module
    web: str | None = None  # a GameWeb module (companion.table.gameweb)
    history: str | None = None  # a GameHistory module

    def problems(self) -> list[str]:
        """What is wrong with this description (empty: nothing)."""
        out = []
        if not KIND.match(self.kind):
            out.append(f"kind {self.kind!r}: lower-case letters, digits and _, a letter first, at most 20")
        if not self.title or not self.name or not self.module:
            out.append("title, name and module are required")
        if not 0 <= self.min_players <= self.max_players:
            out.append(f"players {self.min_players}-{self.max_players}: give 0 <= min_players <= max_players")
        if self.bgg_id < 0 or self.bgg_year < 0 or self.min_play_time > self.max_play_time:
            out.append("bgg_id and bgg_year are 0 or more, min_play_time at most max_play_time")
        if self.bots and self.searcher is None:
            out.append("bots need a searcher")
        return out

    @property
    def description(self) -> str:
        """Name and designers, for help texts: "Clans (Leo Colovini)"."""
        return f"{self.name} ({self.designers})" if self.designers else self.name

    def load(self) -> type:
        """The game's `TableGame` class (imports its code)."""
        return importlib.import_module(self.module).TABLE_GAME

    def say(self, event: str, fields: dict) -> str:
        """The game's sentence for an `Announce` of its (KeyError when it has none)."""
        if self.speech is None:
            raise KeyError(event)
        speech: GameSpeech = importlib.import_module(self.speech)  # type: ignore[assignment]
        return speech.say(event, fields)

    def web_view(self) -> GameWeb | None:
        """The game's module for the table's page (companion.table.gameweb.GameWeb); None when it has none."""
        return importlib.import_module(self.web) if self.web else None  # type: ignore[return-value]

    def history_module(self) -> GameHistory | None:
        """The game's module for the table's history (companion.history); None when it has none."""
        return importlib.import_module(self.history) if self.history else None  # type: ignore[return-value]

    def make_searcher(self, options: Mapping[str, Any]) -> Any:
        """The bots' searcher made from the daemon's bot options; None for a game without bots."""
        if self.searcher is None:
            return None
        module, _, function = self.searcher.partition(":")
        return getattr(importlib.import_module(module), function)(options)
