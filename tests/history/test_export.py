"""`companion export`: BG Stats' file and one-tap link, BGG plays XML, CSV, records; safe destinations.

The games are real: Clans games from the engine imported with `companion import`, one
played through a daemon (keys in, journal out), and a Valley of the Mammoths game played
to extinction (see test_import).
"""

from __future__ import annotations

import csv
import datetime as dt
import errno
import io
import json
import os
import random
import urllib.parse
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.support import run_cli
from companion.history import bgstats, export
from companion.history.plays import read_history

from tests.history.test_import import BASE, clans_record, mammut_extinct_record

UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


@pytest.fixture
def state(tmp_path: Path) -> Path:
    """Three Clans games (2, 3 and 4 players, named) and one extinct Valley of the Mammoths game."""
    records = [clans_record(21, 2, ["Anna", "Bruno"]), clans_record(22, 3, ["Anna", "Bruno", "Carla"]),
               clans_record(23, 4, ["Dario", "Anna", "Bruno", "Carla"]), mammut_extinct_record(BASE + 30 * 3600)]
    path = tmp_path / "records.json"
    path.write_text(json.dumps(records))
    state_dir = tmp_path / "state"
    assert run_cli("import", "--state-dir", str(state_dir), str(path))[0] == 0
    return state_dir


FORMATS_DIR = Path(__file__).resolve().parents[1] / "data" / "formats"
REAL_PLAY_FILE = json.loads((FORMATS_DIR / "bgstats-play-file.bgsplay").read_text(encoding="utf-8"))
REAL_BGG = ET.parse(FORMATS_DIR / "bgg-plays.xml").getroot()


def same_layout(ours: dict, real: dict, where: str) -> None:
    """Every field of the real layout is there with the same JSON type (null stands for any)."""
    assert set(ours) == set(real), f"{where}: {sorted(set(ours) ^ set(real))}"
    for key, value in real.items():
        if value is not None and ours[key] is not None:
            assert type(ours[key]) is type(value), f"{where}.{key}: {type(ours[key]).__name__}"


def test_bgstats_play_file_has_the_real_layout_field_by_field(state):
    code, text, err = run_cli("export", "--state-dir", str(state), "--format", "bgstats")
    assert code == 0, err
    doc = json.loads(text)
    real = REAL_PLAY_FILE
    assert set(doc) == set(real)
    for section in ("players", "locations", "games", "plays"):
        for entry in doc[section]:
            same_layout(entry, real[section][0], section)
    for play in doc["plays"]:
        for score in play["playerScores"]:
            same_layout(score, real["plays"][0]["playerScores"][0], "playerScores")
    same_layout(doc["userInfo"], real["userInfo"], "userInfo")
    assert "Play file" in doc["about"] and "backup" in doc["about"]


