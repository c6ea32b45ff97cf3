"""A fourth game, for the tests only: the counter game's rules under another name, with what a
game may bring besides its code: its own player range (2-3), a buzzer sound and its words, and
a stylesheet for the page, all in this folder and registered by one line
(`companion.games.register_game("dice_game.about")`)."""
