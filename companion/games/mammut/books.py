"""The books of a Mammut game: every tribe's counts, the calendar, the phase, and the action log
with its exact undo.

`Tribe` is one tribe's books (warriors, women, villages, caves, food, fate cards, fire,
resurrection, elimination, this turn's reports). `Books` holds them with the settings,
the calendar and the phase, and is the base of `game.MammutGame`, whose actions (in
`turns`, `fights` and `reports`) all go through `Books._run`: it validates by running the
action on the live books and restores them if anything fails (no die rolled, nothing
logged), logs an accepted action as a JSON-safe entry `{"seq", "action", "args", "rolls"}`
with the dice it rolled, and keeps a snapshot of the books from before it, so `pop()`
takes the last entry back exactly (like python-chess `Board.pop`).
"""

from __future__ import annotations

import copy
import random
from typing import Any, Callable, Sequence

from companion.i18n import _, pgettext

from . import rules as R
from .dice import Dice
from .phases import PHASE_NAME, TURN_PHASES, Phase
from .rules import MammutError, Roll


class Tribe:
    """One tribe's books. Plain attributes; `to_dict`/`from_dict` for snapshots."""

    _FIELDS = (
        "number", "name", "color", "warriors", "women", "villages", "caves", "food", "fate_cards", "fire",
        "resurrection_used", "eliminated", "eliminated_turn", "eliminated_year", "announced_turn",
        "kills_food", "survival", "births", "sown", "to_remove",
    )  # fmt: skip

    def __init__(self, number: int, name: str, food: int, fate_cards: int, color: str | None = None) -> None:
        self.number = number
        self.name = name
        self.color = color  # one of rules.TRIBE_COLORS, or None (records of version 1)
        self.warriors = R.START_WARRIORS
        self.women = R.START_WOMEN
        self.villages = 1
        self.caves = 0
        self.food = food
        self.fate_cards = fate_cards
        self.fire = False
        self.resurrection_used = False
        self.eliminated = False
        self.eliminated_turn: int | None = None
        self.eliminated_year: int | None = None
        self.announced_turn: int | None = None
        # this turn only
        self.kills_food = 0
        self.survival: dict | None = None  # the survival report and its outcome
        self.births: dict | None = None  # the births report and its outcome
        self.sown = 0
        self.to_remove = 0  # tokens still to remove for hunger

    @property
    def camps(self) -> int:
        return self.villages + self.caves

    @property
    def people(self) -> int:
        return self.warriors + self.women

    @property
    def label(self) -> str:
        """The tribe as the table calls it: its short name, else its color, else its number."""
        if self.name:
            return self.name
        return self.color or f"tribe {self.number}"

    def to_dict(self) -> dict:
        return {f: copy.deepcopy(getattr(self, f)) for f in self._FIELDS}

    @classmethod
    def from_dict(cls, d: dict) -> Tribe:
        t = cls(d["number"], d["name"], d["food"], d["fate_cards"])
        for f in cls._FIELDS:
            setattr(t, f, copy.deepcopy(d.get(f)))
        return t


