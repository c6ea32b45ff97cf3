"""`companion bench`: how fast the companion answers, as numbers (not a pass/fail test).

- key -> frame: for each key of scripted whole games, the time from handing the key to
  the controller to a finished 128x64 frame image (journal and bus transfer excluded);
  prints p50/p99/max in milliseconds. Target: p99 <= 5 ms.
- key -> frame beside a camera (`key_to_frame_camera`, companion.bench.camera): the same keys game
  by game with the camera off and on, in turn; on, the kiosk's camera thread watches a folder
  camera fed a changing table at `--camera-fps` (the box's 4 by default): `without_camera`,
  `with_camera` (p50/p99/max), `p99_ratio` (goal <= 1.2), then the camera alone for
  `--camera-idle` seconds: `camera_cpu_share` (of one core) and the memory with it on.
- replay of a long whole game's record (`replay_whole_game`, with the latency; about 50 moves:
  no Clans game reaches 60): reading and checking the file, playing the moves, the summary and
  its text, in this process; median and max ms. Target < 10 ms for 60 moves (the process's
  start-up is cold start's).
- the whole path (companion.bench.path): every stage a key takes through the real daemon,
  journal commit (fsync) and the bytes handed to a real luma ssd1306 on a counting fake I2C
  bus included: `stages` (p50/p99 each), `key_to_bus`, `bus_bytes_per_key`,
  `full_frame_bytes`, `peak_rss_mb`, `rss_mb_after_games` (first, half-way, last: one
  display for the whole run, as on the box). `--journal-dir DIR`: where the journals go (the state
  directory's filesystem; default a temporary folder).
- cold start: wall time of `companion run --display dummy --keys EMPTY --players 2`
  as a fresh process (interpreter start, imports, first frame, exit), next to
  `bare_interpreter` (`python -c pass`, the same number of runs, interleaved so both see the
  same machine load) and reported as `ratio` (cold median / bare median). Target: ratio <= 4
  (the Pi's CPU: tools/arm64-bench.sh runs it in an aarch64 root under emulation).
  `replay_start`: the same for `companion replay RECORD` of a finished Clans record the
  bench writes into its temporary folder first (median, min, ratio to the bare median).
  The measured processes always write and use .pyc files (PYTHONDONTWRITEBYTECODE is dropped
  for them), as an installed wheel on the box does.

- memory (`--only memory`): the daemon's resident memory after each of `--memory-games` whole
  games in one run (Clans with a bot and Mammut in turn, one display and one journal, as on the
  box), in a fresh process: `rss_mb_after_each`, `growth_mb` (last minus after the first game
  of each) and `peak_rss_mb`. It must not grow with the games played.
- the bot (`--only bot`): the search bot's turns at `--bot-time` (default 0.5 s, the box's)
  against three greedy bots over `--bot-games` games: `iterations_per_second`,
  `iterations_per_move`, `max_overrun` (the longest turn past the move time, as a fraction);
  then a game of each level (hard, normal, easy at the table's scaled times): each one's longest
  turn in seconds (`levels_longest_turn_s`) and `hard_to_normal`, their ratio (about 3: under
  2 s on a Pi 3 while normal takes 0.5 s); and the hard bot's first turn in a game resumed after
  36 moves, when it reads the whole history at once (`hard_reading_s`, `hard_resumed_turn_s`).
  tools/arm64-bench.sh runs it on the Pi's CPU.
- the camera (`--only camera`, companion.bench.camera): the proposal's median time over
  `--camera-runs` moves beside one JPEG decode of the same 1280x960 photograph (`ratio`, which
  holds on a Pi), how many of the moves it named, and the memory it took; `libraries`: for each
  webcam library installed (linuxpy on a fake UVC camera, OpenCV), in a fresh process with the
  kiosk's modules, `--camera-frames` frames grabbed at 4 a second and judged: its import time,
  the memory before and after it, and the median time to grab one frame and to judge it.

Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

from companion.bench.path import percentile


def key_to_frame(games: int, seed: int, keep: bool = False) -> dict:
    from companion.games.clans.controller import Controller
    from companion.table.render import render
    from companion.games.clans.board import COLORS

    times: list[float] = []
    clock = time.perf_counter

    def press(c: Controller, keys: str) -> None:
        for k in keys:
            t0 = clock()
            c.handle(k, t0)
            c.pop_effects()
            render(c.screen())
            times.append(clock() - t0)

    for g in range(games):
        rnd = random.Random(seed + g)
        c = Controller.quick_start(2 + g % 3, random.Random(seed + g))
        render(c.screen())
        while not c.game.is_over:
            frm, to = c.game.random_move(rnd.random)
            if rnd.random() < 0.1:  # some buttons-only entry and some undo, as at a real table
                press(c, "BA*")
            press(c, f"{frm}#{to}#")
            while c.mode() == "order":
                press(c, f"{rnd.choice(c.order_choices())}#")
            if rnd.random() < 0.05 and not c.game.is_over:
                press(c, "C#")
        for col in rnd.sample(COLORS, c.game.players):
            press(c, f"{COLORS.index(col) + 1}#")
        press(c, "AB")
    ms = [t * 1000 for t in times]
    return {"keys": len(ms), "p50_ms": round(percentile(ms, 50), 3), "p99_ms": round(percentile(ms, 99), 3),
            "max_ms": round(max(ms), 3), "mean_ms": round(statistics.fmean(ms), 3),
            **({"times_ms": ms} if keep else {})}


def _finished_record(path: str, seed: int = 1) -> None:
    """A random Clans game played to its end (not stalled), saved as a game record at `path`."""
    from companion.games.clans.commands import play_random_game
    from companion.games.clans.game import FINISHED
    from companion.games.clans.record import Record

    rng = random.Random(seed)
    while True:
        game = play_random_game(rng, 2)
        if game.status == FINISHED:
            Record.from_game(game).save(path)
            return


def replay_whole_game(repeats: int = 50, seed: int = 1) -> dict:
    """`companion replay`'s work on the record of a long whole game, in this process (the start-up is
    cold_start's): read and check the file, play every move, build the summary, its JSON and text;
    milliseconds. (A Clans game cannot reach 60 moves: each move empties a territory and the 12th
    village ends it, so a long game has about 50.)"""
    from companion.games.clans.commands import replay_text
    from companion.games.clans.game import Game, random_setup
    from companion.games.clans.record import Record, summary

    rng = random.Random(seed)
    game = Game(4, random_setup(rng), 0, trusted=True)
    while not game.is_over:  # a long game: this table founds a village only when it must
        tries = [game.random_move(rng.random) for _ in range(30)]
        a, b = next((m for m in tries if not game.isolated_by(*m)), tries[0])
        game.push_unchecked(a, b, None, rng.shuffle)
    times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "whole.json")
        Record.from_game(game).save(path)
        for _ in range(repeats):
            t0 = time.perf_counter()
            record = Record.load(path)
            s = summary(record.play(), record.colors)
            json.dumps(s, indent=1)
            replay_text(s)
            times.append(time.perf_counter() - t0)
    ms = [t * 1000 for t in times]
    return {"moves": game.ply, "median_ms": round(statistics.median(ms), 3), "max_ms": round(max(ms), 3)}


def _env() -> dict[str, str]:
    """The environment of the measured processes: this one's, but always with .pyc files written
    and used (PYTHONDONTWRITEBYTECODE would compile every changed module at every start, which an
    installed wheel on the box never does)."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _timed(cmd: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, env=_env())
    return time.perf_counter() - t0


