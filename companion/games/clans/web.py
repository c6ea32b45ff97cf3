"""Clans on the table's page (companion.table.gameweb.GameWeb): the public state and the live map.

The map is drawn from the board data (the cells of `companion board --render`): each
territory shows its huts as coloured counts, empty territories are greyed, villages carry
the epoch they were founded in, the last move is an arrow. Beside it: whose turn, the
epoch chart with the chips left and this epoch's terrains, the scoring track, and the
last result in the OLED's own words (texts.py), in the table's language. A text list of
the territories ("14: 3 red, 1 blue") stands for the map for a screen reader.

Tap the map: while a person is to move, the live map names each territory a tap target
(`data-tap`) and the keys two taps type (`data-tap-keys`, `TAP_KEYS`); the page's script sends
them, with the PIN only, through the page's keypad door (companion/web/static/page.js).

Secrets: a seat's color is never shown before the reveal. Colors, totals and winners
come only from `summary(game, colors)` once every color is public and the game is over.
"""

from __future__ import annotations

import math
from typing import Any

from companion.games.clans import texts as T
from companion.games.clans import texts_teach as TT
from companion.games.clans.beliefs import told
from companion.games.clans.board import COLORS, Board
from companion.games.clans.boardmap import TERRAIN_FILL, cell_polygons
from companion.games.clans.game import Game
from companion.games.clans.record import summary
from companion.games.clans.words import ROMAN, color, huts_text, player, terrain
from companion.i18n import N_, _
from companion.table import keys as K
from companion.table.gameweb import esc, paragraphs, table, tag

HUT_FILL = {"red": "#d32f2f", "blue": "#1e63c6", "green": "#2e9e44", "yellow": "#f4c20d", "black": "#1b1b1b"}
HUT_INK = {"red": "#fff", "blue": "#fff", "green": "#fff", "yellow": "#000", "black": "#fff"}
EMPTY_FILL = "#d0d0d0"
HUT_R = 15.0
LABEL_BOX = 72  # half the side of the labels' square: more than any label reaches from the centre (the number, 58)
# Tap the map: what tapping {from} then {to} types at the box: * * (clear what is typed there, drop a chosen
# source), FROM # TO; the player confirms with # (at the box or on the page's keypad)
TAP_KEYS = f"{K.BACK}{K.BACK}{{from}}{K.OK}{{to}}"

# NOTE: the table's page (a phone): heading of the epoch chart
EPOCH_CHART = N_("Epoch chart")
# NOTE: the table's page: column headings of the epoch chart
EPOCH, VILLAGES, FAVORABLE, HOSTILE = N_("Epoch"), N_("Villages"), N_("Favorable"), N_("Hostile")
# NOTE: the table's page: heading of the scoring track; the colors' points
SCORES = N_("Scoring track")
# NOTE: the table's page: heading of the last move's result
LAST = N_("Last move")
# NOTE: the table's page: the map as a list, for a screen reader
MAP_AS_TEXT = N_("Territories as text")
# NOTE: the table's page: name of the board picture for a screen reader
MAP_LABEL = N_("Board map with the huts on each territory")
# NOTE: the table's page: replay step 0
START = N_("Start of the game")
# NOTE: the table's page: a village marker in the text list; {epoch} is a roman numeral
VILLAGE_OF = N_("village of epoch {epoch}")
# NOTE: the table's page: a destroyed village in the text list
DESTROYED = N_("village destroyed")
# NOTE: the table's page: no game yet (the players question is open at the table)
WAITING = N_("Waiting for a new game at the table.")
# NOTE: the table's page: chips each seat holds (a chip is a founded village)
CHIPS = N_("Chips")
# NOTE: the table's page: a first game, the rules explained so far (newest first)
FIRST_GAME = N_("First game: the rules so far")


def public_state(table_game: Any) -> dict:
    """The spec's state (the fields of `replay --json`, plus first_player): colors, totals and
    winners only once the game is over and every color is public."""
    game: Game | None = table_game.game
    if game is None:
        return {"mode": table_game.mode()}
    colors = table_game.final_colors()
    public = colors if game.is_over and len(colors) == game.players else None
    out = summary(game, public)
    out.update(first_player=game.first_player, players=game.players, mode=table_game.mode(),
               bots=sorted(table_game.state.bots), moves=game.ply,
               levels={str(s): level for s, level in sorted(table_game.state.levels.items())},
               teach=table_game.state.teach)
    if public is not None:
        out["colors"] = list(public)
    moves = game.moves
    if moves:
        out["last_move"] = {"from": moves[-1].frm, "to": moves[-1].to}
    return out


def live_html(table_game: Any) -> str:
    """The live view of the game at the table."""
    game: Game | None = table_game.game
    if game is None:
        return paragraphs([_(WAITING)])
    colors = table_game.final_colors()
    final = table_game.mode() == "final" and len(colors) == game.players
    bots = set(table_game.state.bots)
    if final:
        last = T.final_paragraphs(game, colors, bots)[:-1]  # not "# = new game": a key at the table
        for story in told(table_game.state):
            last += [T.belief_title(story.seat, story.level) + ":"] + T.belief_paragraphs(story, True)[:-1]
    else:
        last = _last_move(game, bots)
    tap = table_game.mode() == "move" and not game.is_over and game.to_move not in bots
    return _view(game, last, bots, tap) + _taught(table_game.state, game)


