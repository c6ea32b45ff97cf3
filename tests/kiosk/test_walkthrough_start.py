"""The setup walkthrough (where the huts go) shows whichever way a game starts at a table: after
the new-game questions, after `companion run --players N` (with or without bots), and after
`--load` of a record of a game not yet begun (`companion new`). A key script (`--keys`, a pipe)
still plays at once, as the headless contract says."""

from __future__ import annotations

import pytest

from companion.games.clans.record import Record
from companion.kiosk import daemon
from companion.table import keys as K
from tests.support import run_cli


@pytest.fixture
def at_table(monkeypatch):
    """`companion run ARGS` in a terminal (keys typed, not a script), its Daemon built, not run."""
    monkeypatch.setattr("companion.hw.terminal.stdin_is_tty", lambda stream=None: True)
    monkeypatch.setattr(daemon, "open_inputs", lambda d, cfg, emulated: None)
    dummy_sink = daemon.open_sink
    monkeypatch.setattr(daemon, "open_sink", lambda driver, cfg, frames=None: dummy_sink("dummy", None))

    def build(*args: str) -> daemon.Daemon:
        return daemon.build(daemon.parse_args(["--display", "terminal", "--no-journal", *args]))
    return build


def walk_to_play(d: daemon.Daemon) -> list[str]:
    """# through the walkthrough's pages; the screens' names on the way."""
    names = []
    for _ in range(40):
        screen = d.shell.screen()
        if d.shell.game.mode() != "setup":
            break
        names.append(screen.name)
        d.step(K.OK, None)
    return names


def test_players_at_the_table_shows_the_walkthrough(at_table):
    d = at_table("--players", "3", "--seed", "4")
    assert d.shell.game.mode() == "setup" and d.shell.screen().name == "setup"
    assert d.shell.screen().pages == 14  # region by region, the clan cards, then play
    names = walk_to_play(d)
    assert sum(n.startswith("setup") for n in names) == 13 and names[-1] == "clan-cards"
    assert d.shell.game.mode() == "move"


def test_players_with_bots_at_the_table_deals_then_shows_the_walkthrough(at_table):
    d = at_table("--players", "3", "--seed", "4", "--bots", "2")
    names = walk_to_play(d)
    # the deal first, then the walkthrough
    assert "setup" in names and names.index("setup") > 0 and not names[0].startswith("setup")
    assert sum(n.startswith("setup") for n in names) == 13 and names[-1] == "clan-cards"
    assert d.shell.game.mode() in ("move", "bot")


def test_a_key_script_with_players_still_plays_at_once(tmp_path):
    keys = tmp_path / "k"
    keys.write_text("")
    d = daemon.build(daemon.parse_args(["--display", "dummy", "--players", "3", "--seed", "4", "--keys", str(keys)]))
    assert d.shell.game.mode() == "move"


def test_a_new_record_loaded_at_the_table_shows_the_walkthrough(at_table, tmp_path):
    record = tmp_path / "new.json"
    assert run_cli("new", "--players", "3", "--seed", "2", "--out", str(record))[0] == 0
    d = at_table("--load", str(record))
    assert d.shell.game.mode() == "setup"
    assert sum(n.startswith("setup") for n in walk_to_play(d)) == 13 and d.shell.game.mode() == "move"
    loaded = Record.load(str(record))
    assert d.shell.game.record().setup == loaded.setup and d.shell.game.game.to_move == loaded.first_player
    keys = tmp_path / "k"
    keys.write_text("")
    headless = daemon.build(daemon.parse_args(["--display", "dummy", "--load", str(record), "--keys", str(keys)]))
    assert headless.shell.game.mode() == "move"  # a key script plays at once


def test_a_game_in_progress_loaded_at_the_table_goes_straight_on(at_table):
    from pathlib import Path

    examples = Path(__file__).resolve().parents[1] / "data" / "examples"
    d = at_table("--load", str(examples / "in-progress.record.json"))
    assert d.shell.game.mode() in ("move", "bot", "order")
