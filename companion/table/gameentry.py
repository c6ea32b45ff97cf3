"""The registry's `GameEntry`: a game's name, its code and its commands, named as strings.

A light module of its own (the standard library only), so the registry (`companion.games`)
and with it `companion.cli` load nothing of the table's screens, effects or texts: a command
such as `companion replay` starts without them. `companion.table.protocol` re-exports it.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Mapping


@dataclass(frozen=True)
class GameEntry:
    """One line of the registry (`companion.games`): a game's name, its code, its commands.

    Modules are named, not imported, so start-up loads only the game being played.
    `module` defines `TABLE_GAME` (the class); `searcher`, when given, is
    "module:function" returning an object with `run(effect) -> answer` for Search
    and Hint effects, made from the daemon's bot options; `speech`, when given, names
    the module whose `say(event, fields)` speaks the game's `Announce` effects.
    """

    kind: str
    title: str
    module: str
    description: str = ""
    searcher: str | None = None
    commands: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    speech: str | None = None  # a module with say(event, fields) -> str: the game's spoken sentences
    web: str | None = None  # a module for the table's page (companion.table.gameweb.GameWeb): public view, map
    history: str | None = None  # a module for the table's history (facts, records out and in: companion.history)

    def load(self) -> type:
        return importlib.import_module(self.module).TABLE_GAME

    def say(self, event: str, fields: dict) -> str:
        """The game's sentence for an `Announce` of its (KeyError when it has none)."""
        if self.speech is None:
            raise KeyError(event)
        return importlib.import_module(self.speech).say(event, fields)

    def web_view(self) -> Any:
        """The game's module for the table's page (companion.table.gameweb); None when it has none."""
        return importlib.import_module(self.web) if self.web else None

    def history_module(self) -> Any:
        """The game's module for the table's history (companion.history); None when it has none."""
        return importlib.import_module(self.history) if self.history else None

    def make_searcher(self, options: Mapping[str, Any]) -> Any:
        if self.searcher is None:
            return None
        module, _, function = self.searcher.partition(":")
        return getattr(importlib.import_module(module), function)(options)
