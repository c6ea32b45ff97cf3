"""The Mammut table's keys, as plain functions of a `Session` and a key.

Input is one question per screen: a number ("Tribe 2 fishing spaces? > 3_", digits or A/B
to step, # to confirm, * to clear or go back) or a short list (A/B or a digit, and #).
When a form's last answer is given it becomes one game call; a refused answer shows the
refusal and changes nothing. Away from a question the table reads the phase (A/B page, #
goes on: to the list, the game's own question, or the next phase) or the phase's list of
actions (A/B or a digit, # does it, * back to the phase). C asks to undo; the game's own
questions "Undo?" and "New game?" take # or *.
"""

from __future__ import annotations

from typing import Any, Callable

from companion.i18n import _
from companion.table import keys as K
from companion.util.errors import ActionError
from companion.table.screen import paginate

from . import help_texts as H
from . import outcomes as O
from . import texts as T
from .actions import call
from .forms import FORMS, UNDO_WORDS, Field, OpenForm, derived_form
from .game import MammutGame
from .phases import Phase
from .rules import MammutError
from .session import FORM, LIST, MAX_ENTRY_DIGITS, NEW_QUESTION, PHASE, UNDO_QUESTION, Session

LIST_PHASES = (Phase.SETUP, Phase.EVENTS, Phase.TRIBES_MOVE, Phase.COMBAT, Phase.SOWING)


# ----- where a key goes --------------------------------------------------------------------------
def key_table(s: Session, key: str) -> None:
    """A key for the question, the list or the phase on screen (no message or overlay is shown)."""
    game = s.state.game
    form = s.ui_form()
    if form is not None and s.form_on_screen():
        key_form(s, form, key)
    elif game is not None and on_list(s, form):
        key_list(s, game, key)
    elif game is not None:
        key_phase(s, game, key)


def on_list(s: Session, form: OpenForm | None) -> bool:
    """The phase's list is on screen (also when the game's own question was just answered)."""
    return s.ui.view == LIST or (s.ui.view == FORM and form is None)


# ----- a question --------------------------------------------------------------------------------
def key_form(s: Session, form: OpenForm, key: str) -> None:
    f = s.field(form)
    if f is None:  # cannot happen: complete forms are submitted at once
        return
    ui = s.ui
    if f.is_choice:
        moved = K.select(key, ui.sel, len(f.choices))
        if moved is not None:
            ui.sel = moved
        elif key == K.OK:
            answer(s, form, f, f.choices[ui.sel][0])
        elif key == K.BACK:
            back(s, form)
        return
    if key in K.DIGITS:
        if len(ui.buf) >= MAX_ENTRY_DIGITS:
            ui.buf = ""
        ui.buf = (ui.buf + key).lstrip("0") or "0"
    elif key in (K.UP, K.DOWN):
        value = step(f, ui.buf, key)
        if value is not None:
            ui.buf = str(value)
    elif key == K.OK:
        if ui.buf:
            answer(s, form, f, int(ui.buf))
        elif f.default is not None:
            answer(s, form, f, f.default)
    elif key == K.BACK:
        if ui.buf:
            ui.buf = ""
        else:
            back(s, form)


def step(f: Field, typed: str, key: str) -> int | None:
    """A/B on a number, through the values the rules allow only: on an empty entry either key
    shows where to start (the answer # gives, when allowed, else the lowest allowed value);
    then the next allowed value up (A) or down (B), wrapping round. None: no value is allowed."""
    values = f.allowed()
    if not values:
        return None
    if not typed:
        return f.default if f.default in values else values[0]
    current = int(typed)
    if key == K.UP:
        return next((v for v in values if v > current), values[0])
    return next((v for v in reversed(values) if v < current), values[-1])


