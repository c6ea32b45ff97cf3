"""What a Clans table shows: `build_screen(state, ui, info)`, a pure function of the table's state.

The journaled state (`TableState`), the UI state (`Ui`) and the information pager
go in, a `companion.table.screen.Screen` comes out; every word comes from
`companion.games.clans.texts` and `texts_setup`, looked up in the table's language as
the screen is built. The screen `name`s are for tests and the gallery.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from companion.games.clans import texts as T
from companion.games.clans import texts_setup as TS
from companion.games.clans import texts_teach as TT
from companion.games.clans.actions import TableState
from companion.games.clans.beliefs import told
from companion.games.clans.board import COLORS
from companion.games.clans.session import CARDS_PAGE, HUTS, NEW_QUESTION, SETUP_PAGES, UNDO_QUESTION, Ui, dealing, \
    ui_mode
from companion.i18n import _
from companion.table.info import InfoPager
from companion.table.screen import (BODY_ROWS, ENTRY, MENU, TEXT, Screen, confirm_screen, paginate, text_screen,
                                    wrap)

ScreenFn = Callable[[TableState, Ui], Screen]


def build_screen(state: TableState, ui: Ui, info: InfoPager) -> Screen:
    """What to show now: a message, else the game's open question, else the mode's screen."""
    shown = info.screen()
    if shown is not None:
        return shown
    if ui.overlay is not None:
        return OVERLAY_SCREENS[ui.overlay](state, ui)
    return MODE_SCREENS[ui_mode(state, ui)](state, ui)


def bot_pages(state: TableState) -> list[tuple[str, ...]]:
    """The bot's proposal, paged."""
    assert state.proposal is not None
    return paginate(T.bot_move_paragraphs(state.need_game(), state.proposal))


def final_pages(state: TableState) -> list[tuple[str, str, tuple[str, ...]]]:
    """The end of the game, paged as (screen name, title, lines): colors, totals, winners; then, in a first
    game, what decided it; then, in a game with bots, one screen (or more pages) per bot saying what it
    believed."""
    stories = told(state)
    more = bool(stories) or state.teach
    pages = [("final", _(T.GAME_OVER_TITLE), lines) for lines in
             paginate(T.final_paragraphs(state.need_game(), state.final_colors(), state.bots, more))]
    if state.teach:  # a first game: what decided it, and the offer to play on without teaching
        pages += [("decided", TT.decided_title(), lines)
                  for lines in paginate(TT.decided(state.need_game(), state.final_colors(), not stories))]
    for i, story in enumerate(stories):
        title = T.belief_title(story.seat, story.level)
        pages += [("beliefs", title, lines) for lines in
                  paginate(T.belief_paragraphs(story, i == len(stories) - 1))]
    return pages


# ----- the modes ---------------------------------------------------------------------------
def players_screen(state: TableState, ui: Ui) -> Screen:
    return Screen(MENU, "players", _(TS.PLAYERS_TITLE), choices=tuple(_(c) for c in TS.PLAYERS_CHOICES),
                  selected=ui.choice_sel, hint=ui.note)


def first_screen(state: TableState, ui: Ui) -> Screen:
    n = state.players_choice or 2
    choices = (_(TS.FIRST_DRAW),) + tuple(TS.first_choice(i) for i in range(n))
    return Screen(MENU, "first", _(TS.FIRST_TITLE), choices=choices, selected=ui.choice_sel, hint=ui.note)


def bots_screen(state: TableState, ui: Ui) -> Screen:
    assert ui.bot_choice is not None
    choices = tuple(TS.bot_choice(s, bot) for s, bot in enumerate(ui.bot_choice)) + (TS.teach_choice(ui.teach_choice),)
    return Screen(MENU, "bots", _(TS.BOTS_TITLE), choices=choices + (_(TS.BOTS_START),), selected=ui.choice_sel,
                  hint=ui.note)


