"""Files from elsewhere for `companion import`: what a file is, and the plays of our games in a BG
Stats backup or in the companion's own CSV export.

`sniff(path)` reads the file (a regular file, at most MAX_FOREIGN bytes; a UTF-8 or UTF-16 byte
order mark is taken off) and says what it is: JSON (the companion's records, or a BG Stats backup
or play file: top-level `plays` with `games` and `players`), the companion's CSV export (its header
is `export.CSV_COLUMNS`), or anything else, refused by `ImportRefused` in one line naming what the
file is ("this is a CSV file but not the companion's export ...").

A BG Stats file's plays are matched to our games by the game's BoardGameGeek id (`bggId`) or its
name (case aside); each play of ours becomes a game with its players (a BG Stats anonymous player
is the table's "Guest N", or the table's own name for the seat when the file keeps it: our export
writes it in the seat's `metaData`, `{"companionSeat": "Bot 3 (mcts)"}`, so "Player 2" and the bots
come back as they were, `_no_one`), seats (`seatOrder`, else the file's order), scores (`score` as text;
"10+7" is added up), winners, first player (`startPlayer`, else `startPosition` "1"), colours
(`role`, when every seat has its own) and date (`playDate`, the phone's local time, plus
`durationMin`). Plays of other games are counted in a note. The CSV's rows are grouped by their
game_id. Neither holds a game's moves: such a game is kept as its scores (`SCORES_ONLY`,
read by `plays.result_facts`): it counts in the history, the statistics and every export
but `--format json` (which writes records). Each game is checked, and a file refused, by
companion.history.incoming (`scores_game`, `ImportRefused`); `importer` reads files through
this module, never the other way round.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import os
import re
import stat
from typing import Any

from companion.history.bgstats import SEAT_META
from companion.history.export import CSV_COLUMNS
from companion.history.incoming import SCORES_ONLY, ImportRefused, Prepared, scores_game, scores_result
from companion.table.seatnames import NameRefused, check_name, default_name, guest_name, is_placeholder
from companion.util.bounded import BoundedInputError, load_json

__all__ = ["MAX_FOREIGN", "SCORES_ONLY", "Sniffed", "sniff", "bgstats_games", "csv_games", "scores_result"]

MAX_FOREIGN = 32 << 20  # a BG Stats backup of years of plays is a few MB
_TAKES = "import takes the companion's JSON or CSV export, or a BG Stats backup (its .json file)"


class Sniffed:
    """What `sniff` found: `kind` "json" (with `data`), "bgstats" (with `data`) or "csv" (with `rows`)."""

    def __init__(self, kind: str, data: Any = None, rows: list[list[str]] | None = None) -> None:
        self.kind, self.data, self.rows = kind, data, rows or []


def _refused(what: str) -> ImportRefused:
    return ImportRefused(f"this is {what}: {_TAKES}")


def _read(path: str) -> bytes:
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO must not block
    with open(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            raise _refused("not a regular file")
        data = f.read(MAX_FOREIGN + 1)
    if len(data) > MAX_FOREIGN:
        raise _refused(f"a file larger than {MAX_FOREIGN >> 20} MB")
    return data


_BINARY = ((b"PK\x03\x04", "a ZIP archive (unzip it and import the .json file inside)"),
           (b"SQLite format 3\x00", "an SQLite database (a journal? `companion export --format json` copies "
                                     "its games)"),
           (b"%PDF", "a PDF document"), (b"\x89PNG", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"),
           (b"\x1f\x8b", "a gzip-compressed file (decompress it first)"))


def _text(data: bytes) -> str:
    for magic, what in _BINARY:
        if data.startswith(magic):
            raise _refused(what)
    try:
        if data.startswith((b"\xff\xfe", b"\xfe\xff")):
            return data.decode("utf-16")
        return data.decode("utf-8-sig")  # a byte order mark (Excel's, Notepad's) is no part of the text
    except UnicodeDecodeError:
        raise _refused("not a text file (nor UTF-8 nor UTF-16)") from None


def _is_bgstats(data: Any) -> bool:
    return isinstance(data, dict) and isinstance(data.get("plays"), list) and \
        isinstance(data.get("games"), list) and isinstance(data.get("players"), list)


def sniff(path: str) -> Sniffed:
    """What file `path` is (see the module docstring); ImportRefused naming it when import takes no such file."""
    text = _text(_read(path))
    start = text.lstrip()[:1]
    if start in ("{", "["):
        try:
            data = load_json(text, "file")
        except BoundedInputError as exc:
            message = str(exc)
            raise ImportRefused(message[len("file: "):] if message.startswith("file: ") else message) from None
        return Sniffed("bgstats" if _is_bgstats(data) else "json", data)
    if start == "<":
        head = text.lstrip()[:400].lower()
        if "<plays" in head:
            raise _refused("a BoardGameGeek plays file (XML), which import does not read")
        raise _refused("an HTML page" if "<html" in head or "<!doctype html" in head else "an XML file")
    if not text.strip():
        raise _refused("an empty file")
    first = text.splitlines()[0]
    if any(sep in first for sep in (",", ";", "\t")):
        try:
            rows = list(csv.reader(io.StringIO(text, newline="")))
        except csv.Error as exc:
            raise _refused(f"a CSV file that cannot be read ({exc})") from None
        if tuple(c.strip() for c in rows[0]) != CSV_COLUMNS:
            raise _refused("a CSV file but not the companion's export (its first line is not "
                           f"{','.join(CSV_COLUMNS)})")
        return Sniffed("csv", rows=rows[1:])
    raise _refused("a text file in no format import knows")


# ----- games from scores -----------------------------------------------------------------------
def _game_kinds() -> tuple[dict[int, str], dict[str, str]]:
    """Our games by BoardGameGeek id and by every name they go by (case aside)."""
    from companion.games import GAMES

    by_id, by_name = {}, {}
    for kind, game in GAMES.items():
        if game.history is None:
            continue
        if game.bgg_id:
            by_id[int(game.bgg_id)] = kind
        for name in (game.name, game.title, kind):
            by_name[name.casefold()] = kind
    return by_id, by_name


def _score(value: Any) -> int | None:
    """A BG Stats score (text: "31", "10+7+8", "-3"; a number in older files) as a whole number; None if none."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*-?\d{1,6}(\s*\+\s*-?\d{1,6}){0,30}\s*", value):
        return sum(int(part) for part in value.split("+"))
    return None


