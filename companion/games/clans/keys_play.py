"""Keys during play and at the end: the move entry, "which village next?", a bot's turn, the reveal,
the final screen, and the game's own questions (undo?, new?, huts on territory).

Plain functions of a `Session` and a key, composed by the controller. A move is typed
`<from>#<to>#`; A/B browse the legal choices (buttons-only play); an illegal move shows
why and changes nothing. On a bot's turn digits do nothing: # makes the proposed move
(with the bot's own founding order), C and D work as ever.
"""

from __future__ import annotations

from companion.games.clans import speech as S
from companion.games.clans import texts as T
from companion.games.clans import teach
from companion.games.clans import texts_setup as TS
from companion.games.clans import texts_teach as TT
from companion.games.clans.actions import move_action
from companion.games.clans.board import COLORS
from companion.games.clans.game import Outcome
from companion.games.clans.screens import bot_pages, final_pages
from companion.games.clans.session import UNDO_QUESTION, Session
from companion.i18n import _
from companion.table import keys as K
from companion.table.screen import paginate


def type_digit(s: Session, key: str) -> None:
    """A digit of a territory number (two at most); a browsed number is replaced."""
    ui = s.ui
    if ui.browsing:
        ui.buf, ui.browsing = "", False
    if len(ui.buf) < 2:
        ui.buf += key


def browse(s: Session, items: list[int], key: str) -> None:
    """A/B: put the next/previous legal choice into the entry (buttons-only play)."""
    if not items:
        return
    ui = s.ui
    current = int(ui.buf) if ui.browsing and ui.buf else None
    if current in items:
        i = (items.index(current) + K.step(key)) % len(items)
    else:
        i = 0 if key == K.DOWN else len(items) - 1
    ui.buf, ui.browsing = str(items[i]), True


def key_move(s: Session, key: str) -> None:
    game, ui = s.state.need_game(), s.ui
    if ui.camera:  # the camera's move: # confirms it, any other key drops it (a digit starts a typed move)
        ui.camera = False
        if key != K.OK:
            ui.frm, ui.buf, ui.browsing = None, "", False
            if key == K.BACK:
                return
    if key in K.DIGITS:
        type_digit(s, key)
    elif key == K.OK:
        if not ui.buf:
            return
        n, ui.buf, ui.browsing = int(ui.buf), "", False
        if ui.frm is None:
            why = game.illegal_reason(n)
            if why:
                refuse_move(s, why)
            else:
                ui.frm = n
        else:
            frm, ui.frm = ui.frm, None
            why = game.illegal_reason(frm, n)
            if why:
                refuse_move(s, why)
            else:
                start_move(s, frm, n)
    elif key == K.BACK:
        if ui.buf:
            ui.buf, ui.browsing = "", False
        else:
            ui.frm = None
    elif key in (K.UP, K.DOWN):
        browse(s, game.movable() if ui.frm is None else game.targets(ui.frm), key)
    elif key == K.UNDO:
        ask_undo(s)


def refuse_move(s: Session, why: tuple[str, dict]) -> None:
    """An illegal move: why, on the screen and aloud (in a first game, with the rule that refused it),
    and nothing changed in the game."""
    s.outbox.extend(S.illegal(*why))
    rule = teach.refused(why[0])
    s.show(_(T.NOT_ALLOWED), [T.illegal_text(*why)], "illegal", explain(s, [rule] if rule else []))


def explain_start(s: Session) -> None:
    """Play starts: in a first game, how to move (a digit of the first move takes it away)."""
    first = explain(s, ["move"])
    if first:
        s.show(*first[0])


def explain(s: Session, rules: list[str]) -> list[tuple[str, list[str], str]]:
    """In a first game, the rules among `rules` not explained yet: each journaled as taught and said aloud;
    their pages (title, paragraphs, screen name "teach-RULE") to show first in the message they belong to.
    [] in any other game."""
    state = s.state
    if not state.teach or state.game is None:
        return []
    pages = []
    for rule in rules:
        if rule in state.taught:
            continue
        s.do({"a": "taught", "rule": rule})
        values = TT.values(rule, state.game)
        pages.append((TT.title(rule), TT.paragraphs(rule, values), f"teach-{rule}"))
        s.outbox.put(S.taught(rule, values))
    return pages


