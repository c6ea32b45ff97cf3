"""Issue 53, what a newcomer still trips on (items 2-4; item 1, the menu's numbers: tests/table/test_menu_numbers.py):
the setup walkthrough ends by telling a table of people to deal the secret clan cards (a table with bots
to leave them in the game's box); a new epoch is told before the first village scored under it, and
the order question shows each epoch's favorable terrain and bonus beside its hostile one; a count of 1
reads as one ("Remove the hut from 2", "this file holds 1 game"). In every language."""

from __future__ import annotations

import json
import random

import pytest

from companion import i18n
from companion.games.clans import speech as S
from companion.games.clans import texts as T
from companion.games.clans.controller import Controller
from companion.games.clans.game import Game
from companion.games.clans.record import Record
from companion.table.effects import Announce
from companion.table.screen import overflows
from tests.games.clans.clans_helpers import example, feed
from tests.games.clans.test_issue14 import at, position
from tests.support import run_cli

# the rulebooks' word for the clan cards, as each catalog's deal page says it
CLAN_CARDS = {"en": "clan cards", "it": "carte clan", "es": "cartas de clan", "fr": "cartes clan",
              "de": "Clankarten"}
# grassland (favorable, +4, in epoch IV) in each catalog's words
GRASSLAND = {"en": "grassland", "it": "pianura", "es": "pradera", "fr": "plaine", "de": "Grasland"}


@pytest.fixture
def lang(request):
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language("en")


def to_cards_page(c: Controller) -> list[str]:
    """# through the walkthrough until play would start; the screens' names on the way."""
    names = []
    while c.mode() == "setup" and len(names) < 40:
        names.append(c.screen().name)
        if names[-1] == "clan-cards":
            break
        feed(c, "#")
    return names


# ----- item 2: the clan cards ----------------------------------------------------------------
@pytest.mark.parametrize("lang", i18n.LANGUAGES, indirect=True)
def test_a_table_of_people_is_told_to_deal_the_clan_cards_before_play(lang):
    c = Controller(random.Random(3))
    feed(c, "3#0##")  # three people, start drawn, no bots
    names = to_cards_page(c)
    assert names[0] == "setup" and names.count("setup-region") == 12 and names[-1] == "clan-cards"
    s = c.screen()
    assert c.mode() == "setup" and not c.state.ready  # after the huts, before the first move
    text = " ".join(s.lines)
    assert CLAN_CARDS[lang].lower() in text.lower() and not overflows(s)
    if lang == "en":
        assert "deal each player 1 face down: their secret color." in text and "back unseen" in text
    feed(c, "A")  # back to the last region, and on again
    assert c.screen().name == "setup-region"
    feed(c, "##")
    assert c.mode() == "move" and c.state.ready


@pytest.mark.parametrize("lang", i18n.LANGUAGES, indirect=True)
def test_a_table_with_bots_keeps_the_clan_cards_in_the_game_box(lang):
    c = Controller.quick_start(3, random.Random(3), bots=[1], walkthrough=True)
    assert to_cards_page(c)[-1] == "clan-cards"
    s = c.screen()
    text = " ".join(s.lines)
    assert CLAN_CARDS[lang].lower() in text.lower() and not overflows(s)
    if lang == "en":
        assert text.startswith("Leave the clan cards in the game box") and "deal each" not in text
    feed(c, "#")
    assert c.mode() in ("move", "bot") and c.state.ready


# ----- item 3: the epoch, when it begins; the order question's favorable terrain --------------
def straddling() -> tuple[Game, object]:
    """The spec's order-matters move: villages 37 (chip 7, epoch II) and 29 (chip 8, epoch III)."""
    rec = example("order-matters")
    idx = next(i for i, m in enumerate(rec.moves) if m.order == (37, 29))
    game = Record(rec.players, rec.first_player, rec.setup, rec.moves[:idx]).play()
    move = rec.moves[idx]
    game.push(move.frm, move.to, move.order)
    return game, game.outcome()


def test_a_new_epoch_is_told_before_the_village_scored_under_it():
    game, out = straddling()
    assert [(v.territory, v.chip, v.epoch) for v in out.villages] == [(37, 7, 2), (29, 8, 3)]
    said = T.outcome_paragraphs(game, out)
    epoch = said.index("Epoch III begins: favorable steppe +3, hostile forest.")
    assert said.index("Village 37 (steppe): P1 takes chip 7.") < epoch < said.index(
        "Village 29 (steppe): P1 takes chip 8.")
    assert sum("begins" in p for p in said) == 1


