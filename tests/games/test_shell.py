"""The shell around a game: the D menu's frame, brightness that survives a switch,
shutting down (menu or POWER), the switch question, and old journals' brightness."""

from __future__ import annotations

import random

from counter_game.game import Counter
from tests.support import Shouting

from companion.table.effects import Persist, PowerOff, SetBrightness, SwitchGame
from companion.table.protocol import GameType
from companion.table.shell import DEFAULT_BRIGHTNESS, Shell

CATALOG = [GameType("counter", "Counter", "Counter", "counter_game.game"),
           GameType("other", "Other", "Other", "counter_game.game")]


def shell_with(keys: str = "") -> Shell:
    s = Shell(CATALOG, "counter", Counter(), random.Random(1))
    for k in keys:
        s.handle(k, 0.0)
    return s


def test_menu_is_the_games_items_then_the_tables():
    s = shell_with("D")
    assert s.screen().choices == ("1 Reset", "2 Ask", "3 Brightness", "4 Play Other", "5 Language",
                                    "6 Shut down", "7 About", "8 Sound", "9 Say again", "10 Phone view")
    s.handle("B", 0.0)
    assert s.screen().selected == 1
    s.handle("*", 0.0)
    assert s.screen().name == "counter-new"


def test_brightness_is_an_effect_and_survives_a_switch():
    s = shell_with("D3#")
    assert s.screen().name == "brightness" and s.screen().selected == DEFAULT_BRIGHTNESS - 1
    s.handle("2", 0.0)
    s.handle("#", 0.0)
    assert s.pop_effects() == [SetBrightness(2)] and s.brightness == 2
    for k in "D4#":  # no game in progress: switch at once
        s.handle(k, 0.0)
    assert s.pop_effects() == [SwitchGame("other")] and s.kind == "other" and s.brightness == 2
    for k in "D3#2#":  # the same level again: nothing to do
        s.handle(k, 0.0)
    assert s.pop_effects() == []


def test_switch_asks_first_while_a_game_is_in_progress():
    s = shell_with("#D4#")
    assert s.screen().name == "switch?"
    s.handle("*", 0.0)
    assert s.kind == "counter" and [type(e) for e in s.pop_effects()] == [Persist]
    for k in "D4##":
        s.handle(k, 0.0)
    assert s.kind == "other" and s.pop_effects() == [SwitchGame("other")]


def test_power_key_and_menu_shut_down_after_a_yes():
    s = shell_with("#5")
    s.handle("POWER", 0.0)
    assert s.screen().name == "shutdown?"
    s.handle("*", 0.0)
    assert not s.shutting_down and s.screen().entry == "> 5_"  # the game's state is untouched
    for k in "D6#":
        s.handle(k, 0.0)
    assert s.screen().name == "shutdown?"
    s.handle("#", 0.0)
    assert s.shutting_down and s.screen().name == "bye" and PowerOff() in s.pop_effects()
    s.handle("1", 0.0)  # keys after that change nothing
    assert s.screen().name == "bye"


def test_old_journals_keep_brightness_among_the_actions():
    old = [{"a": "start"}, {"a": "brightness", "level": 2}, {"a": "add", "n": 3}, {"a": "brightness", "level": 5}]
    assert Shell.split_journal(old) == ([{"a": "start"}, {"a": "add", "n": 3}], 5)
    assert Shell.split_journal(old, brightness=1)[1] == 1  # the setting the table keeps now wins
    assert Shell.split_journal([{"a": "brightness", "level": 9}]) == ([], DEFAULT_BRIGHTNESS)


def test_a_table_message_shows_over_everything_and_any_key_only_dismisses_it():
    s = shell_with("D")
    s.tell("Cannot save", ["Storage full."], "unsaved")
    assert s.screen().name == "unsaved" and s.question is None
    s.handle("5", 0.0)  # dismissed, not typed into the game
    assert s.screen() == Counter().screen()
    s.tell("Cannot save", ["Storage full."], "unsaved")
    s.handle("POWER", 0.0)  # the power key is never swallowed
    assert s.screen().name == "shutdown?"


def test_history_is_a_menu_line_when_the_table_keeps_one():
    finished = [{"kind": "counter", "finished": 0.0, "result": {"totals": [20, 7], "winners": [0]}},
                {"kind": "counter", "finished": 0.0, "result": {"abandoned": True}},
                {"kind": "gone", "finished": 0.0, "result": {"totals": [1], "winners": [0]}}]
    s = Shell(CATALOG, "counter", Counter(), random.Random(1), history=lambda: finished)
    for k in "D":
        s.handle(k, 0.0)
    choices = s.screen().choices
    assert choices[-7:] == ("5 History", "6 Language", "7 Shut down", "8 About", "9 Sound", "10 Say again",
                            "11 Phone view")
    for k in "5#":
        s.handle(k, 0.0)
    screen = s.screen()
    assert screen.name == "history" and screen.title == "History"
    text = " ".join(screen.lines)
    assert "Counter: P1 20, P2 7; P1 won" in text and text.count("Counter") == 1
    empty = Shell(CATALOG, "counter", Counter(), random.Random(1), history=lambda: [])
    for k in "D5#":
        empty.handle(k, 0.0)
    assert "No finished game yet." in " ".join(empty.screen().lines)
    assert "History" not in " ".join(shell_with("D").screen().choices)  # no journal, no history


def test_the_language_item_switches_at_once_and_is_an_effect(monkeypatch):
    from companion import i18n
    from companion.table.effects import SetLanguage

    monkeypatch.setitem(i18n._catalogs, "de", Shouting())
    s = shell_with("D5#")
    screen = s.screen()
    assert screen.name == "language" and screen.title == "Language"
    assert screen.choices == ("1 English *", "2 Italiano", "3 Español", "4 Français", "5 Deutsch")
    for k in "5#":
        s.handle(k, 0.0)
    assert i18n.language() == "de" and s.pop_effects() == [SetLanguage("de")]
    s.handle("D", 0.0)
    assert s.screen().title == "MENU" and "5 LANGUAGE" in s.screen().choices  # at once, no restart
    for k in "5#5#":  # the same language again: nothing to journal
        s.handle(k, 0.0)
    assert s.pop_effects() == []
    for k in "D5#*":  # * leaves the list unchanged
        s.handle(k, 0.0)
    assert i18n.language() == "de" and s.pop_effects() == []
