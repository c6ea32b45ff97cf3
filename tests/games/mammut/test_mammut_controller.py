"""The Mammut table game as a pure state machine: keys in, game calls, screens and effects
out, rebuilt from its journal. Driven with keys only (through the shell, as the daemon runs
it) and checked against the pure module."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from companion.games import GAMES
from companion.games.mammut import rules as R
from companion.games.mammut.controller import TABLE_GAME, ActionError, MammutTable
from companion.table.screen import MENU_COLS, TITLE_COLS
from companion.games.mammut.game import TURN_PHASES, MammutGame, Phase, phase_applies
from companion.table import keys as K
from companion.table import screen as S
from companion.table.effects import GameOver, Persist, PowerOff, SetBrightness, SwitchGame
from companion.table.protocol import TableGame
from companion.table.shell import Shell
from tests.support import quiet

P = Phase


def fits(s: S.Screen) -> None:
    """The screen fits the 128x64 layouts of companion.table.render."""
    suffix = len(f" {s.page + 1}/{s.pages}") if s.pages > 1 else 0
    assert len(s.title) + suffix <= TITLE_COLS, s.title
    if s.kind == S.TEXT:
        rows = S.BODY_ROWS - (1 if s.entry is not None else 0)
        assert len(s.lines) <= rows, s.text()
        assert all(len(line) <= S.BODY_COLS for line in s.lines), s.text()
        assert s.entry is None or len(s.entry) <= S.BODY_COLS
        assert not s.hint  # the text layout draws no hint
    elif s.kind == S.MENU:
        assert s.choices and 0 <= s.selected < len(s.choices)
        assert all(len(c) <= MENU_COLS for c in s.choices), s.choices
        assert len(s.hint) <= TITLE_COLS
    else:
        raise AssertionError(f"unexpected screen kind {s.kind}")


class Driver:
    """Presses keys through the shell (every registered game in its menu, or Mammut alone with
    `alone`, so a storm cannot leave for another game), checks every screen fits, keeps the
    journal, the other effects and the phases visited."""

    def __init__(self, seed: int = 1, alone: bool = False) -> None:
        rng = self.rng = random.Random(seed)
        catalog = [GAMES["mammut"]] if alone else list(GAMES.values())
        self.shell = Shell(catalog, "mammut", MammutTable.new(rng), rng)
        self.journal: list[dict] = []
        self.effects: list = []
        self.snapshots: dict[int, tuple] = {}
        self.visited: list[str] = []

    @property
    def c(self) -> MammutTable:
        return self.shell.game

    def __call__(self, keys: str | list) -> S.Screen:
        for k in keys:
            self.shell.handle(k, 0.0)
            for e in self.shell.pop_effects():
                self.effects.append(e)
                if isinstance(e, Persist):
                    self.journal += e.actions
            fits(self.shell.screen())
            if self.shell.kind != "mammut":
                continue  # switched to another game
            g = self.c.game
            if g is not None and (not self.visited or self.visited[-1] != g.phase.value):
                self.visited.append(g.phase.value)
            self.snapshots[len(self.journal)] = state(self.c)
        return self.shell.screen()

    @property
    def name(self) -> str:
        return self.shell.screen().name


def state(c: MammutTable) -> tuple:
    g = c.game
    return (json.dumps(g.to_dict(), sort_keys=True) if g else None, json.dumps(c.pending_question(), sort_keys=True))


def books(g: MammutGame, n: int) -> tuple[int, int, int, int]:
    t = g.tribe(n)
    return t.warriors, t.women, t.camps, t.food


def text(s: S.Screen) -> str:
    return " ".join(s.text().split())


# ----- new game ----------------------------------------------------------------------------


def test_new_game_questions():
    d = Driver()
    assert d.name == "new:tribes" and d.c.mode() == "new"
    d("7#")
    assert d.name == "error" and "2 to 6" in text(d.c.screen())
    d("#")
    assert d.name == "new:tribes" and d.journal == []
    d("3#")
    assert d.name == "new:first_game"
    d("B#")  # yes: a first game
    assert d.name == "new:advanced"
    d("*")  # back to the first-game question
    assert d.name == "new:first_game" and d.journal == []  # nothing journaled before the game exists
    d("2##")  # digit 2 picks "yes"; standard rules
    assert d.name == "new:color1" and d.c.screen().choices == ("Red", "Yellow", "Green", "Blue", "Black", "White")
    d("4#")  # tribe 1 is blue
    assert d.name == "new:color2" and d.c.screen().choices == ("Red", "Yellow", "Green", "Black", "White")
    d("*")  # back to tribe 1's color
    assert d.name == "new:color1" and d.journal == []
    d("4#1#B#")  # blue, red, green (B moves to the second of the colors left)
    g = d.c.game
    assert g is not None and g.phase == P.SETUP and not g.advanced
    assert [t.color for t in g.tribes] == ["blue", "red", "green"]
    assert [books(g, n) for n in (1, 2, 3)] == [(5, 2, 1, 15)] * 3
    # one action starts the game's journal entry; the first player is the companion's draw (rulebook l.43)
    first = random.Random(1).randint(1, 3)
    assert d.journal == [{"a": "new", "tribes": 3, "first_game": True, "advanced": False,
                          "colors": ["blue", "red", "green"], "first": first}]
    assert g.first_player == first
    assert d.name == "phase" and f"{['Blue', 'Red', 'Green'][first - 1]} places first (drawn at random)" in text(d.c.screen())


def test_the_first_player_is_drawn_at_random():
    """Every tribe is drawn first for some seed, and the draw is journaled (a resume keeps it)."""
    firsts = set()
    for seed in range(40):
        d = Driver(seed)
        d("4####" + "####")
        firsts.add(d.c.game.first_player)
        assert d.journal[0]["first"] == d.c.game.first_player
        assert MammutTable.from_actions(d.journal).game.first_player == d.c.game.first_player
    assert firsts == {1, 2, 3, 4}


def test_buttons_only_new_game():
    """A/B/#/* are enough (the GPIO buttons): A steps numbers up, # takes the default."""
    d = Driver()
    d("AAA#")  # 2, 3, 4 tribes
    d("##")  # no first game, standard rules
    d("####")  # red, yellow, green, blue
    g = d.c.game
    assert g.n_tribes == 4 and g.tribe(1).food == R.START_FOOD
    assert [t.color for t in g.tribes] == ["red", "yellow", "green", "blue"]


