"""Issue 14 for the Mammut table: texts a newcomer reads at once (item 11), and every table
text going through `companion.i18n` when the screen is built (never stored translated)."""

from __future__ import annotations

import json
import random
import re

import pytest

from companion import i18n
from companion.games.mammut import outcomes as O
from companion.games.mammut import texts as T
from companion.games.mammut.help_texts import phase_help
from companion.games.mammut.controller import MammutTable
from companion.games.mammut.game import MammutGame
from companion.games.mammut.phases import Phase as P
from tests.games.mammut.test_mammut_controller import Driver, new_game, text, to_phase

from tests.games.mammut import screens_golden as G
from tests.support import Shouting

STREAMS = json.loads(G.GOLDEN.read_text())


def colored_game() -> MammutGame:
    g = MammutGame(2, roll=random.Random(1), colors=["red", "blue"])
    return g


# ----- item 11: texts a table misreads ------------------------------------------------------------
def test_a_fight_round_names_the_sides_and_what_was_lost():
    g = colored_game()
    sides = [{"tribe": 1}, {"tribe": 2}]
    rounds = [{"totals": [5, 6], "losers": [0], "lost": ["warrior"]},
              {"totals": [6, 6], "losers": [], "lost": []},
              {"totals": [7, 3], "losers": [1], "lost": ["woman"]},
              {"totals": [2, 9], "losers": [0], "lost": []}]  # Red still chooses its token
    assert O.rounds_lines(g, sides, rounds) == [
        "Red 5, Blue 6: Red loses a warrior", "Red 6, Blue 6: tie, roll again", "Red 7, Blue 3: Blue loses a woman",
        "Red 2, Blue 9: Red loses a token"]
    horde = [{"tribe": 1}, {"animal": "bear", "count": 2}]
    assert O.rounds_lines(g, horde, [{"totals": [8, 4], "losers": [1], "lost": ["animal"]}]) == [
        "Red 8, bear 4: a bear dies"]


def test_the_setup_screen_says_what_hash_does():
    d = Driver(4)
    d("2#" + "#" * 4)  # 2 tribes, no first game, standard rules, red, yellow
    lines = " ".join(" ".join(T.phase_summary(d.c.game)).split())
    assert "# opens the list: report caves and crops, then start turn 1." in lines
    assert "#: caves, crops, start" not in lines


def test_undoing_a_step_names_the_phase_it_reached_and_the_phase_you_are_back_in():
    d = Driver(9)
    new_game(d)
    to_phase(d, P.COMBAT)
    d("C")
    assert d.name == "undo?" and "Take back the step to phase 5 (combat)?" in text(d.shell.screen())
    d("#")
    said = text(d.shell.screen())
    assert d.name == "undone" and d.c.game.phase == P.TRIBES_MOVE
    assert "Taken back: the step to phase 5 (combat)." in said and "You are back in phase 4 (tribes move)." in said


def test_other_undos_read_as_before():
    d = Driver(9)
    new_game(d)
    to_phase(d, P.COMBAT)
    d("#2#1#5###8###")  # a fight against a mammoth
    d("#C")
    assert "Take back a fight (T1 v mammoth)?" in text(d.shell.screen())
    d("#")
    assert "Taken back: a fight (T1 v mammoth). Put the pieces back" in text(d.shell.screen())


# ----- every text through the catalogs, at call time -----------------------------------------------
@pytest.fixture
def shouting(monkeypatch):
    """Call it to make the table speak `Shouting` from then on (undone after the test)."""
    return lambda: monkeypatch.setattr(i18n, "_current", Shouting())


def test_the_screens_translate_when_built_and_the_journal_stays_the_same(shouting):
    d = Driver(4)
    d("2#" + "#" * 4)
    shouting()
    g = d.c.game
    shown = " ".join(T.phase_summary(g)) + " " + T.title(g) + " " + " ".join(phase_help(g))
    assert shown == shown.upper()  # every word went through the catalog
    assert d.c.menu_items() == ("ACTIONS", "TRIBE BOOKS", "UNDO LAST ENTRY", "NEW GAME")
    assert T.books(g)[0].startswith("RED: 5WAR")
    record = json.loads(d.c.record_json())
    assert "RED" not in json.dumps(record) and record["log"][0]["args"]["colors"] == ["red", "yellow"]


def test_a_fight_and_its_undo_translate_but_the_log_keeps_ids(shouting):
    d = Driver(9)
    new_game(d)
    to_phase(d, P.COMBAT)
    shouting()
    d("#2#1#5###8###")
    shown = text(d.shell.screen())
    assert shown == shown.upper() and "MAMMOTH" in shown
    assert d.c.game.log[-1]["args"]["sides"][1]["animal"] == "mammoth"
    d("#C")
    assert text(d.shell.screen()) == text(d.shell.screen()).upper()


def test_another_language_speaks_its_catalog_and_the_history_is_built_when_shown():
    d = Driver(4)
    d("2#" + "#" * 4)
    english = T.phase_summary(d.c.game)
    result = {"winners": [1], "log": {"log": [{"args": {"colors": ["red"]}}]}}
    assert MammutTable.history_text(result) == "Red won"
    i18n.set_language("de")
    try:
        assert T.phase_summary(d.c.game) != english
        assert MammutTable.history_text(result) == "Sieg: Rot"
    finally:
        i18n.set_language("en")


SHELL_SCREENS = {"menu", "brightness", "switch?", "shutdown?", "bye", "language"}  # the shell's own texts
ENGINE_LABELS = re.compile(r"\b([Rr]ed|[Yy]ellow|[Gg]reen|[Bb]lue|[Bb]lack|[Ww]hite|[Tt]ribe \d)\b")


def replay_stream(stream: dict) -> tuple[list[str], list[dict]]:
    """The golden stream's keys through the shell: every screen's text and every journaled action."""
    table = G.NewTable(stream["seed"])
    texts, journal = [], []
    for code in stream["keys"]:
        screen, actions, _, _ = table.press(G.token(code))
        if screen.name not in SHELL_SCREENS:
            texts.append(screen.text())
        journal += actions
    return texts, journal


@pytest.mark.parametrize("plan", ["careful-1", "victory-13", "weighted-0"])
def test_whole_games_speak_the_catalog_and_journal_the_same(plan, shouting):
    stream = next(s for s in STREAMS if f"{s['plan']}-{s['seed']}" == plan)
    _, english = replay_stream(stream)
    shouting()
    texts, journal = replay_stream(stream)
    assert journal == english  # the same keys give the same journal in every language
    # every text went through the catalog (the engine's refusals still name a tribe by its label)
    missed = {line for t in texts for line in ENGINE_LABELS.sub("", t).split("\n") if line != line.upper()}
    assert not missed
