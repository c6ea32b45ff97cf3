"""Bot levels at the table (issue 54): each bot seat is easy, normal or hard, journaled with the game,
named in the history and the page, played by its own bot; after the reveal each bot says what it
believed of the others' colors (panel, voice, page, record), and never before; hints play at the
configured level and say why. Golden frames: the Bots? screen and the end screens in five languages.
"""

from __future__ import annotations

import functools
import json
import os
import random
from pathlib import Path

import pytest
from PIL import Image

from companion import i18n
from companion.games.clans import speech as S
from companion.games.clans.beliefs import told
from companion.games.clans.bots.hints import easy_hint, hint_at, reason
from companion.games.clans.bots.runner import BotRunner, make_searcher
from companion.games.clans.bots.story import beliefs, model_of
from companion.games.clans.controller import Controller
from companion.games.clans.game import IN_PROGRESS, Game, Move, random_setup
from companion.games.clans.record import Record
from companion.games.clans.screens import final_pages
from companion.games.clans.bots import make_bot
from companion.games.clans.board import COLORS
from companion.kiosk import daemon
from companion.table.effects import Announce, Hint, Search
from companion.table.render import render
from tests.games.clans.clans_helpers import EXAMPLES, feed, play_out, random_answers
from tests.games.clans.test_bots_table import build, drive, pairs_seat_with_color

GOLDEN = Path(__file__).resolve().parent / "golden"
LEVELS_ARGV = ["--players", "4", "--seed", "21", "--bots", "2:easy,3,4:hard", "--bot-iterations", "20"]


@functools.lru_cache(maxsize=None)
def finished_bot_game(seed: int = 3) -> Controller:
    """A 3-player game (P1 a person, P2 normal, P3 hard) played to its end (made once: the tests read
    it, and set only the page shown). Every seat plays random moves, so the game (and its golden
    frames) stays the same whatever the searches become; what each bot believed is its model's."""
    c = Controller.quick_start(3, random.Random(seed), bots={1: "normal", 2: "hard"})
    feed(c, "##")  # P1's deal
    play_out(c, random.Random(seed), random_answers(random.Random(seed)))
    while c.info.shown:
        feed(c, "*")
    return c


# ----- a whole game with one bot of each level ---------------------------------------------------------
def test_a_whole_game_with_an_easy_a_normal_and_a_hard_bot(tmp_path, caplog):
    caplog.set_level("INFO")
    out = tmp_path / "game.json"
    d = build(tmp_path, *LEVELS_ARGV, "--record-out", str(out))
    frames: list = []
    keys, proposals = drive(d, random.Random(5), frames)
    assert d.run() == 0
    c = d.shell.game
    assert c.state.levels == {1: "easy", 2: "normal", 3: "hard"} and len(proposals) >= 15
    # each seat was played by its own bot, named by its level in the log, the record and the page
    for seat, level in c.state.levels.items():
        assert any(m.startswith(f"bot {level} for P{seat + 1}:") for m in caplog.messages), level
    searcher = d.searchers["clans"]
    assert set(searcher._bots) == {"easy", "normal", "hard"}
    record = json.loads(out.read_text())
    assert record["names"] == ["Player 1", "Bot 2 (easy)", "Bot 3 (normal)", "Bot 4 (hard)"]
    # what they believed: the searching bots of every other seat, the easy one nothing
    told_ = record["beliefs"]
    assert sorted({(b["bot"], b["level"]) for b in told_}) == [(2, "normal"), (3, "hard")]
    colors = record["colors"]
    for b in told_:
        assert b["seat"] != b["bot"] and b["color"] != colors[b["bot"]] and b["right"] == (colors[b["seat"]] == b["color"])
    # before the end no screen shows a belief, and no bot's color with its seat
    before = [screen for over, screen in frames if not over]
    assert before and not any(s.name == "beliefs" for s in before)
    for s in before:
        for seat in (1, 2, 3):
            assert not pairs_seat_with_color(s.text(), seat, colors[seat]), s.text()
    names = [name for name, _title, _lines in final_pages(c.state)]
    assert names.count("beliefs") >= 3  # easy, normal, hard: one screen each at least
    # the same keys from a file give the same record (the levels are journaled, the bots seeded)
    out2 = tmp_path / "again.json"
    assert build(tmp_path, *LEVELS_ARGV, "--record-out", str(out2), keys="".join(keys)).run() == 0
    assert out2.read_text() == out.read_text()


