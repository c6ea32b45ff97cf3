"""Every Clans sentence the table sees: the header, what a move did, undo, the order
question, scores, the end, the menu; each a function with named arguments (the new game's
texts and the reveal: `texts_setup`; the game words: `words`).

Controllers build screens from these and never assemble words themselves. Every text
goes through `companion.i18n` when it is built (call time), so the table's language
can change while running; game words (terrains, colors, full and short) are `N_`
dicts or `pgettext` calls here. Records, logs and exceptions never come here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Collection, Sequence

from companion.games.clans.board import COLORS
from companion.games.clans.founding import Position, founding_positions
from companion.games.clans.rules import ILLEGAL
from companion.games.clans.words import ROMAN, color, color_short, colors_text, huts_text, level, player, terrain
from companion.i18n import N_, _, ngettext, pgettext
from companion.table.screen import SMALL_COLS, TITLE_COLS, Header

if TYPE_CHECKING:  # type names only: the texts stay free of engine imports at run time
    from companion.games.clans.beliefs import BotBeliefs
    from companion.games.clans.game import Game, Move, Outcome, Village


def terrain_line(favorable: str, bonus: int, hostile: str) -> str:
    # NOTE: max 25 characters; the header line: favorable terrain and bonus, X the hostile terrain
    return _("+{bonus} {favorable}  X {hostile}").format(bonus=bonus, favorable=terrain(favorable),
                                                         hostile=terrain(hostile))


def header(game: Game) -> Header:
    """The at-a-glance block: whose turn, epoch, chips left, terrains, the 5 scores."""
    ep = game.board.epoch(game.epoch)
    # NOTE: max 12 characters; header bar, left: whose turn
    left = _("{player} to move").format(player=player(game.to_move))
    # NOTE: max 12 characters; header bar, right: epoch and chips left in it
    right = _("Ep {epoch} {n} left").format(epoch=ROMAN[game.epoch], n=game.chips_left_in_epoch)
    if len(left) + 1 + len(right) > TITLE_COLS:
        # NOTE: max 8 characters; header bar, right, when a long player name leaves no room for
        # "Ep I 4 left": the epoch and the chips left in it
        right = _("Ep {epoch}: {n}").format(epoch=ROMAN[game.epoch], n=game.chips_left_in_epoch)
    if len(left) + 1 + len(right) > TITLE_COLS:  # still too long: the name alone says whose turn
        left = player(game.to_move)
    return Header(left, right, terrain_line(ep.favorable, ep.bonus, ep.hostile),
                  tuple((color_short(c), str(n)) for c, n in zip(COLORS, game.scores)))


def epoch_text(game: Game, epoch: int) -> str:
    ep = game.board.epoch(epoch)
    if ep.favorable == "all":
        return _("Epoch {epoch} begins: the last village scores +{bonus} on any terrain.").format(
            epoch=ROMAN[epoch], bonus=ep.bonus)
    return _("Epoch {epoch} begins: favorable {favorable} +{bonus}, hostile {hostile}.").format(
        epoch=ROMAN[epoch], favorable=terrain(ep.favorable), bonus=ep.bonus, hostile=terrain(ep.hostile))


def illegal_text(reason: str, values: dict[str, object]) -> str:
    """Why a move is refused (`Game.illegal_reason`), in the table's language."""
    return _(ILLEGAL[reason]).format(**values)


def end_reason(game: Game) -> str:
    if game.status == "finished":
        return _("Game over: the 12th village is founded.")
    return _("Game over: {player} has no legal move.").format(player=player(game.to_move))


