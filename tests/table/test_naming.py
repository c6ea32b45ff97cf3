"""Players by name: a roster's names picked seat by seat at a new game, journaled with the game,
shown where seat numbers show (cut to fit 128x64), kept in records, resumed after a power cut;
without a roster nothing changes; bots are named by seat and level. The menu's History (then the statistics) and
"History to USB" (only while a stick is mounted) work on the table's journal."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion.table.screen import overflows

from tests.web.webtools import advance, table

ROSTER = ["Anna", "Ben", "Massimiliano Rossi"]


def config(tmp_path: Path, roster: list[str]) -> str:
    path = tmp_path / "config.yaml"
    path.write_text(json.dumps({"roster": roster, "display": {"driver": "dummy"}}))
    return str(path)


def keys(d, text: str) -> None:
    for k in text:
        d.step(k)


def dismiss(d) -> None:
    """Close the table's message (however many pages it has)."""
    for _ in range(20):
        if not d.shell.notice.shown:
            return
        d.step("*")
    raise AssertionError("the message does not close")


def journal_names(d) -> list:
    rows = d.journal.journal.db.execute("SELECT payload FROM actions ORDER BY game, seq").fetchall()
    return [json.loads(r[0])["names"] for r in rows if json.loads(r[0]).get("a") == "names"]


def screens_of_a_whole_game(d, rnd: random.Random) -> list:
    seen = [d.shell.screen()]
    while not d.shell.game.game.is_over:
        advance(d, rnd)
        seen.append(d.shell.screen())
    for _ in range(6):
        d.step("#")
        seen.append(d.shell.screen())
    return seen


def test_each_seat_picks_a_name_bots_are_named_and_the_game_shows_and_keeps_them(tmp_path):
    state = tmp_path / "state"
    d = table(state, "--config", config(tmp_path, ROSTER), "--players", "3", "--bots", "2")
    s = d.shell.screen()
    assert s.name == "names" and "P1" in s.title
    assert s.choices == ("1 Anna", "2 Ben", "3 Massimiliano Rossi", "4 Guest")
    assert journal_names(d) == []  # nothing journaled before every seat has its name
    keys(d, "3#")  # P1: Massimiliano Rossi; P2 is the bot; P3 next, without the name taken
    s = d.shell.screen()
    assert "P3" in s.title and s.choices == ("1 Anna", "2 Ben", "3 Guest")
    keys(d, "3#")  # P3: a guest
    names = ["Massimiliano Rossi", "Bot 2 (random)", "Guest 3"]
    assert journal_names(d) == [names] and d.shell.game.names == names
    assert d.shell.screen().name != "names"
    seen = screens_of_a_whole_game(d, random.Random(3))
    seen = [s for s in seen if s.name != "names"]  # (# at the end starts the next game: its names)
    text = json.dumps([s.__dict__ for s in seen], default=str)
    assert "Massim." in text and "Massimiliano" not in text  # shortened on the OLED ...
    assert [p for s in seen for p in overflows(s)] == []  # ... and nothing clipped
    from companion.history.plays import read_history

    (play,) = read_history(state).finished
    assert list(play.players) == names and play.record["names"] == names  # the record keeps them too


def test_back_goes_to_the_previous_seat_and_a_power_cut_asks_again(tmp_path):
    state, cfg = tmp_path / "state", config(tmp_path, ROSTER)
    d = table(state, "--config", cfg, "--players", "2")
    keys(d, "1#")  # P1: Anna
    assert "P2" in d.shell.screen().title
    keys(d, "*")  # back to P1, Anna free again
    s = d.shell.screen()
    assert "P1" in s.title and s.choices[0] == "1 Anna"
    d.journal.journal.close()  # the power goes: nothing of the names was journaled
    d = table(state, "--config", cfg)
    assert d.shell.screen().name == "names" and "P1" in d.shell.screen().title
    keys(d, "2#1#")  # P1 Ben, P2 Anna
    assert d.shell.game.names == ["Ben", "Anna"]
    d.journal.journal.close()
    d = table(state, "--config", cfg)  # resumed: the names come back from the journal, no question
    assert d.shell.game.names == ["Ben", "Anna"] and d.shell.screen().name != "names"
    mover = d.shell.game.names[d.shell.game.game.to_move]
    assert d.shell.screen().header.left == f"{mover} to move"


def test_without_a_roster_nothing_changes_and_bots_are_named(tmp_path):
    d = table(tmp_path / "a", "--players", "3")
    assert d.shell.screen().name != "names" and d.shell.game.names is None and journal_names(d) == []
    assert d.shell.game.record_json() is not None and "names" not in json.loads(d.shell.game.record_json())
    d = table(tmp_path / "b", "--players", "3", "--bots", "3")
    assert d.shell.game.names == ["Player 1", "Player 2", "Bot 3 (random)"]
    assert "Bot 3" not in json.dumps(d.shell.screen().__dict__, default=str)  # the OLED keeps P3 (bot)