def test_bgstats_file_field_by_field(state):
    code, text, err = run_cli("export", "--state-dir", str(state), "--format", "bgstats")
    assert code == 0, err
    doc = json.loads(text)
    plays = read_history(state).finished
    people = [p for p in doc["players"] if p["name"] != bgstats.SENDER]
    assert {p["name"] for p in people} == {"Anna", "Bruno", "Carla", "Dario", "Ann", "Bo"}
    for p in doc["players"]:
        assert type(p["id"]) is int and p["isAnonymous"] is False and p["bggUsername"] == ""
        assert __import__("re").fullmatch(UUID, p["uuid"]) and len(p["modificationDate"]) == 19
    assert len({p["id"] for p in doc["players"]}) == len(doc["players"]) == len({p["uuid"] for p in doc["players"]})
    me = [p for p in doc["players"] if p["id"] == doc["userInfo"]["meRefId"]]
    assert [p["name"] for p in me] == [bgstats.SENDER]  # the table sends the file; it plays in no play
    assert all(s["playerRefId"] != me[0]["id"] for p in doc["plays"] for s in p["playerScores"])
    (place,) = doc["locations"]
    assert place["name"] == "Clans companion" and type(place["id"]) is int
    games = {g["id"]: g for g in doc["games"]}
    clans = next(g for g in doc["games"] if g["name"] == "Clans")
    mammut = next(g for g in doc["games"] if g["name"] == "Valley of the Mammoths")
    assert (clans["bggId"], clans["bggYear"], clans["highestWins"], clans["noPoints"], clans["cooperative"]) == \
        (4636, 2002, True, False, False)
    assert (clans["minPlayerCount"], clans["maxPlayerCount"], clans["copies"]) == (2, 4, [])
    assert (mammut["bggId"], mammut["bggYear"], mammut["noPoints"]) == (0, 0, True)  # no id found: none given
    assert len(doc["plays"]) == len(plays) == 4
    ids = {p["id"]: p["name"] for p in doc["players"]}
    for entry, play in zip(doc["plays"], plays):
        assert games[entry["gameRefId"]]["name"] == ("Clans" if play.game == "clans" else "Valley of the Mammoths")
        assert entry["locationRefId"] == place["id"] and entry["bggId"] == 0
        assert entry["playDate"] == dt.datetime.fromtimestamp(play.started).strftime("%Y-%m-%d %H:%M:%S")
        assert entry["durationMin"] == play.duration_min and type(entry["durationMin"]) is int
        assert (entry["ignored"], entry["usesTeams"], entry["manualWinner"], entry["rounds"], entry["board"]) == \
            (False, False, False, 0, "")
        assert __import__("re").fullmatch(UUID, entry["uuid"])
        scores = entry["playerScores"]
        assert [ids[s["playerRefId"]] for s in scores] == list(play.players)
        assert [s["seatOrder"] for s in scores] == list(range(1, len(play.players) + 1))
        assert [s["winner"] for s in scores] == [i in play.winners for i in range(len(play.players))]
        assert [s["startPlayer"] for s in scores] == [i == play.first_player for i in range(len(play.players))]
        if play.game == "clans":
            assert [s["score"] for s in scores] == [str(t) for t in play.totals]
            assert [s["role"] for s in scores] == list(play.colors)
            first = [s for s in scores if s["startPlayer"]]
            assert [s["startPosition"] for s in first] == ["1"]
            assert sorted(int(s["startPosition"]) for s in scores) == list(range(1, len(scores) + 1))
            best = max(play.totals)
            assert all(s["rank"] == 1 for s, t in zip(scores, play.totals) if t == best)
        else:
            assert all(s["score"] is None and s["role"] == "" and s["startPosition"] == "" for s in scores)
    # a second export names everything with the same uuids (BG Stats recognises its plays again)
    again = json.loads(run_cli("export", "--state-dir", str(state), "--format", "bgstats")[1])
    assert [p["uuid"] for p in again["plays"]] == [p["uuid"] for p in doc["plays"]]
    assert [p["uuid"] for p in again["players"]] == [p["uuid"] for p in doc["players"]]


def test_create_play_link(state):
    plays = read_history(state).finished
    for play in plays:
        url = bgstats.create_play_link(play)
        parts = urllib.parse.urlsplit(url)
        assert (parts.scheme, parts.netloc, parts.path) == ("https", "app.bgstatsapp.com", "/createPlay.html")
        (data_text,) = urllib.parse.parse_qs(parts.query)["data"]
        data = json.loads(data_text)
        assert data["sourceName"] == "Clans companion" and data["sourcePlayId"] == play.source_id
        assert data["location"] == "Clans companion" and data["durationMin"] == play.duration_min
        utc = dt.datetime.fromtimestamp(play.started, dt.timezone.utc)
        assert data["playDate"] == utc.strftime("%Y-%m-%d %H:%M:%S")
        game = data["game"]
        assert game["sourceGameId"] == play.game and game["highestWins"] is True
        assert [p["name"] for p in data["players"]] == list(play.players)
        ids = [p["sourcePlayerId"] for p in data["players"]]
        assert all(__import__("re").fullmatch(UUID, i) for i in ids) and len(set(ids)) == len(ids)
        assert [p["winner"] for p in data["players"]] == [i in play.winners for i in range(len(play.players))]
        assert all(type(p["rank"]) is int and p["rank"] >= 1 for p in data["players"])
        if play.game == "clans":
            assert game == {"name": "Clans", "bggId": 4636, "highestWins": True, "noPoints": False,
                            "sourceGameId": "clans"}
            assert [p["score"] for p in data["players"]] == list(play.totals)
            assert [p["role"] for p in data["players"]] == list(play.colors)
            assert [p["startPlayer"] for p in data["players"]] == [i == play.first_player
                                                                   for i in range(len(play.players))]
            winners_rank = {data["players"][w]["rank"] for w in play.winners}
            assert winners_rank == {1}
        else:
            assert game["noPoints"] is True and "bggId" not in game
            assert all("score" not in p and p["role"] == "" for p in data["players"])
    named = bgstats.create_play_link(plays[0], location="Kitchen table")
    assert json.loads(urllib.parse.parse_qs(urllib.parse.urlsplit(named).query)["data"][0])["location"] == \
        "Kitchen table"
    assert bgstats.slug("Bot 2 (mcts)") == "bot-2-mcts" and bgstats.slug("Ännä") == "ännä"


