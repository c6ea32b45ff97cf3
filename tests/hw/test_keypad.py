"""Serial keypad: framed keys and the one-byte protocol over loop://, a real pty, unplug/replug."""

from __future__ import annotations

import os
import queue
import random
import threading
import time

import pytest

pytest.importorskip("serial")

from companion.box.config import Config, KeypadConfig  # noqa: E402
from companion.hw.keyevents import LineNoise  # noqa: E402
from companion.hw.keyframe import encode  # noqa: E402
from companion.hw.keypad import open_keypad  # noqa: E402
from tests.hw.waiting import WAIT, Backoff, take, wait_until  # noqa: E402

VALID = {**{c: chr(c) for c in b"0123456789#*ABCD"}, **{c: chr(c).upper() for c in b"abcd"}}


def frames(keys: str, first: int = 0) -> bytes:
    """What firmware/serial-keypad sends for `keys` typed in order."""
    return b"".join(encode(k, first + i) for i, k in enumerate(keys))


class Keys:
    """A keypad's `put`: keys on a queue, noise events in a list."""

    def __init__(self) -> None:
        self.q: queue.Queue = queue.Queue()
        self.noise: list[LineNoise] = []

    def put(self, item) -> None:
        if isinstance(item, LineNoise):
            self.noise.append(item)
        else:
            self.q.put(item)


@pytest.fixture
def loop_keypad():
    """A keypad that speaks the old one-byte protocol (named in its config), on loop://."""
    out = Keys()
    kp = open_keypad(Config(keypad=KeypadConfig(port="loop://", protocol="one-byte")), out.put)
    kp.start()
    assert kp.connected.wait(WAIT)
    yield kp, out.q
    kp.close()


@pytest.fixture
def framed_keypad():
    out = Keys()
    kp = open_keypad(Config(keypad=KeypadConfig(port="loop://")), out.put)
    kp.start()
    assert kp.connected.wait(WAIT)
    yield kp, out
    kp.close()


def test_framed_keys_in_order_and_noise_reported(framed_keypad):
    kp, out = framed_keypad
    good = frames("12#C#D")
    # bare key bytes, a frame with a wrong check, a frame cut short: noise, never keys
    kp.connection.write(good[:12] + b"C#xyz" + b"K#0FF\n" + b"K1" + good[12:])
    assert take(out.q, 6) == list("12#C#D")
    assert out.q.empty() and kp.frames.frames == 6
    assert kp.noise == 5 + 6 + 2 and out.noise and out.noise[-1].count == kp.noise


def test_framed_line_sends_no_noise_event(framed_keypad):
    kp, out = framed_keypad
    for i in range(3):  # frames split anywhere across reads are whole keys
        data = frames("0123456789*#ABCD", 16 * i)
        cuts = [0, *range(i + 1, len(data), 5), len(data)]
        for lo, hi in zip(cuts, cuts[1:]):
            kp.connection.write(data[lo:hi])
        assert take(out.q, 16) == list("0123456789*#ABCD")
    assert kp.noise == 0 and out.noise == [] and kp.frames.lost == 0


def test_noise_events_at_most_one_a_second():
    clock = [100.0]
    out = Keys()
    kp = open_keypad(KeypadConfig(port="loop://"), out.put, clock=lambda: clock[0])
    for _ in range(5):
        kp.decode(b"garbage")
    assert len(out.noise) == 1
    clock[0] += 1.0
    kp.decode(b"more")
    assert [n.count for n in out.noise] == [7, 7 * 5 + 4]


def test_one_byte_protocol_only_by_name_with_a_warning(caplog):
    out = Keys()
    framed = open_keypad(KeypadConfig(port="loop://"), out.put)
    assert framed.decode(b"C#") == [] and framed.noise == 2   # an old keypad's keys are noise here
    assert "one-byte" in caplog.text  # the warning names the setting that takes them
    caplog.clear()
    legacy = open_keypad(KeypadConfig(port="loop://", protocol="one-byte"), out.put)
    assert legacy.decode(b"C#") == ["C", "#"]
    assert "noise on the cable can type keys" in caplog.text
    with pytest.raises(ValueError):
        open_keypad(KeypadConfig(port="loop://", protocol="ascii"), out.put)


