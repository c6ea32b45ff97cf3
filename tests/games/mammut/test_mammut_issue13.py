"""Issue 13: five places where the companion did not follow the rulebook
(../shared/rules/004_44ae528a0be27c8b.txt, cited by line). Every expected number below comes
from the rulebook text (and MAMMUT.md where it decides), not from the code."""

from __future__ import annotations

import random

import pytest

from companion.games.mammut import combat as C
from companion.games.mammut.combat import Fighter
from companion.games.mammut.forms import FORMS, OpenForm, next_field
from companion.games.mammut.game import MammutGame
from companion.games.mammut.phases import Phase as P
from companion.games.mammut.rules import MammutError
from tests.games.mammut.test_mammut_controller import Driver, new_game, play, text
from tests.games.mammut.test_mammut_game import advance_to


# ----- 1. a lone warrior or animal has +1, not +2 --------------------------------------------------
def test_a_lone_warrior_is_not_worth_two():
    # l.147-151: +1 per warrior; footnote *1 "animale solitario o 1 guerriero solitario hanno un
    # +1 di bonus": the lone one's own +1 (MAMMUT.md phase 5), so 1 warrior < 2 warriors
    assert C.combat_bonus(Fighter("t", warriors=1)) == 1
    assert C.combat_bonus(Fighter("t", warriors=2)) == 2
    assert C.combat_bonus(Fighter("bear", animals=1)) == 1


def test_the_issues_key_stream_gives_6_v_5():
    # the issue's reproduction: tribe 1's 4 warriors vs 1 bear, dice 2 and 4:
    # 2 + 4 warriors = 6 against 4 + 1 (a lone bear, l.151) = 5: the bear dies, no tie
    # (the issue's stream "3###1#..." answered "tribe 1 placed first"; the first player is now
    # drawn, so the game starts as that journal did, and bears are the 5th opponent after
    # "Another tribe" and "2+ other tribes")
    d = Driver(7)
    new_game(d, tribes=3, first_game=False, first=1)
    s = d("#1####1##2#1#4#0##5###")
    # issue 14 item 11: the round reads in words ("Red 5, Blue 6: Red loses a warrior"); this
    # game has no colors, so the tribe is "Tribe 1"
    assert "Tribe 1 6, bear 5: a bear dies" in text(s) and "Tribe 1 wins: 1 bear killed" in text(s)
    assert d.journal[-1]["rolls"] == [2, 4]


# ----- 2. births: every camp holds at least one woman ---------------------------------------------
def births_game() -> MammutGame:
    g = MammutGame(2, roll=random.Random(5))
    advance_to(g, P.BIRTHS)
    return g


def test_births_must_account_for_every_camp():
    # l.141 "Devi sempre tenere almeno una donna nell'Accampamento" and l.211 "1 nascita in ogni
    # accampamento dove vi sia 1 segnalino donna e 2 nascite dove vi siano 2 o più": the camps
    # with one woman plus those with two or more are all the tribe's camps
    g = births_game()
    t = g.tribe(1)
    before = (t.warriors, t.women, len(g.log))
    with pytest.raises(MammutError, match="every camp keeps at least 1 woman.*1 camps, not 0"):
        g.report_births(1, 0, 0)
    assert (t.warriors, t.women, len(g.log), t.births) == (*before, None)


def test_births_form_refuses_no_camps_and_offers_the_rest_on_ok():
    g = births_game()
    t = g.tribe(1)  # 1 camp, 2 women (set-up l.44)
    form = OpenForm("births", {"tribe": 1}, derived=True)
    f = next_field(g, form)
    # `##` used to mean 0 camps with 1 woman and 0 with 2 or more: no births, silently
    assert f.name == "camps_one_woman" and f.problem(f.default) is None
    f2 = next_field(g, form.answered("camps_one_woman", 0))
    assert f2.name == "camps_two_plus" and f2.default == 1  # the camp holds both women: 2 births (l.211)
    assert "every camp keeps at least 1 woman" in f2.problem(0)
    t.women = 1  # test setup: the camp holds one woman
    assert "need 2" in next_field(g, form).problem(0)  # 0 camps with 1 woman is refused
    assert next_field(g, form.answered("camps_one_woman", 1)) is None  # 1 camp with 1: complete