def start_move(s: Session, frm: int, to: int) -> None:
    """A legal move: played at once, or pending while its founding order matters."""
    game = s.state.need_game()
    if game.order_matters(len(game.isolated_by(frm, to)), 0):
        s.do({"a": "pending", "from": frm, "to": to})
        s.ui.buf, s.ui.browsing, s.ui.note = "", False, ""
        s.outbox.put(S.order(game.to_move, s.state.remaining()))
    else:
        finish_move(s, frm, to, None)


def finish_move(s: Session, frm: int, to: int, order: list[int] | None, asked: bool = False) -> None:
    """Play the move and tell the table what it did (in a first game, with the rules it shows for the
    first time); `asked`: the mover answered "which village next?"."""
    outcome: Outcome = s.do(move_action(frm, to, order))
    game = s.state.need_game()
    name = "village" if outcome.villages else "result"
    if game.is_over:
        name, s.ui.choice_sel, s.ui.final_page = "game-over", 0, 0
    paragraphs = T.outcome_paragraphs(game, outcome, s.state.bots)
    s.outbox.extend(S.outcome(game, outcome))
    first = explain(s, teach.after_move(game, outcome, asked))
    if name == "result" and not first and in_entry(s, outcome, paragraphs):
        s.info.clear()
        s.ui.overlay = None
        s.ui.moved = (outcome.player, frm, to, dict(outcome.moved))
    else:
        s.show(T.move_title(outcome.player, frm, to), paragraphs, name, first)


def in_entry(s: Session, outcome: Outcome, paragraphs: list[str]) -> bool:
    """A plain move of a person, with a person to move next, is shown in the next mover's entry
    screen (fewer bytes on the OLED's bus than a whole message and back): when it founds nothing,
    changes nothing else, its message is one page (the keys then do what they do on it) and its
    hint row fits."""
    game, bots = s.state.need_game(), s.state.bots
    return (not outcome.villages and not outcome.not_founded and not outcome.epoch_changed and not game.is_over
            and outcome.player not in bots and game.to_move not in bots and s.state.mode() == "move"
            and len(paginate(paragraphs)) == 1 and T.moved_hint(outcome.player, outcome.moved) is not None)


def key_order(s: Session, key: str) -> None:
    """ "Which village next?": a territory and #, until the rest no longer matters."""
    ui, state = s.ui, s.state
    remaining = state.remaining()
    if key in K.DIGITS:
        type_digit(s, key)
    elif key in (K.UP, K.DOWN):
        browse(s, remaining, key)
    elif key == K.BACK:
        if ui.buf:
            ui.buf, ui.browsing = "", False
        else:
            s.do({"a": "cancel"})
            s.show(_(T.CANCELLED_TITLE), [_(T.CANCELLED)], "cancelled")
    elif key == K.UNDO:
        ask_undo(s)  # cancels the pending move only
    elif key == K.OK and ui.buf:
        t, ui.buf, ui.browsing = int(ui.buf), "", False
        if t not in remaining:
            ui.note = T.not_one_of_them(t)
            return
        ui.note = ""
        s.do({"a": "pick", "t": t})
        rest = state.remaining()
        if not state.need_game().order_matters(len(rest), len(state.picks)):
            assert state.pending is not None
            frm, to = state.pending
            finish_move(s, frm, to, state.picks + sorted(rest), asked=True)


def key_bot(s: Session, key: str) -> None:
    """A bot's turn: # once the table has made the proposed move; digits do not start a move."""
    proposal = s.state.proposal
    if key == K.UNDO:
        ask_undo(s)
    elif proposal is None:
        return  # the search is still running
    elif key in (K.UP, K.DOWN):
        pages = bot_pages(s.state)
        s.ui.bot_page = max(0, min(len(pages) - 1, s.ui.bot_page + K.step(key)))
    elif key == K.OK:
        finish_move(s, proposal.frm, proposal.to, list(proposal.order) if proposal.order is not None else None)


