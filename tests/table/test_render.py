"""The renderer: 128x64 1-bit frames at real font sizes that show what matters, for screens of no game in
particular (every game's screens are checked to fit in tests/games/test_conformance.py)."""

from __future__ import annotations

from PIL import Image, ImageChops

from companion.table import screen as S
from companion.table.render import HEIGHT, WIDTH, font, render



def header(scores=(12, 6, 0, 6, 0)) -> S.Header:
    return S.Header("P2 to move", "Ep II 3 left", "+2 mountain  X grassland",
                    tuple(zip(("red", "blu", "grn", "yel", "blk"), map(str, scores))))


def lit(img: Image.Image, box: tuple[int, int, int, int]) -> int:
    return sum(1 for p in img.crop(box).convert("L").tobytes() if p)


def test_fonts_are_bitmaps_at_their_real_size():
    assert font("5x8").getbbox("Ag")[3] <= 8
    assert font("5x8").getlength("W") == 5 and font("5x8").getlength("i") == 5  # fixed width
    assert font("9x15B").getlength("1") == 9


def test_entry_screen_layout():
    img = render(S.Screen(S.ENTRY, "entry", entry="12 -> 1_", hint="to: 13 14 16", header=header()))
    assert img.mode == "1" and img.size == (WIDTH, HEIGHT)
    assert lit(img, (0, 0, 128, 1)) > 120  # inverted status bar
    assert lit(img, (0, 35, 128, 50)) > 60  # the big entry line
    assert lit(img, (0, 56, 128, 64)) > 10  # the hint
    other = render(S.Screen(S.ENTRY, "entry", entry="12 -> 1_", hint="to: 13 14 16", header=header((13, 6, 0, 6, 0))))
    assert other.tobytes() != img.tobytes()  # scores are drawn


def test_text_screen_with_pages_and_entry():
    s = S.Screen(S.TEXT, "order", "P1: which village next?", ("a", "b", "c", "d"), entry="> 2_")
    img = render(s)
    assert lit(img, (0, 56, 60, 64)) > 0  # the input line: the last row
    paged = render(S.Screen(S.TEXT, "x", "Title", ("x",), page=1, pages=3))
    assert lit(paged, (100, 0, 128, 8)) < lit(render(S.Screen(S.TEXT, "x", "Title", ("x",))), (100, 0, 128, 8))


def test_menu_highlight_follows_selection_and_scrolls():
    choices = tuple(f"{i} item" for i in range(1, 7))
    top = render(S.Screen(S.MENU, "menu", "Menu", choices=choices, selected=0))
    assert lit(top, (0, 8, 128, 9)) == 128  # row 1 inverted (page 1's top pixel row)
    bottom = render(S.Screen(S.MENU, "menu", "Menu", choices=choices + ("7 item", "8 item"), selected=7))
    assert lit(bottom, (0, 56, 128, 57)) == 128  # last visible row (page 7) inverted after scrolling
    assert lit(bottom, (0, 8, 128, 9)) < 128


def test_header_columns_are_evenly_spaced_and_centred():
    img = render(S.Screen(S.ENTRY, "entry", header=S.Header("x", columns=(("a", "1"), ("b", "2")))))
    # two columns of 64 px: centres at 33 and 97 (labels in page 2, values in page 3)
    assert lit(img, (28, 16, 38, 32)) > 0 and lit(img, (92, 16, 102, 32)) > 0 and lit(img, (40, 16, 90, 32)) == 0


def ink_rows(img: Image.Image) -> set[int]:
    return {y for y in range(HEIGHT) if lit(img, (0, y, WIDTH, y + 1))}


def test_every_text_and_menu_row_sits_in_one_page_of_the_panel():
    """A changed line costs the bus one 8-pixel page (companion.hw.oled_window), not two."""
    tall = "ÀÉgjpqy|"  # accents reach the cell's top row, descenders its bottom one
    for row in range(S.BODY_ROWS):
        lines = tuple(tall if i == row else "" for i in range(S.BODY_ROWS))
        page = set(range(8 * (row + 1), 8 * (row + 2)))
        assert ink_rows(render(S.Screen(S.TEXT, "t", lines=lines))) - set(range(8)) <= page
    entry = render(S.Screen(S.TEXT, "t", lines=(), entry=tall))
    assert ink_rows(entry) - set(range(8)) <= set(range(56, 64))
    for selected in range(S.BODY_ROWS - 1):  # a menu with a hint: rows in pages 1-6, the hint in 7
        menu = render(S.Screen(S.MENU, "m", choices=("1 x", "2 y", "3 z", "4 w", "5 v", "6 u"), selected=selected,
                               hint=tall))
        marked = {y for y in range(8, 64) if lit(menu, (0, y, 1, y + 1))}
        assert marked == set(range(8 * (selected + 1), 8 * (selected + 2)))
        assert lit(menu, (0, 56, WIDTH, 64)) > 0  # the hint, in page 7
    assert ink_rows(render(S.Screen(S.TEXT, "t", "Title " + tall))) == set(range(8))  # the title bar: page 0