def test_statistics_and_the_copy_to_a_usb_stick_from_the_menu(tmp_path):
    state = tmp_path / "state"
    d = table(state, "--config", config(tmp_path, ["Anna", "Ben"]), "--players", "2", "--bots", "2")
    keys(d, "1#")  # Anna, against the bot
    screens_of_a_whole_game(d, random.Random(5))
    stick = tmp_path / "media" / "STICK"
    stick.mkdir(parents=True)
    mounts = tmp_path / "mounts"
    mounts.write_text(f"/dev/mmcblk0p2 / ext4 rw 0 0\n/dev/sda1 {stick} vfat rw,nosuid 0 0\n")
    from companion.history.kiosk import KioskMemory

    d.shell.memory = KioskMemory(state, mounts, media_roots=(str(tmp_path / "media"),))
    d.step("D")
    labels = [c.split(" ", 1)[1] for c in d.shell.screen().choices]
    at = labels.index("History")
    assert labels[at:at + 3] == ["History", "History to USB", "Language"]
    assert labels[-1] == "Phone view"  # (only while a stick is mounted: the items from the top move)
    keys(d, "B" * at + "#")  # down to History: the last games, then the statistics
    s = d.shell.screen()
    text = " ".join(s.lines)
    while d.shell.screen().page + 1 < d.shell.screen().pages:
        d.step("B")
        text += " " + " ".join(d.shell.screen().lines)
    assert s.title == "History" and "Statistics" in text and "Anna: Games 1" in text
    dismiss(d)
    d.step("D")
    keys(d, "B" * (at + 1) + "#")  # down to History to USB
    (folder,) = stick.iterdir()
    assert folder.name.startswith("companion-history-")
    assert sorted(p.suffix for p in folder.iterdir()) == [".bgsplay", ".csv", ".json", ".xml"]  # BG Stats: a play file
    assert "1 game copied" in " ".join(d.shell.screen().lines)
    mounts.write_text("/dev/mmcblk0p2 / ext4 rw 0 0\n")  # the stick is pulled out: the item goes
    dismiss(d)
    d.step("D")
    assert "History to USB" not in " ".join(d.shell.screen().choices)


def test_a_copy_to_a_stick_that_went_away_says_so(tmp_path):
    from companion.history.kiosk import KioskMemory

    from companion.journal.store import Journal

    Journal(tmp_path).close()
    done, message = KioskMemory(tmp_path).copy(tmp_path / "gone")
    assert not done and message == "Nothing copied: the stick is gone."


def test_run_load_keeps_a_records_names_and_a_restart_too(tmp_path):
    record = json.loads((Path(__file__).resolve().parents[1] / "data" / "examples" /
                         "in-progress.record.json").read_text())
    names = [f"Spieler{i}" for i in range(record["players"])][:-1] + ["Zoë"]
    record["names"] = names
    path = tmp_path / "named.record.json"
    path.write_text(json.dumps(record))
    state = tmp_path / "state"
    d = table(state, "--config", config(tmp_path, ["Anna"]), "--load", str(path))
    assert d.shell.game.names == names and d.shell.screen().name != "names"  # nobody is asked
    assert json.loads(d.shell.game.record_json())["names"] == names
    mover = names[d.shell.game.game.to_move]  # "Spieler1" shows as "Spiele." (7 characters)
    assert d.shell.screen().header.left == ("Spiele." if mover.startswith("Spieler") else mover) + " to move"
    d.journal.journal.close()
    again = table(state, "--config", config(tmp_path, ["Anna"]))
    assert again.shell.game.names == names and json.loads(again.shell.game.record_json())["names"] == names


def test_the_voice_says_the_whole_name(tmp_path):
    log = tmp_path / "said.jsonl"
    d = table(tmp_path / "state", "--config", config(tmp_path, ROSTER), "--players", "2",
              "--announce-log", str(log))
    keys(d, "3#2#")  # Massimiliano Rossi, Ben
    while d.shell.game.mode() != "move":
        d.step("#")
    advance(d, random.Random(1))
    d.announcer.close()
    said = " ".join(json.loads(line)["text"] for line in log.read_text().splitlines())
    after = said[said.index(" moves "):]  # (the first turn is said as the game starts, before its names)
    assert ("Massimiliano Rossi moves" in said or "Ben moves" in said) and "Player" not in after


@pytest.mark.parametrize("lang", ["it", "es", "fr", "de", "en"])
def test_long_names_fit_every_screen_of_a_game_in_every_language(tmp_path, lang):
    d = table(tmp_path / "state", "--config", config(tmp_path, ["Massimiliano", "Wolfgang Amadeus"]),
              "--players", "3", "--bots", "3", "--lang", lang)
    keys(d, "1#1#")  # Massimiliano, Wolfgang Amadeus, and the bot
    assert d.shell.game.names[:2] == ["Massimiliano", "Wolfgang Amadeus"]
    seen = [s for s in screens_of_a_whole_game(d, random.Random(7)) if s.name != "names"]
    assert [(s.name, p) for s in seen for p in overflows(s)] == []


def test_the_oled_statistics_follow_a_new_finished_game(tmp_path):
    import sqlite3

    from companion.history.kiosk import KioskMemory
    from tests.history.fixture import build_journal

    build_journal(tmp_path)
    memory = KioskMemory(tmp_path)
    first = memory.stats_paragraphs()
    assert any(p.startswith("Carla: Games 4") for p in first) and memory.stats_paragraphs() == first
    db = sqlite3.connect(tmp_path / "journal.sqlite3")
    (result,) = db.execute("SELECT result FROM games WHERE id = 11").fetchone()  # Dario, Carla: Carla won
    db.execute("INSERT INTO games(kind, started, finished, result) VALUES ('clans', 2e9, 2e9 + 60, ?)", (result,))
    db.commit()
    db.close()
    assert any(p.startswith("Carla: Games 5") for p in memory.stats_paragraphs())
