"""Bots at the table: the Bots? question, the deal of secret colors, bot turns, hints, the end.

The controller is driven by keys (the D menu through the table's Shell); a bot's turn and
a hint are `Search` and `Hint` effects, answered here as the daemon answers them, or by the
daemon itself (built from its command line). Bot moves are checked to be proposed, made
with #, journaled and replayed; the bots' colors must never be paired with their seats on
a screen before the end.
"""

from __future__ import annotations

import json
import logging
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from tests.games.clans.clans_helpers import (EXAMPLES, actions_of, answer, feed, persisted, play_out, random_answers, searches_of,
                           shell_of)
from companion.kiosk import daemon, loop
from companion.games import find_game
from companion.games.clans import keys_setup
from companion.games.clans.bots import RandomBot
from companion.games.clans.bots.runner import BotRunner
from companion.games.clans.board import COLORS
from companion.games.clans.controller import ActionError, Controller
from companion.games.clans.game import Game, Move
from companion.games.clans.record import Record, summary
from companion.games.clans.screens import final_pages
from companion.table import screen as S
from companion.table.effects import GameOver, Hint, Persist
from companion.table.shell import Shell
from companion.journal.store import Journal
from tests.support import quiet

ROOT = Path(__file__).resolve().parents[3]
IN_PROGRESS = EXAMPLES / "in-progress.record.json"


def new_action(c: Controller) -> dict:
    return next(a for a in persisted(c) if a["a"] == "new")


def build(tmp_path: Path, *argv: str, keys: str = "") -> loop.Daemon:
    path = tmp_path / f"keys{len(list(tmp_path.glob('keys*')))}"
    path.write_text(keys)
    return daemon.build(daemon.parse_args(["--display", "dummy", "--keys", str(path), *argv]))


def pairs_seat_with_color(text: str, seat: int, color: str) -> bool:
    """True when one line names the seat (P2) and its color, in either order."""
    who = f"P{seat + 1}"
    return any(re.search(rf"\b{who}\b.*\b{color}\b|\b{color}\b.*\b{who}\b", line, re.IGNORECASE)
               for line in text.splitlines())


# ----- the Bots? question and the deal ---------------------------------------------------------
def test_bots_question_with_digits_then_the_deal():
    c = Controller(random.Random(4))
    feed(c, "4#0#")
    s = c.screen()
    assert s.name == "bots" and s.choices[-2:] == ("0 teach rules: no", "Start") and s.selected == 5
    assert s.choices[:4] == ("1 P1 person", "2 P2 person", "3 P3 person", "4 P4 person")
    feed(c, "24")
    assert c.screen().choices[1] == "2 P2 bot normal" and c.screen().choices[3] == "4 P4 bot normal"
    said = [e.fields for e in c.pop_effects() if getattr(e, "event", None) == "seat-kind"]
    assert said == [{"seat": 1, "level": "normal"}, {"seat": 3, "level": "normal"}]
    feed(c, "2")  # the digit again: the next level
    assert c.screen().choices[1] == "2 P2 bot hard"
    feed(c, "13")  # all four bots would leave nobody: the last person stays
    assert c.ui.bot_choice == ["normal", "hard", None, "normal"] and "person" in c.screen().hint
    feed(c, "1")  # normal -> hard -> easy -> person: seat 1 is a person again
    assert c.ui.bot_choice[0] == "hard"
    feed(c, "11")
    assert c.ui.bot_choice[0] is None
    feed(c, "2222#")  # seat 2 hard -> easy -> person -> normal -> hard
    new = new_action(c)
    assert set(new["bots"]) == {"1", "3"} and set(new["dealt"]) == {"0", "2"}
    assert new["levels"] == {"1": "hard", "3": "normal"} and c.state.levels == {1: "hard", 3: "normal"}
    assert c.seats() == [None, "hard", None, "normal"]
    colors = list(new["bots"].values()) + list(new["dealt"].values())
    assert len(set(colors)) == 4 and set(colors) <= set(COLORS)
    assert c.state.bots == {1: new["bots"]["1"], 3: new["bots"]["3"]}
    # the deal: each person alone with the box, persons only
    for seat in (0, 2):
        s = c.screen()
        assert s.name == "deal" and f"P{seat + 1}: take the box" in " ".join(s.lines)
        assert not any(col in s.text().lower() for col in COLORS)
        feed(c, "1*AB")  # nothing but # goes on
        assert c.screen() == s
        feed(c, "#")
        s = c.screen()
        assert s.name == "deal-color"
        assert f"P{seat + 1}, your clan: {new['dealt'][str(seat)].upper()}." in " ".join(s.lines)
        feed(c, "#")
    assert c.screen().name == "setup"  # then the walkthrough, as without bots
    feed(c, "#" * 13)
    assert c.screen().name == "clan-cards" and "Leave the clan cards" in " ".join(c.screen().lines)
    assert not c.state.ready
    feed(c, "#")
    effects = c.pop_effects()
    assert c.state.ready and actions_of(effects) == [{"a": "ready"}]
    bot_turn = c.game.to_move in (1, 3)
    assert c.mode() == ("bot" if bot_turn else "move")
    assert [(e.seat, e.secret, e.level) for e in searches_of(effects)] == \
           ([(c.game.to_move, c.state.bots[c.game.to_move], c.state.levels[c.game.to_move])] if bot_turn else [])


