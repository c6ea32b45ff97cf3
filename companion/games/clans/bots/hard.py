"""The hard level: a stronger search than normal's (placeholder: the normal search)."""

from __future__ import annotations

from companion.games.clans.bots.mcts import MCTSBot


class HardBot(MCTSBot):
    name = "hard"