def _stats(times: list[float]) -> dict:
    return {"median_s": round(statistics.median(times), 3), "min_s": round(min(times), 3)}


def cold_start(runs: int) -> dict:
    """Cold start and replay start as fresh processes, next to the bare interpreter's start.

    The three commands take turns within each run, so a busy machine slows them alike and
    the ratios stay meaningful where the absolute times are not."""
    with tempfile.TemporaryDirectory() as tmp:
        keys = os.path.join(tmp, "empty.keys")
        open(keys, "w").close()
        record = os.path.join(tmp, "finished.json")
        _finished_record(record)
        cmd = [sys.executable, "-m", "companion", "run", "--display", "dummy", "--keys", keys,
               "--players", "2", "--seed", "1"]
        bare_cmd = [sys.executable, "-c", "pass"]
        replay_cmd = [sys.executable, "-m", "companion", "replay", record]
        for warm in (cmd, bare_cmd, replay_cmd):  # warm the OS file cache and .pyc files
            subprocess.run(warm, check=True, capture_output=True, env=_env())
        times: list[float] = []
        bare: list[float] = []
        replay: list[float] = []
        for _ in range(runs):
            bare.append(_timed(bare_cmd))
            times.append(_timed(cmd))
            replay.append(_timed(replay_cmd))
    bare_median = statistics.median(bare)
    return {"cold_start": {"runs": runs, **_stats(times), "max_s": round(max(times), 3)},
            "bare_interpreter": _stats(bare),
            "ratio": round(statistics.median(times) / bare_median, 2),
            "replay_start": {**_stats(replay), "ratio": round(statistics.median(replay) / bare_median, 2)}}


def memory(games: int, seed: int, state_root: str | None = None) -> dict:
    """The daemon's memory over `games` whole games in one run (companion.bench.path.memory_over_games),
    in a fresh process so that its peak is the daemon's own, not this bench's."""
    cmd = [sys.executable, "-m", "companion.bench.path", "memory", str(games), str(seed)]
    if state_root:
        cmd.append(state_root)
    done = subprocess.run(cmd, check=True, capture_output=True, text=True, env=_env())
    return json.loads(done.stdout.splitlines()[-1])


