"""The menu's New PIN: a random 10-digit PIN shown big on the panel, written where the page reads
it (`web-pin` in the state directory, 0600), taken by a running page at once: the old PIN and
its sessions stop working, the new one gets in, also after the page restarts.

End to end: the daemon as `companion run --state-dir DIR` builds it, driven key by key, and a
real `companion web --state-dir DIR --pin-file F` seen from outside over HTTP.
"""

from __future__ import annotations

import errno
import logging
import os
import stat

import pytest

from companion import i18n
from companion.hw.keyevents import PhoneUrl
from companion.table.effects import NewPin
from companion.table.pagelink import PIN_FILE
from companion.table.screen import MENU_COLS, overflows
from companion.table.shell import PIN_DIGITS, make_pin, pin_groups
from companion.web import guard
from companion.web.pinfile import PinSource
from tests.web.realweb import RealWeb, post_json, raw_request, wait_until
from tests.web.webtools import table

OLD_PIN = "471147"  # six digits, as an older box may have
URL = "HTTP://127.0.0.1:8080"


def to_new_pin(d) -> None:
    """D, A (round to Phone view, the last item), A (New PIN), #."""
    for key in "DAA#":
        d.step(key)


def test_new_pin_is_in_the_menu_only_while_the_page_runs(tmp_path):
    d = table(tmp_path / "state", "--players", "3", "--seed", "7")
    d.step("D")
    assert "New PIN" not in d.shell.screen().text()
    d.step("D")
    d.page_event(PhoneUrl(URL))
    d.step("D")
    choices = d.shell.screen().choices
    assert choices[-2].endswith("New PIN") and choices[-1].endswith("Phone view"), choices
    d.step("D")
    d.page_event(PhoneUrl(None))
    d.step("D")
    assert "New PIN" not in d.shell.screen().text()


def test_new_pin_asks_first_then_shows_ten_digits_big_until_a_key_and_writes_them(tmp_path, caplog):
    state_dir = tmp_path / "state"
    d = table(state_dir, "--players", "3", "--seed", "7")
    d.page_event(PhoneUrl(URL))
    to_new_pin(d)
    assert d.shell.screen().name == "new-pin?" and d.shell.screen().confirm
    d.step("*")  # no: nothing made
    assert not (state_dir / PIN_FILE).exists() and d.shell.screen().name != "new-pin"
    caplog.set_level(logging.DEBUG)
    to_new_pin(d)
    d.step("#")
    screen = d.shell.screen()
    pin = (state_dir / PIN_FILE).read_text().strip()
    assert screen.name == "new-pin" and screen.kind == "entry"  # the entry line: 9x15 bold digits
    assert len(pin) == PIN_DIGITS and pin.isdigit() and screen.entry == f"{pin[:5]} {pin[5:]}"
    assert stat.S_IMODE(os.stat(state_dir / PIN_FILE).st_mode) == 0o600
    assert pin not in caplog.text and "web-pin" in caplog.text  # never logged
    assert pin not in repr(NewPin(pin))
    game_screen = d.shell.game.screen().name
    d.step("5")  # any key: gone, and the key does nothing else
    assert d.shell.screen().name == game_screen


def test_a_pin_that_cannot_be_written_is_said_and_the_old_one_stays(tmp_path, monkeypatch):
    state_dir = tmp_path / "state"
    d = table(state_dir, "--players", "3", "--seed", "7")
    d.page_event(PhoneUrl(URL))

    def full(*_a, **_k):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("companion.util.fsutil.atomic_write_text", full)
    to_new_pin(d)
    d.step("#")
    screen = d.shell.screen()
    assert screen.name == "pin-not-saved" and "No space left" in screen.text() and "old PIN" in screen.text()
    assert not (state_dir / PIN_FILE).exists()


def test_pins_are_random_ten_digits_in_two_groups():
    pins = {make_pin() for _ in range(200)}
    assert len(pins) == 200 and all(len(p) == 10 and p.isdigit() for p in pins)
    assert PIN_DIGITS == guard.PIN_DIGITS
    assert pin_groups("1234567890") == "12345 67890"


