"""A hand-written journal for the history and statistics tests.

`GAMES` is the table of games, one row per journal entry, in id (and time) order;
`build_journal(state_dir)` makes an empty journal with `companion.journal.store.Journal`,
closes it, and inserts these rows with sqlite3 directly, in the shapes the kiosk writes.
The numbers the tests expect are worked out by hand from this table (see test_stats.py).

  id kind    players (seat order)                     totals          winners   first colors / notes
   1 clans   Anna, Bruno                              40 35           0         0     red blue; founders 0 0 1
   2 clans   Anna, Bruno, Carla (names in record)     30 45 45        1 2 (tie) 1     green red yellow; 0 1 2 2
   3 clans   Anna, Guest 2, Bruno, Carla              50 55 20 25     1 (guest) 1     blue red green black; 1 3
   4 clans   abandoned                                                                never counts
   5 clans   Anna, Bruno, Bot 3 (mcts)                60 30 40        0         0     red yellow blue; 0 0 2
   6 clans   (no names: Player 1, Player 2)           33 38           1         0     yellow green; none
   7 mammut  Anna, Bruno, Dario (camps 1+1 3+1 0+1)   2 4 1           1 (tribe 2)      -
   8 mammut  Anna, Dario (camps 1+0 0+2), extinct     1 2             none             -
   9 clans   damaged: its result is not JSON
  10 clans   Bruno, Anna, Carla, Dario                44 52 52 30     1 2 (tie) 2     green blue red yellow; 1 1 2 3 0
  11 clans   Dario, Carla                             28 41           1         0     black red; 1 0 1
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from companion.journal.store import Journal
from companion.journal.repair import crc

BASE = 1_700_000_000  # 2023-11-14 22:13:20 UTC; game N starts N days later
DAY = 86_400


def started(gid: int) -> int:
    return BASE + gid * DAY


# id -> minutes played
MINUTES = {1: 45, 2: 60, 3: 75, 4: 5, 5: 50, 6: 40, 7: 30, 8: 25, 9: 10, 10: 90, 11: 35}
# id -> action rows written for the game
ACTIONS = {1: 12, 2: 20, 3: 25, 4: 3, 5: 18, 6: 10, 7: 15, 8: 9, 9: 4, 10: 30, 11: 8}


def finished(gid: int) -> int:
    return started(gid) + 60 * MINUTES[gid]


def clans(players: int, totals: list[int], winners: list[int], first: int, colors: list[str],
          founders: list[int], names: list[str] | None = None, names_in_record: bool = False) -> dict[str, Any]:
    """A Clans result as the kiosk keeps it: replay's summary (totals, winners, villages) plus the record."""
    record: dict[str, Any] = {"board": "clans-r1", "players": players, "first_player": first, "setup": [],
                              "moves": [], "colors": colors}
    result: dict[str, Any] = {"status": "finished", "totals": totals, "winners": winners,
                              "villages": [{"founder": f, "territory": 1, "epoch": 1} for f in founders],
                              "record": record}
    if names is not None:
        if names_in_record:
            record["names"] = names
        else:
            result["names"] = names
    return result


def mammut(camps: list[tuple[int, int]], winners: list[int], extinct: bool, names: list[str]) -> dict[str, Any]:
    """A Valley of the Mammoths result: 1-based winning tribes, extinct, the game's log (state and actions)."""
    tribes = [{"villages": v, "caves": c, "hunters": 0} for v, c in camps]
    return {"winners": winners, "extinct": extinct,
            "log": {"game": "mammut", "state": {"tribes": tribes},
                    "log": [{"action": "new_game", "args": {"names": names}}]}}


