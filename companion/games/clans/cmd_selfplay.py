"""`companion selfplay --games N --seed S [--players P]`: random games, the engine's throughput benchmark.

Each game: a random R1 setup, a random start player, uniformly random legal moves
and random founding orders, full scoring. Deterministic for a seed. `seconds`
covers the games only, not start-up.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from companion.games.clans.game import IN_PROGRESS, STALLED, Game, random_setup


def play_random_game(rng: random.Random, players: int) -> Game:
    rnd, shuffle = rng.random, rng.shuffle
    game = Game(players, random_setup(rng), int(rnd() * players), trusted=True)
    play, random_move = game._play, game.random_move
    while game.status == IN_PROGRESS:
        a, b = random_move(rnd)
        play(a, b, None, shuffle)
    return game


def selfplay(games: int, seed: int, players: int | None = None) -> dict:
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


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="companion selfplay", description=__doc__)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, choices=(2, 3, 4), default=None,
                    help="players per game (default: drawn per game from 2-4)")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be at least 1")
    print(json.dumps(selfplay(args.games, args.seed, args.players)))
    return 0
