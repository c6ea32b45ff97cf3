"""Valley of the Mammoths on the table's page (companion.table.gameweb.GameWeb): the books, live.

Year, season, turn and phase with what to do in it (the OLED's phase screen, texts.py),
each tribe's books (warriors, women, camps, food, fate cards, fire), and the last dice
with the game call they decided. The game has no secret: the books are public.
A replay step is one entry of the game's log (MammutGame.replay of its first k entries).
"""

from __future__ import annotations

from typing import Any

from companion.games.mammut import texts as T
from companion.games.mammut.game import MammutGame
from companion.games.mammut.phases import Phase
from companion.i18n import N_, _, ngettext
from companion.table.gameweb import esc, paragraphs, table, tag
from companion.table.speech import spoken_list

# NOTE: the table's page (a phone): column headings of the tribes' books
TRIBE, WARRIORS, WOMEN, CAMPS = N_("Tribe"), N_("Warriors"), N_("Women"), N_("Camps")
# NOTE: the table's page: column headings of the tribes' books
FOOD, FATE_CARDS, FIRE = N_("Food"), N_("Fate cards"), N_("Fire")
# NOTE: the table's page: heading of the books
BOOKS = N_("Tribe books")
# NOTE: the table's page: heading of the last dice rolled
LAST_DICE = N_("Last dice")
# NOTE: the table's page: no dice rolled yet in this game
NO_DICE = N_("No dice rolled yet.")
# NOTE: the table's page: a tribe that is out of the game
OUT = N_("out")
# NOTE: the table's page: replay step 0
START = N_("Start of the game")
# NOTE: the table's page: no game yet (the new-game questions are open at the table)
WAITING = N_("Waiting for a new game at the table.")


def public_state(table_game: Any) -> dict:
    """Calendar, phase, order, every tribe's books, the last dice; winners once over."""
    game: MammutGame | None = table_game.game
    if game is None:
        return {"mode": table_game.mode()}
    dice = _last_dice(game)
    return {
        "mode": table_game.mode(), "year": game.year, "season": game.season, "turn": game.turn,
        "turn_number": game.turn_number if game.phase not in (Phase.SETUP,) else 0, "phase": game.phase.value,
        "first_player": game.first_player, "play_order": list(game.play_order), "order_reason": game.order_reason,
        "tribes": [{"number": t.number, "name": t.name, "color": t.color, "warriors": t.warriors, "women": t.women,
                    "villages": t.villages, "caves": t.caves, "camps": t.camps, "food": t.food,
                    "fate_cards": t.fate_cards, "fire": bool(t.fire), "eliminated": bool(t.eliminated)}
                   for t in game.tribes],
        "last_dice": dice, "entries": len(game.log) - 1,
        "over": game.phase == Phase.GAME_OVER, "winners": list(game.winners), "extinct": bool(game.extinct),
    }


def live_html(table_game: Any) -> str:
    game: MammutGame | None = table_game.game
    if game is None:
        return paragraphs([_(WAITING)])
    return _view(game)


def steps(table_game: Any) -> list[str]:
    """One step a log entry after the new game: "3. report survival"."""
    game: MammutGame | None = table_game.game
    if game is None:
        return []
    return [f"{e.get('seq', n)}. {str(e.get('action', '?')).replace('_', ' ')}" for n, e in enumerate(game.log[1:], 1)]


def step_html(table_game: Any, k: int) -> str:
    game: MammutGame | None = table_game.game
    if game is None:
        return paragraphs([_(WAITING)])
    return _view(MammutGame.replay(game.log[:k + 1]))


def record(table_game: Any) -> str | None:
    """The game's JSON log (what --record-out writes)."""
    return table_game.record_json()


# ----- drawing --------------------------------------------------------------------------------
def _last_dice(game: MammutGame) -> dict | None:
    for entry in reversed(game.log[1:]):
        if entry.get("rolls"):
            return {"seq": entry.get("seq"), "action": entry.get("action"), "rolls": list(entry["rolls"])}
    return None


def _view(game: MammutGame) -> str:
    head = tag("h2", esc(T.title(game)), cls="turn") + tag("p", esc(T.phase_heading(game)))
    summary = paragraphs(T.phase_summary(game), "result")
    rows = []
    for t in game.tribes:
        name = esc(T.tribe_label(t)) + (f" ({esc(_(OUT))})" if t.eliminated else "")
        rows.append([tag("span", "", cls=f"swatch m-{t.color}") + name if t.color else name,
                     str(t.warriors), str(t.women), f"{t.camps} ({t.villages}+{t.caves})", str(t.food),
                     str(t.fate_cards), "\U0001f525" if t.fire else "-"])
    books = tag("h2", esc(_(BOOKS))) + table([esc(_(h)) for h in (TRIBE, WARRIORS, WOMEN, CAMPS, FOOD, FATE_CARDS,
                                                                   FIRE)], rows, cls="books")
    dice = _last_dice(game)
    if dice is None:
        said = [_(NO_DICE)]
    else:
        said = [ngettext("Die rolled: {dice}.", "Dice rolled: {dice}.", len(dice["rolls"])).format(
            dice=spoken_list(dice["rolls"])), str(dice["action"]).replace("_", " ")]
        if game.play_order and game.order_rolls:
            said.append(T.order_line(game))
    last = tag("h2", esc(_(LAST_DICE))) + paragraphs(said, "dice")
    return tag("div", head + summary + books + last, cls="mammut")
