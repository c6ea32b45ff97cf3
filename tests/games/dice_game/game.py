"""The dice game's table game: the counter game's rules, and its own beep when it reaches 20."""

from __future__ import annotations

from counter_game.game import Counter

from companion.table.effects import Effect, beep


class Dice(Counter):
    KIND = "dice"

    def pop_effects(self) -> list[Effect]:
        done = self.finished_result() is not None and not self.reported
        return self.outbox.pop() if not done else [beep("goal", self.KIND), *super().pop_effects()]


TABLE_GAME = Dice
