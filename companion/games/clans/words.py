"""Clans game words the table shows: terrains, colors (full and 3-letter), seats, bot levels, huts of a color.

Looked up in the table's language when called (`companion.i18n`); the roman epoch
numerals are the same in every language.
"""

from __future__ import annotations

from typing import Sequence

from companion.i18n import N_, _, pgettext
from companion.table import seatnames

ROMAN = ("", "I", "II", "III", "IV", "V")  # epoch numerals: the same in every language
TERRAIN = {"forest": N_("forest"), "mountain": N_("mountain"), "steppe": N_("steppe"),
           "grassland": N_("grassland")}
COLOR = {"red": N_("red"), "blue": N_("blue"), "green": N_("green"), "yellow": N_("yellow"), "black": N_("black")}


# ----- game words --------------------------------------------------------------------------
def terrain(t: str) -> str:
    """A terrain's name ("all" / "none" of the epoch chart included)."""
    if t == "all":
        # NOTE: max 9 characters; the favorable terrain of the last epoch: any terrain
        return pgettext("terrain", "all")
    if t == "none":
        # NOTE: max 9 characters; the hostile terrain of the last epoch: nothing is destroyed
        return pgettext("terrain", "none")
    return _(TERRAIN[t])


def color(c: str) -> str:
    """A clan color's full name."""
    return _(COLOR[c])


def color_short(c: str) -> str:
    """A clan color in 3 letters (the header's score columns, browsing)."""
    shorts = {
        # NOTE: max 3 characters; red (header column, browsing)
        "red": pgettext("short color", "red"),
        # NOTE: max 3 characters; blue
        "blue": pgettext("short color", "blu"),
        # NOTE: max 3 characters; green
        "green": pgettext("short color", "grn"),
        # NOTE: max 3 characters; yellow
        "yellow": pgettext("short color", "yel"),
        # NOTE: max 3 characters; black
        "black": pgettext("short color", "blk"),
    }
    return shorts[c]


def level(name: str) -> str:
    """A bot's level as the table shows and says it; a bot that is not a level (random, greedy, mcts: for
    tests and tuning) by its own name."""
    levels = {
        # NOTE: max 7 characters; a bot's strength (the Bots? screen, the end)
        "easy": pgettext("bot level", "easy"),
        # NOTE: max 7 characters; a bot's strength
        "normal": pgettext("bot level", "normal"),
        # NOTE: max 7 characters; a bot's strength
        "hard": pgettext("bot level", "hard"),
    }
    return levels.get(name, name)


def colors_text(colors: Sequence[str]) -> str:
    """Color names joined by ", "."""
    return ", ".join(color(c) for c in colors)


def player(p: int) -> str:
    """A seat as the table shows it: its player's name when one was given (cut to fit), else P1..P4."""
    name = seatnames.shown(p)
    if name is not None:
        return name
    # NOTE: max 3 characters; a seat: P1..P4
    return pgettext("short player", "P{number}").format(number=p + 1)


def huts_text(huts: dict[str, int]) -> str:
    """{'red': 2, 'blue': 1} -> '2 red, 1 blue'."""
    # NOTE: huts of one color: "2 red"
    parts = [pgettext("huts of a color", "{n} {color}").format(n=n, color=color(c)) for c, n in huts.items()]
    return ", ".join(parts) or pgettext("huts", "none")
