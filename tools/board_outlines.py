"""Derive each Clans territory's outline from the numbered photo of the board, for the camera.

    .venv/bin/python tools/board_outlines.py PHOTO [--check OVERLAY.png] [--write]

PHOTO is reference/clans-board-numbered.jpg of the workplace's shared folder: the board picture in
the board file's 1200 x 800 frame, with the region borders drawn on it in blue. Every territory
grows from its centre (`xy` of companion/games/clans/clans.yaml) over the photo: a cheapest-path
flood from all 60 centres at once, where a step costs more across a change of colour (a terrain's
edge) and a drawn region border is a wall; lakes and the borders belong to no territory. Each
territory's outline is then the polygon of its area seen from its centre (a ray every 5 degrees, out
to the farthest point of the area along it), simplified. `--write` rewrites the `outlines:` block
at the end of the package's clans.yaml (the shared board file's text stays the same above it) and
its JSON copy; `--check` draws the outlines over the photo to look at.
"""

from __future__ import annotations

import argparse
import heapq
import json
import math
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.games.clans.board import load_board, write_json_copy  # noqa: E402

SCALE = 2  # the flood runs at half size (600 x 400)
PLAY_WIDTH = 1000  # the play area; the epoch chart is to its right
RAYS = 72


def is_border(r: int, g: int, b: int) -> bool:
    """A drawn region border: saturated pure blue (0, 29, 255)."""
    return r < 80 and g < 110 and b > 140 and b - g > 90


def is_lake(r: int, g: int, b: int) -> bool:
    """Water (95, 128, 205); the printed numbers are a light cyan with g > 200."""
    return b > 160 and b - r > 60 and g < 185


def areas(photo: Image.Image) -> tuple[list[list[int]], int, int]:
    """Each half-size pixel's territory (0: none) by a cheapest-path flood from the centres."""
    small = photo.convert("RGB").resize((photo.width // SCALE, photo.height // SCALE), Image.BOX)
    w, h = PLAY_WIDTH // SCALE, small.height
    raw = small.load()
    smooth = small.filter(ImageFilter.GaussianBlur(3)).load()
    wall = [[is_border(*raw[x, y]) for x in range(w)] for y in range(h)]
    water = [[is_lake(*raw[x, y]) for x in range(w)] for y in range(h)]
    board = load_board()
    cost = [[math.inf] * w for _ in range(h)]
    owner = [[0] * w for _ in range(h)]
    heap = []
    for t in board.territories.values():
        x, y = t.xy[0] // SCALE, t.xy[1] // SCALE
        cost[y][x] = 0.0
        owner[y][x] = t.number
        heap.append((0.0, x, y, t.number))
    heapq.heapify(heap)
    while heap:
        c, x, y, t = heapq.heappop(heap)
        if c > cost[y][x]:
            continue
        here = smooth[x, y]
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if not (0 <= nx < w and 0 <= ny < h) or wall[ny][nx]:
                continue
            there = smooth[nx, ny]
            step = 1.0 + sum(abs(a - b) for a, b in zip(here, there)) / 12.0
            if water[ny][nx]:
                step += 3.0  # a lake is crossed only when nothing else reaches
            if c + step < cost[ny][nx]:
                cost[ny][nx] = c + step
                owner[ny][nx] = t
                heapq.heappush(heap, (c + step, nx, ny, t))
    for y in range(h):
        for x in range(w):
            if wall[y][x] or water[y][x]:
                owner[y][x] = 0
    return owner, w, h


def outline(owner: list[list[int]], w: int, h: int, t: int, centre: tuple[int, int]) -> list[list[int]]:
    """The polygon of territory t's area seen from its centre, in the 1200 x 800 frame."""
    cx, cy = centre[0] / SCALE, centre[1] / SCALE
    points = []
    for k in range(RAYS):
        a = 2 * math.pi * k / RAYS
        dx, dy = math.cos(a), math.sin(a)
        far, gap = 0.0, 0
        r = 0.0
        while True:
            r += 0.5
            x, y = int(cx + dx * r), int(cy + dy * r)
            if not (0 <= x < w and 0 <= y < h):
                break
            if owner[y][x] == t:
                far, gap = r, 0
            else:
                gap += 1
                if gap > 16:  # 8 px of another territory, a lake or a border: the edge
                    break
        points.append([min(max(round((cx + dx * far) * SCALE), 0), 1199),
                       min(max(round((cy + dy * far) * SCALE), 0), 799)])
    return simplify(points)


def simplify(points: list[list[int]], tolerance: float = 3.0) -> list[list[int]]:
    """Drop the points that lie within `tolerance` px of the line through their neighbours."""
    out = list(points)
    changed = True
    while changed and len(out) > 8:
        changed = False
        for i in range(len(out)):
            (ax, ay), (bx, by), (px, py) = out[i - 1], out[(i + 1) % len(out)], out[i]
            length = math.hypot(bx - ax, by - ay) or 1.0
            if abs((bx - ax) * (ay - py) - (ax - px) * (by - ay)) / length < tolerance:
                del out[i]
                changed = True
                break
    return out


def outlines(photo: Image.Image) -> dict[int, list[list[int]]]:
    owner, w, h = areas(photo)
    return {t.number: outline(owner, w, h, t.number, t.xy) for t in load_board().territories.values()}


def block(found: dict[int, list[list[int]]]) -> str:
    """The `outlines:` block of clans.yaml."""
    head = ("# outlines: each territory's polygon in the same 1200 x 800 frame, for the camera\n"
            "# (derived from reference/clans-board-numbered.jpg by tools/board_outlines.py).\n"
            "outlines:\n")
    return head + "".join(f"  {t}: {json.dumps(found[t], separators=(',', ':'))}\n" for t in sorted(found))


def write(found: dict[int, list[list[int]]]) -> None:
    path = ROOT / "companion" / "games" / "clans" / "clans.yaml"
    text = path.read_text(encoding="utf-8")
    cut = text.find("\n# outlines:")
    path.write_text((text if cut < 0 else text[:cut + 1]) + block(found), encoding="utf-8")
    write_json_copy()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("photo")
    ap.add_argument("--check", metavar="OVERLAY.png")
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args(argv)
    photo = Image.open(args.photo)
    if photo.size != (1200, 800):
        ap.error(f"{args.photo}: {photo.size[0]}x{photo.size[1]}, expected the 1200x800 board picture")
    found = outlines(photo)
    if args.check:
        over = photo.convert("RGB")
        draw = ImageDraw.Draw(over)
        for t, poly in found.items():
            draw.polygon([tuple(p) for p in poly], outline=(255, 0, 255), width=2)
        over.save(args.check)
    if args.write:
        write(found)
    print(f"{len(found)} outlines, {sum(len(p) for p in found.values())} points")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
