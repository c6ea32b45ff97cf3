"""The board found without corners, and corners in the wrong order, measured on synthetic photographs.

- `corner_run`: rendered tables (random games at some plies, random cameras, 1280x960 and 640x480,
  either side of the table) and the empty board from the same camera; the board found from the
  huts (`companion.games.clans.camera.find.hut_fit`) is scored against the true corners: each
  corner's distance in % of the board's width in the photograph, how often it could not tell, and
  how often it placed the board wrongly (a corner off by more than WRONG_PLACE % of the width).
- `run_both`: the move harness (tests.games.clans.camera.accuracy) proposing every sample twice,
  without corners (found by the box) and with the tapped corners in one of the seven wrong orders,
  taken in turn. Its report scores the first; a tally the second.

    python -m tests.games.clans.camera.finding --setups 40 --seed 1
    python -m tests.games.clans.camera.finding --moves 200 --seed 21

print the numbers and one summary line each.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from dataclasses import dataclass, field
from typing import Any, Sequence

from companion.games.clans.camera.find import hut_fit
from companion.games.clans.camera.orient import ORDERS, reorder
from companion.games.clans.camera.propose import propose
from companion.games.clans.game import Game

from tests.games.clans.camera.accuracy import DEFAULT_SIZES, Report, Tally, run, verdict
from tests.games.clans.camera.photos import Table, photograph, random_camera, random_look

WRONG_PLACE = 10.0  # % of the board's width: a corner further off is a board placed wrongly (turned, mirrored)


def percentile(values: Sequence[float], p: float) -> float:
    """The p-th percentile (nearest rank) of `values`."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(p / 100 * len(ordered)) - 1))]


@dataclass
class Corners:
    """What `corner_run` found: every corner's error (% of the board's width), the tables where the
    box could not tell (with why), and those where it placed the board wrongly."""

    errors: list[float] = field(default_factory=list)
    unsure: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)
    tables: int = 0

    def line(self) -> str:
        e = self.errors
        told = (f"corner error median {percentile(e, 50):.2f}%, p95 {percentile(e, 95):.2f}%, "
                f"max {max(e):.2f}% of the board's width" if e else "no board found")
        return (f"board found from the huts: {self.tables} tables, {self.tables - len(self.unsure) - len(self.wrong)} "
                f"found, {len(self.unsure)} could not tell, {len(self.wrong)} wrong; {told}")


def corner_error(found: Sequence[tuple[float, float]], true: Sequence[tuple[float, float]]) -> list[float]:
    """Each corner's distance from the true one, in % of the board's width in the photograph."""
    width = (math.dist(true[0], true[1]) + math.dist(true[3], true[2])) / 2
    return [100 * math.dist(a, b) / width for a, b in zip(found, true)]


def corner_run(tables: int, seed: int = 1, plies: Sequence[int] = (0,)) -> Corners:
    """The board found from the huts on `tables` rendered tables, each at one of `plies` (moves played
    at random before the photograph; 0: the setup), scored against the true corners."""
    out = Corners()
    rng = random.Random(f"camera-corners/{seed}")
    for _ in range(tables):
        game = Game.new(rng.choice((2, 3, 4)), seed=rng.randrange(1 << 30))
        size = rng.choices(list(DEFAULT_SIZES), list(DEFAULT_SIZES.values()))[0]
        camera = random_camera(rng, size)
        table = Table.setup(game, random.Random(rng.randrange(1 << 30)))
        target = rng.choice(list(plies))
        while game.ply < target:
            probe = game.copy()
            a, b = probe.random_move(rng.random)
            probe.push(a, b)
            if probe.is_over:
                break
            table.move(a, b)
            game.push(a, b)
            table.reconcile(game)
        empty, _ = photograph(None, camera, random_look(rng, rng.choice(("clean", "light"))))
        photo, _ = photograph(table, camera, random_look(rng, rng.choice(("clean", "light", "noise", "blur"))))
        found = hut_fit(game, photo, empty)
        out.tables += 1
        where = f"ply {game.ply} {size[0]}x{size[1]}{' flipped' if camera.flipped else ''}"
        if found.corners is None:
            out.unsure.append(f"{where}: {found.reason}")
            continue
        errors = corner_error(found.corners, camera.corners)
        if max(errors) > WRONG_PLACE:
            out.wrong.append(f"{where}: corners off by {max(errors):.1f}%")
        else:
            out.errors.extend(errors)
    return out


def run_both(moves: int, seed: int, **options: Any) -> tuple[Report, Tally, list[str]]:
    """The move harness (tests.games.clans.camera.accuracy.run) proposing every sample twice: without
    corners (the board found: what its report scores), and with the tapped corners in one of the seven
    wrong orders, each in turn (the returned tally, and its wrong cases described)."""
    wrong_orders, cases = Tally(), []
    turn, turned = [0], [None]

    def proposer(game: Game, before, after, empty, corners) -> Any:
        turned[0] = None
        order = ORDERS[1 + turn[0] % 7]
        turn[0] += 1
        turned[0] = propose(game, before, after, empty, reorder(corners, order))
        return propose(game, before, after, empty, None)

    def progress(sample) -> None:
        got = turned[0]
        result = "error" if got is None else verdict(sample.expected, got.move)
        wrong_orders.add(result)
        if result in ("wrong", "error"):
            cases.append(f"{result}: {sample.game} ply {sample.ply} {sample.condition}: made {sample.moves}, with the "
                         f"corners in a wrong order {'proposed ' + str(got.move) if got else 'failed'}")

    report = run(moves, seed, proposer=proposer, progress=progress, **options)
    return report, wrong_orders, cases


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.games.clans.camera.finding",
                                     description="Score the board found without corners, and corners in wrong orders.")
    parser.add_argument("--setups", type=int, default=0, help="the corner error on this many rendered setups")
    parser.add_argument("--positions", type=int, default=0,
                        help="... and on this many rendered positions of games (5-45 moves in)")
    parser.add_argument("--moves", type=int, default=0, help="the moves named without corners, and in wrong orders")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.setups:
        report = corner_run(args.setups, args.seed)
        for case in report.unsure + report.wrong:
            print(case)
        print("setups: " + report.line())
    if args.positions:
        report = corner_run(args.positions, args.seed, plies=(5, 15, 25, 35, 45))
        for case in report.unsure + report.wrong:
            print(case)
        print("positions: " + report.line())
    if args.moves:
        moves, wrong_orders, cases = run_both(args.moves, args.seed)
        for sample in moves.cases("wrong", "error"):
            print(sample.describe())
        for case in cases:
            print(case)
        print("without corners: " + moves.line())
        t = wrong_orders
        print(f"corners in a wrong order: {t.n} moves, right {t.right}, unsure {t.unsure}, wrong {t.wrong}, "
              f"errors {t.error}")
    if not (args.setups or args.positions or args.moves):
        parser.error("give --setups, --positions or --moves")
    return 0


if __name__ == "__main__":
    sys.exit(main())
