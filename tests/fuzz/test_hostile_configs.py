"""Hostile config files: every one is loaded or refused in one short line, in bounded time.

The seeded mutations (COMPANION_FUZZ_CASES of them, 300 by default; set it higher to run
more by hand) flip, insert, delete and repeat bytes of the example config; the named
cases are the ones a hostile tester found crashing or hanging the loader.
"""

from __future__ import annotations

import os
import random
import time

import pytest

from tests.fuzz import mutation
from tests.cpu_budget import cpu_budget

from companion.box.config import EXAMPLE_YAML, ConfigError, load_config

CASES = int(os.environ.get("COMPANION_FUZZ_CASES", "300"))
MAX_LINE = 200

NAMED = {
    "invalid-utf8": b"display:\n  driver: \xff\xfe dummy\n",
    "deep-nesting": b"a: " + b"[" * 5000 + b"]" * 5000 + b"\n",
    "deep-mapping": b"".join(b"  " * i + b"k:\n" for i in range(300)),
    "long-number": b"idle_dim_seconds: " + b"9" * 5000 + b"\n",
    "long-key": b"x" * 100_000 + b": 1\n",
    "syntax-error": b"display:\n  driver: [dummy\n buttons: {\n",
    "billion-laughs": (b'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
                       + b"".join(b"%c: &%c [%s]\n" % (c, c, b",".join([b"*" + bytes([c - 1])] * 9))
                                  for c in range(ord("b"), ord("j")))),
    "huge-file": b"# " + b"x" * (2 << 20) + b"\n",
    "tab-indent": b"display:\n\tdriver: dummy\n",
    "not-a-mapping": b"- 1\n- 2\n",
    "nul-bytes": b"display:\x00\n  driver: dummy\n",
}


def mutate(data: bytes, rnd: random.Random) -> bytes:
    return mutation.mutate(data, rnd, b"[]{}&*:-!|>'\"\n\t #%@`0123456789",
                           [b"&x ", b"*x", b"!!python/object:os.system ", b"9" * 4400, b"[" * 200])


def check_one(path, data: bytes) -> str:
    """Load `data` as a config: 'ok' or 'refused'; fails the test on a traceback, a long message or a hang."""
    path.write_bytes(data)
    t0 = time.process_time()
    try:
        load_config(str(path))
        outcome = "ok"
    except ConfigError as exc:
        message = str(exc).replace(str(path), "config.yaml")  # the tmp path's length is not the loader's
        assert "\n" not in message and len(message) <= MAX_LINE, message[:500]
        outcome = "refused"
    assert time.process_time() - t0 < cpu_budget(10.0), "a config took more than 10 s of CPU (here) to load"
    return outcome


@pytest.mark.parametrize("name", sorted(NAMED))
def test_named_hostile_configs_are_refused_in_one_line(tmp_path, name):
    assert check_one(tmp_path / "config.yaml", NAMED[name]) == "refused"


def test_seeded_mutations_never_crash(tmp_path):
    rnd = random.Random(20261124)
    seen = {"ok": 0, "refused": 0}
    for _ in range(CASES):
        seen[check_one(tmp_path / "config.yaml", mutate(EXAMPLE_YAML.encode(), rnd))] += 1
    assert seen["refused"] > CASES // 3  # the mutations do reach the checks


def test_errors_say_where_in_one_line(tmp_path):
    p = tmp_path / "c.yaml"
    p.write_bytes(NAMED["syntax-error"])
    with pytest.raises(ConfigError, match=r"c\.yaml: not valid YAML: .* at line \d+ column \d+$"):
        load_config(str(p))
    p.write_bytes(NAMED["billion-laughs"])
    with pytest.raises(ConfigError, match="aliases"):
        load_config(str(p))
    p.write_bytes(b"idle_dim_seconds: '" + b"x" * 5000 + b"'\n")
    with pytest.raises(ConfigError, match=r"idle_dim_seconds: 'xxx.*\.\.\. is not"):
        load_config(str(p))
