"""The screen model: what the OLED shows, as plain data, and the words for it.

The controller decides *what* is on screen by building a `Screen`; the renderer
(`companion.table.render`) only draws it. Text is wrapped here, to the column count
of the fixed-width fonts the renderer uses, so paging ("1/3", A/B) is decided by
the controller and a test can read a screen without looking at pixels.

Also here: the sentences that tell the table what to do with the pieces after a
move, an undo, a village, a bot's move, a hint, and the end of the game.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import TYPE_CHECKING, Collection, Sequence

from companion.games.clans.board import COLORS

if TYPE_CHECKING:  # type names only: the screens stay free of engine imports at run time
    from companion.games.clans.game import Game, Move, Outcome, Village

BODY_COLS = 21  # 6x10 font on 128 px
BODY_ROWS = 5  # under the 9 px title bar
SMALL_COLS = 25  # 5x8 font on 128 px
ROMAN = ("", "I", "II", "III", "IV", "V")
COLOR_SHORT = {"red": "red", "blue": "blu", "green": "grn", "yellow": "yel", "black": "blk"}

# Screen kinds, each with its own layout in the renderer.
ENTRY = "entry"  # status block + the move being typed
TEXT = "text"  # title bar + wrapped lines (+ an input line)
MENU = "menu"  # title bar + a list with one highlighted row


@dataclass(frozen=True)
class Status:
    """The at-a-glance block: whose turn, epoch, chips left, terrains, the 5 scores."""

    player: int  # 0-based index of the player to move
    epoch: int
    chips_left: int
    favorable: str  # a terrain or "all"
    bonus: int
    hostile: str  # a terrain or "none"
    scores: tuple[int, ...]  # COLORS order


@dataclass(frozen=True)
class Screen:
    """One frame's content. `name` says which screen it is (tests, gallery), never drawn."""

    kind: str
    name: str
    title: str = ""
    lines: tuple[str, ...] = ()
    page: int = 0
    pages: int = 1
    entry: str | None = None  # an input line ("> 12_"); None when nothing is asked
    hint: str = ""
    status: Status | None = None
    choices: tuple[str, ...] = ()
    selected: int = 0

    def text(self) -> str:
        """Everything readable on the screen, as text (logs, tests, the terminal fallback)."""
        parts = [self.title + (f" {self.page + 1}/{self.pages}" if self.pages > 1 else "")]
        if self.status is not None:
            parts += status_lines(self.status)
        parts += list(self.lines)
        parts += [("> " if i == self.selected else "  ") + c for i, c in enumerate(self.choices)]
        if self.entry is not None:
            parts.append(self.entry)
        if self.hint:
            parts.append(self.hint)
        return "\n".join(parts)


# ----- text helpers ---------------------------------------------------------------------
def wrap(paragraphs: Sequence[str], cols: int = BODY_COLS) -> list[str]:
    """Paragraphs -> lines of at most `cols` characters (long words are broken)."""
    out: list[str] = []
    for p in paragraphs:
        out += textwrap.wrap(p, cols, break_on_hyphens=False) or [""]
    return out


def paginate(paragraphs: Sequence[str], rows: int = BODY_ROWS, cols: int = BODY_COLS) -> list[tuple[str, ...]]:
    """Wrapped lines cut into pages of `rows` lines; at least one (possibly empty) page."""
    lines = wrap(paragraphs, cols)
    return [tuple(lines[i:i + rows]) for i in range(0, len(lines), rows)] or [()]


def player(p: int) -> str:
    return f"P{p + 1}"


def huts_text(huts: dict[str, int]) -> str:
    """{'red': 2, 'blue': 1} -> '2 red, 1 blue'."""
    return ", ".join(f"{n} {c}" for c, n in huts.items()) or "none"


def count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def status_lines(s: Status) -> list[str]:
    """The status block as text lines (the renderer lays the same data out in columns)."""
    return [f"{player(s.player)} to move  Ep {ROMAN[s.epoch]} {s.chips_left} left",
            terrain_line(s),
            " ".join(f"{COLOR_SHORT[c]}{n}" for c, n in zip(COLORS, s.scores))]


def terrain_line(s: Status) -> str:
    fav = "all" if s.favorable == "all" else s.favorable
    return f"+{s.bonus} {fav}  X {s.hostile}"


def status_of(game: Game) -> Status:
    ep = game.board.epoch(game.epoch)
    return Status(game.to_move, game.epoch, game.chips_left_in_epoch, ep.favorable, ep.bonus, ep.hostile,
                  tuple(game.scores))


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


def confirm_screen(name: str, title: str, text: str) -> Screen:
    """A yes/no question: # = yes, * = no."""
    return Screen(TEXT, name, title, tuple(wrap([text, "# = yes  * = no"])[:BODY_ROWS]))


def common_confirm(overlay: str | None) -> Screen | None:
    """The confirmation screens both games' menus share (new game, shut down, other game)."""
    if overlay == "new?":
        return confirm_screen("new?", "New game?", "This game will be abandoned.")
    if overlay == "shutdown?":
        return confirm_screen("shutdown?", "Shut down?", "Turn the companion off safely.")
    if overlay == "switch?":
        return confirm_screen("switch?", "Other game?", "This game will be abandoned.")
    return None