# ----- what a move did ------------------------------------------------------------------
def village_paragraphs(game: Game, v: Village) -> list[str]:
    """One founded village: chip, strife, destruction, value and who advances."""
    where = terrain(game.board.territories[v.territory].terrain)
    t = v.territory
    out = [_("Village {territory} ({terrain}): {player} takes chip {chip}.").format(
        territory=t, terrain=where, player=player(v.founder), chip=v.chip)]
    if v.chip == 12:
        out.append(_("12th village: +5!"))
    removed = list(v.removed)
    left = v.huts - sum(v.removed.values())
    if removed:
        if left == 0:
            out.append(_("Strife: remove all {n} single huts from {territory}.").format(n=len(removed), territory=t))
        else:
            out.append(_("Strife: remove the single {colors} huts from {territory}.").format(
                colors=colors_text(removed), territory=t))
    if v.destroyed:
        if left:
            out.append(ngettext("Hostile {terrain} in epoch {epoch}: destroyed. Remove the hut from {territory}. "
                                "Nobody scores.",
                                "Hostile {terrain} in epoch {epoch}: destroyed. Remove all {n} huts from {territory}. "
                                "Nobody scores.", left).format(terrain=where, epoch=ROMAN[v.epoch], n=left,
                                                               territory=t))
        else:
            out.append(_("Hostile {terrain}: destroyed. Nobody scores.").format(terrain=where))
    elif v.value:
        if v.bonus:
            text = ngettext("Worth {value} ({n} hut +{bonus}): {colors} advance {value}.",
                            "Worth {value} ({n} huts +{bonus}): {colors} advance {value}.", left)
        else:
            text = ngettext("Worth {value} ({n} hut): {colors} advance {value}.",
                            "Worth {value} ({n} huts): {colors} advance {value}.", left)
        out.append(text.format(value=v.value, n=left, bonus=v.bonus, colors=colors_text(v.colors)))
    else:
        out.append(_("No hut is left: nobody scores."))
    return out


def founding_steps(outcome: Outcome, over: bool) -> list[Village | int]:
    """A move's villages in founding order, each epoch that begins (its number) told where it begins:
    just before the first village scored under it (R5: the village after an epoch's last chip belongs
    to the next epoch), or after the last village when the next one will be in it (not once `over`)."""
    steps: list[Village | int] = []
    epoch = outcome.epoch_before
    for v in outcome.villages:
        if v.epoch != epoch:
            steps.append(v.epoch)
            epoch = v.epoch
        steps.append(v)
    if not over and outcome.epoch_after != epoch:
        steps.append(outcome.epoch_after)
    return steps


def outcome_paragraphs(game: Game, outcome: Outcome, bots: Collection[int] = ()) -> list[str]:
    """Everything the table must do after a move, in order (a new epoch before the first village scored
    under it); when a bot moves next, # shows its move."""
    m = outcome.move
    n = sum(outcome.moved.values())
    out = [ngettext("Move {n} hut {frm} -> {to} ({huts}).", "Move {n} huts {frm} -> {to} ({huts}).", n).format(
        n=n, frm=m.frm, to=m.to, huts=huts_text(outcome.moved))]
    for step in founding_steps(outcome, game.is_over):
        out += [epoch_text(game, step)] if isinstance(step, int) else village_paragraphs(game, step)
    if outcome.not_founded:
        out.append(_("Not founded (no chip left): {territories}.").format(
            territories=", ".join(map(str, outcome.not_founded))))
    if game.is_over:
        out.append(end_reason(game))
    else:
        if game.to_move in bots:
            # NOTE: max 21 characters; the next seat is a bot: # shows its move
            out.append(_("#: {player} (bot) plays.").format(player=player(game.to_move)))
        else:
            out.append(_("Next: {player}.").format(player=player(game.to_move)))
    return out


def undo_paragraphs(game: Game, outcome: Outcome) -> list[str]:
    """After game.pop(): which huts go back where (game is the position before the move)."""
    m = outcome.move
    out = []
    for v in reversed(outcome.villages):
        t = v.territory
        out.append(_("Village {territory} undone: {player} gives back chip {chip}.").format(
            territory=t, player=player(v.founder), chip=v.chip))
        if v.value:
            out.append(_("Move {colors} back {value} on the track.").format(colors=colors_text(v.colors),
                                                                           value=v.value))
        if v.destroyed:
            out.append(_("Put back on {territory}: {huts}.").format(territory=t, huts=huts_text(game.huts(t))))
        elif v.removed:
            out.append(_("Put the single {colors} huts back on {territory}.").format(
                colors=colors_text(list(v.removed)), territory=t))
    n = sum(outcome.moved.values())
    out.append(ngettext("Put {n} hut ({huts}) back from {to} onto {frm}.",
                        "Put {n} huts ({huts}) back from {to} onto {frm}.", n).format(
        n=n, huts=huts_text(outcome.moved), to=m.to, frm=m.frm))
    out.append(_("{player} to move again.").format(player=player(outcome.player)))
    return out


# ----- "which village next?" ---------------------------------------------------------------
def order_title(p: int, chip: int) -> str:
    """The order question's title: the village named now takes `chip`."""
    # NOTE: max 25 characters; title of the founding-order question
    return _("{player}: village for chip {chip}?").format(player=player(p), chip=chip)