def test_bgg_xml(state):
    code, text, err = run_cli("export", "--state-dir", str(state), "--format", "bgg")
    assert code == 0, err
    root = ET.fromstring(text.encode())
    plays = read_history(state).finished
    real_play = REAL_BGG.find("play")
    assert set(root.attrib) == set(REAL_BGG.attrib)
    assert root.tag == "plays" and len(root.findall("play")) == len(plays)
    for node, play in zip(root.findall("play"), plays):
        assert set(node.attrib) == set(real_play.attrib)
        assert node.get("id") == str(play.game_id) and int(node.get("id")) > 0 and node.get("quantity") == "1"
        assert node.get("date") == dt.datetime.fromtimestamp(play.started).strftime("%Y-%m-%d")
        assert node.get("length") == str(play.duration_min) and node.get("location") == "Clans companion"
        item = node.find("item")
        if play.game == "clans":
            assert set(item.attrib) == set(real_play.find("item").attrib)
            assert (item.get("objecttype"), item.get("objectid"), item.get("name")) == ("thing", "4636", "Clans")
        else:
            assert item is None  # no BGG id known: no item rather than objectid="0"
        seats = node.find("players").findall("player")
        assert all(set(s.attrib) == set(real_play.find("players/player").attrib) for s in seats)
        assert [s.get("name") for s in seats] == list(play.players)
        assert [s.get("win") for s in seats] == ["1" if i in play.winners else "0" for i in range(len(seats))]
        assert all(s.get("new") == "0" for s in seats)
        if play.game == "clans":
            n, first = len(seats), play.first_player
            assert seats[first].get("startposition") == "1"
            assert [s.get("startposition") for s in seats] == [str((i - first) % n + 1) for i in range(n)]
            assert [s.get("score") for s in seats] == [str(t) for t in play.totals]
            assert [s.get("color") for s in seats] == list(play.colors)
        else:
            assert all(s.get("startposition") == "" for s in seats)
    assert 'objectid="0"' not in text


def test_csv_one_row_per_player(state):
    code, text, err = run_cli("export", "--state-dir", str(state), "--format", "csv")
    assert code == 0, err
    assert text.startswith(export.BOM)  # Excel reads the file as UTF-8
    rows = list(csv.DictReader(io.StringIO(text[1:])))
    plays = read_history(state).finished
    assert list(rows[0]) == list(export.CSV_COLUMNS)
    assert len(rows) == sum(len(p.players) for p in plays)
    titles = {"clans": "Clans", "mammut": "Valley of the Mammoths"}
    expected = [(str(p.game_id), titles[p.game], str(i + 1), n, str(p.totals[i]), "1" if i in p.winners else "0",
                 (p.colors[i] if p.colors else ""), "" if p.first_player is None else str(p.first_player + 1))
                for p in plays for i, n in enumerate(p.players)]
    assert [(r["game_id"], r["game"], r["seat"], r["name"], r["total"], r["winner"], r["color"],
             r["first_player"]) for r in rows] == expected
    for r, p in zip(rows, [p for p in plays for _ in p.players]):
        assert r["started"] == dt.datetime.fromtimestamp(p.started).strftime("%Y-%m-%d %H:%M:%S")
        assert int(r["duration_min"]) >= 1


def test_csv_cells_that_would_be_formulas_are_text(tmp_path):
    """A name starting with = + - @ is written with the spreadsheets' text mark; others as they are."""
    names = ["=1+2", "+Bénédicte", "-Jo", "@Ann"]
    state = tmp_path / "state"
    path = tmp_path / "in.json"
    path.write_text(json.dumps([clans_record(61, 4, names), clans_record(62, 2, ["Bénédicte", "Jo-Ann"])]))
    assert run_cli("import", "--state-dir", str(state), str(path))[0] == 0
    out = tmp_path / "plays.csv"
    assert run_cli("export", "--state-dir", str(state), "--format", "csv", "--out", str(out))[0] == 0
    raw = out.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"))))
    assert [r["name"] for r in rows] == ["'=1+2", "'+Bénédicte", "'-Jo", "'@Ann", "Bénédicte", "Jo-Ann"]


