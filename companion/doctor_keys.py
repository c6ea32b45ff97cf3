"""`companion doctor --keys`: press each button / key as the OLED asks.

The screen shows the next key to press and how many are done; a key that
arrives from any configured input (serial keypad, USB keypad, GPIO buttons,
encoder, or the terminal on a laptop) is ticked off, whatever the order. The
test ends when every expected key was seen (exit 0) or on timeout (exit 1,
naming the keys never seen). Keys come in through `KeyTest.put`, the same
`put(key)` the input adapters call in the daemon, so a test drives it
headless: feed the keys, read the frames on luma's dummy device.
"""

from __future__ import annotations

import argparse
import queue
import sys
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Sequence

from companion.config import Config, ConfigError, display_drivers, load_config
from companion.table.keys import KEYPAD, POWER, QUIT, normalize_token

# what each key is called on a box with buttons
KEY_NAMES = {"A": "A / UP", "B": "B / DOWN", "#": "# / OK", "*": "* / BACK", "D": "D / MENU"}


def expected_keys(cfg: Config) -> list[str]:
    """The keys the configured inputs can produce, in keypad order (POWER, a 4 s hold, is left out).
    With no input configured (a laptop), the terminal's: the whole keypad."""
    keys: set[str] = set()
    b = cfg.buttons
    if b is not None and b.enabled is not False:
        from companion.hw.buttons import ROLE_KEYS

        keys |= {ROLE_KEYS[role] for role in b.pins()}
    if cfg.encoder is not None:
        keys |= {"A", "B"} | ({"#"} if cfg.encoder.push is not None else set())
    if cfg.keypad is not None:
        keys |= set(KEYPAD)
    if cfg.usb_keypad is not None:
        keys |= set(KEYPAD) | set(cfg.usb_keypad.keymap.values())   # the keymap adds to the built-in map
    keys.discard(POWER)
    return [k for k in KEYPAD if k in keys] or list(KEYPAD)


@dataclass
class KeyTest:
    """The key test: `put()` keys (from any thread), `run()` until all are seen or `timeout`."""

    expected: Sequence[str]
    sink: Any = None
    timeout: float = 120.0
    clock: Callable[[], float] = time.monotonic
    out: Any = None
    keys: "queue.Queue[str]" = field(default_factory=queue.Queue)
    seen: list[str] = field(default_factory=list)
    strays: list[str] = field(default_factory=list)

    def put(self, key: str) -> None:
        """What an input adapter calls for each key."""
        self.keys.put(key)

    @property
    def missing(self) -> list[str]:
        """Expected keys not pressed yet, in order."""
        return [k for k in self.expected if k not in self.seen]

    def screen(self, note: str = "") -> Any:
        """The screen for now: the next key, the count, the last event."""
        from companion.table.screen import text_screen

        missing = self.missing
        done = f"{len(self.seen)}/{len(self.expected)} keys OK"
        if not missing:
            return text_screen("doctor-keys", "Key test", ["All keys work.", done])
        nxt = KEY_NAMES.get(missing[0], missing[0])
        return text_screen("doctor-keys", "Key test", [f"Press {nxt}", done, note,
                                                       "left: " + " ".join(missing)])

    def show(self, note: str = "") -> None:
        """Draw the current screen on the sink (if any)."""
        if self.sink is None:
            return
        from companion.table.render import render

        self.sink.show(render(self.screen(note)))

    def say(self, line: str) -> None:
        if self.out is not None:
            print(line, file=self.out, flush=True)

    def take(self, raw: str) -> str:
        """Handle one key; returns the note shown under the count."""
        key = normalize_token(raw) if isinstance(raw, str) else None
        if key in self.expected and key not in self.seen:
            self.seen.append(key)
            self.say(f"ok    {key} ({len(self.seen)}/{len(self.expected)})")
            return f"{key} OK"
        if key in self.seen:
            return f"{key} again: OK"
        self.strays.append(str(raw))
        self.say(f"other {raw!r}: not one of the expected keys")
        return f"got {str(raw)[:8]}"

    def run(self) -> bool:
        """Until every key was seen (True) or the timeout (False)."""
        deadline = self.clock() + self.timeout
        self.say("press: " + " ".join(self.expected))
        self.show()
        while self.missing:
            left = deadline - self.clock()
            if left <= 0:
                break
            try:
                raw = self.keys.get(timeout=min(left, 0.5))
            except queue.Empty:
                continue
            if raw == QUIT:
                break
            self.show(self.take(raw))
        self.show()
        return not self.missing


class _Inputs:
    """What companion.daemon.open_inputs needs of a daemon: `put`, `inputs`, `terminal`."""

    def __init__(self, put: Callable[[str], None]) -> None:
        self.put = put
        self.inputs: list[Any] = []
        self.terminal: Any = None


def run_key_test(cfg: Config, sink: Any, *, timeout: float = 120.0, emulated: bool | None = None,
                 out: Any = None, clock: Callable[[], float] = time.monotonic,
                 opener: Callable[[Any, Config, bool], None] | None = None) -> KeyTest:
    """Open the configured inputs onto a KeyTest, run it on `sink`, close them; returns the test.
    `opener(shim, cfg, emulated)` opens the inputs (default: the daemon's `open_inputs`)."""
    from companion.daemon import open_inputs
    from companion.hw.platform import is_raspberry_pi

    test = KeyTest(expected_keys(cfg), sink, timeout=timeout, clock=clock, out=out)
    shim = _Inputs(test.put)
    (opener or open_inputs)(shim, cfg, not is_raspberry_pi() if emulated is None else emulated)
    try:
        for adapter in shim.inputs:
            adapter.start()
        test.run()
    finally:
        for adapter in shim.inputs:
            try:
                adapter.close()
            except Exception:
                pass
    return test


def main_keys(args: argparse.Namespace) -> int:
    """`companion doctor --keys`: exit 0 when every key arrived, 1 otherwise."""
    from companion.hw.display import open_display
    from companion.hw.platform import is_raspberry_pi

    try:
        cfg = load_config(args.config)
    except ConfigError as e:
        print(f"companion doctor: {e}", file=sys.stderr)
        return 2
    driver = args.display
    if driver is not None and driver not in display_drivers():
        print(f"companion doctor: --display {driver}: one of {', '.join(display_drivers())}", file=sys.stderr)
        return 2
    if driver is None and cfg.source == "<defaults>" and not is_raspberry_pi():
        driver = "dummy"     # a laptop without config: the lines printed here are the screen
    dcfg = cfg.display if driver is None else replace(cfg.display, driver=driver)
    if dcfg.driver == "png" and not dcfg.frames_dir:
        dcfg = replace(dcfg, driver="dummy")
    sink = open_display(dcfg)
    try:
        test = run_key_test(cfg, sink, timeout=args.timeout, out=sys.stdout)
    finally:
        sink.close()
    if test.missing:
        print(f"FAIL  keys: never seen: {' '.join(test.missing)}: check the wiring of those buttons "
              "(BCM pin to GND) or the keypad's cable")
        return 1
    print(f"OK    keys: all {len(test.expected)} keys work")
    return 0