def answer(s: Session, form: OpenForm, f: Field, value: Any) -> None:
    """One answer: journaled as "answer" while questions remain, else the form's action."""
    s.ui.buf = ""
    why = f.problem(value)
    if why:
        s.refuse(why)
        return
    answered = form.answered(f.name, value)
    try:
        if s.field(answered) is not None:
            if form.kind == "new":
                s.ui.new_form = answered
            else:
                s.do({"a": "answer", "field": f.name, "value": value})
            return
        action = submit(s, answered)
        result = s.do(action)
    except MammutError as e:
        s.refuse(str(e))
        return
    s.ui.view = FORM if form.derived or derived_form(s.state.game) is not None else LIST
    if form.derived:
        s.ui.list_sel = 0
    after(s, form, action, result)


def submit(s: Session, form: OpenForm) -> dict:
    """The action a complete form becomes."""
    spec = FORMS[form.kind]
    args = spec.args(s.state.game, form.ctx, form.answers)  # type: ignore[arg-type]
    if spec.method is None:  # the new-game questions; the first player is drawn at random (rulebook line 43)
        return {"a": "new", **args, "first": s.rng.randint(1, args["tribes"])}
    return call(spec.method, args)


def after(s: Session, form: OpenForm, action: dict, result: Any) -> None:
    """After a form's action: a new game starts at its phase; a game call reports what it did."""
    if action["a"] == "new":
        s.ui.new_form = None
        s.ui.view, s.ui.page, s.ui.list_sel = PHASE, 0, 0
        return
    game = s.state.game
    assert game is not None
    s.show(s.title(), FORMS[form.kind].report(game, action["args"], result), action["method"])


def back(s: Session, form: OpenForm) -> None:
    """* on an empty entry: take back the last answer, or leave the question."""
    ui = s.ui
    if form.kind == "new":
        ui.new_form = form.take_back() if form.answers else None  # none: the game (if any) goes on
    elif s.state.form is not None:
        closing = not s.state.form.answers
        s.do({"a": "back"})
        if closing and derived_form(s.state.game) is None:
            ui.view = LIST
    elif s.state.game is not None:
        ui.view, ui.page = PHASE, 0


def ask_new(s: Session) -> None:
    if s.ui.new_form is None:
        s.ui.new_form = OpenForm("new")


# ----- the phase and its list --------------------------------------------------------------------
def phase_pages(game: MammutGame) -> list[tuple[str, ...]]:
    return paginate(T.phase_summary(game))


def key_phase(s: Session, game: MammutGame, key: str) -> None:
    ui = s.ui
    if key in (K.UP, K.DOWN):
        ui.page = max(0, min(len(phase_pages(game)) - 1, ui.page + (1 if key == K.DOWN else -1)))
    elif key == K.OK:
        ui.page = 0
        if game.over:
            ask_new(s)
        elif derived_form(game) is not None:
            ui.view = FORM
        elif game.phase in LIST_PHASES or game.can_resurrect():
            ui.view, ui.list_sel = LIST, 0
        else:
            advance(s)


def advance(s: Session) -> None:
    try:
        s.do(call("advance", {}))
    except MammutError as e:
        s.refuse(str(e))
        return
    s.ui.view, s.ui.page, s.ui.list_sel = PHASE, 0, 0


def actions(game: MammutGame) -> list[tuple[str, str]]:
    """The phase's list: (form or command, label)."""
    if game.over:
        return [("newgame", _(T.NEW_GAME)), ("help", _(T.PHASE_HELP))]
    if game.phase == Phase.SETUP:
        return [("next", _(T.START_TURN)), ("start_camp", T.list_label("start_camp")),
                ("sow", T.list_label("sow")), ("help", _(T.PHASE_HELP))]  # fmt: skip
    items = [("next", _(T.CONTINUE_REPORTS) if derived_form(game) else _(T.NEXT_PHASE))]
    if game.can_resurrect():
        items.append(("resurrect", T.list_label("resurrect")))
    if game.phase == Phase.TRIBES_MOVE:
        items.append(("make_camp", T.list_label("make_camp")))
    elif game.phase == Phase.COMBAT:
        items += [(kind, _(T.LIST_LABEL[kind])) for kind in ("fight", "capture_camp", "capture_women")]
    elif game.phase == Phase.SOWING:
        items.append(("sow", _(T.SOWING_LABEL)))
    elif game.phase == Phase.EVENTS:
        items += [(kind, _(T.LIST_LABEL[kind])) for kind in ("region", "note")]
    items += [(kind, _(T.LIST_LABEL[kind])) for kind in ("food", "remove", "add_tokens", "fate", "abandon_camp")]
    if game.advanced:
        items.append(("fire", T.list_label("fire")))
    items += [("die", _(T.ROLL_DIE)), ("help", _(T.PHASE_HELP))]
    return items


