"""The guides say what the program does (issue 41, item 10): docs/playing.md lists the D menu
as the box shows it (the list stopped at Shut down), and README says where the journal and
the log live, as the code decides it.

The menu is built by the real daemon (with a journal, so History is there, and once more
with the table's page running, for New PIN); every item from History on must be in the
guide under its number and its English label, and the two items that come and go by name."""

from __future__ import annotations

from pathlib import Path

from companion.box.config import Config
from companion.hw.keyevents import PhoneUrl
from companion.journal.store import find_state_dir
from companion.table import texts as T
from tests.web.webtools import table

ROOT = Path(__file__).resolve().parents[2]


def menu_paragraph() -> str:
    text = (ROOT / "docs" / "playing.md").read_text("utf-8")
    start = text.index("- `D` opens the menu")
    end = text.index("\n- ", start + 1)
    return " ".join(text[start:end].split())


def test_the_guide_lists_every_item_of_the_menu_by_its_number(tmp_path):
    d = table(tmp_path / "state", "--players", "3", "--seed", "7")
    d.step("D")
    labels = [str(label) for label, _ in d.shell._menu()]
    d.step("D")
    d.page_event(PhoneUrl("HTTP://127.0.0.1:8080"))
    with_page = [str(label) for label, _ in d.shell._menu()]
    guide = menu_paragraph()
    first = labels.index(str(T.HISTORY))
    missing = [f"{n} {label}" for n, label in enumerate(labels, 1) if n > first and f"{n} {label}" not in guide]
    assert missing == [], f"docs/playing.md's menu lacks {missing}"
    for label in {*with_page} - {*labels} | {str(T.COPY_TO_USB)}:
        assert label in guide, f"docs/playing.md's menu does not say when {label!r} is there"


def test_readme_says_where_the_journal_and_the_log_live(monkeypatch, tmp_path):
    readme = " ".join((ROOT / "README.md").read_text("utf-8").split())
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    monkeypatch.setenv("HOME", "/home/anna")
    on_box = find_state_dir(None, Config(), on_box=True)
    laptop = find_state_dir(None, None, on_box=False).replace("/home/anna", "~")
    for said in (f"`{on_box}` on the box", f"`{laptop}` on a laptop", "`journal.sqlite3`",
                 "`journalctl -u companion`", "`$TMPDIR/companion.log`"):
        assert said in readme, said