def test_bots_option_takes_levels_and_refuses_what_is_not_a_bot(capsys):
    args = daemon.parse_args(["--display", "dummy", *LEVELS_ARGV])
    assert args.bot_seats == {1: "easy", 2: None, 3: "hard"}
    for bad, words in (("2:mighty", "'mighty' is not a bot"), ("2:hard,x", "seat numbers"), ("1,2,3,4", "person")):
        with pytest.raises(SystemExit):
            daemon.parse_args(["--display", "dummy", "--players", "4", "--bots", bad])
        assert words in capsys.readouterr().err


def test_a_seat_without_a_level_plays_the_table_bot(tmp_path):
    d = build(tmp_path, "--players", "3", "--seed", "2", "--bots", "2", "--bot", "hard", "--bot-iterations", "5")
    assert d.shell.game.state.levels == {1: "hard"}
    d = build(tmp_path, "--players", "3", "--seed", "2", "--bots", "2")
    assert d.shell.game.state.levels == {1: "normal"}


def test_the_bots_screen_starts_at_the_table_bot():
    c = Controller(random.Random(1))
    c.table_bot = "hard"
    feed(c, "#0#2")  # 2 players, drawn start, seat 2 a bot
    assert c.ui.bot_choice == [None, "hard"]
    feed(c, "2")
    assert c.ui.bot_choice == [None, "normal"]


def test_a_game_journaled_before_levels_plays_the_table_bot():
    c = Controller.from_actions([{"a": "players", "n": 2},
                                 {"a": "new", "players": 2, "first": 1, "drawn": False,
                                  "setup": {str(t): col for t, col in random_setup(random.Random(3)).items()},
                                  "bots": {"1": "red"}, "dealt": {"0": "blue"}}, {"a": "ready"}])
    assert c.state.levels == {} and c.seats() == [None, "bot"]
    (search,) = [e for e in c.pop_effects() if isinstance(e, Search)]
    assert search.level is None
    runner = BotRunner("greedy", 0.5)
    runner.run(search)
    assert set(runner._bots) == {"greedy"}


def test_levels_that_are_not_bots_are_refused_from_a_journal():
    new = {"a": "new", "players": 2, "first": 0, "setup": {str(t): col for t, col in
                                                            random_setup(random.Random(3)).items()},
           "bots": {"1": "red"}, "dealt": {"0": "blue"}}
    from companion.util.errors import ActionError
    for levels in ({"1": "godlike"}, {"0": "easy"}):
        c = Controller()
        c.session.do({"a": "players", "n": 2})
        with pytest.raises(ActionError, match="levels"):
            c.session.do({**new, "levels": levels})


# ----- thinking time per level ---------------------------------------------------------------------------
def test_each_level_thinks_its_share_of_the_table_time_within_the_box_limit():
    runner = make_searcher({"bot": "normal", "move_time": 0.5, "most": 10.0})
    assert (runner.time_for("easy"), runner.time_for("normal"), runner.time_for("hard")) == (0.0, 0.5, 1.5)
    slow = make_searcher({"bot": "normal", "move_time": 5.0, "most": 10.0})
    assert slow.time_for("hard") == 10.0 and slow.time_for("normal") == 5.0
    fixed = make_searcher({"bot": "normal", "iterations": 30})
    assert fixed.time_for("hard") is None and fixed.bot_named("hard").iterations == 30


# ----- what the bots believed ----------------------------------------------------------------------------
def test_beliefs_come_only_after_the_end_and_say_since_when():
    c = finished_bot_game()
    stories = told(c.state)
    assert [(s.seat, s.level) for s in stories] == [(1, "normal"), (2, "hard")]
    colors = c.final_colors()
    for story in stories:
        assert [b.seat for b in story.beliefs] == [s for s in range(3) if s != story.seat]
        for b in story.beliefs:
            assert b.right == (b.color == colors[b.seat]) and 0 <= b.since <= c.game.ply
            # the guess it ended with was already its guess at move `since`, and not at the move before
            model = model_of(story.level)
            cut = Game(3, c.game.setup, c.game.first_player, trusted=True)
            for m in c.game.moves[:b.since]:
                cut.push(m)
            held = {x.seat: x.color for x in beliefs(cut, story.seat, colors[story.seat], model)}
            assert held[b.seat] == b.color
            if b.since:
                cut.pop()
                before = {x.seat: x.color for x in beliefs(cut, story.seat, colors[story.seat], model)}
                assert before[b.seat] != b.color
    # no belief before the end: the same game one move short tells nothing, records nothing
    whole = {k: v for k, v in c.record().to_dict().items() if k != "beliefs"}
    short = Controller.from_record(Record.from_dict({**whole, "moves": whole["moves"][:-1]}))
    short.state.bots, short.state.levels = dict(c.state.bots), dict(c.state.levels)
    assert told(short.state) == () and "beliefs" not in short.record().to_dict()