# ----- one whole first turn, checked against the pure module --------------------------------


def new_game(d: Driver, tribes: int = 3, first_game: bool = True, advanced: bool = False, first: int = 2) -> None:
    """A game as a journal of the previous version starts it: tribes by number (no colors) and
    the first player given, so the dice match the pure module's and the texts say "Tribe 2"."""
    action = {"a": "new", "tribes": tribes, "first_game": first_game, "advanced": advanced, "first": first}
    d.shell.replace_game("mammut", MammutTable.from_actions([action], d.rng))
    d.journal.append(action)


def test_first_turn_by_keys_matches_the_pure_module():
    seed = 5
    d = Driver(seed)
    new_game(d)
    g = MammutGame(3, roll=random.Random(seed), first_game=True)
    g.set_first_player(2)

    d("#")  # setup list
    assert d.c.screen().choices[:3] == ("Start turn 1", "Camp on a mountain", "Sow a crop")
    d("2#3#B#")  # tribe 3's camp is a cave
    g.set_start_camp(3, R.CAVE)
    assert d.name == "set_start_camp"
    d("#3#1##")  # tribe 1 sows 1 crop
    g.sow(1, 1)
    assert books(d.c.game, 1) == (5, 2, 1, 14)
    d("#1#")  # start turn 1
    g.advance()
    s = d.c.screen()
    assert s.title == "Y1 Sum 2 2.Animals" and "Draw 5 animal tokens" in text(s)
    d("#")
    g.advance()
    assert f"Direction die: {g.direction}" in text(d.c.screen())
    d("#")
    g.advance()
    assert "Order: T2 T3 T1 (placed first)" in text(d.c.screen())
    d("#2#2##")  # list > camp made > tribe 2 > village
    g.make_camp(2, R.VILLAGE)
    d("#1#")  # next phase: combat
    g.advance()
    assert d.c.game.phase == P.COMBAT
    d("#2#")  # list > fight
    d("1#3#")  # tribe 1, 3 warriors
    d("#")  # no women
    assert d.name == "fight:camp1"
    d("#")  # not in its own camp
    d("8#")  # against mammoths (after "Another tribe" and "2+ other tribes")
    d("##")  # 1 mammoth, no bonus
    res = g.fight([{"tribe": 1, "warriors": 3, "women": 0, "camp": None, "bonus": 0},
                   {"animal": "mammoth", "count": 1}])
    assert d.name == "fight"
    assert " ".join(d.c.screen().lines).startswith(
        f"Tribe 1 wins: 1 mammoth killed, {res['food']} food" if res["winner_tribe"] else "The mammoths win")
    d("#1#")  # back to the list, next phase: survival
    g.advance()
    d("#")  # phase info > the first question
    assert d.c.pending_question()["form"] == "survival" and d.c.pending_question()["ctx"] == {"tribe": 2}
    d("#2#")  # tribe 2: no fishing, 2 forests
    assert d.name == "report_survival" and "Tribe 2: +2 food" in text(d.c.screen())
    d("###")  # tribe 3: nothing
    d("#1#1#")  # tribe 1: 1 fishing, 1 forest
    for n, fishing, gathering in ((2, 0, 2), (3, 0, 0), (1, 1, 1)):
        g.report_survival(n, fishing=fishing, gathering=gathering)
    d("#")
    assert d.name == "actions" and d.c.screen().choices[0] == "Next phase"
    d("1#")
    g.advance()
    assert d.c.game.phase == P.END_OF_TURN and "No tribe holds 4 camps" in text(d.c.screen())
    d("#")
    g.advance()
    assert d.visited == ["setup", "new_animals", "animal_movement", "tribes_move", "combat", "survival",
                         "end_of_turn", "new_animals"]
    assert (d.c.game.year, d.c.game.season, d.c.game.turn) == (1, "summer", 3)
    assert d.c.game.to_dict()["state"] == g.to_dict()["state"]
    assert [books(d.c.game, n) for n in (1, 2, 3)] == [books(g, n) for n in (1, 2, 3)]