def _local(text: Any) -> float | None:
    """"YYYY-MM-DD HH:MM:SS" (local time, as BG Stats and the CSV write it) as epoch seconds."""
    if not isinstance(text, str):
        return None
    try:
        return dt.datetime.strptime(text.strip()[:19], "%Y-%m-%d %H:%M:%S").timestamp()
    except (ValueError, OverflowError, OSError):
        return None


def _first_player(flags: list[bool], positions: list[Any]) -> int | None:
    if sum(flags) == 1:
        return flags.index(True)
    ones = [i for i, p in enumerate(positions) if str(p).strip() == "1"]
    return ones[0] if len(ones) == 1 else None


def _colors(roles: list[Any]) -> list[str] | None:
    """The seats' colours (BG Stats' `role`: "red"), when every seat has one of its own, a word of
    letters (no game's code is named here: Clans' colours are such words); else None."""
    colors = [r.strip().casefold() if isinstance(r, str) else "" for r in roles]
    if all(c.isalpha() and len(c) <= 12 for c in colors) and len(set(colors)) == len(colors):
        return colors
    return None


def _no_one(score: dict[str, Any], seat: int) -> str:
    """The name of seat `seat` (0-based) whose player is no one person (BG Stats' anonymous player): the
    table's own name for it when the seat's `metaData` keeps one the table gives that seat ("Player 2",
    "Guest 2", "Bot 2 (mcts)" at seat 2: what our export writes, `bgstats.SEAT_META`), else "Guest N"."""
    meta = score.get("metaData")
    try:
        named = json.loads(meta).get(SEAT_META) if isinstance(meta, str) and len(meta) <= 200 else None
    except (ValueError, AttributeError):
        named = None
    if isinstance(named, str) and is_placeholder(named) and \
            (named in (default_name(seat), guest_name(seat)) or named.startswith(f"Bot {seat + 1} (")):
        try:
            return check_name(named)
        except NameRefused:
            pass
    return guest_name(seat)


