"""`companion arena --bots hard,normal,normal --games N --seed S --move-time T`: bots play each other.

Bots are the table's levels (easy, normal, hard: companion.games.clans.levels) or the
plain bots (random, greedy, mcts). `--move-time` is the normal level's (and mcts's) time per
move; easy and hard get it scaled as the table scales it (levels.TIME_SCALE), or exactly it with
`--same-time` (to compare the searches, not the clocks).

Game g seats bot i in seat (i + g) % n (n = number of bots, 2-4), so with a
multiple of n games every bot plays every seat equally; seat 0 starts. Each game
draws a fresh R1 setup and the players' colors at random from the 5 colors; each
bot is told only its own color. A shared win counts 1/k to each of the k winners.

`--iterations K` gives the searching bots a fixed iteration budget instead of a clock,
which makes the whole run deterministic for a seed. Every game has its own random
streams derived from (seed, game), so `--jobs J` (worker processes) gives the same
results as one process.

Output: per-bot win rates with 95% Wilson intervals; with `--json` one JSON object:
games, bots, win_rate, ci95, mean_total, seconds, iterations_per_move and iterations_per_second
(mcts: its iterations over the wall time of its turns), max_overrun (the longest mcts turn past
--move-time, as a fraction of it: 0.05 = 5% over; null with --iterations), longest_turn (each
bot's longest turn in seconds).
"""

from __future__ import annotations

import argparse
import inspect
import json
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from companion.argtypes import count, seconds, whole
from companion.games.clans.board import COLORS
from companion.games.clans.game import IN_PROGRESS, Game, random_setup
from companion.games.clans.bots import MCTSBot, make_bot
from companion.games.clans.levels import SEARCHING, thinking_time


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion p observed over n trials."""
    if n == 0:
        return 0.0, 1.0
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def play_game(names: list[str], g: int, seed: int, move_time: float | None, iterations: int | None,
              options: dict | None = None, same_time: bool = False) -> dict:
    """One arena game; returns each bot's win share and total (in --bots order)."""
    n = len(names)
    rng = random.Random(f"arena:{seed}:{g}")
    bots = [make_bot(name, **({"iterations": iterations, **((options or {}) if name == "mcts" else {})}
                              if name in SEARCHING else {}))
            for name in names]
    times = [move_time if same_time else thinking_time(name, move_time) for name in names]
    bot_rngs = [random.Random(f"arena:{seed}:{g}:bot{i}") for i in range(n)]
    seat_of = [(i + g) % n for i in range(n)]
    bot_at = {s: i for i, s in enumerate(seat_of)}
    colors = rng.sample(COLORS, n)  # colors[seat]
    game = Game(n, random_setup(rng), 0, trusted=True)
    mcts_iters = 0
    mcts_moves = 0
    mcts_seconds = 0.0
    overrun = 0.0  # the longest mcts turn past its move time, as a fraction of it
    longest = [0.0] * n  # each bot's longest turn, in seconds
    while game.status == IN_PROGRESS:
        seat = game.to_move
        i = bot_at[seat]
        t0 = time.perf_counter()
        move = bots[i].choose(game, seat, colors[seat], bot_rngs[i], move_time=times[i])
        spent = time.perf_counter() - t0
        longest[i] = max(longest[i], spent)
        game.push(move)
        if hasattr(bots[i], "last_iterations"):
            mcts_iters += bots[i].last_iterations
            mcts_moves += 1
            mcts_seconds += spent
            if times[i]:
                overrun = max(overrun, spent / times[i] - 1)
    totals, winners = game.winners(colors)
    share = [0.0] * n
    for s in winners:
        share[bot_at[s]] = 1.0 / len(winners)
    return {"share": share, "totals": [totals[seat_of[i]] for i in range(n)], "status": game.status,
            "plies": game.ply, "mcts_iterations": mcts_iters, "mcts_moves": mcts_moves,
            "mcts_seconds": mcts_seconds, "overrun": overrun, "longest": longest}


