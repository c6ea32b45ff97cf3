"""`companion board`: a printable numbered map of the Clans board, and a territory list.

The map is drawn from the board file alone (territory centres, terrain and
neighbors), never copied from a photo: each territory is the Voronoi cell of its
centre, capped to a disc so the outer territories stay round, shrunk a little so
the cells read as separate islands; the rules' adjacency is drawn as lines
between centres, because Voronoi contact is not adjacency (rivers and lakes
decide that). A side panel holds the terrain legend and the epoch chart.

PNG and PDF are rendered with Pillow and its bundled font; SVG is written
directly from the same geometry, so all three show the same map.

    companion board --render map.png      (or .svg, .pdf)
    companion board --list
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from PIL import Image, ImageDraw, ImageFont

from companion.games.clans.board import TERRAINS, Board, BoardError, load_board, load_board_file
from companion.util.bounded import shorten

FORMATS = (".png", ".svg", ".pdf")

# Fill colours chosen to stay distinct when printed in greyscale
# (forest darkest, steppe lightest).
TERRAIN_FILL: dict[str, str] = {
    "forest": "#2e7d32",
    "mountain": "#8d8179",
    "steppe": "#f2d774",
    "grassland": "#9ccc65",
}
TERRAIN_INK: dict[str, str] = {  # text drawn on the cell itself
    "forest": "#ffffff",
    "mountain": "#ffffff",
    "steppe": "#3b3b3b",
    "grassland": "#1b3d0f",
}
BACKGROUND = "#ffffff"
CELL_OUTLINE = "#3b3b3b"
LINK = "#202020"
LABEL_FILL = "#ffffff"
INK = "#000000"

# Geometry in board units (the board file's 1200 x 800 picture); scaled on output.
CELL_RADIUS = 68.0  # cap on a cell: nearest centres are 72..120 units apart
CELL_GAP = 7.0  # white gap between neighbouring cells
LABEL_RADIUS = 21.0  # white disc behind each number
MARGIN = 24.0
TITLE_BAND = 44.0
PANEL_GAP = 36.0
PANEL_WIDTH = 372.0


@dataclass(frozen=True)
class Layout:
    """Where things go, in output pixels."""

    scale: float
    width: int
    height: int
    origin: tuple[float, float]  # board (0, 0) in pixels
    panel_x: float  # left edge of the legend/epoch panel

    def at(self, x: float, y: float) -> tuple[float, float]:
        """Board coordinates -> pixel coordinates."""
        return (self.origin[0] + x * self.scale, self.origin[1] + y * self.scale)


def layout(board: Board, scale: float = 2.0) -> Layout:
    """Image size and placement for `board` at `scale` pixels per board unit."""
    xs = [t.xy[0] for t in board.territories.values()]
    ys = [t.xy[1] for t in board.territories.values()]
    left, right = min(xs) - CELL_RADIUS, max(xs) + CELL_RADIUS
    top, bottom = min(ys) - CELL_RADIUS, max(ys) + CELL_RADIUS
    panel_left = MARGIN + (right - left) + PANEL_GAP
    width = panel_left + PANEL_WIDTH + MARGIN
    height = TITLE_BAND + max(bottom - top, 640.0) + 2 * MARGIN
    origin = ((MARGIN - left) * scale, (MARGIN + TITLE_BAND - top) * scale)
    return Layout(scale, round(width * scale), round(height * scale), origin, panel_left * scale)


# --- cell geometry ------------------------------------------------------------------


def _clip(poly: list[tuple[float, float]], normal: tuple[float, float], limit: float) -> list[tuple[float, float]]:
    """Keep the part of a convex polygon where dot(p, normal) <= limit (Sutherland-Hodgman)."""
    out: list[tuple[float, float]] = []
    nx, ny = normal
    for i, p in enumerate(poly):
        q = poly[(i + 1) % len(poly)]
        dp, dq = p[0] * nx + p[1] * ny - limit, q[0] * nx + q[1] * ny - limit
        if dp <= 0:
            out.append(p)
        if (dp < 0 < dq) or (dq < 0 < dp):
            t = dp / (dp - dq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def cell_polygons(board: Board, radius: float = CELL_RADIUS, gap: float = CELL_GAP) -> dict[int, list[tuple[float, float]]]:
    """Each territory's cell in board units: its Voronoi cell within a disc, shrunk by gap/2."""
    sides = 48
    cells: dict[int, list[tuple[float, float]]] = {}
    centres = {n: (float(t.xy[0]), float(t.xy[1])) for n, t in board.territories.items()}
    for n, (ax, ay) in centres.items():
        poly = [
            (ax + radius * math.cos(2 * math.pi * k / sides), ay + radius * math.sin(2 * math.pi * k / sides))
            for k in range(sides)
        ]
        for m, (bx, by) in centres.items():
            if m == n:
                continue
            dx, dy = bx - ax, by - ay
            dist = math.hypot(dx, dy)
            if dist >= 2 * radius:
                continue
            normal = (dx / dist, dy / dist)
            mid = ((ax + bx) / 2, (ay + by) / 2)
            poly = _clip(poly, normal, mid[0] * normal[0] + mid[1] * normal[1] - gap / 2)
        cells[n] = poly
    return cells