# ----- a whole first year with a careful table ---------------------------------------------


def next_keys(c: MammutTable) -> str:
    """What a careful table presses next: reads the screen, reports from the books."""
    s, g = c.screen(), c.game
    name = s.name
    if name in ("phase",) or s.kind == S.TEXT and s.entry is None:
        assert name != "error", s.text()
        return "#"
    if name == "actions":
        assert s.choices[0] in ("Next phase", "Continue reports", "Start turn 1")
        return "1#"
    q = c.pending_question()
    t = g.tribe(q["ctx"]["tribe"])
    if q["form"] == "survival":
        if q["field"] == "fishing":
            return f"{(t.people + 1) // 2 if g.season == R.SUMMER else t.people // 2}#"
        if q["field"] == "gathering":
            return f"{t.people - q['answers']['fishing']}#"
        return "#"  # no crops
    if q["form"] == "hunger":
        return "#" if s.entry.endswith("_") and "(" in s.lines[-1] else f"{min(t.to_remove, t.warriors)}#"
    if q["form"] == "births":
        # every camp keeps at least one woman (rulebook l.141): the women beyond one a camp
        # make camps of two or more, the other camps hold one
        two = min(t.camps, max(0, t.women - t.camps))
        if q["field"] == "camps_one_woman":
            return f"{t.camps - two}#"
        return f"{two}#"
    raise AssertionError(s.text())


def play(d: Driver, until, limit: int = 400) -> None:
    for _ in range(limit):
        if until(d.c):
            return
        d(next_keys(d.c))
    raise AssertionError(f"stuck on {d.c.screen().text()}")


def test_first_year_by_keys():
    seed = 11
    d = Driver(seed)
    new_game(d, tribes=4, first_game=False, first=3)
    play(d, lambda c: c.game.turn_number == 6)
    g = d.c.game
    assert (g.year, g.season, g.turn, g.phase) == (2, R.SUMMER, 1, P.EVENTS)
    # every turn visited exactly the phases the pure module applies, in order
    expected = ["setup"]
    for number in range(1, 6):
        _, season, turn = R.calendar_of(number)
        expected += [p.value for p in TURN_PHASES if phase_applies(p, season, turn, number)]
    assert d.visited == expected + ["events"]
    # the same log with the same dice source gives the same game: the dice came from the rng
    twin = MammutGame.replay(g.log, roll=random.Random(seed))
    assert twin.to_dict() == g.to_dict()
    # winter rations were short: some tokens were removed for hunger, as the rules say
    hungry = [e for e in g.log if e["action"] == "remove_tokens"]
    assert hungry and all(e["args"]["reason"] == "hunger" for e in hungry)
    births = [e for e in g.log if e["action"] == "report_births"]
    assert len(births) == 2 * 4  # end of summer and end of winter, each tribe with a camp
    assert any(e["action"] == "advance" and e["rolls"] for e in g.log)  # the direction dice
    # and the journal rebuilds it all, whatever the rng of the rebuild
    again = MammutTable.from_actions(json.loads(json.dumps(d.journal)), random.Random(999))
    assert state(again) == state(d.c)