def deal_screen(state: TableState, ui: Ui) -> Screen:
    seat = sorted(state.dealt)[ui.deal_step // 2]
    if ui.deal_step % 2 == 0:
        return text_screen("deal", TS.deal_title(seat), [TS.deal_take_box(seat), _(TS.DEAL_OTHERS)])
    return text_screen("deal-color", TS.deal_color_title(seat),
                       [TS.deal_color(seat, state.dealt[seat]), _(TS.DEAL_SECRET), _(TS.DEAL_HIDE)])


def setup_screen(state: TableState, ui: Ui) -> Screen:
    if dealing(state, ui):
        return deal_screen(state, ui)
    game = state.need_game()
    page = ui.setup_page
    if page == 0:
        lines = wrap([TS.setup_starts(game.first_player, state.drawn), _(TS.SETUP_HOW), _(TS.SETUP_NEXT)])
        return Screen(TEXT, "setup", TS.setup_title(game.players), tuple(lines[:BODY_ROWS]), 0, SETUP_PAGES)
    if page >= CARDS_PAGE:  # the secret colors: the table deals the clan cards (with bots the box dealt them)
        return Screen(TEXT, "clan-cards", _(TS.CARDS_TITLE), tuple(wrap(TS.cards_paragraphs(bool(state.bots)))),
                      page, SETUP_PAGES)
    members = game.board.region_members(page)
    return Screen(TEXT, "setup-region", TS.region_title(page, members[0], members[-1]),
                  TS.setup_lines(game, page), page, SETUP_PAGES)


def move_screen(state: TableState, ui: Ui) -> Screen:
    game = state.need_game()
    if ui.moved is not None and ui.frm is None and not ui.buf:
        # a plain move's result: in the rows of the entry and its hint, until the next key
        p, frm, to, huts = ui.moved
        hint = T.moved_hint(p, huts)
        if hint is not None:
            return Screen(ENTRY, "result", entry=T.moved_entry(frm, to), hint=hint, header=T.header(game))
    if ui.camera and ui.frm is not None and ui.buf:
        return Screen(ENTRY, "camera", entry=T.camera_entry(ui.frm, int(ui.buf)), hint=_(T.CAMERA_HINT),
                      header=T.header(game))
    if ui.frm is None:
        entry, hint = T.from_entry(ui.buf), _(T.FROM_HINT)
    else:
        entry, hint = T.to_entry(ui.frm, ui.buf), T.to_hint(game.targets(ui.frm))
    if ui.browsing and ui.buf:
        t = int(ui.buf)
        items = game.movable() if ui.frm is None else game.targets(ui.frm)
        hint = T.browse_hint(t, game.huts(t), items.index(t) + 1 if t in items else None, len(items))
    return Screen(ENTRY, "entry", entry=entry, hint=hint, header=T.header(game))


def order_screen(state: TableState, ui: Ui) -> Screen:
    """ "Which village next?": what each remaining place means, the choices always on screen (a wrong
    pick is said in the title, so it never pushes them off)."""
    game = state.need_game()
    remaining = state.remaining()
    answered = len(state.picks)
    rows = BODY_ROWS - 1  # the entry line
    choices = wrap([T.order_choices(remaining)])
    room = max(0, rows - len(choices))
    lines = wrap(T.order_rows(game, len(remaining), answered, room))[:room] + choices
    title = ui.note or T.order_title(game.to_move, len(game.villages) + answered + 1)
    return Screen(TEXT, "order", title, tuple(lines[:rows]), entry=T.entry(ui.buf))


def bot_screen(state: TableState, ui: Ui) -> Screen:
    seat = state.need_game().to_move
    if state.proposal is None:
        return Screen(TEXT, "bot-thinking", T.bot_title(seat), (_(T.THINKING),))
    pages = bot_pages(state)
    page = min(ui.bot_page, len(pages) - 1)
    return Screen(TEXT, "bot-move", T.bot_moves_title(seat), pages[page], page, len(pages), confirm=True)


def reveal_screen(state: TableState, ui: Ui) -> Screen:
    paragraphs = list(TS.reveal_keys())
    if ui.note:
        paragraphs.append(ui.note)
    elif state.colors:
        paragraphs.append(TS.given_colors(state.colors))
    color = COLORS[int(ui.buf) - 1] if ui.buf and 1 <= int(ui.buf) <= 5 else ""
    return text_screen("reveal", TS.reveal_title(len(state.colors)), paragraphs, entry=TS.reveal_entry(ui.buf, color))


def final_screen(state: TableState, ui: Ui) -> Screen:
    pages = final_pages(state)
    page = min(ui.final_page, len(pages) - 1)
    name, title, lines = pages[page]
    return Screen(TEXT, name, title, lines, page, len(pages))


MODE_SCREENS: dict[str, ScreenFn] = {
    "players": players_screen, "first": first_screen, "bots": bots_screen, "setup": setup_screen,
    "move": move_screen, "order": order_screen, "bot": bot_screen, "reveal": reveal_screen, "final": final_screen,
}


# ----- the game's own questions ----------------------------------------------------------------
def undo_screen(state: TableState, ui: Ui) -> Screen:
    game = state.need_game()
    o = game.outcome()
    question = text_screen(UNDO_QUESTION, _(T.UNDO_QUESTION_TITLE),
                           T.undo_question(game.ply, o.player, o.move.frm, o.move.to, len(o.villages)))
    return replace(question, confirm=True)  # a # typed before it showed takes nothing back


def new_screen(state: TableState, ui: Ui) -> Screen:
    return confirm_screen(NEW_QUESTION, _(T.NEW_GAME_TITLE), _(T.ABANDON), _(T.YES_NO))


def huts_screen(state: TableState, ui: Ui) -> Screen:
    game = state.need_game()
    paragraphs = [_(p) for p in T.HUTS_PROMPT] if ui.huts_shown is None else T.territory_paragraphs(game, ui.huts_shown)
    return text_screen(HUTS, _(T.HUTS_MENU_TITLE), paragraphs, entry=T.entry(ui.buf))


OVERLAY_SCREENS: dict[str, ScreenFn] = {UNDO_QUESTION: undo_screen, NEW_QUESTION: new_screen, HUTS: huts_screen}
