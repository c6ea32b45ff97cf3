"""Every Clans sentence the table sees: the header, what a move did, undo, the order
question, the setup, scores, the end; each a function with named arguments.

Controllers build screens from these and never assemble words themselves, so a
translation (next issue) plugs in here and speech can say the same messages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Collection, Sequence

from companion.games.clans.board import COLORS
from companion.table.screen import Header

if TYPE_CHECKING:  # type names only: the texts stay free of engine imports at run time
    from companion.games.clans.game import Game, Move, Outcome, Village

ROMAN = ("", "I", "II", "III", "IV", "V")
COLOR_SHORT = {"red": "red", "blue": "blu", "green": "grn", "yellow": "yel", "black": "blk"}


def player(p: int) -> str:
    return f"P{p + 1}"


def huts_text(huts: dict[str, int]) -> str:
    """{'red': 2, 'blue': 1} -> '2 red, 1 blue'."""
    return ", ".join(f"{n} {c}" for c, n in huts.items()) or "none"


def count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def terrain_line(favorable: str, bonus: int, hostile: str) -> str:
    return f"+{bonus} {favorable}  X {hostile}"


def header(game: Game) -> Header:
    """The at-a-glance block: whose turn, epoch, chips left, terrains, the 5 scores."""
    ep = game.board.epoch(game.epoch)
    return Header(f"{player(game.to_move)} to move", f"Ep {ROMAN[game.epoch]} {game.chips_left_in_epoch} left",
                  terrain_line(ep.favorable, ep.bonus, ep.hostile),
                  tuple((COLOR_SHORT[c], str(n)) for c, n in zip(COLORS, game.scores)))


def epoch_text(game: Game, epoch: int) -> str:
    ep = game.board.epoch(epoch)
    if ep.favorable == "all":
        return f"Epoch {ROMAN[epoch]} begins: the last village scores +{ep.bonus} on any terrain."
    return f"Epoch {ROMAN[epoch]} begins: favorable {ep.favorable} +{ep.bonus}, hostile {ep.hostile}."


def end_reason(game: Game) -> str:
    if game.status == "finished":
        return "Game over: the 12th village is founded."
    return f"Game over: {player(game.to_move)} has no legal move."


# ----- what a move did ------------------------------------------------------------------
def village_paragraphs(game: Game, v: Village) -> list[str]:
    """One founded village: chip, strife, destruction, value and who advances."""
    terrain = game.board.territories[v.territory].terrain
    t = v.territory
    out = [f"Village {t} ({terrain}): {player(v.founder)} takes chip {v.chip}."]
    if v.chip == 12:
        out.append("12th village: +5!")
    removed = list(v.removed)
    left = v.huts - sum(v.removed.values())
    if removed:
        if left == 0:
            out.append(f"Strife: remove all {len(removed)} single huts from {t}.")
        else:
            out.append(f"Strife: remove the single {', '.join(removed)} huts from {t}.")
    if v.destroyed:
        out.append(f"Hostile {terrain} in epoch {ROMAN[v.epoch]}: destroyed. Remove all {count(left, 'hut')} "
                   f"from {t}. Nobody scores." if left else
                   f"Hostile {terrain}: destroyed. Nobody scores.")
    elif v.value:
        bonus = f" +{v.bonus}" if v.bonus else ""
        out.append(f"Worth {v.value} ({count(left, 'hut')}{bonus}): {', '.join(v.colors)} advance {v.value}.")
    else:
        out.append("No hut is left: nobody scores.")
    return out


def outcome_paragraphs(game: Game, outcome: Outcome) -> list[str]:
    """Everything the table must do after a move, in order."""
    m = outcome.move
    n = sum(outcome.moved.values())
    out = [f"Move {count(n, 'hut')} {m.frm} -> {m.to} ({huts_text(outcome.moved)})."]
    for v in outcome.villages:
        out += village_paragraphs(game, v)
    if outcome.not_founded:
        out.append(f"Not founded (no chip left): {', '.join(map(str, outcome.not_founded))}.")
    if game.is_over:
        out.append(end_reason(game))
    else:
        if outcome.epoch_changed:
            out.append(epoch_text(game, outcome.epoch_after))
        out.append(f"Next: {player(game.to_move)}.")
    return out


def undo_paragraphs(game: Game, outcome: Outcome) -> list[str]:
    """After game.pop(): which huts go back where (game is the position before the move)."""
    m = outcome.move
    out = []
    for v in reversed(outcome.villages):
        t = v.territory
        out.append(f"Village {t} undone: {player(v.founder)} gives back chip {v.chip}.")
        if v.value:
            out.append(f"Move {', '.join(v.colors)} back {v.value} on the track.")
        if v.destroyed:
            out.append(f"Put back on {t}: {huts_text(game.huts(t))}.")
        elif v.removed:
            out.append(f"Put the single {', '.join(v.removed)} huts back on {t}.")
    n = sum(outcome.moved.values())
    out.append(f"Put {count(n, 'hut')} ({huts_text(outcome.moved)}) back from {m.to} onto {m.frm}.")
    out.append(f"{player(outcome.player)} to move again.")
    return out


def order_paragraphs(game: Game, remaining: Sequence[int], answered: int) -> list[str]:
    """Why the mover is asked for the founding order (spec section 4), short enough for one screen."""
    treatments = game.treatments(len(remaining), answered)
    if None in treatments:
        reason = "Last chip: only one more village is founded (+5)."
    else:
        first = treatments[0]
        k = treatments.count(first)
        reason = (f"Epoch {ROMAN[first]} ends: {count(k, 'village')} in {ROMAN[first]}, "
                  f"the rest in {ROMAN[first + 1]}.")
    return [reason, "Choose: " + " ".join(map(str, remaining))]


def move_paragraphs(game: Game, move: Move) -> list[str]:
    """A move not yet played: the huts it takes and the villages it founds (in the mover's order)."""
    out = [f"Move {move.frm} -> {move.to}: {huts_text(game.huts(move.frm))}."]
    isolated = game.isolated_by(move.frm, move.to)
    if len(isolated) == 1:
        out.append(f"Founds village {isolated[0]}.")
    elif isolated:
        order = list(move.order) if move.order else sorted(isolated)
        out.append(f"Founds villages in this order: {', '.join(map(str, order))}.")
    return out


def bot_move_paragraphs(game: Game, move: Move) -> list[str]:
    """What a bot asks the table to do on its turn."""
    return move_paragraphs(game, move) + ["Make it, then #."]


def hint_paragraphs(game: Game, move: Move) -> list[str]:
    """A suggested move for the person to move (public information only)."""
    return move_paragraphs(game, move) + ["Type it, or any move."]


# ----- setup, scores, end ---------------------------------------------------------------
def setup_lines(game: Game, region: int) -> tuple[str, ...]:
    members = [t for t in game.board.numbers if game.board.territories[t].region == region]
    return tuple(f"{t:>2} {game.board.territories[t].terrain:<9} {game.setup[t]}" for t in members)


def score_paragraphs(game: Game) -> list[str]:
    s = game.scores
    return [f"red   {s[0]:>2}  blue   {s[1]:>2}", f"green {s[2]:>2}  yellow {s[3]:>2}", f"black {s[4]:>2}",
            f"Chips P1-P{game.players}: " + " ".join(map(str, game.chips)),
            f"Villages {len(game.villages)}/12, ep {ROMAN[game.epoch]}"]


def territory_paragraphs(game: Game, t: int) -> list[str]:
    if not 1 <= t <= 60:
        return [f"{t} is not a territory: use 1-60."]
    ter = game.board.territories[t]
    head = f"{t}: {ter.terrain}, region {ter.region}."
    village = next((v for v in game.villages if v.territory == t), None)
    if village is not None:
        return [head, f"Village (chip {village.chip}, epoch {ROMAN[village.epoch]}): "
                      f"{huts_text(game.huts(t)) if game.total[t] else 'no huts left'}."]
    if not game.total[t]:
        return [head, "Empty."]
    return [head, f"{huts_text(game.huts(t))}."]


def final_paragraphs(game: Game, colors: Sequence[str], bots: Collection[int] = ()) -> list[str]:
    """The end: each seat's color and total (bots marked), the winners."""
    totals, winners = game.winners(colors)
    out = [end_reason(game)]
    for i, c in enumerate(colors):
        who = player(i) + (" bot" if i in bots else "")
        out.append(f"{who} {c} {game.score(c)}+{game.chips[i]}={totals[i]}")
    if len(winners) == 1:
        out.append(f"Winner: {player(winners[0])}!")
    else:
        out.append(f"Winners (tie): {', '.join(player(w) for w in winners)}!")
    out.append("# = new game")
    return out




# ----- the menu and the information screens ----------------------------------------------------
MENU_ITEMS = ("New game", "Undo last move", "Hint", "Scores", "Huts on territory")  # the shell adds its own
THINKING = "Thinking..."
NOT_ALLOWED = "Not allowed"
NO_GAME_YET = "No game yet."
SCORES_TITLE = "Scores"
HUTS_TITLE = "Huts"
HUTS_MENU_TITLE = "Huts on territory"
HUTS_PROMPT = ("Type a territory and #.", "A/B: step, *: leave")
HINT_TITLE = "Hint"
HINT_NOT_NOW = "Hints are for a person about to move."
UNDO_TITLE = "Undo"
UNDO_QUESTION_TITLE = "Undo?"
NO_UNDO_SCORED = "The game is over and scored. # on the result: new game."
NO_MOVE_TO_UNDO = "No move to undo."
CANCELLED_TITLE = "Move cancelled"
CANCELLED = "Nothing changed: enter a move."
REFUSED_TITLE = "Refused"
YES_NO = "# = yes  * = no"
NEW_GAME_TITLE = "New game?"
ABANDON = "This game will be abandoned."
GAME_OVER_TITLE = "Game over"


def move_title(p: int, frm: int, to: int) -> str:
    """The title over what a move did: "P2: 12 -> 13"."""
    return f"{player(p)}: {frm} -> {to}"


def undone_title(frm: int, to: int) -> str:
    return f"Undone: {frm} -> {to}"


def hint_title(frm: int, to: int) -> str:
    return f"Hint: {frm} -> {to}"


def undo_question(ply: int, p: int, frm: int, to: int, villages: int) -> list[str]:
    """The "Undo?" question: which move goes back (and how many villages with it)."""
    what = f"Take back move {ply}: {player(p)} {frm} -> {to}"
    if villages:
        what += f" and {count(villages, 'village')}"
    return [what + "?", YES_NO]


def color_taken(color: str, owner: int) -> str:
    return f"{color} is already {player(owner)}'s color. Choose another."


# ----- new game: players, start player, bots, the deal, the walkthrough -----------------------
PLAYERS_TITLE = "New game: players?"
PLAYERS_CHOICES = ("2 players", "3 players", "4 players")
PLAYERS_NOTE = "2, 3 or 4 players"
FIRST_TITLE = "Who starts?"
FIRST_DRAW = "0 draw at random"
BOTS_TITLE = "Bots? digit = toggle"
BOTS_START = "Start"
ONE_PERSON_NOTE = "One seat stays a person"
DEAL_OTHERS = "The others look away."
DEAL_SECRET = "Keep it secret."
DEAL_HIDE = "# hides it."
SETUP_HOW = "Put 1 hut on each territory as shown, region by region."
SETUP_NEXT = "# = next"


def first_choice(p: int) -> str:
    return f"{p + 1} {player(p)} starts"


def first_note(players: int) -> str:
    return f"0 = draw, 1-{players} = player"


def bot_choice(seat: int, bot: bool) -> str:
    return f"{seat + 1} {player(seat)} {'bot' if bot else 'person'}"


def bots_note(players: int) -> str:
    return f"1-{players} toggles a seat"


def deal_title(seat: int) -> str:
    return f"Secret colors: {player(seat)}"


def deal_take_box(seat: int) -> str:
    return f"{player(seat)}: take the box alone, then #."


def deal_color_title(seat: int) -> str:
    return f"{player(seat)}: your clan"


def deal_color(seat: int, color: str) -> str:
    return f"{player(seat)}, your clan: {color.upper()}."


def setup_title(players: int) -> str:
    return f"New game: {players} players"


def setup_starts(p: int, drawn: bool) -> str:
    return f"{player(p)} starts ({'drawn' if drawn else 'chosen'})."


def region_title(region: int, first: int, last: int) -> str:
    return f"Region {region}: {first}-{last}"


# ----- moves: entry, browsing, the order question, a bot's turn ---------------------------------
FROM_HINT = "from? #=ok A/B=list"


def entry(typed: str) -> str:
    """The input line of a question: "> 12_"."""
    return f"> {typed}_"


def from_entry(typed: str) -> str:
    """The source being typed on the move entry: "12_"."""
    return f"{typed}_"


def to_entry(frm: int, typed: str) -> str:
    return f"{frm} -> {typed}_"


def to_hint(targets: Sequence[int]) -> str:
    return "to: " + " ".join(map(str, targets))


def browse_hint(t: int, huts: dict[str, int], position: int | None, of: int) -> str:
    """Browsing with A/B: the territory, its huts ("3red 1blu") and its place in the list (1-based)."""
    where = f" {position}/{of}" if position is not None else ""
    return f"{t}: " + " ".join(f"{n}{COLOR_SHORT[c]}" for c, n in huts.items()) + where


def order_title(p: int) -> str:
    return f"{player(p)}: which village next?"


def not_one_of_them(t: int) -> str:
    return f"{t} is not one of them."


def bot_title(seat: int) -> str:
    return f"{player(seat)} (bot)"


def bot_moves_title(seat: int) -> str:
    return f"{bot_title(seat)} moves"


# ----- the reveal ------------------------------------------------------------------------------
REVEAL_KEYS = ("1 red 2 blue 3 green", "4 yellow 5 black")
REVEAL_NOTE = "Type 1-5, then #."


def reveal_title(p: int) -> str:
    return f"{player(p)}: your color?"


def given_colors(colors: Sequence[str]) -> str:
    """The colors revealed so far: "Given: red P1, blue P2"."""
    return "Given: " + ", ".join(f"{c} {player(i)}" for i, c in enumerate(colors))


def reveal_entry(typed: str, color: str) -> str:
    """The reveal's input line: the digit typed and its color, "> 2 blue_"."""
    return f"> {typed} {color}_" if color else entry(typed)
