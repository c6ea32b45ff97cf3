"""Text written out or shown stays well-formed, whatever a name kept in the journal holds.

Every name the names' rule accepts (companion.table.seatnames.check_name) passes through
these unchanged: the exports keep the real name. They matter for what was kept before the
rule (an old journal's names, an old import's) and for other free text (an export's
`--location`): a NUL, a lone surrogate or a bidirectional control there must neither crash
an export nor make it ill-formed.

* `char_fault`: why a character does not show as itself in a line of text (a control, a
  format character such as a bidirectional control, a lone surrogate, a private-use or
  unassigned code point, a line or paragraph break), in a few words; None when it does. The
  names' rule refuses exactly these.
* `printable`: `text` with each such character written as its code ("\\u202eAnna").
* `xml_text`: characters XML 1.0 cannot hold at all (C0 controls but tab, newline and
  carriage return; lone surrogates; U+FFFE, U+FFFF) become U+FFFD.
* `utf8_text`: lone surrogates (no UTF-8 file can hold them) and NUL (which spreadsheets
  and C programs take for the end) become U+FFFD, for CSV; `no_surrogates` only the former.
* `json_text`: a JSON document written with `ensure_ascii=False`, its lone surrogates as
  the `\\udxxx` escapes JSON has for them (lossless: reading it back gives the same text).
* `line_text`: a name for a human-readable line on a terminal: `printable`, so no control
  reaches the terminal.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

__all__ = ["REPLACEMENT", "xml_text", "utf8_text", "no_surrogates", "json_text", "surrogates_escaped", "line_text",
           "char_fault", "char_code", "printable"]

REPLACEMENT = "\ufffd"
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_NOT_UTF8 = re.compile("[\x00\ud800-\udfff]")
_SURROGATE = re.compile("[\ud800-\udfff]")

# The bidirectional controls (all of category Cf): each turns or isolates the text around it, so
# "\u202eAnna 18" would read "81 annA" on the page.
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_FAULTS = {
    "Cc": "a control character",
    "Cf": "an invisible formatting character",
    "Cs": "half of a character (a lone surrogate)",
    "Co": "a private-use character, which no font or reader knows",
    "Cn": f"unassigned in Unicode {unicodedata.unidata_version}, so nothing can show it",
    "Zl": "a line break",
    "Zp": "a paragraph break",
}


def char_fault(ch: str) -> str | None:
    """Why character `ch` does not show as itself in a line of text (so a name may not hold it), in a
    few words; None when it does."""
    category = unicodedata.category(ch)
    if category[0] != "C" and category not in ("Zl", "Zp"):
        return None
    if ch in _BIDI:
        return "a bidirectional control, which turns the text around it"
    return _FAULTS[category]


def char_code(ch: str) -> str:
    """`ch` as a Python escape: \\u200b, \\U000e0041 (readable on any terminal, in any line)."""
    n = ord(ch)
    return f"\\u{n:04x}" if n <= 0xFFFF else f"\\U{n:08x}"


def printable(text: str) -> str:
    """`text` with every character `char_fault` finds written as its code ("\\u202eAnna"), the rest as
    it is: a name the names' rule accepts comes back unchanged. For what shows a name kept before the
    rule (an old journal's) on a page or a terminal, and for messages."""
    if not any(char_fault(c) for c in text):
        return text
    return "".join(char_code(c) if char_fault(c) else c for c in text)


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
