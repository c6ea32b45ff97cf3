"""GPIO buttons on gpiozero's MockFactory: debounce, long press, encoder."""

from __future__ import annotations

import os
import threading

import pytest

gpiozero = pytest.importorskip("gpiozero")

from companion.box.config import ButtonsConfig, Config, EncoderConfig  # noqa: E402
from companion.hw.buttons import buttons_wanted, open_buttons  # noqa: E402
from conftest import Clock  # noqa: E402




@pytest.fixture
def clock():
    return Clock()


def make(clock, keys, *, menu=24, encoder=None, put=None):
    cfg = Config(buttons=ButtonsConfig(menu=menu, enabled=True, bounce_ms=30,
                                       long_press_s=1.0, power_press_s=4.0),
                 encoder=encoder)
    return open_buttons(cfg, put or keys.append, clock=clock)


def step(buttons, clock, dt):
    clock.t += dt
    buttons.poll()


def test_each_button_maps_to_its_key(factory, clock):
    keys = []
    b = make(clock, keys)
    try:
        for bcm in (17, 27, 22, 23, 24):
            pin = factory.pin(bcm)
            pin.drive_low()
            step(b, clock, 0.05)
            pin.drive_high()
            step(b, clock, 0.05)
        assert keys == ["A", "B", "#", "*", "D"]
    finally:
        b.close()


def test_chatter_within_bounce_counts_once(factory, clock):
    keys = []
    b = make(clock, keys)
    try:
        ok = factory.pin(22)
        # Contact bounce: five edges 2 ms apart, then stable low.
        for i in range(5):
            (ok.drive_low if i % 2 == 0 else ok.drive_high)()
            step(b, clock, 0.002)
        assert keys == []            # not yet stable for 30 ms
        step(b, clock, 0.029)
        assert keys == ["#"]
        # Bouncy release, then stays released.
        for i in range(5):
            (ok.drive_high if i % 2 == 0 else ok.drive_low)()
            step(b, clock, 0.003)
        assert ok.state == 1
        step(b, clock, 0.05)
        assert keys == ["#"]
        ok.drive_low()               # and a new press counts again
        step(b, clock, 0.05)
        assert keys == ["#", "#"]
    finally:
        b.close()


def test_glitch_shorter_than_bounce_is_ignored(factory, clock):
    keys = []
    b = make(clock, keys)
    try:
        up = factory.pin(17)
        up.drive_low()
        step(b, clock, 0.01)
        up.drive_high()
        step(b, clock, 0.1)
        assert keys == []
    finally:
        b.close()


def test_two_real_presses_count_twice(factory, clock):
    keys = []
    b = make(clock, keys)
    try:
        down = factory.pin(27)
        for _ in range(2):
            down.drive_low()
            step(b, clock, 0.001)
            down.drive_high()   # one bounce
            step(b, clock, 0.001)
            down.drive_low()
            step(b, clock, 0.1)
            down.drive_high()
            step(b, clock, 0.1)
        assert keys == ["B", "B"]
    finally:
        b.close()


def test_back_short_long_and_power(factory, clock):
    keys = []
    b = make(clock, keys)
    try:
        back = factory.pin(23)
        back.drive_low()
        step(b, clock, 0.5)
        back.drive_high()
        step(b, clock, 0.05)
        assert keys == ["*"]

        back.drive_low()
        step(b, clock, 0.5)
        step(b, clock, 0.6)          # held 1.1 s
        assert keys == ["*"]         # decided only on release
        back.drive_high()
        step(b, clock, 0.05)
        assert keys == ["*", "D"]

        back.drive_low()
        for _ in range(39):
            step(b, clock, 0.1)
        assert keys == ["*", "D"]    # 3.9 s: not yet
        step(b, clock, 0.2)
        assert keys == ["*", "D", "POWER"]  # while still held
        step(b, clock, 2.0)
        back.drive_high()
        step(b, clock, 0.05)
        assert keys == ["*", "D", "POWER"]  # release after POWER adds nothing
    finally:
        b.close()


def test_menu_hold_gives_power_and_short_gives_menu(factory, clock):
    keys = []
    b = make(clock, keys)
    try:
        menu = factory.pin(24)
        menu.drive_low()
        step(b, clock, 0.05)
        menu.drive_high()
        step(b, clock, 0.05)
        menu.drive_low()
        step(b, clock, 0.05)
        step(b, clock, 4.0)
        menu.drive_high()
        step(b, clock, 0.05)
        assert keys == ["D", "POWER"]
    finally:
        b.close()


def test_menu_long_press_says_the_last_announcement_again(factory, clock):
    """MENU held long_press_s (and released before power_press_s) gives REPEAT, decided on release."""
    keys = []
    b = make(clock, keys)
    try:
        menu = factory.pin(24)
        menu.drive_low()
        step(b, clock, 0.6)
        step(b, clock, 0.6)          # held 1.2 s
        assert keys == []            # decided only on release
        menu.drive_high()
        step(b, clock, 0.05)
        assert keys == ["REPEAT"]
    finally:
        b.close()


def test_menu_null_leaves_pin_free(factory, clock):
    keys = []
    b = make(clock, keys, menu=None)
    try:
        assert "menu" not in b.switches
        from gpiozero import Button
        Button(24, pin_factory=factory).close()   # would raise GPIOPinInUse
    finally:
        b.close()


def test_button_held_at_start_is_ignored_until_released(factory, clock):
    factory.pin(22).drive_low()
    keys = []
    b = make(clock, keys)
    try:
        step(b, clock, 5.0)
        factory.pin(22).drive_high()
        step(b, clock, 0.1)
        assert keys == []
        factory.pin(22).drive_low()
        step(b, clock, 0.1)
        assert keys == ["#"]
    finally:
        b.close()


