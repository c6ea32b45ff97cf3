"""The printable board map: drawn from the board file, checked pixel by pixel."""

from __future__ import annotations

import math
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image

from companion.games.clans.boardmap import (
    LABEL_RADIUS,
    TERRAIN_FILL,
    cell_polygons,
    layout,
    main,
    neighbor_pairs,
    territory_lines,
)
from companion.games.clans.board import TERRAINS, load_board

BOARD = load_board()
SCALE = 1.0
SVG_NS = "{http://www.w3.org/2000/svg}"


def rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def nearest_terrain(pixel: tuple[int, int, int]) -> tuple[str, float]:
    dists = {t: math.dist(pixel, rgb(TERRAIN_FILL[t])) for t in TERRAINS}
    best = min(dists, key=dists.__getitem__)
    return best, dists[best]


@pytest.fixture(scope="module")
def png(tmp_path_factory: pytest.TempPathFactory) -> Image.Image:
    path = tmp_path_factory.mktemp("map") / "map.png"
    assert main(["--render", str(path), "--scale", str(SCALE)]) == 0
    with Image.open(path) as img:
        assert img.format == "PNG"
        return img.convert("RGB")


@pytest.fixture(scope="module")
def svg_root(tmp_path_factory: pytest.TempPathFactory) -> ET.Element:
    path = tmp_path_factory.mktemp("map") / "map.svg"
    assert main(["--render", str(path), "--scale", str(SCALE)]) == 0
    return ET.parse(path).getroot()


def test_png_size_follows_the_layout(png: Image.Image) -> None:
    lay = layout(BOARD, SCALE)
    assert png.size == (lay.width, lay.height)
    # The whole play area (x 0..1000) plus the legend panel fits.
    assert lay.width > 1000 * SCALE and lay.height > 800 * SCALE


def test_each_territory_shows_its_terrain_around_the_label(png: Image.Image) -> None:
    lay = layout(BOARD, SCALE)
    for t in BOARD.territories.values():
        # Sample a ring just outside the number's disc; links cross it in a few
        # places, so most samples (not all) must be the terrain colour.
        hits = 0
        samples = 36
        for k in range(samples):
            angle = 2 * math.pi * k / samples
            x, y = lay.at(t.xy[0] + 40 * math.cos(angle), t.xy[1] + 40 * math.sin(angle))
            terrain, dist = nearest_terrain(png.getpixel((round(x), round(y))))
            hits += terrain == t.terrain and dist < 12
        assert hits >= samples // 2, f"territory {t.number} ({t.terrain}): only {hits}/{samples} samples"


def test_each_territory_has_a_number_drawn_at_its_centre(png: Image.Image) -> None:
    lay = layout(BOARD, SCALE)
    r = LABEL_RADIUS * SCALE * 0.7
    crops = {}
    for t in BOARD.territories.values():
        cx, cy = lay.at(*t.xy)
        crop = png.crop((round(cx - r), round(cy - r), round(cx + r), round(cy + r))).convert("L")
        hist = crop.histogram()
        dark, light = sum(hist[:100]), sum(hist[201:])
        assert dark > 15, f"no ink for the number of territory {t.number}"
        assert light > dark, f"territory {t.number}: the label is not a light disc with dark digits"
        crops[t.number] = crop.tobytes()
    # Different numbers must look different (not one stamp everywhere).
    assert len(set(crops.values())) == len(crops)


def test_outside_the_cells_is_blank(png: Image.Image) -> None:
    assert png.getpixel((2, 2)) == (255, 255, 255)
    lay = layout(BOARD, SCALE)
    # Left of the westernmost cells, inside the image.
    x, y = lay.at(-45, 700)
    assert x > 0
    assert png.getpixel((round(x), round(y))) == (255, 255, 255)


def test_neighbor_links_are_drawn(png: Image.Image) -> None:
    lay = layout(BOARD, SCALE)
    for a, b in [(1, 2), (25, 38), (57, 59)]:
        (x1, y1), (x2, y2) = BOARD.territories[a].xy, BOARD.territories[b].xy
        # A point on the link outside both number discs.
        x, y = lay.at(x1 + 0.5 * (x2 - x1), y1 + 0.5 * (y2 - y1))
        box = png.crop((round(x) - 2, round(y) - 2, round(x) + 3, round(y) + 3)).convert("L")
        assert box.getextrema()[0] < 80, f"no link drawn between {a} and {b}"


def test_cells_do_not_overlap_and_hold_their_centre() -> None:
    cells = cell_polygons(BOARD)
    assert len(cells) == 60
    for n, poly in cells.items():
        x, y = BOARD.territories[n].xy
        # Centre strictly inside its convex cell: same side of every edge.
        signs = {
            math.copysign(1, (q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0]))
            for p, q in zip(poly, poly[1:] + poly[:1])
        }
        assert len(signs) == 1, f"territory {n} lies outside its own cell"


def test_svg_has_60_numbers_60_cells_and_every_link(svg_root: ET.Element) -> None:
    assert svg_root.tag == f"{SVG_NS}svg"
    numbers = sorted(int(e.text or "") for e in svg_root.iter(f"{SVG_NS}text") if e.get("class") == "num")
    assert numbers == list(range(1, 61))
    cells = [e for e in svg_root.iter(f"{SVG_NS}polygon") if "cell" in (e.get("class") or "")]
    assert len(cells) == 60
    for e in cells:
        terrain = e.get("class", "").split()[1]
        assert terrain == BOARD.territories[int(e.get("data-territory", "0"))].terrain
    pairs = {e.get("data-pair") for e in svg_root.iter(f"{SVG_NS}line") if e.get("data-pair")}
    assert pairs == {f"{a}-{b}" for a, b in neighbor_pairs(BOARD)}
    assert len(pairs) == 135


def test_svg_has_the_epoch_chart(svg_root: ET.Element) -> None:
    texts = [e.text for e in svg_root.iter(f"{SVG_NS}text")]
    assert "Epoch chart" in texts
    for e in BOARD.epochs:
        assert f"+{e.bonus}" in texts
    assert texts.count("none") == 1 and texts.count("all") == 1


def test_pdf_renders(tmp_path: Path) -> None:
    path = tmp_path / "map.pdf"
    assert main(["--render", str(path), "--scale", "0.5"]) == 0
    assert path.read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize(
    "argv",
    [
        ["--render", "map.gif"],
        ["--render", "map"],
        ["--render", "no/such/dir/map.png"],
        ["--render", "map.png", "--scale", "0"],
        ["--render", "map.png", "--list"],
        [],
    ],
)
def test_bad_arguments_exit_2(argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    assert "error:" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_bad_extension_through_the_cli(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "companion", "board", "--render", str(tmp_path / "map.jpg")],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 2
    assert "unknown format '.jpg'" in result.stderr


def test_list_prints_one_line_per_territory(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 60
    assert lines == territory_lines(BOARD)
    assert lines[0].split() == ["1", "steppe", "region", "1", "neighbors", "2", "3", "4"]
    assert lines[24].split()[:4] == ["25", "forest", "region", "5"]
    assert lines[24].split()[5:] == ["23", "24", "26", "38", "42"]


def test_a_file_that_is_no_board_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    """`companion board --list --board README.md` printed a two-line YAML error, exit 1 (issue 53, item 7);
    tests/fuzz/test_hostile_boards.py tries seeded files of every kind."""
    readme = Path(__file__).resolve().parents[3] / "README.md"
    assert main(["--list", "--board", str(readme)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith(f"companion board: --board {readme}: not a board file (not valid YAML: "), err
    assert err.rstrip("\n").endswith("or leave out --board for the shipped board")
