"""What the key storms (tests/fuzz/test_storms.py) found in Clans, each kept as a plain key sequence."""

from __future__ import annotations

import random

from companion.games.clans.controller import Controller


def test_a_new_game_for_fewer_players_asks_the_bots_again():
    """Bots chosen for 3 players, then the menu's New game for 2: the old answer's three seats
    stayed, and Start with two of them bots made a "new" action the engine refused (a traceback
    on every #). The players' answer now clears the seats."""
    c = Controller(random.Random(1))
    for key in "3##":  # 3 players, drawn at random, at "Bots?"
        c.handle(key, 0)
    assert c.screen().name == "bots" and len(c.screen().choices) == 5  # 3 seats, teaching, Start
    c.menu_choose(0)  # New game
    for key in "2#":
        c.handle(key, 0)
    assert c.screen().name == "first"
    for key in "#12":  # to "Bots?" again, then both seats bots: one stays a person
        c.handle(key, 0)
    assert c.screen().name == "bots" and len(c.screen().choices) == 4
    assert c.screen().selected == 3  # Start, highlighted from the first
    c.handle("#", 0)
    assert c.state.game is not None and c.state.game.players == 2
    assert len(c.state.bots) == 1 and len(c.state.dealt) == 1
