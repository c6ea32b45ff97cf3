"""The command line never shows a traceback (issue 31, companion.cli): bad input is one line on
stderr and exit 2, a closed pipe on stdout is quiet (exit 141), anything unexpected one line
and exit 1 (COMPANION_DEBUG=1 adds the traceback).

A seeded fuzz runs every command in-process through cli.main with bad option values (negative,
huge, 1e309, nan, not numbers, empty, unicode, control characters, missing files, directories
as files, files as directories, unreadable, oversized and undecodable files) and checks: exit
2, exactly one line on stderr naming the option (or the file), nothing on stdout, no traceback.
Commands with side effects never get far even if a check were missing: the web server's
serve(), install-service's install(), the daemon's keyboard and doctor's key test are replaced
by functions that fail the command (exit 1, so the test fails), `companion run` always has
--display dummy, an empty --keys script and --no-journal, `doctor` a --root of its own.
A handful run as real processes: closed pipes, the shell's `| head`, bytes that are not UTF-8
in argv, a closed stderr.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import io
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import types
from pathlib import Path

import pytest

from companion import cli
from tests.support import run_cli

REPO = Path(__file__).resolve().parents[2]
RECORD = REPO / "tests" / "data" / "examples" / "13th-village.record.json"
COMPANION = [sys.executable, "-m", "companion"]
SEED = 31


# ----- bad values ------------------------------------------------------------------------------
# "@name" stands for a file made by the `files` fixture ("@file/sub": a path under that file).
JUNK = ["", " ", "abc", "\u2603", "\u00fcn\u00efc\u00f6d\u00e9", "\x1b[2J", "a\nb", "--", "-x", "\U0001f600" * 30]
WHOLE = JUNK + ["1.5", "1e3", "1e309", "-1e309", "nan", "inf", "0x10", "1 2", "9" * 5000]
COUNT = WHOLE + ["0", "-1", "-7", str(10**12), str(2**64), "9" * 40]
PORT = WHOLE + ["0", "-1", "65536", "99999", str(2**64)]
SECONDS = JUNK + ["0", "-1", "-0.5", "nan", "-nan", "inf", "-inf", "1e309", "3601", "1e9", "1,5", "\u00bd",
                  "9" * 5000]
FROM_ZERO = [v for v in SECONDS if v != "0"] + ["-0.001"]
BOT_TIME = SECONDS + ["10.5", "11"]
CHOICE = ["", "xx", "EN", "\u2603", "a b", "5", "1"]
NEW_FILE = ["", "@dir", "@dir/", "@missing/x.json", "@file/x.json"]
DIRECTORY = ["", "@file", "@file/sub", "@unreadable", "@big"]
EXISTING_DIR = DIRECTORY + ["@missing"]
READ = ["", "@missing", "@dir", "@file/sub", "@junk", "@empty", "@binary", "@big", "@unreadable"]
KEYS = ["", "@missing", "@dir", "@file/sub", "@big"]
CONFIG = ["", "@missing", "@dir", "@file/sub", "@junk", "@binary", "@big"]
BIND = ["", "\u00fc", "a b", "1.2.3.4/8", "[::1]", "203.0.113.9", "198.51.100.7", "2001:db8::1", "x" * 300]

RUN = ["--display", "dummy", "--keys", "@empty", "--no-journal"]
ARENA = ["--bots", "random,random", "--games", "1"]
EXPORT = ["--format", "csv", "--state-dir", "@dir"]

# (command, the other arguments, the option (None: the positional), bad values)
SPECS: list[tuple[str, list[str], str | None, list[str]]] = [
    ("selfplay", [], "--games", COUNT),
    ("selfplay", ["--games", "1"], "--seed", WHOLE),
    ("selfplay", ["--games", "1"], "--players", CHOICE),
    ("new", [], "--players", CHOICE),
    ("new", [], "--seed", WHOLE),
    ("new", [], "--first-player", WHOLE + ["-1", "4", "99"]),
    ("new", [], "--out", NEW_FILE),
    ("replay", [], None, READ),
    ("arena", ["--games", "1"], "--bots", ["", "random", "random,nosuch", "random,random,random,random,random",
                                          ",,,", "\u2603,\u2603"]),
    ("arena", ["--bots", "random,random"], "--games", COUNT),
    ("arena", ARENA, "--seed", WHOLE),
    ("arena", ARENA, "--move-time", SECONDS),
    ("arena", ARENA, "--iterations", COUNT),
    ("arena", ARENA, "--jobs", COUNT + ["65", "1000"]),
    ("board", ["--list"], "--scale", ["", "abc", "nan", "inf", "0", "-1", "0.2", "9", "1e309"]),
    ("board", [], "--render", ["", "@dir", "@dir/", "@missing/x.png", "@file/x.png", "@dir/map.txt"]),
    ("board", ["--list"], "--board", ["@missing", "@dir", "@file/sub"]),
    ("bench", ["--only", "latency"], "--games", COUNT),
    ("bench", ["--only", "cold"], "--runs", COUNT),
    ("bench", ["--only", "latency", "--games", "1"], "--seed", WHOLE),
    ("bench", ["--only", "path", "--games", "2"], "--journal-dir", EXISTING_DIR),
    ("bench", ["--only", "memory"], "--memory-games", COUNT + ["1"]),
    ("bench", ["--only", "bot"], "--bot-games", COUNT),
    ("bench", ["--only", "bot", "--bot-games", "1"], "--bot-time", BOT_TIME),
    ("bench", [], "--only", CHOICE),
    ("web", [], "--port", PORT),
    ("web", [], "--bind", BIND),
    ("web", [], "--state-dir", DIRECTORY),
    ("web", [], "--pin-file", READ),
    ("web", [], "--config", CONFIG),
    ("web", [], "--key-socket", [""]),
    ("web", [], "--lang", CHOICE),
    ("history", ["--json"], "--state-dir", DIRECTORY),
    ("stats", [], "--state-dir", DIRECTORY),
    ("export", ["--format", "csv"], "--state-dir", DIRECTORY),
    ("export", ["--state-dir", "@dir"], "--format", ["", "xml", "CSV", "\u2603"]),
    ("export", EXPORT, "--game-id", WHOLE + ["0", "-1"]),
    ("export", EXPORT, "--out", NEW_FILE),
    ("import", ["@record"], "--state-dir", ["@file", "@file/sub", "@unreadable"]),
    ("import", ["--state-dir", "@dir"], None, READ),
    ("install-service", [], "--config", ["relative.yaml", "", "@tmp/companion.yaml", "@home/config.yaml"]),
    ("install-service", [], "--unit-dir", ["@file", "@file/sub", "@unreadable"]),
    ("install-service", [], "--polkit-dir", ["@file", "@file/sub"]),
    ("install-service", [], "--avahi-dir", ["@file", "@file/sub"]),
    ("doctor", ["--root", "@dir", "--keys"], "--timeout", SECONDS),
    ("doctor", [], "--root", EXISTING_DIR),
    ("doctor", ["--root", "@dir"], "--lang", CHOICE),
    ("doctor", ["--root", "@dir"], "--user", [""]),
    ("doctor", ["--root", "@dir"], "--config", [""]),
    ("doctor", ["--root", "@dir", "--keys"], "--display", [""]),
    ("run", RUN, "--players", CHOICE),
    ("run", RUN, "--seed", WHOLE),
    ("run", RUN, "--bot-time", BOT_TIME),
    ("run", RUN, "--bot-iterations", COUNT),
    ("run", RUN, "--key-delay", FROM_ZERO),
    ("run", RUN, "--record-out", NEW_FILE),
    ("run", RUN, "--log-file", NEW_FILE),
    ("run", RUN, "--save-frames", DIRECTORY),
    ("run", RUN, "--state-dir", DIRECTORY),
    ("run", ["--display", "dummy", "--no-journal"], "--keys", KEYS),
    ("run", RUN, "--load", READ),
    ("run", RUN, "--config", CONFIG),
    ("run", RUN, "--announce-log", ["", "@dir", "@missing/log.jsonl"]),
    ("run", RUN, "--key-socket", [""]),
    ("run", RUN + ["--players", "3"], "--bots", ["", "x", "0", "4", "1,2,3", "1,,2"]),
    ("run", RUN, "--bot", CHOICE),
    ("run", RUN, "--lang", CHOICE),
    ("run", RUN, "--game", ["", "chess", "CLANS"]),
    ("run", ["--keys", "@empty", "--no-journal"], "--display", ["", "nosuch", "\u2603", "ssd"]),
]


# Where the command's own message names the file rather than the option (contract 5: "companion run:
# PATH: WHY"); everywhere else the line must name the option.
NAMES_THE_FILE = {("replay", None), ("import", None), ("run", "--keys"), ("run", "--load"), ("run", "--config"),
                  ("web", "--config"), ("web", "--pin-file")}

# Messages other modules print that do not yet name the option or the file (strict: a fix shows here).
NOT_NAMED: dict[tuple, str] = {}


def _cases() -> list:
    """Every bad value of every spec, in both spellings (`--opt V` and `--opt=V`, drawn with SEED)."""
    rng = random.Random(SEED)
    cases = []
    for command, rest, option, values in SPECS:
        for value in values:
            joined = option is not None and rng.random() < 0.5
            ident = f"{command}-{option or 'arg'}-{value[:12]!r}{'=' if joined else ''}"
            known = NOT_NAMED.get((command, option, value))
            marks = [pytest.mark.xfail(strict=True, reason=known)] if known else []
            cases.append(pytest.param(command, rest, option, value, joined, id=ident, marks=marks))
    return cases


def _junk_numbers(kind: str, n: int, rng: random.Random) -> list[str]:
    """`n` random strings that are not a valid value of `kind`: "count" (1-999999999), "seconds"
    (above 0 up to 3600) or "pause" (the same from 0)."""
    alphabet = "0123456789-+.eE xnai\u2603\u00e9\x07\t"
    out: list[str] = []
    while len(out) < n:
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        if kind == "count" and re.fullmatch(r"\s*\+?0*[1-9]\d{0,8}\s*", text):
            continue  # 1 .. 999,999,999: a valid count
        if kind in ("seconds", "pause"):
            try:
                value = float(text)
            except ValueError:
                value = None
            if value is not None and (0 < value <= 3600 or (kind == "pause" and value == 0)):
                continue
        out.append(text)
    return out


# ----- harness ---------------------------------------------------------------------------------
class Started(Exception):
    """Raised where a command would start something for real: the command then exits 1."""


@pytest.fixture
def files(tmp_path_factory) -> dict[str, Path]:
    """The files the "@name" values stand for."""
    top = tmp_path_factory.mktemp("cli-errors")
    (top / "dir").mkdir()
    (top / "file").write_text("12\n")
    (top / "junk").write_text("{not json")
    (top / "empty").write_text("")
    (top / "binary").write_bytes(b"\xff\xfe\x00\x01junk")
    (top / "big").write_bytes(b"a" * (1100 * 1024))
    (top / "unreadable").write_text("{not json")
    (top / "unreadable").chmod(0)
    return {"dir": top / "dir", "file": top / "file", "junk": top / "junk", "empty": top / "empty",
            "binary": top / "binary", "big": top / "big", "unreadable": top / "unreadable",
            "missing": top / "missing", "record": RECORD,
            # where systemd's PrivateTmp / ProtectHome hide a file from the service
            "tmp": Path(tempfile.gettempdir()), "home": Path.home()}


def resolve(value: str, files: dict[str, Path]) -> str:
    """"@name" and "@name/rest" as paths; any other value as it is."""
    if not value.startswith("@"):
        return value
    name, sep, rest = value[1:].partition("/")
    return str(files[name]) + sep + rest


@pytest.fixture(autouse=True)
def nothing_starts(monkeypatch):
    """No server, no install, no keyboard, no key test, no games or benchmarks: reaching one fails
    the command (exit 1) at once, so a check that went missing fails the test instead of hanging it."""
    from companion.bench import path as bench_path, run as bench
    from companion.box import doctor, service_install
    from companion.kiosk import daemon
    from companion.games.clans import commands
    from companion.games.clans.bots import arena
    from companion.web import server

    def started(*args, **kwargs):
        raise Started("started for real")

    for module, name in ((server, "serve"), (service_install, "install"), (daemon, "open_inputs"),
                         (doctor, "main_keys"), (commands, "run_selfplay"), (arena, "arena"),
                         (bench, "key_to_frame"), (bench_path, "whole_path"), (bench, "cold_start"),
                         (bench, "memory"), (bench, "bot_turns")):
        monkeypatch.setattr(module, name, started)


call = run_cli  # cli.main(argv) in this process: (status, stdout, stderr)


def assert_bad_input(status: int, out: str, err: str, command: str, *names: str) -> str:
    """Exit 2, nothing on stdout, one line on stderr from `companion COMMAND` naming one of `names`."""
    assert "Traceback" not in err, err
    assert status == 2, (status, err)
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    line = err[:-1]
    assert line.startswith(f"companion {command}: "), line
    assert line.isprintable(), line
    assert not names or any(name in line for name in names), (names, line)
    return line


# ----- the fuzz --------------------------------------------------------------------------------
@pytest.mark.parametrize("command, rest, option, value, joined", _cases())
def test_a_bad_value_is_one_line_and_exit_2(command, rest, option, value, joined, files):
    value = resolve(value, files)  # (root reads "@unreadable" anyway: a file of junk, bad input all the same)
    rest = [resolve(a, files) for a in rest]
    if option is None:
        argv = [command, *rest, value]
    else:
        argv = [command, *rest, f"{option}={value}"] if joined else [command, *rest, option, value]
    status, out, err = call(*argv)
    if (command, option) in NAMES_THE_FILE:
        names = {option, cli.one_line(value)} - {None, ""}
    elif (command, option) == ("arena", "--bots"):
        names = {option, *value.split(",")} - {""}  # "unknown bot 'nosuch': use one of random, greedy, mcts"
    else:
        names = {option}
    assert_bad_input(status, out, err, command, *names)


@pytest.mark.parametrize("command, rest, option, kind", [
    ("selfplay", [], "--games", "count"), ("arena", ["--bots", "random,random"], "--games", "count"),
    ("arena", ARENA, "--move-time", "seconds"), ("bench", ["--only", "latency"], "--games", "count"),
    ("bench", ["--only", "bot", "--bot-games", "1"], "--bot-time", "seconds"), ("web", [], "--port", "count"),
    ("doctor", ["--root", "@dir"], "--timeout", "seconds"), ("run", RUN, "--key-delay", "pause"),
    ("run", RUN, "--bot-iterations", "count"),
])
def test_random_junk_numbers_are_refused(command, rest, option, kind, files):
    rng = random.Random(f"{SEED}{command}{option}")
    rest = [resolve(a, files) for a in rest]
    for value in _junk_numbers(kind, 25, rng):
        status, out, err = call(command, *rest, f"{option}={value}")
        assert_bad_input(status, out, err, command, option)


@pytest.mark.parametrize("argv", [
    ["replay"], ["replay", str(RECORD), "--bogus"], ["replay", str(RECORD), "extra"],
    ["selfplay", "--games"], ["selfplay", "--bogus=1"], ["new", "--players"], ["new", "stray"],
    ["arena"], ["arena", "--bots"], ["board"], ["board", "--list", "--render", "x.png"],
    ["bench", "--bogus"], ["web", "--port"], ["web", "stray"], ["history", "stray"], ["stats", "--state-dir"],
    ["export", "--state-dir", "."], ["import"], ["install-service", "--unit-dir"], ["doctor", "--bogus"],
    ["run", "--display", "dummy", "--keys"], ["run", *RUN, "--bogus"],
    ["run", *RUN, "--load", str(RECORD), "--players", "2"],
])
def test_a_wrong_option_is_one_line_pointing_at_help(argv, files):
    argv = [resolve(a, files) for a in argv]
    status, out, err = call(*argv)
    assert_bad_input(status, out, err, argv[0], "--help")


def test_each_parser_checks_its_own_values_without_the_command_line(capsys):
    """The checks are the parsers' own `type=` (companion.argtypes): a parser called directly, outside
    `companion.cli`, refuses the same values (argparse's usage error, exit 2)."""
    from companion.games.clans import commands
    from companion.games.clans.bots import arena
    from companion.history import cli_export
    from companion.kiosk import daemon
    from companion.web import server

    for parse, argv, said in [
            (daemon.parse_args, ["--key-delay", "nan"], "--key-delay: give a number of seconds from 0"),
            (daemon.parse_args, ["--bot-iterations", "0"], "--bot-iterations: give a whole number from 1"),
            (daemon.parse_args, ["--keys", ""], "--keys: give a key script, not an empty string"),
            (server.parse_args, ["--pin-file", ""], "--pin-file: give a PIN file"),
            (commands.selfplay, ["--games", "-3"], "--games: give a whole number from 1"),
            (arena.main, ["--bots", "greedy,random", "--jobs", "65"], "--jobs: give a whole number from 1 to 64"),
            (cli_export.export, ["--format", "csv", "--game-id", "0"], "--game-id: give a whole number of at least 1")]:
        with pytest.raises(SystemExit) as stop:
            parse(argv)
        assert stop.value.code == 2 and said in capsys.readouterr().err, argv


def test_the_messages_say_what_to_give():
    assert call("web", "--port", "99999")[2] == (
        "companion web: error: argument --port: give a whole number from 1 to 65535, not '99999'\n")
    assert "give a whole number from 1 to 1000000000, not '0'" in call("selfplay", "--games", "0")[2]
    assert "give a whole number, not '1e309'" in call("selfplay", "--seed", "1e309")[2]
    assert "give a number of seconds above 0 up to 3600, not 'nan'" in call("arena", *ARENA, "--move-time", "nan")[2]
    for option in ("--games", "--seed"):  # a check of companion.cli's, argparse's own int
        err = call("selfplay", option, "9" * 5000)[2]
        assert len(err) < 200 and "..." in err and f"argument {option}: give a whole number" in err


def test_control_characters_never_reach_the_terminal():
    err = call("selfplay", "--games", "\x1b[2J\x07\nX")[2]
    assert err.count("\n") == 1 and "\x1b" not in err and "\x07" not in err
    err = call("run", *RUN, "--players", "3", "--bots", "\x1b[31m\n1")[2]
    assert err.count("\n") == 1 and "\x1b" not in err


def test_a_quoted_value_is_short():
    from companion.argtypes import MAX_SHOWN, shown

    assert shown("9" * 5000) == "'" + "9" * (MAX_SHOWN - 5) + "...'"
    assert shown("a\nb") == "'a\\nb'"


def test_a_bind_that_cannot_be_a_host_name_is_refused_without_asking_dns(monkeypatch):
    from companion.web import server

    def no_dns(*args, **kwargs):
        raise AssertionError("asked DNS")

    monkeypatch.setattr(server.socket, "getaddrinfo", no_dns)
    for text in ("", "\u00fc", "a b", "1.2.3.4/8", "[::1]", "x" * 300):
        with pytest.raises(argparse.ArgumentTypeError):
            server.bind_address(text)


def test_an_unknown_command_is_one_line():
    status, out, err = call("frobnicate")
    assert (status, out) == (2, "")
    assert err == "companion: unknown command 'frobnicate'; companion --help lists the commands\n"


def test_help_returns_0_instead_of_exiting():
    status, out, err = call("selfplay", "--help")
    assert status == 0 and out.startswith("usage: companion selfplay") and err == ""
    assert call("--help")[0] == 0


def test_help_names_the_contracts_as_readme_does():
    """README and docs/contracts.md say "contract 7" / "contract 8"; --help said "spec section" (issue 41)."""
    top = call("--help")[1]
    web = " ".join(call("web", "--help")[1].split())  # argparse wraps the description
    assert "spec section" not in top + web
    assert "(contract 7, docs/contracts.md)" in top and "(contract 8, docs/contracts.md)" in top
    assert "contract 7" in web
    run = " ".join(call("run", "--help")[1].split())
    history = " ".join(call("history", "--help")[1].split())
    assert "spec" not in run + history
    assert "(contract 1, docs/contracts.md)" in run and "(contract 8, docs/contracts.md)" in history


def test_argparse_is_itself_again_after_main():
    original = argparse.ArgumentParser.error, argparse.ArgumentParser.parse_known_args
    call("selfplay", "--games", "x")
    call("frobnicate")
    assert (argparse.ArgumentParser.error, argparse.ArgumentParser.parse_known_args) == original
    with pytest.raises(SystemExit):  # a parser used outside `companion` prints argparse's usage again
        argparse.ArgumentParser(prog="x").parse_args(["--y"])


# ----- the wrapper: internal errors, pipes, interrupts -------------------------------------------
@pytest.fixture
def command(monkeypatch):
    """A `companion boom` command whose body the test sets: `command(fn)`."""
    module = types.ModuleType("companion_test_boom")
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setitem(cli.COMMANDS, "boom", (f"{module.__name__}:main", "a command for the tests"))
    monkeypatch.delenv("COMPANION_DEBUG", raising=False)
    monkeypatch.delenv("JOURNAL_STREAM", raising=False)

    def set_body(fn):
        module.main = fn

    return set_body


def test_an_internal_error_is_one_line_and_exit_1(command):
    command(lambda argv: {}["no such key"])
    status, out, err = call("boom")
    assert (status, out) == (1, "")
    assert err == ("companion boom: internal error: KeyError: 'no such key' "
                   "(run it again with COMPANION_DEBUG=1 to see where)\n")


def test_companion_debug_shows_the_traceback(command, monkeypatch):
    command(lambda argv: {}["no such key"])
    monkeypatch.setenv("COMPANION_DEBUG", "1")
    status, _, err = call("boom")
    assert status == 1 and err.startswith("companion boom: internal error: KeyError")
    assert "Traceback (most recent call last)" in err and err.rstrip().endswith("KeyError: 'no such key'")
    monkeypatch.setenv("COMPANION_DEBUG", "0")
    assert "Traceback" not in call("boom")[2]


def test_under_systemd_the_journal_gets_the_traceback(command, monkeypatch, tmp_path):
    command(lambda argv: 1 / 0)
    with open(tmp_path / "journal", "w") as journal:
        st = os.fstat(journal.fileno())
        monkeypatch.setenv("JOURNAL_STREAM", f"{st.st_dev}:{st.st_ino}")
        with contextlib.redirect_stderr(journal):
            assert cli.main(["boom"]) == 1
    text = (tmp_path / "journal").read_text()
    assert text.startswith("companion boom: internal error: ZeroDivisionError") and "Traceback" in text


def test_a_file_the_user_named_is_bad_input_other_os_errors_are_failures(command):
    def missing(argv):
        raise FileNotFoundError(errno.ENOENT, "No such file or directory", "/nowhere/x.json")

    command(missing)
    assert call("boom") == (2, "", "companion boom: /nowhere/x.json: No such file or directory\n")

    def odd_name(argv):
        raise FileNotFoundError(errno.ENOENT, "No such file or directory", "/nowhere/\x1b[2J\nx")

    command(odd_name)
    assert call("boom") == (2, "", "companion boom: /nowhere/\\x1b[2J\\nx: No such file or directory\n")

    def full(argv):
        raise OSError(errno.ENOSPC, "No space left on device", "/var/lib/companion/x")

    command(full)
    status, _, err = call("boom")
    assert status == 1 and err.startswith("companion boom: /var/lib/companion/x: No space left on device")
    assert err.count("\n") == 1


def test_sys_exit_inside_a_command_is_its_status(command):
    command(lambda argv: sys.exit("cannot\ngo on"))
    assert call("boom") == (1, "", "companion boom: cannot\\ngo on\n")
    command(lambda argv: sys.exit(3))
    assert call("boom") == (3, "", "")
    command(lambda argv: sys.exit())
    assert call("boom") == (0, "", "")


def test_ctrl_c_is_quiet_exit_130(command):
    def interrupted(argv):
        raise KeyboardInterrupt

    command(interrupted)
    assert call("boom") == (130, "", "")


def test_a_closed_stdout_pipe_is_quiet_and_the_last_flush_goes_nowhere(command, monkeypatch):
    def chatty(argv):
        for n in range(10_000):
            print(f"line {n} " + "x" * 60)
        return 0

    command(chatty)
    r, w = os.pipe()
    os.close(r)
    stdout = os.fdopen(w, "w")
    err = io.StringIO()
    monkeypatch.setattr(sys, "stdout", stdout)
    with contextlib.redirect_stderr(err):
        status = cli.main(["boom"])
    stdout.write("what the interpreter would still flush at exit")
    stdout.flush()  # stdout now goes to /dev/null: no BrokenPipeError any more
    monkeypatch.undo()
    stdout.close()
    assert (status, err.getvalue()) == (cli.EXIT_PIPE, "")


def test_a_broken_pipe_that_is_not_stdout_is_an_internal_error(command, monkeypatch, tmp_path):
    def socket_gone(argv):
        raise BrokenPipeError(errno.EPIPE, "Broken pipe")

    command(socket_gone)
    with open(tmp_path / "out", "w") as out:  # a stdout that is fine
        monkeypatch.setattr(sys, "stdout", out)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            status = cli.main(["boom"])
        monkeypatch.undo()
    assert status == 1 and err.getvalue().startswith("companion boom: internal error: BrokenPipeError")


# ----- real processes --------------------------------------------------------------------------
def run_companion(*argv: str | bytes, unbuffered: bool = False, **kwargs) -> subprocess.CompletedProcess:
    """`python -m companion ARGV` as a user's shell runs it (stdout buffered unless `unbuffered`)."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.pop("COMPANION_DEBUG", None)
    env.pop("PYTHONUNBUFFERED", None)
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    return subprocess.run([*COMPANION, *argv], cwd=REPO, env=env, timeout=120, **kwargs)


@pytest.mark.parametrize("unbuffered", [False, True], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize("argv", [
    ["replay", str(RECORD), "--json"], ["board", "--list"], ["selfplay", "--games", "3"], ["--help"],
])
def test_a_closed_pipe_is_quiet_in_a_real_process(argv, unbuffered):
    """Buffered, the pipe shows only at the last flush (main's, before the interpreter's own)."""
    r, w = os.pipe()
    os.close(r)  # the reader is gone before the first byte is written
    try:
        p = run_companion(*argv, unbuffered=unbuffered, stdout=w, stderr=subprocess.PIPE)
    finally:
        os.close(w)
    assert p.stderr == b"" and p.returncode == cli.EXIT_PIPE


@pytest.mark.parametrize("argv, first", [
    (["replay", str(RECORD), "--json"], ["head", "-c1"]),
    (["selfplay", "--games", "2000", "--seed", "1"], ["head", "-1"]),
])
def test_piped_into_head(argv, first):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.pop("PYTHONUNBUFFERED", None)
    writer = subprocess.Popen([*COMPANION, *argv], cwd=REPO, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
    reader = subprocess.run(first, stdin=writer.stdout, capture_output=True, timeout=120)
    writer.stdout.close()
    err = writer.stderr.read()
    assert writer.wait(timeout=120) in (0, cli.EXIT_PIPE)
    assert err == b""
    if first == ["head", "-c1"]:
        assert reader.stdout == b"{"
    else:
        assert json.loads(reader.stdout)["games"] == 2000


def test_web_port_99999_in_a_real_process():
    p = run_companion("web", "--port", "99999", capture_output=True, text=True)
    assert p.returncode == 2 and "Traceback" not in p.stderr and p.stdout == ""
    assert p.stderr == "companion web: error: argument --port: give a whole number from 1 to 65535, not '99999'\n"


@pytest.mark.parametrize("argv", [
    [b"selfplay", b"--games", b"\xff\xfe"], [b"replay", b"\xff\xfe.json"], [b"new", b"--out", b"/\xff/x.json"],
    [b"web", b"--bind", b"\xff"], [b"history", b"--state-dir", b"/etc/hostname/\xff"], [b"\xff"],
    [b"run", b"--display", b"dummy", b"--keys", b"/nowhere/\xff.keys", b"--no-journal"],
])
def test_bytes_that_are_not_utf8_in_argv(argv):
    p = run_companion(*argv, capture_output=True)
    assert p.returncode == 2 and b"Traceback" not in p.stderr and p.stdout == b""
    assert p.stderr.count(b"\n") == 1, p.stderr


def test_a_closed_stderr_still_gives_exit_2():
    p = run_companion("selfplay", "--games", "x", stdout=subprocess.PIPE, preexec_fn=lambda: os.close(2))
    assert p.returncode == 2 and p.stdout == b""


def test_an_internal_error_in_a_real_process_is_one_line():
    code = ("import sys; from companion import cli; cli.COMMANDS['boom'] = ('json:loads', ''); "
            "sys.exit(cli.main(['boom']))")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.pop("COMPANION_DEBUG", None)
    p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 1 and p.stderr.count("\n") == 1
    assert p.stderr.startswith("companion boom: internal error: TypeError: ")
    p = subprocess.run([sys.executable, "-c", code], env=dict(env, COMPANION_DEBUG="1"), capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 1 and "Traceback" in p.stderr
