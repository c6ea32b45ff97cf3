"""What the Mammut table shows: one `Screen` built from a `Session`, changing nothing.

In order: a message (`InfoPager`), the game's own question (Undo? / New game?), the
question on screen (a number entry or a list), the phase's list of actions, else the
phase's information (paged with A/B). The words are `texts` and `prompts`.
"""

from __future__ import annotations

from companion.i18n import _
from companion.table.screen import MENU, TEXT, Screen, confirm_screen, wrap

from . import outcomes as O
from . import prompts as P
from . import texts as T
from .forms import UNDO_WORDS, OpenForm
from .keys_play import actions, on_list, phase_pages
from .session import NEW_QUESTION, UNDO_QUESTION, Session


def build_screen(s: Session) -> Screen:
    """What to show now (pure)."""
    shown = s.info.screen()
    if shown is not None:
        return shown
    if s.ui.overlay is not None:
        return question_screen(s, s.ui.overlay)
    game = s.state.game
    form = s.ui_form()
    if form is not None and s.form_on_screen():
        return form_screen(s, form)
    if game is not None and on_list(s, form):
        items = actions(game)
        return Screen(MENU, "actions", s.title(), choices=tuple(label for _value, label in items),
                      selected=min(s.ui.list_sel, len(items) - 1), hint=_(T.ACTIONS_HINT))
    assert game is not None  # without a game the new-game questions are on screen
    pages = phase_pages(game)
    page = min(s.ui.page, len(pages) - 1)
    return Screen(TEXT, "phase", s.title(), pages[page], page, len(pages))


def form_screen(s: Session, form: OpenForm) -> Screen:
    """One question: a list (MENU) or a number entry (TEXT with an input line)."""
    f = s.field(form)
    assert f is not None
    name = f"{form.kind}:{f.name}"
    fresh = s.fresh_field()
    if f.is_choice:
        sel = 0 if fresh else min(s.ui.sel, len(f.choices) - 1)
        return Screen(MENU, name, f.prompt, choices=tuple(label for _value, label in f.choices), selected=sel,
                      hint=s.title() if s.state.game is not None else _(P.CHOICE_HINT))
    typed = "" if fresh else s.ui.buf
    return Screen(TEXT, name, s.title(), tuple(wrap([f.prompt])) + (P.number_keys(f.default),), entry=P.entry(typed))


def question_screen(s: Session, overlay: str) -> Screen:
    """The game's own yes/no questions."""
    if overlay == UNDO_QUESTION:
        game = s.state.need_game()
        entry = game.log[-1]
        what = O.take_back(O.undo_words(game, entry, UNDO_WORDS), O.entry_who(game, entry))
        return confirm_screen(UNDO_QUESTION, _(T.UNDO_QUESTION_TITLE), what, yes_no())
    assert overlay == NEW_QUESTION, overlay
    return confirm_screen(NEW_QUESTION, _(T.NEW_GAME_QUESTION_TITLE), _(T.ABANDON), yes_no())


def yes_no() -> str:
    """The keys of a yes/no question."""
    # NOTE: max 21 characters; the keys # and * stay as they are
    return _("# = yes  * = no")
