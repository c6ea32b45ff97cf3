"""The one die of a Mammut game: live from a random source, or fed the faces a log recorded.

Every roll of the game goes through `Dice`. Played live, the faces come from a
`random.Random` (or any `roll() -> int` callable a test scripts). Replayed (a game log,
a journaled action), `fed(faces)` supplies exactly the faces that entry rolled, and
complains if the entry needs fewer or more: so a replay lands on the same books whatever
the random source, and a damaged log is caught instead of silently diverging.

>>> dice = Dice(random.Random(1))
>>> with dice.fed([6, 2], "a fight"):
...     dice(), dice()
(6, 2)
"""

from __future__ import annotations

import random
from contextlib import contextmanager
from typing import Iterator, Sequence

from .rules import MammutError, Roll, check_die


def as_roll(source: Roll | random.Random) -> Roll:
    """A `roll() -> int` from a `random.Random` or a callable."""
    if isinstance(source, random.Random):
        rng = source
        return lambda: rng.randint(1, 6)
    if not callable(source):
        raise TypeError("roll must be a callable returning 1..6 or a random.Random")
    return source


class Dice:
    """A die: `dice()` rolls one face 1..6. `source` None: only fed faces can be rolled."""

    def __init__(self, source: Roll | random.Random | None = None) -> None:
        self.source: Roll | None = None if source is None else as_roll(source)
        self._fed: list[int] | None = None

    def __call__(self) -> int:
        if self._fed is not None:
            if not self._fed:
                raise MammutError("the log records fewer dice than the game needs: the log is damaged")
            face = self._fed.pop(0)
            if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
                raise MammutError(f"the log records a die showing {face!r}: the log is damaged")
            return face
        if self.source is None:
            raise MammutError("no dice to roll: a replay without the dice its log recorded")
        return check_die(self.source())

    @contextmanager
    def fed(self, faces: Sequence[int] | None, what: str) -> Iterator[None]:
        """Within the block the die shows `faces` in order (None: live); `what` names the
        entry in the error raised when it used fewer faces than were recorded."""
        if faces is None:
            yield
            return
        if not isinstance(faces, (list, tuple)):
            raise MammutError(f"the dice of {what} are not a list: the log is damaged")
        self._fed = list(faces)
        try:
            yield
            if self._fed:
                raise MammutError(f"the log records more dice than {what} needs: the log is damaged")
        finally:
            self._fed = None
