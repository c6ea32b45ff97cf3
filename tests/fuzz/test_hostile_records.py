"""Hostile game records: every one is played or refused in one short line, in bounded time.

The seeded mutations (COMPANION_FUZZ_CASES of them, 300 by default; set it higher to run
more by hand) start from the spec's example records: half flip, insert, delete and repeat
bytes; half replace one value of the parsed record with a hostile one (a bool for an int,
a huge number, a long string, a Unicode digit, a lone surrogate, deep nesting) and write
it back. Each is loaded and played in-process, and a few go through the real command line
(`companion replay`, `companion run --load`). The named cases are what a hostile tester
found crashing `companion replay` and `companion run --load` with a traceback (issue 11,
item 7), and their neighbours.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest

from tests.fuzz import mutation
from tests.cpu_budget import cpu_budget

from companion.games.clans.commands import replay_text
from companion.games.clans.record import Record, RecordError, summary
from companion.util.bounded import BoundedInputError

CASES = int(os.environ.get("COMPANION_FUZZ_CASES", "300"))
CLI_CASES = 6  # of the seeded cases, this many (the most hostile first) also go through both commands
MAX_LINE = 200
EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "examples"
RECORDS = {p.name: p.read_bytes() for p in sorted(EXAMPLES.glob("*.record.json"))}
BASE = json.loads(RECORDS["in-progress.record.json"])
BIG = 900_000  # under the 1 MB cap: reaches the field checks, and would flood a message if echoed


def with_(change) -> bytes:
    """The in-progress example with one change (a function of the parsed record), as JSON bytes."""
    data = json.loads(json.dumps(BASE))
    change(data)
    return json.dumps(data).encode()


def set_key(data: dict, path: tuple, value) -> None:
    for k in path[:-1]:
        data = data[k]
    data[path[-1]] = value


def setup_key(key: str):
    def change(data):
        data["setup"][key] = data["setup"].pop("1")
    return change


# name -> (file bytes, a pattern the one-line message must match, without the file's name)
NAMED = {
    # the tester's four findings
    "deep-nesting": (b'{"players": ' + b"[" * 5000 + b"]" * 5000 + b"}", r"^nested (too deep|more than 32 levels deep)$"),
    "long-integer": (b'{"players": ' + b"9" * 5000 + b"}", r"^not valid JSON: Exceeds the limit .*digits"),
    "superscript-setup-key": (with_(setup_key("\u00b2")),
                              r"^setup: key '\u00b2' is not a territory number \(1-60\)$"),
    "ten-megabyte-value": (with_(lambda d: d.__setitem__("board", "x" * 10_000_000)), r"^larger than 1024 KB"),
    # their neighbours
    "nested-40": (b'{"players": ' + b"[" * 40 + b"]" * 40 + b"}", r"^nested more than 32 levels deep$"),
    "long-integer-in-setup": (b'{"setup": {"1": ' + b"7" * 4400 + b"}}", r"^not valid JSON: Exceeds the limit"),
    "arabic-indic-setup-key": (with_(setup_key("\u0661")), r"^setup: key '\u0661' is not a territory number"),
    "fullwidth-setup-key": (with_(setup_key("\uff11")), r"^setup: key '\uff11' is not a territory number"),
    "zero-padded-setup-key": (with_(setup_key("01")), r"^setup: key '01' is not a territory number"),
    "signed-setup-key": (with_(setup_key("+1")), r"^setup: key '\+1' is not a territory number"),
    "newline-setup-key": (with_(setup_key("1\n")), r"^setup: key '1\\n' is not a territory number"),
    "huge-setup-key": (with_(setup_key("1" * BIG)), r"^setup: key '1{56}\.\.\. is not a territory number \(1-60\)$"),
    "huge-board": (with_(lambda d: d.__setitem__("board", "x" * BIG)),
                   r"^board: \"x{56}\.\.\. is not a known board \(expected 'clans-2002'\)$"),
    "huge-players": (with_(lambda d: d.__setitem__("players", "9" * BIG)), r"^players: must be 2, 3 or 4, got \"9{56}\.\.\.$"),
    "huge-first-player": (with_(lambda d: d.__setitem__("first_player", [0] * (BIG // 3))),
                          r"^first_player: must be a player index 0..2, got \[0, 0.{52}\.\.\.$"),
    "huge-setup-color": (with_(lambda d: d["setup"].__setitem__("3", "p" * BIG)),
                         r"^setup: territory 3: unknown color 'p{56}\.\.\.: use one of red, blue, green, yellow, black"),
    "huge-colors": (with_(lambda d: d.__setitem__("colors", ["red", "blue", "g" * BIG])),
                    r"^colors: unknown color 'g{56}\.\.\.: use one of"),
    "huge-colors-list": (with_(lambda d: d.__setitem__("colors", ["red"] * (BIG // 8))),
                         r"^colors: must list one color per player \(3\), got \[\"red\", .{49}\.\.\.$"),
    "huge-move": (with_(lambda d: d["moves"].__setitem__(2, {"from": "1" * BIG, "to": 2})),
                  r"^move 3: must be an object with integer \"from\" and \"to\", got \{\"from\": \"1{47}\.\.\.$"),
    "huge-order": (with_(lambda d: d["moves"][0].__setitem__("order", ["x" * BIG])),
                   r"^move 1: order must be a list of territory numbers, got \[\"x{55}\.\.\.$"),
    "long-order": (with_(lambda d: d["moves"][0].__setitem__("order", list(range(1, 100_000)))),
                   r"^move 1 \(\d+->\d+\): order lists 1, 2, 3, 4, 5, 6, \.\.\. \(99999 in all\), but move \d+->\d+ "
                   r"isolates nothing: the order must list exactly those$"),
    "order-of-big-numbers": (with_(lambda d: d["moves"][0].__setitem__("order", [int("8" * 4000)] * 3)),
                             r"^move 1 \(\d+->\d+\): order lists 8{9}\.\.\., 8{9}\.\.\., 8{9}\.\.\., but"),
    "big-from": (with_(lambda d: d["moves"].__setitem__(4, {"from": int("5" * 4000), "to": 2})),
                 r"^move 5 \(5{9}\.\.\.->2\): 5{9}\.\.\. is not a territory: use 1-60$"),
    "big-to": (with_(lambda d: d["moves"].__setitem__(4, {"from": 3, "to": -int("5" * 4000)})),
               r"^move 5 \(3->-5{8}\.\.\.\): -5{8}\.\.\. is not a territory: use 1-60$"),
    "bool-players": (with_(lambda d: d.__setitem__("players", True)), r"^players: must be 2, 3 or 4, got true$"),
    "bool-first-player": (with_(lambda d: d.__setitem__("first_player", False)),
                          r"^first_player: must be a player index 0..2, got false$"),
    "bool-from": (with_(lambda d: d["moves"].__setitem__(0, {"from": True, "to": 2})), r"^move 1: must be an object"),
    "bool-in-order": (with_(lambda d: d["moves"][0].__setitem__("order", [True])),
                      r"^move 1: order must be a list of territory numbers, got \[true\]$"),
    "float-players": (with_(lambda d: d.__setitem__("players", 3.0)), r"^players: must be 2, 3 or 4, got 3\.0$"),
    "nan-players": (RECORDS["in-progress.record.json"].replace(b'"players": 3', b'"players": NaN'),
                    r"^NaN and Infinity are not numbers a record can hold$"),
    "infinity-in-extra": (RECORDS["in-progress.record.json"].replace(b"{", b'{"when": -Infinity,', 1),
                          r"^NaN and Infinity are not numbers a record can hold$"),
    "lone-surrogate": (RECORDS["in-progress.record.json"].replace(b"{", b'{"by": "\\ud800",', 1),
                       r"^a string holds '\\ud800', a lone surrogate: not text a record can hold$"),
    "bool-color": (with_(lambda d: d["setup"].__setitem__("3", True)),
                   r"^setup: territory 3: color must be a string, got true$"),
    "board-not-a-string": (with_(lambda d: d.__setitem__("board", ["clans-2002"])), r"^board: \[\"clans-2002\"\] is not"),
    "not-utf8": (b'{"board": "clans\xff"}', r"^not UTF-8 text \(byte 16\): save it as UTF-8$"),
    "utf8-bom": (b"\xef\xbb\xbf" + RECORDS["in-progress.record.json"], r"^not valid JSON: Unexpected UTF-8 BOM"),
    "not-an-object": (b"[1, 2, 3]", r"^a record must be a JSON object"),
    "empty-file": (b"", r"^not valid JSON: Expecting value at line 1 column 1$"),
    "many-moves": (with_(lambda d: d.__setitem__("moves", [{"from": 1, "to": 2}] * 40_000)), r"^move \d+ \(1->2\): "),
}


def mutate_bytes(data: bytes, rnd: random.Random) -> bytes:
    return mutation.mutate(data, rnd, b'[]{}:,"\\-+.eE0123456789tfn \n\t',
                           [b"9" * 4400, b"[" * 2000, b"{\"a\":" * 1000, b'"\\ud800"', b"NaN", b"\xc2\xb2",
                            b"\xff\xfe", b"true", b"-0", b"1e999", b'"' + b"x" * 50_000 + b'"'])


def hostile_value(rnd: random.Random):
    return rnd.choice([
        True, False, None, 0, -1, 61, 10**100, int("9" * 4000), 1.5, float("inf"), "", "1", "\u00b2", "\u0661",
        "red", "white", "purple", "\ud800", "x" * rnd.choice((100, 100_000, 600_000)), [], {}, [1, 2, 3],
        [True], [12, 13], {"from": 1}, {"from": 12, "to": 13}, list(range(200)), [[[[[[[[[[]]]]]]]]]],
        "\u00b2" * 3, {"\u00b2": "red"},
    ])


def mutate_value(data: bytes, rnd: random.Random) -> bytes:
    """Replace, add or delete one value somewhere in the record (the setup's keys included)."""
    record = json.loads(data)
    node, key = record, None
    for _ in range(rnd.randint(0, 3)):
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            break
        key = rnd.choice(keys)
        if not isinstance(node[key], (dict, list)) or rnd.random() < 0.3:
            break
        node, key = node[key], None
    op = rnd.randrange(4)
    if isinstance(node, dict) and op == 0 and node:  # rename a key
        old = rnd.choice(list(node))
        node[rnd.choice(["\u00b2", "01", "61", "0", " 1", "1" * 5000, old + old, "x"])] = node.pop(old)
    elif isinstance(node, dict) and op == 1 and node:
        del node[rnd.choice(list(node))]
    elif isinstance(node, list) and op == 1:
        node.append(hostile_value(rnd))
    elif key is not None:
        node[key] = hostile_value(rnd)
    elif isinstance(node, dict) and node:
        node[rnd.choice(list(node))] = hostile_value(rnd)
    elif isinstance(node, list) and node:
        node[rnd.randrange(len(node))] = hostile_value(rnd)
    return json.dumps(record, allow_nan=True).encode("utf-8", "surrogatepass")


def mutate(data: bytes, rnd: random.Random) -> bytes:
    return mutate_bytes(data, rnd) if rnd.random() < 0.5 else mutate_value(data, rnd)


def seeded_cases(count: int = CASES):
    rnd = random.Random(20261124)
    names = sorted(RECORDS)
    for _ in range(count):
        yield mutate(RECORDS[rnd.choice(names)], rnd)


def check_one(path: Path, data: bytes) -> tuple[str, str]:
    """Load and play `data` as `companion replay` does: ('ok' | 'refused', message).

    Fails the test on any other exception, a message that is not one line of at most
    MAX_LINE characters (without the file's name) or more than 2 s of CPU."""
    path.write_bytes(data)
    t0 = time.process_time()
    try:
        record = Record.load(path)
        game = record.play()
        s = summary(game, record.colors)
        json.dumps(s), replay_text(s), record.to_json().encode("utf-8")  # what replay and --record-out write
        outcome, message = "ok", ""
    except (RecordError, BoundedInputError) as exc:
        message = str(exc).replace(str(path), "record.json")  # the tmp path's length is not the loader's
        assert "\n" not in message and len(message) <= MAX_LINE, message[:500]
        outcome = "refused"
    assert time.process_time() - t0 < cpu_budget(2.0), "a record took more than 2 s of CPU (here) to load and play"
    return outcome, message


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, timeout=60)