def _chips(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}-{last}"


def position_row(first: Position | None, last: Position | None = None) -> str:
    """One row of the order question: what the places with these chips mean (`last` ends a run of equals)."""
    if first is None:
        # NOTE: max 21 characters; the rest of the villages get no chip
        return _("then: not founded")
    chips = _chips(first.chip, (last or first).chip)
    if first.last:
        # NOTE: max 21 characters; "12: +5 any terrain": the 12th village scores +5 whatever its terrain
        return _("{chips}: +{bonus} any terrain").format(chips=chips, bonus=first.bonus)
    if first.hostile is not None:
        # NOTE: max 21 characters; "8-9: III X forest": chips 8-9 fall in epoch III, forest is destroyed
        return _("{chips}: {epoch} X {terrain}").format(chips=chips, epoch=ROMAN[first.epoch],
                                                        terrain=terrain(first.hostile))
    # NOTE: max 21 characters; "12: V +5 all": an epoch where nothing is destroyed, its bonus
    return _("{chips}: {epoch} +{bonus} {terrain}").format(chips=chips, epoch=ROMAN[first.epoch],
                                                           bonus=first.bonus, terrain=terrain(first.favorable))


def favorable_row(pos: Position) -> str | None:
    """The line under a place's row of the order question: its epoch's favorable terrain and bonus
    (None where its row says all: the 12th village's +5, an epoch where nothing is destroyed)."""
    if pos.last or pos.hostile is None or pos.favorable == "all":
        return None
    # NOTE: max 23 characters; the line under "8-9: III X forest": epoch III's favorable terrain scores +3
    return "  " + _("+{bonus} {terrain}").format(bonus=pos.bonus, terrain=terrain(pos.favorable))


def order_rows(game: Game, count: int, answered: int = 0, room: int | None = None) -> list[str]:
    """What each remaining place of the founding order means, in order (the first is the village named
    now): its chip, its epoch and what is destroyed there, the 12th village's +5, or not founded; under
    it, the epoch's favorable terrain and bonus. Places treated alike (same epoch, or all not founded)
    share one row. In `room` lines at most, when there is room for it: every place keeps its row, and
    the favorable lines go under the first places as far as they fit."""
    positions = founding_positions(game, count, answered)
    groups: list[list[str]] = []
    i = 0
    while i < len(positions):
        j = i
        while j + 1 < len(positions) and _treatment(positions[j + 1]) == _treatment(positions[i]):
            j += 1
        pos = positions[i]
        below = None if pos is None else favorable_row(pos)
        groups.append([position_row(pos, positions[j])] + ([below] if below else []))
        i = j + 1
    shown = [group[:1] for group in groups]
    used = len(groups)
    for k, group in enumerate(groups):
        if len(group) > 1 and (room is None or used + len(group) - 1 <= room):
            shown[k], used = group, used + len(group) - 1
    return [row for group in shown for row in group]


def _treatment(pos: Position | None) -> tuple | None:
    return None if pos is None else (pos.epoch, pos.hostile, pos.favorable, pos.bonus, pos.last)


def order_choices(remaining: Sequence[int]) -> str:
    # NOTE: the territories the mover may name (wraps at 21 characters)
    return _("Choose: {territories}").format(territories=" ".join(map(str, remaining)))


def not_one_of_them(t: int) -> str:
    # NOTE: max 25 characters; title after a territory that is not among the choices
    return _("{territory} is not one of them").format(territory=t)


# ----- a move not yet played: a bot's, a hint ------------------------------------------------
def move_paragraphs(game: Game, move: Move) -> list[str]:
    """A move not yet played: the huts it takes and the villages it founds (in the mover's order)."""
    out = [_("Move {frm} -> {to}: {huts}.").format(frm=move.frm, to=move.to, huts=huts_text(game.huts(move.frm)))]
    isolated = game.isolated_by(move.frm, move.to)
    if len(isolated) == 1:
        out.append(_("Founds village {territory}.").format(territory=isolated[0]))
    elif isolated:
        order = list(move.order) if move.order else sorted(isolated)
        out.append(_("Founds villages in this order: {territories}.").format(territories=", ".join(map(str, order))))
    return out


def bot_move_paragraphs(game: Game, move: Move) -> list[str]:
    """What a bot asks the table to do on its turn."""
    return move_paragraphs(game, move) + [_("Make it, then #.")]


