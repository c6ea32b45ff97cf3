"""The voice is never ahead of the screen: whose turn it is (and a bot's move) is said when the
mover's screen shows, not while a move's result is still paged on the panel. A table that follows
the voice then never presses # into page 2 of a result it has not read."""

from __future__ import annotations

import random
from pathlib import Path

from companion.games.clans.controller import Controller
from companion.kiosk import daemon
from companion.kiosk.announce import say
from companion.table.screen import ENTRY
from tests.support import full_game_script


def spoken_with_screens(tmp_path, keys: str, *argv: str) -> tuple[daemon.Daemon, list[tuple[str, str, str]]]:
    """(event, the screen's name, its kind) at the moment each announcement is said; the kind is
    "message" when the screen on the panel is one of the game's messages (a result, a report)."""
    script = tmp_path / "k"
    script.write_text(keys)
    d = daemon.build(daemon.parse_args(["--display", "dummy", "--keys", str(script), *argv]))
    said: list[tuple[str, str, str]] = []

    def words(effect):
        screen = d.last_screen
        message = d.shell.question is None and d.shell.game.session.info.screen() == screen
        said.append((effect.event, screen.name, "message" if message else screen.kind))
        return say(effect)

    d.announcer.words = words
    assert d.run() == 0
    return d, said


def test_whose_turn_is_said_when_the_movers_screen_shows(tmp_path):
    for seed in (5, 6, 7):
        script, moves, _ = full_game_script(2, seed)
        _, said = spoken_with_screens(tmp_path, script, "--players", "2", "--seed", str(seed))
        turns = [(name, kind) for event, name, kind in said if event == "turn"]
        assert len(turns) == len(moves)  # every turn said once, none lost while a result was paged
        assert all(kind == ENTRY for _, kind in turns), [t for t in turns if t[1] != ENTRY]
        assert any(event == "village" for event, _, _ in said)


def test_a_result_paged_with_hash_is_followed_by_the_turn_only_at_the_entry_screen(tmp_path):
    script, _, _ = full_game_script(2, 5)
    keys = script.split()
    # the moves up to the first that founds a village (a result of 2 pages or more); then # until it is gone
    c = Controller.quick_start(2, random.Random(5))
    typed = []
    for k in keys:
        for ch in k:
            c.handle(ch, 0)
        typed.append(k)
        if c.screen().name == "village":
            break
    pages = c.screen().pages
    assert pages >= 2
    d, said = spoken_with_screens(tmp_path, "\n".join(typed) + "\n" + "#" * (pages + 1) + "\n",
                                  "--players", "2", "--seed", "5")
    last_turn = [i for i, (event, _, _) in enumerate(said) if event == "turn"][-1]
    village = [i for i, (event, _, _) in enumerate(said) if event == "village"][-1]
    assert last_turn > village and said[last_turn][2] == ENTRY


def test_a_mammut_phase_is_said_when_its_screen_shows_not_under_a_report(tmp_path):
    storm = Path(__file__).resolve().parent.parent / "data" / "storms" / "mammut-storm-49883202.keys"
    _, said = spoken_with_screens(tmp_path, storm.read_text(), "--game", "mammut", "--seed", "49883202")
    phases = [(name, kind) for event, name, kind in said if event == "phase"]
    assert len(phases) > 3
    assert not [name for name, kind in phases if kind == "message"], phases
