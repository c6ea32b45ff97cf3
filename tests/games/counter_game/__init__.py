"""A third game, for the tests only: the smallest thing that plays on the table.

It is laid out as a real game's folder (companion/games/<kind>/): `about.py` describes it
(its `GameType`), `game.py` plays it, `history.py` tells the history what a finished game
was. It shows that a game is its folder and one registration line
(`companion.games.register_game("counter_game.about")`): the daemon plays it headless,
journals and resumes it, the menus offer it, and the history, statistics and exports
count it with the facts of its description, without a line elsewhere knowing it.
"""
