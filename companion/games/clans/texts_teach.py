"""The words of a first game: each rule explained once, when it first matters (companion.games.clans.teach),
and what decided the game. In the rulebooks' own words where they have them (hut, territory,
village, chip, strife, favorable and hostile terrain, epoch chart), for the panel (each at most
three pages of the text screen), the voice and the page alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.clans.teach import destroyed, favored
from companion.games.clans.words import ROMAN, color, player, terrain
from companion.i18n import _, pgettext

if TYPE_CHECKING:
    from companion.games.clans.game import Game


def title(rule: str) -> str:
    """The title of a rule's pages: "First game: villages"."""
    names = {
        # NOTE: max 21 characters; the title of a first game's explanation of the move
        "move": pgettext("teach", "How to move"),
        # NOTE: max 21 characters; title: what a village is
        "village": pgettext("teach", "A village"),
        # NOTE: max 21 characters; title: strife in a village (rulebook word)
        "strife": pgettext("teach", "Strife"),
        # NOTE: max 21 characters; title: hostile terrain (rulebook word)
        "hostile": pgettext("teach", "Hostile terrain"),
        # NOTE: max 21 characters; title: favorable terrain (rulebook word)
        "favorable": pgettext("teach", "Favorable terrain"),
        # NOTE: max 21 characters; title: why the order of the villages can matter
        "order": pgettext("teach", "Why the order?"),
        # NOTE: max 21 characters; title: a new epoch begins (the epoch chart)
        "epoch": pgettext("teach", "A new epoch"),
        # NOTE: max 21 characters; title: the 12th village ends the game
        "twelfth": pgettext("teach", "The 12th village"),
        # NOTE: max 21 characters; title: the rule for territories with 7 or more huts
        "seven": pgettext("teach", "Seven huts or more"),
        # NOTE: max 21 characters; title: empty territories stay empty
        "empty": pgettext("teach", "Empty territories"),
    }
    return names[rule]


def values(rule: str, game: Game) -> dict:
    """What a rule's explanation names in this game (codes and numbers only: said in any language)."""
    if rule in ("hostile", "favorable"):
        fits = [v for v in game.villages if (destroyed(v) if rule == "hostile" else favored(v))]
        if fits:
            v = fits[-1]
            return {"territory": v.territory, "terrain": game.board.territories[v.territory].terrain,
                    "epoch": v.epoch, "bonus": v.bonus}
    if rule == "epoch":
        ep = game.board.epochs[game.epoch - 1]
        return {"epoch": ep.number, "favorable": ep.favorable, "bonus": ep.bonus, "hostile": ep.hostile}
    return {}


def paragraphs(rule: str, v: dict) -> list[str]:
    """A rule's explanation, for the panel's pages, the voice and the page."""
    if rule == "move":
        return [_("On your turn take ALL the huts of one territory and put them on a neighboring territory "
                  "that holds huts."),
                _("Move any huts, of any color: you own a color, not the huts. Your color is secret: move "
                  "the others' huts too, so nobody guesses yours.")]
    if rule == "village":
        return [_("A territory with huts whose neighbors are all empty is a village: it never moves again."),
                _("The mover takes a chip (1 point at the end). Every color in the village scores one point "
                  "per hut there, plus the epoch's bonus.")]
    if rule == "strife":
        return [_("Strife: all five colors were in the village, so every color with a single hut there "
                  "lost it. Those huts leave the board; the others score.")]
    if rule == "hostile":
        return [_("Village {territory} stood on {terrain}, the hostile terrain of epoch {epoch}: it is "
                  "destroyed. All its huts leave the board and nobody scores; the mover keeps the chip.").format(
                    territory=v["territory"], terrain=terrain(v["terrain"]), epoch=ROMAN[v["epoch"]])]
    if rule == "favorable":
        return [_("Village {territory} stood on {terrain}, the favorable terrain of epoch {epoch}: it scores "
                  "{bonus} more than its huts.").format(territory=v["territory"], terrain=terrain(v["terrain"]),
                                                         epoch=ROMAN[v["epoch"]], bonus=v["bonus"]),
                _("The epoch chart on the board shows each epoch's favorable and hostile terrain.")]
    if rule == "order":
        return [_("This move founded several villages at once, across an epoch change or past the 12th: "
                  "the mover chooses the order, so which village scores in which epoch.")]
    if rule == "epoch":
        return [_("Epoch {epoch} begins. The chips go by epochs: 4, 3, 2, 2 and the last one.").format(
                    epoch=ROMAN[v["epoch"]]),
                _("Now {favorable} is favorable (+{bonus}) and {hostile} is hostile (destroyed).").format(
                    favorable=terrain(v["favorable"]), bonus=v["bonus"], hostile=terrain(v["hostile"]))]
    if rule == "twelfth":
        return [_("The 12th village scores 5 more on any terrain and ends the game."),
                _("Now every color is revealed: each player's total is the color's score on the track plus "
                  "the chips. The highest total wins.")]
    if rule == "seven":
        return [_("A territory with 7 or more huts may move only onto a neighboring group of 7 or more that is "
                  "at least as big. Smaller groups may still move onto it.")]
    if rule == "empty":
        return [_("An empty territory stays empty for the rest of the game: huts move only onto a neighboring "
                  "territory that holds huts.")]
    raise KeyError(rule)


def decided_title() -> str:
    # NOTE: max 21 characters; title of the screen after a first game
    return _("What decided it")


def decided(game: Game, colors: list[str], last: bool = True) -> list[str]:
    """After a first game: what decided it (the winner's color, its best village, the chips), and (`last`:
    no bot's beliefs follow) the offer to play again without teaching."""
    totals, winners = game.winners(colors)
    w = winners[0]
    c = colors[w]
    out = [_("{player} ({color}) won with {total}: {score} on the track and {chips} chips.").format(
        player=player(w), color=color(c), total=totals[w], score=game.score(c), chips=game.chips[w])]
    best = max((v for v in game.villages if c in v.colors), key=lambda v: v.value, default=None)
    if best is not None:
        out.append(_("Best village for {color}: {territory}, {value} points.").format(
            color=color(c), territory=best.territory, value=best.value))
    # NOTE: the offer after a first game (# starts a new game, teaching off)
    out.append(_("# = play again without teaching") if last else _("Next time: no teaching."))
    return out
