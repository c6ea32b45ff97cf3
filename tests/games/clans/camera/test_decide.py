"""The camera's decision from per-territory measures (companion.games.clans.camera.propose.decide):
which changes make a move, and which make no proposal, on a real position."""

from __future__ import annotations

import pytest

from companion.games.clans.camera.propose import decide
from companion.games.clans.game import Game

HUT = 0.08  # what one hut covers of a territory, as the views measure it


def measures(game: Game, move: tuple[int, int] | None = None, *, nudged=(), gained=(), lost=(), noise=0.004):
    """The measures a clean photograph pair of `move` gives (and of the extra happenings)."""
    held = {t: HUT * sum(game.huts(t).values()) for t in game.board.numbers}
    moved = {t: noise for t in held}
    before = dict(held)
    after = dict(held)
    if move:
        a, b = move
        after[a], after[b] = 0.0, held[b] + held[a] * 0.8
        moved[a], moved[b] = held[a], held[a] * 0.8
    for t in nudged:
        moved[t] = 0.05
    for t in gained:
        after[t] += 0.1
        moved[t] = 0.1
    for t in lost:
        after[t] = 0.0
        moved[t] = held[t]
    return moved, before, after


def pairs(game: Game) -> list[tuple[int, int]]:
    return [(m.frm, m.to) for m in game.legal_moves]


@pytest.fixture
def game() -> Game:
    g = Game.new(3, seed=4)
    for _ in range(6):
        g.push(*g.random_move(__import__("random").Random(len(g.moves)).random))
    return g


def test_one_emptied_territory_and_one_grown_target_is_the_move(game):
    for a, b in pairs(game)[:40]:
        p = decide(game, *measures(game, (a, b)))
        assert (p.move, p.code) == ((a, b), "move"), p.reason


def test_a_nudged_hut_elsewhere_keeps_the_move(game):
    a, b = pairs(game)[0]
    other = next(t for t in game.occupied() if t not in (a, b, *game.targets(a)))
    p = decide(game, *measures(game, (a, b), nudged=[other]))
    assert p.move == (a, b) and other in p.changed


@pytest.mark.parametrize("what, code", [
    ({}, "still"),
    ({"gained": range(1, 12)}, "covered"),
])
def test_nothing_or_everything_changed_is_no_proposal(game, what, code):
    p = decide(game, *measures(game, None, **what))
    assert (p.move, p.code) == (None, code)


def test_two_moves_at_once_are_no_proposal(game):
    moves = pairs(game)
    first = moves[0]
    second = next(m for m in moves if not set(m) & set(first))
    moved, before, after = measures(game, first)
    m2, _b2, a2 = measures(game, second)
    for t in second:
        moved[t], after[t] = m2[t], a2[t]
    p = decide(game, moved, before, after)
    assert p.move is None and p.code in ("two_sources", "other_change")


def test_a_gain_or_a_loss_elsewhere_is_no_proposal(game):
    a, b = pairs(game)[0]
    far = [t for t in game.occupied() if t not in (a, b) and t not in game.board.territories[a].neighbors]
    for extra in ({"gained": far[:1]}, {"lost": far[:1]}):
        p = decide(game, *measures(game, (a, b), **extra))
        assert p.move is None and p.code in ("other_change", "two_sources"), (extra, p.reason)


def test_huts_gone_nowhere_or_to_two_places_are_no_proposal(game):
    a, b = next((a, b) for a, b in pairs(game) if len(game.targets(a)) >= 2)
    moved, before, after = measures(game, (a, b))
    moved[b], after[b] = 0.004, before[b]
    assert decide(game, moved, before, after).code == "no_target"
    c = next(t for t in game.targets(a) if t != b)
    moved, before, after = measures(game, (a, b))
    moved[c], after[c] = moved[b], after[b]
    assert decide(game, moved, before, after).code == "two_targets"


def test_an_emptied_territory_that_held_nothing_is_not_a_source(game):
    empty = next((t for t in game.board.numbers if not game.huts(t) or not sum(game.huts(t).values())), None)
    if empty is None:
        pytest.skip("no empty territory in this position")
    moved, before, after = measures(game, None)
    moved[empty] = 0.2
    assert decide(game, moved, before, after).code == "no_source"