def test_bots_question_with_a_b_and_ok_only_and_back():
    c = Controller(random.Random(2))
    feed(c, "BB#")  # 4 players
    feed(c, "#")  # the start player is drawn
    feed(c, "BB#")  # highlight wraps from Start to P1, then P2: toggled
    assert c.ui.bot_choice == [None, "normal", None, None]
    feed(c, "*")  # back to "Who starts?", nothing journaled
    assert c.screen().name == "first" and persisted(c) == [{"a": "players", "n": 4}]
    feed(c, "#BBB#A#")  # again: P3 toggled, then up to P2... # toggles P2
    assert c.ui.bot_choice == [None, "normal", "normal", None]
    feed(c, "AA#")  # up: P1, Start
    assert c.state.bots.keys() == {1, 2} and c.screen().name == "deal"


def test_no_bots_game_is_exactly_as_before():
    c = Controller(random.Random(7))
    feed(c, "3#0##")
    new = new_action(c)
    assert set(new) == {"a", "players", "first", "drawn", "setup"}
    plain = Controller(random.Random(7))  # the same draws as a quick start without bots
    plain.session.do({"a": "players", "n": 3})
    keys_setup.new_game(plain.session, None)
    assert new_action(plain) == new
    assert c.screen().name == "setup" and not c.state.bots and not c.state.dealt


def test_deal_starts_again_after_a_rebuild_and_bad_seat_maps_are_refused():
    c = Controller.quick_start(3, random.Random(5), bots=[0])
    actions = persisted(c)
    assert [a["a"] for a in actions] == ["players", "new"]  # the quick start plays after the deal
    feed(c, "##")
    assert c.screen().name == "deal" and "P3" in c.screen().title
    rebuilt = Controller.from_actions(actions)
    assert rebuilt.screen().name == "deal" and "P2" in rebuilt.screen().title
    feed(c, "##")
    assert actions_of(c.pop_effects()) == [{"a": "ready"}]
    new = actions[1]
    for bad in ({"bots": {"0": "red"}, "dealt": {"1": "red", "2": "blue"}},  # a color twice
                {"bots": {"0": "red", "1": "blue", "2": "green"}, "dealt": {}},  # no person
                {"bots": {"0": "red"}, "dealt": {"1": "blue"}},  # a seat missing
                {"bots": {"0": "pink"}, "dealt": {"1": "blue", "2": "green"}},
                {"bots": {"0": "red"}}):
        with pytest.raises(ActionError) as refused:
            Controller.from_actions([actions[0], {**{k: v for k, v in new.items() if k not in ("bots", "dealt")},
                                                  **bad}])
        # the message reaches the log and the repaired-journal screen: it pairs no seat with its color
        message = str(refused.value)
        assert "'bots': {" not in message and "'dealt': {" not in message, message
        assert not any(f"'{seat}': '{color}'" in message
                       for part in ("bots", "dealt") for seat, color in bad.get(part, {}).items()), message
    with pytest.raises(ValueError):
        Controller.quick_start(2, random.Random(1), bots=[0, 1])