def hint_paragraphs(game: Game, move: Move, why: str = "", values: dict | None = None) -> list[str]:
    """A suggested move for the person to move (public information only), and why in a few words
    (`bots.hints.reason`'s code and values)."""
    return move_paragraphs(game, move) + ([hint_why(why, values or {})] if why else []) + [_("Type it, or any move.")]


def hint_why(why: str, values: dict) -> str:
    """Why a hinted move: "Why: founds 14 on favorable forest." (codes of bots.hints.reason)."""
    if why == "found":
        where = dict(territory=values["territory"], terrain=terrain(values["terrain"]))
        if values["kind"] == "favorable":
            # NOTE: why a hint: the village it founds stands on the epoch's favorable terrain (bonus points)
            return _("Why: founds {territory} on favorable {terrain}.").format(**where)
        if values["kind"] == "hostile":
            # NOTE: why a hint: the village is on hostile terrain (destroyed), but its chip still counts
            return _("Why: founds {territory} on hostile {terrain}: the chip counts.").format(**where)
        # NOTE: why a hint: the village it founds (plain terrain)
        return _("Why: founds {territory} ({terrain}).").format(**where)
    if why == "safe":
        # NOTE: why a hint: a quiet move after which the next player can found no village
        return _("Why: leaves no village to the next player.")
    # NOTE: why a hint: no move founds a village and every move gives one away: this one the least
    return _("Why: the quiet move that gives away least.")


# ----- setup, scores, end ---------------------------------------------------------------
def score_paragraphs(game: Game) -> list[str]:
    s = game.scores
    name = {c: color(c) for c in COLORS}
    return [f"{name['red']:<5} {s[0]:>2}  {name['blue']:<6} {s[1]:>2}",
            f"{name['green']:<5} {s[2]:>2}  {name['yellow']:<6} {s[3]:>2}", f"{name['black']:<5} {s[4]:>2}",
            _("Chips {first}-{last}: {chips}").format(first=player(0), last=player(game.players - 1),
                                                      chips=" ".join(map(str, game.chips))),
            _("Villages {n}/12, ep {epoch}").format(n=len(game.villages), epoch=ROMAN[game.epoch])]


def territory_paragraphs(game: Game, t: int) -> list[str]:
    if not 1 <= t <= 60:
        return [_("{territory} is not a territory: use 1-60.").format(territory=t)]
    ter = game.board.territories[t]
    head = _("{territory}: {terrain}, region {region}.").format(territory=t, terrain=terrain(ter.terrain),
                                                              region=ter.region)
    village = next((v for v in game.villages if v.territory == t), None)
    if village is not None:
        if game.total[t]:
            return [head, _("Village (chip {chip}, epoch {epoch}): {huts}.").format(
                chip=village.chip, epoch=ROMAN[village.epoch], huts=huts_text(game.huts(t)))]
        return [head, _("Village (chip {chip}, epoch {epoch}): no huts left.").format(
            chip=village.chip, epoch=ROMAN[village.epoch])]
    if not game.total[t]:
        return [head, _("Empty.")]
    return [head, f"{huts_text(game.huts(t))}."]


def final_paragraphs(game: Game, colors: Sequence[str], bots: Collection[int] = (), beliefs: bool = False) -> list[str]:
    """The end: each seat's color and total (bots marked), the winners; then what # does: a new game, or
    (`beliefs`) the bots' beliefs first."""
    totals, winners = game.winners(colors)
    out = [end_reason(game)]
    for i, c in enumerate(colors):
        values = dict(player=player(i), color=color(c), score=game.score(c), chips=game.chips[i], total=totals[i])
        if i in bots:
            out.append(_("{player} bot {color} {score}+{chips}={total}").format(**values))
        else:
            out.append(_("{player} {color} {score}+{chips}={total}").format(**values))
    if len(winners) == 1:
        out.append(_("Winner: {player}!").format(player=player(winners[0])))
    else:
        out.append(_("Winners (tie): {players}!").format(players=", ".join(player(w) for w in winners)))
    if beliefs:
        # NOTE: max 21 characters; the last line of the result in a game with bots: # shows what each bot
        # believed of the others' colors
        out.append(_("# = the bots' guesses"))
    else:
        # NOTE: max 21 characters
        out.append(_("# = new game"))
    return out


def belief_title(seat: int, bot: str) -> str:
    # NOTE: max 25 characters; title of one bot's beliefs after the game: "P2 (hard) believed"
    return _("{player} ({level}) believed").format(player=player(seat), level=level(bot))