def test_json_records_replay_to_the_same_totals_and_winners(state, tmp_path):
    code, text, err = run_cli("export", "--state-dir", str(state), "--format", "json")
    assert code == 0, err
    records = json.loads(text)
    plays = read_history(state).finished
    for record, play in zip(records, plays):
        assert record["names"] == list(play.players)
        assert record["companion"] == {"game": play.game, "started": play.started, "finished": play.finished,
                                       "actions": play.actions, "game_id": play.game_id}
        if play.game != "clans":
            assert record["game"] == "mammut" and record["log"][0]["action"] == "new_game"
            continue
        path = tmp_path / f"game{play.game_id}.json"
        path.write_text(json.dumps(record))
        code, out, err = run_cli("replay", str(path), "--json")
        assert code == 0, err
        replay = json.loads(out)
        assert replay["status"] == "finished"
        assert (replay["totals"], replay["winners"]) == (list(play.totals), list(play.winners))
    # --game-id N writes that one record: `companion replay` reads the file as it is
    one_file = tmp_path / "one.json"
    code, _, err = run_cli("export", "--state-dir", str(state), "--format", "json", "--game-id",
                           str(plays[1].game_id), "--out", str(one_file))
    assert code == 0, err
    one = json.loads(one_file.read_text())
    assert isinstance(one, dict) and one["names"] == ["Anna", "Bruno", "Carla"]
    code, out, err = run_cli("replay", str(one_file), "--json")
    assert code == 0 and json.loads(out)["totals"] == list(plays[1].totals), err
    assert run_cli("export", "--state-dir", str(state), "--format", "json", "--game-id", "999")[0] == 1


def test_a_game_played_at_the_table_exports(tmp_path):
    """A daemon plays a game key by key into its journal; the export carries it."""
    from tests.web.webtools import advance, table

    state_dir = tmp_path / "state"
    d = table(state_dir, "--players", "3", "--bots", "2", "--seed", "4")
    rnd = random.Random(2)
    for _ in range(400):
        if d.shell.game.game.is_over:
            break
        advance(d, rnd)
    assert d.shell.game.game.is_over
    for _ in range(30):
        if read_history(state_dir).finished:
            break
        d.step("#")
    (play,) = read_history(state_dir).finished
    doc = json.loads(run_cli("export", "--state-dir", str(state_dir), "--format", "bgstats")[1])
    assert [s["score"] for s in doc["plays"][0]["playerScores"]] == [str(t) for t in play.totals]
    records = json.loads(run_cli("export", "--state-dir", str(state_dir), "--format", "json")[1])
    path = tmp_path / "again.json"
    path.write_text(json.dumps(records))
    assert run_cli("import", "--state-dir", str(tmp_path / "other"), str(path))[0] == 0
    (back,) = read_history(tmp_path / "other").finished
    assert (back.players, back.totals, back.winners, back.colors, back.started, back.actions) == \
        (play.players, play.totals, play.winners, play.colors, play.started, play.actions)


def test_out_writes_the_file_atomically(state, tmp_path):
    out = tmp_path / "plays.xml"
    code, text, err = run_cli("export", "--state-dir", str(state), "--format", "bgg", "--out", str(out))
    assert code == 0 and text == "" and ET.fromstring(out.read_bytes()).tag == "plays"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_read_only_folder(state, tmp_path):
    if os.geteuid() == 0:
        pytest.skip("running as root: a chmod 0555 folder is still writable")
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        target = folder / "plays.csv"
        code, out, err = run_cli("export", "--state-dir", str(state), "--format", "csv", "--out", str(target))
        assert code == 1 and out == ""
        assert err == f"companion export: cannot write {target}: the folder is read-only\n"
        assert list(folder.iterdir()) == []
        with pytest.raises(export.ExportError, match="read-only"):
            export.copy_to_folder(read_history(state), folder, dt.datetime(2026, 5, 1, 20, 15))
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o755)


def _full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_space(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", no_space)


def test_full_disk_leaves_no_half_file(state, tmp_path, monkeypatch):
    history = read_history(state)
    target = tmp_path / "out" / "bgstats.json"
    target.parent.mkdir()
    _full_disk(monkeypatch)
    code, out, err = run_cli("export", "--state-dir", str(state), "--format", "bgstats", "--out", str(target))
    assert code == 1
    assert err == f"companion export: cannot write {target}: no space left on the device\n"
    assert list(target.parent.iterdir()) == []  # neither the file nor its temp file
    with pytest.raises(export.ExportError, match="full"):
        export.copy_to_folder(history, tmp_path / "out", dt.datetime(2026, 5, 1, 20, 15))
    assert list(target.parent.iterdir()) == []  # the half-made folder is gone too


def test_atomic_write_removes_its_temp_file_on_any_failure(tmp_path, monkeypatch):
    from companion.util.fsutil import atomic_write_text

    target = tmp_path / "f.txt"
    target.write_text("old")

    def broken(src, dst):
        raise OSError(errno.EIO, "I/O error")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError):
        atomic_write_text(target, "new")
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["f.txt"]


