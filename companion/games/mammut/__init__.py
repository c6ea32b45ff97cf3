"""Valley of the Mammoths (Bruno Faidutti, 2001): pure rules and bookkeeping.

The board stays physical and unknown to the companion: the table reports counts, the
companion keeps every tribe's books, rolls the dice and walks the turn. `rules` holds the
constants and pure functions, `game` the serialisable turn-walking state machine.
"""
