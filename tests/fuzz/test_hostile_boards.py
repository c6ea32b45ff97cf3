"""Hostile board files for `companion board --board FILE` (issue 53, item 7): a file that is no
board (README.md, text, binary, YAML of the wrong shape, a board file with a mistake) is one
line on stderr naming the file and what to do, exit 2, nothing on stdout, never a traceback.

The seeded cases (COMPANION_FUZZ_CASES of them, 300 by default) are random text, random bytes,
random YAML documents of every shape, and byte mutations of the shipped board's own source
(`clans.yaml`), some of which are still a board (exit 0, its 60 territories listed); the
named cases are the shapes worth naming. All run through `companion.cli.main`, as the command
line does; README.md's case also as a real process.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from companion.games.clans.board import SOURCE_YAML
from tests.cpu_budget import cpu_budget
from tests.fuzz import mutation
from tests.support import run_cli

ROOT = Path(__file__).resolve().parents[2]
CASES = int(os.environ.get("COMPANION_FUZZ_CASES", "300"))
MAX_LINE = 400
BOARD = Path(SOURCE_YAML).read_bytes()

NAMED = {
    "readme": (ROOT / "README.md").read_bytes(),
    "empty": b"",
    "binary": bytes(range(256)) * 4,
    "invalid-utf8": b"name: \xff\xfe\nterritories: {}\n",
    "utf16": "name: clans\n".encode("utf-16"),
    "a-list": b"- 1\n- 2\n",
    "a-scalar": b"42\n",
    "a-string": b"just some words\n",
    "no-territories": b"name: clans-2002\nepochs: []\n",
    "territories-a-list": b"territories: [1, 2, 3]\n",
    "territory-a-list": b"territories: {1: [steppe, 1]}\n",
    "unhashable-key": b"territories: {? [1, 2] : x}\n",
    "nested-key": b"territories: {{a: 1}: x}\n",
    "bool-keys": b"territories: {true: {terrain: steppe, region: 1, xy: [1, 2], neighbors: [2]}}\n",
    "huge-values": b"territories: {1: {terrain: " + b"x" * 100_000 + b"}}\n",
    "long-number": b"territories: {" + b"9" * 5000 + b": {}}\n",
    "deep-nesting": b"territories: " + b"[" * 5000 + b"]" * 5000 + b"\n",
    "billion-laughs": (b'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
                       + b"".join(b"%c: &%c [%s]\n" % (c, c, b",".join([b"*" + bytes([c - 1])] * 9))
                                  for c in range(ord("b"), ord("j")))),
    "python-object": b"!!python/object/apply:os.system ['echo hi']\n",
    "huge-file": b"# " + b"x" * (2 << 20) + b"\n",
    "tab-indent": b"territories:\n\t1: {}\n",
    "nul-bytes": b"territories:\x00 {}\n",
    "board-without-epochs": BOARD.replace(b"epochs:", b"epochz:"),
    "board-with-a-bad-neighbor": BOARD.replace(b"neighbors: [2, 3, 4]", b"neighbors: [2, 3, 4, 99]", 1),
    "board-with-text-xy": BOARD.replace(b"xy: [", b"xy: [a, ", 1),
}


def run_board(path: Path) -> tuple[int, str, str]:
    """`companion board --list --board PATH` in this process; fails the test on anything but
    a board listed (exit 0) or one line of refusal (exit 2)."""
    status, out, err = run_cli("board", "--list", "--board", str(path))
    assert "Traceback" not in out + err and "internal error" not in err, err[:800]
    if status == 0:
        assert err == "" and len(out.splitlines()) == 60, err[:800]
        return status, out, err
    assert status == 2, (status, err[:800])
    assert out == "" and err.count("\n") == 1 and err.endswith("\n"), err[:800]
    line = err.replace(str(path), "FILE")  # the tmp path's length is not the loader's
    assert line.startswith("companion board: --board FILE: "), line[:800]
    assert len(line) <= MAX_LINE, line[:800]
    return status, out, err


def random_value(rnd: random.Random, depth: int = 0) -> object:
    """A random YAML-able value: scalars, lists and mappings, now and then board-like keys."""
    kinds = ["int", "str", "float", "bool", "none"] + (["list", "dict", "dict"] if depth < 4 else [])
    kind = rnd.choice(kinds)
    if kind == "int":
        return rnd.choice([0, 1, 60, 61, -1, rnd.randrange(-10**6, 10**6), 2**70])
    if kind == "str":
        return rnd.choice(["steppe", "forest", "all", "none", "", "x" * rnd.randrange(50), "\u2603", "1"])
    if kind == "float":
        return rnd.choice([0.5, float("inf"), float("nan"), 1e308])
    if kind == "bool":
        return rnd.random() < 0.5
    if kind == "none":
        return None
    if kind == "list":
        return [random_value(rnd, depth + 1) for _ in range(rnd.randrange(5))]
    keys = ["territories", "epochs", "name", "outlines", "last_village_bonus", "terrain", "region", "xy",
            "neighbors", "epoch", "chips", "bonus", "favorable", "hostile", 1, 2, 60, 61, 0, "7"]
    return {rnd.choice(keys): random_value(rnd, depth + 1) for _ in range(rnd.randrange(6))}


def seeded_file(rnd: random.Random) -> bytes:
    kind = rnd.randrange(4)
    if kind == 0:  # text
        alphabet = "abc xyz:-[]{}#\n\t'\"0123456789\u00e9\u2603"
        return "".join(rnd.choice(alphabet) for _ in range(rnd.randrange(400))).encode("utf-8")
    if kind == 1:  # binary
        return bytes(rnd.randrange(256) for _ in range(rnd.randrange(600)))
    if kind == 2:  # YAML of the wrong shape (or, by chance, of a board's top level)
        value = random_value(rnd)
        if rnd.random() < 0.5:
            value = {"territories": value, "epochs": random_value(rnd), "name": random_value(rnd)}
        return yaml.safe_dump(value, allow_unicode=True).encode("utf-8")
    return mutation.mutate(BOARD, rnd, b"[]{}&*:-!|>'\"\n\t #%@`0123456789",
                           [b"&x ", b"*x", b"!!python/object:os.system ", b"9" * 4400, b"[" * 200, b"{", b": "])


@pytest.mark.parametrize("name", sorted(NAMED))
def test_named_files_that_are_no_board_are_one_line_and_exit_2(tmp_path, name):
    path = tmp_path / "board.yaml"
    path.write_bytes(NAMED[name])
    assert run_board(path)[0] == 2


def test_the_shipped_boards_source_is_a_board(tmp_path):
    path = tmp_path / "board.yaml"
    path.write_bytes(BOARD)
    assert run_board(path)[0] == 0


def test_seeded_random_files_are_a_board_or_one_line_and_exit_2(tmp_path):
    rnd = random.Random(20261207)
    path = tmp_path / "board.yaml"
    seen = {0: 0, 2: 0}
    for case in range(CASES):
        data = seeded_file(rnd)
        path.write_bytes(data)
        t0 = time.process_time()
        try:
            seen[run_board(path)[0]] += 1
        except AssertionError as exc:
            raise AssertionError(f"case {case}: {data[:300]!r}: {exc}") from None
        assert time.process_time() - t0 < cpu_budget(10.0), f"case {case} took over 10 s of CPU"
    assert seen[2] > CASES // 2  # the files reach the checks


def test_a_directory_a_fifo_and_a_missing_file_are_one_line_and_exit_2(tmp_path):
    for path in (tmp_path, tmp_path / "absent.yaml"):
        status, out, err = run_cli("board", "--list", "--board", str(path))
        assert (status, out) == (2, "") and err.count("\n") == 1 and "Traceback" not in err, err
    fifo = tmp_path / "in.fifo"  # no writer: opening it to read would wait for ever (a real process, a time-out)
    os.mkfifo(fifo)
    res = subprocess.run([sys.executable, "-m", "companion", "board", "--list", "--board", str(fifo)],
                         capture_output=True, text=True, timeout=60, check=False)
    assert (res.returncode, res.stdout) == (2, "") and res.stderr.count("\n") == 1, res.stderr
    assert "not a regular file" in res.stderr


def test_readme_as_a_board_in_a_real_process():
    res = subprocess.run([sys.executable, "-m", "companion", "board", "--list", "--board", "README.md"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert (res.returncode, res.stdout) == (2, "") and res.stderr.count("\n") == 1, res.stderr
    assert res.stderr.startswith("companion board: --board README.md: not a board file"), res.stderr
    assert "leave out --board" in res.stderr
