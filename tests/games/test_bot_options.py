"""A game's bots as its GameType declares them: which bot its seats play when the table asks for
one of another game's, and the options each bot is made with (`bot_options`)."""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping

import pytest

from companion import games
from companion.games import find_game
from companion.table.gametype import GameType


def echo(options: Mapping[str, Any]) -> dict:
    """A searcher hook that hands back what the table made it with."""
    return dict(options)


GAME = GameType("botty", "Botty", "Botty", "counter_game.game", min_players=1, max_players=2,
                bots=("slow", "fast"), default_bot="slow", searcher=f"{__name__}:echo",
                bot_options={"fast": {"depth": 3, "greedy": True}})


def test_the_bot_asked_for_is_made_with_its_own_options():
    made = GAME.make_searcher({"bot": "fast", "move_time": 0.2, "seed": 7})
    assert made == {"bot": "fast", "bot_options": {"depth": 3, "greedy": True}, "move_time": 0.2, "seed": 7}


@pytest.mark.parametrize("asked", [None, "", "mcts", "FAST"])
def test_a_bot_of_another_game_or_none_is_this_games_default(asked):
    made = GAME.make_searcher({"bot": asked})
    assert (made["bot"], made["bot_options"]) == ("slow", {})


def test_the_options_are_a_copy_a_searcher_cannot_change_for_the_next():
    GAME.make_searcher({"bot": "fast"})["bot_options"]["depth"] = 99
    assert GAME.make_searcher({"bot": "fast"})["bot_options"]["depth"] == 3


@pytest.mark.parametrize("options, words", [
    ({"mcts": {"c": 1}}, "'mcts': not one of its bots"),
    ({"fast": {"not a name": 1}}, "a mapping of keyword names"),
    ({"fast": [("depth", 3)]}, "a mapping of keyword names"),
])
def test_registration_refuses_options_of_no_bot_or_no_keywords(options, words):
    broken = dataclasses.replace(GAME, bot_options=options)
    assert any(words in p for p in broken.problems())
    with pytest.raises(ValueError, match=words.replace("(", r"\(")):
        games.register_game(broken)
    assert "botty" not in games.GAMES


def test_clans_mcts_is_made_with_the_options_its_about_declares():
    clans = find_game("clans")
    assert clans.bot_options["mcts"]["c"] == 0.7
    bot = clans.make_searcher({"bot": "mcts", "iterations": 50}).bot
    assert (bot.c, bot.reward, bot.search_kind, bot.iterations) == (0.7, "mix", "halving", 50)
    other = dataclasses.replace(clans, bot_options={"mcts": {"c": 1.9, "search": "uct"}})
    bot = other.make_searcher({"bot": "mcts"}).bot
    assert (bot.c, bot.search_kind) == (1.9, "uct")
    assert clans.make_searcher({"bot": "greedy"}).bot.name == "greedy"
