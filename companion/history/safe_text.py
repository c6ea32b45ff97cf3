"""Text the history writes out stays well-formed, whatever a name kept in the journal holds.

Every name the names' rule accepts (companion.table.seatnames.check_name) passes through
these unchanged: the exports keep the real name. They matter for what was kept before the
rule (an old journal's names, an old import's) and for other free text (an export's
`--location`): a NUL, a lone surrogate or a bidirectional control there must neither crash
an export nor make it ill-formed.

* `xml_text`: characters XML 1.0 cannot hold at all (C0 controls but tab, newline and
  carriage return; lone surrogates; U+FFFE, U+FFFF) become U+FFFD.
* `utf8_text`: lone surrogates (no UTF-8 file can hold them) and NUL (which spreadsheets
  and C programs take for the end) become U+FFFD, for CSV; `no_surrogates` only the former.
* `json_text`: a JSON document written with `ensure_ascii=False`, its lone surrogates as
  the `\\udxxx` escapes JSON has for them (lossless: reading it back gives the same text).
* `line_text`: a name for a human-readable line on a terminal: what a name may not hold
  written as its code ("\\u202eAnna"), so no control reaches the terminal.
"""

from __future__ import annotations

import json
import re
from typing import Any

from companion.table.seatnames import printable

__all__ = ["REPLACEMENT", "xml_text", "utf8_text", "no_surrogates", "json_text", "surrogates_escaped", "line_text"]

REPLACEMENT = "\ufffd"
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_NOT_UTF8 = re.compile("[\x00\ud800-\udfff]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def xml_text(text: str) -> str:
    """`text` with what XML 1.0 cannot hold replaced by U+FFFD (ElementTree escapes the rest)."""
    return _NOT_XML.sub(REPLACEMENT, text)


def utf8_text(text: str) -> str:
    """`text` with lone surrogates and NUL replaced by U+FFFD."""
    return _NOT_UTF8.sub(REPLACEMENT, text)


def no_surrogates(text: str) -> str:
    """`text` with lone surrogates replaced by U+FFFD: what can be encoded as UTF-8 (a uuid5 name)."""
    return _SURROGATE.sub(REPLACEMENT, text)


def surrogates_escaped(json_document: str) -> str:
    """A JSON text written with `ensure_ascii=False`, its lone surrogates as JSON escapes (`\\ud800`).

    json.dumps only ever puts a non-ASCII character inside a string, where `\\uXXXX` is its JSON
    escape, so replacing each lone surrogate by its escape keeps the document valid and exact."""
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", json_document)


def json_text(value: Any, **dumps: Any) -> str:
    """`json.dumps(value, ensure_ascii=False, **dumps)`, `surrogates_escaped`: UTF-8 can always write it."""
    return surrogates_escaped(json.dumps(value, ensure_ascii=False, **dumps))


def line_text(text: str) -> str:
    """A name for a terminal line: unchanged when the names' rule accepts its characters."""
    return printable(text)
