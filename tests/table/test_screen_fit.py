"""What a screen cannot show is found before a player sees it: `overflows` names every clipped
text, words are never cut in the middle, a menu shows arrows when items lie above or below,
and # pages a long message forward before it closes it."""

from __future__ import annotations

from companion.table import keys as K
from companion.table.info import InfoPager
from companion.table.render import render
from companion.table.screen import ENTRY, MENU, Header, Screen, overflows, text_screen, wrap


def test_words_are_never_broken_and_a_long_one_is_reported():
    assert wrap(["Siedlungsreihenfolgebestimmung ist lang"]) == ["Siedlungsreihenfolgebestimmung", "ist lang"]
    s = text_screen("x", "Titel", ["Siedlungsreihenfolgebestimmung ist lang"])
    assert [p.split(" (")[0] for p in overflows(s)] == ["line"]


def test_lines_past_the_last_row_and_long_titles_are_reported():
    s = text_screen("x", "A title of exactly 26 chrs", ["word " * 40], entry="> 1")
    problems = overflows(s)
    assert any(p.startswith("title") for p in problems)
    assert any("past the last row" in p for p in problems)
    assert overflows(text_screen("x", "Fine", ["short"])) == []
    paged = Screen("text", "x", "T" * 22, ("a",), page=0, pages=2)  # "1/2" takes 4 of the 25 columns
    assert overflows(paged) and not overflows(Screen("text", "x", "T" * 21, ("a",), page=0, pages=2))


def test_entry_header_columns_and_menu_choices():
    h = Header("P1 to move", "Ep I 4 left", "+1 forest  X steppe", (("red", "0"), ("blu", "0"), ("grn", "0"),
                                                                   ("yel", "0"), ("blk", "0")))
    assert overflows(Screen(ENTRY, "e", header=h, entry="> 12_", hint="#=ok *=back")) == []
    wide = Header("P1 to move", "Ep I 4 left", "", (("rouge", "0"), ("bleu!!", "0")))
    assert overflows(Screen(ENTRY, "e", header=wide)) == []  # 2 columns: 12 characters each
    wide = Header("P1 to move", "Ep I 4 left", "", tuple((c, "0") for c in ("rouge", "bleu", "vert", "jaune", "noir!")))
    assert overflows(Screen(ENTRY, "e", header=wide)) == []
    wide = Header("P1 to move", "Ep I 4 left", "", tuple((c, "0") for c in ("rouges", "b", "v", "j", "n")))
    assert overflows(Screen(ENTRY, "e", header=wide)) != []
    menu = Screen(MENU, "m", "Menu", choices=tuple(f"{i} " + "x" * 21 for i in range(1, 4)))
    assert overflows(menu) == []  # 23 columns when the list does not scroll
    menu = Screen(MENU, "m", "Menu", choices=tuple(f"{i} " + "x" * 21 for i in range(1, 9)))
    assert len(overflows(menu)) == 8  # a scrolling list keeps a column for its arrows


def _lit(image, box) -> int:
    return image.crop(box).convert("L").histogram()[255]


def test_a_menu_shows_that_more_items_lie_below_and_above():
    choices = tuple(f"{i} item" for i in range(1, 10))
    top = render(Screen(MENU, "m", "Menu", choices=choices, selected=1))
    bottom = render(Screen(MENU, "m", "Menu", choices=choices, selected=8))
    short = render(Screen(MENU, "m", "Menu", choices=choices[:3], selected=1))
    margin_low, margin_high = (122, 56, 128, 64), (122, 8, 128, 16)  # the arrows: pages 7 and 1
    assert _lit(top, margin_low) > 0 and _lit(top, margin_high) == 0  # v: more below
    assert _lit(bottom, margin_high) > 0 and _lit(bottom, margin_low) >= 40  # ^, last row highlighted
    assert _lit(short, margin_low) == 0 and _lit(short, margin_high) == 0


def test_ok_pages_a_long_message_forward_and_closes_it_on_the_last_page():
    pager = InfoPager()
    pager.show("Help", ["word " * 100], "help")
    pages = len(pager.pages)
    assert pages >= 3
    for page in range(1, pages):
        assert pager.key(K.OK, ()) is True and pager.page == page
    assert pager.key(K.OK, (K.OK,)) is True and not pager.shown
    pager.show("Help", ["word " * 100], "help")
    assert pager.key("5", ()) is False and not pager.shown  # a digit dismisses and goes on to the game


def test_one_rule_moves_the_highlight_of_every_list():
    assert [K.select(k, 0, 5) for k in ("A", "B", "3", "0", "6", "#")] == [4, 1, 2, None, None, None]
    assert K.select("A", 0, 5, wrap=False) == 0 and K.select("B", 4, 5, wrap=False) == 4
