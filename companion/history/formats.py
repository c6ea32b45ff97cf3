"""The export formats, registered by name: `companion export --format NAME`, the page's downloads
(/export/NAME), the kiosk's copy to a USB stick.

One line per format: the module and its writer, `writer(plays, location, bgg_ids) -> str` (imported
only when the format is written), the download's extension and MIME type, the file's name in a USB
copy, the page's link text and the command line's help. Adding a format is one module and one line
here (or `register(...)`, e.g. from a test).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from companion.i18n import N_


@dataclass(frozen=True)
class ExportFormat:
    """An export format: `module`.`writer` writes it. `extension` and `mime`: the page's download;
    `folder_file`: its file in a USB copy; `label`: the page's link (a text to translate); `help`:
    the command line's words; `bom`: the file starts with a byte order mark (Excel then reads UTF-8);
    `records`: the games' records (only games that kept one; with --game-id, the bare record)."""

    module: str
    writer: str
    extension: str
    mime: str
    folder_file: str
    label: str
    help: str
    bom: bool = False
    records: bool = False

    def render(self, plays: Any, location: str, bgg_ids: Any = None) -> str:
        """The format's text (imports its module now)."""
        return getattr(importlib.import_module(self.module), self.writer)(plays, location, bgg_ids)


_EXPORT = "companion.history.export"
FORMATS: dict[str, ExportFormat] = {
    # NOTE: the table's page: a download link of the whole history (a file for the BG Stats app)
    "bgstats": ExportFormat(_EXPORT, "write_bgstats", "bgsplay", "application/octet-stream", "companion-plays.bgsplay",
                            N_("BG Stats file"), "a BG Stats play file (.bgsplay)"),
    # NOTE: the table's page: a download link of the whole history (for BoardGameGeek)
    "bgg": ExportFormat(_EXPORT, "write_bgg", "xml", "application/xml", "companion-bgg-plays.xml",
                        N_("BoardGameGeek plays (XML)"), "BoardGameGeek plays XML"),
    # NOTE: the table's page: a download link of the whole history (a spreadsheet)
    "csv": ExportFormat(_EXPORT, "write_csv", "csv", "text/csv", "companion-plays.csv",
                        N_("Spreadsheet (CSV)"), "one row per player per game", bom=True),
    # NOTE: the table's page: a download link of the whole history (the games' records)
    "json": ExportFormat(_EXPORT, "write_json", "json", "application/json", "companion-records.json",
                         N_("Game records (JSON)"), "the game records (companion import takes them)", records=True),
}


def register(name: str, module: str, writer: str, extension: str, mime: str, folder_file: str, label: str,
             help: str, **flags: Any) -> ExportFormat:
    """Add (or replace) the export format `name`; `flags` as ExportFormat's."""
    FORMATS[name] = fmt = ExportFormat(module, writer, extension, mime, folder_file, label, help, **flags)
    return fmt


def names() -> tuple[str, ...]:
    """The registered formats' names, in their order."""
    return tuple(FORMATS)


def export_format(name: str) -> ExportFormat:
    """The format `name` (ValueError when none is registered)."""
    try:
        return FORMATS[name]
    except KeyError:
        raise ValueError(f"unknown export format {name!r} (one of {', '.join(FORMATS)})") from None


def help_text() -> str:
    """The command line's words for --format: "bgstats: ...; bgg: ..." ."""
    return "; ".join(f"{name}: {fmt.help}" for name, fmt in FORMATS.items())
