"""Key scripts (`companion run --keys FILE`, spec section 5): a file read as if typed on the serial keypad.

A key script is a file the box does not trust. It is read in bounded memory (at most
MAX_KEY_SCRIPT_BYTES; a bigger file is refused in one line) and goes through the one
byte decoder, `companion.table.keys.tokens_from_bytes`: CR, LF and spaces are skipped,
a-d read as A-D, and every other byte (binary junk included) is dropped and logged once,
so junk can never turn into a move. For a valid file the tokens are exactly the
decoder's. Every failure is a UsageError in one line (the daemon prints it and exits 2).
"""

from __future__ import annotations

import logging
from typing import Any

from companion.table import keys as K
from companion.util.errors import UsageError

log = logging.getLogger("companion.run")

MAX_KEY_SCRIPT_BYTES = 1 << 20  # a whole game is a few hundred keys; 1 MB is thousands of games
SHOWN_UNKNOWN = 16  # unknown byte values named in the warning; the rest are counted


def read_capped(f: Any, name: str, max_bytes: int = MAX_KEY_SCRIPT_BYTES) -> bytes:
    """At most `max_bytes` of keys from the open file `f` (a key script, or piped stdin);
    UsageError in one line naming `name` when there are more or they cannot be read."""
    try:
        data = f.read(max_bytes + 1)
    except (OSError, ValueError) as exc:
        raise UsageError(f"{name}: cannot read keys: {getattr(exc, 'strerror', None) or exc}") from None
    if isinstance(data, str):
        data = data.encode("utf-8", "replace")
    if len(data) > max_bytes:
        raise UsageError(f"{name}: key script larger than {max_bytes // 1024} KB: "
                         f"keys typed on the keypad, one character a key, are far fewer")
    return data


def read_key_script(path: str, max_bytes: int = MAX_KEY_SCRIPT_BYTES, stdin: Any = None) -> list[str]:
    """The key script's tokens; unknown bytes are logged once and dropped. `-` reads standard
    input (`stdin`, default sys.stdin) to its end, as if it were the file.

    UsageError (one line: the path, then why) if the file cannot be read or is bigger
    than `max_bytes`."""
    if path == "-":
        import sys

        stream = sys.stdin if stdin is None else stdin
        if stream is None:
            raise UsageError("--keys -: there is no standard input to read keys from; give a key script file")
        data = read_capped(getattr(stream, "buffer", stream), "stdin", max_bytes)
        path = "stdin"
    else:
        try:
            with open(path, "rb") as f:
                data = read_capped(f, path, max_bytes)
        except OSError as exc:
            raise UsageError(f"{path}: cannot read keys: {exc.strerror or exc}") from None
    unknown: set[int] = set()
    tokens = list(K.tokens_from_bytes(data, unknown))
    if unknown:
        shown = sorted(unknown)
        more = f" and {len(shown) - SHOWN_UNKNOWN} more" if len(shown) > SHOWN_UNKNOWN else ""
        log.warning("keys %s: ignored unknown bytes %s%s", path,
                    " ".join(f"0x{b:02x}" for b in shown[:SHOWN_UNKNOWN]), more)
    return tokens