def test_the_voice_says_the_new_epoch_before_that_village_too():
    game, out = straddling()
    spoken = [(a.event, a.fields.get("territory") or a.fields.get("epoch")) for a in S.outcome(game, out)
              if isinstance(a, Announce) and a.kind == "speech"]
    assert spoken == [("move", None), ("village", 37), ("epoch", 3), ("village", 29)]


def test_an_epoch_that_begins_with_the_next_village_is_told_after_the_last_one_of_the_move():
    rec = example("order-matters")  # its move 28 founds village 7 with chip 4, the last of epoch I
    game = Record(rec.players, rec.first_player, rec.setup, rec.moves[:28]).play()
    game.push(rec.moves[28].frm, rec.moves[28].to)
    out = game.outcome()
    assert [(v.territory, v.chip) for v in out.villages] == [(7, 4)] and out.epoch_after == 2
    said = T.outcome_paragraphs(game, out)
    assert said[-2] == "Epoch II begins: favorable mountain +2, hostile grassland." and said[-1].startswith("Next")
    assert [a.event for a in S.outcome(game, out) if a.kind == "speech"] == ["move", "village", "epoch"]


@pytest.mark.parametrize("lang", i18n.LANGUAGES, indirect=True)
def test_the_order_question_shows_each_epochs_favorable_terrain_and_bonus(lang):
    c = at(position(9))
    feed(c, "36#35#")
    s = c.screen()
    assert s.name == "order" and not overflows(s)
    assert s.lines[1] == f"  +4 {GRASSLAND[lang]}"  # under "10-11: IV X steppe"
    assert s.lines[-1].split()[1:] == ["35", "37", "40", "55"]  # the choices stay on screen
    c = at(position(6))  # three epochs ahead: every place keeps its row, the choices too
    feed(c, "36#35#")
    s = c.screen()
    assert len(s.lines) <= 6 and not overflows(s) and s.lines[-1].split()[1:] == ["35", "37", "40", "55"]
    assert s.lines[0].startswith("7: II") and s.lines[1] == "  +2 " + i18n._("mountain")


# ----- item 4: one hut, one game --------------------------------------------------------------
def one_hut_destroyed() -> tuple[Game, object]:
    """Village 2 (mountain, hostile in epoch I) founded with a single hut."""
    game = Game.from_position(2, {2: {"green": 1}, 1: {"red": 1}, 4: {"blue": 2}, 32: {"black": 1}})
    game.push(1, 4)
    return game, game.outcome()


@pytest.mark.parametrize("lang", i18n.LANGUAGES, indirect=True)
def test_one_hut_destroyed_reads_as_one_hut(lang):
    game, out = one_hut_destroyed()
    (village,) = out.villages
    assert village.destroyed and village.huts == 1
    destroyed = T.village_paragraphs(game, village)[1]  # village 2, epoch I: no count of 1 in it
    assert "1" not in destroyed, destroyed  # not "Remove all 1 hut", "la 1 cabaña", "la hutte (1)", "die 1 Hütte"
    (said,) = [S.say(a.event, a.fields) for a in S.outcome(game, out) if a.event == "village" and a.kind == "speech"]
    assert said.count("1") == 1, said  # epoch 1 only, not "remove the 1 hut"
    if lang == "en":
        assert destroyed == "Hostile mountain in epoch I: destroyed. Remove the hut from 2. Nobody scores."
        assert said.endswith("Hostile terrain: remove the hut. Nobody scores.")
    game2 = Game.from_position(2, {2: {"green": 2}, 1: {"red": 1}, 4: {"blue": 2}, 32: {"black": 1}})
    game2.push(1, 4)  # two huts: the plural, with its count
    assert "2" in T.village_paragraphs(game2, game2.outcome().villages[0])[1].replace("from 2", "")


def test_a_list_of_one_record_is_that_game(tmp_path):
    """No longer "this file holds 1 game: add --game-id N": the only game is replayed (item 8;
    tests/history/test_replay_game_id.py)."""
    path = tmp_path / "one.json"
    path.write_text(json.dumps([example("in-progress").to_dict()]))
    alone = tmp_path / "alone.json"
    alone.write_text(json.dumps(example("in-progress").to_dict()))
    assert run_cli("replay", str(path)) == run_cli("replay", str(alone)) != (2, "", "")
    assert run_cli("replay", str(path))[0] == 0
