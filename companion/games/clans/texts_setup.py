"""Clans texts of a new game and of its end: players, "Who starts?", "Bots?", the deal of
colors, the setup walkthrough and the reveal. Looked up in the table's language when
called (`companion.i18n`); constants are `N_`-marked and shown with `_`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from companion.games.clans.words import color, level, player, terrain
from companion.i18n import N_, _, pgettext

if TYPE_CHECKING:
    from companion.games.clans.game import Game

# ----- new game: players, start player, bots, the deal, the walkthrough -----------------------
# NOTE: max 25 characters; title
PLAYERS_TITLE = N_("New game: players?")
# NOTE: max 20 characters each (menu choices)
PLAYERS_CHOICES = (N_("2 players"), N_("3 players"), N_("4 players"))
# NOTE: max 25 characters; hint
PLAYERS_NOTE = N_("2, 3 or 4 players")
# NOTE: max 25 characters; title
FIRST_TITLE = N_("Who starts?")
# NOTE: max 20 characters; menu choice
FIRST_DRAW = N_("0 draw at random")
# NOTE: max 25 characters; title
BOTS_TITLE = N_("Bots? digit = change")
# NOTE: max 20 characters; menu choice
BOTS_START = N_("Start")
# NOTE: max 25 characters; hint
ONE_PERSON_NOTE = N_("One seat stays a person")
DEAL_OTHERS = N_("The others look away.")
DEAL_SECRET = N_("Keep it secret.")
DEAL_HIDE = N_("# hides it.")
SETUP_HOW = N_("Put 1 hut on each territory as shown, region by region.")
# NOTE: max 21 characters
SETUP_NEXT = N_("# = next")
# NOTE: max 19 characters; title of the walkthrough's last page (the rulebooks' secret clan cards)
CARDS_TITLE = N_("Clan cards")
# NOTE: the walkthrough's last page, people only: the rulebooks' deal (with "# = play": 7 lines of 25 at most)
CARDS_DEAL = N_("Shuffle the clan cards and deal each player 1 face down: their secret color.")
# NOTE: the unused clan cards go back in the game's box, face down (the rulebooks)
CARDS_REST = N_("Put the rest back unseen.")
# NOTE: the last page with bots: the box dealt the colors, the cards are not used (7 lines of 25 at most)
CARDS_KEPT = N_("Leave the clan cards in the game box: the companion dealt the colors.")
# NOTE: max 25 characters; the walkthrough's last page: # starts the game
SETUP_PLAY = N_("# = play")


def first_choice(p: int) -> str:
    # NOTE: max 20 characters; menu choice: "2 P2 starts"
    return _("{digit} {player} starts").format(digit=p + 1, player=player(p))


def first_note(players: int) -> str:
    # NOTE: max 25 characters; hint
    return _("0 = draw, 1-{players} = player").format(players=players)


def bot_choice(seat: int, bot: str | None) -> str:
    if bot:
        # NOTE: max 20 characters; menu choice: "2 P2 bot hard" ({level}: easy, normal or hard)
        return _("{digit} {player} bot {level}").format(digit=seat + 1, player=player(seat), level=level(bot))
    # NOTE: max 20 characters; menu choice: "2 P2 person"
    return _("{digit} {player} person").format(digit=seat + 1, player=player(seat))


def teach_choice(on: bool) -> str:
    if on:
        # NOTE: max 20 characters; menu choice of the Bots? screen: a first game, each rule explained (0 switches)
        return _("0 teach rules: yes")
    # NOTE: max 20 characters; menu choice of the Bots? screen: no teaching
    return _("0 teach rules: no")


def bots_note(players: int) -> str:
    # NOTE: max 25 characters; hint
    return _("1-{players} changes a seat").format(players=players)


def deal_title(seat: int) -> str:
    # NOTE: max 25 characters; title
    return _("Secret colors: {player}").format(player=player(seat))


def deal_take_box(seat: int) -> str:
    return _("{player}: take the box alone, then #.").format(player=player(seat))


def deal_color_title(seat: int) -> str:
    # NOTE: max 25 characters; title
    return _("{player}: your clan").format(player=player(seat))


def deal_color(seat: int, c: str) -> str:
    return _("{player}, your clan: {color}.").format(player=player(seat), color=color(c).upper())


def setup_title(players: int) -> str:
    # NOTE: max 25 characters; title
    return _("New game: {players} players").format(players=players)


def setup_starts(p: int, drawn: bool) -> str:
    if drawn:
        return _("{player} starts (drawn).").format(player=player(p))
    return _("{player} starts (chosen).").format(player=player(p))


def cards_paragraphs(bots: bool) -> list[str]:
    """The walkthrough's last page: the table deals the secret clan cards (R1 and the rulebooks), or,
    when bots play, leaves them in the game's box (the box dealt every seat's color before the huts)."""
    if bots:
        return [_(CARDS_KEPT), _(SETUP_PLAY)]
    return [_(CARDS_DEAL), _(CARDS_REST), _(SETUP_PLAY)]


def region_title(region: int, first: int, last: int) -> str:
    # NOTE: max 25 characters; title: "Region 3: 11-15"
    return _("Region {region}: {first}-{last}").format(region=region, first=first, last=last)


# ----- the reveal ------------------------------------------------------------------------------
def reveal_keys() -> tuple[str, ...]:
    """The digit of each color, two lines."""
    # NOTE: max 21 characters; digit and color (keep the digits)
    first = _("1 {red} 2 {blue} 3 {green}").format(red=color("red"), blue=color("blue"), green=color("green"))
    # NOTE: max 21 characters; digit and color (keep the digits)
    second = _("4 {yellow} 5 {black}").format(yellow=color("yellow"), black=color("black"))
    return first, second


REVEAL_NOTE = N_("Type 1-5, then #.")


def reveal_title(p: int) -> str:
    # NOTE: max 25 characters; title
    return _("{player}: your color?").format(player=player(p))


def given_colors(colors: Sequence[str]) -> str:
    """The colors revealed so far: "Given: red P1, blue P2"."""
    given = ", ".join(pgettext("color of a seat", "{color} {player}").format(color=color(c), player=player(i))
                      for i, c in enumerate(colors))
    return _("Given: {colors}").format(colors=given)


def reveal_entry(typed: str, c: str) -> str:
    """The reveal's input line: the digit typed and its color, "> 2 blue_"."""
    return f"> {typed} {color(c)}_" if c else f"> {typed}_"


def setup_lines(game: Game, region: int) -> tuple[str, ...]:
    members = [t for t in game.board.numbers if game.board.territories[t].region == region]
    return tuple(f"{t:>2} {terrain(game.board.territories[t].terrain):<9} {color(game.setup[t])}" for t in members)
