"""The journal has one owner: companion/journal/ holds every SQL text, and the kiosk talks to its port.

`history/`, the page (`web/`) and the kiosk ask the journal (`companion.journal.reader`,
`store.Journal`, the port `companion.journal.port.JournalPort`) through named methods: no SQL
statement is written there, and the kiosk never reaches through its writer to the SQLite journal
behind it (`.journal.journal`), nor does the benchmark that drives it. The writer, the late journal and the journal that could not be
opened all answer the port.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ASKERS = ("history", "web", "kiosk")  # the packages that ask the journal, never write its SQL
SQL = re.compile(r"\b(SELECT|INSERT|UPDATE|DELETE)\b.*?\b(FROM|INTO|SET)\b", re.S)


def literals(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, text) of every string literal; an f-string's literal parts joined (its fields as `{}`)."""
    found, inside = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else "{}"
                           for v in node.values)
            found.append((node.lineno, text))
            inside.update(id(v) for v in node.values)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in inside:
            found.append((node.lineno, node.value))
    return found


def sql_in(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [f"{path.relative_to(ROOT)}:{line}: {text[:60]!r}" for line, text in literals(tree) if SQL.search(text)]


def test_the_finder_finds_sql():
    """The check itself: a statement in a plain or an f-string (split across lines) is found; prose is not."""
    tree = ast.parse('a = "SELECT 1 FROM games"\n'
                     'b = (f"SELECT g.id, {x} "\n     "FROM games g")\n'
                     'c = "INSERT OR REPLACE INTO settings"\nd = "UPDATE games SET x=1"\n'
                     'e = "Select a game from the list; update the set"\n')
    hits = [text for _line, text in literals(tree) if SQL.search(text)]
    assert len(hits) == 4 and not any(h.startswith("Select") for h in hits)


@pytest.mark.parametrize("package", ASKERS)
def test_no_sql_outside_the_journal(package):
    found = [hit for path in sorted((ROOT / "companion" / package).rglob("*.py")) for hit in sql_in(path)]
    assert not found, "SQL belongs in companion/journal/ (a named method there):\n" + "\n".join(found)


@pytest.mark.parametrize("package", ("kiosk", "bench"))
def test_the_kiosk_never_reaches_through_its_journal(package):
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
             for path in sorted((ROOT / "companion" / package).rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"\.journal\.journal\b|writer\.journal\.", line)]
    assert not found, "the kiosk asks its journal's port (companion.journal.port), never the journal behind it:\n" \
        + "\n".join(found)


def refuse(state_dir: str) -> None:
    raise OSError(30, "Read-only file system")


def test_every_journal_the_kiosk_holds_answers_the_port(tmp_path):
    from companion.journal.late import LateJournal, NoJournal
    from companion.journal.port import JournalPort
    from companion.journal.store import Journal, JournalWriter

    writer = JournalWriter(Journal(tmp_path / "open"))
    try:
        late = LateJournal(str(tmp_path / "late"), "Cannot save", opener=refuse)
        for journal in (writer, late, NoJournal("Cannot save", str(tmp_path))):
            assert isinstance(journal, JournalPort), type(journal).__name__
            assert journal.resume(include_finished=True) is None and journal.history() == []
            assert journal.setting("brightness") is None and journal.state_dir
        assert late.repairs == ["Cannot save"] and late.remove_game(1, "why") is not None
        writer.set_setting("roster", ["Ann"])
        assert writer.setting("roster") == ["Ann"] and writer.state_dir == str(tmp_path / "open")
        assert writer.remove_game(1, "why") == "there is no such game"
    finally:
        writer.close()