def check_cli(tmp_path: Path, data: bytes) -> None:
    """Both commands on `data`: exit 0 or 2, and on 2 one line on stderr, never a traceback."""
    record, keys = tmp_path / "cli.record.json", tmp_path / "empty.keys"
    record.write_bytes(data)
    keys.write_bytes(b"")
    for prefix, argv in (("companion replay: ", ["replay", str(record), "--json"]),
                         ("companion run: ", ["run", "--display", "dummy", "--keys", str(keys), "--load", str(record)])):
        res = run_cli(*argv)
        err = res.stderr.decode("utf-8", "replace")
        assert "Traceback" not in err and res.returncode in (0, 2), (argv[0], res.returncode, err[-2000:])
        if res.returncode == 2:
            lines = err.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith(prefix + str(record) + ": "), (argv[0], err[:500])
            assert len(lines[0]) - len(prefix + str(record) + ": ") <= MAX_LINE, lines[0][:500]
        else:
            assert err == "", (argv[0], err[:500])


@pytest.mark.parametrize("name", sorted(NAMED))
def test_named_hostile_records_are_refused_in_one_line(tmp_path, name):
    data, pattern = NAMED[name]
    outcome, message = check_one(tmp_path / "record.json", data)
    assert outcome == "refused"
    assert re.search(pattern, message), message


