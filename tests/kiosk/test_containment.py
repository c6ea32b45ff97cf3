"""Nothing that fails inside the loop ends the daemon (companion.kiosk.recovery): the failure screen,
C and D from it, the traceback logged once; keys typed ahead confirm nothing unseen; the
first key after idle counts unless the panel was dark."""

from __future__ import annotations

import itertools
import logging
import random

from companion.kiosk import daemon, loop
from companion.games.clans.controller import Controller
from companion.table import keys as K
from companion.journal.store import Journal, JournalWriter

from tests.support import full_game_script, headless_daemon


def failing_screens(game, when):
    """Make `game.screen()` raise while `when()` is true."""
    real = game.screen

    def screen():
        if when():
            raise RuntimeError("a bug in a screen")
        return real()

    game.screen = screen


def test_a_screen_that_fails_shows_the_failure_screen_and_logs_once(caplog):
    game = Controller.quick_start(2, random.Random(1))
    d = headless_daemon(game)
    broken = [True]
    failing_screens(game, lambda: broken[0])
    with caplog.at_level(logging.ERROR, logger="companion.run"):
        d.show()
        for key in "12345AB*#":
            assert d.step(key)
    assert d.last_screen.name == "failed" and d.failed
    logged = [r for r in caplog.records if r.exc_info]
    assert len(logged) == 1  # the traceback once, not once per frame
    assert game.game.ply == 0  # keys on the failure screen reach nothing
    broken[0] = False
    d.step("D")  # the menu opens from it
    assert d.last_screen.name == "menu"
    d.step("*")
    assert d.last_screen.name == "entry" and not d.failed


def test_c_on_the_failure_screen_rebuilds_then_sets_the_last_move_aside(tmp_path):
    journal = JournalWriter(Journal(tmp_path))
    game = Controller.quick_start(2, random.Random(3))
    d = headless_daemon(game)
    d.journal = journal
    d.rollback.journal = journal
    d.shell.game = game
    d.drain()  # the new game's first actions, journaled
    script, moves, _ = full_game_script(2, 3)
    for typed in script.split()[:2]:
        for key in typed:
            d.step(key)
    assert d.shell.game.game.ply == 2
    # the third move's screen fails for good: any game with 3 moves
    for key in script.split()[2]:
        failing_screens(d.shell.game, lambda g=d.shell.game: g.game.ply >= 3)
        d.step(key)
    assert d.failed and d.shell.game.game.ply == 3
    d.step(K.UNDO)  # the last key saved the move: it is set aside, kept in the journal
    assert not d.failed and d.shell.game.game.ply == 2
    assert d.last_screen.name == "taken-back"
    rows = journal.journal.set_aside_rows()
    assert len(rows) >= 1 and rows[-1]["reason"] == "taken back after a failure"
    resumed = journal.journal.resume()
    assert Controller.from_actions(daemon.Shell.split_journal(resumed.actions)[0]).game.ply == 2


def test_c_after_unsaved_keys_only_rebuilds_at_the_last_saved_move():
    game = Controller.quick_start(2, random.Random(4))
    d = headless_daemon(game)
    d.drain()
    script, _, _ = full_game_script(2, 4)
    for key in script.split()[0]:
        d.step(key)
    frm = script.split()[1].split("#")[0]
    failing_screens(d.shell.game, lambda g=d.shell.game: g.ui.buf == frm[:1] if hasattr(g, "ui") else False)
    d.step(frm[0])  # a digit typed (nothing saved) makes the screen fail
    if not d.failed:  # the controller names its typed buffer differently: fail on any screen instead
        failing_screens(d.shell.game, lambda: True)
        d.show()
    assert d.failed
    d.step(K.UNDO)
    assert d.shell.game.game.ply == 1  # the saved move stays
    assert d.last_screen.name == "taken-back"


def test_failures_in_effects_speech_and_the_display_are_contained(caplog):
    d = headless_daemon(Controller.quick_start(2, random.Random(5)))

    def boom(*_a, **_k):
        raise OSError("unplugged")

    d.panel.show = boom
    d.announcer.flush = boom
    with caplog.at_level(logging.ERROR, logger="companion.run"):
        d.show()
        script, _, _ = full_game_script(2, 5)
        for key in script.split()[0]:
            assert d.step(key)
    assert d.shell.game.game.ply == 1  # the move counted


class Ticks:
    """A clock that moves on at every reading: every stamp and every frame has its own time."""

    def __init__(self) -> None:
        self.counter = itertools.count(1)

    def __call__(self) -> float:
        return float(next(self.counter))


def bot_table() -> loop.Daemon:
    game = Controller.quick_start(2, random.Random(6), bots=[1], first=0)
    d = headless_daemon(game)
    d.clock = Ticks()
    d.search_options = {"bot": "greedy", "move_time": 0.01, "iterations": None, "seed": 1}
    d.drain()
    d.show()
    while d.last_screen.name != "entry":  # the deal of the person's colors
        d.step("#")
    return d


def play_first_move(d: loop.Daemon) -> None:
    frm, to = d.shell.game.game.random_move(random.Random(1).random)
    for key in f"{frm}#{to}#":
        d.step(key)


def test_a_hash_typed_ahead_does_not_confirm_the_bots_move():
    d = bot_table()
    play_first_move(d)
    assert "(bot)" in " ".join(d.last_screen.lines) or d.last_screen.name == "result"
    first, second = d.clock(), d.clock()  # two # pressed at once, before anything below showed
    d.step("#", first)
    while d.last_screen.name != "bot-move":  # the result's pages, then the bot's move to make
        d.step("#", d.clock())
    ply = d.shell.game.game.ply
    d.step("#", second)  # pressed before "Make it, then #" showed: dropped
    assert d.last_screen.name == "bot-move" and d.shell.game.game.ply == ply
    while d.last_screen.name == "bot-move":
        d.step("#", d.clock())  # pressed after it showed: answers it
    assert d.last_screen.name in ("entry", "result")


def test_a_scripted_key_is_pressed_when_the_loop_takes_it():
    d = bot_table()
    play_first_move(d)
    d.step("#", None)
    while d.last_screen.name != "bot-move":
        d.step("#", None)
    d.step("#", None)  # a script's # answers the confirmation it comes after
    assert d.last_screen.name != "bot-move" or d.last_screen.page > 0


def test_removing_the_stamp_check_lets_a_typed_ahead_key_through(monkeypatch):
    """The guard above is what drops it: without it the same key confirms the unseen move."""
    monkeypatch.setattr(loop.Daemon, "typed_ahead", lambda self, key, at: False)
    d = bot_table()
    play_first_move(d)
    early = d.clock()
    d.step("#", d.clock())
    while d.last_screen.name != "bot-move":
        d.step("#", d.clock())
    pages = d.last_screen.pages
    for _ in range(pages):
        d.step("#", early)
    assert d.last_screen.name != "bot-move"
