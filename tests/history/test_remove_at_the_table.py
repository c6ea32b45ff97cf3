"""The OLED's History takes a game out too (issue 41): C over the History lists the games, # asks,
# again takes the chosen one out (a RemoveFromHistory effect the journal writer carries out, the
game kept in the journal); * goes back a step and changes nothing."""

from __future__ import annotations

import random

import pytest

from companion.games import GAMES
from companion.history.plays import read_history
from companion.journal.store import Journal, JournalWriter
from companion.table import keys as K
from companion.table.effects import RemoveFromHistory
from companion.table.shell import Shell
from tests.history.fixture import build_journal


def table(state):
    journal = Journal(state)
    shell = Shell(list(GAMES.values()), "clans", GAMES["clans"].load().new(random.Random(0)), random.Random(0),
                  history=journal.history)
    return journal, shell


@pytest.fixture
def at_the_table(tmp_path):
    """(the state directory, its journal, a shell showing the History) over the fixture's journal."""
    state = tmp_path / "state"
    build_journal(state)
    journal, shell = table(state)
    shell._choose("history")
    yield state, journal, shell
    journal.close()


def removals(shell) -> list:
    return [e for e in shell.pop_effects() if isinstance(e, RemoveFromHistory)]


def test_c_over_the_history_lists_the_games_and_takes_the_chosen_one_out(at_the_table):
    state, journal, shell = at_the_table
    assert shell.screen().name == "history" and "C: take a game out" in " ".join(shell.notice.pages[-1])
    shell.handle(K.UNDO, 0)
    listed = shell.screen()
    assert listed.name == "remove" and listed.choices[0].startswith("11 ") and "Clans" in listed.choices[0]
    assert len(listed.choices) == 10  # the finished games, newest first; the abandoned one (4) left out
    shell.handle(K.DOWN, 0)  # game 10
    shell.handle(K.OK, 0)
    assert shell.screen().name == "remove?" and "10" in " ".join(shell.screen().lines)
    shell.handle(K.BACK, 0)  # no: back to the list, nothing taken out
    assert shell.screen().name == "remove" and removals(shell) == []
    shell.handle(K.OK, 0)
    shell.handle(K.OK, 0)  # yes
    effects = shell.pop_effects()
    assert RemoveFromHistory(10) in effects and shell.screen().name == "removed"
    JournalWriter(journal).write_all(effects)
    ids = [p.game_id for p in read_history(state).finished]
    assert 10 not in ids and 11 in ids
    _journal, again = table(state)
    try:
        assert all(gid != 10 for gid, *_rest in again._history_entries())
    finally:
        _journal.close()


def test_any_other_key_over_the_history_only_dismisses_it_and_star_leaves_the_list(at_the_table):
    _state, _journal, shell = at_the_table
    shell.handle(K.BACK, 0)
    assert shell.screen().name != "history" and shell.question is None
    shell._choose("history")
    shell.handle(K.UNDO, 0)
    shell.handle(K.BACK, 0)
    assert shell.question is None and removals(shell) == []


def test_the_oleds_history_says_a_game_that_came_with_its_scores_only(tmp_path):
    from tests.history.test_import import write
    from tests.history.test_import_foreign import bgstats_backup
    from tests.support import run_cli

    state = tmp_path / "state"
    assert run_cli("import", str(write(tmp_path / "b.json", bgstats_backup())), "--state-dir", str(state))[0] == 0
    journal, shell = table(state)
    try:
        lines = shell.history_lines()
    finally:
        journal.close()
    assert lines[0].endswith("Mammut: P1 0, P2 0; P1 won")  # its winner, though its log is not there
    assert lines[-1].endswith("Clans: P1 27, P2 31, P3 12; P2 won")
