"""The table's finished games in the formats other apps read: BG Stats, BoardGameGeek, CSV, records.

* `bgstats`: a BG Stats play file (`.bgsplay`), the form BG Stats merges through its matching
  screen (companion.history.bgstats).
* `bgg`: a BoardGameGeek plays XML document, the layout of BGG's XML API 2 `plays`
  answer (as captured in tnaskali/bgg-api, src/test/resources/responses/bgg/xmlapi/v2/plays/):
  `<plays><play id date quantity length incomplete nowinstats location>` with `<item name
  objecttype="thing" objectid>` (left out for a game without a known BGG id: objectid 0 is
  no item), `<comments>` and `<players><player username userid name startposition color score
  new rating win/>`; `startposition` is the turn order ("1" the first player, "" unknown).
* `csv`: one row per player per game, with a header row, for LibreOffice and Excel: the
  game's title, times as "YYYY-MM-DD HH:MM:SS" (local time, which both read as a date and
  time), and as a file (`file_text`) UTF-8 with a byte order mark (how Excel on Windows knows
  it is UTF-8). A cell that a spreadsheet would take for a formula (starting with = + - @, a
  tab or a carriage return) is written with a leading apostrophe, the spreadsheets' own mark
  for "text" (`spreadsheet_text`); every other name is written as it is.
* `json`: the games' records (a Clans record of spec section 1 with `"names"` filled in; a
  Valley of the Mammoths game log) plus one metadata key, `"companion": {"game", "started",
  "finished", "actions"}`, so `companion import` restores the same history.

Every accepted name goes out as it is, whatever its script; what a name kept before the names'
rule may hold (a NUL, a lone surrogate) is made safe for each format (companion.util.safe_text),
so every export stays well-formed: XML that parses, JSON that loads, UTF-8 CSV.

`copy_to_folder` writes all four into a new dated folder (the kiosk's "copy to USB"), each
file atomically; `usb_mounts` finds the mounted sticks in /proc/mounts text. Failures are
an `ExportError` with a short reason ("read-only", "full").
"""

from __future__ import annotations

import csv
import datetime as dt
import errno
import io
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Iterable, Mapping

from companion.history import formats
from companion.history.bgstats import LOCATION, bgstats_json, start_positions
from companion.history.gamefacts import game_info, game_name
from companion.history.plays import History, Play
from companion.util.safe_text import json_text, utf8_text, xml_text
from companion.util.fsutil import atomic_write_text

__all__ = ["FORMATS", "ExportError", "render", "file_text", "records", "records_json", "bgg_xml", "plays_csv",
           "record_of", "copy_to_folder", "usb_mounts", "write_reason", "FOLDER_FILES", "CSV_COLUMNS", "BOM",
           "spreadsheet_text", "sheet_time"]

CSV_COLUMNS = ("game_id", "game", "started", "finished", "duration_min", "seat", "name", "total", "winner",
               "first_player", "color")
BOM = "\ufeff"
REMOVABLE_FS = frozenset({"vfat", "msdos", "exfat", "ntfs", "ntfs3", "fuseblk", "ext2", "ext3", "ext4", "btrfs",
                          "f2fs", "xfs", "hfsplus", "udf"})


class ExportError(Exception):
    """An export that could not be written; the message is a short reason ("read-only", "full")."""


def write_reason(exc: OSError) -> str:
    """Why a write failed, in a few words for a screen: "full", "read-only", or the system's words."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return "full"
    if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return "read-only"
    return (exc.strerror or str(exc)).lower()


def _finished(plays: History | Iterable[Play]) -> list[Play]:
    items = plays.finished if isinstance(plays, History) else list(plays)
    return [p for p in items if not p.abandoned]


# ----- records (json) --------------------------------------------------------------------
def record_of(play: Play) -> dict[str, Any]:
    """The game's record with `"names"` filled in and the `"companion"` metadata (what import reads)."""
    if not isinstance(play.record, dict):
        raise ValueError(f"game {play.game_id} has no record to export")
    out = {k: v for k, v in play.record.items() if k not in ("names", "companion")}
    out["names"] = list(play.players)
    out["companion"] = {"game": play.game, "started": float(play.started), "finished": float(play.finished),
                        "actions": int(play.actions), "game_id": play.game_id}  # game_id: `replay --game-id N`
    return out


