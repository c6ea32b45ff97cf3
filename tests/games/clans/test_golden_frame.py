"""The entry frame of the spec's in-progress record, pixel for pixel (tests/games/clans/golden)."""

from __future__ import annotations

import os
from pathlib import Path

from PIL import Image

from companion.games.clans.controller import Controller
from companion.games.clans.record import Record
from companion.table.render import render
from conftest import example_dir

GOLDEN = Path(__file__).resolve().parent / "golden"


def test_golden_entry_frame_of_the_in_progress_record():
    c = Controller.from_record(Record.load(example_dir() / "in-progress.record.json"))
    for k in "12#1":
        c.handle(k, 0)
    img = render(c.screen())
    path = GOLDEN / "entry-in-progress.png"
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        img.save(path, optimize=True)
    assert img.tobytes() == Image.open(path).convert("1").tobytes()
