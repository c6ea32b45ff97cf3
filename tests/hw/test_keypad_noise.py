"""A noisy keypad cable with a game loaded: seeded bursts of random bytes on a pty never confirm
an action, the OLED says "keypad cable: noise", and a yes the table cannot take back asks again
for a few seconds after noise (also for an old one-byte keypad, where noise can form keys)."""

from __future__ import annotations

import os
import random
import threading
import tty

import pytest

pytest.importorskip("serial")

from companion.box.config import KeypadConfig  # noqa: E402
from companion.games.clans.controller import Controller  # noqa: E402
from companion.hw.keyevents import LineNoise  # noqa: E402
from companion.hw.keyframe import encode  # noqa: E402
from companion.kiosk import loop  # noqa: E402
from companion.table import texts as T  # noqa: E402
from companion.table.effects import Persist  # noqa: E402

from conftest import Clock  # noqa: E402
from tests.support import full_game_script, headless_daemon  # noqa: E402
from tests.hw.waiting import WAIT  # noqa: E402


def started_game(clock: Clock | None = None):
    """A daemon with three moves of a 3-player game played and confirmed; every Persist it drains
    afterwards is kept in `persisted`."""
    script, _moves, _colors = full_game_script(3, 4)
    d = headless_daemon(Controller.quick_start(3, random.Random(4)))
    if clock is not None:
        d.clock = clock
    for key in "".join(script.split("\n")[:3]):
        d.step(key)
    assert d.shell.game.game.ply == 3
    d.persisted = []
    save = d.save

    def spy(effects):
        d.persisted += [e for e in effects if isinstance(e, Persist)]
        return save(effects)

    d.save = spy
    return d


def screen_name(d) -> str:
    return d.last_screen.name


def test_thousands_of_noise_bursts_on_a_pty_confirm_nothing():
    from companion.hw.keypad import open_keypad

    d = started_game()
    master, slave = os.openpty()
    tty.setraw(slave)
    keypad = open_keypad(KeypadConfig(port=os.ttyname(slave)), d.put)
    keypad.start()
    rng = random.Random(45)
    bursts, size = 2500, 4000
    try:
        assert keypad.connected.wait(WAIT)
        os.write(master, encode("C", 0))          # take back the last move? the question shows
        _, key = d.queue.get(timeout=WAIT)
        d.step(key)
        assert screen_name(d) == "undo?"

        def noise() -> None:
            for _ in range(bursts):
                os.write(master, rng.randbytes(size))
            os.write(master, b"\n" * 8 + encode("7", 1))  # the end: a real key after the noise

        writer = threading.Thread(target=noise)
        writer.start()
        keys, events = [], 0
        while True:
            pressed_at, item = d.queue.get(timeout=WAIT)
            if isinstance(item, LineNoise):
                events += 1
            else:
                keys.append(item)
            d.step(item, pressed_at)
            if item == "7":
                break
        writer.join(WAIT)
    finally:
        keypad.close()
        os.close(master)
        os.close(slave)
    assert keys == ["7"]                          # 10 MB of noise typed nothing
    assert keypad.noise >= bursts * size and events >= 1
    assert d.persisted == [] and d.shell.game.game.ply == 3
    assert d.noise_at is not None and d.noise_told_at is not None  # the OLED said so


def test_a_yes_that_cannot_be_taken_back_asks_again_after_noise():
    clock = Clock()
    d = started_game(clock)
    d.step("C", clock())
    assert screen_name(d) == "undo?"
    clock.t += 1.0
    d.step(LineNoise("keypad", 40))               # noise: the OLED says so
    assert screen_name(d) == "keypad-noise"
    assert d.last_screen.title == T.NOISE_TITLE
    clock.t += 0.5
    d.step("#", clock())                          # dismisses the notice: the question again
    assert screen_name(d) == "undo?"
    clock.t += 0.5
    d.step("#", clock())                          # 1 s after the noise: held, asked again
    assert screen_name(d) == "keypad-noise" and d.persisted == [] and d.shell.game.game.ply == 3
    d.step("*", clock())
    assert screen_name(d) == "undo?"
    clock.t += loop.NOISE_HOLD_S
    d.step("#", clock())                          # the line is quiet: yes is yes
    assert d.shell.game.game.ply == 2 and d.persisted


def test_a_move_is_not_held_and_the_notice_is_rate_limited():
    clock = Clock()
    d = started_game(clock)
    d.step(LineNoise("keypad", 1), clock())
    assert screen_name(d) == "keypad-noise"
    d.step("*", clock())
    clock.t += 1.0
    d.step(LineNoise("keypad", 2), clock())      # not again within NOISE_NOTICE_S
    assert screen_name(d) != "keypad-noise"
    script, _moves, _colors = full_game_script(3, 4)
    for key in script.split("\n")[3]:             # a move is typed and confirmed as ever
        d.step(key, clock())
    assert d.shell.game.game.ply == 4
    clock.t += loop.NOISE_NOTICE_S
    d.step(LineNoise("keypad", 3), clock())
    assert screen_name(d) == "keypad-noise"


@pytest.mark.parametrize("item, question", [(0, "new?"), ("shutdown", "shutdown?"), ("mammut", "switch?")])
def test_new_game_shut_down_and_another_game_are_held_too(item, question):
    clock = Clock()
    d = started_game(clock)
    d.step(LineNoise("keypad", 1), clock())
    d.step("*", clock())                          # the notice goes
    d.step("D", clock())
    d.shell.menu_sel = [what for _label, what in d.shell._menu()].index(item)
    d.step("#", clock())
    assert screen_name(d) == question
    d.step("#", clock())
    assert screen_name(d) == "keypad-noise" and d.persisted == []
    assert not d.power_off and d.shell.kind == "clans" and d.shell.game.game.ply == 3


def test_the_one_byte_protocol_is_held_by_its_noise():
    """An old keypad (keypad.protocol: one-byte): noise C ... # would take back a move; the garbage
    around it is noise, so the # is held."""
    from companion.hw.keypad import open_keypad

    clock = Clock()
    d = started_game(clock)
    kp = open_keypad(KeypadConfig(port="loop://", protocol="one-byte"), d.put, clock=clock)
    d.step(LineNoise("keypad", 1), clock())
    d.step("*", clock())                          # the notice was seen: not shown again for a while
    clock.t += 2.0
    for key in kp.decode(b"\x91C\xfe\x00z#"):  # its LineNoise went to the queue first
        d.put(key)
    while not d.queue.empty():
        pressed_at, item = d.queue.get()
        d.step(item, pressed_at)
    assert screen_name(d) == "keypad-noise" and d.persisted == [] and d.shell.game.game.ply == 3


def test_c_on_the_failure_screen_sets_nothing_aside_right_after_noise():
    clock = Clock()
    d = started_game(clock)
    d.step(LineNoise("keypad", 1), clock())
    d.step("*", clock())
    taken: list[str] = []
    d.recover = taken.append                      # what C does on the failure screen: set actions aside
    d.failed = True
    d.step("C", clock())
    assert taken == [] and screen_name(d) == "keypad-noise"
    clock.t += loop.NOISE_HOLD_S + 0.1
    d.failed = True
    d.step("C", clock())
    assert taken == ["C"]
