"""Key tokens: the keypad byte filter and the terminal key decoder."""

from __future__ import annotations

import io
import logging
import os
import threading
import queue
import random
import termios
import time

import pytest

from companion.table import keys
from companion.table.keys import KeyFilter, normalize_token
from companion.hw.terminal import KeyDecoder, open_terminal


def test_filter_keeps_keys_in_order_and_ignores_whitespace():
    f = KeyFilter()
    assert f.feed(b"12#13#\r\n") == ["1", "2", "#", "1", "3", "#"]
    assert f.feed(b" 0 9 * ") == ["0", "9", "*"]
    assert f.dropped == 0


def test_filter_lowercase_letters_are_uppercase_keys():
    assert KeyFilter().feed(b"abcdABCD") == list("ABCDABCD")


def test_filter_drops_and_counts_other_bytes():
    f = KeyFilter()
    assert f.feed(b"1e\x00\xff\t2E+") == ["1", "2"]
    assert f.dropped == 6


def test_filter_accepts_str():
    assert KeyFilter().feed("7#") == ["7", "#"]


def test_every_byte_value_maps_to_a_key_or_nothing():
    f = KeyFilter()
    out = []
    for b in range(256):
        out.extend(f.feed(bytes([b])))
    assert sorted(out) == sorted(list("0123456789#*ABCD") + list("ABCD"))
    assert f.dropped == 256 - 20 - 3          # 20 key bytes, CR LF space


def test_random_storm_matches_an_independent_mapping():
    rng = random.Random(7)
    data = bytes(rng.randrange(256) for _ in range(10_000))
    mapping = {ord(c): c for c in "0123456789#*ABCD"} | {ord(c): c.upper() for c in "abcd"}
    expected = [mapping[b] for b in data if b in mapping]
    assert KeyFilter().feed(data) == expected


def test_dropped_bytes_warning_is_rate_limited(caplog):
    t = [0.0]
    f = KeyFilter(source="keypad test", warn_every=10.0, clock=lambda: t[0])
    caplog.set_level(logging.WARNING, logger="companion.hw.keys")
    for _ in range(50):
        f.feed(b"\xff")
        t[0] += 0.1
    assert len(caplog.records) == 1
    t[0] += 10
    f.feed(b"zz")
    assert len(caplog.records) == 2
    assert "keypad test" in caplog.records[1].getMessage()
    assert f.dropped == 52


def test_tokens_include_power_and_quit():
    assert normalize_token("POWER") == keys.POWER
    assert normalize_token("QUIT") == keys.QUIT
    assert normalize_token("b") == "B"
    assert normalize_token("#") == "#"
    assert normalize_token("E") is None
    assert normalize_token("POWEROFF") is None
    assert frozenset(keys.KEYPAD) == frozenset("0123456789#*ABCD")


# --- terminal -----------------------------------------------------------------

def test_decoder_arrows_enter_backspace_shortcuts():
    d = KeyDecoder(tty=True)
    got = d.feed(b"\x1b[A\x1b[B\x1bOA\r\n\x7f\x08umq12#c")
    assert got == ["A", "B", "A", "#", "#", "*", "*", "C", "D", "QUIT", "1", "2", "#", "C"]


def test_decoder_split_sequences_and_lone_escape():
    d = KeyDecoder(tty=True)
    assert d.feed(b"\x1b") == []
    assert d.feed(b"[") == []
    assert d.feed(b"B") == ["B"]
    assert d.feed(b"\x1b[3~\x1b[C5") == ["5"]     # Delete, Right: ignored
    assert d.feed(b"\x1b") == []
    assert d.flush() == ["*"]                     # Esc alone = BACK
    assert d.feed(b"\x1b9") == ["*", "9"]


def test_decoder_line_mode_ignores_line_ends():
    d = KeyDecoder(tty=False)
    assert d.feed(b"12#13#\n") == ["1", "2", "#", "1", "3", "#"]
    assert d.feed(b"q\r\n") == ["QUIT"]


def test_terminal_not_a_tty_reads_lines_and_sets_eof():
    q: queue.Queue = queue.Queue()
    term = open_terminal(q.put, io.StringIO("12#13#\nu\n"))
    assert not term.is_tty
    term.start()
    assert term.eof.wait(2)
    term.close()
    assert list(q.queue) == ["1", "2", "#", "1", "3", "#", "C"]


def test_terminal_tty_cbreak_keys_and_restore():
    master, slave = os.openpty()
    stream = os.fdopen(slave, "r")
    before = termios.tcgetattr(slave)
    q: queue.Queue = queue.Queue()
    term = open_terminal(q.put, stream)
    try:
        assert term.is_tty
        term.start()
        during = termios.tcgetattr(slave)
        assert not during[3] & termios.ICANON and not during[3] & termios.ECHO
        # No newline: only cbreak mode delivers these at once.
        os.write(master, b"\x1b[A4\x1b")
        got = []
        deadline = time.monotonic() + 3
        while len(got) < 3 and time.monotonic() < deadline:
            try:
                got.append(q.get(timeout=0.1))
            except queue.Empty:
                pass
        assert got == ["A", "4", "*"]
    finally:
        term.close()
        after = termios.tcgetattr(slave)
        stream.close()
        os.close(master)
    assert after == before


def test_terminal_restores_even_if_put_breaks():
    master, slave = os.openpty()
    stream = os.fdopen(slave, "r")
    before = termios.tcgetattr(slave)
    calls = []
    both = threading.Event()

    def put(key):
        calls.append(key)
        if len(calls) == 2:
            both.set()
        raise RuntimeError("consumer bug")

    term = open_terminal(put, stream)
    try:
        term.start()
        os.write(master, b"12")
        assert both.wait(20)  # the second key arrived although the first put raised
        assert calls == ["1", "2"]
    finally:
        term.close()
        after = termios.tcgetattr(slave)
        stream.close()
        os.close(master)
    assert after == before


@pytest.mark.parametrize("data", [b"\x1b[", b"\x1bO", b"\x1b[1;5"])
def test_decoder_incomplete_sequences_do_not_emit(data):
    d = KeyDecoder(tty=True)
    assert d.feed(data) == []
    assert d.flush() == []
