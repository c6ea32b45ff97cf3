"""companion.history.stats against numbers worked out by hand from the fixture's table (tests/history/fixture.py).

Counted games, in time order: 1 2 3 5 6 7 8 10 11 (4 is abandoned, 9 is damaged).
"""

from __future__ import annotations

import pytest

from companion.history import stats
from companion.history.plays import read_history
from tests.history.fixture import build_journal, finished


@pytest.fixture
def hist(tmp_path):
    build_journal(tmp_path / "state")
    return read_history(tmp_path / "state")


@pytest.fixture
def players(hist):
    return stats.player_stats(hist.finished)


def test_the_damaged_row_is_listed_and_the_others_kept(hist):
    assert hist.damaged == ["game 9: its result is not readable"]
    assert [p.game_id for p in hist.plays] == [1, 2, 3, 5, 6, 7, 8, 10, 11]


def test_the_abandoned_game_never_counts(tmp_path):
    build_journal(tmp_path / "state")
    every = read_history(tmp_path / "state", include_abandoned=True)
    assert [p.game_id for p in every.plays if p.abandoned] == [4]
    assert stats.player_stats(every.plays) == stats.player_stats(every.finished)
    assert stats.table_stats(every.plays) == stats.table_stats(every.finished)
    assert stats.game_stats(every.plays)["clans"]["2"]["games"] == 3  # games 1, 6, 11 (not 4)


def test_the_seats_the_table_names_itself_are_no_one(players):
    """Guests, bots and default names ("Guest 2", "Bot 3 (mcts)", "Player 1") are anonymous: no row."""
    assert list(players) == ["Anna", "Bruno", "Carla", "Dario"]


def test_anna(players):
    a = players["Anna"]
    # games 1 W, 2 L, 3 L, 5 W, 7 L, 8 L (extinct), 10 W (shared): 7 games, 3 wins
    assert (a["games"], a["wins"]) == (7, 3)
    assert a["win_rate"] == 0.429  # 3 / 7 = 0.42857
    # Clans totals 40 + 30 + 50 + 60 + 52 = 232; 232 / 5 = 46.4 (mammut camps are not points)
    assert (a["average_total"], a["best_total"]) == (46.4, 60)
    assert a["longest_streak"] == 1  # W L L W L L W
    # lost 2 (Bruno, Carla won), 3 (Guest 2: never a nemesis), 7 (Bruno), 8 (nobody): Bruno 2, Carla 1
    assert a["nemesis"] == "Bruno"
    # founders: game 1 seat 0 twice, game 2 once, game 3 none, game 5 twice, game 10 seat 1 twice = 7
    assert a["villages_founded"] == 7
    assert a["extinctions"] == 1  # game 8
    assert a["by_game"] == {"clans": {"games": 5, "wins": 3, "win_rate": 0.6, "average_total": 46.4, "best_total": 60},
                            "mammut": {"games": 2, "wins": 0, "win_rate": 0.0}}


def test_bruno(players):
    b = players["Bruno"]
    # games 1 L, 2 W (shared), 3 L, 5 L, 7 W, 10 L
    assert (b["games"], b["wins"], b["win_rate"]) == (6, 2, 0.333)  # 2 / 6
    assert (b["average_total"], b["best_total"]) == (34.8, 45)  # (35 + 45 + 20 + 30 + 44) / 5 = 174 / 5
    assert b["longest_streak"] == 1  # L W L L W L
    assert b["nemesis"] == "Anna"  # Anna won 1, 5, 10 (3); Carla 10 (1); Guest 2 not counted
    assert b["villages_founded"] == 3  # game 1: 1, game 2: 1, game 10 seat 0: 1
    assert b["extinctions"] == 0
    assert b["by_game"]["mammut"] == {"games": 1, "wins": 1, "win_rate": 1.0}
    assert b["by_game"]["clans"] == {"games": 5, "wins": 1, "win_rate": 0.2, "average_total": 34.8, "best_total": 45}


def test_carla_and_dario(players):
    c, d = players["Carla"], players["Dario"]
    # Carla: 2 W (shared), 3 L (a guest won), 10 W (shared), 11 W
    assert (c["games"], c["wins"], c["win_rate"]) == (4, 3, 0.75)
    assert (c["average_total"], c["best_total"]) == (40.75, 52)  # (45 + 25 + 52 + 41) / 4 = 163 / 4
    assert c["longest_streak"] == 2  # W L W W
    assert c["nemesis"] is None  # her only loss went to Guest 2
    assert c["villages_founded"] == 6  # 2 + 1 + 1 + 2
    # Dario: 7 L (Bruno), 8 extinct, 10 L (Anna, Carla), 11 L (Carla)
    assert (d["games"], d["wins"], d["win_rate"], d["longest_streak"]) == (4, 0, 0.0, 0)
    assert (d["average_total"], d["best_total"]) == (29.0, 30)  # (30 + 28) / 2
    assert d["nemesis"] == "Carla"  # Carla 2, Anna 1, Bruno 1
    assert (d["villages_founded"], d["extinctions"]) == (2, 1)


def test_last_played_is_iso_with_offset(players):
    import datetime as dt
    got = dt.datetime.fromisoformat(players["Anna"]["last_played"])
    assert got.tzinfo is not None and got.timestamp() == finished(10)
    assert dt.datetime.fromisoformat(players["Carla"]["last_played"]).timestamp() == finished(11)