def test_copy_to_folder_writes_every_format(state, tmp_path):
    history = read_history(state)
    stick = tmp_path / "stick"
    stick.mkdir()
    now = dt.datetime(2026, 5, 1, 20, 15, 42)
    first = export.copy_to_folder(history, stick, now)
    second = export.copy_to_folder(history, stick, now.timestamp())
    assert first.name == "companion-history-2026-05-01-2015" and second.name == first.name + "-2"
    for folder in (first, second):
        assert sorted(p.name for p in folder.iterdir()) == sorted(export.FOLDER_FILES.values())
    files = {fmt: first / name for fmt, name in export.FOLDER_FILES.items()}
    assert len(json.loads(files["bgstats"].read_text())["plays"]) == 4
    assert len(ET.fromstring(files["bgg"].read_bytes()).findall("play")) == 4
    assert len(list(csv.DictReader(files["csv"].open()))) == 2 + 3 + 4 + 2
    assert len(json.loads(files["json"].read_text())) == 4


def test_usb_mounts_from_proc_mounts():
    text = "\n".join([
        "/dev/mmcblk0p2 / ext4 rw,noatime 0 0",
        "proc /proc proc rw,nosuid 0 0",
        "tmpfs /run tmpfs rw,nosuid 0 0",
        "/dev/sda1 /media/pi/MY\\040STICK vfat rw,nosuid,nodev,uid=1000 0 0",
        "/dev/sdb1 /run/media/anna/DATA exfat ro,nosuid 0 0",
        "/dev/sdc1 /mnt/usb ntfs3 rw 0 0",
        "/dev/mmcblk0p1 /boot/firmware vfat rw 0 0",
        "tmpfs /media/ram tmpfs rw 0 0",
        "/dev/sdd1 /srv/disk ext4 rw 0 0",
        "garbage",
    ])
    assert export.usb_mounts(text) == [Path("/media/pi/MY STICK"), Path("/run/media/anna/DATA"), Path("/mnt/usb")]
    assert export.usb_mounts(text, media_roots=("/srv",)) == [Path("/srv/disk")]
    assert export.usb_mounts("") == []


