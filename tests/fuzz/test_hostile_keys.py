"""Hostile key scripts (`companion run --keys FILE`): read in bounded memory, refused in one line
when too big, and for every other file exactly the keys the one byte decoder makes of it.

The seeded cases (COMPANION_FUZZ_CASES of them, 300 by default) mix keypad keys, CR/LF/space,
lowercase a-d, binary junk and invalid UTF-8; each is read in-process and compared with
`tokens_from_bytes` (today's behaviour), and a few go through the real `companion run`.
"""

from __future__ import annotations

import logging
import os
import random
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest

from tests.cpu_budget import cpu_budget

from companion.table import keys as K
from companion.util.errors import UsageError
from companion.table.keyscript import MAX_KEY_SCRIPT_BYTES, read_key_script

CASES = int(os.environ.get("COMPANION_FUZZ_CASES", "300"))
MAX_LINE = 200
IN_PROGRESS = Path(__file__).resolve().parent.parent / "data" / "examples" / "in-progress.record.json"
ALPHABETS = [b"0123456789#*ABC", b"0123456789#*ABCabc\r\n ", bytes(range(256)), b"\xff\xfe\x00\x1b[A\xc2\xb2\xe2\x80",
             b"12#13#\n"]


def hostile_script(rnd: random.Random) -> bytes:
    size = rnd.choice((0, 1, 10, 300, 5000, 60_000))
    parts = [bytes(rnd.choice(rnd.choice(ALPHABETS)) for _ in range(size))]
    if rnd.random() < 0.2:
        parts.append(os.urandom(0) + bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 64))))
    return b"".join(parts)


def check_one(path: Path, data: bytes) -> list[str]:
    path.write_bytes(data)
    t0 = time.process_time()
    tokens = read_key_script(str(path))
    assert time.process_time() - t0 < cpu_budget(2.0), "a key script took more than 2 s of CPU (here) to read"
    assert tokens == list(K.tokens_from_bytes(data))  # exactly the decoder's keys, in order
    assert all(K.is_key(t) for t in tokens)
    return tokens


def test_seeded_scripts_are_exactly_the_decoders_keys(tmp_path, caplog):
    rnd = random.Random(20261124)
    keys = junk = 0
    with caplog.at_level(logging.WARNING):
        for _ in range(CASES):
            caplog.clear()
            tokens = check_one(tmp_path / "s.keys", hostile_script(rnd))
            keys += len(tokens)
            for record in caplog.records:  # the warning about dropped bytes: one line, short
                line = record.getMessage().replace(str(tmp_path / "s.keys"), "s.keys")
                assert "\n" not in line and len(line) <= MAX_LINE, line[:500]
                junk += 1
    print(f"hostile key scripts: {CASES} cases, {keys} keys, {junk} with junk dropped, 0 tracebacks")
    assert keys > 0 and junk > 0


def test_a_script_of_exactly_the_cap_is_read(tmp_path):
    data = b"1#" * (MAX_KEY_SCRIPT_BYTES // 2)
    assert len(check_one(tmp_path / "k", data)) == MAX_KEY_SCRIPT_BYTES


def test_a_script_over_the_cap_is_refused_in_one_line(tmp_path):
    path = tmp_path / "big.keys"
    path.write_bytes(b"1" * (MAX_KEY_SCRIPT_BYTES + 1))
    with pytest.raises(UsageError) as info:
        read_key_script(str(path))
    message = str(info.value)
    assert message.startswith(f"{path}: key script larger than 1024 KB")
    assert "\n" not in message and len(message) - len(str(path)) <= MAX_LINE


def test_a_huge_script_is_refused_without_reading_it_all(tmp_path):
    path = tmp_path / "huge.keys"
    with open(path, "wb") as f:
        f.truncate(256 << 20)  # sparse: 256 MB of NUL bytes, no disk used
    tracemalloc.start()
    try:
        with pytest.raises(UsageError, match="larger than"):
            read_key_script(str(path))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 << 20, f"reading a refused key script took {peak >> 20} MB"


@pytest.mark.parametrize("make", ["missing", "directory"])
def test_an_unreadable_script_is_refused_in_one_line(tmp_path, make):
    path = tmp_path / "k"
    if make == "directory":
        path.mkdir()
    with pytest.raises(UsageError, match=rf"^{path}: cannot read keys: [^\n]+$"):
        read_key_script(str(path))


def test_every_junk_byte_is_dropped_and_named_in_one_short_line(tmp_path, caplog):
    path = tmp_path / "junk.keys"
    junk = bytes(b for b in range(256) if chr(b) not in "0123456789#*ABCDabcd\r\n ")
    with caplog.at_level(logging.WARNING):
        assert check_one(path, junk * 3 + b"12#") == ["1", "2", "#"]
    (line,) = [r.getMessage() for r in caplog.records]
    assert line.startswith(f"keys {path}: ignored unknown bytes 0x00 0x01 ")
    assert line.endswith(f" and {len(junk) - 16} more") and len(line) - len(str(path)) <= MAX_LINE


def test_the_daemon_reads_key_scripts_with_this_module():
    import companion.kiosk.daemon

    assert companion.kiosk.daemon.read_key_script is read_key_script


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, timeout=120)


def test_an_oversized_script_through_the_command_line(tmp_path):
    keys = tmp_path / "big.keys"
    keys.write_bytes(b"\xff" * (MAX_KEY_SCRIPT_BYTES + 1))  # junk: an unguarded daemon reads it fast, and exits 0
    res = run_cli("run", "--display", "dummy", "--keys", str(keys), "--load", str(IN_PROGRESS))
    err = res.stderr.decode("utf-8", "replace")
    assert res.returncode == 2 and "Traceback" not in err, (res.returncode, err[-1000:])
    (line,) = err.strip().splitlines()
    assert line.startswith(f"companion run: {keys}: key script larger than 1024 KB")


def test_seeded_scripts_through_the_command_line(tmp_path):
    """A few hostile scripts (a few thousand bytes each) played by the real daemon on a loaded game."""
    rnd = random.Random(7)
    keys = tmp_path / "s.keys"
    for alphabet in ALPHABETS[:4]:
        keys.write_bytes(bytes(rnd.choice(alphabet) for _ in range(3000)))
        res = run_cli("run", "--display", "dummy", "--keys", str(keys), "--load", str(IN_PROGRESS))
        err = res.stderr.decode("utf-8", "replace")
        assert res.returncode == 0 and "Traceback" not in err, (res.returncode, err[-1000:])
        assert all(len(line) - len(str(keys)) <= MAX_LINE for line in err.splitlines()), err[:1000]
