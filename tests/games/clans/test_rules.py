"""Rules R1-R6 of RULES.md on hand-built positions, and the rulebooks' worked examples."""

from __future__ import annotations

import random

import pytest

from companion.games.clans.board import COLORS, load_board
from companion.games.clans.game import FINISHED, IN_PROGRESS, STALLED, Game, IllegalMoveError, Move, check_setup, random_setup
from companion.games.clans.founding import founding_positions

# Far-away territories kept in play so that a test position does not stall: 57-58 are neighbors.
KEEP = {57: {"red": 1}, 58: {"blue": 1}}


def pos(huts: dict, villages: int = 0, to_move=0, players=3) -> Game:
    """A position with `villages` placeholder villages already founded (on 31.., unused here)."""
    return Game.from_position(players, {**KEEP, **huts}, to_move=to_move, villages=range(31, 31 + villages))


# ----- R1 setup ---------------------------------------------------------------------------
def test_random_setup_follows_r1_and_is_seeded():
    board = load_board()
    setup = random_setup(random.Random(5))
    for r in range(1, 13):
        assert sorted(setup[t] for t in board.region_members(r)) == sorted(COLORS)
    assert setup == random_setup(random.Random(5))
    assert setup != random_setup(random.Random(6))
    g = Game.new(3, seed=5)
    assert all(g.total[t] == 1 for t in range(1, 61)) and g.status == IN_PROGRESS
    assert g.first_player == Game.new(3, seed=5).first_player


def test_setup_breaking_r1_is_refused_naming_the_region():
    setup = random_setup(random.Random(1))
    setup[1], setup[6] = setup[6], setup[1]  # swap across regions 1 and 2
    if setup[1] == setup[6]:
        pytest.skip("same color swapped")
    with pytest.raises(IllegalMoveError, match="region 1 \\(territories 1-5\\) must hold one hut of each color"):
        check_setup(setup)


def test_white_is_an_alias_for_black():
    setup = {t: ("white" if c == "black" else c) for t, c in random_setup(random.Random(2)).items()}
    assert set(check_setup(setup).values()) == set(COLORS)


# ----- R2 moves ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "frm, to, reason",
    [
        (30, 20, "30 is empty: choose a territory with huts"),
        (20, 30, "30 is not next to 20"),
        (20, 17, "17 is empty: huts may only move onto an occupied territory"),
        (20, 20, "20 cannot move onto itself"),
        (0, 20, "0 is not a territory: use 1-60"),
        (20, 61, "61 is not a territory"),
    ],
)
def test_illegal_moves_say_why_and_change_nothing(frm, to, reason):
    g = pos({20: {"red": 1}, 19: {"blue": 1}})
    before = g.state_key()
    with pytest.raises(IllegalMoveError, match=reason):
        g.push(frm, to)
    assert isinstance(IllegalMoveError("x"), ValueError)
    assert g.state_key() == before
    assert Move(frm, to) not in g.legal_moves


def test_seven_huts_rule_worked_example():
    # 20 holds a group; its neighbors 19 and 21 hold the other groups.
    def game(a, b):
        return pos({20: {"red": a}, 19: {"blue": b}, 21: {"green": 1}})

    with pytest.raises(IllegalMoveError, match="20 holds 7 huts .7 or more.: .* and 19 holds 3"):
        game(7, 3).push(20, 19)
    assert game(3, 7).push(20, 19).moved == {"red": 3}  # a group of 3 may move onto the 7
    assert game(7, 8).is_legal(20, 19)
    assert game(7, 7).is_legal(20, 19) and game(7, 7).is_legal(19, 20)  # equal: the mover picks
    assert not game(7, 6).is_legal(20, 19)


def test_big_groups_side_by_side_unequal():
    g = pos({20: {"red": 9}, 19: {"blue": 8}, 21: {"green": 1}})
    assert g.targets(20) == []  # 9 cannot go onto 8, and 21 is small
    assert g.why_illegal(20) and "cannot move" in g.why_illegal(20)
    assert g.targets(19) == [20]  # 8 may go onto 9
    assert g.targets(21) == [20]
    assert set(g.legal_moves) == {Move(19, 20), Move(21, 20), Move(57, 58), Move(58, 57)}


def test_empty_stays_empty_and_villages_never_move():
    g = pos({11: {"blue": 3, "yellow": 1}, 12: {"red": 1}})
    g.push(12, 11)  # 11 becomes a village
    assert g.is_village(11) and not g.is_village(12)
    assert "11 is a village: villages never move" in g.why_illegal(11)
    assert "12 is empty" in g.why_illegal(12)


