"""Who sits where: at a new game, when the table has a roster, each person's seat picks a name.

The shell opens it once the game knows its seats (`TableGame.seats()`: how many, which
are bots, each by the word the game gives it, "bot" for the table's). Bots are named at once ("Bot 2 (hard)"); every person's seat in turn picks
a roster name not taken yet, or Guest (a seat named "Guest N", never counted as one
person in the statistics), with A/B (or a digit) and #; * goes back a seat. The full
list of names is the result (companion.table.seatnames).

The roster reaching it was checked where it came in (the config, the page, the journal's
setting), but the keypad is a door too: a roster name the names' rule (`seatnames.check_name`)
refuses is not offered (a warning in the log says which and why), so every name a seat takes
here is one the rule accepts, as it would keep it.
"""

from __future__ import annotations

import logging
from typing import Sequence

from companion.i18n import _, pgettext
from companion.table import keys as K
from companion.table import seatnames
from companion.table.screen import MENU, Screen

log = logging.getLogger(__name__)


def offered(roster: Sequence[object]) -> list[str]:
    """The roster's names a seat may take: each as the names' rule keeps it, the refused ones left out
    (each named in the log), none twice, none the table gives itself ("Player 2")."""
    out: list[str] = []
    for raw in roster:
        try:
            name = seatnames.check_name(raw)
        except seatnames.NameRefused as exc:
            log.warning("roster name not offered: %s", exc)
            continue
        if not seatnames.is_placeholder(name) and seatnames.same_key(name) not in map(seatnames.same_key, out):
            out.append(name)
    return out


class SeatNaming:
    """The open question "who sits at seat N?" (see the module docstring)."""

    def __init__(self, roster: Sequence[object], seats: Sequence[str | None], bot_level: str) -> None:
        self.roster = offered(roster)
        self.names: list[str | None] = [None if kind is None else seatnames.bot_name(i, bot_level if kind == "bot" else kind)
                                        for i, kind in enumerate(seats)]
        self.persons = [i for i, kind in enumerate(seats) if kind is None]
        self.at = 0  # index into persons
        self.selected = 0

    @property
    def done(self) -> bool:
        return self.at >= len(self.persons)

    def choices(self) -> list[str | None]:
        """The names seat `persons[at]` may take (the roster's not taken by another seat), then None: Guest."""
        seat = self.persons[self.at]
        taken = {n for i, n in enumerate(self.names) if i != seat and n}
        return [n for n in self.roster if n not in taken] + [None]

    def key(self, key: str) -> bool:
        """Take one key; True when every seat has its name."""
        choices = self.choices()
        moved = K.select(key, self.selected, len(choices))
        if moved is not None:
            self.selected = moved
        elif key == K.OK:
            seat = self.persons[self.at]
            self.names[seat] = choices[self.selected] or seatnames.guest_name(seat)
            self.at, self.selected = self.at + 1, 0
        elif key == K.BACK and self.at > 0:
            self.at, self.selected = self.at - 1, 0
            self.names[self.persons[self.at]] = None
        return self.done

    def result(self) -> list[str]:
        return [n or seatnames.default_name(i) for i, n in enumerate(self.names)]

    def screen(self) -> Screen:
        seat = self.persons[self.at]
        # NOTE: max 3 characters; a seat: P1..P4 (the same words as the games' seats)
        label = pgettext("short player", "P{number}").format(number=seat + 1)
        # NOTE: title bar, max 25 characters: which seat ({seat}: P1..P4) picks its player's name
        title = _("Who is {seat}?").format(seat=label)
        # NOTE: max 16 characters; a seat whose player is not on the roster
        guest = pgettext("seat name", "Guest")
        return Screen(MENU, "names", title, selected=self.selected,
                      choices=tuple(f"{i + 1} {n or guest}" for i, n in enumerate(self.choices())))