# ----- a bot's turn in the controller -------------------------------------------------------------
def bot_first_controller(players: int = 3, seed: int = 0) -> Controller:
    """A quick start where P1 is a bot and starts; the deal done."""
    c = Controller.quick_start(players, random.Random(seed), first=0, bots=[0])
    feed(c, "##" * (players - 1))
    assert c.mode() == "bot"
    return c


def test_bot_turn_proposal_then_ok_plays_it_and_undo_asks_again():
    c = bot_first_controller()
    effects = c.pop_effects()
    journal = actions_of(effects)
    (search,) = searches_of(effects)
    seat, color = search.seat, search.secret
    assert seat == 0 and color == c.state.bots[0] and search.position.state_key() == c.game.state_key()
    s = c.screen()
    assert s.name == "bot-thinking" and "P1 (bot)" in s.title
    feed(c, "12#")  # digits do not enter a human move on a bot's turn; the search is not asked twice
    assert c.screen() == s and c.pop_effects() == []
    move = RandomBot().choose(c.game.copy(), seat, color, random.Random(1))
    c.deliver(search, move)
    effects = c.pop_effects()
    journal += actions_of(effects)
    assert journal[-1] == {"a": "bot", "from": move.frm, "to": move.to}
    assert not searches_of(effects)
    s = c.screen()
    assert s.name == "bot-move" and s.title == "P1 (bot) moves"
    assert f"{move.frm} -> {move.to}" in " ".join(s.lines) and "then #." in " ".join(s.lines)
    c.deliver(search, move)  # an answer delivered twice is dropped
    assert c.pop_effects() == []
    # a rebuild shows the same proposal, no new search
    again = Controller.from_actions(journal)
    assert again.screen() == s and not searches_of(again.pop_effects())
    feed(c, "34")
    assert c.screen() == s
    feed(c, "#")
    assert quiet(c.pop_effects()) == [Persist("clans", ({"a": "move", "from": move.frm, "to": move.to},))]
    assert c.screen().name in ("result", "village") and c.mode() == "move" and c.game.to_move == 1
    feed(c, "C#")  # undo the bot's move: the bot is asked again
    effects = c.pop_effects()
    assert c.mode() == "bot" and c.state.proposal is None and actions_of(effects) == [{"a": "undo"}]
    (search,) = searches_of(effects)
    assert (search.seat, search.secret) == (0, color)
    shell = shell_of(c)
    feed(shell, "D")  # the table's menu: the search asked for is still the one
    # (whose turn it is, held while the undo's message covered the bot's screen, goes out as D takes it away)
    assert shell.screen().name == "menu" and [e.event for e in shell.pop_effects()] == ["turn"]
    feed(shell, "*")
    assert shell.pop_effects() == []
    c.deliver(search, None)  # the search failed: asked again after the next key
    assert c.pop_effects() == [] and c.screen().name == "bot-thinking"
    c.menu_choose(4)  # ... but not while the game's own question (huts on territory) is open
    assert c.screen().name == "huts" and c.pop_effects() == []
    feed(c, "*")
    (search,) = searches_of(c.pop_effects())
    assert (search.seat, search.secret) == (0, color)
    c.deliver(search, move)
    assert actions_of(c.pop_effects()) == [{"a": "bot", "from": move.frm, "to": move.to}]


def test_a_stale_search_is_dropped():
    c = bot_first_controller()
    (search,) = searches_of(c.pop_effects())
    move = RandomBot().choose(c.game.copy(), search.seat, search.secret, random.Random(1))
    c.deliver(search, move)
    feed(c, "#C#")  # played, then taken back: a new search
    (fresh,) = searches_of(c.pop_effects())
    c.deliver(search, move)  # the first search's answer again: not for this question
    assert c.state.proposal is None and c.pop_effects() == []
    c.deliver(fresh, Move(99, 98))  # an illegal answer counts as a failed search
    assert c.state.proposal is None and c.pop_effects() == []
    feed(c, "1")
    (again,) = searches_of(c.pop_effects())
    c.deliver(again, move)
    assert c.state.proposal == move


