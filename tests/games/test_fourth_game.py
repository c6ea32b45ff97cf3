"""A fourth game brings more than its code, in its folder only: the test-only dice game
(tests/games/dice_game/) has its own player range, a buzzer sound with its words and a page
stylesheet, statistics of its own (the rolls a player made, the fewest a game took: counted from
the extras its history module keeps); registered by one line, it plays, journals, beeps in the
announce log, and shows in the history, the statistics (`companion stats`, the page's /stats and
/api/stats) and the page's stylesheet, without a line elsewhere knowing it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion import games
from companion.kiosk.announce import buzzer_patterns
from tests.games.test_third_game import cli, run
from tests.history.test_import import BASE, write
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


def named_games(tmp_path: Path, state: Path, *rolls: list[int]) -> None:
    """Dice games played by one person, "Dee", brought in as records (`companion import`): the table's
    own seat "Player 1" is no one person, never a row of the statistics (a game's statistics per
    player are a person's)."""
    records = [{"game": "dice", "adds": adds, "names": ["Dee"],
                "companion": {"game": "dice", "started": BASE + 600 * i, "finished": BASE + 600 * i + 60}}
               for i, adds in enumerate(rolls)]
    cli("import", str(write(tmp_path / "dice.json", records)), "--state-dir", str(state))


def test_its_statistics_show_in_companion_stats_and_on_the_page(dice, tmp_path):
    state = tmp_path / "state"
    named_games(tmp_path, state, [9, 9, 2], [9, 8, 1, 2])  # 3 rolls, then 4
    [(name, player)] = json.loads(cli("stats", "--state-dir", str(state), "--json")).items()
    assert name == "Dee"
    assert list(player)[-3:] == ["villages_founded", "extinctions", "rolls"]  # every game's, the registry's order
    assert (player["rolls"], player["villages_founded"], player["extinctions"]) == (7, 0, 0)
    tables = json.loads(cli("stats", "--state-dir", str(state), "--tables", "--json"))
    assert tables["players"][name] == player
    assert list(tables["games"]["dice"]["1"])[-3:] == ["extinctions", "fastest", "average_winning_total"]
    assert tables["games"]["dice"]["1"]["fastest"] == 3
    text = cli("stats", "--state-dir", str(state), "--tables").splitlines()
    assert text[0].endswith("streak  rolls  nemesis") and text[1].split()[-2:] == ["7", "-"]
    assert "  Dice to Twenty, 1 players: 2 games, first player wins 100%, winning total 20, fastest 3; " \
        "seat wins 1:100%" in text
    got = run_web(fetch(app_for(state), ("/stats", "/api/stats")))
    html = got["/stats"][1]
    th = '</th><th scope="col">'
    assert f"Longest streak{th}Rolls{th}Nemesis" in html and "<td>2</td><td>7</td><td>-</td>" in html
    assert f'Wins by seat{th}Fewest rolls</th></tr>' in html and "<td>1: 100%</td><td>3</td></tr>" in html
    assert json.loads(got["/api/stats"][1]) == tables


def test_a_statistic_is_checked_at_registration_and_its_name_is_one_games(dice):
    import dataclasses

    from companion.table.gametype import Statistic

    for stat, why in [(Statistic("Rolls", "player", "dice_game.history:rolls"), "lower-case"),
                      (Statistic("rolls2", "seat", "dice_game.history:rolls"), "per is one of player, game"),
                      (Statistic("rolls2", "player", "dice_game.nothing:rolls"), "no module"),
                      (Statistic("extinctions", "game", "dice_game.history:fastest"), "'mammut''s already")]:
        with pytest.raises(ValueError, match=why):
            games.register_game(dataclasses.replace(dice, kind="other", statistics=(stat,)))
    twice = (dice.statistics[0], dice.statistics[0])
    with pytest.raises(ValueError, match="named twice"):
        games.register_game(dataclasses.replace(dice, kind="other", statistics=twice))
    assert "other" not in games.GAMES


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


def test_a_statistic_that_raises_or_gives_no_number_is_none_and_the_rest_stands(dice, tmp_path, caplog):
    import dataclasses
    import logging

    from companion.table.gametype import Statistic

    state = tmp_path / "state"
    named_games(tmp_path, state, [9, 9, 2])
    bad = (Statistic("broken", "player", "dice_game.history:broken", column="broken", title="Broken"),
           Statistic("odd", "game", "dice_game.history:odd", column="odd", title="Odd"))
    games.GAMES["dice"] = dataclasses.replace(dice, statistics=dice.statistics + bad)
    caplog.set_level(logging.WARNING, logger="companion.history.stats")
    tables = json.loads(cli("stats", "--state-dir", str(state), "--tables", "--json"))
    [player] = tables["players"].values()
    assert (player["rolls"], player["broken"]) == (3, None)
    assert (tables["games"]["dice"]["1"]["fastest"], tables["games"]["dice"]["1"]["odd"]) == (3, None)
    assert "broken  nemesis" in cli("stats", "--state-dir", str(state), "--tables")
    got = run_web(fetch(app_for(state), ("/stats", "/api/stats")))
    assert got["/stats"][0] == 200 and json.loads(got["/api/stats"][1])["players"] == tables["players"]
    failed = [r.getMessage() for r in caplog.records]
    assert sum("statistic broken of dice failed" in m for m in failed) == 1, failed
    assert sum("statistic odd of dice gave set" in m for m in failed) == 1, failed
