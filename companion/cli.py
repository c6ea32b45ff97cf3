"""The `companion` command: dispatches each subcommand to the module that owns it.

The table's own commands are listed here; each game brings its own through the
registry (`companion.games.commands()`), so this module names no game. A command is
"module:function" taking `argv: list[str]` and returning the exit status; its module
is imported only when used, so start-up stays fast and no hardware library is loaded
for commands that do not need it.

The command line never shows a traceback. `main` wraps every command once, here:

- Bad input (a wrong option, a number out of range, a path that cannot be used):
  one line on stderr naming the option and what to give instead, exit status 2
  (`EXIT_USAGE`). While a command runs, argparse's errors print that one line
  instead of the usage block (`one_line_usage_errors`). Every parser checks its
  options' values as they are parsed (numbers in range, usable paths) with the types
  of `companion.argtypes` (`port`, `count`, `seconds`, `new_file`, `directory` ...).
  An OSError that reaches the top naming a file the user gave (missing, a directory,
  no permission) is bad input too: one line, exit 2.
- A closed pipe on stdout (`companion replay R --json | head -c1`): no message,
  exit status 141 (`EXIT_PIPE`: 128 + SIGPIPE, what `yes | head -1` gives the shell,
  so `set -o pipefail` scripts see the same as with the shell's own tools). Stdout
  is pointed at /dev/null first, as Python's documentation on SIGPIPE advises, so
  the interpreter's last flush fails no more.
- Ctrl-C: no message, exit 130 (`EXIT_INTERRUPTED`).
- Anything else a command lets escape: one line (`companion CMD: internal error:
  TYPE: message`) saying that `COMPANION_DEBUG=1` shows the traceback, exit 1.
  Under systemd (stderr is the journal) the traceback is always written too, as no
  one reads the terminal there. Nothing is caught below `main`: a command's own
  loops (the daemon's) see their exceptions as before.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib
import os
import re
import sys
from collections.abc import Iterator
from typing import Any

from companion.argtypes import MAX_SHOWN, shown
from companion.games import commands as game_commands

# name -> ("module:function", one-line help): the table's own commands, then every game's
COMMANDS: dict[str, tuple[str, str]] = {
    "run": ("companion.kiosk.daemon:main", "the companion at the table (keys in, screens out)"),
    "install-service": ("companion.box.service_install:main", "write and enable the systemd unit for this install"),
    "bench": ("companion.bench.run:main", "benchmarks of the daemon: key-to-frame latency, cold start"),
    "web": ("companion.web.server:main",
        "serve the table's page to the phones at the table (contract 7, docs/contracts.md)"),
    "history": ("companion.history.cli_stats:history",
        "the table's finished games, oldest first (contract 8, docs/contracts.md)"),
    "stats": ("companion.history.cli_stats:stats",
        "statistics per player, game, seat and colour (contract 8, docs/contracts.md)"),
    "export": ("companion.history.cli_export:export", "finished games for BG Stats, BoardGameGeek, a spreadsheet"),
    "import": ("companion.history.cli_export:import_", "bring our JSON or CSV export, or a BG Stats backup, into this history"),
    "update": ("companion.update.cli:main", "check or install a signed update bundle of the SD-card image"),
    "card": ("companion.box.card:command", "check a settings card before it goes in the box: card check FILE"),
    "doctor": ("companion.box.doctor:main", "check the box's set-up (I2C, OLED, groups, GPIO, keypad, service); --keys"),
} | game_commands()
# `companion --version` / `-V`: the package's version and, on the SD-card image, the image's (box/about.py)
VERSION = ("--version", "-V")
VERSION_COMMAND = "companion.box.about:version"

EXIT_FAILURE = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT
EXIT_PIPE = 141  # 128 + SIGPIPE
DEBUG_ENV = "COMPANION_DEBUG"

# What a file the user named can fail with: bad input (exit 2), not a fault of the program.
USER_ERRNOS = frozenset({errno.ENOENT, errno.EISDIR, errno.ENOTDIR, errno.EACCES, errno.EPERM, errno.EEXIST,
                         errno.ENAMETOOLONG, errno.ELOOP, errno.EROFS, errno.ENXIO, errno.EINVAL})


def usage() -> str:
    """The `companion --help` text: every command with its one-line help."""
    width = max(len(n) for n in COMMANDS)
    lines = ["usage: companion COMMAND [options]   (companion COMMAND --help for details)", "", "commands:"]
    lines += [f"  {name:<{width}}  {helptext}" for name, (_, helptext) in COMMANDS.items()]
    lines += ["", "companion --version (-V): the companion's version, and the SD-card image's on the box"]
    return "\n".join(lines)


# ----- argparse, one line --------------------------------------------------------------------
_ORIGINAL_PARSE_KNOWN_ARGS = argparse.ArgumentParser.parse_known_args
_TYPE_WORDS = {"int": "a whole number", "float": "a number"}
_STRUCTURAL = ("unrecognized arguments", "the following arguments are required", "expected one argument",
               "expected at least one argument", "ambiguous option", "not allowed with argument",
               "one of the arguments", "exclude each other")


def one_line(text: str, limit: int = 400) -> str:
    """`text` as one printable line of at most `limit` characters (control characters escaped)."""
    line = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return line if len(line) <= limit else line[:limit - 3] + "..."


def usage_message(prog: str, message: str) -> str:
    """argparse's error `message` for `prog` as the one line printed: long quoted values shortened,
    `invalid int value: 'x'` said as what to give, a pointer to --help for a wrong option."""
    message = re.sub(r"invalid (\w+) value: (.*)$", lambda m: f"give {_TYPE_WORDS.get(m[1], m[1])}, not {m[2]}",
                     message)
    message = re.sub(r"'([^']{%d})[^']{4,}'" % (MAX_SHOWN - 5), r"'\1...'", message)
    if any(s in message for s in _STRUCTURAL):
        message += f" (see {prog} --help)"
    return one_line(f"{prog}: error: {message}")


def _one_line_error(self: argparse.ArgumentParser, message: str) -> None:
    """ArgumentParser.error while a command runs: one line on stderr (no usage block), exit 2."""
    say(usage_message(self.prog, message))
    raise SystemExit(EXIT_USAGE)


def _checked_parse_known_args(self: argparse.ArgumentParser, args: Any = None,
                              namespace: Any = None) -> tuple[argparse.Namespace, list[str]]:
    """ArgumentParser.parse_known_args while a command runs: an option that lost its value is refused."""
    parsed, extras = _ORIGINAL_PARSE_KNOWN_ARGS(self, args, namespace)
    for action in self._actions:
        # argparse (3.11) drops the "--" of `--seed=--` and stores [] for a one-value option
        if (type(action) is argparse._StoreAction and action.nargs is None
                and isinstance(getattr(parsed, action.dest, None), list) and not isinstance(action.default, list)):
            self.error(f"argument {'/'.join(action.option_strings) or action.dest}: expected one argument")
    return parsed, extras


@contextlib.contextmanager
def one_line_usage_errors() -> Iterator[None]:
    """While inside: every ArgumentParser reports a bad argument as one line (exit 2), and the
    parsers named in OPTION_LIMITS check those options' values. Restored on the way out."""
    parser = argparse.ArgumentParser
    saved = parser.error, parser.parse_known_args
    parser.error, parser.parse_known_args = _one_line_error, _checked_parse_known_args  # type: ignore[method-assign]
    try:
        yield
    finally:
        parser.error, parser.parse_known_args = saved  # type: ignore[method-assign]