# ----- R3/R4 villages and the worked examples -----------------------------------------------
def test_strife_worked_example_nine_huts():
    g = pos({12: {"black": 4, "red": 2, "green": 1, "yellow": 1}, 11: {"blue": 1}}, to_move=1)
    out = g.push(11, 12)
    (v,) = out.villages
    assert (v.territory, v.epoch, v.founder, v.chip) == (12, 1, 1, 1)
    assert v.removed == {"blue": 1, "green": 1, "yellow": 1}
    assert v.value == 6 and v.colors == ("black", "red") and not v.destroyed
    assert g.score("black") == g.score("red") == 6 and g.score("green") == 0
    assert g.huts(12) == {"red": 2, "black": 4}  # strife huts are off the board
    assert g.chips == [0, 1, 0]


def test_forest_epoch_one_worked_example():
    g = pos({11: {"blue": 3, "yellow": 1}, 12: {"red": 1}})
    (v,) = g.push(12, 11).villages
    assert v.value == 6 and v.colors == ("blue", "red", "yellow") and v.bonus == 1
    assert [g.score(c) for c in ("blue", "yellow", "red", "green")] == [6, 6, 6, 0]


def test_steppe_in_epoch_three_gets_three():
    g = pos({14: {"red": 2}, 13: {"blue": 1}}, villages=7)
    assert g.epoch == 3
    (v,) = g.push(13, 14).villages
    assert (v.epoch, v.value, v.colors) == (3, 6, ("blue", "red"))


def test_grassland_in_epoch_two_is_destroyed():
    g = pos({12: {"red": 2}, 11: {"blue": 1}}, villages=4, to_move=2)
    assert g.epoch == 2
    out = g.push(11, 12)
    (v,) = out.villages
    assert v.destroyed and v.value == 0 and v.colors == () and v.huts == 3
    assert g.huts(12) == {} and g.total[12] == 0
    assert g.scores == [0] * 5 and g.chips == [0, 0, 1]  # the chip stays taken


def test_five_hut_five_color_village_loses_everything_but_takes_the_chip():
    g = pos({12: {"red": 1, "blue": 1, "green": 1, "yellow": 1}, 11: {"black": 1}})
    (v,) = g.push(11, 12).villages
    assert v.removed == {c: 1 for c in COLORS} and v.value == 0 and v.colors == () and not v.destroyed
    assert g.scores == [0] * 5 and g.chips == [1, 0, 0] and g.huts(12) == {}


def test_single_hut_village_and_every_color_scores_full_value():
    g = pos({11: {"red": 5, "green": 1}, 12: {"red": 1}})
    (v,) = g.push(12, 11).villages  # forest in epoch I: 7 + 1
    assert v.value == 8 and g.score("red") == 8 and g.score("green") == 8


def test_several_villages_default_ascending_and_mover_order():
    # Moving 20 onto 19 isolates 19 (forest) and 21 (mountain).
    huts = {20: {"red": 1}, 19: {"blue": 2}, 21: {"yellow": 1}}
    g = pos(huts)
    assert g.isolated_by(20, 19) == [19, 21]
    assert [v.territory for v in g.push(20, 19).villages] == [19, 21]
    g = pos(huts)
    assert [v.territory for v in g.push(20, 19, order=[21, 19]).villages] == [21, 19]
    assert g.moves[-1] == Move(20, 19, (21, 19))


@pytest.mark.parametrize("order", [[19], [19, 21, 21], [19, 22], [19, 21, 57]])
def test_order_must_list_exactly_the_isolated(order):
    g = pos({20: {"red": 1}, 19: {"blue": 2}, 21: {"yellow": 1}})
    before = g.state_key()
    with pytest.raises(IllegalMoveError, match="isolates 19, 21: the order must list exactly those"):
        g.push(20, 19, order=order)
    assert g.state_key() == before


def test_villages_across_an_epoch_boundary_in_both_orders():
    huts = {20: {"red": 1}, 19: {"blue": 2}, 21: {"yellow": 1}}
    g = pos(huts, villages=3)  # one chip of epoch I left
    assert g.treatments(2) == [1, 2] and g.order_matters(2)
    first, second = founding_positions(g, 2)
    assert (first.chip, first.epoch, second.chip, second.epoch) == (4, 1, 5, 2)
    forest_first = g.push(20, 19, order=[19, 21])
    v19, v21 = forest_first.villages
    assert (v19.epoch, v19.value, v21.epoch, v21.value) == (1, 3 + 1, 2, 1 + 2)  # forest +1, then mountain +2
    assert forest_first.epoch_changed and forest_first.epoch_after == 2
    g.pop()
    v21, v19 = g.push(20, 19, order=[21, 19]).villages
    assert v21.epoch == 1 and v21.destroyed  # mountain is hostile in epoch I
    assert v19.epoch == 2 and v19.value == 3 and not v19.destroyed  # forest is plain in epoch II
    assert g.score("blue") == 3 and g.score("yellow") == 0


