"""Players' names in the history: `companion import` applies the names' rule (one line, exit 2,
nothing imported), an accepted name of any script comes out of every export as it went in, and
every export stays well-formed (parsed back: xml.etree for BGG, json for BG Stats and records,
csv for the spreadsheet), even with names an old journal kept against the rule (a NUL, a
bidirectional override, a lone surrogate, an escape sequence), which also never crash
`companion history` or `companion stats` nor reach the terminal as controls.
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import unicodedata
import urllib.parse
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from companion.history.bgstats import LINK, create_play_link
from companion.history.export import render
from companion.history.plays import read_history
from companion.journal.store import Journal
from companion.table.seatnames import check_name
from tests.history.fixture import clans
from tests.history.test_import import clans_record, mammut_extinct_record, write
from tests.support import run_cli

# names the rule accepts, from many scripts and with every character markup and CSV care about
ACCEPTED = [["Łukasz", "שלום"], ["Ana😀", "<b>&amp;"], ['Zoë "Z"', "O'Brien, Jr."], ["李小龙", "محمد"],
            ["Ἀθηνᾶ", "\U0001f1ee\U0001f1f9 Italia"], ["a;b|c\\d", "=1+2"]]
# what an old journal may hold: each breaks the rule
OLD = ["\u202eAnna", "Ben\x00", "\ud800Cy", "\x1b[2JDee", "Eve\nline", "\ue000\ufffe"]


def texts(state_dir: Path) -> dict[str, str]:
    plays = read_history(state_dir)
    return {fmt: render(plays, fmt) for fmt in ("bgstats", "bgg", "csv", "json")}


def sheet_name(cell: str) -> str:
    """A CSV name cell read back: the spreadsheets' text mark (') before a formula-like name dropped."""
    return cell[1:] if cell.startswith("'") and cell[1:].startswith(("=", "+", "-", "@", "\t", "\r")) else cell


def names_in_exports(state_dir: Path) -> dict[str, list[str]]:
    """Every player name each export holds, each export parsed back (the parse fails if it is ill-formed)."""
    out = texts(state_dir)
    for text in out.values():
        text.encode("utf-8")  # every export can be written as UTF-8
    bgg = ET.fromstring(out["bgg"].encode("utf-8"))
    bgstats = json.loads(out["bgstats"])
    rows = list(csv.DictReader(io.StringIO(out["csv"])))
    links = [json.loads(urllib.parse.unquote(create_play_link(p)[len(LINK):])) for p in read_history(state_dir).finished]
    return {"bgg": [p.get("name") for p in bgg.iter("player")],
            "bgstats": [bgstats["players"][s["playerRefId"] - 1]["name"] for p in bgstats["plays"]
                        for s in p["playerScores"]],
            "csv": [sheet_name(r["name"]) for r in rows],
            "json": [n for r in json.loads(out["json"]) for n in r["names"]],
            "link": [p["name"] for link in links for p in link["players"]]}


# ----- the import door -----------------------------------------------------------------------
@pytest.mark.parametrize("names, why", [
    (["Anna", "Ana\u200b"], 'names: player 2: "Ana\\u200b" holds U+200B ZERO WIDTH SPACE (character 4)'),
    (["\u202eAnna", "Ben"], 'names: player 1: "\\u202eAnna" holds U+202E RIGHT-TO-LEFT OVERRIDE'),
    (["Anna", "B\x00"], 'names: player 2: "B\\u0000" holds U+0000 (character 2), a control character'),
    (["Anna", "x" * 25], "names: player 2: \"" + "x" * 25 + "\" has 25 characters: a name has at most 24"),
    (["Anna", 7], "names: player 2: a number is not a name"),
])
def test_import_refuses_a_bad_name_in_one_line_and_imports_nothing(tmp_path, names, why):
    good = clans_record(1, 2, ["Anna", "Ben"])
    bad = {**clans_record(2, 2), "names": names}
    path = write(tmp_path / "in.json", [good, bad])
    Journal(tmp_path / "s").close()
    code, out, err = run_cli("import", "--state-dir", str(tmp_path / "s"), str(path))
    assert code == 2 and out == ""
    (line,) = err.splitlines()
    assert line.startswith(f"companion import: {path}: record 2: {why}"), line
    assert line.endswith(("leave it out of the name", "shorten it", 'e.g. "Anna"'))
    assert "\x00" not in line and "\u202e" not in line
    assert read_history(tmp_path / "s").plays == []


def test_import_refuses_a_lone_surrogate_in_a_name(tmp_path):
    path = tmp_path / "in.json"
    path.write_text(json.dumps(clans_record(3, 2, ["Anna", "Ben"])).replace('"Ben"', '"B\\ud800"'))
    code, _out, err = run_cli("import", "--state-dir", str(tmp_path / "s"), str(path))
    assert code == 2 and len(err.splitlines()) == 1 and "lone surrogate" in err


def test_a_mammut_record_with_a_bad_tribe_name_is_refused(tmp_path):
    record = mammut_extinct_record(1_700_000_000.0)
    record["log"][0]["args"]["names"][1] = record["state"]["tribes"][1]["name"] = "B\u2067o"  # log and books
    code, _out, err = run_cli("import", "--state-dir", str(tmp_path / "s"), str(write(tmp_path / "m.json", record)))
    assert code == 2, err
    (line,) = err.splitlines()
    assert 'record 1: tribe 2: "B\\u2067o" holds U+2067 RIGHT-TO-LEFT ISOLATE (character 2)' in line
    top = {**mammut_extinct_record(1_700_000_000.0), "names": ["Ann", "\u200fBo"]}  # the record's own names
    code, _out, err = run_cli("import", "--state-dir", str(tmp_path / "s"), str(write(tmp_path / "n.json", top)))
    assert code == 2 and "record 1: names: player 2:" in err and len(err.splitlines()) == 1


def test_import_keeps_accepted_names_as_the_rule_gives_them(tmp_path):
    records = [clans_record(10 + i, 2, names) for i, names in enumerate(ACCEPTED)]
    records.append(clans_record(20, 2, [" Zoe\u0308 ", "Ben"]))  # stripped, NFC
    code, _out, err = run_cli("import", "--state-dir", str(tmp_path / "s"), str(write(tmp_path / "in.json", records)))
    assert code == 0, err
    kept = [list(p.players) for p in read_history(tmp_path / "s").finished]
    assert sorted(kept) == sorted(ACCEPTED + [["Zoë", "Ben"]])


# ----- the exports ---------------------------------------------------------------------------
def test_every_export_parses_back_with_every_accepted_name(tmp_path):
    state = tmp_path / "s"
    records = [clans_record(30 + i, 2, names) for i, names in enumerate(ACCEPTED)]
    assert run_cli("import", "--state-dir", str(state), str(write(tmp_path / "in.json", records)))[0] == 0
    expected = sorted(n for names in ACCEPTED for n in names)
    for fmt, names in names_in_exports(state).items():
        assert sorted(names) == expected, fmt  # the real names, as they went in
    back = tmp_path / "back"  # and the json export imports into another box, the same
    assert run_cli("import", "--state-dir", str(back), str(write(tmp_path / "x.json", json.loads(texts(state)["json"]))))[0] == 0
    assert sorted(list(p.players) for p in read_history(back).finished) == sorted(ACCEPTED)


def test_fuzzed_accepted_names_keep_every_export_well_formed(tmp_path):
    from tests.table.test_names_rule import fuzz_names

    names = []
    for raw in fuzz_names(33, 3000):
        try:
            names.append(check_name(raw))
        except ValueError:
            continue
    names = [n for n in dict.fromkeys(names)][:40]  # distinct: BG Stats keys its players by name
    pairs = [names[i:i + 2] for i in range(0, len(names) - 1, 2)]
    records = [clans_record(100 + i, 2, pair) for i, pair in enumerate(pairs)]
    state = tmp_path / "s"
    code, _out, err = run_cli("import", "--state-dir", str(state), str(write(tmp_path / "in.json", records)))
    assert code == 0, err
    for fmt, got in names_in_exports(state).items():
        assert sorted(got) == sorted(n for pair in pairs for n in pair), fmt


def old_journal(state_dir: Path, games: list[list[str]]) -> None:
    """A journal as an older version kept it: finished Clans games whose names break today's rule."""
    Journal(state_dir).close()
    db = sqlite3.connect(Path(state_dir) / "journal.sqlite3", isolation_level=None)
    try:
        for gid, names in enumerate(games, start=1):
            result = clans(len(names), [30 + i for i in range(len(names))], [0], 0,
                           ["red", "blue", "green", "yellow"][:len(names)], [0], names)
            db.execute("INSERT INTO games(id, kind, started, finished, result) VALUES (?, ?, ?, ?, ?)",
                       (gid, "clans", 1_700_000_000 + gid * 3600, 1_700_001_000 + gid * 3600, json.dumps(result)))
    finally:
        db.close()


