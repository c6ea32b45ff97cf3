"""What a game (or the shell) asks of the world, as values in an outbox.

A game never writes a file, runs a search, dims the panel or powers off: it puts
one of these values in its outbox and the daemon drains it after every key
(`pop_effects()`), in order. Every effect is a frozen dataclass, so a test can
compare them and a log can print them (secrets are kept out of `repr`).

    Persist      actions to journal durably before the screen confirms them
    GameOver     the finished game's result, for the history (once per game)
    Search       a bot's move is wanted (the answer comes back through `deliver`)
    Hint         a suggested move for a person, from public information only
    SwitchGame   the table chose another game (the shell has switched already)
    SetBrightness  the panel's brightness level 1..5 (kept across games)
    SetLanguage    the table's language (kept across games and restarts)
    PowerOff     the table asked to shut the box down safely
    SetSound     the table's sound settings: speech, buzzer, volume, speed (kept across games and restarts)
    Announce     something the table should hear: a message id of a game's (or the table's) speech
                 texts and its fields, never finished text; spoken or beeped by companion.kiosk.announce
    Repeat       say the last announcement again (menu item, a long press)
    NewPin       the table made a new PIN for its page: write it where the page reads it (pagelink.PIN_FILE)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Union


@dataclass(frozen=True)
class Persist:
    """Journal `actions` of game `kind`; `new_game` opens a new journal entry with them.

    `hidden` names the actions' fields that are secret at the table (a color dealt in
    private): they are journaled, but never logged (`public()`).
    """

    kind: str
    actions: tuple[dict, ...]
    new_game: bool = False
    hidden: tuple[str, ...] = field(default=(), compare=False)  # how it is logged, not what is journaled

    def public(self) -> list[dict]:
        """The actions as they may be shown or logged: without their hidden fields (spec section 6)."""
        return [redact(a, self.hidden) for a in self.actions]


def redact(action: dict, hidden: tuple[str, ...]) -> dict:
    """`action` as it may be shown or logged: the fields named in `hidden` removed."""
    return {k: v for k, v in action.items() if k not in hidden}


@dataclass(frozen=True)
class GameOver:
    """The game just finished: its result (totals, winners, record ...) for the history."""

    kind: str
    result: dict = field(repr=False)


@dataclass(frozen=True)
class CopyHistory:
    """Copy the table's history (every export format) to the USB stick mounted at `target`."""

    target: str


@dataclass(frozen=True)
class RemoveFromHistory:
    """Take finished game `game_id` out of the history (the History's C, confirmed): a journal effect
    (`JournalWriter`, `Journal.remove_game`), the game kept in the journal."""

    game_id: int


@dataclass(frozen=True)
class Search:
    """Find a move for the bot at `seat`, which secretly plays `secret`; `position` is a private copy;
    `level` is the bot playing that seat (None: the table's bot)."""

    seat: int
    secret: str = field(repr=False)
    position: Any = field(repr=False, compare=False)
    level: str | None = None


@dataclass(frozen=True)
class Hint:
    """Suggest a move for the person at `seat` from public information only."""

    seat: int
    position: Any = field(repr=False, compare=False)


@dataclass(frozen=True)
class SwitchGame:
    kind: str


@dataclass(frozen=True)
class SetBrightness:
    level: int


@dataclass(frozen=True)
class SetLanguage:
    """The table's language (a code of companion.i18n.LANGUAGES), kept across games and restarts."""

    code: str


@dataclass(frozen=True)
class PowerOff:
    pass


@dataclass(frozen=True)
class SetSound:
    """The table's sound settings (companion.table.sound.SoundSettings), kept across games and restarts."""

    settings: Any


@dataclass(frozen=True)
class Announce:
    """Something the table should hear. `source` names whose speech texts say it (a game's kind,
    or "table"), `event` the message ("move", "result" ...), `fields` its values: numbers
    and codes ("forest", "red"), never a sentence, so it is said in the language of the moment.
    `kind` "beep" asks the buzzer for the pattern named `event`: the table's ("refused", "on", "end")
    when `source` is "table", else one of the game's `GameType.sounds`.
    Only public information goes in: a secret color is announced only once revealed."""

    source: str
    event: str
    fields: dict = field(default_factory=dict, hash=False)
    kind: str = "speech"


def beep(event: str, source: str = "table") -> Announce:
    """The buzzer's pattern for `event`: the table's ("refused", "on", "end"), or with `source` a
    game's kind one of its own sounds (its `GameType.sounds`)."""
    return Announce(source, event, {}, "beep")


@dataclass(frozen=True)
class Repeat:
    """Say the last announcement again."""


@dataclass(frozen=True)
class InstallUpdate:
    """# confirmed the USB stick's update: the kiosk asks root to install `bundle` (request.json)."""

    bundle: str


@dataclass(frozen=True)
class NewPin:
    """The menu's New PIN: write `pin` to the PIN file (companion.table.pagelink) in the state directory, readable by the box's
    user only (the page, companion.web.pinfile, takes it at once and ends the old PIN's sessions)."""

    pin: str = field(repr=False)


Effect = Union[Persist, GameOver, Search, Hint, SwitchGame, SetBrightness, SetLanguage, SetSound, PowerOff,
               Announce, Repeat, NewPin]
EFFECT_TYPES = (Persist, GameOver, Search, Hint, SwitchGame, SetBrightness, SetLanguage, SetSound, PowerOff,
                Announce, Repeat, NewPin)


class Outbox:
    """A game's outbox: journal-ready actions grouped into `Persist` values, plus other effects.

    `starts_game(action)` says which actions open a new journal entry (a new game);
    consecutive actions of one entry travel in one `Persist`; `hidden` are the secret
    fields of the game's actions (see `Persist`).
    """

    def __init__(self, kind: str, starts_game: Callable[[dict], bool], hidden: tuple[str, ...] = ()) -> None:
        self.kind = kind
        self._starts_game = starts_game
        self.hidden = hidden
        self._items: list[Effect] = []

    def action(self, action: dict) -> None:
        new = self._starts_game(action)
        last = self._items[-1] if self._items else None
        if isinstance(last, Persist) and not new:
            self._items[-1] = Persist(self.kind, last.actions + (action,), last.new_game, self.hidden)
        else:
            self._items.append(Persist(self.kind, (action,), new, self.hidden))

    def put(self, effect: Effect) -> None:
        self._items.append(effect)

    def extend(self, effects: Iterable[Effect]) -> None:
        self._items.extend(effects)

    def pop(self) -> list[Effect]:
        out, self._items = self._items, []
        return out

    def actions(self) -> list[dict]:
        """The actions waiting in the outbox, in order (tests, rebuilds)."""
        return [a for e in self._items if isinstance(e, Persist) for a in e.actions]