def belief_paragraphs(story: BotBeliefs, last: bool) -> list[str]:
    """One bot's beliefs: "P1 was red (80%) from move 9: right." per other seat; then what # does."""
    if story.beliefs is None:
        out = [_("It kept no guesses: it played for its own color only.")]
    else:
        out = [belief_text(b) for b in story.beliefs]
    # NOTE: max 21 characters
    out.append(_("# = new game") if last else _("# = the next bot"))
    return out


def belief_text(b: Any) -> str:
    """One belief (bots.story.Belief) in words, for the panel and the page."""
    # NOTE: was the belief right? "P1 was red (80%) from move 9: right."
    verdict = pgettext("belief", "right") if b.right else pgettext("belief", "wrong")
    values = dict(player=player(b.seat), color=color(b.color), percent=round(100 * b.p), move=b.since, verdict=verdict)
    if b.since == 0:
        # NOTE: what a bot believed of a seat from the first move on: "P1 was red (80%) from the start: right."
        return _("{player} was {color} ({percent}%) from the start: {verdict}.").format(**values)
    # NOTE: what a bot believed of a seat, and since which move: "P1 was red (80%) from move 9: right."
    return _("{player} was {color} ({percent}%) from move {move}: {verdict}.").format(**values)


# ----- the menu and the information screens ----------------------------------------------------
def menu_items() -> tuple[str, ...]:
    """The game's items of the D menu (the shell adds its own)."""
    return (
        # NOTE: max 20 characters; menu item
        pgettext("menu", "New game"),
        # NOTE: max 20 characters; menu item
        pgettext("menu", "Undo last move"),
        # NOTE: max 20 characters; menu item: a suggested move
        pgettext("menu", "Hint"),
        # NOTE: max 20 characters; menu item
        pgettext("menu", "Scores"),
        # NOTE: max 20 characters; menu item: which huts stand on a territory
        pgettext("menu", "Huts on territory"),
    )


# NOTE: max 21 characters
THINKING = N_("Thinking...")
# NOTE: max 25 characters; title
NOT_ALLOWED = N_("Not allowed")
NO_GAME_YET = N_("No game yet.")
# NOTE: max 25 characters; title
SCORES_TITLE = N_("Scores")
# NOTE: max 25 characters; title
HUTS_TITLE = N_("Huts")
# NOTE: max 25 characters; title
HUTS_MENU_TITLE = N_("Huts on territory")
# NOTE: max 21 characters each line
HUTS_PROMPT = (N_("Type a territory and #."), N_("A/B: step, *: leave"))
# NOTE: max 25 characters; title
HINT_TITLE = N_("Hint")
HINT_NOT_NOW = N_("Hints are for a person about to move.")
# NOTE: max 25 characters; title
UNDO_TITLE = N_("Undo")
# NOTE: max 25 characters; title of the question
UNDO_QUESTION_TITLE = N_("Undo?")
NO_UNDO_SCORED = N_("The game is over and scored. # on the result: new game.")
NO_MOVE_TO_UNDO = N_("No move to undo.")
# NOTE: max 25 characters; title
CANCELLED_TITLE = N_("Move cancelled")
CANCELLED = N_("Nothing changed: enter a move.")
# NOTE: max 25 characters; title
REFUSED_TITLE = N_("Refused")
# NOTE: max 21 characters
YES_NO = N_("# = yes  * = no")
# NOTE: max 25 characters; title of the question
NEW_GAME_TITLE = N_("New game?")
ABANDON = N_("This game will be abandoned.")
# NOTE: max 25 characters; title
GAME_OVER_TITLE = N_("Game over")


def move_title(p: int, frm: int, to: int) -> str:
    """The title over what a move did: "P2: 12 -> 13"."""
    # NOTE: max 25 characters; title
    return _("{player}: {frm} -> {to}").format(player=player(p), frm=frm, to=to)


def undone_title(frm: int, to: int) -> str:
    # NOTE: max 25 characters; title
    return _("Undone: {frm} -> {to}").format(frm=frm, to=to)


def hint_title(frm: int, to: int) -> str:
    # NOTE: max 25 characters; title
    return _("Hint: {frm} -> {to}").format(frm=frm, to=to)


