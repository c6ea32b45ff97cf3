"""How often the camera names the right move: synthetic photographs of real games, scored.

For each game (the spec's example records, interleaved with seeded random games of 2-4 players)
a camera pose is drawn, the empty board is photographed once, and then for each move in order:
a photo before it, the physical huts moved (`photos.Table.move`), a photo after it under the
sample's condition, `propose(game, before, after, empty, corners)`, and the score:

- right: the proposal is the expected answer (the move made; None for "two_moves" and "no_move",
  where no single move explains the photos),
- unsure: None where a move was expected (the box asks the players instead),
- wrong: any other move (the box would play a move nobody made: the failure that matters),
- error: propose raised.

Then the engine plays the move and the table follows it (`Table.reconcile`: villages' chips,
destroyed huts leave), and the next "before" photo is taken of that table.

Conditions (each sample draws one, `--mix`): the photo looks "clean", "light" (uneven and
changing light), "noise" (noisy sensor, strong JPEG), "blur", "rough" (all of them anywhere in
their range); and "nudge" (1-3 huts of other territories knocked 3-10 px in the after photo),
"hand" (an arm over the board in the after photo: None or the true move are fine, another move is
wrong), "two_moves" (the engine plays two moves between the photos), "no_move" (the same table
again under new light). CLEAN_ISH are the conditions where the camera should nearly always be right.

A table's life (LIFE, not in the default mix: `--mix object=1,dusk=1,glare=1`): "object" (a cup, a
phone or a cat's paw set down in the after photo on a territory next to the move's source, half
the time on another of its legal targets when it has one), "dusk" (the before and after photos
taken far into dusk, `photos.dusk_look`, deeper the later in the game, the after a little deeper
than the before, while the empty board was photographed by day), "glare" (a lamp's fixed
reflection over the destination, or now and then the source or another legal target, in the
before and after photos and not in the empty board's). The move was made in each: the true move
or None is fine, another move is wrong.

    python -m tests.games.clans.camera.accuracy --moves 1000 --seed 1
    python -m tests.games.clans.camera.accuracy --moves 200 --mix clean=1,hand=1 --sizes 640x480 --json

prints the wrong cases, then one summary line (and with --json a JSON object as the last line).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from companion.games.clans.game import Game
from companion.games.clans.record import Record
from companion.games.clans.rules import Move

from tests.games.clans.camera.photos import (LOOKS, REPO, SHARED, Hand, Look, Table, Thing, dusk_look, photograph,
                                             random_camera, random_glare, random_hand, random_look, random_thing,
                                             replace)

CONDITIONS = ("clean", "light", "noise", "blur", "rough", "nudge", "hand", "two_moves", "no_move", "object", "dusk",
              "glare")
CLEAN_ISH = ("clean", "light", "noise", "blur", "nudge")  # should be right (nearly) always
REFUSALS = ("two_moves", "no_move")  # the only right answer is None
LIFE = ("object", "dusk", "glare")  # a family table's life: never a wrong move
DUSK_PLIES = 40  # "dusk": its depth grows from 0.3 at the game's start to 1 at this ply
DEFAULT_MIX: dict[str, float] = {"clean": 25, "light": 15, "noise": 12, "blur": 10, "rough": 10, "nudge": 10,
                                 "hand": 8, "two_moves": 5, "no_move": 5}
DEFAULT_SIZES: dict[tuple[int, int], float] = {(1280, 960): 3, (640, 480): 1}
VERDICTS = ("right", "unsure", "wrong", "error")
EXAMPLES = SHARED / "spec" / "examples"
VENDORED = REPO / "tests" / "data" / "examples"  # the spec's examples, vendored (as tests/conftest.py)

# propose(game, before, after, empty, corners) -> an object with .move ((from, to) or None) and .reason
Proposer = Callable[..., Any]


@dataclass
class Sample:
    """One proposal and its score."""

    game: str
    ply: int  # moves played in the game before this one
    condition: str
    size: tuple[int, int]
    moves: tuple[tuple[int, int], ...]  # the moves made between the photos (none, one, or two)
    expected: tuple[int, int] | None
    proposed: tuple[int, int] | None
    verdict: str
    reason: str
    seconds: float
    hidden: tuple[int, ...] = ()  # "hand": the move's territories the hand hides
    scene: str = ""  # "object", "dusk", "glare": what was where ("cup 7.2 cm on 12")

    def describe(self) -> str:
        made = ", ".join(f"{a}->{b}" for a, b in self.moves) or "no move"
        got = f"{self.proposed[0]}->{self.proposed[1]}" if self.proposed else "None"
        hid = f", hand hides {', '.join(map(str, self.hidden))}" if self.hidden else ""
        scene = f", {self.scene}" if self.scene else ""
        return (f"{self.verdict}: {self.game} ply {self.ply} {self.condition} {self.size[0]}x{self.size[1]}: "
                f"made {made}, proposed {got}{hid}{scene}: {self.reason}")


@dataclass
class Tally:
    n: int = 0
    right: int = 0
    unsure: int = 0
    wrong: int = 0
    error: int = 0

    def add(self, verdict: str) -> None:
        self.n += 1
        setattr(self, verdict, getattr(self, verdict) + 1)

    @property
    def share(self) -> float:
        """The share right (1.0 when empty)."""
        return self.right / self.n if self.n else 1.0

    def as_dict(self) -> dict[str, Any]:
        return {"n": self.n, "right": self.right, "unsure": self.unsure, "wrong": self.wrong, "error": self.error}


@dataclass(repr=False)
class Report:
    """What a run found: every sample, and totals by condition and photo size."""

    seed: int
    samples: list[Sample] = field(default_factory=list)
    photo_seconds: list[float] = field(default_factory=list)

    def tally(self, conditions: Sequence[str] | None = None, size: tuple[int, int] | None = None) -> Tally:
        t = Tally()
        for s in self.samples:
            if (conditions is None or s.condition in conditions) and (size is None or s.size == size):
                t.add(s.verdict)
        return t

    @property
    def total(self) -> Tally:
        return self.tally()

    @property
    def clean_ish(self) -> Tally:
        return self.tally(CLEAN_ISH)

    def by_condition(self) -> dict[str, Tally]:
        return {c: self.tally((c,)) for c in CONDITIONS if any(s.condition == c for s in self.samples)}

    def by_size(self) -> dict[str, Tally]:
        sizes = sorted({s.size for s in self.samples}, reverse=True)
        return {f"{w}x{h}": self.tally(size=(w, h)) for w, h in sizes}

    def cases(self, *verdicts: str) -> list[Sample]:
        return [s for s in self.samples if s.verdict in verdicts]

    @property
    def ms_per_proposal(self) -> float:
        return 1000 * sum(s.seconds for s in self.samples) / len(self.samples) if self.samples else 0.0

    @property
    def ms_per_photo(self) -> float:
        return 1000 * sum(self.photo_seconds) / len(self.photo_seconds) if self.photo_seconds else 0.0

    def __repr__(self) -> str:
        return f"Report({self.line()})"

    def line(self) -> str:
        """The one-line summary."""
        t = self.total
        parts = []
        for name, c in self.by_condition().items():
            extra = ", ".join(f"{getattr(c, v)} {v}" for v in ("unsure", "wrong", "error") if getattr(c, v))
            parts.append(f"{name} {c.right}/{c.n}" + (f" ({extra})" if extra else ""))
        errors = f", errors {t.error}" if t.error else ""
        return (f"camera accuracy: {t.n} moves, right {t.right} ({100 * t.share:.1f}%), unsure {t.unsure}, "
                f"wrong {t.wrong}{errors}; {'; '.join(parts)}; clean-ish right {100 * self.clean_ish.share:.1f}%; "
                f"{self.ms_per_proposal:.1f} ms per proposal, {self.ms_per_photo:.1f} ms per photo; seed {self.seed}")

    def as_dict(self) -> dict[str, Any]:
        return {
            "seed": self.seed, **self.total.as_dict(), "clean_ish": self.clean_ish.as_dict(),
            "conditions": {k: v.as_dict() for k, v in self.by_condition().items()},
            "sizes": {k: v.as_dict() for k, v in self.by_size().items()},
            "ms_per_proposal": round(self.ms_per_proposal, 2), "ms_per_photo": round(self.ms_per_photo, 2),
            "cases": [{"game": s.game, "ply": s.ply, "condition": s.condition, "size": list(s.size),
                       "moves": [list(m) for m in s.moves], "expected": list(s.expected) if s.expected else None,
                       "proposed": list(s.proposed) if s.proposed else None, "verdict": s.verdict,
                       "reason": s.reason, "hidden": list(s.hidden), "scene": s.scene}
                      for s in self.cases("wrong", "error", "unsure")],
        }


def verdict(expected: tuple[int, int] | None, proposed: tuple[int, int] | None) -> str:
    """right, unsure or wrong (see the module's docstring)."""
    if proposed == expected:
        return "right"
    return "unsure" if proposed is None else "wrong"


def example_records() -> list[Path]:
    folder = EXAMPLES if EXAMPLES.is_dir() else VENDORED
    return sorted(folder.glob("*.record.json"))


def games(seed: int, records: bool = True) -> Iterator[tuple[str, Game, list[Move] | None]]:
    """(name, fresh game, its recorded moves or None for a random game): the example records
    interleaved with seeded random games of 2-4 players, then random games for ever."""
    recs = [(p.name[: -len(".record.json")], Record.load(p)) for p in example_records()] if records else []
    k = 0
    while True:
        if recs:
            name, rec = recs.pop(0)
            yield f"record:{name}", rec.new_game(), list(rec.moves)
        rng = random.Random(f"camera-game/{seed}/{k}")
        players = rng.choice((2, 3, 4))
        game_seed = rng.randrange(1 << 30)
        yield f"random:{players}p/{game_seed}", Game.new(players, seed=game_seed), None
        k += 1


def _pick(rng: random.Random, weights: dict[Any, float]) -> Any:
    keys = list(weights)
    return rng.choices(keys, [weights[k] for k in keys])[0]


def _default_proposer() -> Proposer:
    from companion.games.clans.camera.propose import propose
    return propose


def _as_move(move: Any) -> tuple[int, int] | None:
    return None if move is None else (int(move[0]), int(move[1]))


def run(moves: int = 1000, seed: int = 1, mix: dict[str, float] | None = None,
        sizes: dict[tuple[int, int], float] | None = None, *, corner_error: float = 3.0, records: bool = True,
        proposer: Proposer | None = None, save: Path | None = None,
        progress: Callable[[Sample], None] | None = None) -> Report:
    """Photograph `moves` samples of real games and score `proposer` (default: the camera's propose).

    `mix`: each condition's weight (DEFAULT_MIX); `sizes`: each photo size's weight, drawn per
    game (DEFAULT_SIZES); `corner_error`: how far (photo pixels) the tapped corners may be off;
    `save`: a folder to write the photos of the wrong, unsure and error cases into (for looking at them).
    """
    mix = dict(DEFAULT_MIX if mix is None else mix)
    unknown = set(mix) - set(CONDITIONS)
    if unknown:
        raise ValueError(f"unknown conditions {', '.join(sorted(unknown))}: use {', '.join(CONDITIONS)}")
    mix = {k: v for k, v in mix.items() if v > 0}
    if not mix:
        raise ValueError("the mix gives no condition any weight")
    sizes = dict(DEFAULT_SIZES if sizes is None else sizes)
    proposer = proposer or _default_proposer()
    report = Report(seed)
    saved = 0

    def shoot(rng: random.Random, table: Table | None, camera, kind: str, hand: Hand | None = None,
              look: Look | None = None, things: Sequence[Thing] = ()):
        t0 = time.perf_counter()
        image, corners = photograph(table, camera, look or random_look(rng, kind), hand, things)
        report.photo_seconds.append(time.perf_counter() - t0)
        return image, corners

    for name, game, recorded in games(seed, records):
        if len(report.samples) >= moves:
            break
        rng = random.Random(f"camera-run/{seed}/{name}")
        size = _pick(rng, sizes)
        camera = random_camera(rng, size, corner_error=corner_error)
        table = Table.setup(game, random.Random(rng.randrange(1 << 30)))
        empty, corners = shoot(rng, None, camera, rng.choice(("clean", "light")))

        def next_move(g: Game) -> Move | None:
            if g.is_over:
                return None
            if recorded is not None:
                return recorded[g.ply] if g.ply < len(recorded) else None
            a, b = g.random_move(rng.random)
            return Move(a, b)

        while len(report.samples) < moves:
            move = next_move(game)
            if move is None:
                break
            condition = _pick(rng, mix)
            if condition == "two_moves":
                probe = game.copy()
                probe.push(move)
                if probe.is_over or (recorded is not None and probe.ply >= len(recorded)):
                    others = {k: v for k, v in mix.items() if k != "two_moves"}
                    if not others:
                        break
                    condition = _pick(rng, others)
            kind = condition if condition in LOOKS else rng.choice(("clean", "light", "noise", "blur"))
            ply = game.ply
            a, b = move.frm, move.to
            looks: tuple[Look | None, Look | None] = (None, None)
            scene = ""
            if condition == "dusk":
                day = random_look(rng, "light")
                depth = min(1.0, 0.3 + 0.7 * ply / DUSK_PLIES) * rng.uniform(0.85, 1.0)
                later = min(1.0, depth + rng.uniform(0.01, 0.06))
                looks = (dusk_look(rng, depth, day), dusk_look(rng, later, day))
                scene = f"dusk {depth:.2f} -> {later:.2f}"
            elif condition == "glare":
                others = [t for t in game.targets(a) if t != b]
                roll = rng.random()  # over the destination 6 times in 10, the source 2, another target 2
                over = b if roll < 0.6 else a if roll < 0.8 else rng.choice(others) if others else b
                glare = random_glare(rng, table.centre(over))
                looks = (replace(random_look(rng, kind), glare=glare), replace(random_look(rng, kind), glare=glare))
                scene = f"glare over {over}, {glare.pieces:.0%} of it on the pieces"
            before, _ = shoot(rng, table, camera, kind, look=looks[0])
            position = game.copy()  # the position before the move, for the proposer
            made: tuple[tuple[int, int], ...] = ((a, b),)
            expected: tuple[int, int] | None = (a, b)
            hand = None
            hidden: tuple[int, ...] = ()
            things: list[Thing] = []
            if condition == "no_move":
                made, expected = (), None
            else:
                table.move(a, b)
                if condition == "nudge":
                    table.nudge(rng, rng.randint(1, 3), avoid=(a, b))
                elif condition == "hand":
                    over = table.centre(rng.choice((a, b))) if rng.random() < 0.5 else None
                    hand = random_hand(rng, camera, over)
                    hidden = tuple(t for t in (a, b) if hand.covers(camera, table.centre(t)))
                elif condition == "object":
                    others = [t for t in position.targets(a) if t != b]
                    if others and rng.random() < 0.5:
                        on = rng.choice(others)
                    else:
                        on = rng.choice(sorted(game.board.territories[a].neighbors))
                    things.append(random_thing(rng, table.centre(on)))
                    scene = f"{things[0].describe()} on {on}"
                elif condition == "two_moves":
                    game.push(move)
                    table.reconcile(game)
                    second = next_move(game)
                    assert second is not None  # (checked above)
                    table.move(second.frm, second.to)
                    game.push(second)
                    made, expected = made + ((second.frm, second.to),), None
            after, _ = shoot(rng, table, camera, kind, hand, looks[1], things)
            t0 = time.perf_counter()
            try:
                proposal = proposer(position, before, after, empty, list(corners))
                proposed, reason = _as_move(proposal.move), str(getattr(proposal, "reason", ""))
                result = verdict(expected, proposed)
            except Exception as exc:  # a crash is scored, not fatal: the run goes on
                proposed, reason, result = None, f"{type(exc).__name__}: {exc}", "error"
            sample = Sample(name, ply, condition, size, made, expected, proposed, result, reason,
                            time.perf_counter() - t0, hidden, scene)
            report.samples.append(sample)
            if progress:
                progress(sample)
            if save is not None and result != "right" and saved < 50:
                _save_case(save, len(report.samples), sample, before, after, empty, corners)
                saved += 1
            if condition not in ("no_move", "two_moves"):
                game.push(move)
            table.reconcile(game)
    return report


def _save_case(folder: Path, index: int, sample: Sample, before, after, empty, corners) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    stem = folder / f"{index:05d}-{sample.verdict}-{sample.condition}"
    for label, image in (("before", before), ("after", after), ("empty", empty)):
        image.save(f"{stem}-{label}.png")
    info = {"sample": sample.describe(), "corners": [list(c) for c in corners]}
    Path(f"{stem}.json").write_text(json.dumps(info, indent=1) + "\n", encoding="utf-8")


def parse_weights(text: str, names: Sequence[str] | None = None) -> dict[str, float]:
    """"clean=3,hand=1" (or "clean,hand": weight 1 each) -> {"clean": 3.0, "hand": 1.0}."""
    out: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, _, value = part.partition("=")
        if names is not None and key not in names:
            raise argparse.ArgumentTypeError(f"unknown {key!r}: one of {', '.join(names)}")
        try:
            out[key] = float(value) if value else 1.0
        except ValueError:
            raise argparse.ArgumentTypeError(f"{part!r}: a weight must be a number") from None
        if not math.isfinite(out[key]) or out[key] < 0:
            raise argparse.ArgumentTypeError(f"{part!r}: a weight must be 0 or more")
    if not out:
        raise argparse.ArgumentTypeError("nothing given")
    return out


def parse_sizes(text: str) -> dict[tuple[int, int], float]:
    """"1280x960=3,640x480=1" -> {(1280, 960): 3.0, (640, 480): 1.0}."""
    out = {}
    for key, weight in parse_weights(text).items():
        try:
            w, h = (int(v) for v in key.lower().split("x"))
        except ValueError:
            raise argparse.ArgumentTypeError(f"{key!r}: a size is WIDTHxHEIGHT, e.g. 1280x960") from None
        if not (160 <= w <= 8000 and 120 <= h <= 8000):
            raise argparse.ArgumentTypeError(f"{key!r}: too small or too large")
        out[(w, h)] = weight
    return out


def setup_run(setups: int, seed: int = 1) -> dict[str, int]:
    """The camera's setup check on `setups` rendered setups (random games, cameras and looks, corners
    3 px off), a third each right, with two huts' colours swapped, and with a hut missing: counts of
    right setups questioned (`false`), faults named exactly (`named`), faults missed or misnamed."""
    from companion.games.clans.camera.watch import Position, Watcher

    out = {"right": 0, "false": 0, "faults": 0, "named": 0, "missed": 0}
    rng = random.Random(f"camera-setups/{seed}")
    for i in range(setups):
        game = Game.new(rng.choice((2, 3, 4)), seed=rng.randrange(1 << 30))
        camera = random_camera(rng, _pick(rng, DEFAULT_SIZES), corner_error=3.0)
        table = Table.setup(game, random.Random(rng.randrange(1 << 30)))
        empty, corners = photograph(None, camera, random_look(rng, "clean"))
        watcher = Watcher(corners, empty, still_s=0.0)
        kind, wrong = "right", ()
        if i % 3 == 1:
            a, b = rng.sample(sorted(game.setup), 2)
            while game.setup[a] == game.setup[b]:
                b = rng.choice(sorted(game.setup))
            table.huts[a][0].rgb, table.huts[b][0].rgb = table.huts[b][0].rgb, table.huts[a][0].rgb
            kind, wrong = "setup-colour", tuple(sorted((a, b)))
        elif i % 3 == 2:
            t = rng.choice(sorted(game.setup))
            table.huts.pop(t)
            kind, wrong = "setup-missing", (t,)
        photo, _ = photograph(table, camera, random_look(rng, rng.choice(("clean", "noise", "blur"))))
        seen = watcher.frame(photo, 0.0, Position(game.copy(), "move"))
        said = (seen.kind, seen.territories) if seen is not None else (None, ())
        if kind == "right":
            out["right"] += 1
            out["false"] += said[0] != "anchored"
        else:
            out["faults"] += 1
            out["named" if said == (kind, wrong) else "missed"] += 1
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.games.clans.camera.accuracy",
                                     description="Score the camera's move proposals on synthetic photographs.")
    parser.add_argument("--moves", type=int, default=1000, help="how many proposals (default 1000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mix", type=lambda s: parse_weights(s, CONDITIONS), default=None,
                        help="conditions and weights, e.g. clean=3,hand=1 (default: "
                             + ",".join(f"{k}={v:g}" for k, v in DEFAULT_MIX.items()) + ")")
    parser.add_argument("--sizes", type=parse_sizes, default=None,
                        help="photo sizes and weights, drawn per game (default: 1280x960=3,640x480=1)")
    parser.add_argument("--corner-error", type=float, default=3.0, help="tapped corners off by up to this (px)")
    parser.add_argument("--no-records", action="store_true", help="random games only")
    parser.add_argument("--save", type=Path, default=None, help="write the photos of cases not right here")
    parser.add_argument("--verbose", action="store_true", help="print every sample")
    parser.add_argument("--json", action="store_true", help="print a JSON object as the last line")
    parser.add_argument("--setups", type=int, default=0,
                        help="instead: check this many rendered setups (right, two colours swapped, a hut missing)")
    args = parser.parse_args(argv)
    if args.setups > 0:
        counts = setup_run(args.setups, args.seed)
        print("camera setup check: {right} right setups, {false} questioned; {faults} faulty, {named} named "
              "exactly, {missed} missed or misnamed; seed {seed}".format(**counts, seed=args.seed))
        return 0
    if args.moves < 1:
        parser.error("--moves must be 1 or more")
    progress = (lambda s: print(s.describe(), flush=True)) if args.verbose else None
    report = run(args.moves, args.seed, args.mix, args.sizes, corner_error=args.corner_error,
                 records=not args.no_records, save=args.save, progress=progress)
    if not args.verbose:
        for sample in report.cases("wrong", "error")[:30]:
            print(sample.describe())
    print(report.line())
    if args.json:
        print(json.dumps(report.as_dict()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
