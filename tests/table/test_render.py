"""The renderer: every screen fits a 128x64 1-bit frame, at real font sizes, and shows what matters."""

from __future__ import annotations

import os
import random
from pathlib import Path

from hypothesis import given, settings, strategies as st
from PIL import Image

from companion.table import screen as S
from companion.games.clans.controller import Controller
from companion.table.render import HEIGHT, WIDTH, font, render
from companion.games.clans.record import Record
from conftest import example_dir

EXAMPLES = example_dir()
GOLDEN = Path(__file__).resolve().parent / "golden"


def status(**kw) -> S.Status:
    base = dict(player=1, epoch=2, chips_left=3, favorable="mountain", bonus=2, hostile="grassland",
                scores=(12, 6, 0, 6, 0))
    base.update(kw)
    return S.Status(**base)


def lit(img: Image.Image, box: tuple[int, int, int, int]) -> int:
    return sum(1 for p in img.crop(box).convert("L").tobytes() if p)


def test_fonts_are_bitmaps_at_their_real_size():
    assert font("5x8").getbbox("Ag")[3] <= 8
    assert font("6x10").getbbox("Ag")[3] <= 10
    assert font("6x10").getlength("W") == 6 and font("5x8").getlength("i") == 5  # fixed width


def test_entry_screen_layout():
    img = render(S.Screen(S.ENTRY, "entry", entry="12 -> 1_", hint="to: 13 14 16", status=status()))
    assert img.mode == "1" and img.size == (WIDTH, HEIGHT)
    assert lit(img, (0, 0, 128, 1)) > 120  # inverted status bar
    assert lit(img, (0, 39, 128, 54)) > 60  # the big entry line
    assert lit(img, (0, 56, 128, 64)) > 10  # the hint
    other = render(S.Screen(S.ENTRY, "entry", entry="12 -> 1_", hint="to: 13 14 16", status=status(scores=(13, 6, 0, 6, 0))))
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


def screens_of_a_storm(seed: int, keys: list[str]) -> list[S.Screen]:
    c = Controller(random.Random(seed))
    out = []
    for k in ["2", "#", "#"] + ["#"] * 13 + keys:
        c.handle(k, 0.0)
        out.append(c.screen())
    return out


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 999), keys=st.lists(st.sampled_from(list("0123456789#*ABCD")), max_size=300))
def test_every_screen_fits(seed, keys):
    for s in screens_of_a_storm(seed, keys):
        assert len(s.title) <= 25 - (len(f"{s.page + 1}/{s.pages}") + 1 if s.pages > 1 else 0), s.title
        assert all(len(line) <= S.BODY_COLS for line in s.lines), s.lines
        assert len(s.lines) <= S.BODY_ROWS - (1 if s.entry is not None and s.kind == S.TEXT else 0)
        assert len(s.hint) <= 25, s.hint
        if s.kind == S.ENTRY:
            assert len(s.entry) <= 14
        elif s.entry is not None:
            assert len(s.entry) <= S.BODY_COLS
        assert all(len(ch) <= S.BODY_COLS for ch in s.choices)
        img = render(s)
        assert img.size == (128, 64) and img.mode == "1"


def test_golden_entry_frame_of_the_in_progress_record():
    c = Controller.from_record(Record.load(EXAMPLES / "in-progress.record.json"))
    for k in "12#1":
        c.handle(k, 0)
    img = render(c.screen())
    path = GOLDEN / "entry-in-progress.png"
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        img.save(path, optimize=True)
    assert img.tobytes() == Image.open(path).convert("1").tobytes()
