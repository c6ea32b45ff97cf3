"""What the Clans table tests share: keys fed to a controller or to the table's Shell around it,
the actions its `Persist` effects carry, and `Search`/`Hint` effects answered the way the
daemon answers them (in order, after every key, until the outbox stays empty).

Named clans_helpers (not helpers) so that no other test folder's module can shadow it.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any, Callable, Iterable

from companion.games import GAMES
from companion.games.clans.bots import RandomBot
from companion.games.clans.controller import Controller
from companion.games.clans.game import Move
from companion.games.clans.record import Record
from companion.table.effects import Effect, Hint, Persist, Search
from companion.table.shell import Shell

_SHARED = Path(__file__).resolve().parents[4] / "shared" / "spec" / "examples"
_VENDORED = Path(__file__).resolve().parents[2] / "data" / "examples"
EXAMPLES = _SHARED if _SHARED.exists() else _VENDORED  # the spec's examples, vendored with the tests

Answerer = Callable[[Search | Hint], Any]


def feed(target: Any, keys: Iterable[str]) -> None:
    """Each key in turn to a Controller or a Shell, at time 0."""
    for k in keys:
        target.handle(k, 0.0)


def example(name: str) -> Record:
    return Record.load(EXAMPLES / f"{name}.record.json")


def loaded(name: str, upto: int | None = None) -> Controller:
    """The example record's game cut after `upto` moves, colors not revealed yet."""
    rec = example(name)
    rec.moves = rec.moves[:upto]
    rec.colors = None
    return Controller.from_record(rec)


# The registry as the table sees it, except that "Play Mammut" starts a stand-in (a fresh Clans
# table): these tests are about Clans leaving, not about the game that comes next.
CATALOG = [GAMES["clans"]] + [dataclasses.replace(e, module=GAMES["clans"].module) for e in GAMES.values()
                              if e.kind != "clans"]


def shell_of(game: Any, rng: random.Random | None = None) -> Shell:
    """The table around `game` (the D menu as at the table: the game's items, then the shell's)."""
    return Shell(CATALOG, "clans", game, rng if rng is not None else random.Random(0))


def actions_of(effects: Iterable[Effect], kind: str = "clans") -> list[dict]:
    """The actions the `Persist` effects (of game `kind`) carry, in order."""
    return [a for e in effects if isinstance(e, Persist) and e.kind == kind for a in e.actions]


def searches_of(effects: Iterable[Effect]) -> list[Search]:
    return [e for e in effects if isinstance(e, Search)]


def persisted(target: Any) -> list[dict]:
    """Pop the outbox: the actions journaled since the last call. A Search or Hint must not be
    dropped unseen (pop the effects yourself where one is expected)."""
    effects = target.pop_effects()
    unanswered = [e for e in effects if isinstance(e, (Search, Hint))]
    assert not unanswered, f"unexpected {unanswered}"
    return actions_of(effects)


def answer(target: Any, answerer: Answerer, effects: Iterable[Effect] | None = None) -> list[Effect]:
    """As the daemon drains the outbox: deliver every Search and Hint among `effects` (default:
    the outbox) to `answerer`'s move, then the effects that follow, until none is left.
    Returns every effect seen, in order."""
    seen: list[Effect] = []
    todo = list(target.pop_effects() if effects is None else effects)
    while todo:
        for e in todo:
            seen.append(e)
            if isinstance(e, (Search, Hint)):
                target.deliver(e, answerer(e))
        todo = target.pop_effects()
    return seen


def random_answers(rnd: random.Random) -> Answerer:
    """A random bot for a Search (it plays its secret), a random legal move for a Hint."""

    def run(effect: Search | Hint) -> Move:
        game = effect.position.copy()
        if isinstance(effect, Search):
            return RandomBot().choose(game, effect.seat, effect.secret, rnd)
        return Move(*game.random_move(rnd.random))

    return run


def play_out(c: Any, rnd: random.Random, answerer: Answerer) -> list[Effect]:
    """Play a controller's game to its end: # for each bot proposal (after the last move's result), a
    random legal move (and random village orders) for each person; every search answered by
    `answerer`. Returns every effect seen."""
    effects = answer(c, answerer)
    while not c.game.is_over:
        if c.mode() == "bot":
            feed(c, "#" if not c.info.shown else "##")
        else:
            frm, to = c.game.random_move(rnd.random)
            feed(c, f"{frm}#{to}#")
            while c.mode() == "order":
                feed(c, f"{rnd.choice(c.order_choices())}#")
        effects += answer(c, answerer)
    return effects
