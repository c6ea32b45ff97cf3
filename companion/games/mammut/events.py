"""Phase 1 on the books of a Mammut game: the two event decks, the region die and the
table's notes of effects that last until the end of the season. A mixin of
`game.MammutGame` over `books.Books`.

The rulebook prints no card texts, so the companion cannot apply an event: it counts the
decks (15 summer, 15 winter cards, rulebook lines 15-16) and their discards, says when a
deck is reshuffled (line 74), rolls the region die and says what it selects (line 80), and
keeps the notes the table picks for "effetti continuativi fino alla fine della stagione"
(line 84), shown every turn and cleared when the season changes (`turns`).
"""

from __future__ import annotations

from companion.i18n import _

from . import rules as R
from .books import Books
from .rules import MammutError

MAX_NOTES = 4  # more lasting effects than this in one season is a mistyped note


class Events(Books):
    """The event decks (`_draw_event`, on entering phase 1), `roll_region`, `add_note`."""

    def _draw_event(self) -> None:
        """One card of the season's deck is drawn and discarded after it resolves; an empty
        deck is first reshuffled from its discards (rulebook line 74)."""
        deck = self.event_decks[self.season]
        if deck["left"] == 0:
            deck["left"], deck["discards"] = deck["discards"], 0
            self.event_reshuffled = True
        deck["left"] -= 1
        deck["discards"] += 1

    def roll_region(self, terrain: str) -> int:
        """The region die for an event: region 1-6 of the `terrain` the card names
        (plain, forest or mountain; volcanoes count as mountains). Rolled and logged."""

        def do() -> int:
            self._in_turn()
            if terrain not in R.TERRAINS:
                raise MammutError(f"a region is of {', '.join(R.TERRAINS)}, not {terrain!r}")
            return self._die()

        return self._run("roll_region", {"terrain": terrain}, do)

    def add_note(self, note: str) -> None:
        """The table notes an effect that lasts until the end of the season (one of
        `rules.SEASON_NOTES`); it is shown every turn and cleared when the season ends."""

        def do() -> None:
            self._in_turn()
            if note not in R.SEASON_NOTES:
                raise MammutError(f"a season note is one of {', '.join(R.SEASON_NOTES)}, not {note!r}")
            if note in self.notes:
                raise MammutError(_("{note} is already noted until the end of the season").format(note=note))
            if len(self.notes) >= MAX_NOTES:
                raise MammutError(_("{n} notes already: take one back with C first").format(n=MAX_NOTES))
            self.notes.append(note)

        self._run("add_note", {"note": note}, do)