def test_a_bot_founding_villages_gives_its_order_and_is_never_asked():
    """Random games until a bot's move founds 2+ villages: its full order goes into the move."""
    rnd = random.Random(3)
    answers = random_answers(rnd)
    for seed in range(40):
        c = bot_first_controller(2, seed)
        answer(c, answers)
        while not c.game.is_over:
            if c.mode() == "bot":
                move = c.state.proposal
                assert move is not None  # answered after the last key
                while c.info.shown:  # the last move's result first (# pages on, then closes it)
                    feed(c, "#")
                # only the bot's words, held while the result covered its screen
                assert {getattr(e, "event", None) for e in c.pop_effects()} <= {"turn", "bot-move"}
                feed(c, "#")
                effects = c.pop_effects()
                (action,) = actions_of(effects)
                assert c.mode() != "order"
                if move.order:
                    assert action["order"] == list(move.order)
                    assert c.game.moves[-1].order == move.order
                    return
                answer(c, answers, effects)
            else:
                frm, to = c.game.random_move(rnd.random)
                feed(c, f"{frm}#{to}#")
                while c.mode() == "order":
                    feed(c, f"{rnd.choice(c.order_choices())}#")
                answer(c, answers)
    pytest.fail("no bot move founded two villages")


def test_end_of_a_bot_game_shows_every_color_without_questions():
    rnd = random.Random(8)
    answers = random_answers(rnd)
    c = bot_first_controller(3, 8)
    effects = play_out(c, rnd, answers)
    assert c.mode() == "final"
    colors = [c.state.bots.get(s) or c.state.dealt[s] for s in range(3)]
    assert c.record().colors == colors and c.finished_result()["totals"] == summary(c.game, colors)["totals"]
    assert [e for e in effects if isinstance(e, GameOver)] == [GameOver("clans", c.finished_result())]
    pages = final_pages(c.state)
    text = " ".join(" ".join(lines) for _name, _title, lines in pages)
    assert f"P1 bot {colors[0]}" in text and f"P2 {colors[1]}" in text
    # after the result, what the bot (seat 0, normal) believed of P2 and P3, with the move it held it from
    assert [title for name, title, _lines in pages if name == "beliefs"][:1] == ["P1 (normal) believed"]
    record = c.record().to_dict()
    told = record["beliefs"]
    assert [(b["bot"], b["seat"], b["level"]) for b in told] == [(0, 1, "normal"), (0, 2, "normal")]
    for b in told:
        assert b["right"] == (colors[b["seat"]] == b["color"]) and 0 <= b["since"] <= c.game.ply and 0 < b["p"] <= 1
        assert f"P{b['seat'] + 1} was {b['color']} ({round(100 * b['p'])}%)" in text
    said = [e for e in effects if getattr(e, "event", None) == "beliefs"]
    assert [(e.fields["bot"], e.fields["level"], len(e.fields["beliefs"])) for e in said] == [(0, "normal", 2)]
    feed(c, "*")  # the game-over message goes: the result
    assert c.screen().name == "final" and "# = the bots' guesses" in text
    feed(c, "1")  # no reveal question: digits do nothing
    assert c.mode() == "final" and c.state.colors == [] and c.pop_effects() == []
    for page in pages[1:]:  # # pages on to the bot's beliefs, then asks for a new game
        feed(c, "#")
        assert c.screen().name == page[0] and c.screen().lines == page[2]
    assert "# = new game" in pages[-1][2]
    feed(c, "#")
    assert c.screen().name == "players"


# ----- hints ---------------------------------------------------------------------------------------
def test_hint_from_the_menu_is_a_legal_move_and_not_journaled(tmp_path):
    d = build(tmp_path, "--load", str(IN_PROGRESS), "--bot-iterations", "10", "--seed", "1", keys="D3#")
    d.run()
    c = d.shell.game
    s = c.screen()
    assert s.name == "hint" and c.pop_effects() == []
    frm, to = map(int, re.match(r"Hint: (\d+) -> (\d+)$", s.title).groups())
    assert c.game.is_legal(frm, to) and c.game.ply == 20
    feed(c, "1")  # the next digit starts the entry, as after any message
    assert c.screen().name == "entry"


