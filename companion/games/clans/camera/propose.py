"""The camera's proposal: the one legal move that explains what changed between two views.

The box always knows the position and its legal moves, so it never recognises huts: it only
asks which territory was emptied and where its huts went. From the view before the move, the
view after it and the view of the empty board (taken during the setup, the reference for
"nothing here"), per territory (companion.games.clans.camera.views):

- `moved`: the share of it that changed from before to after;
- `before` and `after`: the share that differs from the empty board (its huts, chips, shadows).

A move a -> b empties a (it changed, and now looks like the empty board) and adds to b (it
changed, and holds no less than before); nothing else changes. The proposal is that move when
exactly one territory was emptied, exactly one of its legal targets grew, and every other
territory that changed holds what it held (a hut nudged by a sleeve). Anything else is no
proposal, with the reason: nothing changed; much of the board changed (a hand over it, the
light); no territory or two were emptied; the huts went nowhere a legal move allows, or to two
places; something else changed too. A wrong move proposed is worse than none.

Before any of it, the board is placed (`place`): corners given are taken in the one of their eight
orders under which the view before the move agrees with the position (companion.games.clans.camera.orient),
and without corners the board is found from the huts (companion.games.clans.camera.find). A view
that agrees with the position in no order, or in two, is not read (`no_board`). Corners found from
the huts are less sure (1% of the board's width, up to 3% in a late game's few territories): a move
is proposed with them only when the board placed that far elsewhere names no other move (`unsteady`).

A table's life (issue 51): the empty board is compared in the views' own light (views.relit: dusk
after a daylight setup), and still it must show the position's huts (most territories with huts
differ from it, and the source did before the move), else the light is not the empty board's
(`light`). What arrived must be huts (views.arrivals: where the colour itself changed): no patch
many times larger than what left the source, counted as at most HUT_PATCH_MOST a hut (a cup, a
phone, a paw set down: `not_huts`), the target's colour changed, and what arrived at it lies
nearer it than any other of the source's targets (`between`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Sequence

from PIL import Image

from companion.games.clans.camera.find import hut_fit
from companion.games.clans.camera.geometry import BOARD_VIEW, Point, perspective, to_board
from companion.games.clans.camera.orient import mapped_regions, orient, shares_in
from companion.games.clans.camera.views import Detail, Patch, arrivals, change, detail, region_pixels, shares
from companion.games.clans.game import Game

CHANGED = 0.03  # a territory changed when this share of it changed clearly
EMPTIED = 0.4  # ... and was emptied when it differs from the empty board by at most this of before
LOOKS_EMPTY = 0.03  # ... or by at most this share (a territory as bare as the empty board)
GREW = 0.01  # a territory gained or lost when what it holds moved by twice this, and by a third
KEPT = 0.02  # the target holds at least what it held less this (a pile's new huts may hide old ones)
MOST_CHANGED = 8  # more territories changed than this: a hand over the board, or the light
ALONE = 2.0  # of two targets that changed, the one taken changed this many times more
ALONE_GROWTH = 0.5  # ... or grew, and the other grew less than this share of it
FAINT = 0.015  # a change too faint to count alone (a single hut is about 0.03)
# The empty board must still be the reference (the light changes, a lamp's glare) ...
SEEN_PX = 50  # a territory with huts differs from the empty board by this many pixels of the view, at least
SEEN_SHARE = 0.8  # ... and this share of the territories with huts do, else the light is not the empty board's
# ... and what arrived must be huts (views.arrivals: the patches where the colour changed, in reduced pixels)
HUT_PATCH = 12  # the colour change one hut makes, at least
HUT_PATCH_MOST = 25  # ... and at most (what left a counts no more than this a hut: a cup beside it is not huts)
NOT_HUTS = 3.0  # a patch of colour change this many times larger than what left the source is no huts
ARRIVED = 0.2  # the target's colour changed by at least this share of what left the source
SPECK = 6  # a patch smaller than this is the sensor's noise, not a hut


@lru_cache(maxsize=8)
def nearby(unsure: float) -> tuple[list[float], ...]:
    """The board placed a little elsewhere in the view, as far as its corners may be off (`unsure`, a
    share of its width): shifted that far each way, and 1.5 times that larger and smaller (maps of
    the view onto itself)."""
    w, h = BOARD_VIEW
    frame = [(0.0, 0.0), (float(w), 0.0), (float(w), float(h)), (0.0, float(h))]
    step = unsure * w
    moves = [[(x + dx, y + dy) for x, y in frame] for dx, dy in ((step, 0), (-step, 0), (0, step), (0, -step))]
    sizes = [[((x - w / 2) * f + w / 2, (y - h / 2) * f + h / 2) for x, y in frame]
             for f in (1 + 1.5 * unsure, 1 - 1.5 * unsure)]
    return tuple(perspective(frame, moved) for moved in moves + sizes)


@dataclass
class Proposal:
    """The move the views show (None: no proposal), why, and the measures it was read from."""

    move: tuple[int, int] | None
    code: str  # "move", "still", "covered", "no_source", "two_sources", "cannot_move", "no_target",
    #            "two_targets", "other_change", "no_board", "unsteady", "light", "not_huts", "between"
    reason: str
    changed: list[int] = field(default_factory=list)
    measures: dict[int, tuple[float, float, float]] = field(default_factory=dict)  # t: (moved, before, after)
    corners: list[Point] | None = None  # the corners the views were made with (None: the board was not placed)
    found: bool = False  # ... found by the box (no corners were given)

    def as_json(self) -> dict:
        """The contract's object (docs/contracts.md, `companion camera propose --json`)."""
        corners = None if self.corners is None else [round(v, 1) for point in self.corners for v in point]
        return {"move": list(self.move) if self.move else None, "reason": self.reason, "code": self.code,
                "changed": self.changed, "corners": corners, "found": self.found}


