"""A game's legal moves and why a move is refused.

`LegalMoves` is a lazy view of them (like python-chess's `legal_moves`): iterate it, take
its len(), or test `move in game.legal_moves`; nothing is listed until asked.
`illegal_reason` says why a move or a source is refused (`Game.illegal_reason`).
"""

from __future__ import annotations

from typing import Iterator

from companion.games.clans.board import N_TERRITORIES
from companion.games.clans.rules import FINISHED, IN_PROGRESS, GameState, Move


class LegalMoves:
    """A lazy view of a game's legal moves (like python-chess's legal_moves)."""

    def __init__(self, game: GameState) -> None:
        self.game = game

    def __iter__(self) -> Iterator[Move]:
        g = self.game
        if g.status != IN_PROGRESS:
            return
        for a in g.occupied():
            for b in g.rules.nb_list[a]:
                if g._can_move(a, b):
                    yield Move(a, b)

    def __contains__(self, move: object) -> bool:
        if isinstance(move, tuple) and len(move) >= 2:
            return self.game.is_legal(move[0], move[1])
        return False

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __bool__(self) -> bool:
        return any(True for _ in self)


def illegal_reason(game: GameState, frm: int, to: int | None = None) -> tuple[str, dict[str, object]] | None:
    """Why `game` refuses a move (or a source): a key of `ILLEGAL` and its values; None if fine."""
    n = N_TERRITORIES
    if game.status != IN_PROGRESS:
        return ("over-finished" if game.status == FINISHED else "over-stalled"), {}
    if not isinstance(frm, int) or not 1 <= frm <= N_TERRITORIES:
        return "not-territory", {"territory": frm, "last": n}
    if not game.occ >> frm & 1:
        return ("village-moves" if game.is_village(frm) else "empty-moves"), {"frm": frm}
    if to is None:
        if not game.targets(frm):
            return "big-stuck", {"frm": frm, "huts": game.total[frm]}
        return None
    if not isinstance(to, int) or not 1 <= to <= N_TERRITORIES:
        return "not-territory", {"territory": to, "last": n}
    if to == frm:
        return "onto-itself", {"frm": frm}
    if not game.rules.nb_mask[frm] >> to & 1:
        return "not-next", {"frm": frm, "to": to}
    if not game.occ >> to & 1:
        return ("onto-village" if game.is_village(to) else "onto-empty"), {"to": to}
    if game.big >> frm & 1 and game.total[to] < game.total[frm]:
        return "big-onto-small", {"frm": frm, "to": to, "huts": game.total[frm], "huts_to": game.total[to]}
    return None