def _taught(state: Any, game: Game) -> str:
    """A first game: the rules explained so far, the newest first."""
    if not state.teach:
        return ""
    parts = [tag("h2", esc(_(FIRST_GAME)))]
    for rule in reversed(state.taught):
        parts.append(tag("h3", esc(TT.title(rule))) + paragraphs(TT.paragraphs(rule, TT.values(rule, game))))
    return tag("div", "".join(parts), cls="teach")


def steps(table_game: Any) -> list[str]:
    """One step a move: "3. P1 12 -> 13"."""
    record = table_game.record()
    if record is None:
        return []
    out, seat = [], record.first_player
    for n, move in enumerate(record.moves, start=1):
        out.append(f"{n}. {player(seat)} {move.frm} \u2192 {move.to}")
        seat = (seat + 1) % record.players
    return out


def step_html(table_game: Any, k: int) -> str:
    """The game after its first `k` moves, with that move's result."""
    record = table_game.record()
    if record is None:
        return paragraphs([_(WAITING)])
    game = record.play(upto=k)
    return _view(game, _last_move(game, set()), set())


def record(table_game: Any) -> str | None:
    """Spec section 1: `colors` only once every seat has revealed (Controller.record)."""
    return table_game.record_json()


# ----- drawing --------------------------------------------------------------------------------
def _last_move(game: Game, bots: set[int]) -> list[str]:
    """The last move's result as the OLED said it (its title, then its paragraphs)."""
    if not game.ply:
        return [_(START)]
    out = game.outcome()
    return [T.move_title(out.player, out.move.frm, out.move.to)] + T.outcome_paragraphs(game, out, bots)


def _view(game: Game, last: list[str], bots: set[int], tap: bool = False) -> str:
    side = [_turn(game, bots), _epoch_chart(game), _scores(game), tag("h2", esc(_(LAST))), paragraphs(last, "result")]
    return tag("div", tag("div", _map(game, tap), cls="map") + tag("div", "".join(side), cls="side"), cls="clans")


def _turn(game: Game, bots: set[int]) -> str:
    if game.is_over:
        return tag("p", esc(T.end_reason(game)), cls="turn")
    who = T.bot_moves_title(game.to_move) if game.to_move in bots else T.header(game).left
    chips = ", ".join(f"{player(p)} {n}" for p, n in enumerate(game.chips))
    return tag("p", esc(who), cls="turn", data_to_move=game.to_move) + tag("p", esc(f"{_(CHIPS)}: {chips}"))


def _epoch_chart(game: Game) -> str:
    board = game.board
    founded = len(game.villages)
    rows, first_chip = [], 0
    for ep in board.epochs:
        left = max(0, min(ep.chips, first_chip + ep.chips - founded))
        first_chip += ep.chips
        mark = "\u25b6 " if ep.number == game.epoch and not game.is_over else ""
        rows.append([esc(mark + ROMAN[ep.number]), esc(f"{ep.chips - left}/{ep.chips}"),
                     esc(f"{terrain(ep.favorable)} +{ep.bonus}"), esc(terrain(ep.hostile))])
    return tag("h2", esc(_(EPOCH_CHART))) + table([esc(_(EPOCH)), esc(_(VILLAGES)), esc(_(FAVORABLE)),
                                                   esc(_(HOSTILE))], rows, cls="epochs")


def _scores(game: Game) -> str:
    items = "".join(tag("li", tag("span", "", cls=f"swatch c-{c}") + esc(f"{color(c)} {game.scores[i]}"),
                        data_color=c, data_score=game.scores[i]) for i, c in enumerate(COLORS))
    return tag("h2", esc(_(SCORES))) + tag("ul", items, cls="scores")


_CELLS: dict[str, tuple[dict[int, str], str]] = {}


def _cells(board: Board) -> tuple[dict[int, str], str]:
    """Each territory's polygon points, and the viewBox around them all (once a board)."""
    if board.name in _CELLS:
        return _CELLS[board.name]
    cells = cell_polygons(board)
    xs = [x for poly in cells.values() for x, _y in poly]
    ys = [y for poly in cells.values() for _x, y in poly]
    box = f"{min(xs) - 4:.0f} {min(ys) - 4:.0f} {max(xs) - min(xs) + 8:.0f} {max(ys) - min(ys) + 8:.0f}"
    _CELLS[board.name] = ({n: " ".join(f"{x:.1f},{y:.1f}" for x, y in poly) for n, poly in cells.items()}, box)
    return _CELLS[board.name]