def _names(numbers: Sequence[int]) -> str:
    return ", ".join(str(t) for t in numbers)


@dataclass(frozen=True)
class Placed:
    """Where the board lies in the photographs: `corners` (None: nowhere the box can tell), whether the
    box found them (`found`), and why."""

    corners: list[Point] | None
    found: bool
    reason: str
    unsure: float = 0.0  # how far the corners may be off, a share of the board's width (0: as given)


def place(game: Game, photo: Image.Image, empty: Image.Image, corners: Sequence[Point] | None = None) -> Placed:
    """The board's corners in `photo` (with `game`'s position on it) and `empty` (the empty board, same
    camera): `corners` in the order that agrees with the position, or found without them. CornersError
    for corners that make no board in any order; NoLibrary when the board is to be found without OpenCV."""
    if corners is not None:
        oriented = orient(game, photo, corners, empty)
        return Placed(oriented.corners, False, oriented.reason)
    found = hut_fit(game, photo, empty)
    return Placed(found.corners, True, found.reason, found.uncertainty)


def propose(game: Game, before: Image.Image, after: Image.Image, empty: Image.Image,
            corners: Sequence[Point] | None = None) -> Proposal:
    """The one legal move of `game` (the position before it) that the photographs show; `corners` as
    given (in any of their eight orders), or None: found in the photographs."""
    placed = place(game, before, empty, corners)
    if placed.corners is None:
        return Proposal(None, "no_board", placed.reason, found=placed.found)
    ref, was, now = (detail(to_board(photo, placed.corners)) for photo in (empty, before, after))
    proposal = judge(game, was, now, ref, placed.unsure)
    proposal.corners, proposal.found = placed.corners, placed.found
    return proposal


def judge(game: Game, was: Detail, now: Detail, ref: Detail, unsure: float = 0.0) -> Proposal:
    """The proposal from the details of the views before and after the move and of the empty board.
    `unsure`: how far the board's corners may be off (a share of its width; corners found from the huts):
    a move is proposed only when the board placed that far elsewhere (`nearby`) names no other move."""
    diffs = (change(was, now), change(was, ref), change(now, ref))
    measured = [shares(diff, game.board) for diff in diffs]
    found = decide(game, *measured)
    if found.move is not None:
        # what arrived only ever turns a move into none (decide's last rules), and measuring it costs
        # most of a judgement: looked at only for a move, not at every still view the watcher judges
        found = decide(game, *measured, arrivals(was, now, game.board))
    if not unsure or found.move is None:
        return found
    for coeffs in nearby(round(unsure, 3)):
        regions = mapped_regions(game.board, coeffs)
        other = decide(game, *(shares_in(diff, regions) for diff in diffs)).move
        if other is not None and other != found.move:
            a, b = found.move
            return Proposal(None, "unsteady", f"{a} -> {b}, but {other[0]} -> {other[1]} with the board placed a "
                            f"little elsewhere: its corners are not sure enough", found.changed, found.measures)
    return found