def undo_question(ply: int, p: int, frm: int, to: int, villages: int) -> list[str]:
    """The "Undo?" question: which move goes back (and how many villages with it)."""
    values = dict(ply=ply, player=player(p), frm=frm, to=to, n=villages)
    if villages:
        what = ngettext("Take back move {ply}: {player} {frm} -> {to} and {n} village?",
                        "Take back move {ply}: {player} {frm} -> {to} and {n} villages?", villages).format(**values)
    else:
        what = _("Take back move {ply}: {player} {frm} -> {to}?").format(**values)
    return [what, _(YES_NO)]


def color_taken(c: str, owner: int) -> str:
    return _("{color} is already {player}'s color. Choose another.").format(color=color(c), player=player(owner))


# ----- moves: entry, browsing, a bot's turn ----------------------------------------------------
# NOTE: max 25 characters; hint of the move entry (keys # A B stay)
FROM_HINT = N_("from? #=ok A/B=list")


def entry(typed: str) -> str:
    """The input line of a question: "> 12_"."""
    return f"> {typed}_"


def from_entry(typed: str) -> str:
    """The source being typed on the move entry: "12_"."""
    return f"{typed}_"


def to_entry(frm: int, typed: str) -> str:
    return f"{frm} -> {typed}_"


def camera_entry(frm: int, to: int) -> str:
    """The move the camera saw, put in the entry for # to confirm: "12 -> 13?"."""
    return f"{frm} -> {to}?"


# NOTE: max 21 characters; the hint row under the camera's "12 -> 13?"
CAMERA_HINT = N_("camera: #=yes *=no")
# NOTE: max 25 characters; title
CAMERA_TITLE = N_("Camera")
CAMERA_MOVED = N_("The camera seems to have moved: tap the board's corners again on the table's page "
                  "(/camera, with the PIN). Until then, type the moves.")


def setup_seen(kind: str, huts: Sequence[tuple[int, str]]) -> str:
    """The camera's setup check: territories without their hut ("setup-missing"), or whose hut looks
    like another colour than the setup's ("setup-colour"; each with the setup's colour)."""
    if kind == "setup-missing":
        return _("The camera sees no hut on {territories}: put each territory's hut down as the setup "
                 "says.").format(territories=", ".join(str(t) for t, _c in huts))
    return _("The camera sees another colour on {territories}: check those huts against the setup.").format(
        territories=", ".join(f"{t} ({color(c)})" for t, c in huts))


def board_shows(frm: int, to: int, played_frm: int, played_to: int) -> str:
    """After a move the camera does not see on the board (a message's paragraph)."""
    return _("The board shows {frm} -> {to}, but {pfrm} -> {pto} was played: move the huts as played, "
             "or take the move back (C).").format(frm=frm, to=to, pfrm=played_frm, pto=played_to)


def to_hint(targets: Sequence[int]) -> str:
    # NOTE: max 25 characters; hint: the territories a move may go to
    return _("to: {territories}").format(territories=" ".join(map(str, targets)))


def huts_short(huts: dict[str, int]) -> str:
    """Huts in the hint row's short form: "3red 1blu"."""
    return " ".join(f"{n}{color_short(c)}" for c, n in huts.items())


def browse_hint(t: int, huts: dict[str, int], position: int | None, of: int) -> str:
    """Browsing with A/B: the territory, its huts ("3red 1blu") and its place in the list (1-based)."""
    where = f" {position}/{of}" if position is not None else ""
    return f"{t}: " + huts_short(huts) + where


def moved_entry(frm: int, to: int) -> str:
    """A plain move's result on the entry line: "20 -> 18" (as it was typed, the cursor gone)."""
    return f"{frm} -> {to}"


def moved_hint(p: int, huts: dict[str, int]) -> str | None:
    """A plain move's result on the entry screen's hint row: who moved and the huts to move by hand
    ("P2 moved 1yel 2red"); the huts alone if that is too long; None if even they do not fit (the
    whole message is shown then)."""
    colors = huts_short(huts)
    # NOTE: max 25 characters (with up to 5 hut counts "2red"); hint row of the move entry after a
    # plain move: the seat that moved and the huts the table moves by hand (from -> to is above it)
    text = _("{player} moved {huts}").format(player=player(p), huts=colors)
    if len(text) <= SMALL_COLS:
        return text
    return colors if len(colors) <= SMALL_COLS else None


def bot_title(seat: int) -> str:
    # NOTE: max 25 characters; title
    return _("{player} (bot)").format(player=player(seat))


def bot_moves_title(seat: int) -> str:
    # NOTE: max 25 characters; title
    return _("{player} (bot) moves").format(player=player(seat))
