"""What the Clans table says aloud: the announcements (values) and their sentences.

The controller puts `Announce` values in its outbox with the builders below (a move's
result, whose turn, an epoch change, the order question, the end, a refusal); the
fields are numbers and codes only. `say(event, fields)` turns one into a sentence in
the table's language when it is spoken (companion.kiosk.announce finds it through the
registry). Sentences are for a listener: short, in the order the table acts on the
pieces ("Village on 14, epoch 1, forest plus 1. Remove the single green, yellow and
blue huts. Black and red score 6."), numbers as digits, no abbreviations.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Collection, Sequence

from companion.games.clans import texts as T
from companion.games.clans import texts_teach as TT
from companion.games.clans.words import color, level, terrain
from companion.table import seatnames
from companion.i18n import _, ngettext, pgettext
from companion.table.effects import Announce, beep
from companion.table.speech import spoken_list
from companion.table.texts import capital, sentence

if TYPE_CHECKING:
    from companion.games.clans.beliefs import BotBeliefs
    from companion.games.clans.game import Game, Move, Outcome

KIND = "clans"


def _a(event: str, **fields: object) -> Announce:
    return Announce(KIND, event, dict(fields))


# ----- the announcements (values) -------------------------------------------------------------
def outcome(game: Game, out: Outcome) -> list[Announce]:
    """A played move, in the order the table acts: huts moved, each village (a new epoch just before
    the first village scored under it, or after the last when the next village will be), chips run out."""
    m = out.move
    said = [_a("move", seat=out.player, frm=m.frm, to=m.to, huts=sum(out.moved.values()))]
    for v in T.founding_steps(out, game.is_over):
        if isinstance(v, int):
            ep = game.board.epoch(v)
            said += [beep("epoch", "clans"), _a("epoch", epoch=v, favorable=ep.favorable, bonus=ep.bonus,
                                                hostile=ep.hostile)]
            continue
        said += [beep("village", "clans"), _a("village", territory=v.territory, epoch=v.epoch, chip=v.chip,
                                     terrain=game.board.territories[v.territory].terrain, bonus=v.bonus,
                                     removed=list(v.removed), left=v.huts - sum(v.removed.values()),
                                     destroyed=v.destroyed, value=v.value, colors=list(v.colors))]
    if out.not_founded:
        said.append(_a("not-founded", territories=list(out.not_founded)))
    return said


def turn(game: Game, bots: Collection[int]) -> Announce:
    return _a("turn", seat=game.to_move, bot=game.to_move in bots)


def bot_move(move: Move, seat: int) -> Announce:
    return _a("bot-move", seat=seat, frm=move.frm, to=move.to, order=list(move.order or ()))


def seat_kind(seat: int, level: str | None) -> Announce:
    """The Bots? screen changed a seat: a person, or a bot of a level."""
    return _a("seat-kind", seat=seat, level=level)


def order(seat: int, territories: Sequence[int]) -> Announce:
    return _a("order", seat=seat, territories=list(territories))


def illegal(reason: str, values: dict) -> list[Announce]:
    return [beep("refused"), _a("illegal", reason=reason, values=dict(values))]


def refused_color(color_code: str, owner: int) -> list[Announce]:
    return [beep("refused"), _a("color-taken", color=color_code, owner=owner)]


def final(game: Game, colors: Sequence[str]) -> list[Announce]:
    """The end: why, each seat's color and total, the winners (colors are revealed by now)."""
    totals, winners = game.winners(colors)
    return [beep("end"), _a("end", reason="twelfth" if game.status == "finished" else "blocked", seat=game.to_move),
            _a("result", seats=[{"seat": i, "color": c, "total": totals[i]} for i, c in enumerate(colors)],
               winners=list(winners))]


def beliefs(stories: Sequence[BotBeliefs]) -> list[Announce]:
    """After the result: what each bot believed of the other seats (nothing in a game without bots)."""
    return [_a("beliefs", bot=st.seat, level=st.level,
               beliefs=None if st.beliefs is None else [b.to_dict() for b in st.beliefs]) for st in stories]


def teach_choice(on: bool) -> Announce:
    """The Bots? screen's teaching switched on or off."""
    return _a("teach-choice", on=on)


def taught(rule: str, values: dict) -> Announce:
    """A first game: a rule explained (its `values` name the village, terrain, epoch)."""
    return _a("teach", rule=rule, values=dict(values))


def undone(frm: int, to: int) -> Announce:
    return _a("undone", frm=frm, to=to)


def camera_move(frm: int, to: int) -> Announce:
    """The camera saw a move: # confirms it."""
    return _a("camera-move", frm=frm, to=to)


def board_shows(frm: int, to: int, played_frm: int, played_to: int) -> Announce:
    """After a move, the board shows another one."""
    return _a("board-shows", frm=frm, to=to, pfrm=played_frm, pto=played_to)


# ----- the sentences --------------------------------------------------------------------------
def seat(n: int) -> str:
    """A seat as the voice says it: its player's whole name when the table has one, else "Player 2"."""
    return seatnames.spoken(n) or _("Player {number}").format(number=n + 1)


