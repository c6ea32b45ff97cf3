"""The Clans subcommands of `companion` (spec sections 2 and 3): `replay`, `selfplay` and `new`.

Each takes its arguments (argv without the command name) and returns the exit status;
the registry (`companion.games`) names them as "companion.games.clans.commands:NAME".

    companion replay RECORD [--json] [--game-id N]        check a record (or game N of a list) and show where it stands
    companion selfplay --games N --seed S [--players P]   random games: the engine's throughput benchmark
    companion new --players P --seed S [--out FILE]       a fresh record with a random R1 setup
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from companion.argtypes import count, new_file_or_stdout, whole
from companion.games.clans.game import STALLED, Game
from companion.games.clans.record import Record, RecordError, summary


# ----- replay ------------------------------------------------------------------------------
def replay_text(s: dict) -> str:
    """The replay summary (spec section 2) as readable lines."""
    lines = [f"status: {s['status']}" + (f", player {s['to_move'] + 1} to move" if s["to_move"] is not None else ""),
             f"epoch: {s['epoch']}"]
    for n, v in enumerate(s["villages"], start=1):
        what = "destroyed" if v["destroyed"] else (f"{v['value']} to {', '.join(v['colors'])}" if v["colors"]
                                                   else "emptied by strife")
        strife = f" (strife removed {', '.join(f'{k} {c}' for k, c in v['removed'].items())})" if v["removed"] else ""
        lines.append(f"village {n:>2}: {v['territory']:>2} epoch {v['epoch']} by player {v['founder'] + 1}: "
                     f"{what}{strife}")
    lines.append("scores: " + ", ".join(f"{c} {p}" for c, p in s["scores"].items()))
    lines.append("chips: " + ", ".join(f"player {i + 1} {c}" for i, c in enumerate(s["chips"])))
    if "totals" in s:
        lines.append("totals: " + ", ".join(f"player {i + 1} {t}" for i, t in enumerate(s["totals"])))
        lines.append("winner" + ("s" if len(s["winners"]) > 1 else "") + ": "
                     + ", ".join(f"player {w + 1}" for w in s["winners"]))
    return "\n".join(lines)


def replay(argv: list[str]) -> int:
    """`companion replay RECORD [--json] [--game-id N]`: check a game record (or game N of a list of
    them) and show where it stands (spec section 2)."""
    ap = argparse.ArgumentParser(prog="companion replay", description=replay.__doc__)
    ap.add_argument("record", help="a game record (JSON)")
    ap.add_argument("--json", action="store_true", help="print one JSON object (the spec's format)")
    ap.add_argument("--game-id", type=whole(1), default=None, metavar="N",
                    help="replay game N of a list of records (what `companion export --format json` writes)")
    args = ap.parse_args(argv)
    try:
        record = Record.load(args.record, args.game_id)
        game = record.play()
    except RecordError as exc:
        print(f"companion replay: {args.record}: {exc}", file=sys.stderr)
        return 2
    s = summary(game, record.colors)
    print(json.dumps(s, indent=1) if args.json else replay_text(s))
    return 0


# ----- selfplay ----------------------------------------------------------------------------
SELFPLAY_HELP = """`companion selfplay --games N --seed S [--players P]`: random games, the engine's throughput benchmark.

Each game: a random R1 setup, a random start player, uniformly random legal moves
and random founding orders, full scoring. Deterministic for a seed. `seconds`
covers the games only, not start-up.
"""


def play_random_game(rng: random.Random, players: int) -> Game:
    """One game of uniformly random legal moves and random founding orders, to its end."""
    game = Game.random(players, rng)
    game.play_random(rng.random, rng.shuffle)
    return game


def run_selfplay(games: int, seed: int, players: int | None = None) -> dict:
    """Play `games` random games (spec section 3); the benchmark's JSON object."""
    rng = random.Random(seed)
    plies = finished = stalled = 0
    start = time.perf_counter()
    for _ in range(games):
        game = play_random_game(rng, players or rng.choice((2, 3, 4)))
        plies += game.ply
        if game.status == STALLED:
            stalled += 1
        else:
            finished += 1
    seconds = time.perf_counter() - start
    return {"games": games, "seconds": round(seconds, 4),
            "games_per_second": round(games / seconds, 1) if seconds else None,
            "plies": plies, "finished": finished, "stalled": stalled}


def selfplay(argv: list[str]) -> int:
    """`companion selfplay`: see SELFPLAY_HELP."""
    ap = argparse.ArgumentParser(prog="companion selfplay", description=SELFPLAY_HELP)
    ap.add_argument("--games", type=count, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, choices=(2, 3, 4), default=None,
                    help="players per game (default: drawn per game from 2-4)")
    args = ap.parse_args(argv)
    print(json.dumps(run_selfplay(args.games, args.seed, args.players)))
    return 0


# ----- new ---------------------------------------------------------------------------------
def new(argv: list[str]) -> int:
    """`companion new --players P --seed S [--out FILE]`: a fresh record with a random R1 setup."""
    ap = argparse.ArgumentParser(prog="companion new", description=new.__doc__)
    ap.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    ap.add_argument("--seed", type=int, default=None, help="random seed (default: fresh randomness)")
    ap.add_argument("--first-player", type=int, default=None, help="0-based index (default: drawn at random)")
    ap.add_argument("--out", default="-", type=new_file_or_stdout, help="file to write (default: standard output)")
    args = ap.parse_args(argv)
    if args.first_player is not None and not 0 <= args.first_player < args.players:
        ap.error(f"--first-player must be 0..{args.players - 1}")
    record = Record.from_game(Game.new(args.players, args.seed, args.first_player))
    if args.out == "-":
        sys.stdout.write(record.to_json())
    else:
        record.save(args.out)
    return 0