def test_exception_in_put_does_not_stop_later_presses(factory, clock):
    keys = []
    calls = []

    def put(key):
        calls.append(key)
        if len(calls) == 1:
            raise RuntimeError("queue exploded")
        keys.append(key)

    b = make(clock, keys, put=put)
    try:
        ok = factory.pin(22)
        for _ in range(3):
            ok.drive_low()
            step(b, clock, 0.05)
            ok.drive_high()
            step(b, clock, 0.05)
        assert calls == ["#", "#", "#"]
        assert keys == ["#", "#"]
        assert b.put_errors == 1
    finally:
        b.close()


def turn(a, b, clockwise):
    # Quadrature: clockwise A leads B (values 0, 2, 3, 1, 0 with active low).
    first, second = (a, b) if clockwise else (b, a)
    first.drive_low()
    second.drive_low()
    first.drive_high()
    second.drive_high()


def test_encoder_turns_and_push(factory, clock):
    keys = []
    b = make(clock, keys, encoder=EncoderConfig(a=5, b=6, push=13))
    try:
        pa, pb = factory.pin(5), factory.pin(6)
        turn(pa, pb, True)
        turn(pa, pb, True)
        turn(pa, pb, False)
        assert keys == ["B", "B", "A"]
        push = factory.pin(13)
        push.drive_low()
        step(b, clock, 0.05)
        push.drive_high()
        step(b, clock, 0.05)
        assert keys == ["B", "B", "A", "#"]
    finally:
        b.close()


def test_encoder_half_step_wiggle_is_no_turn(factory, clock):
    keys = []
    b = make(clock, keys, encoder=EncoderConfig(a=5, b=6))
    try:
        pa = factory.pin(5)
        for _ in range(5):
            pa.drive_low()
            pa.drive_high()
        assert keys == []
    finally:
        b.close()


def test_encoder_put_exception_does_not_break_callbacks(factory, clock):
    calls = []

    def put(key):
        calls.append(key)
        raise RuntimeError("boom")

    b = make(clock, [], encoder=EncoderConfig(a=5, b=6), put=put)
    try:
        turn(factory.pin(5), factory.pin(6), True)
        turn(factory.pin(5), factory.pin(6), False)
        assert calls == ["B", "A"]
    finally:
        b.close()


def test_ticker_thread_with_real_clock(factory):
    got = threading.Event()
    keys = []

    def put(key):
        keys.append(key)
        got.set()

    cfg = Config(buttons=ButtonsConfig(enabled=True, bounce_ms=10))
    b = open_buttons(cfg, put)
    b.start()
    try:
        factory.pin(17).drive_low()
        assert got.wait(2.0)
        assert keys == ["A"]
    finally:
        b.close()


def test_close_releases_pins_for_reopen(factory, clock):
    b = make(clock, [])
    b.close()
    b2 = make(clock, [])      # GPIOPinInUse if close() leaked a pin
    b2.close()


def test_buttons_wanted(monkeypatch):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    assert buttons_wanted(ButtonsConfig(enabled="auto"), on_pi=True)
    assert not buttons_wanted(ButtonsConfig(enabled="auto"), on_pi=False)
    assert buttons_wanted(ButtonsConfig(enabled=True), on_pi=False)
    assert not buttons_wanted(ButtonsConfig(enabled=False), on_pi=True)
    assert not buttons_wanted(None, on_pi=True)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    assert buttons_wanted(ButtonsConfig(enabled="auto"), on_pi=False)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "lgpio")  # the unit's setting on a Debian PC: not a Pi
    assert not buttons_wanted(ButtonsConfig(enabled="auto"), on_pi=False)


def test_auto_off_pi_opens_no_pins(factory, clock, monkeypatch):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    cfg = Config(buttons=ButtonsConfig(enabled="auto"))
    b = open_buttons(cfg, [].append, clock=clock, on_pi=False)
    try:
        assert b.switches == ()
    finally:
        b.close()


def test_lgpio_gets_a_directory_it_can_write_before_it_is_imported(monkeypatch, tmp_path):
    """lgpio makes its notification pipe in LG_WD, else in the current directory (`/` for a
    service: not writable by its user, read-only on the SD-card image), and moves there."""
    from companion.hw.platform import prepare_lgpio

    monkeypatch.delenv("LG_WD", raising=False)
    monkeypatch.setenv("RUNTIME_DIRECTORY", f"{tmp_path}:/elsewhere")
    assert prepare_lgpio() == str(tmp_path) and os.environ["LG_WD"] == str(tmp_path)
    monkeypatch.delenv("LG_WD")
    monkeypatch.delenv("RUNTIME_DIRECTORY")
    import tempfile

    assert prepare_lgpio() == tempfile.gettempdir()
    monkeypatch.setenv("LG_WD", "/given")
    assert prepare_lgpio() == "/given", "a unit's own LG_WD is kept"


def test_the_buttons_prepare_lgpio_before_gpiozero_opens_a_pin(monkeypatch):
    from gpiozero.pins.mock import MockFactory

    from companion.box.config import ButtonsConfig
    from companion.hw.buttons import Buttons

    monkeypatch.delenv("LG_WD", raising=False)
    b = Buttons(ButtonsConfig(enabled=True), None, lambda key: None, pin_factory=MockFactory())
    try:
        assert os.environ.get("LG_WD"), "set before the first pin opened"
    finally:
        b.close()
