"""The counter game as the table knows it before loading it (companion.table.gametype)."""

from companion.table.gametype import GameType

GAME = GameType(
    kind="counter", title="Counter", name="Counter to Twenty", module="counter_game.game",
    designers="The test suite", min_players=1, max_players=4, bgg_id=99999, bgg_year=2026,
    min_play_time=1, max_play_time=5, min_age=6,
    bots=("counter",), default_bot="counter", searcher="counter_game.game:make_searcher", history="counter_game.history",
)