def test_winter_survival_asks_no_forests_and_harvest_only_on_the_last_summer_turn():
    d = Driver(3)
    new_game(d, tribes=2, first=1)
    fields: dict[int, set[str]] = {}

    def record(c: MammutTable) -> bool:
        q = c.pending_question()
        if q and q["form"] == "survival":
            fields.setdefault(c.game.turn_number, set()).add(q["field"])
        return c.game.turn_number == 4

    play(d, record)
    assert fields[1] == {"fishing", "gathering"}
    assert fields[2] == {"fishing", "gathering", "crops_intact", "crops_damaged"}
    assert fields[3] == {"fishing"}


# ----- refusals change nothing -------------------------------------------------------------


def to_phase(d: Driver, phase: Phase) -> None:
    play(d, lambda c: c.game.phase == phase and c.screen().name == "phase")


def test_too_many_warriors_is_refused_and_changes_nothing():
    d = Driver(2)
    new_game(d)
    to_phase(d, P.COMBAT)
    d("#2#1#")  # fight, tribe 1
    before = state(d.c)
    d("9#")
    s = d.c.screen()
    assert s.name == "error" and "Tribe 1 has only 5 warriors, not 9." in text(s)
    assert state(d.c) == before and d.c.pending_question()["field"] == "warriors1"
    d("#")
    assert d.name == "fight:warriors1" and d.c.screen().entry == "> _"
    d("1#")
    assert d.c.pending_question()["field"] == "women1"


def test_the_games_own_refusals_show_its_message():
    d = Driver(2)
    new_game(d)
    to_phase(d, P.TRIBES_MOVE)
    d("#2#1##")  # the list > camp made: tribe 1, a village (2 camps, 2 women)
    d("#4#1#0#1#")  # the list > tokens removed: tribe 1, no warrior, 1 woman
    assert books(d.c.game, 1)[1:3] == (1, 2)
    before = state(d.c)
    d("#1#")  # the list > next phase: the game refuses, a camp has no woman
    assert d.name == "error" and "holds 2 camps but only 1 women" in text(d.c.screen())
    assert state(d.c) == before and d.c.game.phase == P.TRIBES_MOVE
    d("#")
    assert d.name == "actions"


def test_gathering_in_winter_is_refused_and_changes_nothing():
    d = Driver(4)
    new_game(d, tribes=2, first=1)
    play(d, lambda c: c.game.season == R.WINTER and c.game.phase == P.SURVIVAL)
    c = d.c
    q = c.pending_question()
    assert q["form"] == "survival" and q["field"] == "fishing"
    before = state(c)
    # a journal written by something else cannot slip it in either
    with pytest.raises(R.MammutError, match="only in summer"):
        c.state.apply({"a": "do", "method": "report_survival",
                  "args": {"tribe": q["ctx"]["tribe"], "fishing": 0, "gathering": 1}})
    assert state(c) == before
    with pytest.raises(ActionError):
        MammutTable.from_actions(d.journal + [{"a": "do", "method": "report_survival", "rolls": [],
                                                    "args": {"tribe": q["ctx"]["tribe"], "gathering": 1}}])


def test_survival_refuses_more_spaces_than_people():
    d = Driver(4)
    new_game(d, tribes=2, first=1)
    to_phase(d, P.SURVIVAL)
    d("#")
    before = state(d.c)
    d("8#")
    assert d.name == "error" and "cannot occupy 8 spaces" in text(d.c.screen())
    assert state(d.c) == before


def test_advance_refused_while_a_camp_has_no_woman():
    d = Driver(6)
    new_game(d, tribes=2, first=1)
    to_phase(d, P.TRIBES_MOVE)
    d("#2#1##")  # tribe 1 makes a second camp (a village)
    assert d.c.game.tribe(1).camps == 2
    d("#")
    d("4#1#0#1#")  # tokens removed: tribe 1, no warrior, 1 woman
    assert books(d.c.game, 1)[:3] == (5, 1, 2)  # (list: 2 camp made, 3 food, 4 tokens removed, 5 added)
    before = state(d.c)
    d("#1#")  # next phase
    assert d.name == "error" and "abandon" in text(d.c.screen())
    assert state(d.c) == before
    d("#")
    d("7#1#")  # camp abandoned: tribe 1
    assert d.name == "abandon_camp:kind"
    d("#")
    d("#1#")
    assert d.c.game.phase == P.COMBAT and books(d.c.game, 1)[:3] == (5, 1, 1)


