"""The D menu's last item, "Phone view": the table page's address as text and as a QR code a
phone reads (small, error level L, alphanumeric, dark on a lit square with a quiet zone), the
"off" screen without a web service, any key back to the game, and every language fitting."""

from __future__ import annotations

import random
import shutil
import subprocess

import pytest

from companion import i18n
from companion.games import GAMES
from companion.table.phone import address_lines, fitting_scale, make_qr, phone_screen, qr_modules
from companion.table.render import HEIGHT, WIDTH, render
from companion.table.screen import MENU, PICTURE, PICTURE_QUIET, PICTURE_SIZE, TEXT, overflows
from companion.table.shell import Shell

URL = "HTTP://192.168.1.23:8080"
READ = "http://192.168.1.23:8080"


def shell(keys: str = "", url: str | None = URL) -> Shell:
    s = Shell(list(GAMES.values()), "clans", GAMES["clans"].load().new(random.Random(0)), random.Random(0))
    s.set_phone_url(url)
    for k in keys:
        s.handle(k, 0.0)
    return s


def open_phone_view(s: Shell) -> None:
    """D, then A (round to the last item), then #."""
    for k in "DA":
        s.handle(k, 0.0)
    menu = s.screen()
    assert menu.kind == MENU and menu.selected == len(menu.choices) - 1
    assert menu.choices[-1].endswith(" Phone view")
    s.handle("#", 0.0)


def test_the_code_is_small_alphanumeric_at_error_level_l():
    qr = make_qr(URL)
    assert qr.version <= 2 and qr.error == "L" and qr.mode == "alphanumeric"
    assert make_qr(READ).mode == "alphanumeric"  # the lower-case address is encoded in capitals too
    modules = qr_modules(URL)
    n = len(modules)
    assert n == 17 + 4 * qr.version and all(len(row) == n for row in modules)
    assert fitting_scale(n) == 2 and 2 * n + 2 * PICTURE_QUIET <= PICTURE_SIZE


