"""The renderer: 128x64 1-bit frames at real font sizes that show what matters, for screens of no game in
particular (every game's screens are checked to fit in tests/games/test_conformance.py)."""

from __future__ import annotations

from PIL import Image

from companion.table import screen as S
from companion.table.render import HEIGHT, WIDTH, font, render



def header(scores=(12, 6, 0, 6, 0)) -> S.Header:
    return S.Header("P2 to move", "Ep II 3 left", "+2 mountain  X grassland",
                    tuple(zip(("red", "blu", "grn", "yel", "blk"), map(str, scores))))


def lit(img: Image.Image, box: tuple[int, int, int, int]) -> int:
    return sum(1 for p in img.crop(box).convert("L").tobytes() if p)


def test_fonts_are_bitmaps_at_their_real_size():
    assert font("5x8").getbbox("Ag")[3] <= 8
    assert font("6x10").getbbox("Ag")[3] <= 10
    assert font("6x10").getlength("W") == 6 and font("5x8").getlength("i") == 5  # fixed width


def test_entry_screen_layout():
    img = render(S.Screen(S.ENTRY, "entry", entry="12 -> 1_", hint="to: 13 14 16", header=header()))
    assert img.mode == "1" and img.size == (WIDTH, HEIGHT)
    assert lit(img, (0, 0, 128, 1)) > 120  # inverted status bar
    assert lit(img, (0, 39, 128, 54)) > 60  # the big entry line
    assert lit(img, (0, 56, 128, 64)) > 10  # the hint
    other = render(S.Screen(S.ENTRY, "entry", entry="12 -> 1_", hint="to: 13 14 16", header=header((13, 6, 0, 6, 0))))
    assert other.tobytes() != img.tobytes()  # scores are drawn


def test_text_screen_with_pages_and_entry():
    s = S.Screen(S.TEXT, "order", "P1: which village next?", ("a", "b", "c", "d"), entry="> 2_")
    img = render(s)
    assert lit(img, (0, 53, 60, 63)) > 0
    paged = render(S.Screen(S.TEXT, "x", "Title", ("x",), page=1, pages=3))
    assert lit(paged, (100, 1, 128, 8)) < lit(render(S.Screen(S.TEXT, "x", "Title", ("x",))), (100, 1, 128, 8))


def test_menu_highlight_follows_selection_and_scrolls():
    choices = tuple(f"{i} item" for i in range(1, 7))
    top = render(S.Screen(S.MENU, "menu", "Menu", choices=choices, selected=0))
    assert lit(top, (0, 10, 128, 11)) == 128  # row 1 inverted
    bottom = render(S.Screen(S.MENU, "menu", "Menu", choices=choices, selected=5))
    assert lit(bottom, (0, 50, 128, 51)) == 128  # last visible row inverted after scrolling


def test_header_columns_are_evenly_spaced_and_centred():
    img = render(S.Screen(S.ENTRY, "entry", header=S.Header("x", columns=(("a", "1"), ("b", "2")))))
    # two columns of 64 px: centres at 33 and 97
    assert lit(img, (28, 19, 38, 36)) > 0 and lit(img, (92, 19, 102, 36)) > 0 and lit(img, (40, 19, 90, 36)) == 0