def _village(f: dict) -> list[str]:
    where = terrain(f["terrain"])
    if f["bonus"] and not f["destroyed"]:
        out = [_("Village on {territory}, epoch {epoch}, {terrain} plus {bonus}.").format(
            territory=f["territory"], epoch=f["epoch"], terrain=where, bonus=f["bonus"])]
    else:
        out = [_("Village on {territory}, epoch {epoch}, {terrain}.").format(
            territory=f["territory"], epoch=f["epoch"], terrain=where)]
    if f["removed"]:
        if not f["left"]:
            out.append(ngettext("Remove the single hut.", "Remove all {n} single huts.", len(f["removed"])).format(
                n=len(f["removed"])))
        else:
            # NOTE: {colors} is a spoken list of color names ("green, yellow and blue")
            out.append(_("Remove the single {colors} huts.").format(
                colors=spoken_list(color(c) for c in f["removed"])))
    if f["destroyed"]:
        if f["left"]:
            out.append(ngettext("Hostile terrain: remove the hut. Nobody scores.",
                                "Hostile terrain: remove all {n} huts. Nobody scores.", f["left"]).format(n=f["left"]))
        else:
            out.append(_("Hostile terrain: nobody scores."))
    elif f["value"]:
        out.append(ngettext("{colors} scores {value}.", "{colors} score {value}.", len(f["colors"])).format(
            colors=capital(spoken_list(color(c) for c in f["colors"])), value=f["value"]))
    else:
        out.append(_("No hut is left: nobody scores."))
    return out


def _epoch(f: dict) -> str:
    if f["favorable"] == "all":
        return _("Epoch {epoch} begins. The last village scores plus {bonus} on any terrain.").format(
            epoch=f["epoch"], bonus=f["bonus"])
    return _("Epoch {epoch} begins. Favorable: {favorable}, plus {bonus}. Hostile: {hostile}.").format(
        epoch=f["epoch"], favorable=terrain(f["favorable"]), bonus=f["bonus"], hostile=terrain(f["hostile"]))


def _result(f: dict) -> str:
    out = [_("{player}, {color}: {total}.").format(player=seat(s["seat"]), color=color(s["color"]), total=s["total"])
           for s in f["seats"]]
    winners = spoken_list(seat(w) for w in f["winners"])
    out.append(ngettext("{players} wins.", "{players} win, tied.", len(f["winners"])).format(players=winners))
    return " ".join(out)


def _beliefs(f: dict) -> str:
    who = _("{player}, {level}").format(player=seat(f["bot"]), level=level(f["level"]))
    if f["beliefs"] is None:
        return _("{bot} kept no guesses about the colors.").format(bot=who)
    out = []
    for b in f["beliefs"]:
        values = dict(bot=who, player=seat(b["seat"]), color=color(b["color"]), percent=round(100 * b["p"]),
                      move=b["since"])
        if b["since"]:
            text = _("{bot} thought {player} was {color}, {percent} percent, from move {move}").format(**values)
        else:
            text = _("{bot} thought {player} was {color}, {percent} percent, from the start").format(**values)
        out.append(text + ": " + (pgettext("belief", "right") if b.get("right") else pgettext("belief", "wrong")) + ".")
    return " ".join(out)


def say(event: str, f: dict) -> str:
    """The sentence for one announcement, in the table's language (KeyError for an unknown event)."""
    if event == "turn":
        return (_("{player}, bot, to move.") if f["bot"] else _("{player} to move.")).format(player=seat(f["seat"]))
    if event == "move":
        return ngettext("{player} moves {n} hut from {frm} to {to}.", "{player} moves {n} huts from {frm} to {to}.",
                        f["huts"]).format(player=seat(f["seat"]), n=f["huts"], frm=f["frm"], to=f["to"])
    if event == "village":
        return " ".join(_village(f))
    if event == "not-founded":
        return _("No chip left: {territories} not founded.").format(territories=spoken_list(f["territories"]))
    if event == "epoch":
        return _epoch(f)
    if event == "bot-move":
        text = _("{player} moves from {frm} to {to}.").format(player=seat(f["seat"]), frm=f["frm"], to=f["to"])
        if len(f["order"]) > 1:
            text += " " + _("Villages in this order: {territories}.").format(territories=spoken_list(f["order"]))
        return text + " " + _("Make the move, then confirm.")
    if event == "seat-kind":
        if f["level"] is None:
            return _("{player}: a person.").format(player=seat(f["seat"]))
        return _("{player}: bot, {level}.").format(player=seat(f["seat"]), level=level(f["level"]))
    if event == "order":
        return _("{player}, choose the order of the villages: {territories}.").format(
            player=seat(f["seat"]), territories=spoken_list(f["territories"]))
    if event == "illegal":
        return sentence(T.illegal_text(f["reason"], f["values"]))
    if event == "color-taken":
        return T.color_taken(f["color"], f["owner"])
    if event == "end":
        if f["reason"] == "twelfth":
            return _("Game over: the twelfth village is founded.")
        return _("Game over: {player} has no legal move.").format(player=seat(f["seat"]))
    if event == "result":
        return _result(f)
    if event == "beliefs":
        return _beliefs(f)
    if event == "teach-choice":
        return _("First game: the rules are taught.") if f["on"] else _("No teaching.")
    if event == "teach":
        return " ".join(TT.paragraphs(f["rule"], f["values"]))
    if event == "undone":
        return _("Move from {frm} to {to} taken back: put the huts back.").format(frm=f["frm"], to=f["to"])
    if event == "camera-move":
        return _("From {frm} to {to}? Hash confirms.").format(frm=f["frm"], to=f["to"])
    if event == "board-shows":
        return _("The board shows {frm} to {to}, but {pfrm} to {pto} was played.").format(**f)
    raise KeyError(event)