def test_hint_waits_and_a_late_one_is_dropped():
    c = Controller.from_record(Record.load(IN_PROGRESS))
    persisted(c)
    c.menu_choose(2)
    (hint,) = c.pop_effects()
    assert isinstance(hint, Hint) and hint.seat == c.game.to_move
    assert c.screen().name == "hint" and "Thinking..." in c.screen().lines
    frm, to = c.game.random_move(random.Random(1).random)
    feed(c, "1")  # a key first: the hint is stale
    c.deliver(hint, Move(frm, to))
    assert c.screen().name == "entry" and c.screen().entry == "1_"
    c.menu_choose(2)
    (hint,) = c.pop_effects()
    c.deliver(hint, Move(frm, to))
    assert c.screen().title == f"Hint: {frm} -> {to}" and c.pop_effects() == []


def test_hint_is_the_same_whatever_the_secret_colors():
    base = Controller.quick_start(3, random.Random(6), first=1, bots=[0])
    actions = persisted(base)
    actions.append({"a": "ready"})
    options = daemon.search_options(daemon.parse_args(["--bot-iterations", "15", "--seed", "9"]), None)
    screens = []
    for shift in range(3):
        new = dict(actions[1])
        pool = COLORS[shift:] + COLORS[:shift]
        new["bots"], new["dealt"] = {"0": pool[0]}, {"1": pool[1], "2": pool[2]}
        c = Controller.from_actions([actions[0], new, actions[2]])
        shell = shell_of(c)
        searcher = find_game("clans").make_searcher(options)
        feed(shell, "D3#")
        effects = answer(shell, searcher.run)
        screens.append(shell.screen())
        assert [type(e) for e in quiet(effects)] == [Hint]  # nothing journaled
    assert screens[0].name == "hint" and screens[0] == screens[1] == screens[2]
    # and no hint while a bot is to move
    c = bot_first_controller()
    c.pop_effects()
    feed(shell_of(c), "D3#")
    assert c.screen().name == "no-hint" and c.pop_effects() == []


# ----- whole games through the daemon --------------------------------------------------------------
def drive(d: loop.Daemon, rnd: random.Random, frames: list) -> tuple[list[str], list[Move]]:
    """Play the persons' keys computed from what the daemon's game shows; # for the bots."""
    c = d.shell.game
    keys: list[str] = []
    proposals: list[Move] = []

    def press(typed: str) -> None:
        for k in typed:
            d.step(k)
            frames.append((c.game.is_over, c.screen()))
            assert c.game.is_over or c.record().colors is None  # no record shows the colors before the end
        keys.append(typed)

    d.show()
    d.drain()
    while c.mode() == "setup":
        press("#")
    while not c.game.is_over:
        if c.mode() == "bot":
            move = c.state.proposal
            assert move is not None  # the daemon searched after the last key
            proposals.append(move)
            while c.info.shown:  # the last move's result (what to do with its villages) comes first
                press("#")
            assert c.screen().name == "bot-move"
            press("#")
            made = c.game.moves[-1]
            assert (made.frm, made.to) == (move.frm, move.to) and (move.order is None or made.order == move.order)
        else:
            frm, to = c.game.random_move(rnd.random)
            press(f"{frm}#{to}#")
            while c.mode() == "order":
                press(f"{rnd.choice(c.order_choices())}#")
    return keys, proposals


