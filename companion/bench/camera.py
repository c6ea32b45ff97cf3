"""`companion bench --only camera`: the camera's proposal, timed beside one JPEG decode of the same photograph.

A Pi runs everything several times slower than a laptop, but it decodes a JPEG slower by about
as much as it does the rest, so the ratio of a proposal's time to one decode holds there. The
bench needs no camera and no board picture: it paints a board-like picture of its own (the
four terrains' colours in patches, grain), puts the huts of a real position on it as coloured
blocks, photographs it through a tilted camera at 1280x960 and saves it as JPEG. For `runs`
random legal moves it takes the photographs before and after the move and times `propose` (the
three decoded photographs mapped onto the board and compared), and one decode of the after photograph.
"""

from __future__ import annotations

import io
import random
import statistics
import time

from PIL import Image, ImageDraw, ImageFilter

from companion.games.clans.game import Game

PHOTO = (1280, 960)
CORNERS = [(150.0, 120.0), (1130.0, 100.0), (1210.0, 860.0), (70.0, 880.0)]  # a tilted camera
TERRAIN = [(80, 85, 80), (167, 159, 140), (211, 169, 99), (169, 165, 87)]
HUT = {"red": (190, 40, 35), "blue": (35, 70, 170), "green": (40, 140, 60), "yellow": (230, 190, 40),
       "black": (30, 30, 30)}


def board_picture(rng: random.Random) -> Image.Image:
    """A 1200x800 board-like picture: terrain-coloured patches with grain."""
    im = Image.new("RGB", (1200, 800), TERRAIN[2])
    draw = ImageDraw.Draw(im)
    for _ in range(400):
        x, y, r = rng.randrange(1200), rng.randrange(800), rng.randrange(20, 90)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=rng.choice(TERRAIN))
    grain = Image.effect_noise((1200, 800), 40).convert("RGB")
    return Image.blend(im.filter(ImageFilter.GaussianBlur(2)), grain, 0.15)


def photograph(board: Image.Image, game: Game | None, coeffs: list[float]) -> bytes:
    """The board with the game's huts on it (None: the empty board), as the camera sees it, as JPEG bytes."""
    im = board.copy()
    draw = ImageDraw.Draw(im)
    for t in (game.board.territories.values() if game else ()):
        k = 0
        for color, n in game.huts(t.number).items():
            for _ in range(n):
                x, y = t.xy[0] + 22 * (k % 3) - 22, t.xy[1] + 22 * (k // 3) - 11
                draw.rectangle((x - 9, y - 6, x + 11, y + 10), fill=(40, 35, 30))  # its shadow
                draw.rectangle((x - 11, y - 8, x + 9, y + 8), fill=HUT[color], outline=(20, 20, 20))
                k += 1
    shot = im.transform(PHOTO, Image.Transform.PERSPECTIVE, coeffs, Image.Resampling.BILINEAR, fillcolor=(90, 70, 50))
    out = io.BytesIO()
    shot.save(out, "JPEG", quality=85)
    return out.getvalue()


def decode(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.load()
    return im


def camera_bench(runs: int, seed: int) -> dict:
    """The proposal's and one decode's median time (ms), their ratio, what it named, what each frame
    costs the watcher (is it still?), and memory."""
    from companion.bench.path import current_rss_mb, peak_rss_mb
    from companion.games.clans.camera.geometry import perspective
    from companion.games.clans.camera.propose import propose
    from companion.games.clans.camera.watch import changed_pixels, still_picture

    rng = random.Random(seed)
    board = board_picture(rng)
    coeffs = perspective(CORNERS, [(0, 0), (1200, 0), (1200, 800), (0, 800)])
    empty = decode(photograph(board, None, coeffs))
    rss_before = current_rss_mb()
    proposals, decodes, frames, right = [], [], [], 0
    game = Game.new(3, seed=seed)
    for _ in range(runs):
        if game.is_over:
            game = Game.new(3, seed=rng.randrange(10 ** 6))
        before = photograph(board, game, coeffs)
        a, b = game.random_move(rng.random)
        after_game = game.copy()
        after_game.push(a, b)
        after = photograph(board, after_game, coeffs)
        seen_before, seen_after = decode(before), decode(after)
        t0 = time.perf_counter()
        found = propose(game, seen_before, seen_after, empty, CORNERS)
        proposals.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        decode(after)
        decodes.append(time.perf_counter() - t0)
        t0 = time.perf_counter()  # what every frame costs the watcher: is the picture still?
        changed_pixels(still_picture(seen_before), still_picture(seen_after))
        frames.append(time.perf_counter() - t0)
        right += found.move == (a, b)
        game.push(a, b)
    proposal_ms, decode_ms = statistics.median(proposals) * 1000, statistics.median(decodes) * 1000
    return {"runs": runs, "photo": f"{PHOTO[0]}x{PHOTO[1]}", "proposal_ms_median": round(proposal_ms, 1),
            "proposal_ms_max": round(max(proposals) * 1000, 1), "jpeg_decode_ms_median": round(decode_ms, 1),
            "ratio": round(proposal_ms / decode_ms, 1), "named_the_move": right,
            "stillness_ms_median": round(statistics.median(frames) * 1000, 2),
            "rss_mb_growth": round(current_rss_mb() - rss_before, 1), "peak_rss_mb": peak_rss_mb()}
