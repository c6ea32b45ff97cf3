"""Issue 31, part B: the Mammut forms offer only what the rules allow, and refuse an answer
at the question where the rest becomes impossible.

1. "Red fights whom?" no longer lists Red (nor any tribe already on a side).
2. A/B on an empty number entry starts at the answer # gives, else the lowest value the rules
   allow, and steps only through allowed values (it jumped to the top before).
3. A fight with nobody in it is refused at the women question, with one line saying why and
   what to do; every other form is held to the same rule: a list offers only the choices the
   rules allow, a number steps only through allowed values, and a form nobody can fill is
   refused when it would open. The random walks at the end check the whole claim: every
   answer a question offers is accepted, and every complete form is a game call the rules
   accept (the engine refused many of them at the end before).

Rulebook lines cited are ../shared/rules/004_44ae528a0be27c8b.txt.
"""

from __future__ import annotations

import json
import random

import pytest

from companion.games.mammut import rules as R
from companion.games.mammut.controller import MammutTable
from companion.games.mammut.events import MAX_NOTES
from companion.games.mammut.form_kit import Field
from companion.games.mammut.forms import FORMS, OpenForm, derived_form, next_field
from companion.games.mammut.game import MammutGame
from companion.games.mammut.keys_play import actions, step
from companion.games.mammut.phases import Phase as P
from companion.games.mammut.rules import MammutError
from companion.table import keys as K
from tests.games.mammut.test_mammut_controller import Driver, new_game, state, text, to_phase
from tests.games.mammut.test_mammut_game import advance_to


def game_at(phase: P, tribes: int = 3, advanced: bool = False, seed: int = 1) -> MammutGame:
    g = MammutGame(tribes, roll=random.Random(seed), colors=list(R.TRIBE_COLORS[:tribes]), advanced=advanced)
    advance_to(g, phase)
    return g


def ask(g: MammutGame, which: str, /, ctx: dict | None = None, **answers) -> Field:
    """The question the form `which` asks after `answers`."""
    f = next_field(g, OpenForm(which, ctx or {}, answers))
    assert f is not None
    return f


def offered(f: Field) -> list:
    return [v for v, _label in f.choices]


def labels(f: Field) -> list[str]:
    return [label for _value, label in f.choices]


def color_driver(seed: int = 2, tribes: int = 2) -> Driver:
    """A game by keys with tribes by color: red, yellow, green... in seat order."""
    d = Driver(seed)
    d(f"{tribes}###" + "#" * tribes)
    return d


# ----- 1. a tribe is never its own opponent ----------------------------------------------------------
def test_red_fights_whom_does_not_offer_red():
    d = color_driver()
    to_phase(d, P.COMBAT)
    d("#2#")  # the list > fight
    d("1#2#0##")  # Red: 2 warriors, no women, not in its camp
    assert d.name == "fight:opponent" and d.c.screen().choices[0] == "Another tribe"
    s = d("#")
    assert s.name == "fight:tribe2" and s.title == "Red fights whom?"
    assert s.choices == ("Yellow",) and s.selected == 0  # Red is not offered, let alone lit


def test_no_tribe_already_on_a_side_is_offered_again():
    g = game_at(P.COMBAT, tribes=4)
    f = ask(g, "fight", tribe1=2, warriors1=1, women1=0, camp1=None, opponent="more", tribes=3)
    assert offered(f) == [1, 3, 4]
    f = ask(g, "fight", tribe1=2, warriors1=1, women1=0, camp1=None, opponent="more", tribes=3,
            tribe2=4, warriors2=1, women2=0, camp2=None)
    assert offered(f) == [1, 3]
    assert f.problem(2) == "a tribe cannot fight itself" and f.problem(4) == "a tribe cannot fight itself"