def neighbor_pairs(board: Board) -> list[tuple[int, int]]:
    """Every adjacency once, as (smaller, larger)."""
    return sorted({(min(t.number, n), max(t.number, n)) for t in board.territories.values() for n in t.neighbors})


# --- raster (PNG, PDF) -----------------------------------------------------------------


def _font(size: float) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    # Pillow >= 10.1 bundles a scalable font; without FreeType this falls back to
    # the fixed-size bitmap font, which is small but still legible.
    return ImageFont.load_default(size=max(8, round(size)))


def _text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, font: ImageFont.ImageFont | ImageFont.FreeTypeFont,
          fill: str, align: str = "center") -> None:
    """Draw text with its digits centred vertically on xy; centred or left-aligned horizontally."""
    # Manual centring: anchor= is refused by the bitmap fallback font. The
    # vertical reference is a digit, so words with and without descenders
    # share a baseline.
    x0, _, x1, _ = draw.textbbox((0, 0), text, font=font)
    _, y0, _, y1 = draw.textbbox((0, 0), "0", font=font)
    x = xy[0] - (x0 + x1) / 2 if align == "center" else xy[0] - x0
    draw.text((x, xy[1] - (y0 + y1) / 2), text, font=font, fill=fill)


def render_image(board: Board, scale: float = 2.0) -> Image.Image:
    """The map as an RGB image."""
    lay = layout(board, scale)
    s = lay.scale
    img = Image.new("RGB", (lay.width, lay.height), BACKGROUND)
    draw = ImageDraw.Draw(img)

    _text(draw, (MARGIN * s, (MARGIN + TITLE_BAND / 2) * s),
          f"Clans - numbered board map ({board.name})", _font(28 * s), INK, align="left")

    for n, poly in cell_polygons(board).items():
        terrain = board.territories[n].terrain
        draw.polygon([lay.at(x, y) for x, y in poly], fill=TERRAIN_FILL[terrain],
                     outline=CELL_OUTLINE, width=max(1, round(1.5 * s)))
    for a, b in neighbor_pairs(board):
        draw.line([lay.at(*board.territories[a].xy), lay.at(*board.territories[b].xy)],
                  fill=LINK, width=max(1, round(2 * s)))

    number_font = _font(26 * s)
    small_font = _font(12 * s)
    r = LABEL_RADIUS * s
    for t in board.territories.values():
        cx, cy = lay.at(*t.xy)
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=LABEL_FILL, outline=INK, width=max(1, round(1.5 * s)))
        _text(draw, (cx, cy), str(t.number), number_font, INK)
        # Terrain initial and region under the disc, for greyscale prints.
        _text(draw, (cx, cy + (LABEL_RADIUS + 11) * s), f"{t.terrain[0].upper()} r{t.region}", small_font,
              TERRAIN_INK[t.terrain])

    _draw_panel(draw, board, lay)
    return img