def records(plays: History | Iterable[Play]) -> list[dict[str, Any]]:
    """Every finished game's record (`record_of`), oldest first; a game without one (it came in with its
    scores only: a BG Stats play, a CSV row) is left out."""
    return [record_of(p) for p in _finished(plays) if isinstance(p.record, dict)]


def records_json(plays: History | Iterable[Play]) -> str:
    """`records` as a JSON list (what `companion import` takes)."""
    return json_text(records(plays), indent=1) + "\n"


# ----- BoardGameGeek ---------------------------------------------------------------------
def bgg_xml(plays: History | Iterable[Play], location: str = LOCATION,
            bgg_ids: Mapping[str, int] | None = None) -> str:
    """The games as a BoardGameGeek plays XML document (BGG XML API 2 layout)."""
    items = _finished(plays)
    root = ET.Element("plays", {"username": "", "userid": "0", "total": str(len(items)), "page": "1",
                                "termsofuse": "https://boardgamegeek.com/xmlapi/termsofuse"})
    for play in items:
        info = game_info(play.game, bgg_ids)
        node = ET.SubElement(root, "play", {
            "id": str(play.game_id), "date": dt.datetime.fromtimestamp(play.started).strftime("%Y-%m-%d"),
            "quantity": "1", "length": str(play.duration_min), "incomplete": "0", "nowinstats": "0",
            "location": xml_text(location)})
        if info["bggId"]:  # objectid="0" is no BoardGameGeek item: a game without a known id has none
            item = ET.SubElement(node, "item", {"name": info["name"], "objecttype": "thing",
                                                "objectid": str(info["bggId"])})
            ET.SubElement(ET.SubElement(item, "subtypes"), "subtype", {"value": "boardgame"})
        ET.SubElement(node, "comments").text = f"{info['name']}, played with the Clans companion ({play.source_id})"
        seats = ET.SubElement(node, "players")
        colors = list(play.colors or [])
        order = start_positions(play)
        for i, name in enumerate(play.players):
            ET.SubElement(seats, "player", {
                "username": "", "userid": "0", "name": xml_text(name),
                "startposition": "" if order[i] is None else str(order[i]),
                "color": colors[i] if i < len(colors) else "",
                "score": "" if info["noPoints"] else str(play.totals[i]),
                "new": "0", "rating": "0", "win": "1" if i in play.winners else "0"})
    ET.indent(root, " ")
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


# ----- CSV -------------------------------------------------------------------------------
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_text(text: str) -> str:
    """A cell a spreadsheet shows as the text it is: one that would start a formula (= + - @, a tab,
    a carriage return) gets a leading apostrophe; any other text is written as it is."""
    text = utf8_text(text)
    return "'" + text if text.startswith(_FORMULA) else text


def sheet_time(seconds: float) -> str:
    """Local time as "YYYY-MM-DD HH:MM:SS": what LibreOffice and Excel read as a date and time."""
    return dt.datetime.fromtimestamp(seconds).strftime("%Y-%m-%d %H:%M:%S")


def plays_csv(plays: History | Iterable[Play]) -> str:
    """One row per player per game (header `CSV_COLUMNS`): the game's title, local times, seats and
    first player 1-based, formula-like cells marked as text (`spreadsheet_text`)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for play in _finished(plays):
        colors = list(play.colors or [])
        first = "" if play.first_player is None else play.first_player + 1
        title = game_name(play.game)
        for i, name in enumerate(play.players):
            writer.writerow([play.game_id, spreadsheet_text(title), sheet_time(play.started),
                             sheet_time(play.finished), play.duration_min, i + 1, spreadsheet_text(name),
                             play.totals[i], 1 if i in play.winners else 0, first,
                             colors[i] if i < len(colors) else ""])
    return buf.getvalue()


# The writers of the formats in companion.history.formats: writer(plays, location, bgg_ids) -> str.
def write_bgstats(plays: History | Iterable[Play], location: str, bgg_ids: Mapping[str, int] | None) -> str:
    box = plays.box if isinstance(plays, History) else None
    return bgstats_json(_finished(plays), location, box=box or None, bgg_ids=bgg_ids)


def write_bgg(plays: History | Iterable[Play], location: str, bgg_ids: Mapping[str, int] | None) -> str:
    return bgg_xml(plays, location, bgg_ids)


def write_csv(plays: History | Iterable[Play], location: str, bgg_ids: Mapping[str, int] | None) -> str:
    return plays_csv(plays)


def write_json(plays: History | Iterable[Play], location: str, bgg_ids: Mapping[str, int] | None) -> str:
    return records_json(plays)


def render(plays: History | Iterable[Play], fmt: str, location: str = LOCATION,
           bgg_ids: Mapping[str, int] | None = None) -> str:
    """The text of one export format (companion.history.formats)."""
    return formats.export_format(fmt).render(plays, location, bgg_ids)


def file_text(plays: History | Iterable[Play], fmt: str, location: str = LOCATION,
              bgg_ids: Mapping[str, int] | None = None) -> str:
    """`render` as a file's text: the CSV with a byte order mark (Excel then reads it as UTF-8)."""
    text = render(plays, fmt, location, bgg_ids)
    return BOM + text if formats.export_format(fmt).bom else text


