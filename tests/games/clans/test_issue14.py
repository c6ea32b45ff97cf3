"""Issue 14, screens a newcomer never misreads: the order question says what each place of the
founding order means (chip, epoch, what is destroyed, +5, not founded) and keeps its choices on
screen; Undo while it is open cancels only the pending move; a result followed by a bot's turn says
that # goes on; a loaded record's colors and unknown keys survive undo and `--record-out`."""

from __future__ import annotations

import json
import random

from tests.games.clans.clans_helpers import answer, example, feed, loaded, persisted, random_answers
from companion import i18n
from companion.games.clans import texts as T
from companion.games.clans.controller import Controller
from companion.games.clans.founding import Position, founding_positions
from companion.games.clans.game import Game
from companion.games.clans.record import Record
from companion.table.screen import BODY_COLS, SMALL_COLS

# 36 -> 35 empties 36, the only neighbor of 35, 37, 40 and 55 that holds huts: four villages at once
ISOLATING = {36: {"red": 1}, 35: {"blue": 1}, 37: {"green": 1}, 40: {"yellow": 1}, 55: {"black": 1}}


def position(villages: int) -> Game:
    """The position of the issue: `villages` villages founded (on 1.., out of play), P1 to move."""
    return Game.from_position(2, ISOLATING, villages=range(1, villages + 1))


def at(game: Game) -> Controller:
    """A table playing `game` (built by the engine), play under way."""
    c = Controller()
    c.state.game, c.state.ready = game, True
    return c


def test_founding_positions_come_from_the_engine():
    assert founding_positions(position(10), 4) == [
        Position(11, 4, "steppe", "grassland", 4, False), Position(12, 5, None, "all", 5, True), None, None]
    assert [p and p.chip for p in founding_positions(position(9), 4)] == [10, 11, 12, None]
    assert [(p.chip, p.epoch) for p in founding_positions(position(6), 4, answered=1)] == [
        (8, 3), (9, 3), (10, 4), (11, 4)]


def test_order_rows_ten_villages():
    assert position(10).isolated_by(36, 35) == [35, 37, 40, 55]
    assert T.order_rows(position(10), 4) == ["11: IV X steppe", "  +4 grassland", "12: +5 any terrain",
                                             "then: not founded"]


def test_order_rows_nine_villages_on_every_question():
    g = position(9)
    assert T.order_rows(g, 4) == ["10-11: IV X steppe", "  +4 grassland", "12: +5 any terrain", "then: not founded"]
    assert T.order_rows(g, 3, answered=1) == ["11: IV X steppe", "  +4 grassland", "12: +5 any terrain",
                                              "then: not founded"]
    assert T.order_rows(g, 2, answered=2) == ["12: +5 any terrain", "then: not founded"]


def test_order_rows_six_villages():
    assert T.order_rows(position(6), 4) == ["7: II X grassland", "  +2 mountain", "8-9: III X forest", "  +3 steppe",
                                            "10: IV X steppe", "  +4 grassland"]


def test_order_question_through_the_keys_shows_each_place_and_the_choices():
    c = at(position(9))
    feed(c, "36#35#")
    s = c.screen()
    assert s.name == "order" and s.title == "P1: village for chip 10?"
    assert s.lines == ("10-11: IV X steppe", "  +4 grassland", "12: +5 any terrain", "then: not founded",
                       "Choose: 35 37 40 55")
    feed(c, "40#")
    s = c.screen()
    assert s.title == "P1: village for chip 11?" and s.lines[-1] == "Choose: 35 37 55"
    feed(c, "37#")
    assert c.screen().lines == ("12: +5 any terrain", "then: not founded", "Choose: 35 55")  # no favorable line
    feed(c, "55#")  # the rest is not founded: no more question
    assert c.mode() != "order" and [v.territory for v in c.game.villages[9:]] == [40, 37, 55]
    assert c.game.moves[-1].order == (40, 37, 55, 35)