@pytest.mark.parametrize("name", ["deep-nesting", "long-integer", "superscript-setup-key", "ten-megabyte-value",
                                  "huge-board", "big-from", "lone-surrogate"])
def test_named_hostile_records_through_the_command_line(tmp_path, name):
    check_cli(tmp_path, NAMED[name][0])


def test_a_huge_file_is_refused_without_reading_it_all(tmp_path):
    """The tester's 10 MB value, made 64 MB (sparse on disk): refused having read about 1 MB."""
    path = tmp_path / "huge.record.json"
    with open(path, "wb") as f:
        f.write(b'{"board": "')
        f.truncate(64 << 20)
    tracemalloc.start()
    try:
        with pytest.raises(RecordError, match=r"^larger than 1024 KB"):
            Record.load(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 << 20, f"reading a refused record took {peak >> 20} MB"


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_the_examples_themselves_play(tmp_path, name):
    assert check_one(tmp_path / "record.json", RECORDS[name]) == ("ok", "")


def test_seeded_mutations_never_crash(tmp_path):
    seen = {"ok": 0, "refused": 0}
    for data in seeded_cases():
        seen[check_one(tmp_path / "record.json", data)[0]] += 1
    print(f"hostile records: {CASES} cases, {seen['refused']} refused, {seen['ok']} ok, 0 tracebacks")
    assert seen["refused"] > CASES // 3 and seen["ok"] > 0  # the mutations reach the checks, and not all fail


def test_seeded_mutations_through_the_command_line(tmp_path):
    """The real `companion replay` and `companion run --load` on a few of the seeded cases: the biggest
    (the most likely to hold something hostile) and some that play."""
    cases = list(seeded_cases(min(CASES, 60)))
    chosen = sorted(cases, key=len)[-CLI_CASES // 2:] + cases[:CLI_CASES - CLI_CASES // 2]
    for data in chosen:
        check_cli(tmp_path, data)
