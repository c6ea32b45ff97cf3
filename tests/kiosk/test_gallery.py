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
                   "phase-survival", "books", "clan-cards"):
        assert screen in names, f"the gallery lacks {screen}"
    frame = Image.open(next(tmp_path.glob("*-entry.png")))
    assert frame.size == (128, 64) and frame.getbbox() is not None  # drawn, not blank


def _tool():
    spec = importlib.util.spec_from_file_location("gallery", TOOL)
    gallery = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gallery)
    return gallery


GUIDE = TOOL.parents[1] / "docs" / "playing.md"  # the table's guide holds the gallery (README links to it)


def test_the_guide_holds_the_gallery_of_the_committed_frames():
    """docs/playing.md's gallery is what `--readme docs/playing.md` writes for docs/screens/,
    its images linked from docs/ (screens/en/...), and its documented command names that file."""
    gallery = _tool()
    text = GUIDE.read_text()
    assert "--readme docs/playing.md" in text
    block = text.split(gallery.START + "\n", 1)[1].split("\n" + gallery.END, 1)[0]
    expected = gallery.markdown(GUIDE.parent / "screens", GUIDE.resolve(), gallery.i18n.LANGUAGES)
    assert block == expected
    assert "](screens/en/06-entry.png)" in block and "docs/screens" not in block
    readme = (TOOL.parents[1] / "README.md").read_text()
    assert gallery.START not in readme and "](docs/playing.md)" in readme


def test_readme_option_rewrites_the_gallery_between_the_markers(tmp_path):
    gallery = _tool()
    guide = tmp_path / "docs" / "guide.md"
    (tmp_path / "docs" / "screens" / "en").mkdir(parents=True)
    Image.new("1", (128, 64)).save(tmp_path / "docs" / "screens" / "en" / "01-players.png")
    guide.write_text(f"# Guide\n\n{gallery.START}\nold\n{gallery.END}\n\nafter\n")
    gallery.update_readme(guide, gallery.markdown(tmp_path / "docs" / "screens" / "en", guide.resolve(), ("en",)))
    text = guide.read_text()
    assert "old" not in text and "](screens/en/01-players.png)<br>players" in text and text.endswith("after\n")