# ----- hunger, births, undo ---------------------------------------------------------------


def test_hunger_asks_which_tokens_then_births_roll():
    d = Driver(8)
    new_game(d, tribes=2, first_game=False, first=1)
    to_phase(d, P.SURVIVAL)
    d("#")
    g = d.c.game
    g_food = g.tribe(1).food
    d("0#0#")  # tribe 1 gets nothing: 12 food feeds its 7 people
    assert g.tribe(1).food == g_food - 7
    play(d, lambda c: c.game.phase == P.SURVIVAL and c.game.turn_number == 2 and c.screen().name == "phase")
    d("#")
    n = d.c.pending_question()["ctx"]["tribe"]
    t = g.tribe(n)
    t.food = 3  # a hungry tribe (the table's books, set directly for the test)
    d("0#0#0#0#")  # nothing at all: 7 people, 3 food
    assert t.to_remove == 4 and "remove 4" in text(d.c.screen())
    d("#")
    assert d.c.pending_question() == {"form": "hunger", "ctx": {"tribe": n}, "answers": {}, "field": "warriors"}
    before = state(d.c)
    d("5#")
    assert d.name == "error" and state(d.c) == before
    d("#3#")  # 3 warriors and so 1 woman
    assert (t.warriors, t.women, t.to_remove) == (2, 1, 0)
    play(d, lambda c: c.game.phase == P.BIRTHS and c.screen().name != "phase")
    q = d.c.pending_question()
    assert q["form"] == "births"
    d("1#" if q["ctx"]["tribe"] == n else "0#1#")  # the hungry tribe's only woman cannot fill 2 places
    assert d.name == "report_births" and "born. Dice" in text(d.c.screen())


def test_undo_takes_back_the_last_entry_with_its_dice():
    d = Driver(9)
    new_game(d)
    to_phase(d, P.COMBAT)
    before = d.c.game.to_dict()
    d("#2#1#5###")  # fight: tribe 1, 5 warriors, no women, not in camp
    d("8###")  # a mammoth (after "Another tribe" and "2+ other tribes")
    assert d.name == "fight"
    after = d.c.game.to_dict()
    d("#C")
    assert d.name == "undo?" and "a fight (T1 v mammoth)" in text(d.c.screen())
    d("*")
    assert d.c.game.to_dict() == after
    d("C#")
    assert d.name == "undone" and d.c.game.to_dict() == before
    assert d.journal[-1] == {"a": "undo"}
    again = MammutTable.from_actions(d.journal)
    assert state(again) == state(d.c)
    d("#D3#")  # menu > undo: the step into combat
    d("#")
    assert d.c.game.phase == P.TRIBES_MOVE


def test_nothing_to_undo_on_a_new_game():
    d = Driver()
    new_game(d)
    d("C")
    assert d.name == "no-undo"


# ----- the journal ------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_rebuild_at_random_cut_points(seed):
    d = Driver(seed)
    new_game(d, tribes=3, first_game=bool(seed % 2), first=seed)
    play(d, lambda c: c.game.turn_number == 3 and c.game.phase == P.COMBAT)
    d("#2#1#2#1#")  # a fight half entered: the pending question is journaled
    rng = random.Random(seed)
    cuts = sorted(rng.sample(sorted(d.snapshots), 12)) + [len(d.journal)]
    for k in cuts:
        rebuilt = MammutTable.from_actions(json.loads(json.dumps(d.journal[:k])), random.Random(0))
        assert state(rebuilt) == d.snapshots[k], k
        fits(rebuilt.screen())
    last = MammutTable.from_actions(d.journal)
    assert last.pending_question()["field"] == "camp1" and last.screen().name == "fight:camp1"


def test_rebuilt_game_rolls_on_like_the_original():
    d = Driver(21)
    new_game(d)
    to_phase(d, P.TRIBES_MOVE)
    c2 = MammutTable.from_actions(d.journal, random.Random(21))
    for _ in range(len([e for e in d.c.game.log for _ in e["rolls"]])):
        c2.rng.randint(1, 6)  # the same position in the dice stream
    for keys in ("#1#", "#2#1#5##7###"):
        d(keys)
        for k in keys:
            c2.handle(k, 0.0)
    assert c2.game.to_dict() == d.c.game.to_dict()


