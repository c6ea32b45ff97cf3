"""The `companion` command: dispatches each subcommand to the module that owns it.

Each subcommand module exposes `main(argv: list[str]) -> int` with its own argparse
parser, and is imported only when used, so start-up stays fast and no hardware
library is loaded for commands that do not need it.
"""

from __future__ import annotations

import importlib
import sys

# name -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "replay": ("companion.games.clans.cmd_replay", "check and play a game record, print the result"),
    "selfplay": ("companion.games.clans.cmd_selfplay", "play random games: the engine's throughput benchmark"),
    "new": ("companion.games.clans.cmd_new", "write a fresh game record with a random R1 setup"),
    "run": ("companion.daemon", "the companion at the table (keys in, screens out)"),
    "board": ("companion.games.clans.boardmap", "draw a printable numbered map of the board"),
    "arena": ("companion.games.clans.bots.arena", "play bots against each other and print win rates"),
    "install-service": ("companion.service_install", "write and enable the systemd unit for this install"),
    "bench": ("companion.bench", "benchmarks of the daemon: key-to-frame latency, cold start"),
}


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
    module = importlib.import_module(COMMANDS[name][0])
    return int(module.main(rest) or 0)


if __name__ == "__main__":
    sys.exit(main())
