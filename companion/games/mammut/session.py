"""One Mammut table's state, in the parts every key handler needs: `Session`.

- `state`: what the journal knows (`actions.TableState`); changed only by `do(action)`,
  which also puts the action in the outbox;
- `ui`: what is not journaled (`Ui`: digits typed, highlights, pages, the view, the game's
  own open question, the new-game answers so far); a rebuild starts with a fresh one;
- `info`: the information screens (an `InfoPager`), which go away at the next key;
- `outbox`: the effects for the daemon.

The key handlers (`keys_play`) are plain functions of a Session and a key; the screens
(`screens`) are built from one. A question is on screen as one `forms.Field` at a time.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from companion.i18n import _
from companion.table.effects import Outbox
from companion.table.info import InfoPager
from companion.table.screen import TITLE_COLS

from . import speech as S
from . import texts as T
from .actions import KIND, TableState, starts_game
from .forms import Field, OpenForm, next_field

MAX_ENTRY_DIGITS = 2

# The game's own questions over the play (the shell owns the menu, brightness, shut down, switch).
UNDO_QUESTION = "undo?"
NEW_QUESTION = "new?"

# What the table looks at when no question or message is shown.
PHASE, LIST, FORM = "phase", "list", "form"


@dataclass
class Ui:
    buf: str = ""  # digits typed
    sel: int = 0  # the highlight of a list question
    field_key: tuple | None = None  # the question `buf` and `sel` belong to
    view: str = PHASE  # the phase's information, its list of actions, or the game's own question
    page: int = 0  # of the phase's information
    list_sel: int = 0
    overlay: str | None = None  # UNDO_QUESTION or NEW_QUESTION
    new_form: OpenForm | None = None  # the new-game questions' answers so far


@dataclass
class Session:
    rng: random.Random
    state: TableState = field(init=False)
    ui: Ui = field(default_factory=Ui)
    info: InfoPager = field(default_factory=InfoPager)
    outbox: Outbox = field(default_factory=lambda: Outbox(KIND, starts_game))

    def __post_init__(self) -> None:
        self.state = TableState(self.rng)

    def do(self, action: dict) -> Any:
        """Apply `action` (raises before anything is journaled) and journal it, a game call with its dice.
        It is applied as the journal keeps it (JSON, keys sorted), so a rebuild after a restart
        holds the same game byte for byte (a fight's sides in the same key order)."""
        action = json.loads(json.dumps(action, sort_keys=True))
        result = self.state.apply(action)
        if action["a"] == "do":
            assert self.state.game is not None
            action = {**action, "rolls": list(self.state.game.log[-1]["rolls"])}
        self.outbox.action(action)
        if action.get("rolls"):
            self.outbox.put(S.dice(action["rolls"]))
        return result

    def reset_ui(self) -> None:
        """A fresh UI after a rebuild: the open question on screen if there is one (a fight
        waiting for a lost token too), else the phase."""
        mid_fight = self.state.game is not None and self.state.game.battle is not None
        self.ui = Ui(view=FORM if self.state.form is not None or mid_fight else PHASE)
        self.info.clear()

    # ----- messages ------------------------------------------------------------------------------
    def show(self, title: str, paragraphs: list[str], name: str) -> None:
        self.info.show(title[:TITLE_COLS], paragraphs, name)

    def refuse(self, message: str) -> None:
        self.show(_(T.REFUSED_TITLE), [T.refusal(message)], "error")
        self.outbox.extend(S.refused(message))

    def title(self) -> str:
        return T.title(self.state.game)

    # ----- the question on screen ------------------------------------------------------------------
    def ui_form(self) -> OpenForm | None:
        """The question on screen: the new-game questions (UI only, journaled as one "new"
        action when complete), else the game's."""
        if self.ui.new_form is not None:
            return self.ui.new_form
        if self.state.game is None:
            return OpenForm("new")
        return self.state.current_form()

    def form_on_screen(self) -> bool:
        """A form open by the table, or the game's own question once the table got to it."""
        return (self.ui.new_form is not None or self.state.game is None or self.state.form is not None
                or self.ui.view == FORM)

    def field(self, form: OpenForm) -> Field | None:
        return next_field(self.state.game, form)

    def field_id(self) -> tuple | None:
        form = self.ui_form()
        if form is None:
            return None
        f = self.field(form)
        return form.kind, repr(form.ctx), len(form.answers), f.name if f else None

    def fresh_field(self) -> bool:
        """The question on screen changed since the last key: its entry is empty, its first choice lit."""
        return self.field_id() != self.ui.field_key

    def sync_field(self) -> None:
        """A new question starts with an empty entry and its default choice selected."""
        key = self.field_id()
        if key != self.ui.field_key:
            self.ui.field_key, self.ui.buf, self.ui.sel = key, "", 0
