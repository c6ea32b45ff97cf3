"""The contract between the table and a game: `TableGame`, and the game's description `GameType`
(defined in the light `companion.table.gametype`, re-exported here).

A game is a pure state machine driven by keys. The shell (`companion.table.shell`)
offers it every key, shows its `screen()`, and passes its effects (values from
`companion.table.effects`) on to the daemon, which journals them, runs searches and
so on. Everything a game journals is an *action* (a small JSON-safe dict); replaying
its actions with `from_actions` lands on the same position, the same pending
question and the same screen (UI state that is not journaled is dropped).

Keys: `handle(key, now)` gets every key token (companion.table.keys), POWER too, and
says whether it used the key. The shell acts on what a game leaves unused: D (MENU)
opens the table's menu, POWER asks to shut down. A game returns False for POWER
(after dropping any message it shows) and for D whenever the menu may open.

A game's own part of the D menu is `menu_items()`; the shell appends Brightness,
"Play <other game>" for every other registered game and Shut down, and calls
`menu_choose(i)` when item i of the game's part is chosen.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Iterable, Protocol, runtime_checkable

from companion.table.effects import Effect, GameOver, Outbox
from companion.util.errors import NotSupportedError
from companion.table.gametype import GameType  # noqa: F401  (re-exported: the contract names it)
from companion.table.texts import totals_and_winners
from companion.table.screen import Screen


@runtime_checkable
class TableGame(Protocol):
    """What every game implements (see the module docstring)."""

    KIND: ClassVar[str]

    @classmethod
    def new(cls, rng: random.Random | None = None) -> "TableGame":
        """A game at its new-game questions."""

    @classmethod
    def from_actions(cls, actions: Iterable[dict], rng: random.Random | None = None) -> "TableGame":
        """Rebuild from journaled actions; raises ActionError (a ValueError) when they do not fit."""

    def handle(self, key: str, now: float) -> bool:
        """One key at time `now` (seconds, any monotonic origin); True when the key was used. Never raises."""

    def screen(self) -> Screen:
        """What to show now. Pure: calling it changes nothing."""

    def pop_effects(self) -> list[Effect]:
        """The effects since the last call, in order (actions to journal first of all)."""

    def deliver(self, effect: Effect, answer: Any) -> None:
        """The answer to a Search or Hint this game asked for; None when the search failed."""

    def menu_items(self) -> tuple[str, ...]:
        """This game's items of the D menu, in order."""

    def menu_choose(self, index: int) -> None:
        """Item `index` of `menu_items()` was chosen."""

    def in_progress(self) -> bool:
        """True when leaving now would abandon a game (the shell asks first)."""

    def seats(self) -> list[str | None] | None:
        """Once the game knows its seats: None for a person's seat, a word for a bot's; None before."""

    @property
    def names(self) -> list[str] | None:
        """The seats' names (companion.table.seatnames) once given; None without names."""

    def set_names(self, names: list[str] | None) -> None:
        """The table's names for the seats (None: forget them, a new game)."""

    def record_json(self) -> str | None:
        """The game's record (its exchange format) so far; None before the first game."""

    def finished_result(self) -> dict | None:
        """The finished game's result for the history; None while not finished."""

    @classmethod
    def history_text(cls, result: dict) -> str:
        """A finished game's `finished_result()` in a few words, for the history in the D menu."""


class TableGameBase:
    """Defaults for the optional parts of `TableGame`: no searches, no record files, no quick start."""

    KIND: ClassVar[str] = ""
    _over_reported = False
    _names: list[str] | None = None
    table_bot: str = ""  # the bot a seat becomes when the table makes it a bot (the shell's bot_level)
    teach_default: bool = False  # a new game teaches its rules (--teach, game.teach; the shell's `teach`)

    def seats(self) -> list[str | None] | None:
        return None

    @property
    def names(self) -> list[str] | None:
        """The table's names, else those a loaded record brought (`record_names`), else None."""
        return self._names or self.record_names()

    def record_names(self) -> list[str] | None:
        return None

    def set_names(self, names: list[str] | None) -> None:
        self._names = list(names) if names else None

    @classmethod
    def new(cls, rng: random.Random | None = None) -> "TableGame":
        """A table at the game's new-game questions."""
        return cls(rng)  # type: ignore[call-arg]

    def report_over(self, finished: bool, outbox: Outbox) -> bool:
        """Put `GameOver` in `outbox` once when the game has just finished (again after an undo of its
        end); True when it did (the game then announces its end)."""
        if not finished:
            self._over_reported = False
        elif not self._over_reported:
            self._over_reported = True
            result = self.finished_result()
            if result is not None and self.names:
                result = {**result, "names": list(self.names)}
            outbox.put(GameOver(self.KIND, result))  # type: ignore[arg-type]
            return True
        return False

    def deliver(self, effect: Effect, answer: Any) -> None:
        return None

    def menu_items(self) -> tuple[str, ...]:
        return ()

    def menu_choose(self, index: int) -> None:
        return None

    def record_json(self) -> str | None:
        return None

    def finished_result(self) -> dict | None:
        return None

    @classmethod
    def history_text(cls, result: dict) -> str:
        """A finished game's result in a few words for the history ("P1 34, P2 28; P1 won")."""
        totals, winners = result.get("totals"), result.get("winners")
        if isinstance(totals, list) and isinstance(winners, list):
            return totals_and_winners(totals, winners)
        return ""

    @classmethod
    def from_record_file(cls, path: str, rng: random.Random | None = None, walkthrough: bool = False) -> "TableGame":
        """Continue the game of a record file (`companion run --load`); `walkthrough`: a record of a
        game not yet begun shows the table how to set it up first, as a new game does."""
        raise NotSupportedError(f"--load: {cls.KIND} has no game records to load")

    @classmethod
    def quick_start(cls, players: int, rng: random.Random | None = None, bots: Iterable[int] = (),
                    walkthrough: bool = False, teach: bool = False) -> "TableGame":
        """A new game of `players` without the questions (`companion run --players`); `bots`: 0-based seats;
        `walkthrough`: the table is shown how to set the game up first (a key script plays at once);
        `teach`: a first game that explains its rules (a game that cannot ignores it)."""
        raise NotSupportedError(f"--players: {cls.KIND} asks its new-game questions at the table")
