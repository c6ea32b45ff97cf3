"""Play scripted games headless and write one PNG per distinct screen (scaled 4x, for the table's guide).

    python tools/gallery.py OUTDIR [--seed S] [--scale 4] [--lang CODE | --lang all] [--readme docs/playing.md]

The gallery lives in docs/playing.md (the table's guide; README.md only links to it):

    python tools/gallery.py docs/screens --lang all --scale 2 --readme docs/playing.md

With `--lang all` each language's frames go to OUTDIR/<code>/, the same keys in every
language, so the pictures line up; `--readme FILE` rewrites the part of FILE between
the gallery markers with a table per language (English open, the others folded), the
images linked relative to FILE's folder.

Runs the real daemon (`companion run` on luma's dummy display) with key scripts:
the new-game questions and setup walkthrough (its last page, the clan cards, in a run of its own at the
end), a whole random game with detours
through the menu, an illegal move and an undo, the village-order question (from the
spec's order-matters example) and the reveal; a game with a bot seat (the private
deal of colors, the bot's proposal, a hint); then Valley of the Mammoths: its
new-game questions, menu, tribe books and the phases of a first turn. The first frame of each screen kind is
kept, named NN-<screen>.png. Generated frames are not committed; a small curated set
lives in docs/screens/.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion import i18n  # noqa: E402
from companion.kiosk import daemon  # noqa: E402
from companion.games import GAMES  # noqa: E402
from companion.games.clans.board import COLORS  # noqa: E402
from companion.games.clans.controller import Controller  # noqa: E402
from companion.games.clans.record import Record  # noqa: E402
from companion.games.mammut.texts import PHASE_SHORT  # noqa: E402
from companion.table.shell import Shell  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "shared" / "spec" / "examples"
if not EXAMPLES.is_dir():  # a clone without ../shared: the copies vendored for the tests
    EXAMPLES = Path(__file__).resolve().parents[1] / "tests" / "data" / "examples"


def presser(shell: Shell) -> tuple[Callable[[str], None], list[str]]:
    """A `press(text)` that plays keys on `shell` as the daemon would, and the list of what was pressed."""
    keys: list[str] = []

    def press(text: str) -> None:
        for k in text:
            shell.handle(k, 0.0)
            shell.pop_effects()
        keys.append(text)

    return press, keys


def game_script(players: int, seed: int) -> str:
    """Keys for a whole game started with `--players N --seed S`, with detours worth a picture."""
    c = Controller.quick_start(players, random.Random(seed))
    press, keys = presser(Shell(list(GAMES.values()), "clans", c, random.Random(seed)))
    rnd = random.Random(seed)

    press("1")  # the entry screen with a digit typed
    press("*")
    frm = c.game.movable()[0]
    press("B#B")  # buttons-only: scroll the movable territories, then their targets
    press("*" * 3)
    press(f"{frm}#60#")  # illegal
    detour = True
    while not c.game.is_over:
        frm, to = c.game.random_move(rnd.random)
        press(f"{frm}#{to}#")
        while c.mode() == "order":
            press(f"{rnd.choice(c.order_choices())}#")
        if c.game.ply == 3 and detour:
            detour = False
            press("C")  # undo?
            press("#")  # undone
            press("D")  # menu
            press("4#")  # scores
            press("D5#14#")  # huts on 14
            press("*D6#")  # brightness
            press("*")
    colors = rnd.sample(COLORS, players)
    press(f"{COLORS.index(colors[0]) + 1}#")
    press(f"{COLORS.index(colors[0]) + 1}#")  # refused
    for col in colors[1:]:
        press(f"{COLORS.index(col) + 1}#")
    return "".join(keys)


def mammut_script(seed: int) -> str:
    """Keys for the Mammut new-game questions and a first turn, with the menu and the tribe books."""
    rng = random.Random(seed)
    shell = Shell(list(GAMES.values()), "mammut", GAMES["mammut"].load().new(rng), rng)
    press, keys = presser(shell)
    c = shell

    press("3#B##2#1#2#")  # 3 tribes, first game, standard rules; yellow, red, blue (the first is drawn)
    press("D")  # the menu
    press("2#")  # tribe books
    press("#")
    for _ in range(120):  # a careful table that takes every default: the phases and their questions
        press("1#" if c.screen().name == "actions" else "#")
    return "".join(keys)


def collect(argv: list[str], keys: str, tmp: Path, shots: dict, order: list, seen: list | None = None) -> None:
    """Run one scripted game; the first frame of each screen kind into `shots` (names in `order`),
    every screen shown into `seen` when given."""
    thinking: set[str] = set()
    path = tmp / f"k{len(order)}"
    path.write_text(keys)
    d = daemon.build(daemon.parse_args([*argv, "--display", "dummy", "--keys", str(path)]))

    def on_frame(screen, image) -> None:
        if seen is not None:
            seen.append(screen)
        name = screen.name
        if name == "phase":  # Mammut: one picture per phase, named in English ("3.Movement" -> phase-movement)
            name = "phase-" + PHASE_SHORT[d.shell.game.game.phase].split(".", 1)[-1].lower().replace(" ", "-")
        if name not in shots:
            order.append(name)
        elif name not in thinking:
            return
        shots[name] = image  # a "Thinking..." frame gives way to the answer that follows it
        if screen.lines[:1] == (i18n._("Thinking..."),):
            thinking.add(name)
        else:
            thinking.discard(name)

    d.on_frame = on_frame
    d.run()


def play_all(seed: int, lang: str, seen: list | None = None) -> tuple[dict, list[str]]:
    """Every scripted game in language `lang`: (first frame per screen kind, the kinds in order)."""
    shots: dict = {}
    order: list[str] = []
    lang_arg = ["--lang", lang]
    i18n.set_language("en")  # the scripts are decided on English screens; the frames are drawn in `lang`
    clans, mammut = game_script(3, seed), mammut_script(seed)
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)

        def run(argv: list[str], keys: str) -> None:
            collect([*argv, *lang_arg], keys, tmp, shots, order, seen)

        run(["--seed", str(seed)], "3#0##" + "#" * 12)  # the questions, then the walkthrough to region 12
        run(["--players", "3", "--seed", str(seed)], clans)
        rec = Record.load(EXAMPLES / "order-matters.record.json")
        idx = next(i for i, m in enumerate(rec.moves) if m.order == (37, 29))
        start = tmp / "start.json"
        Record(rec.players, rec.first_player, rec.setup, rec.moves[:idx]).save(start)
        run(["--load", str(start)], "30#29#37#BBB")
        run(["--load", str(start)], "D7#")
        # a bot seat: the private deal, the bot's proposal, a hint for the person to move
        run(["--players", "3", "--seed", str(seed), "--bots", "2", "--bot", "random"], "#" * 6 + "D3#" + "#" * 6)
        run(["--game", "mammut", "--seed", str(seed)], mammut)
        # the language list, then the menu in the language picked (this run's own)
        run(["--seed", str(seed)], f"D8#{i18n.LANGUAGES.index(lang) + 1}#D")
        # the walkthrough's last page, the clan cards (last here: the older frames keep their numbers)
        run(["--seed", str(seed)], "3#0##" + "#" * 13)
    i18n.set_language("en")
    return shots, order


def write(out: Path, shots: dict, order: list[str], scale: int) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for n, name in enumerate(order, start=1):
        image = shots[name]
        image.resize((image.width * scale, image.height * scale)).save(
            out / f"{n:02d}-{name.rstrip('?').replace(':', '-')}.png", optimize=True)
    print(f"{len(order)} screens written to {out}")


START, END = "<!-- gallery: made by tools/gallery.py --readme -->", "<!-- gallery end -->"


def markdown(out: Path, readme: Path, codes: tuple[str, ...], columns: int = 3) -> str:
    """The guide's galleries: one table per language of the frames in out/<code>/, linked from readme's folder."""
    parts = []
    for code in codes:
        frames = sorted((out / code if len(codes) > 1 else out).resolve().glob("*.png"))
        cells = [f"![{p.stem[3:]}]({p.relative_to(readme.parent).as_posix()})<br>{p.stem[3:]}" for p in frames]
        cells += [" "] * (-len(cells) % columns)
        rows = ["| " + " | ".join(cells[i:i + columns]) + " |" for i in range(0, len(cells), columns)]
        table = "\n".join(["|" + " |" * columns, "|" + "---|" * columns, *rows])
        if code == "en":
            parts.append(table)
        else:
            parts.append(f"<details><summary>{i18n.NATIVE_NAMES[code]}</summary>\n\n{table}\n\n</details>")
    return "\n\n".join(parts)


def update_readme(readme: Path, text: str) -> None:
    """Replace what lies between the gallery markers of `readme` with `text`."""
    whole = readme.read_text()
    head, _, rest = whole.partition(START)
    _, _, tail = rest.partition(END)
    if not rest:
        raise SystemExit(f"{readme}: no line {START!r} to put the gallery after")
    readme.write_text(f"{head}{START}\n{text}\n{END}{tail}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--scale", type=int, default=4)
    ap.add_argument("--lang", default="en", choices=(*i18n.LANGUAGES, "all"))
    ap.add_argument("--readme", type=Path, help="rewrite this file's gallery section (docs/playing.md)")
    args = ap.parse_args(argv)
    out = Path(args.outdir)
    codes = i18n.LANGUAGES if args.lang == "all" else (args.lang,)
    for code in codes:
        shots, order = play_all(args.seed, code)
        if len(codes) > 1:
            for stale in (out / code).glob("*.png"):
                stale.unlink()
        write(out / code if len(codes) > 1 else out, shots, order, args.scale)
    if args.readme:
        update_readme(args.readme, markdown(out, args.readme.resolve(), codes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