# ----- 3. sowing: the box holds 9 crop markers ----------------------------------------------------
def sowing_game(tribes: int = 4) -> MammutGame:
    g = MammutGame(tribes, roll=random.Random(3))
    advance_to(g, P.SOWING)
    for t in g.tribes:  # test setup: three villages on a plain and food to sow them
        t.villages, t.caves, t.women, t.food = 3, 0, 6, 10
    return g


def test_no_more_crops_than_the_nine_markers():
    # l.26 "9 Segnalini Raccolto"; l.225 a crop on each plain village, 1 food each; l.203 all
    # markers leave the board at the harvest, so at the end of winter all 9 are in the box
    g = sowing_game()
    g.sow(1, 3)
    g.sow(2, 3)
    with pytest.raises(MammutError, match="only 9 crop markers: 3 left, not 4"):
        g.sow(3, 4)  # (also beyond its villages) the markers are checked first
    g.sow(3, 2)
    with pytest.raises(MammutError, match="only 9 crop markers: 1 left, not 2"):
        g.sow(4, 2)
    assert g.tribe(4).food == 10  # refused: nothing charged
    g.sow(4, 1)
    assert sum(t.sown for t in g.tribes) == 9 and [t.food for t in g.tribes] == [7, 7, 8, 9]
    with pytest.raises(MammutError, match="0 left"):
        g.sow(3, 1)


def test_sow_form_caps_at_the_markers_left_and_skips_tribes_that_cannot():
    g = sowing_game()
    g.sow(1, 3)
    g.sow(2, 3)
    g.sow(3, 2)
    form = OpenForm("sow")
    crops = next_field(g, form.answered("tribe", 4))
    assert crops.hi == 1 and "only 9 crop markers: 1 left, not 2" in crops.problem(2)
    g.sow(4, 1)
    tribe = next_field(g, form)
    assert "all 9 crop markers" in tribe.problem(4) and tribe.choices == ()  # issue 31: none is offered
    assert FORMS["sow"].unavailable(g) == "nobody can sow: all 9 crop markers of the box are on the board"


# ----- 4. a tribe that cannot sow is refused at once, with the reason -----------------------------
def test_a_tribe_without_food_cannot_be_picked_to_sow():
    # l.225 "Seminare costa un punto cibo per ogni nuova piantagione": no food, no crop
    g = sowing_game(2)
    g.tribe(2).food = 0
    tribe = next_field(g, OpenForm("sow"))
    assert tribe.problem(1) is None
    assert tribe.problem(2) == "Tribe 2 cannot sow: a crop costs 1 food and it has none"
    g.tribe(2).villages, g.tribe(2).caves = 0, 1
    assert "only on its villages on a plain" in tribe.problem(2)


def test_by_keys_nobody_can_sow_is_said_when_the_question_would_open():
    d = Driver(11)
    new_game(d, tribes=4, first_game=False, first=3)
    play(d, lambda c: c.game.phase == P.SOWING)
    assert all(t.food == 0 for t in d.c.game.tribes)  # a hungry winter: nobody can sow
    journaled = len(d.journal)
    s = d("#2#")  # the list > crops sown: refused at once (issue 31: a list offers only who may sow)
    assert s.name == "error" and "Nobody can sow now: a crop costs 1 food and needs a village on a plain" in text(s)
    assert d("#").name == "actions" and len(d.journal) == journaled  # nothing opened, nothing journaled


# ----- 5. the women are massacred only with a camp taken -----------------------------------------
def test_massacre_is_offered_only_when_a_camp_was_taken():
    # l.157-161: captured women join the winning tribe; l.169: only "il vincitore [che conquista
    # un accampamento] può scegliere tra ... oppure bruciare l'accampamento e massacrare le donne"
    g = MammutGame(2, roll=random.Random(2))
    advance_to(g, P.COMBAT)
    form = OpenForm("capture_women", answers={"captor": 1, "victim": 2, "count": 1})
    assert next_field(g, form) is None  # no camp taken: the women join the captor, nothing asked
    assert FORMS["capture_women"].args(g, {}, form.answers)["massacre"] is False
    g.capture_camp(1, 2, "village", burn=True)
    assert next_field(g, form).name == "massacre"
    assert next_field(g, OpenForm("capture_women", answers={"captor": 2, "victim": 1, "count": 1})) is None
    g.advance()  # survival: the combat phase is over
    assert not g.took_camp_of(1, 2)
