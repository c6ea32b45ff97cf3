"""The checks of option values every command's parser uses as its `type=`: argparse types.

Each refuses a bad value with an `argparse.ArgumentTypeError` that says what to give
("give a whole number from 1 to 64, not 'x'"), which `companion.cli` prints as one line
with exit status 2. A module of its own at the bottom of the package (the standard
library only), so the parsers of every part, the games' commands included, use them
without importing the command line.
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable

MAX_COUNT = 1_000_000_000  # games, runs, iterations: more would run for days, or overflow a C long
MAX_SECONDS = 3600.0  # a move time, a pause, a time-out: an hour is already far beyond any use
MAX_SHOWN = 40  # characters of a value quoted in a message


def shown(value: object) -> str:
    """`value` quoted for a message on one line: printable, at most MAX_SHOWN characters."""
    text = repr(str(value))
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN - 4] + "..." + text[0]


def whole(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number in [low, high] (either end open when None)."""
    if low is not None and high is not None:
        want = f"a whole number from {low} to {high}"
    elif low is not None:
        want = f"a whole number of at least {low}"
    elif high is not None:
        want = f"a whole number of at most {high}"
    else:
        want = "a whole number"

    def check(text: str) -> int:
        try:
            value = int(text)  # also refuses more than sys.get_int_max_str_digits() digits
        except (TypeError, ValueError):
            raise argparse.ArgumentTypeError(f"give {want}, not {shown(text)}") from None
        if (low is not None and value < low) or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"give {want}, not {shown(text)}")
        return value

    check.__name__ = "whole number"
    return check


port = whole(1, 65535)
port.__doc__ = "An argparse type: a TCP port, 1-65535."
count = whole(1, MAX_COUNT)
count.__doc__ = "An argparse type: how many (games, runs, iterations), 1 to MAX_COUNT."
seed = whole()
seed.__doc__ = "An argparse type: a random seed, any whole number."


def seconds(high: float = MAX_SECONDS, *, zero: bool = False) -> Callable[[str], float]:
    """An argparse type: a finite number of seconds above 0 (from 0 with `zero`) up to `high`."""
    want = f"a number of seconds {'from 0' if zero else 'above 0'} up to {high:g}"

    def check(text: str) -> float:
        try:
            value = float(text)
        except (TypeError, ValueError):
            raise argparse.ArgumentTypeError(f"give {want}, not {shown(text)}") from None
        if not math.isfinite(value) or value > high or value < 0 or (value == 0 and not zero):
            raise argparse.ArgumentTypeError(f"give {want}, not {shown(text)}")
        return value

    check.__name__ = "seconds"
    return check


def given(what: str) -> Callable[[str], str]:
    """An argparse type: any text but the empty one (which a command would take for "not given")."""

    def check(text: str) -> str:
        if not text:
            raise argparse.ArgumentTypeError(f"give {what}, not an empty string")
        return text

    check.__name__ = what
    return check


def _stat(path: str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:  # ENOTDIR, ENAMETOOLONG, ELOOP, EACCES ...
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise argparse.ArgumentTypeError(f"{shown(path)} cannot be used: {why}") from None


def new_file(text: str) -> str:
    """An argparse type: a file to write: not empty, not a directory, in a directory that exists."""
    import stat

    if not text:
        raise argparse.ArgumentTypeError("give a file name, not an empty string")
    st = _stat(text)
    if text.endswith(os.sep) or (st is not None and stat.S_ISDIR(st.st_mode)):
        raise argparse.ArgumentTypeError(f"{shown(text)} is a directory; give a file name (in it)")
    folder = os.path.dirname(text) or os.curdir
    if _stat(folder) is None:  # (a folder that is a file: stat said ENOTDIR above)
        raise argparse.ArgumentTypeError(f"the directory {shown(folder)} does not exist; give a file in one that does")
    return text


def new_file_or_stdout(text: str) -> str:
    """An argparse type: `-` (standard output) or a file to write (`new_file`)."""
    return text if text == "-" else new_file(text)


def directory(text: str) -> str:
    """An argparse type: a directory, or a path where one may be made: not empty, not a file."""
    import stat

    if not text:
        raise argparse.ArgumentTypeError("give a directory, not an empty string")
    st = _stat(text)
    if st is not None and not stat.S_ISDIR(st.st_mode):
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a directory; give a directory")
    return text


def existing_directory(text: str) -> str:
    """An argparse type: a directory that exists."""
    if directory(text) and _stat(text) is None:
        raise argparse.ArgumentTypeError(f"the directory {shown(text)} does not exist; give one that does")
    return text