# ----- the wrapper ---------------------------------------------------------------------------
def say(line: str) -> None:
    """`line` (made one printable line) on stderr; nothing when stderr is closed or gone."""
    stream = sys.stderr
    if stream is None:
        return
    try:
        stream.write(one_line(line) + "\n")
        stream.flush()
    except (OSError, ValueError):
        pass


def _stdout_gone() -> bool:
    """Whether stdout's reader has gone (a pipe whose other end is closed). A stdout without a
    descriptor to ask (a test's stream) is taken at its word: its BrokenPipeError says so."""
    import select

    try:
        fd = sys.stdout.fileno()
        poller = select.poll()
        poller.register(fd, select.POLLOUT)
        return any(events & (select.POLLERR | select.POLLHUP) for _, events in poller.poll(0))
    except (AttributeError, OSError, ValueError):
        return True


def _silence_stdout() -> None:
    """Point stdout's descriptor at /dev/null, so what is still buffered goes nowhere at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, sys.stdout.fileno())
        finally:
            os.close(devnull)
    except (AttributeError, OSError, ValueError):
        pass


def _stderr_is_journal() -> bool:
    try:
        dev, ino = (int(x) for x in os.environ.get("JOURNAL_STREAM", "").split(":"))
        st = os.fstat(sys.stderr.fileno())
    except (AttributeError, OSError, ValueError):
        return False
    return (st.st_dev, st.st_ino) == (dev, ino)


def _debugging() -> bool:
    return os.environ.get(DEBUG_ENV, "") not in ("", "0")


def _exit_status(exc: SystemExit, prog: str) -> int:
    """sys.exit's argument as a status: None is 0, a number itself, a message printed (status 1)."""
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return int(exc.code)
    say(f"{prog}: {exc.code}")
    return EXIT_FAILURE