def test_entry_header_rows_each_sit_in_one_page():
    line_only = render(S.Screen(S.ENTRY, "entry", header=S.Header("P1 to move", "Ep I", "gjpqy ÀÉ")))
    assert ink_rows(line_only) - set(range(8)) <= set(range(8, 16)) | {33}  # the header line: page 1; the rule
    img = render(S.Screen(S.ENTRY, "entry", header=header()))
    columns = changed_rows(render(S.Screen(S.ENTRY, "entry", header=S.Header("P2 to move", "Ep II 3 left",
                                                                             "+2 mountain  X grassland"))), img)
    assert columns and columns <= set(range(16, 32))  # labels and values: pages 2 and 3
    typed = changed_rows(img, render(S.Screen(S.ENTRY, "entry", entry="12 -> 1_", header=header())))
    # the typed move in pages 4 and 5 with a pixel spare each way: shifted a pixel, still there
    assert typed and min(typed) >= 33 and max(typed) <= 46


def changed_rows(a: Image.Image, b: Image.Image) -> set[int]:
    return ink_rows(ImageChops.logical_xor(a, b))


# ----- any text draws: what the fonts lack in Latin letters, else "?" (issue 31) ----------------------
def test_what_the_fonts_lack_is_drawn_in_latin_letters_or_as_a_question_mark():
    from companion.table.render import MAX_DRAWN, drawable

    assert drawable("Zoë Ñandú ß ¿?") == "Zoë Ñandú ß ¿?"  # Latin-1's printable characters: as they are
    assert drawable("Łukasz") == "Lukasz" and drawable("שלום") == "slvm" and drawable("Ana😀") == "Ana:grinning:"
    assert drawable("北京") == "BeiJing" and drawable("€5") == "EUR5"
    assert drawable("q\u0307") == "q"  # a combining mark with no Latin form: its letter shows
    assert drawable("a\x00b\nc\td\x85") == "a?b?c?d?"  # controls: "?" (a newline never starts a second row)
    assert drawable("\u202eAnna\u200b") == "?Anna?" and drawable("\ud800\ue000\U0004abcd") == "???"
    assert drawable("x" * 100_000) == "x" * MAX_DRAWN


def test_a_name_the_font_lacks_draws_as_its_latin_letters():
    for kind in (S.MENU, S.TEXT):
        shown = render(S.Screen(kind, "names", "Who is P1?", ("1 Łukasz",), choices=("1 Łukasz", "2 Guest")))
        latin = render(S.Screen(kind, "names", "Who is P1?", ("1 Lukasz",), choices=("1 Lukasz", "2 Guest")))
        assert shown.tobytes() == latin.tobytes()
    for kind in (S.TEXT, S.PICTURE):  # a title cut to its room in what is drawn: the page number stays clear
        long = render(S.Screen(kind, "t", "Ana😀" * 6, ("x",), page=0, pages=2, picture=("1",)))
        assert long.tobytes() == render(S.Screen(kind, "t", "Ana:grinning:" * 6, ("x",), page=0, pages=2,
                                                 picture=("1",))).tobytes()
    bar = render(S.Screen(S.ENTRY, "entry", header=S.Header("Ana😀 to move", "Ep I €")))
    assert bar.tobytes() == render(S.Screen(S.ENTRY, "entry", header=S.Header("Ana:grinning: to move",
                                                                              "Ep I EUR"))).tobytes()


def test_without_anyascii_a_letter_loses_its_marks_and_the_rest_is_a_question_mark(monkeypatch):
    import sys

    from companion.table import render as R

    monkeypatch.setitem(sys.modules, "anyascii", None)  # an old venv, upgraded without `pip install`
    R._latin.cache_clear()
    try:
        assert R.drawable("Łőd😀") == "?od?"
        assert render(S.Screen(S.MENU, "names", "Who is P1?", choices=("1 Łőd😀",))).size == (WIDTH, HEIGHT)
    finally:
        R._latin.cache_clear()
