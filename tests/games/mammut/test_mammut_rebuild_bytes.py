"""A restart rebuilds the Mammut game byte for byte: the journal keeps each action as JSON
with its keys sorted, so the live table applies its actions in that same form. Before, a
fight's sides kept the form's order live (tribe, warriors, women, camp, bonus) and the
sorted order after a restart, so the record written before and after a power cut differed
(found by tests/fuzz/test_storms.py, issue 31)."""

from __future__ import annotations

import json
import random

from companion.games.mammut.controller import MammutTable
from companion.games.mammut.phases import Phase as P
from tests.games.mammut.test_mammut_controller import Driver, new_game, to_phase


def as_journaled(actions: list[dict]) -> list[dict]:
    """The actions as the journal gives them back (companion.journal.store: sort_keys)."""
    return [json.loads(json.dumps(a, separators=(",", ":"), sort_keys=True)) for a in actions]


def test_a_fight_reads_the_same_before_and_after_a_restart():
    d = Driver(31)
    new_game(d, tribes=2, first=1)
    to_phase(d, P.COMBAT)
    d("#2#1#2#1#")  # fight: tribe 1, 2 warriors, 1 woman
    d("2##1#2#0##")  # in its village; another tribe: tribe 2, 2 warriors, no women, not in camp
    d("##3##")  # tribe 1's women watch; bonuses 0 and 3 (the fight is rolled)
    assert d.c.game.fights or d.c.game.battle is not None
    rebuilt = MammutTable.from_actions(as_journaled(d.journal), random.Random(0))
    assert rebuilt.record_json() == d.c.record_json()


def test_every_action_is_applied_as_the_journal_keeps_it():
    d = Driver(5)
    new_game(d, tribes=3, first=2)
    to_phase(d, P.COMBAT)
    d("#2#1#1#0##3#")  # fight: tribe 1, 1 warrior, no women, not in camp, against wolves
    d("1#0#")  # one wolf, no bonus: rolled
    assert d.journal == as_journaled(d.journal)
    entry = d.c.game.log[-1]
    assert list(entry["args"]["sides"][0]) == sorted(entry["args"]["sides"][0])
