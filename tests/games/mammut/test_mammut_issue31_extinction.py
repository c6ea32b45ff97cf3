"""Issue 31, part A: a key storm ended in `KeyError: ''` in `texts.order_line`.

The cause: the turn walker went on through the phases of a turn after the last tribe had
been eliminated (extinction was only looked at on entering phase 10), so it entered phase 4
with nobody to put in a play order; phase 4 then showed an order that was never decided. The
rules end the game there ("If only animals are left, everybody loses"): the game now ends as
soon as the table advances with every tribe eliminated and none that may still come back in
the next phase. And the texts of phase 4 say nothing about an order that is not decided.

`data/mammut-storm-49883202.keys` is the storm of the issue (../shared/repro), cut to the
141 keys that still reached the crash (every key left is needed: without any one of them the
old code did not crash): two tribes, Red removed in winter turn 1 and not brought back, then
Yellow's last warriors removed in the events phase of winter turn 3, and three advances.
Three of them were B on an empty number entry (which scrolled down from the top before
part B of the issue); they are typed as the numbers they gave (1, 3 and 6), so the keys
reach the same place before and after that change.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion.kiosk import daemon
from companion.games.mammut import speech as S
from companion.games.mammut import texts as T
from companion.games.mammut.help_texts import phase_help
from companion.games.mammut.game import MammutGame
from companion.games.mammut.phases import Phase as P
from tests.games.mammut.test_mammut_controller import Driver, new_game, text
from tests.games.mammut.test_mammut_game import advance_to

REPRO = Path(__file__).resolve().parent / "data" / "mammut-storm-49883202.keys"
SEED = 49883202


def remove_everybody(g: MammutGame, *tribes: int) -> None:
    for n in tribes:
        t = g.tribe(n)
        g.remove_tokens(n, warriors=t.warriors, women=t.women)


# ----- the repro -----------------------------------------------------------------------------------
def test_the_storm_of_the_issue_runs_to_the_end_and_the_game_ends_by_extinction(tmp_path):
    """The issue's command line, with the minimised keys: it used to end in KeyError."""
    record = tmp_path / "mammut.json"
    args = daemon.parse_args(["--game", "mammut", "--display", "dummy", "--seed", str(SEED),
                              "--keys", str(REPRO), "--state-dir", str(tmp_path / "state"),
                              "--record-out", str(record)])
    assert daemon.build(args).run() == 0
    game = json.loads(record.read_text())
    assert game["state"]["phase"] == "game_over" and game["state"]["extinct"] is True
    assert [t["eliminated"] for t in game["state"]["tribes"]] == [True, True]
    assert game["state"]["play_order"] == []  # the turn ended before phase 4: no order was needed


def test_the_storm_by_keys_shows_the_end_where_it_crashed():
    d = Driver(SEED)
    keys = REPRO.read_text().strip()
    d(keys[:-3])  # up to the last tribe's tokens removed and the list's "Next phase" lit
    g = d.c.game
    assert g.phase == P.EVENTS and all(t.people == 0 for t in g.tribes) and g.can_resurrect() == []
    d("#")  # next phase: nobody is left and nobody may come back
    assert d.c.game.over and d.c.game.extinct
    assert "Only animals are left: everybody loses." in text(d.c.screen())
    assert "tribes_move" not in d.visited[d.visited.index("events", len(d.visited) - 3):]


# ----- the rule: no phase is played without a tribe -------------------------------------------------
@pytest.mark.parametrize("phase", [P.NEW_ANIMALS, P.ANIMAL_MOVEMENT, P.TRIBES_MOVE, P.COMBAT, P.FATE_CARDS])
def test_advancing_with_every_tribe_gone_ends_the_game_at_once(phase):
    g = MammutGame(2, roll=random.Random(4))
    for _ in range(2):  # turn 3 (summer 3, the last of the first year's summer) has events and fate cards
        advance_to(g, P.END_OF_TURN)
        g.advance()
    advance_to(g, phase)
    remove_everybody(g, 1, 2)
    assert g.advance() == P.GAME_OVER
    assert g.extinct and g.winners == []