@pytest.mark.parametrize("code", i18n.LANGUAGES)
def test_the_new_pin_screens_fit_in_every_language(tmp_path, code):
    d = table(tmp_path / "state", "--players", "3", "--seed", "7")
    d.page_event(PhoneUrl(URL))
    i18n.set_language(code)
    try:
        d.step("D")
        assert all(len(c) <= MENU_COLS - 1 for c in d.shell.screen().choices), d.shell.screen().choices
        d.step("A")
        d.step("A")
        d.step("#")
        screens = [d.shell.screen()]
        d.step("#")
        screens.append(d.shell.screen())
        d.shell.tell(i18n._("New PIN"), [__import__("companion.table.texts", fromlist=["x"]).pin_not_saved(
            "No space left on device")], "pin-not-saved")
        screens.append(d.shell.screen())
        assert [s.name for s in screens] == ["new-pin?", "new-pin", "pin-not-saved"]
        assert [p for s in screens for p in overflows(s)] == []
    finally:
        i18n.set_language("en")


def test_the_page_fails_closed_on_a_broken_pin_file_and_falls_back_when_it_is_gone(tmp_path):
    state_dir = tmp_path / "state"
    state_dir.mkdir()
    (tmp_path / "pin").write_text(OLD_PIN)
    pins = PinSource(state_dir, str(tmp_path / "pin"))
    g = guard.PinGuard(pins.read()[0])
    assert g.pin == OLD_PIN
    (state_dir / PIN_FILE).write_text("12ab")
    assert pins.moved()
    pins.follow(g)
    assert g.pin is None and g.refused("x").status == 403
    (state_dir / PIN_FILE).write_text("1234567890")
    assert pins.moved()
    pins.follow(g)
    assert g.pin == "1234567890"
    (state_dir / PIN_FILE).unlink()
    assert pins.moved()
    pins.follow(g)
    assert g.pin == OLD_PIN
    assert not pins.moved()


def _login(port: int, pin: str, source: str) -> tuple[int, str | None, str | None]:
    status, headers, answer = post_json(port, "/api/login", {"pin": pin}, source=source, timeout=30)
    cookie = headers.get("set-cookie", "").split(";", 1)[0] or None
    return status, cookie, answer.get("csrf") if isinstance(answer, dict) else None


def _keys(port: int, cookie: str, csrf: str) -> int:
    return post_json(port, "/api/keys", {"keys": "1"}, headers={"Cookie": cookie, "X-CSRF-Token": csrf})[0]


def test_a_new_pin_from_the_menu_ends_the_old_pin_and_its_sessions_in_a_running_page(tmp_path):
    state_dir = tmp_path / "state"
    d = table(state_dir, "--players", "3", "--seed", "7")  # the daemon, its journal open
    (tmp_path / "pin").write_text(OLD_PIN + "\n")
    with RealWeb(state_dir, "--pin-file", str(tmp_path / "pin")) as web:
        status, cookie, csrf = _login(web.port, OLD_PIN, "127.0.0.2")
        assert status == 200 and cookie and csrf
        assert _keys(web.port, cookie, csrf) == 503  # logged in (no daemon socket in this test)
        d.page_event(PhoneUrl(f"HTTP://127.0.0.1:{web.port}"))
        to_new_pin(d)
        d.step("#")
        pin = d.shell.pin_shown
        assert pin and (state_dir / PIN_FILE).read_text().strip() == pin
        wait_until("the old session ended", lambda: _keys(web.port, cookie, csrf) == 403, timeout=10)
        assert _login(web.port, OLD_PIN, "127.0.0.3")[0] == 403
        status, cookie, csrf = _login(web.port, pin, "127.0.0.4")
        assert status == 200 and _keys(web.port, cookie, csrf) == 503
        assert f"the PIN in {state_dir / PIN_FILE} is in force" in web.log()
    log = web.log()
    assert pin not in log and log.count("has 6 digits") == 1, log  # the old PIN's warning, at start only
    with RealWeb(state_dir, "--pin-file", str(tmp_path / "pin")) as again:  # the box's PIN outlives a restart
        assert _login(again.port, pin, "127.0.0.5")[0] == 200
        assert _login(again.port, OLD_PIN, "127.0.0.6")[0] == 403
        assert raw_request(again.port, "GET", "/api/state")[0] == 200
    assert "digits" not in again.log() and str(state_dir / PIN_FILE) in again.log()
