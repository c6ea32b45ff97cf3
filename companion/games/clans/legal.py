"""A lazy view of a game's legal moves (like python-chess's `legal_moves`): iterate it, take its
len(), or test `move in game.legal_moves`; nothing is listed until asked."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from companion.games.clans.rules import IN_PROGRESS, Move

if TYPE_CHECKING:
    from companion.games.clans.game import Game


class LegalMoves:
    """A lazy view of a game's legal moves (like python-chess's legal_moves)."""

    def __init__(self, game: Game) -> None:
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
