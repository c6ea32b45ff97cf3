"""`companion import` of files from elsewhere (issue 41, item 9): a BG Stats backup and the
companion's own CSV export bring the plays of our games in with players, seats, scores and dates;
a byte order mark is taken off; anything else is refused in one line naming what the file is.

The BG Stats files are the layout tests/data/formats/bgstats-play-file.bgsplay records (the fields
of real BG Stats exports, see tests/data/formats/README.md), with plays of our games added.
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
import zipfile
from pathlib import Path

import pytest

from tests.history.fixture import build_journal
from tests.history.test_import import clans_record, write
from tests.support import run_cli

FORMATS = Path(__file__).resolve().parents[1] / "data" / "formats"
PLAY_FILE = FORMATS / "bgstats-play-file.bgsplay"


def local(text: str) -> float:
    return dt.datetime.strptime(text, "%Y-%m-%d %H:%M:%S").timestamp()


def bgstats_backup() -> dict:
    """The play file's layout with three plays of ours: Clans by its BGG id (seats given out of
    order, a score written as a sum), Clans by its name only, Valley of the Mammoths by its name."""
    data = json.loads(PLAY_FILE.read_text())
    other = data["plays"][0]
    data["games"] += [{**data["games"][0], "id": 2, "name": "Clans", "bggId": 4636},
                      {**data["games"][0], "id": 3, "name": "clans", "bggId": 0},
                      {**data["games"][0], "id": 4, "name": "Valley of the Mammoths", "bggId": 0}]
    scores = [dict(s) for s in other["playerScores"]]
    scores[0].update(seatOrder=2, score="20+11")  # Sam: seat 2, 31 points, winner, red
    scores[1].update(seatOrder=1)  # Kim: seat 1, first player (startPlayer), blue
    play2 = {**other, "uuid": "p2", "gameRefId": 2, "playerScores": scores}
    play3 = {**other, "uuid": "p3", "gameRefId": 3, "playDate": "2024-03-09 20:00:00", "durationMin": 30,
             "playerScores": [{**s, "seatOrder": 0, "role": ""} for s in other["playerScores"][:2]]}
    play4 = {**other, "uuid": "p4", "gameRefId": 4, "playDate": "2024-03-10 15:00:00",
             "playerScores": [{**s, "score": None, "seatOrder": 0} for s in other["playerScores"][:2]]}
    data["plays"] += [play2, play3, play4]
    return data


def history(state: Path) -> list[dict]:
    status, out, err = run_cli("history", "--json", "--state-dir", str(state))
    assert status == 0 and err == "", err
    return json.loads(out)


def test_a_bgstats_backup_brings_in_the_plays_of_our_games(tmp_path):
    path = write(tmp_path / "BGStatsExport.json", bgstats_backup())
    status, out, err = run_cli("import", str(path), "--state-dir", str(tmp_path / "s"))
    assert (status, out) == (0, "companion import: 3 game(s) added to the history\n")
    assert err == f"companion import: {path}: 1 play(s) of other games left out\n"
    games = history(tmp_path / "s")
    assert [(g["game"], g["players"], g["totals"], g["winners"]) for g in games] == [
        ("clans", ["Kim Example", "Sam Example", "Guest 3"], [27, 31, 12], [1]),
        ("clans", ["Sam Example", "Kim Example"], [31, 27], [0]),
        ("mammut", ["Sam Example", "Kim Example"], [0, 0], [0])]
    start = dt.datetime.fromisoformat(games[0]["started"]).timestamp()
    finish = dt.datetime.fromisoformat(games[0]["finished"]).timestamp()
    assert start == local("2024-03-02 18:10:00") and finish - start == 42 * 60
    csv_text = run_cli("export", "--format", "csv", "--state-dir", str(tmp_path / "s"))[1]
    assert "Kim Example,27,0,1,blue" in csv_text and "Sam Example,31,1,1,red" in csv_text  # first player, colours
    stats = json.loads(run_cli("stats", "--json", "--state-dir", str(tmp_path / "s"))[1])
    assert stats["Sam Example"]["wins"] == 3 and "Guest 3" not in stats
    assert run_cli("export", "--format", "json", "--state-dir", str(tmp_path / "s"))[1] == "[]\n"  # no records

    again = run_cli("import", str(path), "--state-dir", str(tmp_path / "s"))
    assert again[1] == "companion import: 0 game(s) added to the history\n" and "play 2: already" in again[2]


def test_a_bgstats_play_with_a_refused_name_or_time_refuses_the_file(tmp_path):
    data = bgstats_backup()
    data["players"][1]["name"] = "SAM EXAMPLE "
    status, out, err = run_cli("import", str(write(tmp_path / "b.json", data)), "--state-dir", str(tmp_path))
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert 'play 2: names: player 2: "Sam Example" is player 1\'s name too ("SAM EXAMPLE"' in err
    data = bgstats_backup()
    data["plays"][1]["durationMin"] = 2000
    status, _out, err = run_cli("import", str(write(tmp_path / "b.json", data)), "--state-dir", str(tmp_path))
    assert status == 2 and "play 2: finished" in err and "a game lasts less than a day" in err
    assert not (tmp_path / "journal.sqlite3").exists()


def test_our_csv_export_comes_back_with_players_seats_scores_and_dates(tmp_path):
    build_journal(tmp_path / "box")
    csv_path = tmp_path / "history.csv"
    assert run_cli("export", "--format", "csv", "--state-dir", str(tmp_path / "box"), "--out", str(csv_path))[0] == 0
    assert csv_path.read_bytes().startswith(b"\xef\xbb\xbf")  # Excel's byte order mark
    status, out, err = run_cli("import", str(csv_path), "--state-dir", str(tmp_path / "new"))
    assert (status, out, err) == (0, "companion import: 9 game(s) added to the history\n", "")

    def seen(games: list[dict]) -> list[tuple]:
        return [(g["game"], g["players"], g["totals"], g["winners"], g["started"][:19]) for g in games]

    original = [g for g in history_lenient(tmp_path / "box")]
    assert seen(history(tmp_path / "new")) == seen(original)
    stats = [json.loads(run_cli("stats", "--json", "--state-dir", str(tmp_path / d))[1]) for d in ("box", "new")]
    unsaid = ("villages_founded", "extinctions")  # what a CSV row does not say: founders, an extinction
    assert [{n: {k: v for k, v in s.items() if k not in unsaid} for n, s in each.items()} for each in stats] == \
        [{n: {k: v for k, v in s.items() if k not in unsaid} for n, s in stats[0].items()}] * 2
    again = run_cli("import", str(csv_path), "--state-dir", str(tmp_path / "box"))
    assert again[1] == "companion import: 0 game(s) added to the history\n"


def history_lenient(state: Path) -> list[dict]:
    return json.loads(run_cli("history", "--json", "--state-dir", str(state))[1])


def test_a_record_file_with_a_byte_order_mark_is_imported(tmp_path):
    path = tmp_path / "r.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps([clans_record(8, 2, ["Ann", "Bo"])]).encode())
    assert run_cli("import", str(path), "--state-dir", str(tmp_path / "s"))[:2] == (
        0, "companion import: 1 game(s) added to the history\n")
    path.write_bytes(json.dumps(clans_record(9, 2, ["Ann", "Bo"])).encode("utf-16"))  # Notepad's "Unicode"
    assert run_cli("import", str(path), "--state-dir", str(tmp_path / "s"))[0] == 0


def _zip(path: Path) -> None:
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("BGStatsExport.json", "{}")


def _sqlite(path: Path) -> None:
    sqlite3.connect(path).execute("CREATE TABLE t (x)").connection.commit()


@pytest.mark.parametrize("name, content, said", [
    ("other.csv", "Date,Game,Winner\n2024-01-01,Clans,Anna\n", "this is a CSV file but not the companion's export"),
    ("semi.csv", "\ufeffgame_id;game;started\n", "this is a CSV file but not the companion's export"),
    ("plays.xml", (FORMATS / "bgg-plays.xml").read_text(), "this is a BoardGameGeek plays file (XML)"),
    ("page.html", "<!DOCTYPE html><html><body>hi</body></html>", "this is an HTML page"),
    ("empty.json", "", "this is an empty file"),
    ("notes.txt", "we played Clans on Sunday\n", "this is a text file in no format import knows"),
    ("backup.zip", _zip, "this is a ZIP archive"),
    ("journal.sqlite3", _sqlite, "this is an SQLite database"),
    ("bytes.bin", b"\x00\xff\xfe\x00garbage\xff", "this is not a text file"),
    ("pic.png", b"\x89PNG\r\n\x1a\n" + bytes(20), "this is a PNG image"),
])
def test_anything_else_is_refused_in_one_line_naming_what_it_is(tmp_path, name, content, said):
    path = tmp_path / name
    if callable(content):
        content(path)
    elif isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    status, out, err = run_cli("import", str(path), "--state-dir", str(tmp_path / "s"))
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert err.startswith(f"companion import: {path}: {said}") and "import takes the companion's JSON or CSV" in err
    assert not (tmp_path / "s" / "journal.sqlite3").exists()


def test_a_damaged_companion_csv_is_refused_naming_the_game(tmp_path):
    build_journal(tmp_path / "box")
    text = run_cli("export", "--format", "csv", "--state-dir", str(tmp_path / "box"))[1]
    lines = text.splitlines()
    lines[1] = lines[1].replace(",40,", ",forty,")
    path = tmp_path / "bad.csv"
    path.write_text("\n".join(lines) + "\n")
    status, out, err = run_cli("import", str(path), "--state-dir", str(tmp_path / "s"))
    assert (status, out) == (2, "") and err.count("\n") == 1 and ": game 1: " in err


def test_games_with_scores_only_are_left_out_of_the_records_everywhere(tmp_path):
    """The page's /export/json and the USB copy write records too: a game without one is left out there."""
    from companion.history.export import copy_to_folder
    from companion.history.plays import read_history
    from tests.web.webtools import app_for, client, run

    state = tmp_path / "s"
    assert run_cli("import", str(write(tmp_path / "b.json", bgstats_backup())), "--state-dir", str(state))[0] == 0

    async def fetch() -> tuple[int, str]:
        async with client(app_for(state)) as c:
            r = await c.get("/export/json")
            return r.status, await r.text()

    status, text = run(fetch())
    assert status == 200 and json.loads(text) == []
    stick = tmp_path / "stick"
    stick.mkdir()
    folder = copy_to_folder(read_history(state), stick, 1_700_000_000.0)
    assert json.loads(next(folder.glob("*.json")).read_text()) == []