def test_a_bot_that_keeps_no_model_says_so():
    assert model_of("easy") is None and model_of("greedy") is None and model_of("hard") is not None
    c = Controller.quick_start(2, random.Random(4), bots={1: "easy"})
    rnd = random.Random(4)
    while not c.game.is_over:
        c.state.game.push_unchecked(*c.game.random_move(rnd.random), None, rnd.shuffle)
    (story,) = told(c.state)
    assert story.beliefs is None and story.record() == []
    said = S.say("beliefs", S.beliefs([story])[0].fields)
    assert said == "Player 2, easy kept no guesses about the colors."


def test_beliefs_are_said_and_shown_on_the_page():
    c = finished_bot_game()
    (normal, _hard) = [e for e in S.beliefs(told(c.state))]
    text = S.say("beliefs", normal.fields)
    b = told(c.state)[0].beliefs[0]
    assert text.startswith(f"Player 2, normal thought Player 1 was {b.color}, {round(100 * b.p)} percent")
    from companion.games.clans.web import live_html
    page = live_html(c)
    assert "P2 (normal) believed:" in page and "P3 (hard) believed:" in page


# ----- hints at the table's level, with a reason --------------------------------------------------------
def test_hints_play_at_the_configured_level_and_say_why():
    game = Record.load(EXAMPLES / "in-progress.record.json").play()
    rng = random.Random(1)
    easy = hint_at("easy", game, game.to_move, rng, 0.0)
    assert easy == easy_hint(game, random.Random(1)) and game.is_legal(easy.frm, easy.to)
    normal = hint_at("normal", game, game.to_move, random.Random(1), None, iterations=40)
    assert game.is_legal(normal.frm, normal.to)
    runner = make_searcher({"bot": "normal", "move_time": 0.5, "hint": "easy", "seed": 1})
    assert runner.run(Hint(game.to_move, game)) == hint_at("easy", game, game.to_move, runner._rng("hint", game), 0)
    assert set(runner._bots) == set()  # an easy hint searches nothing


def test_the_reason_names_the_village_and_its_terrain():
    rng = random.Random(9)
    seen = set()
    for _ in range(300):
        game = Game(3, random_setup(rng), 0, trusted=True)
        while game.status == IN_PROGRESS and rng.random() < 0.97:
            game.push_unchecked(*game.random_move(rng.random), None, rng.shuffle)
        if game.status != IN_PROGRESS:
            continue
        move = easy_hint(game, rng)
        why, values = reason(game, move)
        seen.add(why)
        if why == "found":
            assert values["territory"] in game.isolated_by(move.frm, move.to)
            assert values["terrain"] == game.board.territories[values["territory"]].terrain
    assert seen == {"found", "safe", "quiet"} or seen >= {"found", "safe"}
    c = Controller.from_record(Record.load(EXAMPLES / "in-progress.record.json"))
    c.menu_choose(2)
    (h,) = [e for e in c.pop_effects() if isinstance(e, Hint)]
    move = easy_hint(c.game, random.Random(2))
    c.deliver(h, move)
    assert "Why:" in c.screen().text().replace("\n", " ")


# ----- golden frames in five languages -------------------------------------------------------------------
def golden(img: Image.Image, name: str) -> None:
    path = GOLDEN / f"{name}.png"
    if os.environ.get("UPDATE_GOLDEN"):
        img.save(path, optimize=True)
    assert img.tobytes() == Image.open(path).convert("1").tobytes(), name


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_golden_bots_screen_and_end_screens(lang):
    i18n.set_language(lang)
    try:
        c = Controller(random.Random(4))
        feed(c, "4#0#233444")  # P2 normal, P3 hard, P4 easy
        assert c.ui.bot_choice == [None, "normal", "hard", "easy"]
        golden(render(c.screen()), f"bots-{lang}")
        c = finished_bot_game()
        pages = final_pages(c.state)
        c.ui.final_page = next(i for i, p in enumerate(pages) if p[0] == "beliefs")
        assert c.screen().name == "beliefs"
        golden(render(c.screen()), f"beliefs-{lang}")
        c.ui.final_page = 0
        golden(render(c.screen()), f"final-bots-{lang}")
    finally:
        i18n.set_language("en")