def _panel_rows(board: Board) -> list[tuple[str, str, str, str, str]]:
    header = ("epoch", "chips", "favorable", "hostile", "bonus")
    rows = [(str(e.number), str(e.chips), e.favorable, e.hostile, f"+{e.bonus}") for e in board.epochs]
    return [header, *rows]


EPOCH_COLUMNS = (0.0, 58.0, 112.0, 216.0, 322.0)  # x offsets within the panel, board units


def _draw_panel(draw: ImageDraw.ImageDraw, board: Board, lay: Layout) -> None:
    s = lay.scale
    x0 = lay.panel_x
    y = (MARGIN + TITLE_BAND + 10) * s
    head, body = _font(20 * s), _font(15 * s)
    counts = {terrain: sum(t.terrain == terrain for t in board.territories.values()) for terrain in TERRAINS}

    _text(draw, (x0, y), "Terrain", head, INK, align="left")
    y += 34 * s
    for terrain in TERRAINS:
        draw.rectangle([x0, y - 12 * s, x0 + 36 * s, y + 12 * s], fill=TERRAIN_FILL[terrain],
                       outline=CELL_OUTLINE, width=max(1, round(s)))
        _text(draw, (x0 + 18 * s, y), terrain[0].upper(), body, TERRAIN_INK[terrain])
        _text(draw, (x0 + 48 * s, y), f"{terrain} ({counts[terrain]})", body, INK, align="left")
        y += 32 * s
    draw.line([x0, y, x0 + 36 * s, y], fill=LINK, width=max(1, round(2 * s)))
    _text(draw, (x0 + 48 * s, y), "neighbors (border or river)", body, INK, align="left")
    y += 26 * s
    _text(draw, (x0 + 48 * s, y), "r = region (5 territories)", body, INK, align="left")
    y += 50 * s

    _text(draw, (x0, y), "Epoch chart", head, INK, align="left")
    y += 34 * s
    for i, row in enumerate(_panel_rows(board)):
        for col, (dx, cell) in enumerate(zip(EPOCH_COLUMNS, row)):
            cx = x0 + dx * s
            if i > 0 and col in (2, 3) and cell in TERRAIN_FILL:
                draw.rectangle([cx, y - 11 * s, cx + 14 * s, y + 11 * s], fill=TERRAIN_FILL[cell],
                               outline=CELL_OUTLINE, width=max(1, round(s)))
                cx += 19 * s
            _text(draw, (cx, y), cell, body, INK, align="left")
        if i == 0:
            draw.line([x0, y + 15 * s, x0 + PANEL_WIDTH * s, y + 15 * s], fill=INK, width=max(1, round(s)))
        y += 30 * s
    y += 10 * s
    _text(draw, (x0, y), f"12th village: +{board.last_village_bonus}", body, INK, align="left")
    y += 26 * s
    _text(draw, (x0, y), "hostile terrain: village destroyed", body, INK, align="left")


# --- SVG ---------------------------------------------------------------------------------