# id -> (kind, result as stored: a dict is written as JSON, a str as is)
GAMES: dict[int, tuple[str, Any]] = {
    1: ("clans", clans(2, [40, 35], [0], 0, ["red", "blue"], [0, 0, 1], ["Anna", "Bruno"])),
    2: ("clans", clans(3, [30, 45, 45], [1, 2], 1, ["green", "red", "yellow"], [0, 1, 2, 2],
                       ["Anna", "Bruno", "Carla"], names_in_record=True)),
    3: ("clans", clans(4, [50, 55, 20, 25], [1], 1, ["blue", "red", "green", "black"], [1, 3],
                       ["Anna", "Guest 2", "Bruno", "Carla"])),
    4: ("clans", {"abandoned": True}),
    5: ("clans", clans(3, [60, 30, 40], [0], 0, ["red", "yellow", "blue"], [0, 0, 2],
                       ["Anna", "Bruno", "Bot 3 (mcts)"])),
    6: ("clans", clans(2, [33, 38], [1], 0, ["yellow", "green"], [])),
    7: ("mammut", mammut([(1, 1), (3, 1), (0, 1)], [2], False, ["Anna", "Bruno", "Dario"])),
    8: ("mammut", mammut([(1, 0), (0, 2)], [], True, ["Anna", "Dario"])),
    9: ("clans", "{this is not json"),
    10: ("clans", clans(4, [44, 52, 52, 30], [1, 2], 2, ["green", "blue", "red", "yellow"], [1, 1, 2, 3, 0],
                        ["Bruno", "Anna", "Carla", "Dario"])),
    11: ("clans", clans(2, [28, 41], [1], 0, ["black", "red"], [1, 0, 1], ["Dario", "Carla"])),
}

# `companion history --json` of the fixture, by hand ("started"/"finished" as epoch seconds here:
# the command prints them as ISO 8601 with the offset)
EXPECTED_HISTORY: list[dict[str, Any]] = [
    {"game_id": 1, "game": "clans", "players": ["Anna", "Bruno"], "totals": [40, 35], "winners": [0]},
    {"game_id": 2, "game": "clans", "players": ["Anna", "Bruno", "Carla"], "totals": [30, 45, 45], "winners": [1, 2]},
    {"game_id": 3, "game": "clans", "players": ["Anna", "Guest 2", "Bruno", "Carla"], "totals": [50, 55, 20, 25],
     "winners": [1]},
    {"game_id": 5, "game": "clans", "players": ["Anna", "Bruno", "Bot 3 (mcts)"], "totals": [60, 30, 40],
     "winners": [0]},
    {"game_id": 6, "game": "clans", "players": ["Player 1", "Player 2"], "totals": [33, 38], "winners": [1]},
    {"game_id": 7, "game": "mammut", "players": ["Anna", "Bruno", "Dario"], "totals": [2, 4, 1], "winners": [1]},
    {"game_id": 8, "game": "mammut", "players": ["Anna", "Dario"], "totals": [1, 2], "winners": []},
    {"game_id": 10, "game": "clans", "players": ["Bruno", "Anna", "Carla", "Dario"], "totals": [44, 52, 52, 30],
     "winners": [1, 2]},
    {"game_id": 11, "game": "clans", "players": ["Dario", "Carla"], "totals": [28, 41], "winners": [1]},
]
for _entry in EXPECTED_HISTORY:
    _gid = _entry["game_id"]
    _entry.update(started=started(_gid), finished=finished(_gid), actions=ACTIONS[_gid])

ABANDONED_ID = 4
DAMAGED_ID = 9


def build_journal(state_dir: Path) -> Path:
    """The fixture's journal in `state_dir` (made by the table's Journal, rows inserted directly)."""
    Journal(state_dir).close()
    path = Path(state_dir) / "journal.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("BEGIN")
        for gid, (kind, result) in GAMES.items():
            text = result if isinstance(result, str) else json.dumps(result)
            db.execute("INSERT INTO games(id, kind, started, finished, result) VALUES (?, ?, ?, ?, ?)",
                       (gid, kind, started(gid), finished(gid), text))
            for seq in range(1, ACTIONS[gid] + 1):
                payload = json.dumps({"seq": seq}, separators=(",", ":"), sort_keys=True)
                db.execute("INSERT INTO actions(game, seq, payload, crc) VALUES (?, ?, ?, ?)",
                           (gid, seq, payload, crc(payload)))
        db.execute("COMMIT")
    finally:
        db.close()
    return path