def test_the_frame_draws_dark_modules_on_a_lit_square_with_a_quiet_zone():
    s = shell()
    open_phone_view(s)
    screen = s.screen()
    assert screen.kind == PICTURE and screen.picture_scale == 2 and overflows(screen) == []
    frame = render(screen)
    assert frame.mode == "1" and frame.size == (WIDTH, HEIGHT) == (128, 64)
    px = frame.load()
    left = WIDTH - PICTURE_SIZE
    dark = [(x, y) for x in range(left, WIDTH) for y in range(HEIGHT) if not px[x, y]]
    x0, y0 = min(x for x, _ in dark), min(y for _, y in dark)
    x1, y1 = max(x for x, _ in dark), max(y for _, y in dark)
    modules = qr_modules(URL)
    n = len(modules)
    assert (x1 - x0 + 1, y1 - y0 + 1) == (2 * n, 2 * n)  # the finder patterns mark the code's corners
    assert min(x0 - left, y0, WIDTH - 1 - x1, HEIGHT - 1 - y1) >= PICTURE_QUIET
    for y in range(HEIGHT):  # everything of the square outside the code is lit
        for x in range(left, WIDTH):
            inside = x0 <= x <= x1 and y0 <= y <= y1
            expected = not modules[(y - y0) // 2][(x - x0) // 2] if inside else True
            assert bool(px[x, y]) == expected, (x, y)


def test_a_phone_reader_reads_the_rendered_frame(tmp_path):
    zbarimg = shutil.which("zbarimg")
    if zbarimg is None:
        pytest.skip("zbarimg not installed (Debian package zbar-tools): the decoder check needs it")
    s = shell()
    open_phone_view(s)
    frame = render(s.screen())
    big, small = tmp_path / "phone-4x.png", tmp_path / "phone-1x.png"
    frame.resize((4 * WIDTH, 4 * HEIGHT), 0).save(big)  # 0: Image.NEAREST
    frame.save(small)
    for path in (big, small):  # zbar reads the OLED's own 1x frame too
        done = subprocess.run([zbarimg, "--raw", "-q", str(path)], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0 and done.stdout.strip() == URL, (path.name, done.stdout, done.stderr)


def test_the_address_is_written_in_lower_case_over_sensible_lines():
    assert address_lines(URL) == ["http://", "192.168.1.23", ":8080"]
    assert address_lines("HTTP://COMPANION.LOCAL:8080/") == ["http://", "companion.", "local:8080/"]
    assert all(len(line) <= 12 for line in address_lines("HTTP://" + "X" * 30 + "/TABLE"))
    s = shell()
    open_phone_view(s)
    screen = s.screen()
    assert screen.name == "phone" and screen.title == "Phone view"
    assert screen.lines == ("http://", "192.168.1.23", ":8080")
    assert READ in screen.text()


def test_a_long_address_falls_back_to_one_pixel_then_to_text_only():
    medium = "HTTP://" + "A" * 200
    assert fitting_scale(len(qr_modules(medium))) == 1
    screen = phone_screen(medium)
    assert screen.picture_scale == 1 and screen.picture is not None
    assert [p for p in overflows(screen) if p.startswith("picture")] == []
    render(screen)
    huge = "HTTP://" + "A" * 600
    assert len(qr_modules(huge)) > PICTURE_SIZE - 2 * PICTURE_QUIET
    screen = phone_screen(huge)
    assert screen.picture is None and huge.lower() in screen.text()
    square = render(screen).crop((WIDTH - PICTURE_SIZE, 0, WIDTH, HEIGHT))
    assert square.convert("L").histogram()[0] == 0  # a plain lit square, no code
    assert qr_modules("HTTP://" + "A" * 5000) == []  # past version 40: no code at all


def test_any_key_goes_back_to_the_game():
    for key in ("5", "#", "*", "A", "D"):
        s = shell()
        before = s.screen()
        open_phone_view(s)
        assert s.screen().name == "phone"
        s.handle(key, 0.0)
        assert s.screen() == before, key  # the key only dismissed it (D does not open the menu)
        assert s.pop_effects() == []


def test_without_a_web_service_the_view_says_it_is_off_and_how_to_turn_it_on():
    s = shell(url=None)
    assert s.phone_url is None
    open_phone_view(s)
    screen = s.screen()
    assert screen.kind == TEXT and screen.name == "phone-off" and screen.title == "Phone view"
    assert "Phone view is off." in screen.text() and "README: Phone view" in " ".join(screen.lines)
    assert overflows(screen) == []


def test_a_new_address_shows_at_once_while_the_view_is_open():
    s = shell(url=None)
    open_phone_view(s)
    s.set_phone_url(URL)
    assert s.screen().name == "phone" and READ in s.screen().text()
    s.set_phone_url("HTTP://10.0.0.7:8080")
    assert "http://10.0.0.7:8080" in s.screen().text() and READ not in s.screen().text()
    assert make_qr("HTTP://10.0.0.7:8080").matrix == make_qr(s.phone_url).matrix
    assert s.screen().picture == tuple("".join("1" if m else "0" for m in row)
                                       for row in qr_modules("HTTP://10.0.0.7:8080"))
    s.set_phone_url(None)
    assert s.screen().name == "phone-off"
    s.handle("1", 0.0)
    assert s.screen().name != "phone-off"


def test_a_message_of_the_table_replaces_the_view():
    s = shell()
    open_phone_view(s)
    s.tell("Cannot save", ["Storage full."], "unsaved")
    assert s.screen().name == "unsaved"
    s.handle("5", 0.0)
    assert s.screen().name not in ("unsaved", "phone")


@pytest.mark.parametrize("code", i18n.LANGUAGES)
def test_the_view_and_its_menu_item_fit_in_every_language(code):
    try:
        i18n.set_language(code)
        for url in (URL, "HTTP://192.168.100.123:18080", None):
            s = shell(url=url)
            for k in "DA":
                s.handle(k, 0.0)
            menu = s.screen()
            assert overflows(menu) == [], menu.choices[-1]
            s.handle("#", 0.0)
            screen = s.screen()
            assert screen.name == ("phone" if url else "phone-off")
            assert overflows(screen) == [], screen.text()
            assert (screen.title == "Phone view") == (code == "en")
            render(screen)
    finally:
        i18n.set_language("en")