def render_svg(board: Board, scale: float = 2.0) -> str:
    """The same map as an SVG document."""
    lay = layout(board, scale)
    s = lay.scale

    def pt(x: float, y: float) -> str:
        px, py = lay.at(x, y)
        return f"{px:.1f},{py:.1f}"

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{lay.width}" height="{lay.height}" '
        f'viewBox="0 0 {lay.width} {lay.height}" font-family="DejaVu Sans, Arial, sans-serif">',
        f"<title>Clans - numbered board map ({escape(board.name)})</title>",
        f'<rect width="{lay.width}" height="{lay.height}" fill="{BACKGROUND}"/>',
        f'<text x="{MARGIN * s:.1f}" y="{(MARGIN + TITLE_BAND / 2) * s:.1f}" font-size="{28 * s:.1f}" '
        f'dominant-baseline="central">Clans - numbered board map ({escape(board.name)})</text>',
        '<g id="cells">',
    ]
    for n, poly in cell_polygons(board).items():
        t = board.territories[n]
        out.append(f'<polygon class="cell {t.terrain}" data-territory="{n}" points="{" ".join(pt(x, y) for x, y in poly)}" '
                   f'fill="{TERRAIN_FILL[t.terrain]}" stroke="{CELL_OUTLINE}" stroke-width="{1.5 * s:.1f}"/>')
    out.append("</g>")
    out.append(f'<g id="neighbors" stroke="{LINK}" stroke-width="{2 * s:.1f}">')
    for a, b in neighbor_pairs(board):
        (x1, y1), (x2, y2) = lay.at(*board.territories[a].xy), lay.at(*board.territories[b].xy)
        out.append(f'<line data-pair="{a}-{b}" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>')
    out.append("</g>")
    out.append('<g id="labels" text-anchor="middle" dominant-baseline="central">')
    for t in board.territories.values():
        cx, cy = lay.at(*t.xy)
        out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{LABEL_RADIUS * s:.1f}" fill="{LABEL_FILL}" '
                   f'stroke="{INK}" stroke-width="{1.5 * s:.1f}"/>')
        out.append(f'<text class="num" x="{cx:.1f}" y="{cy:.1f}" font-size="{26 * s:.1f}" '
                   f'font-weight="bold">{t.number}</text>')
        out.append(f'<text class="terrain" x="{cx:.1f}" y="{cy + (LABEL_RADIUS + 11) * s:.1f}" '
                   f'font-size="{12 * s:.1f}" fill="{TERRAIN_INK[t.terrain]}">{t.terrain[0].upper()} r{t.region}</text>')
    out.append("</g>")

    x0 = lay.panel_x
    y = (MARGIN + TITLE_BAND + 10) * s
    out.append(f'<g id="legend" font-size="{15 * s:.1f}" dominant-baseline="central">')
    out.append(f'<text x="{x0:.1f}" y="{y:.1f}" font-size="{20 * s:.1f}">Terrain</text>')
    y += 34 * s
    for terrain in TERRAINS:
        count = sum(t.terrain == terrain for t in board.territories.values())
        out.append(f'<rect x="{x0:.1f}" y="{y - 12 * s:.1f}" width="{36 * s:.1f}" height="{24 * s:.1f}" '
                   f'fill="{TERRAIN_FILL[terrain]}" stroke="{CELL_OUTLINE}"/>')
        out.append(f'<text x="{x0 + 48 * s:.1f}" y="{y:.1f}">{terrain} ({count})</text>')
        y += 32 * s
    out.append(f'<line x1="{x0:.1f}" y1="{y:.1f}" x2="{x0 + 36 * s:.1f}" y2="{y:.1f}" stroke="{LINK}" '
               f'stroke-width="{2 * s:.1f}"/>')
    out.append(f'<text x="{x0 + 48 * s:.1f}" y="{y:.1f}">neighbors (border or river)</text>')
    y += 26 * s
    out.append(f'<text x="{x0 + 48 * s:.1f}" y="{y:.1f}">r = region (5 territories)</text>')
    y += 50 * s
    out.append(f'<text x="{x0:.1f}" y="{y:.1f}" font-size="{20 * s:.1f}">Epoch chart</text>')
    y += 34 * s
    for row in _panel_rows(board):
        for dx, cell in zip(EPOCH_COLUMNS, row):
            cx = x0 + dx * s
            if cell in TERRAIN_FILL:
                out.append(f'<rect x="{cx:.1f}" y="{y - 11 * s:.1f}" width="{14 * s:.1f}" height="{22 * s:.1f}" '
                           f'fill="{TERRAIN_FILL[cell]}" stroke="{CELL_OUTLINE}"/>')
                cx += 19 * s
            out.append(f'<text x="{cx:.1f}" y="{y:.1f}">{escape(cell)}</text>')
        y += 30 * s
    y += 10 * s
    out.append(f'<text x="{x0:.1f}" y="{y:.1f}">12th village: +{board.last_village_bonus}</text>')
    y += 26 * s
    out.append(f'<text x="{x0:.1f}" y="{y:.1f}">hostile terrain: village destroyed</text>')
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