def whole_number(value: Any, what: str) -> int:
    """`value` if it is a whole number 0 or more (the table's counts), else a MammutError naming `what`."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise MammutError(_("{what} must be a whole number 0 or more, not {value}").format(
            what=what, value=repr(value)))
    return value


def short_text(reason: Any) -> None:
    """A reason given with a correction is a short text."""
    if not isinstance(reason, str) or len(reason) > 200:
        raise MammutError(_("the reason is a short text"))


_STATE = (
    "year", "season", "turn", "phase", "first_player", "play_order", "order_reason", "order_rolls",
    "animals_to_draw", "direction", "fate_drawn", "announced", "winners", "extinct", "fights",
    "battle", "event_decks", "event_reshuffled", "notes",
)  # fmt: skip


class Books:
    """A game's books for 2-6 tribes, its log and its undo stack (the actions are in `MammutGame`)."""

    VERSION = 2  # 2: tribe colors, fights round by round, event decks, season notes
    VERSIONS = (1, 2)  # the record versions `game.MammutGame.from_dict` reads

    def __init__(
        self,
        n_tribes: int,
        *,
        roll: Roll | random.Random | None,
        names: Sequence[str] | None = None,
        colors: Sequence[str] | None = None,
        first_game: bool = False,
        advanced: bool = False,
    ) -> None:
        if isinstance(n_tribes, bool) or not isinstance(n_tribes, int) or not R.MIN_TRIBES <= n_tribes <= R.MAX_TRIBES:
            raise MammutError(f"the game is for {R.MIN_TRIBES} to {R.MAX_TRIBES} tribes, not {n_tribes!r}")
        names = list(names) if names is not None else [""] * n_tribes
        if len(names) != n_tribes or not all(isinstance(n, str) for n in names):
            raise MammutError(f"give {n_tribes} tribe names (text), or none")
        if len({n for n in names if n}) != len([n for n in names if n]):
            raise MammutError(_("two tribes have the same name"))
        if colors is not None:
            colors = list(colors)
            if len(colors) != n_tribes or any(c not in R.TRIBE_COLORS for c in colors):
                raise MammutError(f"give {n_tribes} tribe colors, each one of {', '.join(R.TRIBE_COLORS)}")
            if len(set(colors)) != n_tribes:
                raise MammutError(_("two tribes have the same color"))
        self.dice = Dice(roll)
        self._rolls: list[int] | None = None
        self.n_tribes = n_tribes
        self.first_game = bool(first_game)
        self.advanced = bool(advanced)
        food = R.FIRST_GAME_FOOD if first_game else R.START_FOOD
        self.tribes = [Tribe(i + 1, names[i], food, R.hand_size(n_tribes), colors[i] if colors else None)
                       for i in range(n_tribes)]
        self.year, self.season, self.turn = R.START_YEAR, R.START_SEASON, R.START_TURN
        self.phase = Phase.SETUP
        self.first_player = 1
        self.play_order: list[int] = []
        self.order_reason = ""
        self.order_rolls: list[dict[str, int]] = []
        self.animals_to_draw = 0
        self.direction: int | None = None
        self.fate_drawn: list[int] = []
        self.announced: list[int] = []
        self.winners: list[int] = []
        self.extinct = False
        self.fights: list[dict] = []  # this turn's fights, for the prompt
        self.battle: dict | None = None  # the fight under way (`fights`), waiting for a lost token
        self.event_decks = {season: {"left": R.EVENT_DECK, "discards": 0} for season in R.SEASONS}
        self.event_reshuffled = False  # this turn's event deck was shuffled from its discards
        self.notes: list[str] = []  # "until the end of the season" effects the table entered
        self.log: list[dict] = [
            {
                "seq": 0,
                "action": "new_game",
                "args": {"n_tribes": n_tribes, "names": names, "first_game": self.first_game, "advanced": self.advanced}
                | ({"colors": colors} if colors is not None else {}),
                "rolls": [],
            }
        ]
        self._undo: list[dict] = []  # the books before each entry of the log after new_game

    # --- reading the books ----------------------------------------------------------

    @property
    def turn_number(self) -> int:
        """Game turn counted from 1 (year 1 summer turn 2)."""
        return R.turn_number(self.year, self.season, self.turn)

    @property
    def over(self) -> bool:
        return self.phase == Phase.GAME_OVER

    @property
    def winter(self) -> bool:
        return self.season == R.WINTER

    def tribe(self, number: int) -> Tribe:
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= self.n_tribes:
            raise MammutError(f"there is no tribe {number!r}: tribes are numbered 1 to {self.n_tribes}")
        return self.tribes[number - 1]

    def living(self) -> list[Tribe]:
        return [t for t in self.tribes if not t.eliminated]

    def _alive(self, number: int) -> Tribe:
        t = self.tribe(number)
        if t.eliminated:
            raise MammutError(_("{tribe} has been eliminated").format(tribe=t.label))
        return t

    # --- the action wrapper, log, undo and dice -------------------------------------

    def _die(self) -> int:
        value = self.dice()
        if self._rolls is not None:
            self._rolls.append(value)
        return value

    def _run(self, action: str, args: dict, fn: Callable[[], Any]) -> Any:
        """Run one action on the books: all of it, logged with its dice, or nothing at all."""
        if self.phase == Phase.GAME_OVER:
            raise MammutError(_("the game is over: start a new game"))
        if self.battle is not None and self.battle["choose"] and action != "choose_loss":
            who = self.tribe(self.battle["sides"][self.battle["choose"][0]]["tribe"]).label
            raise MammutError(_("finish the fight first: {tribe} chooses the token it loses").format(tribe=who))
        snapshot = self._state()
        self._rolls = []
        try:
            result = fn()
        except BaseException:
            self._load_state(snapshot)
            raise
        finally:
            rolls, self._rolls = self._rolls, None
        self.log.append({"seq": len(self.log), "action": action, "args": copy.deepcopy(args), "rolls": rolls})
        self._undo.append(snapshot)
        return result

    def pop(self) -> dict:
        """Take back the last entry of the log exactly, books, calendar and phase as they were
        before it (like python-chess `Board.pop`); returns the entry. The dice it rolled are
        not rolled back: the next roll is a fresh one. The new_game entry cannot be taken back."""
        if not self._undo:
            raise MammutError(_("nothing to take back: the game has just begun"))
        entry = self.log[-1]
        self._load_state(self._undo.pop())
        return entry

    def _take_camp(self, t: Tribe, kind: str) -> None:
        """One camp of `t` leaves the board (abandoned, taken or burnt)."""
        if kind not in R.CAMP_KINDS:
            raise MammutError(_("a camp is a {village} or a {cave}, not {kind}").format(
                village=R.VILLAGE, cave=R.CAVE, kind=repr(kind)))
        if kind == R.VILLAGE and not t.villages:
            raise MammutError(_("{tribe} has no village").format(tribe=t.label))
        if kind == R.CAVE and not t.caves:
            raise MammutError(_("{tribe} has no cave").format(tribe=t.label))
        if kind == R.VILLAGE:
            t.villages -= 1
        else:
            t.caves -= 1
        if t.camps == 0:
            t.fire = False  # fire is kept in a camp: losing the last camp loses it

    def _need_phase(self, *phases: Phase) -> None:
        if self.phase not in phases:
            either = pgettext("between two phase names", "or")
            names = f" {either} ".join(_(PHASE_NAME[p]) for p in phases)
            raise MammutError(_("that is done in the {phases} phase; this is the {phase} phase").format(
                phases=names, phase=_(PHASE_NAME[self.phase])))

    def _in_turn(self) -> None:
        if self.phase not in TURN_PHASES:
            raise MammutError(_("the first turn has not started yet: finish setup and advance"))

    # --- snapshots ------------------------------------------------------------------

    def _state(self) -> dict:
        d: dict[str, Any] = {k: copy.deepcopy(getattr(self, k)) for k in _STATE}
        d["phase"] = self.phase.value
        d["tribes"] = [t.to_dict() for t in self.tribes]
        d["log_length"] = len(self.log)
        return d

    def _load_state(self, d: dict) -> None:
        for k in _STATE:
            setattr(self, k, copy.deepcopy(d[k]))
        self.phase = Phase(d["phase"])
        # in place, so Tribe objects a caller holds stay live after a refused action
        for t, td in zip(self.tribes, d["tribes"]):
            for f in Tribe._FIELDS:
                setattr(t, f, copy.deepcopy(td[f]))
        del self.log[d["log_length"] :]

    def to_dict(self) -> dict:
        """The whole game, JSON-safe: settings, books, calendar, phase and the action log."""
        state = self._state()
        del state["log_length"]
        return {
            "version": self.VERSION,
            "n_tribes": self.n_tribes,
            "first_game": self.first_game,
            "advanced": self.advanced,
            "state": state,
            "log": copy.deepcopy(self.log),
        }