def test_names_an_old_journal_kept_against_the_rule_keep_exports_well_formed(tmp_path):
    state = tmp_path / "s"
    old_journal(state, [OLD[:2], OLD[2:4], OLD[4:]])
    got = names_in_exports(state)  # every format parses
    assert got["json"] == OLD[:2] + ["\ud800Cy"] + OLD[3:]  # records keep the name exactly (JSON escapes it)
    assert got["bgstats"] == got["link"] == got["json"]
    assert got["bgg"] == ["\u202eAnna", "Ben\ufffd", "\ufffdCy", "\ufffd[2JDee", "Eve\nline", "\ue000\ufffd"]
    assert got["csv"] == ["\u202eAnna", "Ben\ufffd", "\ufffdCy", "\x1b[2JDee", "Eve\nline", "\ue000\ufffe"]


def test_history_and_stats_never_crash_nor_send_controls_to_the_terminal(tmp_path):
    state = tmp_path / "s"
    old_journal(state, [OLD[:2], OLD[2:4], OLD[4:]])
    for argv in (["history"], ["stats"], ["stats", "--tables"]):
        code, out, err = run_cli(*argv, "--state-dir", str(state))
        assert code == 0 and err == "", (argv, err)
        out.encode("utf-8")
        assert not any(unicodedata.category(c)[0] == "C" for c in out.replace("\n", "")), (argv, out)
        assert "\\u202eAnna" in out and "\\u001b[2JDee" in out
    for argv in (["history", "--json"], ["stats", "--json"], ["stats", "--json", "--tables"]):
        code, out, _err = run_cli(*argv, "--state-dir", str(state))
        assert code == 0
        out.encode("utf-8")
        data = json.loads(out)
        if argv == ["history", "--json"]:
            assert [n for g in data for n in g["players"]] == OLD  # the names as kept
        else:
            assert "\u202eAnna" in (data["players"] if "--tables" in argv else data)


def test_a_location_of_any_text_keeps_the_bgg_export_well_formed(tmp_path):
    state = tmp_path / "s"
    old_journal(state, [["Anna", "Ben"]])
    plays = read_history(state)
    for location in ("Café <Zoë> & \"co\"", "Kraków\x00\x1b\ud800", "שלום\u202e"):
        root = ET.fromstring(render(plays, "bgg", location).encode("utf-8"))
        assert root.find("play").get("location") == location.replace("\x00", "\ufffd").replace(
            "\x1b", "\ufffd").replace("\ud800", "\ufffd")
        json.loads(render(plays, "bgstats", location))
