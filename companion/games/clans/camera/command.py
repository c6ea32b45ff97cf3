"""`companion camera propose`: the move two photographs show, for tests and outside checks.

    companion camera propose --record R.json --before B.jpg --after A.jpg --empty E.jpg \\
        [--corners x1,y1,x2,y2,x3,y3,x4,y4] [--json]

R is the game's record before the move; E the view of the empty board from the same camera; the
corners are where the board picture's corners (0,0), (1200,0), (1200,800), (0,800) of the board
file's frame lie in the photographs, in pixels (in any of their eight orders: the one under which
the photographs show the position is taken); without them the box finds the board from the huts.
Prints the move ("12 -> 13") or "no move: REASON"; with --json the last line is one object,
{"move": [from, to] or null, "reason": ..., "code": ..., "changed": [...], "corners": [8 numbers]
or null, "found": true or false}. Exit 0 either way; bad input (a record, a photograph or corners
that cannot be used) exits 2 with one line. docs/contracts.md holds the contract.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import stat
import sys
import warnings

from PIL import Image

MAX_PHOTO_BYTES = 32 * 1024 * 1024
MAX_PHOTO_PIXELS = 4096 * 4096  # a 16 MP camera; Pillow's own bomb limit is far above a Pi's memory


class BadInput(ValueError):
    """What the command cannot use; the message is the one line it prints."""


def corners(text: str) -> tuple[tuple[float, float], ...]:
    """"x1,y1,...,x4,y4" as 4 points (argparse type; a tuple: the command line's guard takes a
    list for an option that lost its value)."""
    parts = text.replace(" ", "").split(",")
    try:
        values = [float(p) for p in parts]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:60]!r}: give 8 numbers x1,y1,x2,y2,x3,y3,x4,y4") from None
    if len(values) != 8 or not all(abs(v) < 1e6 for v in values):
        raise argparse.ArgumentTypeError(f"{text[:60]!r}: give 8 numbers x1,y1,x2,y2,x3,y3,x4,y4 (pixels)")
    return tuple((values[i], values[i + 1]) for i in range(0, 8, 2))


NUMBERS = re.compile(r"-[0-9.]")  # "-3.6,112.5,...": corners, not an option


def corners_joined(argv: list[str]) -> list[str]:
    """`argv` with "--corners -3.6,..." written "--corners=-3.6,...", which argparse takes (it reads a
    value that starts with "-" and is not one plain number as the next option)."""
    out, i = [], 0
    while i < len(argv):
        if argv[i] == "--corners" and i + 1 < len(argv) and NUMBERS.match(argv[i + 1]):
            out.append(f"--corners={argv[i + 1]}")
            i += 2
        else:
            out.append(argv[i])
            i += 1
    return out


def read_photo(path: str) -> bytes:
    """A photograph's bytes: a regular file of at most MAX_PHOTO_BYTES. Opened without waiting (a FIFO
    with no writer, a device) and checked before a byte is read, so a pipe, a device or a folder is
    refused at once."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise BadInput(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = "a folder" if stat.S_ISDIR(st.st_mode) else "a pipe" if stat.S_ISFIFO(st.st_mode) else \
                "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) else "not a regular file"
            raise BadInput(f"{path}: {kind}: a photograph is a JPEG or PNG file")
        if st.st_size > MAX_PHOTO_BYTES:
            raise BadInput(f"{path}: {st.st_size} bytes: a photograph of the board is at most "
                           f"{MAX_PHOTO_BYTES // 2**20} MB")
        chunks, left = [], MAX_PHOTO_BYTES + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
    except OSError as exc:
        raise BadInput(f"{path}: cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > MAX_PHOTO_BYTES:
        raise BadInput(f"{path}: a photograph of the board is at most {MAX_PHOTO_BYTES // 2**20} MB")
    return data


def photo(path: str) -> Image.Image:
    """A photograph, read whole and checked: a readable image of sane size. Pillow's warnings (a
    damaged EXIF block, ...) are not the user's: they are dropped, but a decompression bomb's is an error."""
    data = read_photo(path)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as im:
                if im.width * im.height > MAX_PHOTO_PIXELS:
                    raise BadInput(f"{path}: {im.width}x{im.height}: at most {MAX_PHOTO_PIXELS} pixels")
                im.load()
                return im.convert("RGB")
    except BadInput:
        raise
    except (Image.DecompressionBombWarning, Image.DecompressionBombError):
        raise BadInput(f"{path}: too many pixels for a photograph of the board (at most {MAX_PHOTO_PIXELS})") from None
    except (OSError, ValueError, SyntaxError) as exc:
        raise BadInput(f"{path}: not a photograph Pillow can read ({type(exc).__name__})") from None


def propose_command(argv: list[str]) -> int:
    from companion.games.clans.camera.find import NoLibrary
    from companion.games.clans.camera.geometry import CornersError
    from companion.games.clans.camera.propose import propose
    from companion.games.clans.record import Record, RecordError

    ap = argparse.ArgumentParser(prog="companion camera propose", description="the move two photographs show")
    ap.add_argument("--record", required=True, help="the game's record before the move (JSON)")
    ap.add_argument("--before", required=True, help="the photograph before the move")
    ap.add_argument("--after", required=True, help="the photograph after the move")
    ap.add_argument("--empty", required=True, help="the photograph of the empty board, same camera")
    ap.add_argument("--corners", type=corners, default=None,
                    help="x1,y1,...,x4,y4: the board's corners (0,0) (1200,0) (1200,800) (0,800) in the photographs "
                         "(any of their eight orders); left out, the board is found from the huts")
    ap.add_argument("--json", action="store_true", help="print one JSON object as the last line")
    args = ap.parse_args(corners_joined(argv))
    try:
        try:
            game = Record.load(args.record).play()
        except RecordError as exc:
            raise BadInput(f"{args.record}: {exc}") from None
        if game.is_over:
            raise BadInput(f"{args.record}: the game is over: there is no move to see")
        before, after, empty = photo(args.before), photo(args.after), photo(args.empty)
        if not before.size == after.size == empty.size:
            raise BadInput("the three photographs differ in size: take them with the same camera")
        try:
            with warnings.catch_warnings():  # (numpy's, OpenCV's: the answer says what matters)
                warnings.simplefilter("ignore")
                found = propose(game, before, after, empty, args.corners)
        except CornersError as exc:
            raise BadInput(f"--corners: {exc}") from None
        except NoLibrary as exc:
            raise BadInput(str(exc)) from None
    except BadInput as exc:
        print(f"companion camera propose: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(found.as_json()))
    else:
        print(f"{found.move[0]} -> {found.move[1]}" if found.move else f"no move: {found.reason}")
    return 0


def main(argv: list[str]) -> int:
    """`companion camera SUBCOMMAND ...` (only `propose`; what the box's camera sees: `companion doctor --camera`)."""
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.split("\n\n")[1])
        return 0 if argv else 2
    if argv[0] != "propose":
        print(f"companion camera: unknown subcommand {argv[0][:40]!r}: use propose", file=sys.stderr)
        return 2
    return propose_command(argv[1:])
