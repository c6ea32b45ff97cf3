"""Export formats are registered by name in one place (companion.history.formats): a new format is
one module plus one line, and `companion export --format NAME` and the page's downloads offer it."""

from __future__ import annotations

import textwrap

import pytest

from companion import cli
from companion.history import export, formats
from tests.history.fixture import build_journal
from tests.web.test_history_page import fetch_all
from tests.web.webtools import app_for, run

WRITER_MODULE = textwrap.dedent('''
    def write_names(plays, location, bgg_ids):
        return "".join(f"{p.game_id} {location}\\n" for p in plays)
''')


@pytest.fixture
def names_format(tmp_path, monkeypatch):
    (tmp_path / "names_writer.py").write_text(WRITER_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(formats, "FORMATS", dict(formats.FORMATS))
    formats.register("names", "names_writer", "write_names", "txt", "text/plain", "companion-names.txt",
                     "Game ids (text)", "one game id per line")   # the one line
    state_dir = tmp_path / "state"
    build_journal(state_dir)
    return state_dir


def test_the_built_in_formats_are_in_the_registry():
    assert formats.names() == ("bgstats", "bgg", "csv", "json") == export.FORMATS
    assert export.FOLDER_FILES == {"bgstats": "companion-plays.bgsplay", "bgg": "companion-bgg-plays.xml",
                                   "csv": "companion-plays.csv", "json": "companion-records.json"}
    with pytest.raises(ValueError, match="unknown export format 'names'"):
        export.render([], "names")


def test_companion_export_writes_a_registered_format(names_format, capsys):
    assert cli.main(["export", "--state-dir", str(names_format), "--format", "names", "--location", "here"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines and all(line.endswith(" here") for line in lines)
    cli.main(["export", "--help"])
    assert "names: one game id per line" in capsys.readouterr().out


def test_the_page_offers_and_serves_a_registered_format(names_format):
    got = run(fetch_all(app_for(names_format), ("/history", "/export/names")))
    assert 'href="/export/names"' in got["/history"][2] and "Game ids (text)" in got["/history"][2]
    status, headers, text = got["/export/names"]
    assert status == 200 and headers["Content-Type"] == "text/plain; charset=utf-8"
    assert headers["Content-Disposition"].endswith('.txt"') and text.splitlines()


def test_a_usb_copy_holds_a_registered_format(names_format, tmp_path):
    from companion.history.plays import read_history
    folder = export.copy_to_folder(read_history(names_format), tmp_path, 0.0)
    assert (folder / "companion-names.txt").read_text(encoding="utf-8").endswith("\n")
