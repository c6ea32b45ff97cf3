"""A fourth game brings more than its code, in its folder only: the test-only dice game
(tests/games/dice_game/) has its own player range, a buzzer sound with its words and a page
stylesheet; registered by one line, it plays, journals, beeps in the announce log, and shows
in the history, the statistics and the page's stylesheet, without a line elsewhere knowing it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion import games
from companion.kiosk.announce import buzzer_patterns
from tests.games.test_third_game import cli, run
from tests.web.test_roster_names import fetch
from tests.web.webtools import app_for, run as run_web


@pytest.fixture
def dice(counter):
    game = games.register_game("dice_game.about")
    yield game
    del games.GAMES[game.kind]


def test_it_plays_journals_beeps_and_shows_in_the_history_stats_and_page(dice, tmp_path):
    state, said = tmp_path / "state", tmp_path / "said.jsonl"
    d = run(tmp_path, "#9#9#2#", "--game", "dice", "--state-dir", str(state), "--announce-log", str(said))
    assert d.shell.kind == "dice"
    beeps = [json.loads(line) for line in said.read_text().splitlines()]
    assert {"kind": "beep", "event": "goal", "lang": "en", "text": "Beep: twenty reached."} in beeps
    assert buzzer_patterns()["dice/goal"] == dice.sounds["goal"]
    assert "Dice to Twenty" in cli("history", "--state-dir", str(state))
    assert list(json.loads(cli("stats", "--state-dir", str(state), "--tables", "--json"))["games"]) == ["dice"]
    css = run_web(fetch(app_for(state), ("/static/style.css",)))["/static/style.css"][1]
    assert ".dice-total { font-weight: bold; }" in css and css.index(".dice-total") > css.index("ul.seats b")
    assert (dice.min_players, dice.max_players, dice.player_counts) == (2, 3, (2, 3))


def test_hooks_and_resources_are_checked_at_registration(dice):
    import dataclasses

    for wrong, why in [({"stylesheet": "dice_game:none.css"}, "no such file"),
                       ({"searcher": "dice_game.nothing:make", "bots": ("x",), "default_bot": "x"}, "no module"),
                       ({"history": "dice_game.history:facts"}, 'give "module"'),
                       ({"sounds": {"goal": ((990.0, 0),)}}, "seconds > 0"),
                       ({"sound_words": {}}, "its words in sound_words"),
                       ({"default_bot": "mcts"}, "not one of its bots")]:
        with pytest.raises(ValueError, match=why):
            games.register_game(dataclasses.replace(dice, **{"kind": "other", **wrong}))
    assert "other" not in games.GAMES