# ----- 2. scrolling a number -------------------------------------------------------------------------
def test_down_on_the_empty_number_of_tribes_starts_at_2():
    d = Driver(1)
    assert d.name == "new:tribes"
    assert d("B").entry == "> 2_"  # was "> 6_": down from nothing jumped to the top
    assert d("B").entry == "> 6_"  # then down wraps round, within 2-6
    assert d("A").entry == "> 2_"
    d("*")
    assert d("A").entry == "> 2_"  # up from nothing starts there too
    assert d("A").entry == "> 3_"
    d("*9")
    assert d("B").entry == "> 6_" and d("#").name == "new:first_game"  # typed past the top: down to the top


def number(lo: int, hi: int, default: int | None = None, refused: tuple = ()) -> Field:
    return Field("n", "?", lo, hi, default, check=lambda v: "no" if v in refused or not lo <= v <= hi else None)


@pytest.mark.parametrize("field, typed, key, expected", [
    (number(2, 6), "", K.DOWN, 2),
    (number(2, 6), "", K.UP, 2),
    (number(0, 5, default=0), "", K.DOWN, 0),  # the answer # gives is where it starts
    (number(0, 5, default=3), "", K.UP, 3),
    (number(0, 5, default=0, refused=(0,)), "", K.DOWN, 1),  # a default the rules refuse is not shown
    (number(0, 5, refused=(1, 2)), "0", K.UP, 3),  # refused values are stepped over
    (number(0, 5, refused=(1, 2)), "3", K.DOWN, 0),
    (number(0, 5), "5", K.UP, 0),  # round the ends
    (number(0, 5), "0", K.DOWN, 5),
    (number(2, 6), "9", K.DOWN, 6),  # typed beyond: the nearest allowed value that way
    (number(2, 6), "1", K.UP, 2),
    (number(2, 6), "9", K.UP, 2),
])
def test_a_and_b_step_through_the_values_the_rules_allow(field, typed, key, expected):
    assert step(field, typed, key) == expected


def test_no_value_allowed_leaves_the_entry_as_it_is():
    assert step(number(1, 0), "", K.DOWN) is None
    g = game_at(P.BIRTHS, tribes=2)
    t = g.tribe(1)
    t.villages, t.women = 3, 2  # 3 camps, 2 women: no split of the camps is possible
    f = ask(g, "births", {"tribe": 1})
    assert f.allowed() == [] and step(f, "", K.UP) is None


def test_births_start_at_the_fewest_camps_with_one_woman_the_women_allow():
    # l.141 every camp keeps a woman, l.211: 2 camps and 3 women are one camp of 1 and one of 2,
    # so "camps with 1 woman?" cannot be 0: # gives 1 and A/B never show 0
    g = game_at(P.BIRTHS, tribes=2)
    t = g.tribe(1)
    t.villages, t.women = 2, 3
    f = ask(g, "births", {"tribe": 1})
    assert (f.lo, f.default, f.allowed()) == (1, 1, [1, 2])
    assert "need 4" in f.problem(0)
    t.women = 4
    assert ask(g, "births", {"tribe": 1}).default == 0


# ----- 3. a fight with nobody, and the fight's other questions ----------------------------------------
def test_a_fight_with_nobody_is_refused_at_the_women_question():
    d = color_driver()
    to_phase(d, P.COMBAT)
    d("#2#1#0#")  # fight: Red, no warriors
    journal = list(d.journal)
    s = d("0#")  # and no women
    assert s.name == "error"
    assert text(s) == "Not allowed Red has nobody in this fight: at least 1 warrior or woman (* goes back)."
    assert d.journal == journal and d.c.pending_question()["field"] == "women1"
    assert d("#").name == "fight:women1" and "#=OK(1)" in text(d.c.screen())  # # gives the fewest allowed
    d("1#")
    assert d.c.pending_question()["field"] == "camp1"


def test_a_tribe_without_women_sends_at_least_one_warrior():
    g = game_at(P.COMBAT)
    g.tribe(1).women = 0
    f = ask(g, "fight", tribe1=1)
    assert f.lo == 1 and f.problem(0) == "Red has nobody in this fight: at least 1 warrior or woman (* goes back)"


