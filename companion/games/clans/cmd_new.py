"""`companion new --players P --seed S [--out FILE]`: a fresh record with a random R1 setup."""

from __future__ import annotations

import argparse
import sys

from companion.games.clans.game import Game
from companion.games.clans.record import Record


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="companion new", description=__doc__)
    ap.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    ap.add_argument("--seed", type=int, default=None, help="random seed (default: fresh randomness)")
    ap.add_argument("--first-player", type=int, default=None, help="0-based index (default: drawn at random)")
    ap.add_argument("--out", default="-", help="file to write (default: standard output)")
    args = ap.parse_args(argv)
    if args.first_player is not None and not 0 <= args.first_player < args.players:
        ap.error(f"--first-player must be 0..{args.players - 1}")
    record = Record.from_game(Game.new(args.players, args.seed, args.first_player))
    if args.out == "-":
        sys.stdout.write(record.to_json())
    else:
        record.save(args.out)
    return 0