def test_a_wrong_pick_is_said_in_the_title_and_the_choices_stay():
    c = at(position(6))
    feed(c, "36#35#")
    before = c.screen()
    feed(c, "12#")
    s = c.screen()
    assert s.title == "12 is not one of them" and s.lines == before.lines and "Choose: 35 37 40 55" in s.lines
    feed(c, "37#")  # a valid pick: the question again, with its title
    assert c.screen().title == "P1: village for chip 8?" and c.screen().lines[-1] == "Choose: 35 40 55"


def test_every_order_screen_fits():
    for villages in range(12):
        g = position(villages)
        if not g.order_matters(4):
            continue
        c = at(g)
        feed(c, "36#35#")
        s = c.screen()
        assert len(s.title) <= SMALL_COLS and all(len(line) <= BODY_COLS for line in s.lines)
        assert s.lines[-1].startswith("Choose:")


def test_menu_undo_during_the_order_question_cancels_only_the_pending_move():
    rec = example("order-matters")
    idx = next(i for i, m in enumerate(rec.moves) if m.order == (37, 29))
    rec.moves, rec.colors = rec.moves[:idx], None
    c = Controller.from_record(rec)
    persisted(c)
    before = c.game.state_key()
    feed(c, "30#29#")
    assert c.mode() == "order"
    c.menu_choose(1)  # "Undo last move"
    assert persisted(c) == [{"a": "pending", "from": 30, "to": 29}, {"a": "cancel"}]
    assert c.game.ply == idx and c.game.state_key() == before and c.mode() == "move"
    assert c.screen().name == "cancelled"
    feed(c, "30#29#C")  # C on the question: the same
    assert c.game.ply == idx and c.mode() == "move" and c.screen().name == "cancelled"


def test_a_result_before_a_bots_turn_says_that_hash_goes_on():
    c = Controller.quick_start(2, random.Random(4), first=0, bots=[1])
    feed(c, "##")  # P1's deal
    answers = random_answers(random.Random(1))
    answer(c, answers)
    assert c.mode() == "move"
    frm, to = c.game.random_move(random.Random(2).random)
    feed(c, f"{frm}#{to}#")
    while c.mode() == "order":
        feed(c, f"{c.order_choices()[0]}#")
    answer(c, answers)
    pages = c.info.pages
    assert pages[-1][-1] == "#: P2 (bot) plays."
    for _ in pages:
        feed(c, "#")
    assert c.screen().name == "bot-move"


def test_a_person_next_still_reads_next():
    c = loaded("in-progress")
    frm, to = c.game.random_move(random.Random(3).random)
    feed(c, f"{frm}#{to}#")
    while c.mode() == "order":
        feed(c, f"{c.order_choices()[0]}#")
    if c.info.shown:  # a village's message
        assert c.info.pages[-1][-1] == f"Next: P{c.game.to_move + 1}."
    else:  # a plain move's result, in the next mover's entry screen: its header says who
        s = c.screen()
        assert s.name == "result" and s.header.left == f"P{c.game.to_move + 1} to move"


def test_loaded_colors_survive_an_undo_and_unknown_keys_reach_the_record():
    rec = example("in-progress")
    assert "comment" in rec.extra
    rec.colors = ["blue", "red", "green"][:rec.players]
    text = rec.to_json()
    c = Controller.from_record(Record.from_json(text))
    assert c.record().to_json() == text  # loaded and saved unchanged, key order included
    feed(c, "C#")  # undo the last move
    assert c.screen().name == "undone" and c.game.ply == len(rec.moves) - 1
    out = c.record().to_dict()
    assert out["colors"] == rec.colors and out["comment"] == rec.extra["comment"]
    assert list(out) == list(json.loads(text))
    r = Controller.from_actions([{"a": "load", "record": json.loads(text)}, {"a": "undo"}])
    assert r.record().to_dict() == out


def test_the_screens_build_in_another_language():
    """The same calls in German: the order question and the menu in its catalog's words."""
    try:
        i18n.set_language("de")
        c = at(position(9))
        feed(c, "36#35#")
        title = c.screen().title
        assert title != "P1: village for chip 10?" and "10" in title and "Chip" in title
        assert c.menu_items()[0] == "Neues Spiel"
    finally:
        i18n.set_language("en")