def test_a_tribe_with_nobody_left_is_not_offered_to_fight():
    g = game_at(P.COMBAT)
    g.tribe(2).warriors = g.tribe(2).women = 0  # gone in a fight: eliminated when the table advances
    assert offered(ask(g, "fight")) == [1, 3]
    assert ask(g, "fight").problem(2) == "Yellow has no warrior or woman left"
    f = ask(g, "fight", tribe1=1, warriors1=1, women1=0, camp1=None)
    assert [v for v in offered(f) if not isinstance(v, str) or v == "more"] == [None]  # one other tribe: no "2+"
    g.tribe(3).warriors = g.tribe(3).women = 0
    f = ask(g, "fight", tribe1=1, warriors1=1, women1=0, camp1=None)
    assert offered(f) == list(R.ANIMALS)  # nobody else to fight: only animals
    for n in (1, 2, 3):
        g.tribe(n).warriors = g.tribe(n).women = 0
    assert FORMS["fight"].unavailable(g) == "no tribe has a warrior or a woman left"


def test_two_or_more_other_tribes_counts_the_tribes_that_can_fight():
    g = game_at(P.COMBAT, tribes=4)
    f = ask(g, "fight", tribe1=1, warriors1=1, women1=0, camp1=None, opponent="more")
    assert f.hi == 4
    g.tribe(4).warriors = g.tribe(4).women = 0
    f = ask(g, "fight", tribe1=1, warriors1=1, women1=0, camp1=None, opponent="more")
    assert (f.lo, f.hi, f.allowed()) == (3, 3, [3])


def test_women_alone_against_warriors_fight_only_with_a_fate_card():
    # l.173 women never fight a warrior; l.161 women alone with enemy warriors are captured
    g = game_at(P.COMBAT, tribes=2)
    answers = dict(tribe1=1, warriors1=0, women1=2, camp1=None, opponent=None, tribe2=2, warriors2=3, women2=0,
                   camp2=None)
    f = ask(g, "fight", **answers)
    assert f.name == "women_fight1" and labels(f) == ["Fight (fate card)"]
    assert f.problem(False) == ("women do not fight warriors: Red's women are captured without a fight "
                                "(capture women), unless a fate card lets them fight")
    answers["women2"] = 1  # a side with warriors and women: its women may watch or fight
    f = ask(g, "fight", **answers, women_fight1=True, bonus1=0)
    assert f.name == "women_fight2" and offered(f) == [False, True]


def test_only_one_side_fights_in_its_own_camp():
    # l.141 "Non puoi avere più di un Accampamento per ogni spazio"
    g = game_at(P.COMBAT, tribes=2)
    answers = dict(tribe1=1, warriors1=2, women1=0, camp1=R.VILLAGE, opponent=None, tribe2=2, warriors2=2, women2=0)
    f = ask(g, "fight", **answers)
    assert f.name == "camp2" and offered(f) == [None]
    assert f.problem(R.VILLAGE) == "only one camp per space: Red is in its own camp here"
    f = ask(g, "fight", **{**answers, "camp1": None})
    assert offered(f) == [None, R.VILLAGE]


def test_the_fight_form_by_keys_offers_only_no_for_the_second_camp():
    d = color_driver()
    to_phase(d, P.COMBAT)
    d("#2#1#2#0#")  # fight: Red, 2 warriors, no women
    d("2#")  # in its own village
    d("##1#0#")  # another tribe: Yellow, 1 warrior, no women
    s = d.c.screen()
    assert s.name == "fight:camp2" and s.choices == ("No",)


# ----- the other forms --------------------------------------------------------------------------------
def test_a_camp_is_taken_only_by_a_tribe_with_warriors_from_another_tribes_camp():
    g = game_at(P.COMBAT, tribes=3)
    g.tribe(2).villages = g.tribe(3).villages = 0  # only Red holds a camp
    assert offered(ask(g, "capture_camp")) == [2, 3]  # Red has nobody's camp to take
    assert ask(g, "capture_camp").problem(1) == ("no camp can be taken: that needs a tribe with a warrior and "
                                                 "another tribe's camp")
    for n in (2, 3):
        g.tribe(n).warriors = 0
    assert FORMS["capture_camp"].unavailable(g) == ("no camp can be taken: that needs a tribe with a warrior and "
                                                     "another tribe's camp")


