"""The interactive key test of `companion doctor --keys`: press each button / key as the OLED asks.

The screen shows the next key to press and how many are done; a key that
arrives from any configured input (serial keypad, USB keypad, GPIO buttons,
encoder, or the terminal on a laptop) is ticked off, whatever the order. The
test ends when every expected key was seen (exit 0) or on timeout (exit 1,
naming the keys never seen). It stops at once when no key can come: no input could be
opened (`NO_SOURCE`: a Pi without buttons or keypad, standard input no terminal), or the
only one is standard input that is no terminal and has ended (`INPUT_ENDED`:
`companion doctor --keys </dev/null`); the doctor says so in one line, exit 2. Keys come in through `KeyTest.put`, the same
`put(key)` the input adapters call in the daemon, so a test drives it
headless: feed the keys, read the frames on luma's dummy device.
"""

from __future__ import annotations

import queue
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from companion.box.config import Config
from companion.i18n import N_, _, ngettext
from companion.table.keys import KEYPAD, POWER, QUIT, normalize_token

# what each key is called on a box with buttons (key names before the slash stay as they are)
# NOTE: max 15 characters each (after "Press ", on a 21-character line)
KEY_NAMES = {"A": N_("A / UP"), "B": N_("B / DOWN"), "#": N_("# / OK"), "*": N_("* / BACK"), "D": N_("D / MENU")}
# why the test stopped before its time with keys missing (KeyTest.ended)
NO_SOURCE = "no key source"
INPUT_ENDED = "standard input ended"


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
    # True once no more keys can come (the only input, a piped standard input, has ended)
    inputs_gone: Callable[[], bool] | None = None
    ended: str | None = None  # NO_SOURCE or INPUT_ENDED when it stopped for want of keys

    def put(self, key: Any) -> None:
        """What an input adapter calls for each key (an event that is no key, as its name: "noise")."""
        self.keys.put(key if isinstance(key, str) else str(key))

    @property
    def missing(self) -> list[str]:
        """Expected keys not pressed yet, in order."""
        return [k for k in self.expected if k not in self.seen]

    def screen(self, note: str = "") -> Any:
        """The screen for now: the next key, the count, the last event."""
        from companion.table.screen import text_screen

        missing = self.missing
        # NOTE: max 21 characters, e.g. "12/16 keys OK"
        done = ngettext("{done}/{total} key OK", "{done}/{total} keys OK", len(self.expected)).format(
            done=len(self.seen), total=len(self.expected))
        # NOTE: max 25 characters (title bar)
        title = _("Key test")
        if not missing:
            # NOTE: max 21 characters
            return text_screen("doctor-keys", title, [_("All keys work."), done])
        nxt = _(KEY_NAMES[missing[0]]) if missing[0] in KEY_NAMES else missing[0]
        # NOTE: body lines, max 21 characters ({key}: up to 15; {keys}: the keys not pressed yet, wraps)
        return text_screen("doctor-keys", title, [_("Press {key}").format(key=nxt), done, note,
                                                  _("left: {keys}").format(keys=" ".join(missing))])

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
            # NOTE: a console line; keep "ok" and the spaces after it as wide as in English (6 columns)
            self.say(_("ok    {key} ({done}/{total})").format(key=key, done=len(self.seen),
                                                            total=len(self.expected)))
            # NOTE: max 21 characters ({key} is one key: 0-9 # * A-D)
            return _("{key} OK").format(key=key)
        if key in self.seen:
            # NOTE: max 21 characters ({key} is one key: 0-9 # * A-D)
            return _("{key} again: OK").format(key=key)
        self.strays.append(str(raw))
        self.say(_("other {key}: not one of the expected keys").format(key=repr(raw)))
        # NOTE: max 21 characters ({key}: at most 8 characters)
        return _("got {key}").format(key=str(raw)[:8])

    def run(self) -> bool:
        """Until every key was seen (True) or the timeout (False)."""
        deadline = self.clock() + self.timeout
        self.say(_("press: {keys}").format(keys=" ".join(self.expected)))
        self.show()
        while self.missing:
            left = deadline - self.clock()
            if left <= 0:
                break
            gone = self.inputs_gone is not None and self.inputs_gone()  # its last keys are queued already
            try:
                raw = self.keys.get_nowait() if gone else self.keys.get(timeout=min(left, 0.5))
            except queue.Empty:
                if gone:
                    self.ended = INPUT_ENDED
                    break
                continue
            if raw == QUIT:
                break
            self.show(self.take(raw))
        self.show()
        return not self.missing


class _Inputs:
    """What companion.hw.inputs.open_inputs needs of a daemon: `put`, `inputs`, `terminal`."""

    def __init__(self, put: Callable[[str], None]) -> None:
        self.put = put
        self.inputs: list[Any] = []
        self.terminal: Any = None


def run_key_test(cfg: Config, sink: Any, *, timeout: float = 120.0, emulated: bool | None = None,
                 out: Any = None, clock: Callable[[], float] = time.monotonic,
                 opener: Callable[[Any, Config, bool], None] | None = None) -> KeyTest:
    """Open the configured inputs onto a KeyTest, run it on `sink`, close them; returns the test.
    `opener(shim, cfg, emulated)` opens the inputs (default: `open_inputs`, as `companion run` opens them)."""
    from companion.hw.inputs import open_inputs
    from companion.hw.platform import is_raspberry_pi

    test = KeyTest(expected_keys(cfg), sink, timeout=timeout, clock=clock, out=out)
    shim = _Inputs(test.put)
    (opener or open_inputs)(shim, cfg, not is_raspberry_pi() if emulated is None else emulated)
    if not shim.inputs:
        test.ended = NO_SOURCE
        return test
    terminal = shim.terminal
    if shim.inputs == [terminal] and getattr(terminal, "eof", None) is not None:
        test.inputs_gone = terminal.eof.is_set
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
