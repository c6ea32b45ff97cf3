"""One conformance test for every registered game (and the test-only counter game):

- random key storms (the menu, POWER and searches included) never raise, and every
  screen fits the 128x64 panel at the fonts' real sizes;
- every effect is a value from companion.table.effects, and journaled actions are JSON;
- `screen()` changes nothing: asking twice gives the same screen and no effect;
- `from_actions(actions so far)` at random cut points is a pure function of the
  actions: it journals nothing, rebuilds the same record and the same screen twice
  (also after a JSON round trip, as the journal stores them), and from there the same
  keys give the same screens and the same actions as the live game once that one has
  been rebuilt too.
"""

from __future__ import annotations

import json
import random

import pytest

from companion import games
from companion.table import keys as K
from companion.table.effects import EFFECT_TYPES, Hint, Persist, Search, SwitchGame
from companion.table.protocol import TableGame
from companion.table import screen as S
from companion.table.render import render
from companion.table.shell import Shell

KINDS = [*games.GAMES, "counter"]
SEARCH = {"bot": "random", "move_time": None, "iterations": None, "seed": 1}
# digits and # most: they move a game forward; the rest of the keypad, and POWER now and then
KEYS = list("0123456789") * 3 + ["#"] * 12 + list("*ABCD") * 2 + [K.POWER]


@pytest.fixture(autouse=True)
def with_counter(counter):
    """Every test here runs with the third game registered too."""


class Run:
    """One game driven by keys as the daemon would: effects drained, searches answered."""

    def __init__(self, kind: str, game: TableGame) -> None:
        self.kind, self.game = kind, game
        game.table_bot = SEARCH["bot"]  # as the shell sets it: a seat made a bot plays the table's (seeded) bot
        self.searcher = games.GAMES[kind].make_searcher(SEARCH)
        self.actions: list[dict] = []
        self.effects: list = []

    def press(self, key: str) -> None:
        used = self.game.handle(key, 0.0)
        assert isinstance(used, bool)
        if key == K.POWER:
            assert used is False  # POWER is always the shell's
        self.drain()

    def drain(self) -> None:
        while effects := self.game.pop_effects():
            for e in effects:
                assert isinstance(e, EFFECT_TYPES), e
                self.effects.append(e)
                if isinstance(e, Persist):
                    if e.new_game:
                        self.actions = []
                    assert json.loads(json.dumps(list(e.actions))) == list(e.actions)
                    self.actions += e.actions
                elif isinstance(e, (Search, Hint)):
                    assert self.searcher is not None, f"{self.kind} asks for a search but has no searcher"
                    self.game.deliver(e, self.searcher.run(e))


def assert_fits(s: S.Screen) -> None:
    """Nothing clipped, in whatever language the storm switched the table to."""
    assert not S.overflows(s), S.overflows(s)
    image = render(s)
    assert image.size == (128, 64) and image.mode == "1"


def rebuild(kind: str, actions: list[dict]) -> TableGame:
    game = games.GAMES[kind].load().from_actions(json.loads(json.dumps(actions)), random.Random(0))
    game.table_bot = SEARCH["bot"]  # as the shell sets it: a seat made a bot plays the table's (seeded) bot
    return game


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", range(4))
def test_storms_rebuilds_and_pure_screens(kind, seed):
    rnd = random.Random(seed)
    live = Run(kind, games.GAMES[kind].load().new(random.Random(seed)))
    cuts = set(rnd.sample(range(50, 600), 4))
    for i in range(600):
        live.press(rnd.choice(KEYS))
        first = live.game.screen()
        assert_fits(first)
        assert live.game.screen() == first and live.game.pop_effects() == []  # screen() changes nothing
        if i in cuts and live.actions:
            a, b = rebuild(kind, live.actions), rebuild(kind, live.actions)
            assert a.pop_effects() == b.pop_effects()  # a rebuild may re-announce (GameOver), never differently
            assert a.screen() == b.screen()
            assert a.record_json() == b.record_json() == live.game.record_json()
            assert a.finished_result() == live.game.finished_result()
            # from the rebuilt position, the same keys give the same journal as the live game rebuilt
            before = list(live.actions)
            twin = Run(kind, rebuild(kind, before))
            live.game = rebuild(kind, before)
            twin.actions = list(before)
            twin.drain()
            live.drain()
            for _ in range(30):
                key = rnd.choice(KEYS)
                live.press(key)
                twin.press(key)
                assert twin.game.screen() == live.game.screen()
            assert twin.actions == live.actions


@pytest.mark.parametrize("kind", KINDS)
def test_storm_through_the_shell_with_menus_never_raises(kind):
    rnd = random.Random(7)
    catalog = list(games.GAMES.values())
    shell = Shell(catalog, kind, games.GAMES[kind].load().new(random.Random(7)), random.Random(7))
    searchers = {k: e.make_searcher(SEARCH) for k, e in games.GAMES.items()}
    menu_keys = ["D"] * 6 + list("12345678") * 2 + ["#"] * 8 + list("*AB")
    switches = 0
    for _ in range(1500):
        shell.handle(rnd.choice(menu_keys + KEYS), 0.0)
        for e in shell.pop_effects():
            assert isinstance(e, EFFECT_TYPES), e
            switches += isinstance(e, SwitchGame)
            if isinstance(e, (Search, Hint)):
                shell.deliver(e, searchers[shell.kind].run(e))
        assert_fits(shell.screen())
        if shell.shutting_down:
            shell = Shell(catalog, shell.kind, shell.game, random.Random(7), shell.brightness)
    assert switches > 0