def decide(game: Game, moved: dict[int, float], before: dict[int, float], after: dict[int, float],
           arrived: Sequence[Patch] | None = None) -> Proposal:
    """The proposal from the per-territory measures and the patches where the colour changed
    (`arrived`; None: not looked at) (see the module docstring)."""
    measures = {t: (round(moved[t], 4), round(before[t], 4), round(after[t], 4)) for t in moved}
    changed = sorted(t for t, share in moved.items() if share >= CHANGED)

    def none(code: str, reason: str) -> Proposal:
        return Proposal(None, code, reason, changed, measures)

    if len(changed) > MOST_CHANGED:
        return none("covered", f"{len(changed)} territories changed: a hand over the board, or the light")
    pixels = region_pixels(game.board)
    occupied = game.occupied()
    unseen = [t for t in occupied if before[t] * pixels[t] < SEEN_PX]
    if changed and len(unseen) > (1 - SEEN_SHARE) * len(occupied):
        return none("light", f"{len(occupied) - len(unseen)} of the {len(occupied)} territories with huts look "
                             "unlike the empty board: the light is not the empty board's")
    # emptied: it held something and holds nothing now (even one hut moved off it changes little)
    emptied = sorted(t for t in occupied if moved[t] >= FAINT and before[t] >= FAINT
                     and (after[t] <= EMPTIED * before[t] or after[t] <= LOOKS_EMPTY and t in changed))
    if not changed and not emptied:
        return none("still", "nothing changed on the board")
    if not emptied:
        return none("no_source", f"no territory was emptied ({_names(changed)} changed)")
    if len(emptied) > 1:
        return none("two_sources", f"{_names(emptied)} were all emptied: more than one move?")
    a = emptied[0]
    targets = game.targets(a)
    if not targets:
        return none("cannot_move", f"{a} was emptied, but its huts cannot move")
    # the target: the one that grew (a hut nudged keeps what it holds), else the one that changed
    gain = {t: after[t] - before[t] for t in targets}
    ranked = sorted(targets, key=lambda t: gain[t], reverse=True)
    runner_up = gain[ranked[1]] if len(ranked) > 1 else 0.0
    if gain[ranked[0]] >= GREW and moved[ranked[0]] >= FAINT / 2 and runner_up < ALONE_GROWTH * gain[ranked[0]]:
        grown = ranked[:1]
    else:
        grown = sorted((t for t in targets if moved[t] >= FAINT and after[t] >= before[t] - KEPT),
                       key=lambda t: moved[t], reverse=True)
        if len(grown) > 1 and moved[grown[0]] < ALONE * moved[grown[1]]:
            return none("two_targets", f"{a} was emptied, and both {grown[0]} and {grown[1]} changed")
    if not grown:
        return none("no_target", f"{a} was emptied, but none of {_names(targets)} took its huts")
    b = grown[0]
    # the one that grew must also be the one that changed most: in light that drifted since the empty
    # board (dusk), "grew" is measured against that board and may be the light's, not huts'
    rival = max((t for t in targets if t != b), key=lambda t: moved[t], default=None)
    if rival is not None and moved[rival] >= CHANGED and moved[rival] > moved[b]:
        return none("two_targets", f"{a} was emptied; {b} grew, but {rival} changed more")
    # What else changed must hold what it held (a nudge); a territory that gained or lost is a
    # second move, a removal, or a hand.
    other = [t for t in changed if t not in (a, b)
             and abs(after[t] - before[t]) > max(GREW * 2, 0.35 * max(after[t], before[t]))]
    if other:
        return none("other_change", f"{a} -> {b}, but {_names(other)} changed too")
    # Against light that drifted, "emptied" means nothing: a must have shown its huts.
    if before[a] * pixels[a] < SEEN_PX:
        return none("light", f"{a} -> {b}, but {a} hardly differed from the empty board before the move (the light?)")
    if arrived is not None:
        # What arrived is huts: no patch larger than what left a (a cup, a phone, a paw), something at b,
        # and nothing that lies nearer another of a's targets than b.
        huts = sum(game.huts(a).values())
        left = max(HUT_PATCH, min(sum(p.area for p in arrived if a in p.territories), HUT_PATCH_MOST * huts))
        big = [p for p in arrived if p.territories and p.area > NOT_HUTS * left]
        if big:
            return none("not_huts", f"{a} -> {b}, but something larger than huts changed on "
                                    f"{_names(sorted(big[0].territories)) or 'the board'}: a cup, a phone, a paw?")
        at_b = [p for p in arrived if b in p.territories and p.area >= SPECK]
        if sum(p.area for p in at_b) < ARRIVED * left:
            return none("no_target", f"{a} was emptied, but {b} hardly changed colour")
        centres = game.board.territories
        for p in at_b:
            if a in p.territories:
                continue  # (the huts left a and arrived next door: one patch)
            near = min(targets, key=lambda t: math.dist(p.centre, centres[t].xy))
            if near != b:
                return none("between", f"{a} -> {b}? What arrived lies nearer {near}")
    return Proposal((a, b), "move", f"{a} was emptied and its huts went to {b}", changed, measures)