def test_a_winner_with_five_camps_can_only_burn():
    g = game_at(P.COMBAT, tribes=2)
    g.tribe(1).villages, g.tribe(1).women = 5, 6
    f = ask(g, "capture_camp", winner=1, loser=2, kind=R.VILLAGE)
    assert f.name == "burn" and labels(f) == ["Burn it"]
    assert f.problem(False) == "Red already has all 5 camps: it can only burn this one"
    g.tribe(1).villages = 4
    assert labels(ask(g, "capture_camp", winner=1, loser=2, kind=R.VILLAGE)) == ["Keep it", "Burn it"]


def test_women_are_captured_only_by_a_tribe_with_warriors_from_another_tribe():
    g = game_at(P.COMBAT, tribes=2)
    g.tribe(2).women = 0
    assert offered(ask(g, "capture_women")) == [2]  # Red has no women to capture
    g.tribe(2).warriors = 0
    assert FORMS["capture_women"].unavailable(g) == ("no women can be captured: that needs a tribe with a warrior "
                                                      "and another tribe's women")


@pytest.mark.parametrize("warriors, women, camps, why", [
    (0, 3, 1, "Red has no warrior: a camp needs a warrior and a woman"),
    (3, 1, 1, "Red has 1 women for 1 camps: every camp keeps a woman, so a new camp needs one more"),
    (3, 6, 5, "Red already has all 5 camps on the board"),
])
def test_only_a_tribe_that_can_make_a_camp_is_offered(warriors, women, camps, why):
    # l.139 a warrior and a woman make a camp; l.141 every camp keeps a woman; 5 camp tokens
    g = game_at(P.TRIBES_MOVE, tribes=2)
    t = g.tribe(1)
    t.warriors, t.women, t.villages = warriors, women, camps
    f = ask(g, "make_camp")
    assert offered(f) == [2] and f.problem(1) == why


def test_make_camp_by_keys_says_why_when_nobody_can():
    d = color_driver()
    to_phase(d, P.TRIBES_MOVE)
    for t in d.c.game.tribes:
        t.warriors = 0  # (the books by hand: no warrior left anywhere)
    s = d("#2#")  # the list > camp made
    assert s.name == "error" and "No tribe can make a camp now: it needs a warrior" in text(s)
    assert d("#").name == "actions" and d.c.form is None


def test_a_sown_start_camp_is_a_village():
    g = MammutGame(2, roll=random.Random(1), colors=["red", "yellow"])
    g.sow(1, 1)
    f = ask(g, "start_camp", tribe=1)
    assert labels(f) == ["Village"] and f.problem(R.CAVE) == "Red sowed a crop on its village: a cave cannot hold one"
    assert labels(ask(g, "start_camp", tribe=2)) == ["Village", "Cave (mountain)"]


def test_tokens_removed_are_at_least_one():
    g = game_at(P.COMBAT, tribes=2)
    f = ask(g, "remove", tribe=1, warriors=0)
    assert (f.lo, f.default) == (1, 1) and f.problem(0) == "remove at least one warrior or woman"
    assert ask(g, "remove", tribe=1, warriors=1).problem(0) is None
    g.tribe(1).women = 0
    assert ask(g, "remove", tribe=1).problem(0) == "remove at least one warrior or woman"
    g.tribe(1).warriors = 0
    assert offered(ask(g, "remove")) == [2]


