"""Pure rule functions of Valley of the Mammoths, on hand-built cases from the rulebook."""

from __future__ import annotations

import pytest

from companion.games.mammut import combat as C
from companion.games.mammut import rules as R
from companion.games.mammut import survival as S
from companion.games.mammut.combat import Fighter
from companion.games.mammut.rules import MammutError, Standing, VictoryStanding


class Dice:
    """A scripted die: returns the given faces in order and fails when they run out."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def __call__(self) -> int:
        assert self.faces, "the test rolled more dice than it scripted"
        return self.faces.pop(0)


# --- calendar ----------------------------------------------------------------------


def test_game_starts_on_second_summer_turn_and_first_year_has_five_turns():
    assert R.calendar_of(1) == (1, R.SUMMER, 2)
    year1 = [R.calendar_of(n) for n in range(1, 6)]
    assert year1 == [
        (1, R.SUMMER, 2),
        (1, R.SUMMER, 3),
        (1, R.WINTER, 1),
        (1, R.WINTER, 2),
        (1, R.WINTER, 3),
    ]
    assert R.calendar_of(6) == (2, R.SUMMER, 1)
    assert R.calendar_of(12) == (3, R.SUMMER, 1)


def test_turn_number_inverts_calendar_and_next_turn_wraps_years():
    for n in range(1, 30):
        assert R.turn_number(*R.calendar_of(n)) == n
    assert R.next_turn(1, R.SUMMER, 3) == (1, R.WINTER, 1)
    assert R.next_turn(1, R.WINTER, 3) == (2, R.SUMMER, 1)
    with pytest.raises(MammutError):
        R.turn_number(1, R.SUMMER, 1)  # before the game starts
    with pytest.raises(MammutError):
        R.turn_number(2, "spring", 1)


def test_season_markers():
    assert R.is_season_end(3) and not R.is_season_end(2)
    assert R.is_last_summer_turn(R.SUMMER, 3)
    assert not R.is_last_summer_turn(R.WINTER, 3)
    assert [R.events_this_turn(n) for n in (1, 2, 3)] == [False, False, True]


# --- animals -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "tribes,season,first,expected",
    [
        (4, R.SUMMER, True, 6),
        (6, R.SUMMER, True, 6),
        (3, R.SUMMER, True, 5),
        (2, R.SUMMER, True, 5),
        (5, R.SUMMER, False, 4),
        (3, R.SUMMER, False, 3),
        (4, R.WINTER, False, 2),
        (2, R.WINTER, False, 1),
        (1, R.WINTER, False, 1),  # the others eliminated: the small column
    ],
)
def test_animal_count_table(tribes, season, first, expected):
    assert R.animal_count(tribes, season, first) == expected


def test_animal_count_rejects_nonsense():
    with pytest.raises(MammutError):
        R.animal_count(7, R.SUMMER)
    with pytest.raises(MammutError):
        R.animal_count(3, "autumn")


def test_animal_movement_table():
    assert R.ANIMAL_MOVES == {"wolf": 3, "tiger": 3, "bear": 2, "bison": 2, "rhino": 1, "mammoth": 1}
    assert R.ANIMALS["bear"].crosses_rivers and not R.ANIMALS["wolf"].crosses_rivers
    assert R.ANIMALS["wolf"].crosses_mountains and not R.ANIMALS["bison"].crosses_mountains
    assert [a for a in R.ANIMALS if R.ANIMALS[a].tramples_crops] == ["bison", "rhino", "mammoth"]


def test_kill_food():
    assert [R.kill_food(a) for a in ("mammoth", "rhino", "bison", "bear", "tiger", "wolf")] == [6, 5, 4, 3, 2, 1]
    assert R.kill_food("mammoth", 3) == 18
    with pytest.raises(MammutError, match="unknown animal"):
        R.kill_food("dodo")


def test_check_die_refuses_a_broken_source():
    with pytest.raises(ValueError):
        R.check_die(7)
    with pytest.raises(ValueError):
        R.check_die(0)
    assert R.check_die(6) == 6


# --- play order ----------------------------------------------------------------------


def test_play_order_most_camps_then_clockwise():
    st = [Standing(1, 1, 9, 20), Standing(2, 1, 7, 10), Standing(3, 2, 3, 0), Standing(4, 1, 7, 5)]
    po = R.play_order(st, Dice())
    assert po.order == [3, 4, 1, 2]
    assert po.reason == "most camps" and po.tie_rolls == []


def test_play_order_ties_on_camps_go_to_people_then_food():
    st = [Standing(1, 2, 7, 20), Standing(2, 2, 8, 10), Standing(3, 1, 10, 30)]
    assert R.play_order(st, Dice()).order == [2, 3, 1]
    st = [Standing(1, 2, 8, 20), Standing(2, 2, 8, 21), Standing(3, 1, 10, 30)]
    po = R.play_order(st, Dice())
    assert po.order == [2, 3, 1] and po.reason == "most food"


def test_play_order_full_tie_rolls_a_die_and_rerolls_ties_among_the_highest():
    st = [Standing(1, 1, 7, 12), Standing(2, 1, 7, 12), Standing(3, 1, 7, 12)]
    # first roll: tribes 1,2 tie on 5 and tribe 3 is out; second roll: 2 beats 1
    po = R.play_order(st, Dice(5, 5, 2, 3, 4))
    assert po.order == [2, 3, 1]
    assert po.reason == "die roll"
    assert po.tie_rolls == [{"1": 5, "2": 5, "3": 2}, {"1": 3, "2": 4}]


def test_play_order_forced_first_player_on_first_turn_and_skips_missing_tribes():
    st = [Standing(1, 1, 7, 12), Standing(2, 3, 7, 12), Standing(4, 1, 7, 12)]  # tribe 3 is out
    assert R.play_order(st, Dice(), first=4).order == [4, 1, 2]
    assert R.play_order(st, Dice()).order == [2, 4, 1]
    with pytest.raises(MammutError):
        R.play_order(st, Dice(), first=3)


# --- combat --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fighter,bonus",
    [
        (Fighter("t", warriors=3), 3),
        (Fighter("t", warriors=3, camp=R.CAVE), 5),
        (Fighter("t", warriors=3, camp=R.VILLAGE), 4),
        # rulebook l.151 "1 guerriero solitario hanno un +1 di bonus": the lone warrior's own +1,
        # not a second one (MAMMUT.md phase 5): one warrior never equals two
        (Fighter("t", warriors=1), 1),  # lone warrior
        (Fighter("t", warriors=1, camp=R.VILLAGE), 2),
        (Fighter("t", warriors=1, women=1), 1),  # not lone: a woman fights beside him
        (Fighter("t", women=2), 0),  # women add nothing
        (Fighter("t", women=1, camp=R.CAVE), 2),  # women get the camp bonus
        (Fighter("mammoth", animals=3), 3),
        (Fighter("mammoth", animals=1), 1),  # lone animal: "1 animale solitario ... +1" (l.151)
        (Fighter("t", warriors=2, extra=1), 3),  # fire or a fate card
    ],
)
def test_combat_bonus(fighter, bonus):
    assert C.combat_bonus(fighter) == bonus


def test_combat_round_by_round_with_lone_bonus_and_tie_reroll():
    # rulebook l.147-153: +1 per warrior, +1 per animal, +1 own village; lower total loses a
    # token; "In caso di parità, si tirano i dadi nuovamente". A lone one keeps only its +1 (l.151).
    tribe = Fighter("tribe 1", warriors=2, camp=R.VILLAGE)  # bonus 3
    herd = Fighter("mammoth", animals=2)  # bonus 2
    out = C.resolve_combat([tribe, herd], Dice(1, 4, 4, 1, 2, 3, 2, 1))
    # 1+3=4 < 4+2=6: a warrior falls, the last one is lone in his village (1+1=2)
    # 4+2=6 > 1+2=3: a mammoth falls, the last one is lone (+1)
    # 2+2=4 = 3+1=4: tie, roll again
    # 2+2=4 > 1+1=2: the last mammoth falls
    assert [r.totals for r in out.rounds] == [[4, 6], [6, 3], [4, 4], [4, 2]]
    assert [r.losers for r in out.rounds] == [[0], [1], [], [1]]
    assert out.winner == 0
    assert out.losses == [{"warriors": 1, "women": 0, "animals": 0}, {"warriors": 0, "women": 0, "animals": 2}]
    assert tribe.warriors == 2, "the caller's fighters are not modified"


def test_combat_losing_side_gives_up_the_token_it_chose():
    out = C.resolve_combat(
        [Fighter("t", warriors=1, women=1, lose_first=R.WOMAN), Fighter("wolf", animals=1)], Dice(1, 6, 1, 6)
    )
    assert out.winner == 1
    assert [r.lost for r in out.rounds] == [[R.WOMAN], [R.WARRIOR]]
    # after the woman died the warrior is lone: die 1 + his own +1 = 2, not 3 (rulebook l.151
    # footnote: the lone warrior's +1 is the per-warrior +1); the lone wolf: 6 + 1 = 7
    assert out.rounds[0].totals == [2, 7]  # 1 + 1 warrior (the woman adds nothing, l.179) vs 6 + 1
    assert out.rounds[1].totals == [2, 7]


def test_combat_between_three_tribes_all_but_highest_lose():
    sides = [Fighter("a", warriors=2), Fighter("b", warriors=2), Fighter("c", warriors=1)]
    # round 1: a 6+2=8, b 6+2=8, c 1+1=2 -> only c loses (its last warrior)
    # round 2: a 1+2=3, b 2+2=4 -> a loses; round 3: a lone 5+1=6, b 1+2=3 -> b loses
    # round 4: a 1+1=2, b lone 6+1=7 -> a is gone (a lone warrior: +1 only, rulebook l.151)
    out = C.resolve_combat(sides, Dice(6, 6, 1, 1, 2, 5, 1, 1, 6))
    assert out.rounds[0].losers == [2]
    assert out.rounds[1].dice == [1, 2, None]
    assert out.winner == 1
    assert [f.tokens for f in out.final] == [0, 1, 0]


def test_combat_rejects_bad_sides():
    with pytest.raises(MammutError):
        C.resolve_combat([Fighter("t", warriors=2)], Dice())
    with pytest.raises(MammutError, match="different sides"):
        C.resolve_combat([Fighter("t", warriors=2, animals=1), Fighter("w", animals=1)], Dice())
    with pytest.raises(MammutError, match="nobody"):
        C.resolve_combat([Fighter("t"), Fighter("w", animals=1)], Dice())
    with pytest.raises(MammutError, match="camp"):
        C.resolve_combat([Fighter("t", warriors=1, camp="castle"), Fighter("w", animals=1)], Dice())


def test_camp_raid_quarter_or_half_of_last_camp_rounded_down():
    assert C.camp_raid(13, last_camp=False) == 3
    assert C.camp_raid(13, last_camp=True) == 6
    assert C.camp_raid(3, last_camp=False) == 0
    assert C.camp_raid(0, last_camp=True) == 0


# --- survival ------------------------------------------------------------------------


def test_food_income():
    assert S.food_income(R.SUMMER, False, fishing=2, gathering=1, kills=6) == 9
    assert S.food_income(R.WINTER, False, fishing=3) == 3
    assert S.food_income(R.SUMMER, True, crops_intact=2, crops_damaged=1, fishing=1) == 21
    with pytest.raises(MammutError, match="only in summer"):
        S.food_income(R.WINTER, False, gathering=1)
    with pytest.raises(MammutError, match="last summer turn"):
        S.food_income(R.SUMMER, False, crops_intact=1)
    with pytest.raises(MammutError):
        S.food_income(R.SUMMER, False, fishing=-1)


def test_food_eaten_standard_and_advanced_winter_ration():
    assert S.food_eaten(7) == 7
    assert S.food_eaten(7, winter=True) == 7
    assert S.food_eaten(7, winter=True, advanced=True) == 10  # 10.5 rounded down
    assert S.food_eaten(6, winter=True, advanced=True) == 9
    assert S.food_eaten(7, winter=True, advanced=True, fire=True) == 7
    assert S.food_eaten(7, winter=False, advanced=True) == 7


def test_survive_surplus_exact_and_shortfall():
    assert S.survive(10, 3, 7) == S.SurvivalResult(income=3, eaten=7, food=6, remove=0)
    assert S.survive(4, 3, 7) == S.SurvivalResult(income=3, eaten=7, food=0, remove=0)
    # short by 2: two tokens go, the rest eat everything
    assert S.survive(3, 2, 7) == S.SurvivalResult(income=2, eaten=5, food=0, remove=2)


def test_survive_advanced_winter_removes_fewest_tokens_and_keeps_the_rounding():
    # 5 tokens need 7; 4 tokens would need 6 > 5; 3 tokens need 4 -> 2 go, 1 food stays
    assert S.survive(5, 0, 5, winter=True, advanced=True) == S.SurvivalResult(0, 4, 1, 2)
    # with fire the same tribe eats 5 and loses nobody
    assert S.survive(5, 0, 5, winter=True, advanced=True, fire=True) == S.SurvivalResult(0, 5, 0, 0)


# --- births --------------------------------------------------------------------------


def test_births_due_per_camp():
    assert S.births_due(1, 0) == 1
    assert S.births_due(1, 2) == 5
    with pytest.raises(MammutError):
        S.births_due(-1, 0)


def test_roll_births_sexes_and_twins():
    babies, dice = S.roll_births(4, Dice(1, 3, 5, 2))
    assert babies == [R.WOMAN, R.WARRIOR, R.WARRIOR, R.WOMAN]
    assert dice == [[1], [3], [5], [2]]
    # a 6 gives twins; on the twins' dice a 6 is a warrior
    babies, dice = S.roll_births(1, Dice(6, 6, 1))
    assert babies == [R.WARRIOR, R.WOMAN]
    assert dice == [[6, 6, 1]]


def test_births_beyond_the_caps_are_lost():
    out = S.apply_births(9, 6, [R.WARRIOR, R.WARRIOR, R.WOMAN])
    assert (out.warriors, out.women) == (10, 6)
    assert (out.warriors_born, out.women_born, out.warriors_lost, out.women_lost) == (1, 0, 1, 1)
    out = S.apply_births(3, 2, [R.WOMAN])
    assert (out.warriors, out.women, out.women_lost) == (3, 3, 0)


# --- sowing, fate cards --------------------------------------------------------------


def test_sowing_costs_one_food_per_crop_on_villages():
    assert S.sow(5, 2, 2) == 3
    with pytest.raises(MammutError, match="villages"):
        S.sow(5, 1, 2)
    with pytest.raises(MammutError, match="only 1"):
        S.sow(1, 3, 2)


def test_hand_size_and_one_draw_per_season():
    assert [R.hand_size(n) for n in range(2, 7)] == [5, 5, 5, 4, 4]
    assert R.fate_draws([5, 4, 0, 6], 4) == [0, 1, 1, 0]
    assert R.fate_draws([4, 3], 5) == [0, 1]
    with pytest.raises(MammutError):
        R.hand_size(7)


# --- end of turn ---------------------------------------------------------------------


def test_victory_needs_an_announcement_then_holding_four_camps():
    first = [VictoryStanding(1, 4, False, False), VictoryStanding(2, 3, False, False)]
    assert R.end_of_turn(first) == ([], [1])
    held = [VictoryStanding(1, 5, False, True), VictoryStanding(2, 4, False, False)]
    assert R.end_of_turn(held) == ([1], [2])
    lost = [VictoryStanding(1, 3, False, True)]
    assert R.end_of_turn(lost) == ([], [])


def test_advanced_victory_also_needs_fire():
    no_fire = [VictoryStanding(1, 4, False, True)]
    assert R.end_of_turn(no_fire, advanced=True) == ([], [1])
    assert R.end_of_turn([VictoryStanding(1, 4, True, True)], advanced=True) == ([1], [])


def test_extinction_and_resurrection_checks():
    assert R.extinct([0, 0, 0])
    assert not R.extinct([0, 1, 0])
    R.check_resurrection(True, False, 1)
    with pytest.raises(MammutError, match="only once"):
        R.check_resurrection(True, True, 1)
    with pytest.raises(MammutError, match="first year"):
        R.check_resurrection(True, False, 2)
    with pytest.raises(MammutError, match="eliminated"):
        R.check_resurrection(False, False, 1)
