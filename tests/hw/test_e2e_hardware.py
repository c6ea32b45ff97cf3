"""Whole games through the real input adapters with the libraries' own mocks: gpiozero MockFactory
buttons (buttons only: every choice scrolled with UP/DOWN), and a serial keypad on a pty."""

from __future__ import annotations

import os
import queue
import random
import tty

import pytest

from companion.games.clans.controller import Controller
from companion.games.clans.board import COLORS
from companion.games.clans.record import Record
from companion.box.config import ButtonsConfig, Config, KeypadConfig

from tests.support import full_game_script, headless_daemon
from conftest import Clock  # noqa: E402

PINS = {"A": 17, "B": 27, "#": 22, "*": 23, "D": 24}


def next_button(c: Controller, plan: dict, rnd: random.Random) -> str | None:
    """What a player with only buttons presses next, looking at the screen (the controller's state)."""
    ui = c.ui
    if c.info.shown:
        return "#"
    mode = c.session.ui_mode()
    if mode == "players":
        return "B" if ui.choice_sel != 1 else "#"  # 3 players
    if mode == "first":
        return "#"  # draw the start player
    if mode == "bots":
        return "#"  # Start: no bots
    if mode == "setup":
        return "#"
    if mode == "move":
        if "move" not in plan:
            plan["move"] = c.game.random_move(rnd.random)
        frm, to = plan["move"]
        want = frm if ui.frm is None else to
        if ui.browsing and ui.buf == str(want):
            if ui.frm is not None:
                plan.pop("move")
            return "#"
        return "B"
    if mode == "order":
        if "pick" not in plan or plan["pick"] not in c.order_choices():
            plan["pick"] = rnd.choice(c.order_choices())
        return "#" if ui.browsing and ui.buf == str(plan["pick"]) else "B"
    if mode == "reveal":
        if "colors" not in plan:
            plan["colors"] = rnd.sample(range(1, 6), c.game.players)
        want = plan["colors"][len(c.state.colors)]
        return "#" if ui.browsing and ui.buf == str(want) else "B"
    return None  # final: the game is over


def test_whole_game_with_gpio_buttons_only(factory):
    clock = Clock()
    d = headless_daemon(Controller(random.Random(21)))
    cfg = Config(buttons=ButtonsConfig(menu=24, enabled=True, bounce_ms=30, long_press_s=1.0, power_press_s=4.0))
    from companion.hw.buttons import open_buttons

    buttons = open_buttons(cfg, d.put, clock=clock)
    rnd, plan, presses = random.Random(5), {}, 0
    try:
        d.show()
        while (button := next_button(d.shell.game, plan, rnd)) is not None:
            pin = factory.pin(PINS[button])
            pin.drive_low()
            clock.t += 0.05
            buttons.poll()
            pin.drive_high()
            clock.t += 0.05
            buttons.poll()
            assert d.queue.get_nowait()[1] == button  # one press, one key (stamped with when it was pressed)
            assert d.queue.empty()
            d.step(button)
            presses += 1
            assert presses < 20000
    finally:
        buttons.close()
    c = d.shell.game
    assert c.game.is_over and c.mode() == "final" and c.game.players == 3
    record = c.record()
    replayed = record.play()
    assert replayed.ply == c.game.ply > 20 and record.colors == [COLORS[i - 1] for i in plan["colors"]]
    assert d.panel.sink.device.image.size == (128, 64)


def test_whole_game_typed_on_a_serial_keypad_pty(tmp_path):
    from companion.hw.keyframe import encode
    from companion.hw.keypad import open_keypad

    script, moves, colors = full_game_script(3, 4)
    master, slave = os.openpty()
    tty.setraw(slave)
    d = headless_daemon(Controller.quick_start(3, random.Random(4)))
    keypad = open_keypad(KeypadConfig(port=os.ttyname(slave), baudrate=9600), d.put)
    keypad.start()
    expected_keys = [ch for ch in script if ch not in "\r\n "]
    sent = b"".join(encode(k, i) for i, k in enumerate(expected_keys))  # what firmware/serial-keypad sends
    try:
        assert keypad.connected.wait(5)
        for i in range(0, len(sent), 40):  # a few keys at a time, frames cut anywhere
            os.write(master, sent[i:i + 40])
        handled = 0
        while handled < len(expected_keys):
            _, key = d.queue.get(timeout=5)
            assert key == expected_keys[handled]
            d.step(key)
            handled += 1
        with pytest.raises(queue.Empty):
            d.queue.get(timeout=0.2)
    finally:
        keypad.close()
        os.close(master)
        os.close(slave)
    record = d.shell.game.record()
    assert [(m.frm, m.to) for m in record.moves] == moves and record.colors == colors
    out = tmp_path / "r.json"
    record.save(out)
    assert Record.load(out).play().is_over