def test_order_does_not_matter_within_one_epoch():
    g = pos({20: {"red": 1}, 19: {"blue": 2}, 21: {"yellow": 1}})
    assert g.treatments(2) == [1, 1] and not g.order_matters(2)
    g = pos({20: {"red": 1}, 19: {"blue": 2}, 21: {"yellow": 1}}, villages=10)
    assert g.treatments(2) == [4, 5] and g.order_matters(2)


def test_twelfth_and_thirteenth_village():
    huts = {20: {"red": 1}, 19: {"blue": 2}, 21: {"yellow": 1, "green": 2}}
    g = pos(huts, villages=11, to_move=1)
    assert g.treatments(2) == [5, None] and g.order_matters(2)
    last, beyond = founding_positions(g, 2)
    assert last.chip == 12 and last.last and beyond is None
    out = g.push(20, 19, order=[21, 19])
    (v,) = out.villages
    assert (v.territory, v.chip, v.epoch, v.value) == (21, 12, 5, 3 + 5)  # +5 on a mountain, never destroyed
    assert out.not_founded == (19,) and g.huts(19) == {"red": 1, "blue": 2}
    assert g.status == FINISHED and g.is_over and out.status == FINISHED
    assert g.chips == [0, 1, 0] and g.score("blue") == 0
    with pytest.raises(IllegalMoveError, match="the game is over"):
        g.push(57, 58)
    g.pop()
    v, = g.push(20, 19, order=[19, 21]).villages
    assert (v.territory, v.value, v.colors) == (19, 3 + 5, ("blue", "red"))


def test_twelfth_village_on_any_terrain_gets_exactly_five():
    g = pos({12: {"red": 2}, 11: {"blue": 1}}, villages=11)  # grassland
    (v,) = g.push(11, 12).villages
    assert v.value == 3 + 5 and v.bonus == 5 and not v.destroyed


# ----- R5 epochs and R6 end --------------------------------------------------------------------
def test_epochs_follow_the_chart():
    expected = [1, 1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 5]
    for n in range(12):
        g = pos({}, villages=n)
        assert g.epoch == expected[n]
        assert g.chips_left_in_epoch == expected.count(expected[n]) - expected[:n].count(expected[n])


def test_stall_when_nothing_can_move():
    g = Game.from_position(3, {11: {"red": 1}, 12: {"blue": 1}}, villages=range(31, 40))
    g.push(11, 12)
    assert g.status == STALLED and g.is_over and len(g.villages) == 10 and g.epoch == 4
    assert list(g.legal_moves) == []
    totals, winners = g.winners(["blue", "red", "green"])
    assert g.score("blue") == g.score("red") == 2 + 4  # grassland in epoch IV
    assert totals == [7, 6, 0] and winners == [0]


def test_shared_win_on_equal_totals():
    g = Game.from_position(2, {**KEEP}, villages=[])
    g.scores[0] = g.scores[1] = 7
    assert g.winners(["red", "blue"]) == ([7, 7], [0, 1])


def test_turn_rotates_and_undo_restores_everything():
    g = pos({20: {"red": 1}, 19: {"blue": 2}, 21: {"yellow": 1}}, villages=3, to_move=2)
    before = g.state_key()
    g.push(20, 19, order=[19, 21])
    assert g.to_move == 0 and g.chips == [0, 0, 2]
    undone = g.pop()
    assert undone.moved == {"red": 1} and [v.territory for v in undone.villages] == [19, 21]
    assert g.state_key() == before and g.to_move == 2 and g.epoch == 1
    with pytest.raises(IllegalMoveError):
        Game.new(2, seed=1).pop()


def test_legal_moves_generator_matches_is_legal():
    g = Game.new(4, seed=3)
    rng = random.Random(3)
    while not g.is_over:
        moves = set(g.legal_moves)
        brute = {Move(a, b) for a in range(1, 61) for b in range(1, 61) if g.is_legal(a, b)}
        assert moves == brute and len(g.legal_moves) == len(brute)
        a, b = g.random_move(rng.random)
        assert Move(a, b) in g.legal_moves
        g.push(a, b)