def _map(game: Game, tap: bool = False) -> str:
    """The board as SVG, its phone grid and its text list; with `tap` each territory a tap target."""
    board = game.board
    points, box = _cells(board)
    villages = {v.territory: v for v in game.villages}
    last = game.moves[-1] if game.moves else None
    svg, text, counts, on_top = [], [], [], []
    for n, t in board.territories.items():
        huts = game.huts(n)
        village = villages.get(n)
        said = f"{n}: {huts_text(huts)}"
        if village is not None:
            said += "; " + (_(DESTROYED) if village.destroyed else _(VILLAGE_OF).format(epoch=ROMAN[village.epoch]))
        text.append(tag("li", esc(said)))
        cls = "t" + ("" if huts else " empty") + (" village" if village else "")
        if last is not None and n in (last.frm, last.to):
            cls += " last-from" if n == last.frm else " last-to"
        fill = TERRAIN_FILL[t.terrain] if huts or village else EMPTY_FILL
        body = [tag("title", esc(said)), f'<polygon points="{points[n]}" fill="{fill}"/>']
        x, y = t.xy
        # an empty square centred on the territory, larger than every label: the labels' box, about whose
        # centre a phone turns them upright (style.css), is then the same whatever they show
        labels = [tag("rect", "", x=x - LABEL_BOX, y=y - LABEL_BOX, width=2 * LABEL_BOX, height=2 * LABEL_BOX,
                      fill="none", cls="anchor"),
                  tag("text", str(n), x=x, y=y - 34, cls="num")] + _huts(huts, x, y)
        mark = ""
        if village is not None:
            mark = "\u2715" if village.destroyed else ROMAN[village.epoch]
            labels.append(tag("g", tag("rect", "", x=x - 22, y=y + 26, width=44, height=22, rx=5, cls="badge")
                              + tag("text", esc(mark), x=x, y=y + 42, cls="badge-text"), cls="mark"))
        # drawn after every territory, so no neighbour's polygon covers a number; upright on a phone (style.css)
        on_top.append(tag("g", "".join(labels), cls="labels", data_t=n))
        if huts or village is not None:
            counts.append(_count_item(n, huts, mark, cls))
        svg.append(tag("g", "".join(body), cls=cls, data_t=n, data_tap=n if tap else None,
                       data_huts=",".join(f"{c}:{k}" for c, k in huts.items())))
    if last is not None:
        (x1, y1), (x2, y2) = board.territories[last.frm].xy, board.territories[last.to].xy
        d = math.hypot(x2 - x1, y2 - y1) or 1.0
        x2, y2 = x2 - (x2 - x1) * 18 / d, y2 - (y2 - y1) * 18 / d
        svg.append(tag("line", "", x1=x1, y1=y1, x2=f"{x2:.1f}", y2=f"{y2:.1f}", cls="last-move",
                       marker_end="url(#arrow)", data_from=last.frm, data_to=last.to))
    svg += on_top
    defs = ('<defs><marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" '
            'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#c2185b"/></marker></defs>')
    picture = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{box}" role="img" aria-label="{esc(_(MAP_LABEL))}">'
               f'{defs}{"".join(svg)}</svg>')
    listing = tag("details", tag("summary", esc(_(MAP_AS_TEXT))) + tag("ul", "".join(text), cls="territories"))
    # a phone (style.css): the board turns portrait with its numbers readable, the hut digits, too small
    # on a 360 px map, move to this grid of the occupied territories under it (hidden on wider screens)
    grid = tag("ul", "".join(counts), cls="counts", aria_hidden="true")
    return tag("div", picture, cls="board", data_tap_keys=TAP_KEYS if tap else None) + grid + listing


def _count_item(n: int, huts: dict[str, int], mark: str, cls: str) -> str:
    """One territory of the phone's grid: its number, a coloured chip per color with the count, its village."""
    chips = "".join(tag("span", str(k), cls=f"hut c-{c}", data_color=c) for c, k in huts.items())
    village = tag("span", esc(mark), cls="vil") if mark else ""
    last = " ".join(c for c in cls.split() if c.startswith("last-"))
    return tag("li", tag("b", str(n)) + chips + village, data_t=n, cls=last or None)


def _huts(huts: dict[str, int], x: float, y: float) -> list[str]:
    """Coloured discs with the count of each color, in rows of three around (x, y)."""
    items = list(huts.items())
    out = []
    rows = [items[:3], items[3:]] if len(items) > 3 else [items]
    for r, row in enumerate(rows):
        cy = y + (r - (len(rows) - 1) / 2) * (2 * HUT_R + 2)
        for i, (c, k) in enumerate(row):
            cx = x + (i - (len(row) - 1) / 2) * (2 * HUT_R + 2)
            out.append(tag("circle", "", cx=f"{cx:.1f}", cy=f"{cy:.1f}", r=HUT_R, fill=HUT_FILL[c],
                           stroke="#fff", stroke_width=1.5))
            out.append(tag("text", str(k), x=f"{cx:.1f}", y=f"{cy + 5:.1f}", fill=HUT_INK[c], cls="count",
                           data_color=c))
    return out