def test_tokens_added_are_at_least_one_and_only_where_there_is_room():
    g = game_at(P.COMBAT, tribes=2)
    assert ask(g, "add_tokens", tribe=1, warriors=0).problem(0) == "add at least one warrior or woman"
    t = g.tribe(1)
    t.women = R.MAX_WOMEN
    f = ask(g, "add_tokens", tribe=1)
    assert f.lo == 1 and f.problem(0) == "Red already has 6 women, the most: add at least 1 warrior"
    t.warriors = R.MAX_WARRIORS
    f = ask(g, "add_tokens")
    assert offered(f) == [2] and f.problem(1) == "Red already has 10 warriors and 6 women, the most"
    g.tribe(2).warriors, g.tribe(2).women = R.MAX_WARRIORS, R.MAX_WOMEN
    assert FORMS["add_tokens"].unavailable(g) == "every tribe already has 10 warriors and 6 women"


def test_a_tribe_without_food_only_gains_food():
    g = game_at(P.COMBAT, tribes=2)
    g.tribe(1).food = 0
    f = ask(g, "food", tribe=1)
    assert labels(f) == ["Gains food"] and f.problem(False) == "Red has only 0 food, cannot pay 1"
    assert labels(ask(g, "food", tribe=2)) == ["Gains food", "Pays food"]


def test_fate_cards_are_played_only_by_a_tribe_holding_one():
    g = game_at(P.COMBAT, tribes=2)
    g.tribe(1).fate_cards = 0
    assert offered(ask(g, "fate")) == [2]
    g.tribe(2).fate_cards = 0
    assert FORMS["fate"].unavailable(g) == "no tribe holds a fate card"


def test_fire_is_reported_only_for_a_tribe_with_a_camp():
    # l.279 fire is kept in a camp; losing the last camp loses it
    g = game_at(P.COMBAT, tribes=2, advanced=True)
    g.tribe(1).villages = 0
    f = ask(g, "fire")
    assert offered(f) == [2] and f.problem(1) == "Red has no camp to keep the fire in"
    g.tribe(2).villages = 0
    assert FORMS["fire"].unavailable(g) == "no tribe has a camp to keep fire in"


def test_a_camp_is_abandoned_only_by_a_tribe_holding_one():
    g = game_at(P.COMBAT, tribes=2)
    g.tribe(1).villages = 0
    assert offered(ask(g, "abandon_camp")) == [2]
    g.tribe(2).villages = 0
    assert FORMS["abandon_camp"].unavailable(g) == "no tribe holds a camp"


def test_nobody_can_sow_says_why():
    g = MammutGame(2, roll=random.Random(1), colors=["red", "yellow"])
    for t in g.tribes:
        t.food = 0
    assert FORMS["sow"].unavailable(g) == ("nobody can sow now: a crop costs 1 food and needs a village on a plain "
                                           "without one")
    g.tribe(2).food = 1
    assert FORMS["sow"].unavailable(g) is None and offered(ask(g, "sow")) == [2]


def test_season_notes_offer_only_what_is_not_noted_and_stop_at_the_most():
    g = MammutGame(2, roll=random.Random(1))
    for _ in range(2):  # events from turn 3
        advance_to(g, P.END_OF_TURN)
        g.advance()
    advance_to(g, P.EVENTS)
    g.add_note("drought")
    assert "drought" not in offered(ask(g, "note")) and len(offered(ask(g, "note"))) == len(R.SEASON_NOTES) - 1
    for note in R.SEASON_NOTES[1:MAX_NOTES]:
        g.add_note(note)
    assert FORMS["note"].unavailable(g) == f"{MAX_NOTES} notes already: take one back with C first"


