"""The dice game as the table knows it before loading it (companion.table.gametype)."""

from companion.table.gametype import GameType, Statistic

GAME = GameType(
    kind="dice", title="Dice", name="Dice to Twenty", module="dice_game.game", designers="The test suite",
    min_players=2, max_players=3, min_play_time=1, max_play_time=5,
    sounds={"goal": ((990.0, 0.1), (None, 0.05), (990.0, 0.1))}, sound_words={"goal": "Beep: twenty reached."},
    stylesheet="dice_game:page.css", history="dice_game.history",
    statistics=(Statistic("rolls", "player", "dice_game.history:rolls", column="rolls", title="Rolls"),
                Statistic("fastest", "game", "dice_game.history:fastest", column="fastest", title="Fewest rolls")),
)
