"""The controller as a pure state machine: keys in, actions and screens out, rebuilt from actions."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from companion.games.clans.controller import ActionError, Controller
from companion.games.clans.board import COLORS
from companion.games.clans.game import Game, check_setup
from companion.games.clans.record import Record, summary

EXAMPLES = Path(__file__).resolve().parents[4] / "shared" / "spec" / "examples"
if not EXAMPLES.exists():  # CI clones main with shared/ beside it
    EXAMPLES = Path("/work/shared/spec/examples")


def feed(c: Controller, keys: str | list[str]) -> None:
    for k in keys:
        c.handle(k, 0.0)


def example(name: str) -> Record:
    return Record.load(EXAMPLES / f"{name}.record.json")


def loaded(name: str, upto: int | None = None) -> Controller:
    rec = example(name)
    rec.moves = rec.moves[:upto]
    rec.colors = None
    return Controller.from_record(rec)


def assert_same_state(a: Controller, b: Controller) -> None:
    assert (a.game is None) == (b.game is None)
    if a.game is not None:
        assert a.game.state_key() == b.game.state_key()
    assert (a.mode(), a.pending, a.picks, a.colors, a.brightness, a.players_choice, a.ready) == \
           (b.mode(), b.pending, b.picks, b.colors, b.brightness, b.players_choice, b.ready)
    assert (a.bots, a.dealt, a.proposal) == (b.bots, b.dealt, b.proposal)


# ----- new game ----------------------------------------------------------------------------
def test_new_game_questions_then_setup_walkthrough():
    c = Controller(random.Random(7))
    assert c.screen().name == "players"
    feed(c, "3#")
    assert c.screen().name == "first"
    feed(c, "0#")  # draw at random
    assert c.screen().name == "bots" and c.screen().choices[-1] == "Start"
    feed(c, "#")  # no bots: Start is highlighted
    actions = c.pop_actions()
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
    feed(c, "#")
    assert c.mode() == "move" and c.pop_actions() == [{"a": "ready"}]


def test_start_player_can_be_chosen_and_seed_is_deterministic():
    a, b = Controller(random.Random(3)), Controller(random.Random(3))
    feed(a, "4#3##")
    feed(b, "4#3##")
    na, nb = a.pop_actions()[1], b.pop_actions()[1]
    assert na == nb and na["first"] == 2 and na["drawn"] is False and na["players"] == 4


def test_players_question_refuses_other_numbers():
    c = Controller(random.Random(1))
    feed(c, "5")
    assert c.screen().hint
    feed(c, "B#")
    assert c.pop_actions() == [{"a": "players", "n": 3}]


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
    c.pop_actions()
    feed(c, f"{frm}#")
    assert c.screen().entry.startswith(f"{frm} -> ")
    feed(c, f"{to}#")
    assert c.pop_actions() == [{"a": "move", "from": frm, "to": to}]
    s = c.screen()
    assert s.name in ("result", "village")
    assert f"Move {n} hut" in " ".join(s.lines) and f"{frm} -> {to}" in " ".join(s.lines)
    feed(c, "1")
    s = c.screen()
    assert s.name == "entry" and s.entry == "1_"


def test_illegal_move_says_why_changes_nothing_and_keeps_next_key():
    c = loaded("in-progress")
    before = c.game.state_key()
    c.pop_actions()
    feed(c, "1#60#")
    s = c.screen()
    assert s.name == "illegal" and "not next to" in " ".join(s.lines)
    assert c.game.state_key() == before and c.pop_actions() == []
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
    c.pop_actions()
    feed(c, "#")
    assert c.pop_actions() == [{"a": "move", "from": frm, "to": targets[0]}]


def test_undo_restores_exactly_and_says_where_huts_go():
    c = loaded("in-progress")
    before = c.game.state_key()
    g = c.game
    frm = g.movable()[0]
    to = g.targets(frm)[0]
    feed(c, f"{frm}#{to}#")
    c.pop_actions()
    feed(c, "C")
    assert c.screen().name == "undo?"
    feed(c, "*")
    assert c.game.ply == 21 and c.pop_actions() == []
    feed(c, "C#")
    assert c.pop_actions() == [{"a": "undo"}]
    assert c.game.state_key() == before
    text = " ".join(c.screen().lines)
    assert f"back from {to} onto {frm}" in text
    feed(c, "C#")  # again: undo the record's own 20th move
    assert c.game.ply == 19


def test_undo_with_no_move():
    c = Controller.quick_start(3, random.Random(2))
    feed(c, "C")
    assert c.screen().name == "no-undo" and c.pop_actions()[-1] == {"a": "ready"}


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
    text = " ".join(" ".join(p) for p in c.info[1])
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
    c.pop_actions()
    feed(c, "30#29#")
    s = c.screen()
    assert s.name == "order" and "Choose: 29 37" in " ".join(s.lines)
    assert c.pop_actions() == [{"a": "pending", "from": 30, "to": 29}]
    # a power cut here: rebuilt from the journal, the same question is pending
    journal = [{"a": "load", "record": {**Record(rec.players, rec.first_player, rec.setup,
                                                 rec.moves[:idx]).to_dict()}},
               {"a": "pending", "from": 30, "to": 29}]
    r = Controller.from_actions(journal)
    assert r.screen().name == "order" and r.screen().lines == s.lines
    feed(c, "12#")
    assert c.screen().name == "order" and "not one of them" in " ".join(c.screen().lines)
    feed(c, "37#")
    acts = c.pop_actions()
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
    assert c.game.state_key() == before and c.pending is None and c.mode() == "move"


def play_random_game(c: Controller, rnd: random.Random, texts: list[str]) -> None:
    """Play legal moves through the keys until the game ends; answer order questions."""
    while not c.game.is_over:
        frm, to = c.game.random_move(rnd.random)
        feed(c, f"{frm}#{to}#")
        while c.mode() == "order":
            remaining = c._remaining()
            feed(c, f"{rnd.choice(remaining)}#")
        if c.info:
            texts.append(" ".join(" ".join(p) for p in c.info[1]))


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
    assert c.colors == rec.colors[:2]
    feed(c, "9#")
    assert "1-5" in " ".join(c.screen().lines)
    feed(c, "*")  # nothing typed: takes back P2's color
    assert c.colors == rec.colors[:1]
    for d in order[1:]:
        feed(c, f"{d}#")
    assert c.mode() == "final"
    expected = json.loads((EXAMPLES / "13th-village.expected.json").read_text())
    text = " ".join(" ".join(p) for p in c._final_pages())
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


# ----- menu --------------------------------------------------------------------------------
def test_menu_scores_huts_brightness_shutdown():
    c = loaded("in-progress")
    c.pop_actions()
    feed(c, "D")
    assert c.screen().name == "menu"
    feed(c, "4#")
    assert c.screen().name == "scores" and c.screen().lines[0].split()[:2] == ["red", "0"]
    feed(c, "D5#")
    feed(c, "13#")
    lines = " ".join(c.screen().lines)
    assert "13:" in lines and c.game.board.territories[13].terrain in lines
    feed(c, "B")
    assert "14:" in " ".join(c.screen().lines)
    feed(c, "*")
    assert c.mode() == "move" and c.overlay is None
    feed(c, "D6#2#")
    assert c.brightness == 2 and c.pop_actions() == [{"a": "brightness", "level": 2}]
    feed(c, "D8#*")
    assert not c.shutdown_requested
    feed(c, "D8##")
    assert c.shutdown_requested and c.screen().name == "bye"


def test_menu_other_game_asks_before_abandoning_a_game():
    c = loaded("in-progress")
    c.pop_actions()
    feed(c, "D7#")
    assert c.screen().name == "switch?" and c.switch_game is None
    feed(c, "*")
    assert c.overlay is None and c.switch_game is None and c.mode() == "move"
    feed(c, "D7##")
    assert c.switch_game == "mammut" and c.pop_actions() == []  # nothing journaled: the daemon swaps controllers
    fresh = Controller(random.Random(1))
    feed(fresh, "D7#")  # no game yet: no question
    assert fresh.switch_game == "mammut"


def test_menu_new_game_asks_first():
    c = loaded("in-progress")
    feed(c, "D1#")
    assert c.screen().name == "new?"
    feed(c, "*")
    assert c.mode() == "move"
    feed(c, "D1##")
    assert c.screen().name == "players"
    feed(c, "*")  # changed our mind: the game goes on
    assert c.mode() == "move" and c.game.ply == 20


def test_power_key_asks_for_shutdown():
    c = loaded("in-progress")
    feed(c, ["POWER"])
    assert c.screen().name == "shutdown?"
    feed(c, "#")
    assert c.shutdown_requested


def test_long_messages_page_with_a_b():
    c = loaded("in-progress")
    c._show("Long", ["word " * 60], "long")
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
    journal: list[dict] = []
    for k in ["3", "#", "#", "#"] + ["#"] * 13 + keys:
        c.handle(k, 1.0)
        journal += c.pop_actions()
        c.screen()
    journal = json.loads(json.dumps(journal))
    assert_same_state(c, Controller.from_actions(journal))
    rec = c.record()
    if rec is not None:  # every move taken is legal and replays
        assert rec.play().state_key()[:-1] == c.game.state_key()[:-1]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), keys=st.lists(st.sampled_from(list("0123456789#*ABC")), max_size=300))
def test_storm_on_a_loaded_game_rebuilds(seed, keys):
    c = loaded("in-progress")
    journal = c.pop_actions()
    for k in keys:
        c.handle(k, 0.0)
        journal += c.pop_actions()
    assert_same_state(c, Controller.from_actions(journal))


def test_same_keys_same_actions():
    keys = "3#0##" + "#" * 13 + "1#2#ABB#B#C#D4#"
    a, b = Controller(random.Random(11)), Controller(random.Random(11))
    feed(a, keys)
    feed(b, keys)
    assert a.pop_actions() == b.pop_actions()
    assert a.record().to_json() == b.record().to_json()


def test_screens_are_pure():
    c = loaded("in-progress")
    feed(c, "1")
    s1, s2 = c.screen(), c.screen()
    assert s1 == s2 and c.pop_actions()[-1]["a"] == "load"


def test_game_matches_engine_for_record_moves():
    rec = example("destroyed")
    c = loaded("destroyed", 0)
    for m in rec.moves:
        feed(c, f"{m.frm}#{m.to}#")
        if c.mode() == "order":
            remaining = c._remaining()
            for t in m.order:
                if c.mode() != "order":
                    break
                if t in c._remaining():
                    feed(c, f"{t}#")
    assert c.game.state_key()[:-1] == rec.play().state_key()[:-1]
    assert isinstance(c.game, Game)