def bgstats_games(data: dict[str, Any]) -> tuple[list[tuple[int, Prepared]], list[str]]:
    """The plays of our games in a BG Stats file, each checked (`scores_game`) with its 1-based play
    number, and notes (plays of other games, plays that cannot be read)."""
    from companion.games import GAMES

    by_id, by_name = _game_kinds()
    kinds: dict[Any, str] = {}
    for game in data["games"]:
        if not isinstance(game, dict):
            continue
        bgg = game.get("bggId")
        name = game.get("name") if isinstance(game.get("name"), str) else ""
        kind = by_id.get(bgg) if isinstance(bgg, int) and bgg else None
        kinds[game.get("id")] = kind or by_name.get(name.strip().casefold()) or ""
    people = {p.get("id"): p for p in data["players"] if isinstance(p, dict)}
    ready: list[tuple[int, Prepared]] = []
    notes: list[str] = []
    others = 0
    for n, play in enumerate(data["plays"], start=1):
        kind = kinds.get(play.get("gameRefId"), "") if isinstance(play, dict) else ""
        if not kind:
            others += 1
            continue
        why = None
        seats = play.get("playerScores")
        if play.get("ignored") is True:
            why = "marked ignored in BG Stats"
        elif not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
            why = "it lists no players"
        if why is None:
            orders = [s.get("seatOrder") for s in seats]
            if all(isinstance(o, int) and o > 0 for o in orders) and len(set(orders)) == len(orders):
                seats = [s for _o, s in sorted(zip(orders, seats), key=lambda pair: pair[0])]
            names = []
            for i, seat in enumerate(seats):
                person = people.get(seat.get("playerRefId"), {})
                name = person.get("name")
                names.append(_no_one(seat, i) if person.get("isAnonymous") or not isinstance(name, str) else name)
            points = not GAMES[kind].no_points
            totals = [_score(s.get("score")) for s in seats]
            if points and None in totals:
                why = "a player has no score"
            totals = [t or 0 for t in totals]
            started = _local(play.get("playDate"))
            minutes = play.get("durationMin")
            if started is None:
                why = why or f"its playDate {str(play.get('playDate'))[:30]!r} is no date"
        if why is not None:
            notes.append(f"play {n} ({GAMES[kind].name}): {why}: skipped")
            continue
        minutes = minutes if isinstance(minutes, int) and not isinstance(minutes, bool) and minutes >= 0 else 0
        result = scores_result("bgstats", names, totals, [i for i, s in enumerate(seats) if s.get("winner") is True],
                               _first_player([s.get("startPlayer") is True for s in seats],
                                             [s.get("startPosition") for s in seats]),
                               _colors([s.get("role") for s in seats]))
        ready.append((n, scores_game(kind, started, started + 60 * minutes, result, f"play {n}")))
    if not ready and not notes:
        names = " or ".join(g.name for g in GAMES.values() if g.history is not None)
        notes.append(f"this BG Stats file holds no play of {names} ({others} play(s) of other games)")
    elif others:
        notes.append(f"{others} play(s) of other games left out")
    return ready, notes


def csv_games(rows: list[list[str]]) -> tuple[list[tuple[int, Prepared]], list[str]]:
    """The games of the companion's CSV export (one row per seat, `export.CSV_COLUMNS`), each checked
    (`scores_game`) with its number in the file, in the file's order."""
    _by_id, by_name = _game_kinds()
    games: dict[str, list[dict[str, str]]] = {}
    for line, row in enumerate(rows, start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(CSV_COLUMNS):
            raise ImportRefused(f"line {line}: {len(row)} cells where the export writes {len(CSV_COLUMNS)}")
        games.setdefault(row[0].strip(), []).append(dict(zip(CSV_COLUMNS, (_cell(c) for c in row))))
    ready: list[tuple[int, Prepared]] = []
    for gid, seats in games.items():
        where = f"game {gid[:20]}"
        kind = by_name.get(seats[0]["game"].casefold())
        if kind is None:
            raise ImportRefused(f"{where}: {seats[0]['game'][:40]!r} is not a game this companion knows")
        try:
            numbers = [int(s["seat"]) for s in seats]
            totals = [int(s["total"]) for s in seats]
            winners = [i for i, s in enumerate(seats) if int(s["winner"])]
            first = seats[0]["first_player"]
            first_player = int(first) - 1 if first else None
        except ValueError:
            raise ImportRefused(f"{where}: seat, total, winner and first_player must be whole numbers") from None
        if numbers != list(range(1, len(seats) + 1)) or (first_player is not None
                                                           and not 0 <= first_player < len(seats)):
            raise ImportRefused(f"{where}: its seats must be 1, 2, ... in order, and its first player one of them")
        started, finished = _local(seats[0]["started"]), _local(seats[0]["finished"])
        if started is None or finished is None:
            raise ImportRefused(f"{where}: started and finished must be dates as YYYY-MM-DD HH:MM:SS")
        colors = [s["color"] for s in seats] if all(s["color"] for s in seats) else None
        result = scores_result("csv", [s["name"] for s in seats], totals, winners, first_player, colors)
        ready.append((len(ready) + 1, scores_game(kind, started, finished, result, where)))
    return ready, []


def _cell(text: str) -> str:
    """A cell as the export meant it: the apostrophe `export.spreadsheet_text` put before a formula-like
    text taken off."""
    return text[1:] if text.startswith("'") and text[1:2] in ("=", "+", "-", "@", "\t", "\r") else text

