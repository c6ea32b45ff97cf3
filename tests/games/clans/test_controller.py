"""The controller as a pure state machine: keys in, actions and screens out, rebuilt from actions.

The D menu, brightness, shutting down and switching games are the table's (the Shell's):
those tests drive the controller inside a Shell, as the daemon does."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from tests.games.clans.clans_helpers import EXAMPLES, actions_of, example, feed, loaded, persisted, shell_of
from companion.games.clans.board import COLORS
from companion.games.clans.controller import ActionError, Controller
from companion.games.clans.game import Game, check_setup
from companion.games.clans.record import Record, summary
from companion.games.clans.screens import final_pages
from companion.table.effects import GameOver, Persist, PowerOff, SetBrightness, SwitchGame
from companion.table.shell import DEFAULT_BRIGHTNESS
from tests.support import quiet


def assert_same_state(a: Controller, b: Controller) -> None:
    assert (a.game is None) == (b.game is None)
    if a.game is not None:
        assert a.game.state_key() == b.game.state_key()
    sa, sb = a.state, b.state
    assert (a.mode(), sa.pending, sa.picks, sa.colors, sa.players_choice, sa.ready) == \
           (b.mode(), sb.pending, sb.picks, sb.colors, sb.players_choice, sb.ready)
    assert (sa.bots, sa.dealt, sa.proposal) == (sb.bots, sb.dealt, sb.proposal)


# ----- new game ----------------------------------------------------------------------------
def test_new_game_questions_then_setup_walkthrough():
    c = Controller(random.Random(7))
    assert c.screen().name == "players"
    feed(c, "3#")
    assert c.screen().name == "first"
    feed(c, "0#")  # draw at random
    assert c.screen().name == "bots" and c.screen().choices[-1] == "Start"
    feed(c, "#")  # no bots: Start is highlighted
    effects = c.pop_effects()
    assert [type(e) for e in effects] == [Persist] and effects[0].new_game  # one new journal entry
    actions = actions_of(effects)
    assert [a["a"] for a in actions] == ["players", "new"]
    new = actions[1]
    assert new["players"] == 3 and 0 <= new["first"] < 3 and new["drawn"] is True
    check_setup({int(t): col for t, col in new["setup"].items()})  # a valid R1 setup
    json.dumps(actions)  # JSON-safe
    s = c.screen()
    assert s.name == "setup" and f"P{new['first'] + 1} starts" in " ".join(s.lines)
    feed(c, "#")
    s = c.screen()
    assert s.name == "setup-region" and s.title.startswith("Region 1")
    t1 = c.game.board.territories[1]
    assert s.lines[0].split() == ["1", t1.terrain, new["setup"]["1"]]
    feed(c, "A#")  # back and forth
    assert c.screen().title.startswith("Region 1")
    feed(c, "#" * 11)
    assert c.screen().title.startswith("Region 12")
    feed(c, "#")  # the clan cards: the table deals them
    assert c.screen().name == "clan-cards" and c.mode() == "setup"
    feed(c, "#")
    assert c.mode() == "move" and quiet(c.pop_effects()) == [Persist("clans", ({"a": "ready"},), False)]


def test_start_player_can_be_chosen_and_seed_is_deterministic():
    a, b = Controller(random.Random(3)), Controller(random.Random(3))
    feed(a, "4#3##")
    feed(b, "4#3##")
    na, nb = persisted(a)[1], persisted(b)[1]
    assert na == nb and na["first"] == 2 and na["drawn"] is False and na["players"] == 4


def test_players_question_refuses_other_numbers():
    c = Controller(random.Random(1))
    feed(c, "5")
    assert c.screen().hint
    feed(c, "B#")
    assert persisted(c) == [{"a": "players", "n": 3}]


def test_quick_start_and_back_from_first_question():
    c = Controller.quick_start(2, random.Random(5))
    assert c.mode() == "move" and c.game.players == 2
    d = Controller(random.Random(1))
    feed(d, "2#*")
    assert d.mode() == "players"


# ----- moves -------------------------------------------------------------------------------
def test_legal_move_tells_what_to_do_and_next_digit_starts_entry():
    c = loaded("in-progress")
    g = c.game
    frm = g.movable()[0]
    to = g.targets(frm)[0]
    n = g.total[frm]
    persisted(c)
    feed(c, f"{frm}#")
    assert c.screen().entry.startswith(f"{frm} -> ")
    feed(c, f"{to}#")
    assert persisted(c) == [{"a": "move", "from": frm, "to": to}]
    s = c.screen()
    assert s.name in ("result", "village")
    if s.name == "village":  # a whole message
        assert f"Move {n} hut" in " ".join(s.lines) and f"{frm} -> {to}" in " ".join(s.lines)
    else:  # a plain move: in the next mover's entry screen (tests/games/clans/test_result_in_entry.py)
        assert s.entry == f"{frm} -> {to}" and s.hint.startswith("P1 moved ")
        assert sum(int(h[:-3]) for h in s.hint.split()[2:]) == n
    feed(c, "1")
    s = c.screen()
    assert s.name == "entry" and s.entry == "1_"


def test_illegal_move_says_why_changes_nothing_and_keeps_next_key():
    c = loaded("in-progress")
    before = c.game.state_key()
    persisted(c)
    feed(c, "1#60#")
    s = c.screen()
    assert s.name == "illegal" and "not next to" in " ".join(s.lines)
    said = c.pop_effects()  # nothing journaled: the refusal is only heard
    assert c.game.state_key() == before and quiet(said) == [] and [a.event for a in said] == ["refused", "illegal"]
    feed(c, "2")
    assert c.screen().name == "entry" and c.screen().entry == "2_"


@pytest.mark.parametrize("src, words", [("99", "not a territory"), ("0", "not a territory")])
def test_bad_source_refused_at_its_ok(src, words):
    c = loaded("in-progress")
    feed(c, src + "#")
    s = c.screen()
    assert s.name == "illegal" and words in " ".join(s.lines)
    feed(c, "*")  # dismisses only
    assert c.screen().name == "entry" and c.screen().entry == "_"


def test_empty_source_refused():
    c = loaded("in-progress")
    empty = next(t for t in range(1, 61) if c.game.total[t] == 0)
    feed(c, f"{empty}#")
    assert "empty" in " ".join(c.screen().lines)


def test_back_clears_entry_and_digits_are_capped():
    c = loaded("in-progress")
    feed(c, "123")
    assert c.screen().entry == "12_"
    feed(c, "*")
    assert c.screen().entry == "_"


def test_buttons_only_browse_offers_only_legal_choices():
    c = loaded("in-progress")
    g = c.game
    movable = g.movable()
    feed(c, "B")
    assert c.screen().entry == f"{movable[0]}_"
    feed(c, "BA")
    assert c.screen().entry == f"{movable[0]}_"
    feed(c, "A")
    assert c.screen().entry == f"{movable[-1]}_"
    feed(c, "B#")
    frm = movable[0]
    targets = g.targets(frm)
    feed(c, "B")
    assert c.screen().entry == f"{frm} -> {targets[0]}_"
    persisted(c)
    feed(c, "#")
    assert persisted(c) == [{"a": "move", "from": frm, "to": targets[0]}]


def test_undo_restores_exactly_and_says_where_huts_go():
    c = loaded("in-progress")
    before = c.game.state_key()
    g = c.game
    frm = g.movable()[0]
    to = g.targets(frm)[0]
    feed(c, f"{frm}#{to}#")
    persisted(c)
    feed(c, "C")
    assert c.screen().name == "undo?"
    feed(c, "*")
    assert c.game.ply == 21 and c.pop_effects() == []
    feed(c, "C#")
    assert persisted(c) == [{"a": "undo"}]
    assert c.game.state_key() == before
    text = " ".join(c.screen().lines)
    assert f"back from {to} onto {frm}" in text
    feed(c, "C#")  # again: undo the record's own 20th move
    assert c.game.ply == 19


def test_undo_with_no_move():
    c = Controller.quick_start(3, random.Random(2))
    feed(c, "C")
    assert c.screen().name == "no-undo" and persisted(c)[-1] == {"a": "ready"}


def test_undo_of_villages_puts_strife_and_destroyed_huts_back():
    rec = example("destroyed")
    c = Controller.from_record(Record(rec.players, rec.first_player, rec.setup, rec.moves))
    g = c.game
    # find the last move that destroyed a village or had strife, and undo back to it
    target = max(i for i in range(g.ply) if any(v.destroyed or v.removed for v in g.outcome(i).villages))
    while g.ply > target + 1:
        feed(c, "C#")
    outcome = g.outcome()
    feed(c, "C#")
    text = " ".join(" ".join(p) for p in c.info.pages)
    for v in outcome.villages:
        assert f"Village {v.territory} undone" in text
        if v.destroyed:
            assert f"Put back on {v.territory}:" in text
        elif v.removed:
            assert f"huts back on {v.territory}" in text


# ----- villages, order, epochs, end --------------------------------------------------------
def test_order_question_only_while_it_matters_and_resumes_from_actions():
    rec = example("order-matters")
    idx = next(i for i, m in enumerate(rec.moves) if m.order == (37, 29))
    c = loaded("order-matters", idx)
    persisted(c)
    feed(c, "30#29#")
    s = c.screen()
    assert s.name == "order" and "Choose: 29 37" in " ".join(s.lines)
    assert persisted(c) == [{"a": "pending", "from": 30, "to": 29}]
    # a power cut here: rebuilt from the journal, the same question is pending
    journal = [{"a": "load", "record": {**Record(rec.players, rec.first_player, rec.setup,
                                                 rec.moves[:idx]).to_dict()}},
               {"a": "pending", "from": 30, "to": 29}]
    r = Controller.from_actions(journal)
    assert r.screen().name == "order" and r.screen().lines == s.lines
    feed(c, "12#")
    wrong = c.screen()
    assert wrong.name == "order" and wrong.title == "12 is not one of them"
    assert wrong.lines == s.lines  # the note is in the title: the choices stay on screen
    feed(c, "37#")
    acts = persisted(c)
    assert acts == [{"a": "pick", "t": 37}, {"a": "move", "from": 30, "to": 29, "order": [37, 29]}]
    full = example("order-matters")
    full.moves = full.moves[:idx + 1]
    assert c.game.state_key() == full.play().state_key()


def test_order_question_back_cancels_the_move():
    rec = example("order-matters")
    idx = next(i for i, m in enumerate(rec.moves) if m.order == (37, 29))
    c = loaded("order-matters", idx)
    before = c.game.state_key()
    feed(c, "30#29#**")
    assert c.game.state_key() == before and c.state.pending is None and c.mode() == "move"


def play_random_game(c: Controller, rnd: random.Random, texts: list[str]) -> None:
    """Play legal moves through the keys until the game ends; answer order questions."""
    while not c.game.is_over:
        frm, to = c.game.random_move(rnd.random)
        feed(c, f"{frm}#{to}#")
        while c.mode() == "order":
            remaining = c.order_choices()
            feed(c, f"{rnd.choice(remaining)}#")
        if c.info.shown:
            texts.append(" ".join(" ".join(p) for p in c.info.pages))


def test_whole_game_announces_epochs_and_the_12th_village():
    for seed in range(40):
        rnd = random.Random(seed)
        c = Controller.quick_start(3, random.Random(seed))
        texts: list[str] = []
        play_random_game(c, rnd, texts)
        if c.game.status == "finished":
            break
    else:
        pytest.fail("no finished game in 40 seeds")
    joined = "\n".join(texts)
    assert "Epoch II begins: favorable mountain +2, hostile grassland." in joined
    assert "12th village: +5!" in joined
    assert "Game over: the 12th village is founded." in joined
    # the record replays to the same position
    assert c.record().play().state_key()[:-1] == c.game.state_key()[:-1]


def test_reveal_refuses_given_colors_then_final_and_new_game():
    rec = example("13th-village")
    c = loaded("13th-village")
    assert c.mode() == "reveal" and c.screen().title == "P1: your color?"
    order = [COLORS.index(col) + 1 for col in rec.colors]
    feed(c, f"{order[0]}#")
    feed(c, f"{order[0]}#")  # the same color again: refused
    assert c.screen().name == "refused"
    feed(c, f"{order[1]}#")  # the refusal does not swallow the digit
    assert c.state.colors == rec.colors[:2]
    feed(c, "9#")
    assert "1-5" in " ".join(c.screen().lines)
    feed(c, "*")  # nothing typed: takes back P2's color
    assert c.state.colors == rec.colors[:1]
    persisted(c)
    for d in order[1:]:
        feed(c, f"{d}#")
    assert c.mode() == "final"
    over = [e for e in c.pop_effects() if isinstance(e, GameOver)]  # the history hears of it once
    assert over == [GameOver("clans", c.finished_result())]
    expected = json.loads((EXAMPLES / "13th-village.expected.json").read_text())
    text = " ".join(" ".join(lines) for _name, _title, lines in final_pages(c.state))
    assert "Game over: the 12th village is founded." in text
    for i, total in enumerate(expected["totals"]):
        assert f"={total}" in text
    assert f"Winner: P{expected['winners'][0] + 1}!" in text
    assert c.record().colors == rec.colors
    assert summary(c.record().play(), c.record().colors)["winners"] == expected["winners"]
    feed(c, "#")
    assert c.screen().name == "players"
    feed(c, "#0##")
    assert c.mode() == "setup" and c.game.ply == 0 and c.game.players == 3


def test_stalled_game_reason():
    c = loaded("stalled")
    for d in "1234":
        feed(c, f"{d}#")
    assert c.mode() == "final"
    assert "has no legal move" in " ".join(c.screen().lines)


def test_record_with_colors_goes_straight_to_final():
    c = Controller.from_record(example("stalled"))
    assert c.mode() == "final"


# ----- menu (the table's frame around the game's items) ----------------------------------------
MENU = ("1 New game", "2 Undo last move", "3 Hint", "4 Scores", "5 Huts on territory", "6 Brightness",
        "7 Play Mammut", "8 Language", "9 Shut down", "10 About", "11 Sound", "12 Say again", "13 Phone view")


def test_menu_scores_huts_brightness_shutdown():
    c = loaded("in-progress")
    persisted(c)
    s = shell_of(c)
    feed(s, "D")
    assert s.screen().name == "menu" and s.screen().choices == MENU
    feed(s, "4#")
    assert s.screen().name == "scores" and s.screen().lines[0].split()[:2] == ["red", "0"]
    feed(s, "D5#")
    feed(s, "13#")
    lines = " ".join(s.screen().lines)
    assert "13:" in lines and c.game.board.territories[13].terrain in lines
    feed(s, "B")
    assert "14:" in " ".join(s.screen().lines)
    feed(s, "*")
    assert c.mode() == "move" and c.ui.overlay is None and s.question is None
    feed(s, "D6#2#")
    assert s.brightness == 2 and s.pop_effects() == [SetBrightness(2)]  # the daemon journals it
    feed(s, "D9#*")
    assert not s.shutting_down
    feed(s, "D9##")
    assert s.shutting_down and s.screen().name == "bye" and s.pop_effects() == [PowerOff()]


def test_menu_other_game_asks_before_abandoning_a_game():
    c = loaded("in-progress")
    persisted(c)
    s = shell_of(c)
    feed(s, "D7#")
    assert s.screen().name == "switch?" and s.kind == "clans"
    feed(s, "*")
    assert s.question is None and c.ui.overlay is None and s.kind == "clans" and c.mode() == "move"
    feed(s, "D7##")
    assert s.kind == "mammut" and s.pop_effects() == [SwitchGame("mammut")]  # nothing journaled
    fresh = shell_of(Controller(random.Random(1)))
    feed(fresh, "D7#")  # no game yet: no question
    assert fresh.kind == "mammut"


def test_menu_new_game_asks_first():
    c = loaded("in-progress")
    s = shell_of(c)
    feed(s, "D1#")
    assert s.screen().name == "new?"
    feed(s, "D")  # the game's own question: D does nothing here
    assert s.screen().name == "new?"
    feed(s, "*")
    assert c.mode() == "move"
    feed(s, "D1##")
    assert s.screen().name == "players"
    feed(s, "*")  # changed our mind: the game goes on
    assert c.mode() == "move" and c.game.ply == 20
    fresh = Controller(random.Random(1))
    feed(fresh, "2#0##")  # at the setup walkthrough: nothing played yet, so no question
    c.menu_choose(0)
    fresh.menu_choose(0)
    assert c.screen().name == "new?" and fresh.screen().name == "players"


def test_power_key_asks_for_shutdown():
    c = loaded("in-progress")
    s = shell_of(c)
    feed(s, ["POWER"])
    assert s.screen().name == "shutdown?"
    feed(s, "#")
    assert s.shutting_down and PowerOff() in s.pop_effects()


@pytest.mark.parametrize("opens, shown", [("D5#", "huts"), ("C", "undo?"), ("1#60#", "illegal")])
def test_power_key_replaces_the_games_question_or_message(opens, shown):
    c = loaded("in-progress")
    s = shell_of(c)
    feed(s, opens)
    assert s.screen().name == shown
    feed(s, ["POWER"])
    assert s.screen().name == "shutdown?"
    feed(s, "*")  # no: back at the move entry, the question (or message) gone
    assert s.screen().name == "entry" and c.ui.overlay is None and not c.info.shown


def test_long_messages_page_with_a_b():
    c = loaded("in-progress")
    c.session.show("Long", ["word " * 60], "long")
    s = c.screen()
    assert s.pages > 1 and s.page == 0
    feed(c, "B")
    assert c.screen().page == 1
    feed(c, "A")
    assert c.screen().page == 0
    feed(c, "7")
    assert c.screen().name == "entry" and c.screen().entry == "7_"


# ----- journal ---------------------------------------------------------------------------------
def test_from_actions_rejects_nonsense():
    with pytest.raises(ActionError):
        Controller.from_actions([{"a": "move", "from": 1, "to": 2}])
    with pytest.raises(ActionError):
        Controller.from_actions([{"a": "frobnicate"}])
    with pytest.raises(ActionError):
        Controller.from_actions([{"nope": 1}])


KEYS = list("0123456789#*ABCD") + ["POWER", "", "x", "##", None]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), keys=st.lists(st.sampled_from(KEYS), max_size=400))
def test_key_storm_never_crashes_and_journal_rebuilds_state(seed, keys):
    c = Controller(random.Random(seed))
    s = shell_of(c, random.Random(seed))
    journal: list[dict] = []
    levels: list[int] = []
    for k in ["3", "#", "#", "#"] + ["#"] * 14 + keys:
        if s.kind != "clans":
            break  # the table plays Mammut now: this game is left as it was
        s.handle(k, 1.0)
        effects = s.pop_effects()
        journal += actions_of(effects)
        levels += [e.level for e in effects if isinstance(e, SetBrightness)]
        s.screen()
    journal = json.loads(json.dumps(journal))
    assert_same_state(c, Controller.from_actions(journal))
    assert s.brightness == (levels[-1] if levels else DEFAULT_BRIGHTNESS)
    rec = c.record()
    if rec is not None:  # every move taken is legal and replays
        assert rec.play().state_key()[:-1] == c.game.state_key()[:-1]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), keys=st.lists(st.sampled_from(list("0123456789#*ABC")), max_size=300))
def test_storm_on_a_loaded_game_rebuilds(seed, keys):
    c = loaded("in-progress")
    journal = persisted(c)
    for k in keys:
        c.handle(k, 0.0)
        journal += persisted(c)
    assert_same_state(c, Controller.from_actions(journal))


def test_same_keys_same_actions():
    keys = "3#0##" + "#" * 14 + "1#2#ABB#B#C#D4#"
    a, b = Controller(random.Random(11)), Controller(random.Random(11))
    feed(shell_of(a), keys)
    feed(shell_of(b), keys)
    assert a.screen().name == b.screen().name == "scores"
    assert persisted(a) == persisted(b)
    assert a.record().to_json() == b.record().to_json()


def test_screens_are_pure():
    c = loaded("in-progress")
    feed(c, "1")
    s1, s2 = c.screen(), c.screen()
    assert s1 == s2 and persisted(c)[-1]["a"] == "load"


def test_game_matches_engine_for_record_moves():
    rec = example("destroyed")
    c = loaded("destroyed", 0)
    for m in rec.moves:
        feed(c, f"{m.frm}#{m.to}#")
        if c.mode() == "order":
            for t in m.order:
                if c.mode() != "order":
                    break
                if t in c.order_choices():
                    feed(c, f"{t}#")
    assert c.game.state_key()[:-1] == rec.play().state_key()[:-1]
    assert isinstance(c.game, Game)
