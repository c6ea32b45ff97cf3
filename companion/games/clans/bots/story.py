"""What a bot believed of the other seats' colors, told after the reveal: "P2 thought P1 was red (80%)
from move 9: right".

A searching bot (normal, hard) weighs who owns which color by the moves it has seen
(`belief.ColorModel`, with the bot's own `beta` and `model_eps`; the hard bot reads quiet
moves too: `bots.intent`). `beliefs` replays the
game's public moves once, as the bot saw them knowing only its own color, and keeps, for
each other seat, the color it thought most likely at the end, how sure it was, and the
move from which that color stayed its best guess to the end. Pure and cheap (one pass over
the history: ~2 ms a game here, ~80 ms for a hard bot, which reads every quiet move): the controller calls it once the game is over.
Bots that keep no such model (easy, random, greedy) believed nothing: `beliefs` gives None.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.clans.board import COLORS
from companion.games.clans.game import COLOR_INDEX, Game
from companion.games.clans.bots.belief import ColorModel
from companion.games.clans.bots.tactics import NC


@dataclass(frozen=True)
class Belief:
    """Bot `bot` thought seat `seat` owned `color` with probability `p` from move `since` (1-based; 0: before
    any move) to the end; `right` once the real color is known."""

    bot: int
    seat: int
    color: str
    p: float
    since: int
    right: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        """The record's form (docs/contracts.md, the optional "beliefs")."""
        out = {"bot": self.bot, "seat": self.seat, "color": self.color, "p": round(self.p, 2), "since": self.since}
        if self.right is not None:
            out["right"] = self.right
        return out


def model_of(level: str) -> Any | None:
    """The bot named `level`, as the reader of its color model (`readings`, `beta`, `model_eps`), or None
    for a bot that keeps none."""
    from companion.games.clans.bots import make_bot

    try:
        bot = make_bot(level)
    except ValueError:
        return None
    return bot if hasattr(bot, "readings") else None


def beliefs(game: Game, bot: int, color: str, model: Any,
            colors: list[str] | None = None) -> list[Belief]:
    """What the bot at seat `bot` (secretly `color`) believed of each other seat at the end of `game`
    (see the module doc); `model` reads the moves as that bot does (`model_of`); `colors` (every
    seat's real color) says which guesses were right."""
    beta, eps = model.beta, model.model_eps
    judged = {s for s in range(game.players) if s != bot}
    loglik = [[0.0] * NC for _ in range(game.players)]
    known = {bot: COLOR_INDEX[color]}
    best = [_best(game, known, beta, eps, loglik, s) for s in range(game.players)]
    since = [0] * game.players
    for n, (seat, row) in enumerate(model.readings(game, judged), start=1):
        if not row:
            continue
        for k, x in enumerate(row):
            loglik[seat][k] += x
        model_now = ColorModel(game, known, beta=beta, eps=eps, loglik=loglik)
        for s in judged:
            guess = _argmax(model_now.marginal_index(s))
            if guess != best[s]:
                best[s], since[s] = guess, n
    final = ColorModel(game, known, beta=beta, eps=eps, loglik=loglik)
    out = []
    for s in sorted(judged):
        p = final.marginal_index(s)[best[s]]
        right = None if colors is None else colors[s] == COLORS[best[s]]
        out.append(Belief(bot, s, COLORS[best[s]], p, since[s], right))
    return out


def _best(game: Game, known: dict[int, int], beta: float, eps: float, loglik: list[list[float]], seat: int) -> int:
    return _argmax(ColorModel(game, known, beta=beta, eps=eps, loglik=loglik).marginal_index(seat))


def _argmax(values: list[float]) -> int:
    """The index of the largest value; a tie goes to the first (so "no evidence" keeps the first guess)."""
    return max(range(len(values)), key=lambda i: (values[i], -i))