def test_loop_only_valid_keys_in_order(loop_keypad):
    kp, q = loop_keypad
    # The trailing "D" marks the end: once it arrives, every byte before it has been filtered.
    kp.connection.write(b"12#13#\r\n xyz\x00\xffD")
    assert take(q, 7) == ["1", "2", "#", "1", "3", "#", "D"]
    assert q.empty(), f"unexpected keys: {list(q.queue)}"
    assert kp.filter.dropped == 5      # x y z NUL 0xff; CR LF space ignored


def test_loop_lowercase_letters_and_star(loop_keypad):
    kp, q = loop_keypad
    kp.connection.write(b"abcd*ABCD")
    assert take(q, 9) == list("ABCD*ABCD")
    assert kp.filter.dropped == 0


def test_key_storm_never_raises_and_keeps_every_valid_key(loop_keypad):
    kp, q = loop_keypad
    rng = random.Random(1234)
    data = bytes(rng.randrange(256) for _ in range(10_000))
    expected = [VALID[b] for b in data if b in VALID]
    for i in range(0, len(data), 700):
        kp.connection.write(data[i:i + 700])
    got = take(q, len(expected), timeout=WAIT * 2)
    assert got == expected
    assert kp._thread.is_alive()
    ignored = sum(b in b"\r\n " for b in data)
    assert kp.filter.dropped == len(data) - len(expected) - ignored


def test_put_exception_does_not_stop_reader(loop_keypad):
    kp, _ = loop_keypad
    got = []
    all_three = threading.Event()

    def put(key):
        got.append(key)
        if len(got) == 3:
            all_three.set()
        if key == "1":
            raise RuntimeError("consumer bug")

    kp._put = put
    kp.connection.write(b"123")
    assert all_three.wait(WAIT)
    assert got == ["1", "2", "3"]
    assert kp.put_errors == 1


def _pty_link(link: str) -> int:
    """A new pty pair; `link` (like a /dev/serial/by-id name) points at its
    slave. Returns the master fd."""
    master, slave = os.openpty()
    name = os.ttyname(slave)
    os.close(slave)   # pyserial opens its own slave fd through the link
    tmp = link + ".new"
    os.symlink(name, tmp)
    os.replace(tmp, link)
    return master


def _occupy(tty: str) -> list[int]:
    """Open ptys until one holds the name `tty` (the kernel hands out the lowest free
    number): another device now answers at the old adapter's node."""
    fds: list[int] = []
    while not os.path.exists(tty):
        assert len(fds) < 128, f"{tty} never came back"
        master, slave = os.openpty()
        fds += [master, slave]
    return fds


def test_pty_unplug_backoff_and_replug_under_the_same_link(tmp_path):
    """The adapter is pulled (its by-id link goes, its tty node goes) and comes back as another
    tty under the same link, while another device has taken the old tty's number: the keypad
    must follow the link afresh, not reopen the node it first resolved."""
    link = str(tmp_path / "usb-keypad-if00-port0")
    master: int | None = _pty_link(link)
    old_tty = os.path.realpath(link)
    q: queue.Queue = queue.Queue()
    backoff = Backoff()
    kp = open_keypad(KeypadConfig(port=link), q.put, sleep=backoff.sleep)
    kp.start()
    others: list[int] = []
    try:
        assert kp.connected.wait(WAIT)
        os.write(master, frames("7#"))
        assert take(q, 2) == ["7", "#"]

        os.unlink(link)               # like pulling the USB adapter: udev removes the link
        os.close(master)
        master = None
        backoff.wait_for(1)           # lost; the port is closed before the first backoff
        assert kp._thread.is_alive()
        assert not kp.connected.is_set()
        for _ in range(6):
            backoff.step()            # each retry fails: nothing at the link
        # Exponential backoff from 0.5 s, capped at 10 s.
        assert backoff.delays == [0.5, 1.0, 2.0, 4.0, 8.0, 10.0, 10.0]
        assert kp.failed_attempts == 6 and kp.connects == 1

        others = _occupy(old_tty)     # another pty now answers at the old node
        master = _pty_link(link)      # plugged back in: another tty, the same link
        assert os.path.realpath(link) != old_tty
        backoff.release()
        assert wait_until(lambda: kp.connects == 2)
        assert kp.connected.wait(WAIT)
        os.write(master, frames("12#"))
        assert take(q, 3) == ["1", "2", "#"]
    finally:
        backoff.close()
        kp.close()
        for fd in others + ([master] if master is not None else []):
            os.close(fd)
    assert not kp._thread.is_alive()


