"""The Mammut turn walker: phases, calendar, books, validation, victory, log replay."""

from __future__ import annotations

import json
import random

import pytest

from companion.games.mammut import texts as T
from companion.games.mammut.help_texts import phase_help
from companion.games.mammut.game import MammutGame, Phase, phase_applies
from companion.games.mammut.rules import MammutError

P = Phase


class Dice:
    """A scripted die: faces in order; tests add faces as the script goes on."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)
        self.rolled = 0

    def add(self, *faces: int) -> None:
        self.faces += faces

    def __call__(self) -> int:
        assert self.faces, "the game rolled more dice than the test scripted"
        self.rolled += 1
        return self.faces.pop(0)


def prompt(g: MammutGame) -> str:
    """What the table reads about the phase in full (the engine's `phase_prompt` before the
    table's words moved to `texts`): the heading, then the phase's help."""
    return "\n".join([T.phase_heading(g), *phase_help(g)])


def books(g: MammutGame, n: int) -> tuple[int, int, int, int]:
    """(warriors, women, camps, food) of tribe n."""
    t = g.tribe(n)
    return t.warriors, t.women, t.camps, t.food


def advance_to(g: MammutGame, phase: Phase) -> list[Phase]:
    """Advance until `phase`, reporting for every tribe what keeps the books unchanged:
    as many fishing spaces as people (income = ration) and each camp's women as they stand
    (`camps_split`: every camp keeps at least one woman, so births follow)."""
    seen = []
    for _ in range(40):
        if g.phase == phase or g.over:
            return seen
        if g.phase == P.SURVIVAL:
            for t in g.living():
                if t.survival is None:
                    g.report_survival(t.number, fishing=t.people)
        if g.phase == P.BIRTHS:
            for t in g.living():
                if t.camps and t.births is None:
                    g.report_births(t.number, *camps_split(t))
        seen.append(g.advance())
    raise AssertionError(f"never reached {phase}")


def camps_split(t) -> tuple[int, int]:
    """(camps with 1 woman, camps with 2 or more) for `t`'s women spread over all its camps:
    every camp keeps at least one woman (rulebook l.141), the rest fill camps two by two."""
    two = min(t.camps, max(0, t.women - t.camps))
    return t.camps - two, two


# --- new game ------------------------------------------------------------------------


def test_new_game_books():
    g = MammutGame(5, roll=Dice(), names=["red", "blue", "green", "yellow", "black"], first_game=True)
    assert g.phase == P.SETUP and (g.year, g.season, g.turn) == (1, "summer", 2)
    for t in g.tribes:
        assert (t.warriors, t.women, t.camps, t.food, t.fate_cards) == (5, 2, 1, 15, 4)
    g2 = MammutGame(2, roll=random.Random(1))
    assert (g2.tribe(1).food, g2.tribe(2).fate_cards) == (12, 5)
    assert g.tribe(3).label == "green"  # a short name wins over the color and the number


@pytest.mark.parametrize("n", [1, 7, True, "4"])
def test_new_game_refuses_bad_tribe_count(n):
    with pytest.raises(MammutError):
        MammutGame(n, roll=Dice())


def test_new_game_refuses_mismatched_names():
    with pytest.raises(MammutError):
        MammutGame(3, roll=Dice(), names=["red", "blue"])
    with pytest.raises(MammutError):
        MammutGame(2, roll=Dice(), names=["red", "red"])


# --- phases and calendar -------------------------------------------------------------


@pytest.mark.parametrize(
    "number,expected",
    [
        (1, ["new_animals", "animal_movement", "tribes_move", "combat", "survival", "end_of_turn"]),
        (2, ["new_animals", "animal_movement", "tribes_move", "combat", "survival", "births", "fate_cards", "end_of_turn"]),
        (3, ["events", "new_animals", "animal_movement", "tribes_move", "combat", "survival", "end_of_turn"]),
        (5, ["events", "new_animals", "animal_movement", "tribes_move", "combat", "survival", "births", "sowing",
             "fate_cards", "end_of_turn"]),
        (8, ["events", "new_animals", "animal_movement", "tribes_move", "combat", "survival", "births",
             "fate_cards", "end_of_turn"]),
    ],
)  # fmt: skip
def test_phase_applies(number, expected):
    from companion.games.mammut.rules import calendar_of
    from companion.games.mammut.game import TURN_PHASES

    _, season, turn = calendar_of(number)
    assert [p.value for p in TURN_PHASES if phase_applies(p, season, turn, number)] == expected


def test_walk_two_years_calendar_animals_and_phase_numbers():
    g = MammutGame(4, roll=random.Random(7))
    seen = []
    for _ in range(12):
        advance_to(g, P.NEW_ANIMALS)
        seen.append((g.year, g.season, g.turn, g.turn_number, g.animals_to_draw))
        advance_to(g, P.END_OF_TURN)
        g.advance()
    assert seen[:7] == [
        (1, "summer", 2, 1, 6),
        (1, "summer", 3, 2, 4),
        (1, "winter", 1, 3, 2),
        (1, "winter", 2, 4, 2),
        (1, "winter", 3, 5, 2),
        (2, "summer", 1, 6, 4),
        (2, "summer", 2, 7, 4),
    ]
    assert seen[11][:4] == (3, "summer", 1, 12)
    assert P.EVENTS.number == 1 and P.END_OF_TURN.number == 10 and P.SETUP.number == 0


def test_animals_drawn_follow_tribes_still_in_game():
    g = MammutGame(4, roll=random.Random(3))
    advance_to(g, P.COMBAT)
    g.remove_tokens(4, warriors=5, women=2)
    advance_to(g, P.END_OF_TURN)
    assert g.tribe(4).eliminated
    g.advance()
    assert g.phase == P.NEW_ANIMALS
    assert g.animals_to_draw == 3  # summer, now only 3 tribes


def test_direction_die_is_rolled_on_entering_animal_movement():
    dice = Dice(4)
    g = MammutGame(2, roll=dice)
    g.advance()
    assert g.phase == P.NEW_ANIMALS and dice.rolled == 0
    g.advance()
    assert g.phase == P.ANIMAL_MOVEMENT and g.direction == 4
    assert "Direction die: 4" in prompt(g)


# --- the scripted first year ---------------------------------------------------------


def _visit(g: MammutGame) -> list[str]:
    return [g.phase.value]


def test_scripted_first_year():
    """Three tribes, first game (15 food), the whole first year turn by turn."""
    dice = Dice()
    g = MammutGame(3, roll=dice, names=["red", "blue", "green"], first_game=True)
    g.set_first_player(2)
    g.sow(1, 1)  # red's village is on a plain
    g.set_start_camp(3, "cave")
    assert books(g, 1) == (5, 2, 1, 14)

    # ---- turn 1: year 1, summer turn 2 -- no events, 5 animals (3 tribes, first turn)
    visited = [g.advance().value]
    assert g.animals_to_draw == 5
    dice.add(4)
    visited.append(g.advance().value)  # animal movement
    assert g.direction == 4
    visited.append(g.advance().value)  # tribes move
    assert g.play_order == [2, 3, 1] and g.order_reason == "placed first"
    g.make_camp(2, "village")
    visited.append(g.advance().value)  # combat
    # red: 3 warriors (bonus 3) vs a lone mammoth (+1 only: rulebook l.151, the lone animal's own +1)
    dice.add(2, 5, 4, 1)  # 5 < 6 red loses a warrior; 4+2=6 > 1+1=2 the mammoth dies
    res = g.fight([{"tribe": 1, "warriors": 3}, {"animal": "mammoth", "count": 1}])
    assert res["winner_tribe"] == 1 and res["food"] == 6 and res["animals_killed"] == 1
    assert g.tribe(1).kills_food == 6
    visited.append(g.advance().value)  # survival
    assert g.report_survival(1, fishing=1, gathering=1)["food"] == 14 + 2 + 6 - 6
    g.report_survival(2, gathering=2)
    g.report_survival(3)
    visited.append(g.advance().value)
    assert visited == ["new_animals", "animal_movement", "tribes_move", "combat", "survival", "end_of_turn"]
    assert [books(g, n) for n in (1, 2, 3)] == [(4, 2, 1, 16), (5, 2, 2, 10), (5, 2, 1, 8)]
    assert g.announced == [] and dice.faces == []

    # ---- turn 2: year 1, summer turn 3 (last summer turn) -- still no events, 3 animals
    visited = [g.advance().value]
    assert (g.year, g.season, g.turn, g.animals_to_draw) == (1, "summer", 3, 3)
    dice.add(1)
    visited.append(g.advance().value)
    visited.append(g.advance().value)
    assert g.play_order == [2, 3, 1] and g.order_reason == "most camps"
    g.make_camp(3, "cave")
    visited.append(g.advance().value)  # combat
    # blue 3 warriors (3) vs green 2 warriors (2), women watching (rulebook l.157: only warriors fight)
    # round 3: green's lone warrior has his own +1 only (l.151 footnote), so 4+1=5 ties 3+2=5
    dice.add(1, 6, 5, 2, 3, 4, 6, 1)
    res = g.fight([{"tribe": 2, "warriors": 3}, {"tribe": 3, "warriors": 2, "women": 1}])
    assert [r["totals"] for r in res["rounds"]] == [[4, 8], [7, 4], [5, 5], [8, 2]]
    assert res["winner_tribe"] == 2
    assert res["losses"] == [{"tribe": 2, "warriors": 1, "women": 0}, {"tribe": 3, "warriors": 2, "women": 0}]
    assert g.capture_women(2, 3, 1) == {"joined": 1, "removed": 0}
    raid = g.capture_camp(2, 3, "cave")
    assert raid["food"] == 2 and not raid["last_camp"]  # 25% of 8
    g.play_fate_card(1)
    visited.append(g.advance().value)  # survival with harvest
    assert "harvest" in prompt(g)
    assert g.report_survival(1, fishing=1, crops_intact=1)["food"] == 16 + 9 - 6
    g.report_survival(2, gathering=1)
    g.report_survival(3)
    visited.append(g.advance().value)  # births: end of summer
    dice.add(2, 6, 6, 1)
    b = g.report_births(1, camps_two_plus=1)
    assert b["babies"] == ["woman", "warrior", "woman"] and b["dice"] == [[2], [6, 6, 1]]
    dice.add(3, 4, 1)
    g.report_births(2, camps_one_woman=3)
    dice.add(1)
    g.report_births(3, camps_one_woman=1)
    visited.append(g.advance().value)  # fate cards (no sowing in summer)
    assert g.fate_drawn == [1] and g.tribe(1).fate_cards == 5
    visited.append(g.advance().value)
    assert visited == ["new_animals", "animal_movement", "tribes_move", "combat", "survival", "births",
                       "fate_cards", "end_of_turn"]  # fmt: skip
    assert [books(g, n) for n in (1, 2, 3)] == [(5, 4, 1, 19), (6, 4, 3, 6), (3, 2, 1, 2)]
    assert dice.faces == []

    # ---- turn 3: year 1, winter turn 1 -- events from now on, 1 animal
    visited = [g.advance().value]
    assert (g.season, g.turn) == ("winter", 1)
    g.adjust_food(3, -1, "event: spoiled food")
    dice.add(5)
    assert g.roll_die("event region") == 5
    visited.append(g.advance().value)
    assert g.animals_to_draw == 1
    dice.add(6)
    visited.append(g.advance().value)
    visited.append(g.advance().value)
    assert g.play_order == [2, 3, 1]
    g.make_camp(2, "village")
    with pytest.raises(MammutError, match="4 women for 4 camps"):
        g.make_camp(2, "village")
    visited.append(g.advance().value)  # combat: none this turn
    visited.append(g.advance().value)  # survival
    with pytest.raises(MammutError, match="only in summer"):
        g.report_survival(1, gathering=1)
    assert g.report_survival(1, fishing=2)["food"] == 12
    r2 = g.report_survival(2, fishing=1)
    assert (r2["food"], r2["remove"]) == (0, 3)  # 6 + 1 - 10
    r3 = g.report_survival(3)
    assert (r3["food"], r3["remove"]) == (0, 4)  # 1 - 5
    with pytest.raises(MammutError, match="must still remove 3"):
        g.advance()
    g.remove_tokens(2, warriors=3)
    g.remove_tokens(3, warriors=3, women=1)
    visited.append(g.advance().value)
    assert visited == ["events", "new_animals", "animal_movement", "tribes_move", "combat", "survival", "end_of_turn"]
    assert g.announced == [2] and "announces" in prompt(g)
    assert [books(g, n) for n in (1, 2, 3)] == [(5, 4, 1, 12), (3, 4, 4, 0), (0, 1, 1, 0)]

    # ---- turn 4: year 1, winter turn 2 -- red breaks blue's announcement
    g.advance()
    g.advance()
    dice.add(2)
    g.advance()
    g.advance()
    assert g.play_order == [2, 3, 1]
    g.advance()  # combat
    # red 5 warriors (5) attack blue's lone warrior in its village (+1 warrior, +1 village = 2;
    # rulebook l.147-151: the lone warrior's +1 is his own per-warrior +1, not a second one)
    dice.add(1, 6, 4, 1)
    res = g.fight([{"tribe": 1, "warriors": 5}, {"tribe": 2, "warriors": 1, "women": 1, "camp": "village"}])
    assert res["winner_tribe"] == 1 and [r["totals"] for r in res["rounds"]] == [[6, 8], [8, 3]]
    g.capture_women(1, 2, 1)
    assert g.capture_camp(1, 2, "village")["food"] == 0
    g.advance()  # survival
    assert g.report_survival(1, fishing=1)["food"] == 4
    assert g.report_survival(2, fishing=2)["remove"] == 3
    g.report_survival(3, fishing=1)
    g.remove_tokens(2, warriors=2, women=1)
    with pytest.raises(MammutError, match="3 camps but only 2 women"):
        g.advance()
    g.abandon_camp(2, "cave")
    g.advance()
    assert g.phase == P.END_OF_TURN and g.announced == [] and g.winners == []
    assert [books(g, n) for n in (1, 2, 3)] == [(4, 5, 2, 4), (0, 2, 2, 0), (0, 1, 1, 0)]

    # ---- turn 5: year 1, winter turn 3 -- births, sowing, fate cards
    visited = [g.advance().value]
    visited.append(g.advance().value)
    dice.add(3)
    visited.append(g.advance().value)
    visited.append(g.advance().value)
    assert g.play_order == [1, 2, 3] and g.order_reason == "most warriors and women"
    visited.append(g.advance().value)  # combat
    dice.add(2, 6, 2, 1)  # red 4 warriors vs a lone bison (+1 only, rulebook l.151): 6<7, then 2+3=5 > 1+1=2
    assert g.fight([{"tribe": 1, "warriors": 4}, {"animal": "bison"}])["food"] == 4
    dice.add(6, 1, 1, 1)  # green's last woman vs 2 wolves: 6+0 > 1+2 kills one, then 1+0 < 1+1 dies
    res = g.fight([{"tribe": 3, "women": 1}, {"animal": "wolf", "count": 2}])
    assert res["winner_tribe"] is None and res["animals_killed"] == 1 and res["food"] == 0
    assert g.tribe(3).kills_food == 0
    g.play_fate_card(2, 2)
    visited.append(g.advance().value)  # survival; green is now eliminated
    assert g.tribe(3).eliminated and g.tribe(3).camps == 0
    assert g.report_survival(1, fishing=5)["food"] == 4 + 5 + 4 - 8
    g.report_survival(2, fishing=2)
    visited.append(g.advance().value)  # births
    dice.add(3, 3, 3, 3)
    g.report_births(1, camps_two_plus=2)
    dice.add(2, 5)
    g.report_births(2, camps_one_woman=2)
    visited.append(g.advance().value)  # sowing
    g.sow(1, 1)
    with pytest.raises(MammutError, match="only 0"):
        g.sow(2, 1)
    visited.append(g.advance().value)  # fate cards
    assert g.fate_drawn == [2] and g.tribe(2).fate_cards == 4
    visited.append(g.advance().value)
    assert visited == ["events", "new_animals", "animal_movement", "tribes_move", "combat", "survival", "births",
                       "sowing", "fate_cards", "end_of_turn"]  # fmt: skip
    assert [books(g, n) for n in (1, 2)] == [(7, 5, 2, 4), (1, 3, 2, 0)]
    assert not g.extinct and g.phase == P.END_OF_TURN and dice.faces == []

    # ---- turn 6: year 2 begins; green, eliminated in year 1, comes back
    g.advance()
    assert (g.year, g.season, g.turn, g.phase) == (2, "summer", 1, P.EVENTS)
    assert g.can_resurrect() == [3] and "may come back" in prompt(g)
    g.resurrect(3)
    assert books(g, 3) == (3, 1, 0, 8) and g.tribe(3).fate_cards == 3
    g.advance()
    assert g.animals_to_draw == 3

    # the whole year replays from the log, with the recorded dice or the same sequence
    assert MammutGame.replay(json.loads(json.dumps(g.log))).to_dict() == g.to_dict()
    faces = [d for e in g.log for d in e["rolls"]]
    assert MammutGame.replay(g.log, roll=Dice(*faces)).to_dict() == g.to_dict()


# --- validation: refused input changes nothing ---------------------------------------


def _combat_game() -> tuple[MammutGame, Dice]:
    dice = Dice(1)
    g = MammutGame(3, roll=dice)
    advance_to(g, P.COMBAT)
    return g, dice


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda g: g.fight([{"tribe": 3, "warriors": 6}, {"animal": "bear"}]), "tribe 3 has only 5 warriors, not 6"),
        (lambda g: g.fight([{"tribe": 1, "warriors": 2}]), "at least two sides"),
        (lambda g: g.fight([{"tribe": 1, "warriors": 2}, {"animal": "dodo"}]), "unknown animal"),
        (lambda g: g.fight([{"tribe": 1, "warriors": 2}, {"tribe": 2, "women": 2}]), "women do not fight warriors"),
        (lambda g: g.fight([{"tribe": 1, "warriors": 2}, {"tribe": 1, "warriors": 1}]), "itself"),
        (lambda g: g.fight([{"tribe": 1, "warriors": 2, "camp": "cave"}, {"animal": "bear"}]), "no cave"),
        (lambda g: g.fight([{"tribe": 1, "warriors": 1}, {"tribe": 2, "warriors": 1}, {"animal": "bear"}]),
         "one tribe against one kind"),
        (lambda g: g.fight([{"tribe": 1, "warriors": 1, "lose": "child"}, {"animal": "bear"}]), "lost first"),
        (lambda g: g.remove_tokens(3, warriors=6), "tribe 3 has only 5 warriors, cannot remove 6"),
        (lambda g: g.remove_tokens(2, women=3), "only 2 women"),
        (lambda g: g.remove_tokens(9, women=1), "no tribe 9"),
        (lambda g: g.adjust_food(1, -13), "only 12 food"),
        (lambda g: g.capture_camp(1, 2, "cave"), "no cave"),
        (lambda g: g.capture_women(1, 2, 3), "only 2 women"),
        (lambda g: g.play_fate_card(1, 6), "only 5 fate cards"),
        (lambda g: g.make_camp(1), "tribes move phase"),
        (lambda g: g.report_survival(1), "survival phase"),
        (lambda g: g.sow(1, 1), "sowing or setup phase"),
        (lambda g: g.set_fire(1), "advanced rules"),
        (lambda g: g.resurrect(1), "only an eliminated tribe"),
        (lambda g: g.set_first_player(1), "setup phase"),
    ],
)  # fmt: skip
def test_refused_input_changes_nothing_and_rolls_no_die(call, message):
    g, dice = _combat_game()
    before = g.to_dict()
    rolled = dice.rolled
    with pytest.raises(MammutError, match=message):
        call(g)
    assert g.to_dict() == before
    assert dice.rolled == rolled


def test_survival_validation():
    g = MammutGame(2, roll=random.Random(2))
    advance_to(g, P.SURVIVAL)
    with pytest.raises(MammutError, match="harvested only on the last summer turn"):
        g.report_survival(1, crops_intact=1)
    with pytest.raises(MammutError, match="7 warriors and women: it cannot occupy 8"):
        g.report_survival(1, fishing=8)
    with pytest.raises(MammutError, match="not reported yet for tribe 1, tribe 2"):
        g.advance()
    g.report_survival(1)
    with pytest.raises(MammutError, match="already reported"):
        g.report_survival(1)


def test_births_validation_and_caps_and_twins():
    dice = Dice()
    g = MammutGame(2, roll=random.Random(5))
    advance_to(g, P.BIRTHS)
    g.dice.source = dice  # from here the test scripts the dice
    with pytest.raises(MammutError, match="only 1 camps"):
        g.report_births(1, camps_one_woman=2)
    t = g.tribe(1)
    t.warriors, t.women, t.villages = 9, 5, 3  # test setup: a big tribe, 3 camps, 5 women
    with pytest.raises(MammutError, match="only 5 women"):
        g.report_births(1, camps_one_woman=0, camps_two_plus=3)
    # rulebook l.141 "Devi sempre tenere almeno una donna nell'Accampamento": the camps with 1
    # woman plus those with 2 or more are all 3 camps; fewer is refused and changes nothing
    for one, two in ((0, 0), (0, 1), (1, 1)):
        with pytest.raises(MammutError, match="every camp keeps at least 1 woman"):
            g.report_births(1, camps_one_woman=one, camps_two_plus=two)
    log_length = len(g.log)
    assert (t.warriors, t.women, t.births) == (9, 5, None)
    # l.211: 1 birth for the camp with 1 woman, 2 for each of the 2 with 2 or more = 5 births;
    # l.213-215: 6 twins (roll twice more: 6 warrior, 2 woman), 3 and 4 and 5 warriors, 1 a woman;
    # l.219-221: beyond 10 warriors / 6 women the birth is lost
    dice.add(6, 6, 2, 3, 4, 1, 5)
    b = g.report_births(1, camps_one_woman=1, camps_two_plus=2)
    assert b["babies"] == ["warrior", "woman", "warrior", "warrior", "woman", "warrior"]
    assert (t.warriors, t.women, b["warriors_lost"], b["women_lost"]) == (10, 6, 3, 1)
    assert len(g.log) == log_length + 1
    with pytest.raises(MammutError, match="already had its births"):
        g.report_births(1, camps_one_woman=1, camps_two_plus=2)
    with pytest.raises(MammutError, match="every camp keeps at least 1 woman.*1 camps, not 0"):
        g.report_births(2, 0, 0)  # the report_births(1, 0, 0): one camp, no births refused
    with pytest.raises(MammutError, match="births not reported yet for tribe 2"):
        g.advance()


# --- combat books ----------------------------------------------------------------------


def test_camp_capture_takes_half_of_last_camp_and_can_burn():
    g, dice = _combat_game()
    g.tribe(2).food = 13
    dice.add(6, 1)  # tribe 1's 2 warriors beat tribe 2's lone warrior in its village: 8 > 1+1+1 (l.151: his own +1, +1 village)
    g.fight([{"tribe": 1, "warriors": 2}, {"tribe": 2, "warriors": 1, "camp": "village"}])
    assert g.capture_camp(1, 2, "village", burn=True) == {"food": 6, "last_camp": True, "burnt": True, "fire": False}
    assert (g.tribe(1).food, g.tribe(2).food, g.tribe(1).camps, g.tribe(2).camps) == (18, 7, 1, 0)


def test_women_fight_women_with_camp_bonus_only():
    g, dice = _combat_game()
    dice.add(3, 4, 3, 4)  # tribe 1's women in their cave: 3+2=5 > 4
    g.tribe(1).villages, g.tribe(1).caves = 0, 1
    res = g.fight([{"tribe": 1, "women": 1, "camp": "cave"}, {"tribe": 2, "women": 2}])
    assert [r["totals"] for r in res["rounds"]] == [[5, 4], [5, 4]]
    assert (g.tribe(1).women, g.tribe(2).women) == (2, 0)


def test_fire_gives_plus_one_against_animals_and_passes_with_a_camp():
    dice = Dice(1)
    g = MammutGame(2, roll=dice, advanced=True)
    advance_to(g, P.COMBAT)
    g.set_fire(1)
    # 2 warriors + fire = 3 -> 6 vs lone bear 5+1=6 (its own +1 only, rulebook l.151): tie; then 6+3 > 1+1
    dice.add(3, 5)
    dice.add(6, 1)
    res = g.fight([{"tribe": 1, "warriors": 2}, {"animal": "bear"}])
    assert [r["totals"] for r in res["rounds"]] == [[6, 6], [9, 2]] and res["food"] == 3
    g.tribe(1).villages = 2
    g.capture_camp(2, 1, "village")
    assert g.tribe(2).fire and g.tribe(1).fire  # not tribe 1's last camp: both hold fire
    g.capture_camp(2, 1, "village")
    assert not g.tribe(1).fire


# --- survival: advanced rules --------------------------------------------------------


def test_advanced_winter_survival_rounds_down_and_fire_feeds_for_one():
    g = MammutGame(2, roll=random.Random(4), advanced=True)
    advance_to(g, P.END_OF_TURN)
    g.advance()
    advance_to(g, P.END_OF_TURN)
    g.advance()
    advance_to(g, P.TRIBES_MOVE)
    assert g.season == "winter"
    g.set_fire(2)
    advance_to(g, P.COMBAT)
    g.advance()
    g.tribe(1).food = g.tribe(2).food = 10
    for t in g.tribes:  # test setup: 7 people each whatever the summer's births gave
        t.warriors, t.women = 5, 2
    # rulebook l.275: in winter 1.5 food per token, total rounded down, for a tribe without fire
    r1 = g.report_survival(1)
    r2 = g.report_survival(2)
    assert (r1["eaten"], r1["food"], r1["remove"]) == (10, 0, 0)  # 7 * 1.5 = 10.5 -> 10
    assert (r2["eaten"], r2["food"]) == (7, 3)


# --- victory, extinction, resurrection -----------------------------------------------


def _four_camps(g: MammutGame, n: int) -> None:
    t = g.tribe(n)
    t.women, t.villages = 4, 4  # test setup: tribe n holds 4 camps


def test_victory_announce_then_hold():
    g = MammutGame(2, roll=random.Random(8))
    advance_to(g, P.COMBAT)
    _four_camps(g, 1)
    advance_to(g, P.END_OF_TURN)
    assert g.announced == [1] and g.phase == P.END_OF_TURN
    g.advance()
    advance_to(g, P.END_OF_TURN)
    assert g.phase == P.GAME_OVER and g.winners == [1] and g.over
    assert "Tribe 1 wins" in prompt(g)
    with pytest.raises(MammutError, match="game is over"):
        g.advance()


def test_victory_cancelled_when_camps_drop():
    g = MammutGame(2, roll=random.Random(8))
    advance_to(g, P.COMBAT)
    _four_camps(g, 1)
    advance_to(g, P.END_OF_TURN)
    g.advance()
    advance_to(g, P.COMBAT)
    g.abandon_camp(1, "village")
    advance_to(g, P.END_OF_TURN)
    assert g.phase == P.END_OF_TURN and g.winners == [] and g.announced == []
    g.advance()
    advance_to(g, P.COMBAT)
    g.tribe(1).villages = 4
    advance_to(g, P.END_OF_TURN)
    assert g.announced == [1] and not g.over  # a fresh announcement, no win yet


def test_advanced_victory_needs_fire():
    g = MammutGame(2, roll=random.Random(9), advanced=True)
    advance_to(g, P.COMBAT)
    _four_camps(g, 2)
    advance_to(g, P.END_OF_TURN)
    g.advance()
    advance_to(g, P.END_OF_TURN)
    assert not g.over and g.announced == [2]
    g.advance()
    advance_to(g, P.COMBAT)
    g.set_fire(2)
    advance_to(g, P.END_OF_TURN)
    assert g.over and g.winners == [2]
    assert "fire" in prompt(g)


def test_extinction_everybody_loses():
    g = MammutGame(2, roll=random.Random(1))
    advance_to(g, P.COMBAT)
    g.remove_tokens(1, warriors=5, women=2)
    g.remove_tokens(2, warriors=5, women=2)
    g.advance()  # nobody left and nobody may come back: everybody loses at once (issue 31)
    assert all(t.eliminated for t in g.tribes)
    assert g.over and g.extinct and g.winners == []
    assert "everybody loses" in prompt(g)


def test_resurrection_only_once_and_only_after_elimination_in_year_one():
    g = MammutGame(2, roll=random.Random(11))
    advance_to(g, P.COMBAT)
    g.remove_tokens(2, warriors=5, women=2)
    with pytest.raises(MammutError, match="only an eliminated tribe"):
        g.resurrect(2)
    advance_to(g, P.END_OF_TURN)
    with pytest.raises(MammutError, match="turn after its elimination"):
        g.resurrect(2)
    g.advance()
    assert g.phase == P.NEW_ANIMALS and g.can_resurrect() == [2]
    g.resurrect(2)
    assert books(g, 2) == (3, 1, 0, 8) and not g.tribe(2).eliminated
    advance_to(g, P.COMBAT)
    g.remove_tokens(2, warriors=3, women=1)
    advance_to(g, P.END_OF_TURN)
    g.advance()
    with pytest.raises(MammutError, match="only once"):
        g.resurrect(2)
    assert g.tribe(2).eliminated


def test_no_resurrection_after_the_first_year():
    g = MammutGame(2, roll=random.Random(12))
    for _ in range(5):  # the whole first year
        advance_to(g, P.END_OF_TURN)
        g.advance()
    assert g.year == 2
    advance_to(g, P.COMBAT)
    t = g.tribe(1)
    g.remove_tokens(1, warriors=t.warriors, women=t.women)
    advance_to(g, P.END_OF_TURN)
    g.advance()
    assert g.can_resurrect() == []
    with pytest.raises(MammutError, match="first year"):
        g.resurrect(1)


# --- serialisation and log -----------------------------------------------------------


def _some_play() -> MammutGame:
    g = MammutGame(4, roll=random.Random(21), names=["a", "b", "c", "d"])
    g.set_first_player(3)
    g.sow(3, 1)
    advance_to(g, P.COMBAT)
    g.fight([{"tribe": 1, "warriors": 3, "women": 1, "lose": "woman"}, {"animal": "mammoth", "count": 2}])
    g.fight([{"tribe": 2, "warriors": 2}, {"tribe": 3, "warriors": 2}, {"tribe": 4, "warriors": 3}])
    advance_to(g, P.FATE_CARDS)
    advance_to(g, P.EVENTS)
    g.roll_die("region")
    return g


def test_log_is_json_safe_and_replays_to_the_same_state():
    g = _some_play()
    log = json.loads(json.dumps(g.log))
    assert log[0]["action"] == "new_game" and [e["seq"] for e in log] == list(range(len(log)))
    assert {"seq", "action", "args", "rolls"} <= set(log[5])
    assert MammutGame.replay(log).to_dict() == g.to_dict()
    assert MammutGame.replay(log, roll=random.Random(21)).to_dict() == g.to_dict()


def test_replay_with_other_dice_diverges_and_damaged_log_is_refused():
    g = _some_play()
    try:  # other dice: the logged input no longer fits, or the books differ
        assert MammutGame.replay(g.log, roll=random.Random(22)).to_dict() != g.to_dict()
    except MammutError:
        pass
    bad = json.loads(json.dumps(g.log))
    fight = next(e for e in bad if e["action"] == "fight")
    fight["rolls"].append(3)
    with pytest.raises(MammutError, match="more dice"):
        MammutGame.replay(bad)
    bad[1]["action"] = "cheat"
    with pytest.raises(MammutError, match="unknown action"):
        MammutGame.replay(bad)


def test_refused_action_is_not_logged():
    g = _some_play()
    n = len(g.log)
    with pytest.raises(MammutError):
        g.remove_tokens(1, warriors=99)
    assert len(g.log) == n


def test_to_dict_from_dict_round_trip_and_play_on_identically():
    g = _some_play()
    d = json.loads(json.dumps(g.to_dict()))
    h = MammutGame.from_dict(d, roll=random.Random(5))
    assert h.to_dict() == g.to_dict()
    assert h.phase == g.phase and h.tribe(2).label == "b"
    g = MammutGame.from_dict(d, roll=random.Random(5))
    for game in (g, h):
        advance_to(game, P.SURVIVAL)
    assert g.to_dict() == h.to_dict()
    assert MammutGame.replay(h.log).to_dict() == h.to_dict()


def test_from_dict_refuses_damaged_record():
    bad = MammutGame(2, roll=Dice()).to_dict()
    bad["state"]["phase"] = "lunch"
    with pytest.raises(MammutError, match="damaged"):
        MammutGame.from_dict(bad, roll=Dice())
    with pytest.raises(MammutError):
        MammutGame.from_dict({"version": 1}, roll=Dice())
    with pytest.raises(MammutError, match="version"):
        MammutGame.from_dict({"version": 99}, roll=Dice())


def test_prompts_name_what_to_do():
    g = MammutGame(3, roll=random.Random(2))
    assert prompt(g).startswith("Setup")
    g.advance()
    assert "Draw 5 animal tokens" in prompt(g)
    advance_to(g, P.TRIBES_MOVE)
    assert "Play order: Tribe 1, Tribe 2, Tribe 3 (placed first)" in prompt(g)
    advance_to(g, P.SURVIVAL)
    assert "forest spaces (gathering)" in prompt(g)
    assert "Tribe 1: 12 food, kills 0, 7 people eat 7." in prompt(g)
    advance_to(g, P.FATE_CARDS)
    assert "nobody draws" in prompt(g)
