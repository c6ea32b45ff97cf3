"""The screenshot gallery is made by the program itself: the command writes every key screen."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from PIL import Image

TOOL = Path(__file__).resolve().parents[2] / "tools" / "gallery.py"


def test_gallery_writes_every_key_screen(tmp_path):
    spec = importlib.util.spec_from_file_location("gallery", TOOL)
    gallery = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gallery)
    assert gallery.main([str(tmp_path), "--scale", "1"]) == 0
    names = {p.stem.split("-", 1)[1] for p in tmp_path.glob("*.png")}
    for screen in ("players", "setup-region", "entry", "illegal", "result", "undo", "village", "order", "reveal",
                   "final", "menu", "huts", "bots", "deal", "bot-move", "hint", "new-tribes", "phase-animals",
                   "phase-survival", "books"):
        assert screen in names, f"the gallery lacks {screen}"
    frame = Image.open(next(tmp_path.glob("*-entry.png")))
    assert frame.size == (128, 64) and frame.getbbox() is not None  # drawn, not blank