def test_read_only_stick_said_in_one_line_even_as_root(state, tmp_path, monkeypatch):
    """The read-only message without chmod (root writes anywhere): the stick's EROFS itself."""
    from companion.util import fsutil

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(fsutil, "open", read_only, raising=False)
    target = tmp_path / "plays.csv"
    code, _, err = run_cli("export", "--state-dir", str(state), "--format", "csv", "--out", str(target))
    assert (code, err) == (1, f"companion export: cannot write {target}: the folder is read-only\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["records.json", "state"]


def bgstats_doc(state: Path) -> dict:
    code, text, err = run_cli("export", "--state-dir", str(state), "--format", "bgstats")
    assert code == 0, err
    return json.loads(text)


def test_one_person_is_one_player_and_seats_of_no_one_are_anonymous(tmp_path):
    """Issue 53, item 12 (it was issue 33, part 3): "Anna" and "anna" are one person by the table's names'
    rule (`seatnames.same_key`, as in the statistics), one player named by the latest spelling; "Jo-Ann"
    and "Jo Ann" are two (a hyphen is no space). Guests, default seats and bots all point at one
    anonymous player, each seat's own name kept in its metaData, in the layout of the real files'
    seats that have one."""
    state = tmp_path / "state"
    records = [clans_record(71, 4, ["Anna", "Ben", "Jo-Ann", "Jo Ann"]),
               clans_record(72, 4, ["Anna", "Guest 2", "Bot 3 (mcts)", "Player 4"]),
               clans_record(73, 3, ["Guest 1", "Guest 2", "anna"])]
    path = tmp_path / "in.json"
    path.write_text(json.dumps(records))
    assert run_cli("import", "--state-dir", str(state), str(path))[0] == 0
    doc = bgstats_doc(state)
    by_id = {p["id"]: p for p in doc["players"]}
    named = [p for p in doc["players"] if not p["isAnonymous"] and p["name"] != bgstats.SENDER]
    assert sorted(p["name"] for p in named) == sorted(["anna", "Ben", "Jo-Ann", "Jo Ann"])
    assert len({p["uuid"] for p in doc["players"]}) == len({p["id"] for p in doc["players"]}) == len(doc["players"])
    (anonymous,) = [p for p in doc["players"] if p["isAnonymous"]]
    assert anonymous["name"] == "Anonymous player"
    seats = [[by_id[s["playerRefId"]]["name"] for s in p["playerScores"]] for p in doc["plays"]]
    assert seats == [["anna", "Ben", "Jo-Ann", "Jo Ann"], ["anna"] + ["Anonymous player"] * 3,
                     ["Anonymous player", "Anonymous player", "anna"]]
    real_named, _kim, real_anonymous = REAL_PLAY_FILE["plays"][0]["playerScores"]
    for play in doc["plays"]:
        for score in play["playerScores"]:
            anon = by_id[score["playerRefId"]]["isAnonymous"]
            same_layout(score, real_anonymous if anon else real_named, "playerScores")
    assert [json.loads(s["metaData"]) for s in doc["plays"][1]["playerScores"][1:]] == \
        [{"companionSeat": "Guest 2"}, {"companionSeat": "Bot 3 (mcts)"}, {"companionSeat": "Player 4"}]
    for play in read_history(state).finished:
        data = json.loads(urllib.parse.unquote(bgstats.create_play_link(play)[len(bgstats.LINK):]))
        ids = [p["sourcePlayerId"] for p in data["players"]]
        assert len(set(ids)) == len(ids)


def test_player_uuids_differ_from_box_to_box_and_stay_put_in_one(tmp_path):
    """Every box has its own id (kept in its journal): "Anna" of one box is not "Anna" of another."""
    path = tmp_path / "in.json"
    path.write_text(json.dumps([clans_record(74, 2, ["Anna", "Ben"])]))
    uuids = []
    for box in ("one", "two"):
        assert run_cli("import", "--state-dir", str(tmp_path / box), str(path))[0] == 0
        doc = bgstats_doc(tmp_path / box)
        uuids.append({p["name"]: p["uuid"] for p in doc["players"]})
    assert uuids[0]["Anna"] != uuids[1]["Anna"]
    assert {p["name"]: p["uuid"] for p in bgstats_doc(tmp_path / "one")["players"]} == uuids[0]
    # the play itself keeps its uuid (made from the game and its start): BG Stats knows it again
    plays = [bgstats_doc(tmp_path / box)["plays"][0]["uuid"] for box in ("one", "two")]
    assert plays[0] == plays[1]


def test_the_commands_default_to_the_state_dir_run_uses(tmp_path, monkeypatch):
    """Issue 33, part 7: without --state-dir, history, stats, export and import use the journal
    `companion run` uses (on a laptop $XDG_STATE_HOME/companion)."""
    from companion.history import where

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr("companion.hw.platform.is_raspberry_pi", lambda: False)
    monkeypatch.setattr("companion.box.config.DEFAULT_PATH", str(tmp_path / "no-config.yaml"))
    assert where.table_state_dir(None) == str(tmp_path / "xdg" / "companion")
    path = tmp_path / "in.json"
    path.write_text(json.dumps([clans_record(75, 2, ["Anna", "Ben"])]))
    assert run_cli("import", str(path))[0] == 0
    assert (tmp_path / "xdg" / "companion" / "journal.sqlite3").is_file()
    code, out, err = run_cli("history", "--json")
    assert code == 0 and [g["players"] for g in json.loads(out)] == [["Anna", "Ben"]], err
    code, out, err = run_cli("stats", "--json")
    assert code == 0 and set(json.loads(out)) == {"Anna", "Ben"}, err
    code, out, err = run_cli("export", "--format", "bgg")
    assert code == 0 and ET.fromstring(out.encode()).find("play") is not None, err


def test_a_game_no_longer_registered_is_named_by_its_code_with_no_facts():
    from companion.history.gamefacts import game_info, game_name

    assert game_name("chess") == "chess" and game_name("mammut") == "Valley of the Mammoths"
    assert game_info("chess") == {"name": "chess", "bggId": 0, "bggYear": 0, "designers": "", "minPlayerCount": 0,
                                  "maxPlayerCount": 0, "minPlayTime": 0, "maxPlayTime": 0, "minAge": 0,
                                  "highestWins": True, "noPoints": False}
    assert game_info("clans")["bggYear"] == 2002 and game_info("clans", {"clans": 0})["bggYear"] == 0
