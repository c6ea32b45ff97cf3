"""The `companion` command: dispatches each subcommand to the module that owns it.

The table's own commands are listed here; each game brings its own through the
registry (`companion.games.commands()`), so this module names no game. A command is
"module:function" taking `argv: list[str]` and returning the exit status; its module
is imported only when used, so start-up stays fast and no hardware library is loaded
for commands that do not need it.
"""

from __future__ import annotations

import importlib
import sys

from companion.games import commands as game_commands

# name -> ("module:function", one-line help): the table's own commands, then every game's
COMMANDS: dict[str, tuple[str, str]] = {
    "run": ("companion.daemon:main", "the companion at the table (keys in, screens out)"),
    "install-service": ("companion.service_install:main", "write and enable the systemd unit for this install"),
    "bench": ("companion.bench:main", "benchmarks of the daemon: key-to-frame latency, cold start"),
    "web": ("companion.web.server:main", "serve the table's page to the phones at the table (spec section 7)"),
    "history": ("companion.history.cli_stats:history", "the table's finished games, oldest first (spec section 8)"),
    "stats": ("companion.history.cli_stats:stats", "statistics per player, game, seat and colour (spec section 8)"),
    "export": ("companion.history.cli_export:export", "finished games for BG Stats, BoardGameGeek, a spreadsheet"),
    "import": ("companion.history.cli_export:import_", "bring exported JSON records into this table's history"),
    "doctor": ("companion.doctor:main", "check the box's set-up (I2C, OLED, groups, GPIO, keypad, service); --keys"),
} | game_commands()


def usage() -> str:
    width = max(len(n) for n in COMMANDS)
    lines = ["usage: companion COMMAND [options]   (companion COMMAND --help for details)", "", "commands:"]
    lines += [f"  {name:<{width}}  {helptext}" for name, (_, helptext) in COMMANDS.items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    if not args or args[0] in ("-h", "--help", "help"):
        print(usage())
        return 0
    name, rest = args[0], args[1:]
    if name not in COMMANDS:
        print(f"companion: unknown command {name!r}\n\n{usage()}", file=sys.stderr)
        return 2
    module, _, function = COMMANDS[name][0].partition(":")
    return int(getattr(importlib.import_module(module), function)(rest) or 0)


if __name__ == "__main__":
    sys.exit(main())