# --- output and command line -------------------------------------------------------------


def render(board: Board, path: Path, scale: float = 2.0) -> None:
    """Write the map to `path`; the format follows the extension (.png, .svg, .pdf)."""
    suffix = path.suffix.lower()
    if suffix == ".svg":
        path.write_text(render_svg(board, scale), encoding="utf-8")
    elif suffix == ".png":
        # A palette image keeps the flat-colour map small; the text edges survive.
        render_image(board, scale).quantize(colors=64).save(path, optimize=True)
    elif suffix == ".pdf":
        img = render_image(board, scale)
        # Pillow embeds RGB as JPEG (a palette image would be stored as hex, 20x
        # larger); the SVG is the vector option. Width fits landscape A4.
        img.save(path, resolution=img.width / 11.0, quality=92)
    else:
        raise ValueError(f"unknown format {suffix or '(none)'!r}: use one of {', '.join(FORMATS)}")


def territory_lines(board: Board) -> list[str]:
    """One line per territory: number, terrain, region, neighbors."""
    return [
        f"{t.number:>2}  {t.terrain:<9}  region {t.region:>2}  neighbors {' '.join(str(n) for n in t.neighbors)}"
        for t in sorted(board.territories.values(), key=lambda t: t.number)
    ]


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion board",
        description="Draw a printable numbered map of the Clans board, or list its territories.",
    )
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--render", metavar="FILE", type=Path,
                        help=f"write the map to FILE; format by extension: {', '.join(FORMATS)}")
    action.add_argument("--list", action="store_true", help="print number, terrain, region and neighbors per territory")
    parser.add_argument("--scale", type=float, default=2.0,
                        help="pixels per board unit (the board is 1200 x 800 units; default %(default)s)")
    parser.add_argument("--board", metavar="YAML", type=Path,
                        help="a board file to draw instead of the shipped one (to check a transcription)")
    return parser


def not_a_board(path: Path, exc: BoardError) -> str:
    """The one line for a --board file that is no board: why (at most 200 characters) and what to do."""
    why = shorten(str(exc).removeprefix("board file: "), 200)
    return (f"companion board: --board {shorten(str(path), 100)}: not a board file ({why}): give a YAML board "
            "file like the shipped one (companion/games/clans/clans.yaml), or leave out --board for the shipped board")


def main(argv: list[str]) -> int:
    parser = _build_parser()
    args = parser.parse_args(argv)
    if not 0.25 <= args.scale <= 8:
        parser.error(f"--scale {args.scale:g} is out of range 0.25..8")
    if args.render is not None:
        if args.render.suffix.lower() not in FORMATS:
            parser.error(f"--render {args.render}: unknown format {args.render.suffix or '(no extension)'!r}; "
                         f"use one of {', '.join(FORMATS)}")
        parent = args.render.parent
        if not parent.is_dir():
            parser.error(f"--render {args.render}: directory {parent} does not exist")
    try:
        board = load_board() if args.board is None else load_board_file(args.board)
    except BoardError as exc:
        if args.board is None:
            raise  # the shipped board: a fault of the program, not of the input
        print(not_a_board(args.board, exc), file=sys.stderr)
        return 2
    except OSError as exc:
        parser.error(f"--board {args.board}: {exc.strerror or exc}")

    if args.list:
        print("\n".join(territory_lines(board)))
        return 0
    try:
        render(board, args.render, args.scale)
    except OSError as exc:
        print(f"companion board: cannot write {args.render}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"wrote {args.render}")
    return 0
