"""Which bytes the box runs (companion.box.about): the image's version file read, shown by the
menu's About item and at the foot of every page; a box without the image says so."""

from __future__ import annotations

import random

from tests.games.counter_game.game import Counter

from companion import __version__, i18n
from companion.box.about import About, about_line, about_paragraphs, read_about
from companion.table.protocol import GameType
from companion.table.shell import Shell
from companion.web import pages

CATALOG = [GameType("counter", "Counter", "Counter", "counter_game.game")]
WRITTEN = "IMAGE_VERSION=0.1.0-1a2b3c4d5e6f\nIMAGE_DATE=2026-11-28\nIMAGE_DEBIAN=trixie\n"  # as build.sh writes it


def test_the_image_version_file_is_read(tmp_path):
    (tmp_path / "v").write_text(WRITTEN)
    assert read_about(tmp_path / "v") == About(__version__, "0.1.0-1a2b3c4d5e6f", "2026-11-28", "trixie")


def test_no_file_or_a_hostile_one_is_no_image(tmp_path):
    assert read_about(tmp_path / "absent") == About(__version__)
    (tmp_path / "v").write_bytes(b"IMAGE_VERSION=<script>alert(1)</script>\nIMAGE_DATE=\xff\xfe\nnoise\n" * 500)
    about = read_about(tmp_path / "v")
    assert about.image is None and about.built is None
    (tmp_path / "d").mkdir()
    assert read_about(tmp_path / "d") == About(__version__)


def test_about_item_in_the_menu_shows_the_versions(tmp_path):
    (tmp_path / "v").write_text(WRITTEN)
    shell = Shell(CATALOG, "counter", Counter(), random.Random(1))
    shell.about = about_paragraphs(read_about(tmp_path / "v"))
    shell.handle("D", 0.0)
    items = shell.screen().choices
    about = next(i for i, item in enumerate(items) if item.endswith(" About"))
    assert items[about - 1].endswith("Shut down"), "About sits after Shut down: scripts count to it from the top"
    for _ in range(about):
        shell.handle("B", 0.0)
    shell.handle("#", 0.0)
    text = " ".join(shell.screen().lines)
    assert "0.1.0-1a2b3c4d5e6f" in text and "2026-11-28" in text and "trixie" in text, text


def test_about_is_translated():
    i18n.set_language("it")
    try:
        lines = about_paragraphs(About("0.1.0", "0.1.0-abc", "2026-11-28", "trixie"))
        assert lines[1] == "Immagine 0.1.0-abc del 2026-11-28"
        assert "pip" in about_paragraphs(About("0.1.0"))[1] and "Installato" in about_paragraphs(About("0.1.0"))[1]
    finally:
        i18n.set_language("en")


def test_every_page_ends_with_the_versions(tmp_path, monkeypatch):
    (tmp_path / "v").write_text(WRITTEN)
    monkeypatch.setattr("companion.box.about.IMAGE_VERSION_FILE", str(tmp_path / "v"))
    pages.footer.cache_clear()
    try:
        page = pages.document("t", "<p>x</p>")
        assert page.endswith('<footer class="about">'
                             + about_line(read_about(tmp_path / "v")) + "</footer></body></html>")
        assert "image 0.1.0-1a2b3c4d5e6f (2026-11-28, Debian trixie)" in page
    finally:
        pages.footer.cache_clear()


def test_companion_version_names_the_package_and_the_image(tmp_path, monkeypatch):
    """`companion --version` and `-V` (issue 53, item 5): were "unknown command", exit 2."""
    from companion.box import about
    from tests.support import run_cli

    monkeypatch.setattr(about, "IMAGE_VERSION_FILE", str(tmp_path / "absent"))  # pip or install.sh
    for flag in ("--version", "-V"):
        assert run_cli(flag) == (0, f"companion {__version__}\n", "")
    (tmp_path / "v").write_text(WRITTEN)
    monkeypatch.setattr(about, "IMAGE_VERSION_FILE", str(tmp_path / "v"))  # on the SD-card image
    assert run_cli("--version") == (
        0, f"companion {__version__}, SD-card image 0.1.0-1a2b3c4d5e6f of 2026-11-28 (Debian trixie)\n", "")
    status, out, err = run_cli("--version", "extra")
    assert (status, out, err) == (2, "", "companion --version: takes nothing after it, not 'extra'\n")
    assert "companion --version" in run_cli("--help")[1]


def test_companion_version_in_a_real_process():
    import subprocess
    import sys

    res = subprocess.run([sys.executable, "-m", "companion", "--version"], capture_output=True, text=True,
                         timeout=60, check=False)
    assert (res.returncode, res.stderr) == (0, "") and res.stdout.startswith(f"companion {__version__}")
    assert res.stdout.count("\n") == 1