def failure_status(exc: BaseException, prog: str) -> int:
    """The exit status for `exc` escaping command `prog`, after at most one line on stderr."""
    if isinstance(exc, KeyboardInterrupt):
        return EXIT_INTERRUPTED
    if isinstance(exc, BrokenPipeError) and _stdout_gone():
        _silence_stdout()
        return EXIT_PIPE
    if isinstance(exc, OSError) and exc.filename is not None and not isinstance(exc, BrokenPipeError):
        name = exc.filename if exc.filename2 is None else exc.filename2
        user = exc.errno in USER_ERRNOS
        say(f"{prog}: {name}: {exc.strerror or exc}" + ("" if user else f" ({DEBUG_ENV}=1 shows where)"))
        status = EXIT_USAGE if user else EXIT_FAILURE
    else:
        say(f"{prog}: internal error: {type(exc).__name__}: {shown_error(exc)} "
            f"(run it again with {DEBUG_ENV}=1 to see where)")
        status = EXIT_FAILURE
    if _debugging() or _stderr_is_journal():
        import traceback

        with contextlib.suppress(OSError, ValueError, AttributeError):
            traceback.print_exception(exc, file=sys.stderr)
    return status


def shown_error(exc: BaseException) -> str:
    """An exception's message, one line, at most 200 characters."""
    return one_line(str(exc) or "(no message)", 200)


def dispatch(args: list[str]) -> int:
    """Run the command `args[0]` with the rest of `args`; its exit status (no error handling)."""
    if not args or args[0] in ("-h", "--help", "help"):
        print(usage())
        return 0
    name, rest = args[0], args[1:]
    if name not in COMMANDS and name not in VERSION:
        say(f"companion: unknown command {shown(name)}; companion --help lists the commands")
        return EXIT_USAGE
    module, _, function = (VERSION_COMMAND if name in VERSION else COMMANDS[name][0]).partition(":")
    return int(getattr(importlib.import_module(module), function)(rest) or 0)


def main(argv: list[str] | None = None) -> int:
    """`companion COMMAND [options]`: the command's exit status; never a traceback (module docstring)."""
    args = sys.argv[1:] if argv is None else list(argv)
    prog = f"companion {args[0]}" if args and args[0] in COMMANDS else "companion"
    try:
        try:
            with one_line_usage_errors():
                status = dispatch(args)
        except SystemExit as exc:
            status = _exit_status(exc, prog)
        if sys.stdout is not None:
            sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's last flush
        return status
    except (KeyboardInterrupt, Exception) as exc:
        return failure_status(exc, prog)


if __name__ == "__main__":
    sys.exit(main())