def key_reveal(s: Session, key: str) -> None:
    """Each player's color in player order: 1-5 and #; * takes back the last one given."""
    ui, colors = s.ui, s.state.colors
    if key in K.DIGITS:
        ui.buf, ui.browsing, ui.note = key, False, ""
    elif key in (K.UP, K.DOWN):
        browse(s, [i + 1 for i, c in enumerate(COLORS) if c not in colors], key)
    elif key == K.OK and ui.buf:
        d, ui.buf, ui.browsing = int(ui.buf), "", False
        if not 1 <= d <= len(COLORS):
            ui.note = _(TS.REVEAL_NOTE)
            return
        color = COLORS[d - 1]
        if color in colors:
            s.show(_(T.REFUSED_TITLE), [T.color_taken(color, colors.index(color))], "refused")
            s.outbox.extend(S.refused_color(color, colors.index(color)))
            return
        s.do({"a": "reveal", "player": len(colors), "color": color})
        ui.final_page, ui.note = 0, ""
    elif key == K.BACK:
        if ui.buf:
            ui.buf, ui.browsing = "", False
        elif len(colors) > len(s.state.loaded_colors):
            s.do({"a": "unreveal"})
    elif key == K.UNDO:
        ask_undo(s)


def key_final(s: Session, key: str) -> None:
    """A/B page through the result (and what decided a first game, the bots' beliefs); # asks for a new game,
    except that in a first game or a game with bots it pages on until the last page."""
    pages = final_pages(s.state)
    if key in (K.UP, K.DOWN):
        s.ui.final_page = max(0, min(len(pages) - 1, s.ui.final_page + K.step(key)))
    elif key == K.OK:
        if pages[-1][0] != "final" and s.ui.final_page < len(pages) - 1:
            s.ui.final_page += 1
        else:
            if s.state.teach:  # the offer after a first game: the next one without teaching
                s.teach_default = False
            s.ui.asking_new, s.ui.choice_sel = True, 1


# ----- the game's own questions ----------------------------------------------------------------
def ask_undo(s: Session) -> None:
    """C, or the menu's "Undo last move": the question, or why there is nothing to undo; while the
    order question is open, the pending move is cancelled (and nothing else)."""
    game = s.state.game
    if s.state.pending is not None:
        # "which village next?" is open: only the move waiting for its order goes, never the one before
        s.do({"a": "cancel"})
        s.ui.buf, s.ui.browsing, s.ui.note = "", False, ""
        s.show(_(T.CANCELLED_TITLE), [_(T.CANCELLED)], "cancelled")
    elif game is not None and s.state.mode() == "final":
        # the result is final (and filed in the history): the next step is a new game
        s.show(_(T.UNDO_TITLE), [_(T.NO_UNDO_SCORED)], "no-undo")
    elif game is None or not game.ply:
        s.show(_(T.UNDO_TITLE), [_(T.NO_MOVE_TO_UNDO)], "no-undo")
    else:
        s.ui.overlay = UNDO_QUESTION


def key_undo_question(s: Session, key: str) -> None:
    ui = s.ui
    if key == K.OK:
        ui.overlay = None
        outcome: Outcome = s.do({"a": "undo"})
        ui.buf, ui.frm, ui.browsing = "", None, False
        s.show(T.undone_title(outcome.move.frm, outcome.move.to),
               T.undo_paragraphs(s.state.need_game(), outcome), "undone")
        s.outbox.put(S.undone(outcome.move.frm, outcome.move.to))
    elif key == K.BACK:
        ui.overlay = None


def key_new_question(s: Session, key: str) -> None:
    ui = s.ui
    if key == K.OK:
        ui.overlay, ui.asking_new, ui.choice_sel = None, True, 1
    elif key == K.BACK:
        ui.overlay = None


def key_huts(s: Session, key: str) -> None:
    """Huts on territory: a number and #, A/B step through 1-60, * leaves."""
    ui = s.ui
    if key in K.DIGITS:
        if len(ui.buf) < 2:
            ui.buf += key
    elif key == K.OK and ui.buf:
        ui.huts_shown, ui.buf = int(ui.buf), ""
    elif key in (K.UP, K.DOWN):
        t = ui.huts_shown or 0
        ui.huts_shown = (t + K.step(key) - 1) % 60 + 1
    elif key == K.BACK:
        if ui.buf:
            ui.buf = ""
        else:
            ui.overlay = None
