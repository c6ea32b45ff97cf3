"""One Clans table's state, in the parts every key handler needs: `Session`.

- `state`: what the journal knows (`TableState`); changed only by `do(action)`, which
  also puts the action in the outbox;
- `ui`: what is not journaled (`Ui`: digits typed, highlights, pages, the game's own
  open question); a rebuild from the journal starts with a fresh one, so the players
  see the question or the move entry again;
- `info`: the information screens (an `InfoPager`), which go away at the next key;
- `outbox`: the effects for the daemon; `rng`: the injected randomness (setup, deal).

The key handlers (`companion.games.clans.keys_setup`, `companion.games.clans.keys_play`)
are plain functions of a Session and a key; the controller composes them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Sequence

from companion.games.clans.actions import SECRET_FIELDS, TableState, starts_game
from companion.table.effects import Outbox
from companion.table.info import InfoPager

KIND = "clans"

# The game's own questions over the play (the shell owns the menu, brightness, shut down, switch).
UNDO_QUESTION = "undo?"
NEW_QUESTION = "new?"
HUTS = "huts"

# The setup walkthrough's pages: who starts, the 12 regions' huts, then the clan cards (R1, then the
# rulebooks' deal of the secret colors; with bots the box dealt them and the cards stay in the game's box)
CARDS_PAGE = 13
SETUP_PAGES = CARDS_PAGE + 1


@dataclass
class Ui:
    buf: str = ""  # digits typed
    browsing: bool = False  # buf was put there by A/B, not typed
    frm: int | None = None  # the source of the move being entered
    overlay: str | None = None  # UNDO_QUESTION, NEW_QUESTION or HUTS
    choice_sel: int = 0  # the highlight of a MENU screen (players, first, bots)
    setup_page: int = 0
    final_page: int = 0
    asking_new: bool = False  # "New game" chosen: the players question over the game
    note: str = ""  # a short correction shown with the question
    huts_shown: int | None = None
    first_pick: int | None = None  # the "Who starts?" answer while "Bots?" is asked
    bot_choice: list[str | None] | None = None  # the "Bots?" answer in progress: per seat None (a person) or its level
    teach_choice: bool = False  # the "Bots?" screen's "First game? teach the rules" answer in progress
    deal_step: int = 0  # person k's deal: 2k = "take the box", 2k+1 = their color shown
    skip_walkthrough: bool = False  # quick start: play right after the deal
    bot_page: int = 0
    # a plain move's result shown in the next mover's entry screen: (player, from, to, huts moved);
    # the next key takes it away (a digit then starts the next move)
    moved: tuple[int, int, int, dict[str, int]] | None = None
    camera: bool = False  # frm and buf hold the move the camera saw: # confirms, any other key drops it


@dataclass
class Session:
    rng: random.Random
    state: TableState = field(default_factory=TableState)
    ui: Ui = field(default_factory=Ui)
    info: InfoPager = field(default_factory=InfoPager)
    outbox: Outbox = field(default_factory=lambda: Outbox(KIND, starts_game, SECRET_FIELDS))
    table_bot: str = ""  # the table's bot (the shell's bot_level): a seat's first level on the Bots? screen
    teach_default: bool = False  # a new game teaches the rules unless the Bots? screen says otherwise

    def do(self, action: dict) -> Any:
        """Apply a journaled action (ActionError and nothing changed if it does not fit), then journal it."""
        result = self.state.apply(action)
        self.outbox.action(action)
        return result

    def show(self, title: str, paragraphs: Sequence[str], name: str,
             first: Sequence[tuple[str, Sequence[str], str]] = ()) -> None:
        """An information screen (after the parts `first` on their own pages); it closes the game's open question."""
        self.info.show(title, paragraphs, name, first)
        self.ui.overlay = None
        self.ui.moved = None

    def ui_mode(self) -> str:
        """Which screen and keys apply under any open question: the journal's mode, or "bots" / "players"."""
        return ui_mode(self.state, self.ui)

    def dealing(self) -> bool:
        return dealing(self.state, self.ui)


def ui_mode(state: TableState, ui: Ui) -> str:
    if ui.asking_new:
        return "players"
    mode = state.mode()
    return "bots" if mode == "first" and ui.bot_choice is not None else mode


def dealing(state: TableState, ui: Ui) -> bool:
    """The box is dealing the persons' secret colors (a game with bots, before the walkthrough)."""
    return bool(state.dealt) and ui.deal_step < 2 * len(state.dealt)