# ----- journals: what an earlier version accepted still resumes ----------------------------------------
def test_a_journal_with_answers_the_forms_now_refuse_still_resumes():
    """An earlier version journaled a fight's 0 warriors and 0 women (then the table backed out);
    the rebuild takes those answers as given, live play refuses them."""
    d = Driver(9)
    new_game(d, tribes=2, first=1)
    to_phase(d, P.COMBAT)
    d("#2#")  # the list > fight (ask is journaled)
    old = d.journal + [{"a": "answer", "field": "tribe1", "value": 1},
                       {"a": "answer", "field": "warriors1", "value": 0},
                       {"a": "answer", "field": "women1", "value": 0},
                       {"a": "back"}, {"a": "back"}, {"a": "back"}, {"a": "back"}]
    rebuilt = MammutTable.from_actions(json.loads(json.dumps(old)))
    assert rebuilt.form is None and state(rebuilt)[0] == state(d.c)[0]
    live = MammutTable.from_actions(json.loads(json.dumps(old[:-5])))
    with pytest.raises(MammutError, match="nobody in this fight"):
        live.state.apply({"a": "answer", "field": "women1", "value": 0})


def test_a_journal_left_on_a_question_nobody_can_answer_resumes_on_the_list():
    d = Driver(9)
    new_game(d, tribes=2, first=1)
    to_phase(d, P.COMBAT)
    for t in d.c.game.tribes:
        t.fate_cards = 0  # (by hand: the books as an earlier game left them)
    with pytest.raises(MammutError, match="no tribe holds a fate card"):
        d.c.state.apply({"a": "ask", "form": "fate", "ctx": {}})
    c = MammutTable(random.Random(0))
    c.state.replaying = True
    c.state.game = d.c.game
    c.state.apply({"a": "ask", "form": "fate", "ctx": {}})  # what a rebuild does with an earlier journal
    assert c.state.form is not None
    c.state.replaying = False
    c.state.drop_stale_form()
    assert c.state.form is None  # not an empty list on screen


# ----- the whole claim, on random games ------------------------------------------------------------------
def options(f: Field) -> list:
    return offered(f) if f.is_choice else f.allowed()


def fill(g: MammutGame, form: OpenForm, rnd: random.Random) -> tuple[str, dict]:
    """Answer every question of `form` with a random answer it offers; the game call it becomes."""
    while (f := next_field(g, form)) is not None:
        opts = options(f)
        assert opts, f"{form.kind}.{f.name} offers nothing after {form.answers}"
        assert all(f.problem(v) is None for v in opts), (form.kind, f.name)
        assert f.is_choice or f.default is None or f.default in opts, (form.kind, f.name, f.default)
        form = form.answered(f.name, rnd.choice(opts))
    spec = FORMS[form.kind]
    assert spec.method is not None
    return spec.method, spec.args(g, form.ctx, form.answers)


def walk(seed: int, steps: int = 120) -> int:
    """A random game: at every step each form of the phase's list is filled at random and played
    (kept or taken back), the game's own questions are answered, and the table advances. Returns
    how many game calls the forms made; each must be accepted."""
    rnd = random.Random(seed)
    n = rnd.randint(2, 6)
    g = MammutGame(n, roll=random.Random(seed), colors=rnd.sample(R.TRIBE_COLORS, n),
                   first_game=rnd.random() < 0.5, advanced=rnd.random() < 0.5)
    calls = 0
    for _ in range(steps):
        if g.over:
            break
        demanded = derived_form(g)
        if demanded is not None:
            g.play(*fill(g, demanded, rnd))
            calls += 1
            continue
        for kind in [k for k, _label in actions(g) if k in FORMS]:
            if FORMS[kind].unavailable(g):
                continue
            g.play(*fill(g, OpenForm(kind), rnd))
            calls += 1
            while g.battle is not None:  # a fight waiting for a lost token: the table chooses
                g.play(*fill(g, derived_form(g), rnd))
            if rnd.random() < 0.5:  # keep it (the books move on) or take it back
                while g.log[-1]["action"] == "choose_loss":
                    g.pop()
                g.pop()
        if rnd.random() < 0.5:
            for t in g.living():  # a camp without a woman is abandoned before the table moves on
                while 0 < t.women < t.camps:
                    g.abandon_camp(t.number, R.VILLAGE if t.villages else R.CAVE)
            g.advance()
    return calls


@pytest.mark.parametrize("seed", range(12))
def test_every_answer_offered_leads_to_a_game_call_the_rules_accept(seed):
    assert walk(seed) > 50