def test_from_actions_rejects_nonsense():
    for bad in ([{"a": "frobnicate"}], [{"nope": 1}], [{"a": "do", "method": "advance", "args": {}}],
                [{"a": "answer", "field": "players", "value": 3}], [{"a": "back"}], [{"a": "undo"}],
                [{"a": "new", "tribes": 9, "first_game": False, "advanced": False, "first": 1}],
                [{"a": "brightness", "level": 9}], ["new"], [{"a": "new", "tribes": "3", "first_game": False,
                                                             "advanced": False, "first": 1}]):
        with pytest.raises(ActionError):
            MammutTable.from_actions(bad)


def test_old_journals_with_brightness_resume_through_the_shell():
    """Brightness was a Mammut action before the redesign: the shell takes it out of the
    journal (and keeps the last level), the rest rebuilds the game."""
    d = Driver(3)
    new_game(d, tribes=2, first=1)
    d("#1#")
    old = d.journal[:1] + [{"a": "brightness", "level": 2}] + d.journal[1:]
    actions, level = Shell.split_journal(old)
    assert level == 2 and actions == d.journal
    assert state(MammutTable.from_actions(actions)) == state(d.c)
    with pytest.raises(ActionError):  # never the game's own action any more
        MammutTable.from_actions(old)


def test_game_log_for_the_record():
    d = Driver(3)
    assert d.c.game_log() is None
    new_game(d)
    to_phase(d, P.SURVIVAL)
    log = json.loads(json.dumps(d.c.game_log()))
    assert log["game"] == "mammut"
    assert MammutGame.replay(log["log"]).to_dict() == d.c.game.to_dict()


# ----- menu -----------------------------------------------------------------------------------


def test_menu_books_brightness_new_game_shutdown():
    d = Driver(3)
    new_game(d, tribes=2, first=1)
    assert d.c.menu_items() == ("Actions", "Tribe books", "Undo last entry", "New game")
    d("D")
    assert d.name == "menu" and d.shell.screen().choices == (
        "1 Actions", "2 Tribe books", "3 Undo last entry", "4 New game", "5 Brightness", "6 Play Clans",
        "7 Language", "8 Shut down", "9 About", "10 Sound", "11 Say again", "12 Phone view")
    d("2#")
    assert d.name == "books" and "T1: 5war 2wom 1vil 0cave 15food 5cards" in text(d.shell.screen())
    n = len(d.journal)
    d("#D5#2#")
    assert d.shell.brightness == 2 and d.effects[-1] == SetBrightness(2) and len(d.journal) == n
    d("D4#")
    assert d.name == "new?"
    d("D")  # the game's own question: D does not open the menu over it
    assert d.name == "new?"
    d("*")
    assert d.c.game.n_tribes == 2
    d("D4##")
    assert d.name == "new:tribes" and d.c.game is not None
    d("*")  # changed our mind: the game goes on
    assert d.name == "phase" and d.c.form is None
    d("D4##3#")
    d("#####")  # no first game, standard rules, red, yellow, green
    assert d.c.game.n_tribes == 3
    assert [e.new_game for e in d.effects if isinstance(e, Persist)][-1] is True  # a new journal entry
    d("D6#")
    assert d.name == "switch?"
    d("*")
    assert d.shell.kind == "mammut" and not any(isinstance(e, SwitchGame) for e in d.effects)
    d("D8#*")
    assert not d.shell.shutting_down
    d("D8##")
    assert d.shell.shutting_down and d.name == "bye" and d.effects[-1] == PowerOff()


def test_menu_play_clans_switches_after_asking_while_a_game_runs():
    d = Driver(3)
    d("D6#")  # no game yet: nothing to abandon
    assert d.shell.kind == "clans" and SwitchGame("clans") in d.effects
    d = Driver(3)
    new_game(d, tribes=2, first=1)
    d("D6#")
    assert d.name == "switch?" and d.shell.kind == "mammut"
    d("#")
    assert d.shell.kind == "clans" and SwitchGame("clans") in d.effects


def test_menu_items_of_the_game():
    d = Driver(3)
    d("D1#")
    assert d.name == "no-game"
    d("#D2#")
    assert d.name == "books" and "No game yet." in text(d.shell.screen())
    d("#D4#")  # no game: the new-game questions are on screen already
    assert d.name == "new:tribes" and d.effects == []
    new_game(d, tribes=2, first=1)
    d("D1#")
    assert d.name == "actions"
    d("2#1#")  # a form opened from the list
    d("D1#")
    assert d.name == "busy"