def bot_turns(games: int, seed: int, move_time: float) -> dict:
    """The search bot's turns at the box's move time against three greedy bots: its iterations per
    second and per move, and the longest turn past the move time (a fraction: 0.05 = 5% over)."""
    from companion.games.clans.bots.arena import arena

    r = arena(["mcts", "greedy", "greedy", "greedy"], games, seed, move_time)
    levels = arena(["hard", "normal", "easy"], games, seed, move_time)
    hard, normal, easy = levels["longest_turn"]
    return {"games": games, "move_time": move_time, "iterations_per_second": r["iterations_per_second"],
            "iterations_per_move": r["iterations_per_move"], "max_overrun": r["max_overrun"],
            "levels_longest_turn_s": {"easy": easy, "normal": normal, "hard": hard},
            "hard_to_normal": round(hard / normal, 2) if normal else None,
            **hard_resumed(seed, move_time)}


def hard_resumed(seed: int, move_time: float, plies: int = 36) -> dict:
    """The hard bot's first turn in a game resumed after `plies` moves (a restart, an undo): it reads
    the whole history at once (bots.intent), inside its own move time. `hard_reading_s`: that reading
    alone; `hard_resumed_turn_s`: the whole turn."""
    import random
    import time

    from companion.games.clans.bots import make_bot
    from companion.games.clans.bots.intent import History
    from companion.games.clans.game import IN_PROGRESS, Game
    from companion.games.clans.levels import thinking_time

    rng = random.Random(seed)
    game = Game.new(3, seed=seed, first_player=0)
    while game.ply < plies and game.status == IN_PROGRESS:
        game.push(*game.random_move(rng.random))
    t0 = time.perf_counter()
    History().loglik(game)
    reading = time.perf_counter() - t0
    t0 = time.perf_counter()
    make_bot("hard").choose(game, game.to_move, "red", rng, move_time=thinking_time("hard", move_time))
    return {"hard_reading_s": round(reading, 3), "hard_resumed_turn_s": round(time.perf_counter() - t0, 3)}


def main(argv: list[str]) -> int:
    """`companion bench [--only NAME] ...`: prints the benchmarks' numbers as one JSON object."""
    from companion.argtypes import MAX_COUNT, count, existing_directory, seconds, seed, whole
    from companion.hw.settings_checks import MAX_FPS, MIN_FPS

    def fps(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not MIN_FPS <= value <= MAX_FPS:  # nan too
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of frames a second ({MIN_FPS:g}-{MAX_FPS:g})")
        return value

    from companion.box.config_base import MAX_BOT_MOVE_TIME

    ap = argparse.ArgumentParser(prog="companion bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=count, default=20, help="scripted games for key -> frame (default 20)")
    ap.add_argument("--runs", type=count, default=10, help="process starts for cold start (default 10)")
    ap.add_argument("--seed", type=seed, default=1)
    ap.add_argument("--only", choices=("latency", "path", "cold", "memory", "bot", "camera"), help="run one benchmark only")
    ap.add_argument("--journal-dir", type=existing_directory,
                    help="a folder on the state directory's filesystem for the journals")
    ap.add_argument("--memory-games", type=whole(2, MAX_COUNT), default=20,
                    help="whole games in one run for memory, at least 2 (default 20)")
    ap.add_argument("--bot-games", type=count, default=2, help="games of the bot's turns (default 2)")
    ap.add_argument("--bot-time", type=seconds(MAX_BOT_MOVE_TIME), default=0.5,
                    help=f"the bot's move time in s, up to {MAX_BOT_MOVE_TIME:g} (default 0.5, the box's)")
    ap.add_argument("--camera-runs", type=count, default=20, help="moves the camera proposes (default 20)")
    ap.add_argument("--camera-frames", type=count, default=20,
                    help="camera: the frames each webcam library grabs and the watcher judges (default 20)")
    ap.add_argument("--camera-fps", type=fps, default=4.0,
                    help="latency: the frames a second the camera watches at beside the keys (default 4, the box's)")
    ap.add_argument("--camera-idle", type=seconds(60), default=5.0,
                    help="latency: seconds the camera watches alone, for its share of a core (default 5)")
    args = ap.parse_args(argv)
    out: dict = {}
    if args.only in (None, "latency"):
        out["key_to_frame"] = key_to_frame(args.games, args.seed)
        out["replay_whole_game"] = replay_whole_game(seed=args.seed)
        from companion.bench.camera import latency_with_camera

        out["key_to_frame_camera"] = latency_with_camera(key_to_frame, args.games, args.seed, args.camera_fps,
                                                         idle_s=args.camera_idle)
    if args.only in (None, "path"):
        from companion.bench.path import whole_path

        out.update(whole_path(max(1, args.games // 2), args.seed, args.journal_dir))
    if args.only in (None, "cold"):
        out.update(cold_start(max(1, args.runs)))
    if args.only in (None, "memory"):
        out["memory"] = memory(max(2, args.memory_games), args.seed, args.journal_dir)
    if args.only in (None, "bot"):
        out["bot"] = bot_turns(max(1, args.bot_games), args.seed, args.bot_time)
    if args.only in (None, "camera"):
        from companion.bench.camera import camera_bench

        from companion.bench.camera import libraries

        out["camera"] = camera_bench(max(1, args.camera_runs), args.seed)
        out["camera"]["libraries"] = libraries(max(1, args.camera_frames), args.seed)
    print(json.dumps(out))
    return 0
