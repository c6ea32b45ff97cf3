"""A plain move's result shows in the next mover's entry screen (fewer bytes on the OLED's bus than
a whole message and the entry screen back): its entry row says from -> to, its hint row who moved
and the huts the table moves by hand; the next key takes it away and a digit starts the next move.
Village moves, the end, a bot's turn keep their whole message."""

from __future__ import annotations

import random

import pytest

from companion import i18n
from companion.games.clans import texts as T
from companion.games.clans.controller import Controller
from companion.games.clans.words import color_short
from companion.table import keys as K
from companion.table.screen import ENTRY, SMALL_COLS, TEXT, overflows

from tests.games.clans.clans_helpers import actions_of, answer, feed, loaded, persisted, random_answers


@pytest.fixture
def language():
    """Set the table's language for one test; English again afterwards."""
    yield i18n.set_language
    i18n.set_language("en")


def plain_move(c: Controller) -> tuple[int, int]:
    """A legal move that founds no village."""
    g = c.game
    return next((f, t) for f in g.movable() for t in g.targets(f) if not g.isolated_by(f, t))


def village_move(c: Controller) -> tuple[int, int]:
    """A legal move that founds one village (no order question)."""
    g = c.game
    return next((f, t) for f in g.movable() for t in g.targets(f) if len(g.isolated_by(f, t)) == 1)


def shown_result(c: Controller) -> tuple[int, int, dict[str, int], int]:
    """Play a plain move of the in-progress example: (from, to, the huts moved, the mover)."""
    frm, to = plain_move(c)
    huts, mover = dict(c.game.huts(frm)), c.game.to_move
    persisted(c)
    feed(c, f"{frm}#{to}#")
    return frm, to, huts, mover


def test_a_plain_move_shows_in_the_entry_screen_and_is_still_said():
    c = loaded("in-progress")
    frm, to = plain_move(c)
    huts, mover = dict(c.game.huts(frm)), c.game.to_move
    persisted(c)
    feed(c, f"{frm}#{to}#")
    effects = c.pop_effects()
    assert actions_of(effects) == [{"a": "move", "from": frm, "to": to}]
    s = c.screen()
    assert s.kind == ENTRY and s.name == "result" and not c.info.shown
    assert s.entry == f"{frm} -> {to}"
    assert s.hint == f"P{mover + 1} moved " + " ".join(f"{n}{color_short(col)}" for col, n in huts.items())
    assert s.header == T.header(c.game) and s.header.left == f"P{c.game.to_move + 1} to move"
    assert overflows(s) == []
    said = [e.event for e in effects if hasattr(e, "event")]
    assert "move" in said and "turn" in said  # the voice says the move as before


def test_the_first_digit_starts_the_next_move():
    c = loaded("in-progress")
    shown_result(c)
    mover = c.game.to_move
    feed(c, "2")
    s = c.screen()
    assert s.name == "entry" and s.entry == "2_" and s.hint == "from? #=ok A/B=list"
    feed(c, "0")
    assert c.screen().entry == "20_" and c.game.to_move == mover


@pytest.mark.parametrize("key", [K.OK, K.BACK])
def test_hash_and_star_only_take_it_away(key):
    c = loaded("in-progress")
    shown_result(c)
    persisted(c)
    before = c.game.state_key()
    assert c.handle(key, 0.0)
    s = c.screen()
    assert s.name == "entry" and s.entry == "_" and s.hint == "from? #=ok A/B=list"
    assert c.game.state_key() == before and persisted(c) == []


def test_other_keys_take_it_away_and_do_what_they_do():
    c = loaded("in-progress")
    shown_result(c)
    feed(c, K.DOWN)  # A/B browse the territories that can move, as after a message
    s = c.screen()
    assert s.name == "entry" and s.entry == f"{c.game.movable()[0]}_"
    c = loaded("in-progress")
    shown_result(c)
    feed(c, K.UNDO)  # C asks "Undo?"
    assert c.screen().name == "undo?"
    c = loaded("in-progress")
    shown_result(c)
    assert c.handle(K.MENU, 0.0) is False  # D: the shell's menu; back from it, the plain entry
    assert c.screen().name == "entry" and c.screen().entry == "_"


def test_a_village_move_keeps_its_whole_message():
    c = loaded("in-progress")
    frm, to = village_move(c)
    feed(c, f"{frm}#{to}#")
    s = c.screen()
    assert s.kind == TEXT and s.name == "village" and c.info.shown
    assert f"{frm} -> {to}" in s.title and "Village" in " ".join(s.lines)


def test_a_bots_move_and_a_result_before_a_bot_keep_their_whole_message():
    c = Controller.quick_start(2, random.Random(4), first=0, bots=[1])
    feed(c, "##")  # P1's deal
    answers = random_answers(random.Random(1))
    answer(c, answers)
    frm, to = plain_move(c)
    feed(c, f"{frm}#{to}#")
    answer(c, answers)
    assert c.screen().kind == TEXT and c.info.shown and c.info.pages[-1][-1] == "#: P2 (bot) plays."
    feed(c, "#")
    assert c.screen().name == "bot-move"
    feed(c, "#")  # the table made the bot's move
    assert c.screen().kind == TEXT and c.info.shown and c.screen().name in ("result", "village")


def test_an_undo_says_which_huts_go_back_as_before():
    c = loaded("in-progress")
    frm, to, _, _ = shown_result(c)
    feed(c, "C#")
    s = c.screen()
    assert s.name == "undone" and s.title == f"Undone: {frm} -> {to}"


@pytest.mark.parametrize("code", i18n.LANGUAGES)
def test_every_language_fits(code, language, monkeypatch):
    language(code)
    c = loaded("in-progress")
    shown_result(c)
    s = c.screen()
    assert s.name == "result" and overflows(s) == [], overflows(s)
    # the longest: a 7-character name and five colors; too long falls back to the huts alone, then to
    # the whole message
    monkeypatch.setattr(T, "player", lambda p: "Wolfga.")
    for huts in ({"red": 1}, {"red": 2, "blue": 1, "green": 3}, dict.fromkeys(("red", "blue", "green", "yellow",
                                                                              "black"), 2)):
        hint = T.moved_hint(1, huts)
        assert hint is not None and len(hint) <= SMALL_COLS and hint.endswith(f"2{color_short('black')}"
                                                                               if len(huts) == 5 else "")
    assert T.moved_hint(1, dict.fromkeys(("red", "blue", "green", "yellow", "black"), 12)) is None


def test_a_result_too_long_for_the_hint_row_is_a_whole_message(monkeypatch):
    monkeypatch.setattr(T, "moved_hint", lambda p, huts: None)
    c = loaded("in-progress")
    frm, to, _, _ = shown_result(c)
    s = c.screen()
    assert s.kind == TEXT and s.name == "result" and c.info.shown and f"{frm} -> {to}" in s.title
    feed(c, "2")
    assert c.screen().entry == "2_"