def key_list(s: Session, game: MammutGame, key: str) -> None:
    ui = s.ui
    items = actions(game)
    ui.list_sel = min(ui.list_sel, len(items) - 1)
    moved = K.select(key, ui.list_sel, len(items))
    if moved is not None:
        ui.list_sel = moved
    elif key == K.BACK:
        ui.view, ui.page = PHASE, 0
    elif key == K.OK:
        item = items[ui.list_sel][0]
        COMMANDS.get(item, open_form)(s, game, item)


def next_step(s: Session, game: MammutGame, item: str) -> None:
    if derived_form(game) is not None:
        s.ui.view = FORM
    else:
        advance(s)


def phase_help(s: Session, game: MammutGame, item: str) -> None:
    s.show(s.title(), H.phase_help(game) or [_(T.NOTHING_TO_ADD)], "help")


def roll_die(s: Session, game: MammutGame, item: str) -> None:
    try:
        value = s.do(call("roll_die", {"reason": "table"}))
    except MammutError as e:  # pragma: no cover - roll_die refuses nothing in play
        s.refuse(str(e))
        return
    s.show(s.title(), [T.die_rolled(value)], "die")


def new_game(s: Session, game: MammutGame, item: str) -> None:
    ask_new(s)


def open_form(s: Session, game: MammutGame, item: str) -> None:
    try:
        s.do({"a": "ask", "form": item, "ctx": {}})
    except MammutError as e:  # nobody can fill it now: why
        s.refuse(str(e))
    except ActionError:
        s.refuse(_(T.NOBODY_CAN))


COMMANDS: dict[str, Callable[[Session, MammutGame, str], None]] = {
    "next": next_step, "help": phase_help, "die": roll_die, "newgame": new_game,
}  # the list's items that open no form


# ----- undo and the game's own questions -------------------------------------------------------
def ask_undo(s: Session) -> None:
    if not s.state.can_undo():
        s.show(_(T.UNDO_TITLE), [_(T.NOTHING_TO_UNDO)], "no-undo")
    else:
        s.ui.overlay = UNDO_QUESTION


def key_undo_question(s: Session, key: str) -> None:
    if key == K.OK:
        s.ui.overlay = None
        game = s.state.need_game()
        words = O.undo_words(game, game.log[-1], UNDO_WORDS)  # before: a step names the phase it reached
        entry = s.do({"a": "undo"})
        s.ui.view, s.ui.page, s.ui.list_sel = PHASE, 0, 0
        game = s.state.need_game()
        told = [O.taken_back(words, O.entry_who(game, entry))]
        if entry["action"] == "advance":
            told.append(O.back_in(game))
        s.show(_(T.UNDONE_TITLE), told + [_(T.PUT_BACK)], "undone")
    elif key == K.BACK:
        s.ui.overlay = None


def key_new_question(s: Session, key: str) -> None:
    if key == K.OK:
        s.ui.overlay = None
        ask_new(s)
    elif key == K.BACK:
        s.ui.overlay = None


QUESTION_KEYS: dict[str, Callable[[Session, str], None]] = {
    UNDO_QUESTION: key_undo_question, NEW_QUESTION: key_new_question,
}
