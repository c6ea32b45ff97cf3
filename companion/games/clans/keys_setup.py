"""Keys of the new-game questions: players, "Who starts?", "Bots?", the deal of colors, the walkthrough
(who starts, the huts region by region, then the clan cards: # on that last page starts play).

Plain functions of a `Session` and a key, composed by the controller. "Bots?": a digit
cycles a seat: person, then a bot at the table's level (normal unless the config says), then
the other levels (hard, easy), then person again; the voice says each; # on Start confirms
(Start is highlighted, so a table without bots just presses #). Above Start, "0 teach rules": 0 (or #
on it) switches a first game's teaching on or off (companion.games.clans.teach), starting as the table's
default (`--teach`, the config's game.teach). In a game with bots the box deals EVERY seat's color
(distinct colors drawn with the injected rng, journaled in "new") and the clan cards
stay in the box: before the walkthrough each person in turn takes the box alone and
reads their color (UI state, shown again after a rebuild).
"""

from __future__ import annotations

from typing import Any

from companion.games.clans import speech as S
from companion.games.clans import texts_setup as TS
from companion.games.clans.board import COLORS
from companion.games.clans.keys_play import explain_start
from companion.games.clans.levels import DEFAULT_LEVEL, LEVEL_CYCLE
from companion.games.clans.game import random_setup
from companion.games.clans.session import CARDS_PAGE, Session
from companion.i18n import _
from companion.table import keys as K


def key_players(s: Session, key: str) -> None:
    ui = s.ui
    if key in K.DIGITS:
        if key in "234":
            ui.choice_sel, ui.note = int(key) - 2, ""
        else:
            ui.note = _(TS.PLAYERS_NOTE)
    elif key in (K.UP, K.DOWN):
        ui.choice_sel = (ui.choice_sel + K.step(key)) % 3
    elif key == K.OK:
        s.do({"a": "players", "n": ui.choice_sel + 2})
        ui.asking_new, ui.choice_sel, ui.note = False, 0, ""
        ui.bot_choice, ui.first_pick = None, None  # asked again for this many players (a storm found
        # seats of an earlier answer kept: three seats' bots for two players, refused by the engine)
    elif key == K.BACK and ui.asking_new:
        ui.asking_new, ui.note = False, ""


def key_first(s: Session, key: str) -> None:
    ui = s.ui
    n = s.state.players_choice or 2
    if key in K.DIGITS:
        if int(key) <= n:
            ui.choice_sel, ui.note = int(key), ""
        else:
            ui.note = TS.first_note(n)
    elif key in (K.UP, K.DOWN):
        ui.choice_sel = (ui.choice_sel + K.step(key)) % (n + 1)
    elif key == K.OK:
        ui.first_pick = ui.choice_sel - 1 if ui.choice_sel else None
        ui.bot_choice, ui.choice_sel, ui.note = [None] * n, n + 1, ""
        ui.teach_choice = s.teach_default
    elif key == K.BACK:
        s.do({"a": "restart"})
        ui.choice_sel = 0


def key_bots(s: Session, key: str) -> None:
    """The "Bots?" question: seats 0..n-1, then teaching (choice_sel == n), then Start (n + 1)."""
    ui = s.ui
    assert ui.bot_choice is not None
    n = len(ui.bot_choice)
    if key in K.DIGITS:
        if 1 <= int(key) <= n:
            cycle_seat(s, int(key) - 1)
        elif key == "0":
            toggle_teach(s)
        else:
            ui.note = TS.bots_note(n)
    elif key in (K.UP, K.DOWN):
        ui.choice_sel = (ui.choice_sel + K.step(key)) % (n + 2)
    elif key == K.OK:
        if ui.choice_sel < n:
            cycle_seat(s, ui.choice_sel)
        elif ui.choice_sel == n:
            toggle_teach(s)
        else:
            new_game(s, ui.first_pick, {seat: level for seat, level in enumerate(ui.bot_choice) if level},
                     ui.teach_choice)
    elif key == K.BACK:
        first = ui.first_pick
        ui.bot_choice, ui.note = None, ""
        ui.choice_sel = 0 if first is None else first + 1


def seat_cycle(table_bot: str) -> tuple[str | None, ...]:
    """What a seat goes through on the Bots? screen: person, the table's bot, the other levels."""
    first = table_bot if table_bot and table_bot != "bot" else DEFAULT_LEVEL
    return (None, first, *(level for level in LEVEL_CYCLE if level != first))


def cycle_seat(s: Session, seat: int) -> None:
    """A seat's next kind on the Bots? screen (one seat always stays a person); said aloud."""
    choice = s.ui.bot_choice
    assert choice is not None
    cycle = seat_cycle(s.table_bot)
    now = choice[seat] if choice[seat] in cycle else cycle[-1]
    nxt = cycle[(cycle.index(now) + 1) % len(cycle)]
    if choice[seat] is None and choice.count(None) == 1:
        s.ui.note = _(TS.ONE_PERSON_NOTE)
        return
    choice[seat] = nxt
    s.ui.note = ""
    s.outbox.put(S.seat_kind(seat, nxt))


def toggle_teach(s: Session) -> None:
    """The Bots? screen's "teach rules": on or off, said aloud."""
    s.ui.teach_choice = not s.ui.teach_choice
    s.ui.note = ""
    s.outbox.put(S.teach_choice(s.ui.teach_choice))


def new_game(s: Session, first: int | None, bots: dict[int, str] | None = None, teach: bool = False) -> None:
    """Draw the setup (and the start player unless given, and every seat's color when there are bots,
    each bot seat's level journaled with them); `teach`: a first game (journaled only when on)."""
    n = s.state.players_choice or 2
    drawn = first is None
    if first is None:
        first = s.rng.randrange(n)
    setup = random_setup(s.rng)
    action: dict[str, Any] = {"a": "new", "players": n, "first": first, "drawn": drawn,
                              "setup": {str(t): c for t, c in sorted(setup.items())}}
    if bots:  # drawn after the setup: a game without bots draws exactly what it always drew
        colors = s.rng.sample(COLORS, n)
        action["bots"] = {str(seat): colors[seat] for seat in range(n) if seat in bots}
        action["dealt"] = {str(seat): colors[seat] for seat in range(n) if seat not in bots}
        action["levels"] = {str(seat): bots[seat] for seat in sorted(bots)}
    if teach:
        action["teach"] = True
    s.do(action)
    ui = s.ui
    ui.setup_page, ui.choice_sel, ui.note = 0, 0, ""
    ui.bot_choice, ui.first_pick, ui.deal_step = None, None, 0


def key_setup(s: Session, key: str) -> None:
    """The deal (only # goes on), then the walkthrough region by region and the clan cards; # on the
    last page: play."""
    ui = s.ui
    if s.dealing():
        if key == K.OK:
            ui.deal_step += 1
            if not s.dealing() and ui.skip_walkthrough:
                s.do({"a": "ready"})
                explain_start(s)
        return
    if key in (K.OK, K.DOWN):
        if ui.setup_page >= CARDS_PAGE:
            if key == K.OK:
                s.do({"a": "ready"})
                explain_start(s)
        else:
            ui.setup_page += 1
    elif key in (K.BACK, K.UP):
        ui.setup_page = max(0, ui.setup_page - 1)
