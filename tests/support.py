"""Helpers several test folders share: key scripts for whole games, a daemon on luma's dummy display,
a stand-in catalog that shouts (every text in capitals)."""

from __future__ import annotations

import contextlib
import gettext
import io
import random
from typing import Any

from companion.games.clans.board import COLORS
from companion.games.clans.controller import Controller
from companion.table.protocol import TableGame


def full_game_script(players: int, seed: int) -> tuple[str, list[tuple[int, int]], list[str]]:
    """Keys for a whole game from `--players N --seed S`: random legal moves, order answers, the reveal."""
    c = Controller.quick_start(players, random.Random(seed))
    rnd = random.Random(seed + 1000)
    keys, moves = [], []
    while not c.game.is_over:
        frm, to = c.game.random_move(rnd.random)
        moves.append((frm, to))
        typed = f"{frm}#{to}#"
        for k in typed:
            c.handle(k, 0)
        keys.append(typed)
        while c.mode() == "order":
            typed = f"{rnd.choice(c.order_choices())}#"
            for k in typed:
                c.handle(k, 0)
            keys.append(typed)
    colors = rnd.sample(COLORS, players)
    for col in colors:
        keys.append(f"{COLORS.index(col) + 1}#")
    return "\n".join(keys) + "\n", moves, colors


def headless_daemon(game: TableGame, kind: str = "clans") -> Any:
    """A daemon around `game` as `companion run --display dummy` builds it (no journal, no key script)."""
    from companion.kiosk import loop
    from companion.box.config import DisplayConfig
    from companion.games import GAMES
    from companion.hw.display import open_display
    from companion.hw.panel import Panel
    from companion.table.shell import Shell

    shell = Shell(list(GAMES.values()), kind, game, random.Random(0))
    panel = Panel(open_display(DisplayConfig(driver="dummy")))
    return loop.Daemon(shell, panel, headless=True)


def shout(message: str) -> str:
    """A text in capitals, its {placeholders} kept."""
    out, depth = [], 0
    for ch in message:
        depth += ch == "{"
        out.append(ch if depth else ch.upper())
        depth -= ch == "}"
    return "".join(out)


class Shouting(gettext.NullTranslations):
    """A stand-in catalog: every text in capitals, so a text that skips the catalogs shows up."""

    def gettext(self, message: str) -> str:
        return shout(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return shout(singular if n == 1 else plural)

    def pgettext(self, context: str, message: str) -> str:
        return shout(message)


def quiet(effects: list) -> list:
    """`effects` without the announcements (what the table hears is tested in tests/hw/test_sound.py)."""
    from companion.table.effects import Announce

    return [e for e in effects if not isinstance(e, Announce)]


def run_cli(*argv: str) -> tuple[int, str, str]:
    """`companion ARGV` (companion.cli.main) in this process: (exit status, stdout, stderr)."""
    from companion.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()
