"""The D menu numbers its items 1-14: every one of them is picked by its number, 10-14 with two digits
(issue 53, item 1: `D 1 1 #` opened item 1), and a single digit still picks as it always did."""

from __future__ import annotations

import random

from companion.games import GAMES
from companion.games.clans.controller import Controller
from companion.table import keys as K
from companion.table.shell import Shell


def clans_shell() -> Shell:
    """A Clans table with a journal's History: the menu's 14 items of docs/playing.md."""
    rng = random.Random(1)
    return Shell(list(GAMES.values()), "clans", Controller.quick_start(2, rng), rng, history=lambda: [])


def press(shell: Shell, keys: str) -> None:
    for k in keys:
        shell.handle(k, 0.0)


def test_the_menu_has_fourteen_numbered_items():
    s = clans_shell()
    press(s, "D")
    choices = s.screen().choices
    assert len(choices) == 14 and choices[10].startswith("11 ") and choices[13].startswith("14 ")


def pressed(keys: str) -> Shell:
    """A fresh Clans table after `keys`."""
    s = clans_shell()
    press(s, keys)
    return s


def test_two_digits_pick_items_10_to_14():
    for number in range(10, 15):
        s = pressed(f"D{number}")
        assert s.screen().name == "menu" and s.screen().selected == number - 1, number
    assert pressed("D11#").screen().name == "about"  # About: the table's message, not "New game?"
    assert pressed("D12#").screen().name == "sound"
    assert pressed("D14#").screen().name == "phone-off"  # Phone view, while the page does not run


def test_a_single_digit_still_picks_its_item():
    assert pressed("D1#").screen().name == "new?"  # 1 waits for a second digit, # opens what is highlighted: item 1
    assert pressed("D6#").screen().name == "brightness"
    assert pressed("D4").screen().selected == 3


def test_a_digit_that_makes_no_item_starts_a_new_number():
    s = clans_shell()
    press(s, "D15")  # no item 15: 5
    assert s.screen().selected == 4
    press(s, "11")  # after 5 (no item 50 or more) the 1 starts afresh: 11
    assert s.screen().selected == 10
    press(s, "1")  # 11 is whole (no item 110): 1 again
    assert s.screen().selected == 0
    press(s, "B1")  # A/B forget the digits typed: 1, not 11
    assert s.screen().selected == 0


def test_select_number():
    assert K.select_number("1", 0, 14) == (0, "1")
    assert K.select_number("3", 0, 14, "1") == (12, "")
    assert K.select_number("7", 0, 14, "1") == (6, "")
    assert K.select_number("0", 0, 14, "1") == (9, "")
    assert K.select_number("0", 3, 14) == (None, "")
    assert K.select_number("B", 3, 14, "1") == (4, "")
    for digit in "123456789":  # nine rows or fewer: each digit at once, as select()
        assert K.select_number(digit, 0, 9, "1") == (int(digit) - 1, "")
