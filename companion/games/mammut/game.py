"""Valley of the Mammoths: the game, as a pure state machine over the tribes' books.

`MammutGame` keeps every tribe's books (warriors, women, villages, caves, food, fate
cards, fire, resurrection, elimination), the calendar and the current phase. A UI drives
it: read `phase` (and the books), enter what the players report through the action
methods, call `advance()` to move to the next phase that applies this turn. Dice are
injected (`roll() -> int` or a `random.Random`, see `dice`) so every game is reproducible.

Where things are: `books` (the tribes, the log, `pop()`), `turns` (setup, phases,
resurrection), `fights` (phase 5), `events` (phase 1), `reports` (camps, corrections, survival, births,
sowing); the pure rules in `rules`, `combat` and `survival`. The words the table reads
are the controller's (`texts`), never the engine's, except the refusals below.

Every action validates its input and raises `MammutError` with a message a player can
act on; a refused action leaves the state exactly as it was (no die is rolled before the
input is accepted, and the state is restored if anything fails afterwards). Each accepted
action is appended to `log` as a JSON-safe dict `{"seq", "action", "args", "rolls"}`;
`play(action, args)` applies one by name, `pop()` takes the last one back exactly,
`MammutGame.replay(log)` rebuilds the identical game, feeding either the dice recorded in
the log or a given dice source. `to_dict()`/`from_dict()` save and load the whole game.

Decisions where the rules are silent (see also `rules`, `combat`, `survival`):

* Seats are tribe numbers 1..n; clockwise means increasing number, wrapping.
* A tribe whose last warrior and woman are gone is eliminated when the table advances to
  the next phase (so a captured camp can still be raided first); a tribe without women
  loses its camps then too. Elimination discards its food and fate cards.
* Every camp needs a woman, so the companion refuses to advance while a tribe holds more
  camps than women: the table must report which camp was abandoned.
* Resurrection happens in phases 1-3 of the turn after the elimination (the rulebook places
  the new tokens after events and new animals) and only if the tribe was eliminated in the
  first year; the new tribe holds no camp until it makes one.
* Women alone with enemy warriors, and the women of a tribe beaten in a warriors' fight,
  are taken with `capture_women` (the rulebook's swap of tokens, up to 6 women).
* Survival and births must be reported for every tribe (zeros allowed) before advancing;
  tokens removed for hunger are the tribe's choice, entered with `remove_tokens`.
* Winning and extinction are checked on entering phase 10; the game then ends at once.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Sequence

from .books import Tribe
from .dice import Dice
from .events import Events
from .fights import Fights
from .phases import TURN_PHASES, Phase, phase_applies
from .reports import Reports
from .rules import MammutError, Roll
from .turns import TurnWalker

__all__ = ["ACTIONS", "MammutError", "MammutGame", "Phase", "TURN_PHASES", "Tribe", "phase_applies"]


class MammutGame(TurnWalker, Fights, Reports, Events):
    """A game of Valley of the Mammoths for 2-6 tribes, from setup to victory or extinction."""

    def play(self, action: str, args: dict) -> Any:
        """Apply one logged action by name (`ACTIONS`) with its arguments; returns its result."""
        method = ACTIONS.get(action)
        if method is None:
            raise MammutError(f"unknown action {action!r}")
        if not isinstance(args, dict):
            raise MammutError(f"the arguments of {action} are not a mapping")
        return method(self, **args)

    @classmethod
    def replay(cls, log: Sequence[dict], roll: Roll | random.Random | None = None) -> MammutGame:
        """Rebuild a game by replaying its action log.

        With `roll` None the dice recorded in the log are used (resume after a power cut);
        otherwise `roll` supplies them (it must give the same sequence as the original)."""
        if not log or log[0].get("action") != "new_game":
            raise MammutError("a game log starts with its new_game entry")
        args = log[0]["args"]
        game = cls(args["n_tribes"], roll=roll, names=args["names"], colors=args.get("colors"),
                   first_game=args["first_game"], advanced=args["advanced"])  # fmt: skip
        for entry in log[1:]:
            action = entry.get("action")
            if action not in ACTIONS:
                raise MammutError(f"unknown action {action!r} in the game log (entry {entry.get('seq')})")
            faces = None if roll is not None else entry.get("rolls", [])
            with game.dice.fed(faces, f"entry {entry.get('seq')}"):
                game.play(action, entry.get("args", {}))
        return game

    @classmethod
    def from_dict(cls, d: dict, *, roll: Roll | random.Random) -> MammutGame:
        """Rebuild a game saved by `to_dict`; dice continue from `roll`. The log is replayed with
        its recorded dice (so `pop()` works as in the original) and must land on the saved books."""
        try:
            version = d.get("version")
            if version not in cls.VERSIONS:
                raise MammutError(f"unknown game record version {version!r}")
            game = cls.replay(d["log"])
            state = game.to_dict()["state"]
            if version == 1:  # a version-1 record has no colors, battle, event decks or notes
                state = {k: v for k, v in state.items() if k in d["state"]}
                state["tribes"] = [{k: v for k, v in t.items() if k != "color"} for t in state["tribes"]]
            if (game.n_tribes, game.first_game, game.advanced) != (d["n_tribes"], d["first_game"], d["advanced"]) \
                    or state != d["state"]:
                raise MammutError("the books do not match the log")
        except (MammutError, KeyError, IndexError, TypeError, ValueError) as e:
            raise MammutError(f"the game record is damaged ({e})") from e
        from companion.table.seatnames import NameRefused, check_name

        for tribe in game.tribes:  # a record from outside: its tribes' names by the names' rule ("" = unnamed)
            try:
                if tribe.name:
                    check_name(tribe.name)
            except NameRefused as e:
                raise MammutError(f"tribe {tribe.number}: {e}") from None
        game.dice.source = Dice(roll).source
        return game


# The actions a log may contain, by name: what `play` and `replay` call.
ACTIONS: dict[str, Callable[..., Any]] = {
    "advance": MammutGame.advance,
    "set_first_player": MammutGame.set_first_player,
    "set_start_camp": MammutGame.set_start_camp,
    "sow": MammutGame.sow,
    "make_camp": MammutGame.make_camp,
    "abandon_camp": MammutGame.abandon_camp,
    "fight": MammutGame.fight,
    "choose_loss": MammutGame.choose_loss,
    "capture_camp": MammutGame.capture_camp,
    "capture_women": MammutGame.capture_women,
    "remove_tokens": MammutGame.remove_tokens,
    "adjust_food": MammutGame.adjust_food,
    "play_fate_card": MammutGame.play_fate_card,
    "set_fire": MammutGame.set_fire,
    "report_survival": MammutGame.report_survival,
    "report_births": MammutGame.report_births,
    "resurrect": MammutGame.resurrect,
    "roll_die": MammutGame.roll_die,
    "roll_region": MammutGame.roll_region,
    "add_note": MammutGame.add_note,
    "add_tokens": MammutGame.add_tokens,
}