def test_power_key_asks_for_shutdown():
    c = MammutTable.new()
    assert c.handle(K.POWER, 0.0) is False  # the shell's
    shell = Shell(list(GAMES.values()), "mammut", c)
    shell.handle(K.POWER, 0.0)
    assert shell.screen().name == "shutdown?"
    shell.handle("#", 0.0)
    assert shell.shutting_down and shell.pop_effects() == [PowerOff()]


def test_power_drops_the_games_own_question_and_message():
    d = Driver(9)
    new_game(d)
    d("#1#C")
    assert d.name == "undo?"
    d([K.POWER])
    assert d.name == "shutdown?"
    d("*")  # not shutting down: the undo question is gone, as before
    assert d.name == "phase" and d.c.ui.overlay is None
    d("C#")
    assert d.name == "undone"
    d([K.POWER, "*"])
    assert d.name == "phase"


def test_d_is_left_to_the_shell_except_in_the_games_own_questions():
    c = MammutTable.new(random.Random(1))
    assert c.handle(K.MENU, 0.0) is False  # new-game questions: the menu may open
    for k in "2#####":  # 2 tribes, no first game, standard rules, red and yellow
        assert c.handle(k, 0.0) is True
    assert c.handle(K.MENU, 0.0) is False
    c.handle(K.UNDO, 0.0)
    assert c.screen().name == "no-undo"
    assert c.handle(K.MENU, 0.0) is False  # a message goes away and the menu opens
    assert c.screen().name == "phase"
    for k in "##":  # the setup list > start turn 1
        c.handle(k, 0.0)
    c.handle(K.UNDO, 0.0)
    assert c.screen().name == "undo?"
    assert c.handle(K.MENU, 0.0) is True and c.screen().name == "undo?"


def test_effects_journal_new_games_and_announce_the_end_once():
    d = Driver(15)
    assert isinstance(d.c, TableGame) and TABLE_GAME is MammutTable and MammutTable.KIND == "mammut"
    assert not d.c.in_progress() and d.c.record_json() is None and d.c.finished_result() is None
    d("2#B####")  # 2 tribes, a first game, standard rules, red and yellow
    first = next(e for e in d.effects if isinstance(e, Persist))
    assert first == Persist("mammut", ({"a": "new", "tribes": 2, "first_game": True, "advanced": False,
                                        "colors": ["red", "yellow"], "first": d.c.game.first_player},), new_game=True)
    assert d.c.in_progress() and json.loads(d.c.record_json())["game"] == "mammut"
    to_phase(d, P.COMBAT)
    d("#6#1#5#2#")
    d("#6#2#5#2#")
    play(d, lambda c: c.game.over)
    overs = [e for e in d.effects if isinstance(e, GameOver)]
    assert len(overs) == 1 and overs[0].kind == "mammut"
    assert overs[0].result == d.c.finished_result() and overs[0].result["extinct"] is True
    assert overs[0].result["log"] == d.c.game_log() and not d.c.in_progress()
    d("AB*")  # keys after the end announce nothing again
    assert len([e for e in d.effects if isinstance(e, GameOver)]) == 1
    rebuilt = MammutTable.from_actions(d.journal)
    assert quiet(rebuilt.pop_effects()) == [GameOver("mammut", d.c.finished_result())]  # a rebuild announces it again
    assert rebuilt.pop_effects() == []


def test_phase_help_shows_the_rules_words():
    d = Driver(3)
    new_game(d, tribes=2, first=1)
    to_phase(d, P.TRIBES_MOVE)
    d("#9#")
    assert d.name == "help" and d.c.screen().pages > 1


# ----- elimination, resurrection, victory ---------------------------------------------------


def test_resurrection_through_the_list():
    d = Driver(12)
    new_game(d, tribes=3, first=1)
    to_phase(d, P.COMBAT)
    d("#6#3#5#2#")  # tokens removed: tribe 3 loses all 5 warriors and 2 women
    play(d, lambda c: c.game.turn_number == 2 and c.game.phase == P.NEW_ANIMALS)
    assert d.c.game.tribe(3).eliminated and "Tribe 3 may come back" in text(d.c.screen())
    d("#")
    assert d.c.screen().choices[:2] == ("Next phase", "Resurrect a tribe")
    d("2#A#")  # A steps to the only tribe that may come back
    assert books(d.c.game, 3) == (3, 1, 0, 8) and d.name == "resurrect"


