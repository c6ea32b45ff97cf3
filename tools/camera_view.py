"""Draw docs/camera-view.jpg: what the camera above the board sees, and what the box then shows.

    .venv/bin/python tools/camera_view.py [OUT]

A rendered photograph of a real game (tests/games/clans/camera/photos.py: the board picture from
../shared with huts drawn on it) after a move, with the board's territories where the corners put
them (as `companion doctor --camera` draws them) and the two territories of the move marked; beside
it the OLED's screen (companion.table.render) once the watcher proposed the move, as the table sees it.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.games.clans.controller import Controller  # noqa: E402
from companion.games.clans.camera.watch import Position, Watcher  # noqa: E402
from companion.games.clans.record import Record  # noqa: E402
from companion.table.render import render  # noqa: E402
from tests.games.clans.camera import photos  # noqa: E402

RECORD = ROOT.parent / "shared" / "spec" / "examples" / "in-progress.record.json"


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else ROOT / "docs" / "camera-view.jpg"
    if not photos.have_board_picture() or not RECORD.is_file():
        print(f"camera_view: needs {photos.BOARD_PICTURE} and {RECORD} (../shared)", file=sys.stderr)
        return 2
    record = Record.load(str(RECORD))
    game = record.play(0)
    rng = random.Random(5)
    table = photos.Table.setup(game, random.Random(5))
    for m in record.moves:
        table.move(m.frm, m.to)
        game.push(m.frm, m.to)
        table.reconcile(game)
    camera = photos.random_camera(rng, (800, 600), flip=False, angle=-4.0, keystone=0.15)
    look = photos.random_look(rng, "clean")
    empty, corners = photos.photograph(None, camera, look)
    watcher = Watcher(corners, empty, still_s=0.0)
    before, _ = photos.photograph(table, camera, look)
    watcher.frame(before, 0.0, Position(game.copy(), "move"))  # anchored
    frm, to = game.random_move(rng.random)
    table.move(frm, to)
    after, _ = photos.photograph(table, camera, look)
    seen = watcher.frame(after, 1.0, Position(game.copy(), "move"))
    if seen is None or seen.kind != "proposal":
        print(f"camera_view: the watcher saw {seen}", file=sys.stderr)
        return 1
    view = watcher.outlined(after)
    draw = ImageDraw.Draw(view)
    for t, colour in ((frm, (255, 60, 60)), (to, (60, 255, 60))):
        x, y = camera.to_photo(*game.board.territories[t].xy)
        draw.ellipse((x - 22, y - 22, x + 22, y + 22), outline=colour, width=4)

    controller = Controller.from_record(record)
    controller.camera_seen("proposal", seen.ply, seen.move)
    oled = render(controller.screen()).convert("RGB").resize((128 * 2, 64 * 2), Image.Resampling.NEAREST)
    picture = Image.new("RGB", (view.width + oled.width + 40, view.height), (24, 24, 24))
    picture.paste(view, (0, 0))
    picture.paste(oled, (view.width + 20, (view.height - oled.height) // 2))
    picture.save(out, quality=85, optimize=True)
    print(f"{out}: the camera saw {frm} -> {to}; {picture.width}x{picture.height}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