def __getattr__(name: str) -> Any:
    """FORMATS (the formats' names) and FOLDER_FILES (name -> file in a USB copy), as registered now."""
    if name == "FORMATS":
        return formats.names()
    if name == "FOLDER_FILES":
        return {n: f.folder_file for n, f in formats.FORMATS.items()}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ----- USB copy --------------------------------------------------------------------------
def _new_folder(base: Path, now: dt.datetime) -> Path:
    stem = f"companion-history-{now:%Y-%m-%d-%H%M}"
    for n in range(1, 1000):
        folder = base / (stem if n == 1 else f"{stem}-{n}")
        try:
            folder.mkdir()
            return folder
        except FileExistsError:
            continue
    raise ExportError("too many copies")


def copy_to_folder(history: History | Iterable[Play], base_dir: str | Path, now: dt.datetime | float) -> Path:
    """Write every format into a new folder `companion-history-YYYY-MM-DD-HHMM` (then "-2", "-3" ...)
    under `base_dir`; the folder's path. ExportError("read-only", "full" ...) on failure, and no
    half-made folder is left."""
    when = now if isinstance(now, dt.datetime) else dt.datetime.fromtimestamp(now)
    plays = _finished(history)
    texts = {fmt: file_text(plays, fmt) for fmt in formats.names()}  # before touching the stick
    base = Path(base_dir)
    try:
        folder = _new_folder(base, when)
    except FileNotFoundError:
        raise ExportError("not mounted") from None
    except OSError as exc:
        raise ExportError(write_reason(exc)) from None
    try:
        for fmt, text in texts.items():
            atomic_write_text(folder / formats.FORMATS[fmt].folder_file, text)
    except OSError as exc:
        shutil.rmtree(folder, ignore_errors=True)
        raise ExportError(write_reason(exc)) from None
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return folder


def _unescape(field: str) -> str:
    """/proc/mounts escapes space, tab, newline and backslash as octal (\\040 ...)."""
    out, i = [], 0
    while i < len(field):
        code = field[i + 1:i + 4]
        if field[i] == "\\" and len(code) == 3 and all(c in "01234567" for c in code):
            out.append(chr(int(code, 8)))
            i += 4
        else:
            out.append(field[i])
            i += 1
    return "".join(out)


def usb_mounts(mounts_text: str, media_roots: Iterable[str] = ("/media", "/run/media", "/mnt")) -> list[Path]:
    """The mounted removable filesystems (a USB stick's vfat, exfat, ntfs, ext4 ...) under `media_roots`,
    from /proc/mounts text, in mount order. Read-only ones are listed too: a copy says "read-only"."""
    roots = [Path(r) for r in media_roots]
    found: list[Path] = []
    for line in mounts_text.splitlines():
        fields = line.split()
        if len(fields) < 3:
            continue
        device, mountpoint, fstype = fields[0], Path(_unescape(fields[1])), fields[2]
        if not device.startswith("/dev/") or fstype not in REMOVABLE_FS:
            continue
        if any(mountpoint == r or r in mountpoint.parents for r in roots) and mountpoint not in found:
            found.append(mountpoint)
    return found
