"""The easy level: a bot a newcomer can beat that still plays the game (placeholder: greedy)."""

from __future__ import annotations

from companion.games.clans.bots.simple import GreedyBot


class EasyBot(GreedyBot):
    name = "easy"
