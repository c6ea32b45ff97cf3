"""A family's first game: which rule to explain, the moment it first matters.

With teaching on (the new game's `"teach": true`), each rule is explained once in a game,
with the screen it belongs to: `move` when play starts; after a move, the rules its result
shows for the first time (`after_move`); with a refused move, the rule that refused it
(`refused`). The controller journals each explanation as a `{"a": "taught", "rule": NAME}`
action, so a restart or an undone and replayed move never explains it again.

The rules, in the order a move's explanations are shown:
  village    the move founded a village (a territory cut off from all huts)
  strife     one of its villages held all five colors and lost its single huts
  hostile    one of its villages stood on its epoch's hostile terrain: destroyed (with huts left after strife)
  favorable  one got its epoch's bonus (not the 12th village)
  order      the mover was asked the founding order
  epoch      it founded a village of epoch II (the first epoch change)
  twelfth    it founded the 12th village: the end, the reveal
  seven      a group of 7 or more huts stands for the first time (the 7-hut rule)
  move       before the first move; empty: a move refused onto (or from) an empty territory
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.games.clans.game import Game, Outcome
    from companion.games.clans.rules import Village

RULES = ("move", "village", "strife", "hostile", "favorable", "order", "epoch", "twelfth", "seven", "empty")
REFUSALS = {"big-stuck": "seven", "big-onto-small": "seven", "onto-empty": "empty", "empty-moves": "empty"}


def destroyed(v: Village) -> bool:
    """The village was destroyed by its epoch's hostile terrain with huts still in it (after strife)."""
    return v.destroyed and v.huts > sum(v.removed.values())


def favored(v: Village) -> bool:
    """The village got its epoch's bonus (the 12th village's +5 is not one)."""
    return bool(v.bonus) and v.chip < 12 and not v.destroyed


def after_move(game: Game, out: Outcome, asked: bool) -> list[str]:
    """The rules the move just played (`out`, `game` after it) shows, in explaining order; `asked`: the mover
    answered "which village next?"."""
    villages = out.villages
    shows = {
        "village": bool(villages),
        "strife": any(v.removed for v in villages),
        "hostile": any(destroyed(v) for v in villages),
        "favorable": any(favored(v) for v in villages),
        "order": asked,
        "epoch": any(v.epoch == 2 for v in villages),
        "twelfth": any(v.chip == 12 for v in villages),
        "seven": bool(game.big),
    }
    return [rule for rule in RULES if shows.get(rule)]


def refused(reason: str) -> str | None:
    """The rule a refused move explains (a key of rules.ILLEGAL), if any."""
    return REFUSALS.get(reason)