def test_whole_game_two_persons_two_bots_headless(tmp_path):
    argv = ["--players", "4", "--seed", "21", "--bots", "2,4", "--bot-iterations", "20"]
    out = tmp_path / "game.json"
    d = build(tmp_path, *argv, "--record-out", str(out))
    frames: list = []
    d.on_frame = lambda screen, image: frames.append((d.shell.game.game.is_over, screen))
    keys, proposals = drive(d, random.Random(5), frames)
    assert d.run() == 0
    c = d.shell.game
    bots = dict(c.state.bots)
    assert set(bots) == {1, 3} and len(proposals) >= 10
    # the bots' moves are the record's moves of seats 2 and 4
    rec = Record.load(out)
    game = rec.play()
    assert game.is_over and rec.colors == [bots.get(s) or c.state.dealt[s] for s in range(4)]
    replay, bot_moves = Game(rec.players, rec.setup, rec.first_player), []
    for m in rec.moves:
        if replay.to_move in bots:
            bot_moves.append(m)
        replay.push(m.frm, m.to, m.order)
    assert [(m.frm, m.to) for m in bot_moves] == [(m.frm, m.to) for m in proposals]
    assert all(p.order is None or m.order == p.order for m, p in zip(bot_moves, proposals))
    r = subprocess.run([sys.executable, "-m", "companion", "replay", str(out), "--json"], capture_output=True,
                       text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == summary(game, rec.colors)
    # no screen pairs a bot seat with its color before the end; the final screen does
    seen = [screen for over, screen in frames if not over]
    assert any(s.name == "bot-move" for s in seen) and any(s.name == "deal-color" for s in seen)
    for s in seen:
        for seat, color in bots.items():
            assert not pairs_seat_with_color(s.text(), seat, color), s.text()
    for _, s in frames:  # and every screen fits the panel
        assert len(s.title) <= S.SMALL_COLS - (4 if s.pages > 1 else 0), s.title
        assert all(len(line) <= S.BODY_COLS for line in s.lines) and len(s.lines) <= S.BODY_ROWS
    final = " ".join(" ".join(lines) for _name, _title, lines in final_pages(c.state))
    assert all(f"P{seat + 1} bot {color}" in final for seat, color in bots.items())
    # the keys computed on the fly are a key script: the same run from the file gives the same record
    out2 = tmp_path / "again.json"
    d2 = build(tmp_path, *argv, "--record-out", str(out2), keys="".join(keys))
    assert d2.run() == 0
    assert out2.read_text() == out.read_text()


def test_resume_in_the_middle_of_a_bot_proposal_shows_the_same_one(tmp_path, monkeypatch):
    seed = next(s for s in range(50) if Controller.quick_start(2, random.Random(s), bots=[0]).game.to_move == 0)
    state = tmp_path / "state"
    d = build(tmp_path, "--players", "2", "--seed", str(seed), "--bots", "1", "--bot-iterations", "20",
              "--state-dir", str(state), keys="##")  # P2's deal, then the bot moves first
    d.run()
    shown = d.shell.screen()
    assert shown.name == "bot-move"
    searches = []
    monkeypatch.setattr(BotRunner, "run", lambda self, effect: searches.append(effect))
    d2 = build(tmp_path, "--state-dir", str(state), "--bot", "random")
    d2.run()
    assert d2.shell.screen() == shown and searches == []
    out = tmp_path / "o.json"
    d3 = build(tmp_path, "--state-dir", str(state), "--record-out", str(out), keys="#")
    d3.run()
    proposal = d.shell.game.state.proposal
    assert [(m.frm, m.to) for m in Record.load(out).moves] == [(proposal.frm, proposal.to)]


STORM_TOKENS = list("0123456789#*ABC") + ["#", "#", "D3#", "D4#", "C#"]  # menus only by number: no shutdown


@pytest.mark.parametrize("seed", range(3))
def test_key_storm_with_bots_never_crashes(tmp_path, seed):
    """Random keys with hints, scores and undo from the menu: bot moves come and go, nothing crashes."""
    rnd = random.Random(500 + seed)
    storm = "".join(rnd.choice(STORM_TOKENS) for _ in range(1500))
    out = tmp_path / "out.json"
    d = build(tmp_path, "--players", "3", "--seed", str(seed), "--bots", "2", "--bot", "random",
              "--bot-iterations", "5", "--record-out", str(out), keys=storm)
    names: list[str] = []
    d.on_frame = lambda screen, image: names.append(screen.name)
    assert d.run() == 0 and d.device.image.size == (128, 64)
    assert "bot-move" in names and "hint" in names
    Record.load(out).play()  # every move legal


def storm_then_rebuild(seed: int, keys: list[str]) -> tuple[Controller, list[dict]]:
    """A 3-player game with P2 a bot, then `keys` through the table; the journal must rebuild the same state."""
    c = Controller(random.Random(seed))
    shell = shell_of(c, random.Random(seed))
    answers = random_answers(random.Random(seed))  # a random bot and random hints, as the daemon runs them
    journal: list[dict] = []
    for k in list("3#0#2") + ["#"] * 19 + keys:  # bots: P2; Start, the deal of P1 and P3, the walkthrough
        if shell.kind != "clans":
            break  # the table plays another game now: this one is left as it was
        shell.handle(k, 0.0)
        journal += actions_of(answer(shell, answers))
        shell.screen()
    journal = json.loads(json.dumps(journal))
    rebuilt = Shell.named(Controller.from_actions(Shell.split_journal(journal)[0]), journal)  # as the daemon does
    r, s = rebuilt.state, c.state
    assert (r.bots, r.dealt, r.proposal, rebuilt.mode()) == (s.bots, s.dealt, s.proposal, c.mode())
    assert rebuilt.names == c.names  # the bots' names, journaled by the table
    if c.game is not None:
        assert rebuilt.game.state_key() == c.game.state_key()
        if (s.proposal is not None and c.ui.overlay is None and not c.info.shown and not c.ui.asking_new
                and shell.question is None and not shell.shutting_down  # no question over the proposal
                and shell.game is c):  # (the last key may have switched the table to another game)
            assert rebuilt.screen() == shell.screen()
    return c, journal


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), keys=st.lists(st.sampled_from(list("0123456789#*ABCD") + ["POWER"]),
                                                  max_size=400))