def test_victory_ends_the_game_and_offers_a_new_one():
    d = Driver(13)
    new_game(d, tribes=2, first=1)
    g = d.c.game
    g.tribe(1).women = 6  # the table's books, set directly for the test
    to_phase(d, P.TRIBES_MOVE)
    d("#" + "2#1##" * 3)  # three more camps for tribe 1
    assert g.tribe(1).camps == 4
    play(d, lambda c: c.game.over and c.screen().name == "phase")
    s = d.c.screen()
    assert s.title.endswith("Game over") and "Tribe 1 wins!" in text(s)
    d("#")
    assert d.name == "new:tribes"


# ----- storms ---------------------------------------------------------------------------------

KEYS = list("0123456789#*ABCD") + ["POWER", "", "x", "##", None]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), keys=st.lists(st.sampled_from(KEYS), max_size=300))
def test_key_storm_never_raises_and_journal_rebuilds_state(seed, keys):
    d = Driver(seed, alone=True)
    d(keys)
    rebuilt = MammutTable.from_actions(json.loads(json.dumps(d.journal)))
    assert state(rebuilt) == state(d.c)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), keys=st.lists(st.sampled_from(list("0123456789#*ABC") * 2 + ["#"] * 10),
                                                   max_size=400))
def test_storm_in_a_running_game(seed, keys):
    d = Driver(seed)
    new_game(d, tribes=2 + seed % 5, first_game=bool(seed % 2), advanced=bool(seed % 3 == 0), first=1)
    d(keys)
    rebuilt = MammutTable.from_actions(json.loads(json.dumps(d.journal)))
    assert state(rebuilt) == state(d.c)
    if d.c.game is not None:
        assert MammutGame.replay(d.c.game.log).to_dict() == d.c.game.to_dict()


def test_screens_are_pure():
    d = Driver(3)
    new_game(d)
    d("#")
    assert d.c.screen() == d.c.screen() and d.c.pop_effects() == []


@pytest.mark.parametrize("seed", range(6))
def test_long_weighted_storm_reaches_deep_and_rebuilds(seed):
    """Mostly # and digits, like a table in a hurry: deep into the game, never an exception."""
    r = random.Random(seed)
    keys = r.choices(list("0123456789#*ABCD") + ["POWER"], weights=[3] * 10 + [25, 3, 4, 4, 1, 1, 0.05], k=2000)
    d = Driver(seed, alone=True)
    d(keys)
    assert any(a["a"] == "do" for a in d.journal)
    rebuilt = MammutTable.from_actions(json.loads(json.dumps(d.journal)), random.Random(seed + 1))
    assert state(rebuilt) == state(d.c)
    if d.c.game is not None:
        assert MammutGame.replay(d.c.game.log).to_dict() == d.c.game.to_dict()


def test_a_new_game_starts_its_own_journal_entry_and_leaving_the_questions_keeps_the_game():
    d = Driver(14)
    new_game(d, tribes=2, first=1)
    to_phase(d, P.COMBAT)
    d("#2#1#2#")  # a fight half entered
    old = state(d.c)
    n = len(d.journal)
    d("D4##3#")  # new game? yes; 3 tribes ... then changed our mind
    d("**")
    assert len(d.journal) == n and state(d.c) == old and d.name == "fight:women1"
    d("D4##3######")  # a new game for real: 3 tribes, no first game, standard, red, yellow, green
    start = max(i for i, a in enumerate(d.journal) if a["a"] == "new")
    assert start == n and d.c.game.n_tribes == 3 and d.c.form is None
    # the daemon keeps one entry per game: the entry alone rebuilds it
    assert state(MammutTable.from_actions(d.journal[start:])) == state(d.c)
    assert state(MammutTable.from_actions(d.journal)) == state(d.c)


def test_extinction_ends_the_game():
    d = Driver(15)
    new_game(d, tribes=2, first=1)
    to_phase(d, P.COMBAT)
    d("#6#1#5#2#")  # tokens removed: all of tribe 1
    d("#6#2#5#2#")  # and all of tribe 2
    play(d, lambda c: c.game.over)
    assert d.c.game.extinct and "everybody loses" in text(d.c.screen())
    assert d.visited[-2:] == ["combat", "game_over"]  # no phase is played without a tribe (issue 31)
