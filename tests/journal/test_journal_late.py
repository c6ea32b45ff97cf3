"""A journal that could not be opened (`companion.journal.late`): the table reads nothing from it, may ask
it to set actions aside (nothing to do), and it opens at the first write that finds room."""

from __future__ import annotations

import pytest

from companion.table.effects import Persist
from companion.journal.store import Journal, JournalWriteError
from companion.journal.late import LateJournal


def test_a_journal_that_cannot_be_opened_answers_like_an_empty_one_until_it_opens(tmp_path):
    state = tmp_path / "state"
    fails = {"on": True}

    def opener(path: str) -> Journal:
        if fails["on"]:
            raise OSError(28, "No space left on device")
        return Journal(path)

    late = LateJournal(str(state), "Cannot save", opener)
    assert late.journal.resume() is None and late.journal.history() == [] and late.journal.setting("x") is None
    assert late.journal.truncate_to(3, "it crashed twice here", 1) == 0  # the crash-loop guard may ask
    assert late.journal.repairs == ["Cannot save"]
    with pytest.raises(JournalWriteError):
        late.write_all([Persist("clans", ({"a": "new"},), new_game=True)])
    fails["on"] = False
    late.write_all([Persist("clans", ({"a": "new"}, {"a": "move", "n": 1}), new_game=True)])
    assert late.journal.truncate_to(1, "it crashed twice here") == 1  # now the real journal's
    late.journal.close()
    assert Journal(state).resume().actions == [{"a": "new"}]