def test_storm_with_bots_rebuilds_from_the_journal(seed, keys):
    storm_then_rebuild(seed, keys)


@pytest.mark.parametrize("seed", range(4))
def test_long_storm_with_bots_rebuilds_and_plays_bot_moves(seed):
    rnd = random.Random(seed)
    keys = [k for _ in range(1500) for k in rnd.choice(STORM_TOKENS)]
    c, journal = storm_then_rebuild(seed, keys)
    assert sum(a["a"] == "bot" for a in journal) >= 3  # the storm did reach the bot's turns
    assert c.record().play().ply == c.game.ply


@pytest.mark.parametrize("argv, words", [
    (["--bots", "2"], "needs --players"), (["--players", "2", "--bots", "1,2"], "person"),
    (["--players", "3", "--bots", "4"], "1-3"), (["--players", "3", "--bots", "x"], "commas"),
    (["--bot-iterations", "0"], "give a whole number from 1"), (["--bot", "alphazero"], "invalid choice"),
])
def test_bot_option_errors(capsys, argv, words):
    with pytest.raises(SystemExit) as e:
        daemon.parse_args(argv)
    assert e.value.code == 2 and words in capsys.readouterr().err


def test_bot_options_reach_the_runner(tmp_path):
    d = build(tmp_path, "--players", "3", "--bots", "1,3", "--bot", "greedy", "--bot-time", "0.2")
    runner = find_game("clans").make_searcher(d.search_options)  # what the daemon asks at the first search
    assert (runner.name, runner.move_time, runner.iterations) == ("greedy", 0.2, None)
    assert d.shell.game.state.bots.keys() == {0, 2}
    cfg = tmp_path / "c.yaml"
    cfg.write_text("game: {bot: random, bot_move_time: 1.5}\n")
    d = build(tmp_path, "--config", str(cfg))
    runner = find_game("clans").make_searcher(d.search_options)
    assert (runner.name, runner.move_time) == ("random", 1.5) and not d.shell.game.state.bots


def test_the_log_never_shows_a_secret_color_but_the_journal_keeps_it(tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    state = tmp_path / "state"
    d = build(tmp_path, "--players", "3", "--seed", "4", "--bots", "2", "--bot", "random", "--state-dir", str(state),
              keys="#" * 4)
    assert d.run() == 0
    new = next(a for a in Journal(state).resume().actions if a["a"] == "new")
    assert new["bots"] and new["dealt"]  # every seat's color, journaled for a rebuild
    confirmed = [m for m in caplog.messages if m.startswith("confirmed ")]
    logged_new = json.loads(next(m for m in confirmed if '"a":"new"' in m).split(" ", 1)[1])
    assert logged_new == {k: v for k, v in new.items() if k not in ("bots", "dealt")}  # spec 6: removed
    assert not [m for m in caplog.messages if '"dealt":{' in m or '"bots":{' in m or "'dealt': {" in m]