def arena(names: list[str], games: int, seed: int, move_time: float | None = None, iterations: int | None = None,
          jobs: int = 1, progress=None, options: dict | None = None, same_time: bool = False) -> dict:
    """Play `games` games and aggregate (see module doc)."""
    n = len(names)
    wins = [0.0] * n
    totals = [0] * n
    iters = moves = 0
    searched = overrun = 0.0
    longest = [0.0] * n
    start = time.perf_counter()

    def add(g: int, r: dict) -> None:
        nonlocal iters, moves, searched, overrun
        for i in range(n):
            wins[i] += r["share"][i]
            totals[i] += r["totals"][i]
        iters += r["mcts_iterations"]
        moves += r["mcts_moves"]
        searched += r["mcts_seconds"]
        overrun = max(overrun, r["overrun"])
        for i in range(n):
            longest[i] = max(longest[i], r["longest"][i])
        if progress and ((g + 1) % max(1, games // 20) == 0 or g + 1 == games):
            rates = " ".join(f"{names[i]}={wins[i] / (g + 1):.3f}" for i in range(n))
            progress(f"game {g + 1}/{games}: {rates}")

    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(play_game, names, g, seed, move_time, iterations, options, same_time) for g in range(games)]
            for g, f in enumerate(futures):
                add(g, f.result())
    else:
        for g in range(games):
            add(g, play_game(names, g, seed, move_time, iterations, options, same_time))
    seconds = time.perf_counter() - start
    rates = [w / games for w in wins]
    return {
        "games": games,
        "bots": names,
        "seed": seed,
        "move_time": move_time,
        "same_time": same_time,
        "iterations": iterations,
        "win_rate": [round(r, 4) for r in rates],
        "ci95": [[round(x, 4) for x in wilson(r, games)] for r in rates],
        "mean_total": [round(t / games, 2) for t in totals],
        "iterations_per_move": round(iters / moves, 1) if moves else None,
        "iterations_per_second": round(iters / searched) if searched else None,
        "max_overrun": round(overrun, 4) if moves and move_time else None,
        "longest_turn": [round(t, 3) for t in longest],
        "seconds": round(seconds, 2),
    }


def _option_value(ap: argparse.ArgumentParser, item: str, value: str, default: object) -> object:
    """An MCTSBot option's value from `--option KEY=VALUE`, of its default's type: a word for a word,
    else a finite number, 0 or more (a whole one where the default is); ap.error saying what otherwise."""
    if isinstance(default, str):
        return value
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    if not math.isfinite(number) or number < 0 or (isinstance(default, int) and not number.is_integer()):
        kind = "a whole number" if isinstance(default, int) else "a number"
        ap.error(f"--option {item}: the value must be {kind}, 0 or more (e.g. {default})")
    return int(number) if isinstance(default, int) else number


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="companion arena", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bots", required=True, help="comma-separated bot names, one per player (2-4): easy, normal, hard, random, greedy, mcts")
    ap.add_argument("--games", type=count, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--move-time", type=seconds(), default=0.5,
                    help="seconds per move of the normal level and mcts; easy and hard scaled as at the table "
                         "(ignored with --iterations)")
    ap.add_argument("--same-time", action="store_true", help="every level thinks exactly --move-time")
    ap.add_argument("--iterations", type=count, default=None, help="fixed mcts iterations per move (deterministic)")
    ap.add_argument("--jobs", type=whole(1, 64), default=1, help="worker processes (default 1)")
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                    help="an option of the mcts bots (not the levels), e.g. --option c=0.7 --option reward=win (tuning)")
    ap.add_argument("--json", action="store_true", help="print one JSON object, no progress lines")
    args = ap.parse_args(argv)
    names = [x.strip() for x in args.bots.split(",") if x.strip()]
    if not 2 <= len(names) <= 4:
        ap.error("--bots must name 2 to 4 bots (one per player)")
    try:
        for name in names:
            make_bot(name)
    except ValueError as exc:
        ap.error(str(exc))
    options: dict = {}
    params = inspect.signature(MCTSBot).parameters
    tunable = set(params) - {"iterations", "clock"}
    for item in args.option:
        key, _, value = item.partition("=")
        if key not in tunable:
            ap.error(f"--option {item}: unknown mcts option {key!r}; use one of {', '.join(sorted(tunable))}")
        options[key] = _option_value(ap, item, value, params[key].default)
    try:
        MCTSBot(**options)
    except ValueError as exc:
        ap.error(f"--option: {exc}")
    move_time = None if args.iterations is not None else args.move_time
    progress = None if args.json else (lambda line: print(line, file=sys.stderr, flush=True))
    result = arena(names, args.games, args.seed, move_time, args.iterations, args.jobs, progress, options,
                   args.same_time)
    if args.json:
        print(json.dumps(result))
    else:
        for i, name in enumerate(names):
            lo, hi = result["ci95"][i]
            print(f"bot {i} {name:<7} win rate {result['win_rate'][i]:.3f}  95% CI [{lo:.3f}, {hi:.3f}]  "
                  f"mean total {result['mean_total'][i]}")
        extra = (f", {result['iterations_per_move']} mcts iterations/move ({result['iterations_per_second']}/s)"
                 if result["iterations_per_move"] else "")
        if result["max_overrun"] is not None:
            extra += f", longest mcts turn {100 * result['max_overrun']:+.1f}% of --move-time"
        print(f"{result['games']} games in {result['seconds']} s{extra}")
    return 0