def test_per_game_and_player_count(hist):
    g = stats.game_stats(hist.finished)
    # Clans 2 players: games 1 (first 0 wins), 6 (first 0, seat 1 wins), 11 (first 0, seat 1 wins)
    assert g["clans"]["2"] == {"games": 3, "first_player_wins": 1, "first_player_win_rate": 0.333,
                               "seat_wins": [1, 2], "seat_win_rate": [0.333, 0.667], "extinctions": 0,
                               "average_winning_total": 39.67}  # (40 + 38 + 41) / 3 = 39.666
    # 3 players: game 2 (first 1, winners 1 2), game 5 (first 0, winner 0)
    assert g["clans"]["3"] == {"games": 2, "first_player_wins": 2, "first_player_win_rate": 1.0,
                               "seat_wins": [1, 1, 1], "seat_win_rate": [0.5, 0.5, 0.5], "extinctions": 0,
                               "average_winning_total": 52.5}  # (45 + 60) / 2
    # 4 players: game 3 (first 1, the guest at seat 1 won), game 10 (first 2, winners 1 2)
    assert g["clans"]["4"] == {"games": 2, "first_player_wins": 2, "first_player_win_rate": 1.0,
                               "seat_wins": [0, 2, 1, 0], "seat_win_rate": [0.0, 1.0, 0.5, 0.0], "extinctions": 0,
                               "average_winning_total": 53.5}  # (55 + 52) / 2
    # mammut: no first player, no points
    assert g["mammut"] == {
        "2": {"games": 1, "first_player_wins": 0, "first_player_win_rate": None, "seat_wins": [0, 0],
              "seat_win_rate": [0.0, 0.0], "extinctions": 1},
        "3": {"games": 1, "first_player_wins": 0, "first_player_win_rate": None, "seat_wins": [0, 1, 0],
              "seat_win_rate": [0.0, 1.0, 0.0], "extinctions": 0}}


def test_head_to_head(hist):
    h = stats.head_to_heads(hist.finished)
    assert h == {  # the bot of game 5 and the default names of game 6 are no one: no pairs of theirs
        # 1 Anna, 2 Bruno, 3 neither (guest), 5 Anna, 7 Bruno, 10 Anna
        "Anna|Bruno": {"games": 6, "Anna": 3, "Bruno": 2, "ties": 0},
        "Anna|Carla": {"games": 3, "Anna": 0, "Carla": 1, "ties": 1},  # 2 Carla, 3 neither, 10 both
        "Anna|Dario": {"games": 3, "Anna": 1, "Dario": 0, "ties": 0},  # 7 neither, 8 extinct, 10 Anna
        "Bruno|Carla": {"games": 3, "Bruno": 0, "Carla": 1, "ties": 1},  # 2 both, 3 neither, 10 Carla
        "Bruno|Dario": {"games": 2, "Bruno": 1, "Dario": 0, "ties": 0},  # 7 Bruno, 10 neither
        "Carla|Dario": {"games": 2, "Carla": 2, "Dario": 0, "ties": 0},  # 10, 11
    }
    assert stats.head_to_head(hist.finished, "Carla", "Anna") == {"games": 3, "Carla": 1, "Anna": 0, "ties": 1}
    assert stats.head_to_head(hist.finished, "Anna", "Guest 2") == {"games": 0, "Anna": 0, "Guest 2": 0, "ties": 0}
    assert stats.head_to_head(hist.finished, "Player 1", "Player 2") == {"games": 0, "Player 1": 0, "Player 2": 0,
                                                                         "ties": 0}
    assert stats.head_to_head(hist.finished, "carla", "ANNA") == {"games": 3, "carla": 1, "ANNA": 0, "ties": 1}


def test_colour_averages(hist):
    # every seat of every Clans game with colours, the guest's included:
    # red 40 45 55 60 52 41 = 293 / 6 = 48.833; blue 35 50 40 52 = 177 / 4; green 30 20 38 44 = 132 / 4;
    # yellow 45 30 33 30 = 138 / 4; black 25 28 = 53 / 2
    assert stats.color_averages(hist.finished) == {"black": 26.5, "blue": 44.25, "green": 33.0, "red": 48.83,
                                                   "yellow": 34.5}


def test_table_stats_holds_everything(hist):
    t = stats.table_stats(hist.finished)
    assert list(t) == ["players", "games", "colors", "head_to_head"]
    assert t["players"] == stats.player_stats(hist.finished)


def test_nothing_played():
    assert stats.player_stats([]) == {}
    assert stats.table_stats([]) == {"players": {}, "games": {}, "colors": {}, "head_to_head": {}}
    assert stats.stats_pages([]) == [("First player wins", ["No games yet"])]


def test_oled_pages_fit_and_say_the_numbers(hist):
    pages = stats.stats_pages(hist.finished)
    assert all(len(title) <= 21 and len(lines) <= 6 and all(len(line) <= 21 for line in lines)
               for title, lines in pages)
    titles = [t for t, _ in pages]
    # most games first: Anna 7, Bruno 6, Carla 4, Dario 4 (the bot and the default names are no one)
    assert titles == ["Anna", "Bruno", "Carla", "Dario", "First player wins"]
    assert pages[0][1] == ["Games 7 Wins 3", "Win 43%", "Avg 46.4 Best 60", "Best streak 1"]
    # first player wins: Clans 2p 1 of 3, 3p 2 of 2, 4p 2 of 2; mammut has no first player
    assert pages[-1][1] == ["Clans 2p: 33% (3)", "Clans 3p: 100% (2)", "Clans 4p: 100% (2)"]