def test_every_tribe_gone_in_the_events_phase_never_reaches_phase_4():
    """The issue's path on the books alone: every tribe gone in the events phase."""
    g = MammutGame(2, roll=random.Random(7))
    advance_to(g, P.COMBAT)
    remove_everybody(g, 1)
    for _ in range(4):  # to winter turn 3 (game turn 5): red could only come back in turn 2
        advance_to(g, P.END_OF_TURN)
        g.advance()
    advance_to(g, P.EVENTS)
    assert g.turn_number == 5 and g.can_resurrect() == []
    remove_everybody(g, 2)
    g.advance()
    assert g.over and g.extinct and g.play_order == [] and g.order_reason == ""


def test_a_tribe_that_may_still_come_back_keeps_the_turn_going_until_phase_4():
    g = MammutGame(2, roll=random.Random(11))
    advance_to(g, P.COMBAT)
    remove_everybody(g, 2)  # tribe 2 is out in turn 1: it may come back early in turn 2
    advance_to(g, P.END_OF_TURN)
    g.advance()
    assert g.phase == P.NEW_ANIMALS and g.can_resurrect() == [2]
    remove_everybody(g, 1)
    assert g.advance() == P.ANIMAL_MOVEMENT and not g.over  # tribe 2 may still come back here
    assert g.can_resurrect() == [2]
    assert g.advance() == P.GAME_OVER and g.extinct  # nobody came back before the tribes move


def test_a_tribe_brought_back_plays_on_with_a_play_order():
    g = MammutGame(2, roll=random.Random(11))
    advance_to(g, P.COMBAT)
    remove_everybody(g, 2)
    advance_to(g, P.END_OF_TURN)
    g.advance()
    remove_everybody(g, 1)
    g.advance()
    g.resurrect(2)
    assert g.advance() == P.TRIBES_MOVE and g.play_order == [2] and g.order_reason
    assert T.order_line(g).startswith("Order: ")


def test_undo_takes_the_extinction_back():
    g = MammutGame(2, roll=random.Random(3))
    advance_to(g, P.COMBAT)
    remove_everybody(g, 1, 2)
    g.advance()
    assert g.over
    g.pop()
    assert g.phase == P.COMBAT and not g.over and not g.extinct


# ----- the texts never read an order that is not decided ---------------------------------------------
def undecided_tribes_move() -> MammutGame:
    """Phase 4 with no order decided: what the old walker reached (the books say so by hand here)."""
    g = MammutGame(2, roll=random.Random(5), colors=["red", "yellow"])
    advance_to(g, P.TRIBES_MOVE)
    g.play_order, g.order_reason, g.order_rolls = [], "", []
    return g


def test_order_line_says_nothing_without_an_order():
    g = undecided_tribes_move()
    assert T.order_line(g) == ""
    assert T.phase_summary(g) == ["#: camps made"]
    assert not any("Play order" in line for line in phase_help(g))


def test_order_line_reads_a_decided_order_as_before():
    g = MammutGame(2, roll=random.Random(5), colors=["red", "yellow"])
    g.set_first_player(2)
    advance_to(g, P.TRIBES_MOVE)
    assert T.order_line(g) == "Order: Yel Red (placed first)"
    assert T.phase_summary(g) == ["Order: Yel Red (placed first)", "#: camps made"]


def test_the_phase_announcement_says_no_empty_order():
    g = undecided_tribes_move()
    said = S.say("phase", S.phase(g, False)[-1].fields)
    assert said == "Phase 4, tribes move."
    g.advance()
    assert S.say("phase", S.phase(g, False)[-1].fields) == "Phase 5, combat."


def test_new_game_helper_still_reaches_phase_4_with_an_order():
    d = Driver(3)
    new_game(d, tribes=2, first=1)
    d("###")  # setup list, start turn 1, new animals -> movement
    d("#")
    assert d.c.game.phase == P.TRIBES_MOVE and "Order: T1 T2 (placed first)" in text(d.c.screen())