def test_backoff_restarts_only_after_a_stable_connection(tmp_path, monkeypatch):
    """A connection that lasted STABLE_S resets the backoff to its start; one that drops at
    once (a flapping adapter) keeps doubling, so it never spins nor floods the log."""
    import types

    from companion.hw import keypad as keypad_mod

    clock = types.SimpleNamespace(t=1000.0)
    monkeypatch.setattr(keypad_mod, "time", types.SimpleNamespace(monotonic=lambda: clock.t))
    link = str(tmp_path / "usb-keypad")
    q: queue.Queue = queue.Queue()
    backoff = Backoff()
    kp = open_keypad(KeypadConfig(port=link), q.put, sleep=backoff.sleep)
    kp.start()
    master = None
    try:
        backoff.wait_for(1)
        backoff.step()
        backoff.step()                         # not there yet: 0.5, 1, 2
        master = _pty_link(link)
        backoff.release()
        assert kp.connected.wait(WAIT)
        clock.t += keypad_mod.STABLE_S         # a connection that lasted
        os.unlink(link)
        os.close(master)
        master = None
        assert backoff.wait_for(4) == [0.5, 1.0, 2.0, 0.5]   # reset
        backoff.step()                         # 1.0: still unplugged
        master = _pty_link(link)
        backoff.release()
        assert wait_until(lambda: kp.connects == 2) and kp.connected.wait(WAIT)
        os.unlink(link)                        # lost again at once: flapping
        os.close(master)
        master = None
        assert backoff.wait_for(6) == [0.5, 1.0, 2.0, 0.5, 1.0, 2.0]  # no reset
    finally:
        backoff.close()
        kp.close()
        if master is not None:
            os.close(master)


def test_missing_port_at_start_retries_then_connects(tmp_path):
    link = str(tmp_path / "not-yet")
    q: queue.Queue = queue.Queue()
    backoff = Backoff()
    kp = open_keypad(KeypadConfig(port=link), q.put, sleep=backoff.sleep, backoff_start=0.1,
                     backoff_max=0.3)
    kp.start()
    master = None
    try:
        backoff.wait_for(1)
        backoff.step()
        backoff.step()
        assert kp.connects == 0
        assert backoff.delays == [0.1, 0.2, 0.3]
        master = _pty_link(link)
        backoff.release()
        assert kp.connected.wait(WAIT)
        os.write(master, frames("C"))
        assert take(q, 1) == ["C"]
    finally:
        backoff.close()
        kp.close()
        if master is not None:
            os.close(master)


def test_close_is_prompt_during_backoff(tmp_path):
    kp = open_keypad(KeypadConfig(port=str(tmp_path / "absent")), lambda k: None,
                     backoff_start=10.0)
    kp.start()
    assert wait_until(lambda: kp.failed_attempts >= 1)   # it is in (or entering) its 10 s backoff
    t0 = time.monotonic()
    kp.close()
    assert time.monotonic() - t0 < 5.0     # not the 10 s backoff
    assert not kp._thread.is_alive()


def test_open_keypad_without_config_is_an_error():
    with pytest.raises(ValueError):
        open_keypad(Config(), lambda k: None)


def test_the_config_names_the_protocol_or_takes_framed(monkeypatch):
    from companion.box.config import ConfigError, load_config_text

    monkeypatch.setenv("COMPANION_ALLOW_LOOP", "1")
    assert load_config_text("keypad: {port: 'loop://'}\n", "t").keypad.protocol == "framed"
    cfg = load_config_text("keypad: {port: 'loop://', protocol: one-byte}\n", "t")
    assert cfg.keypad.protocol == "one-byte"
    with pytest.raises(ConfigError, match="keypad.protocol"):
        load_config_text("keypad: {port: 'loop://', protocol: ascii}\n", "t")


def test_doctors_key_test_says_noise_when_the_line_is_noisy():
    import io

    from companion.box.keytest import KeyTest

    out = io.StringIO()
    test = KeyTest(expected=["1"], out=out)
    test.put(LineNoise("keypad", 3))
    assert test.take(test.keys.get_nowait()) == "got noise"
    assert "'noise'" in out.getvalue()
