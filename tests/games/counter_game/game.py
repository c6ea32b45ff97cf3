"""The counter game's table game: players add numbers (digits, then #) until it reaches 20.

C undoes the last addition, the menu has "Reset" and "Ask" (a Hint answered by its
searcher: what to add to reach 20).
"""

from __future__ import annotations

import json
import random
from typing import Any, Iterable, Mapping

from companion.table import keys as K
from companion.table.effects import Effect, GameOver, Hint, Outbox
from companion.util.errors import ActionError
from companion.table.info import InfoPager
from companion.table.protocol import TableGameBase
from companion.table.screen import ENTRY, Header, Screen

GOAL = 20


class Counter(TableGameBase):
    KIND = "counter"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.adds: list[int] = []
        self.started = False
        self.buf = ""
        self.info = InfoPager()
        self.outbox = Outbox(self.KIND, lambda a: a["a"] == "start")
        self.reported = False

    @classmethod
    def new(cls, rng: random.Random | None = None) -> "Counter":
        return cls(rng)

    @classmethod
    def from_actions(cls, actions: Iterable[dict], rng: random.Random | None = None) -> "Counter":
        c = cls(rng)
        for a in actions:
            c._apply(a)
        return c

    @property
    def total(self) -> int:
        return sum(self.adds)

    def _apply(self, a: dict) -> None:
        kind = a.get("a")
        if kind == "start":
            self.adds, self.started, self.reported = [], True, False
        elif kind == "add" and self.started and type(a.get("n")) is int and self.total < GOAL:
            self.adds.append(a["n"])
        elif kind == "undo" and self.adds and self.total < GOAL:
            self.adds.pop()
        else:
            raise ActionError(f"counter: {a!r} does not fit")

    def _do(self, a: dict) -> None:
        self._apply(a)
        self.outbox.action(a)

    def handle(self, key: str, now: float) -> bool:
        if key == K.POWER or self.info.key(key, dismissing=(K.OK,)):
            return key != K.POWER
        if key == K.MENU:
            return False
        if not self.started:
            if key == K.OK:
                self._do({"a": "start"})
        elif key in K.DIGITS and len(self.buf) < 2:
            self.buf += key
        elif key == K.OK and self.buf and self.total < GOAL:
            self._do({"a": "add", "n": int(self.buf)})
            self.buf = ""
        elif key == K.UNDO and self.adds and self.total < GOAL:
            self._do({"a": "undo"})
        elif key == K.BACK:
            self.buf = ""
        return True

    def screen(self) -> Screen:
        shown = self.info.screen()
        if shown is not None:
            return shown
        if not self.started:
            return Screen(ENTRY, "counter-new", header=Header("Counter", line="# = start"))
        if self.total >= GOAL:
            return Screen(ENTRY, "counter-done", header=Header("Counter", f"{self.total}", "Reached!"))
        return Screen(ENTRY, "counter", header=Header("Counter", f"{self.total}/{GOAL}", "add?"),
                      entry=f"> {self.buf}_")

    def pop_effects(self) -> list[Effect]:
        result = self.finished_result()
        if result is not None and not self.reported:
            self.reported = True
            self.outbox.put(GameOver(self.KIND, result))
        return self.outbox.pop()

    def menu_items(self) -> tuple[str, ...]:
        return ("Reset", "Ask")

    def menu_choose(self, index: int) -> None:
        if index == 0:
            self._do({"a": "start"})
        elif self.started and self.total < GOAL:
            self.outbox.put(Hint(0, position=self.total))

    def deliver(self, effect: Effect, answer: Any) -> None:
        if isinstance(effect, Hint) and answer is not None:
            self.info.show("Ask", [f"Add {answer}."], "counter-hint")

    def in_progress(self) -> bool:
        return self.started and self.total < GOAL

    def record_json(self) -> str | None:
        return json.dumps({"adds": self.adds}) + "\n" if self.started else None

    def finished_result(self) -> dict | None:
        return {"total": self.total, "adds": len(self.adds)} if self.total >= GOAL else None


class Searcher:
    name = "counter"

    def run(self, effect: Effect) -> int:
        return GOAL - effect.position


def make_searcher(options: Mapping[str, Any]) -> Searcher:
    return Searcher()


TABLE_GAME = Counter
