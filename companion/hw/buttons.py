"""GPIO buttons and an optional rotary encoder, as key tokens.

Buttons are wired from a BCM pin to ground (internal pull-up, active low):
UP -> "A", DOWN -> "B", OK -> "#", BACK -> "*", MENU -> "D". A long press on
BACK (``long_press_s``) gives "D" (the menu) instead of "*", a long press on MENU
"REPEAT" (the last announcement again) instead of "D"; holding BACK or MENU for
``power_press_s`` gives "POWER" (safe shutdown) while still held.
An encoder turn gives "B" (clockwise, next choice) or "A" (counter-clockwise),
its push switch "#".

Debouncing is done here, not by gpiozero's ``bounce_time`` (which MockPin
ignores, and which drops the edge that ends a bounce): a change counts only
once the pin has been stable for ``bounce_ms``, measured with an injectable
clock. gpiozero's callbacks run on its background thread (lgpio has a single
one that dies on an uncaught exception), so they only record the edge; our
own ticker thread turns stable edges into keys and calls ``put``. Every call
that could raise is wrapped and logged.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from typing import Any, Callable

from companion.hw.platform import is_raspberry_pi, prepare_lgpio
from companion.hw.settings import ButtonsConfig, EncoderConfig
from companion.table.keys import BACK, DOWN, MENU, OK, POWER, REPEAT, UP

log = logging.getLogger(__name__)

Put = Callable[[str], Any]

ROLE_KEYS = {"up": UP, "down": DOWN, "ok": OK, "back": BACK, "menu": MENU}
TICK_S = 0.005


def buttons_wanted(bcfg: ButtonsConfig | None, on_pi: bool | None = None) -> bool:
    """Whether GPIO buttons should be opened: ``enabled: true``, or
    ``auto`` on a Raspberry Pi (or with GPIOZERO_PIN_FACTORY=mock on a laptop;
    the unit's GPIOZERO_PIN_FACTORY=lgpio alone does not make a Debian PC a Pi)."""
    if bcfg is None or bcfg.enabled is False:
        return False
    if bcfg.enabled is True:
        return True
    if os.environ.get("GPIOZERO_PIN_FACTORY") == "mock":
        return True
    return is_raspberry_pi() if on_pi is None else on_pi


class _Debouncer:
    """Time-based debounce and press-length logic for one switch.

    Pure: fed edges and times, returns key tokens. ``release_key`` set means
    the key is decided on release (short -> press_key, held >= long_s ->
    long_key); otherwise press_key is emitted when the press is stable.
    """

    def __init__(self, name: str, press_key: str, bounce_s: float, *,
                 on_release: bool = False, long_key: str | None = None,
                 long_s: float | None = None, power_s: float | None = None,
                 pressed: bool = False) -> None:
        self.name = name
        self.press_key = press_key
        self.bounce_s = bounce_s
        self.on_release = on_release
        self.long_key = long_key
        self.long_s = long_s
        self.power_s = power_s
        self.raw = self.stable = pressed
        self.changed_at = float("-inf")
        self.pressed_at = 0.0
        # Held down at start (or stuck): ignore it until it is released.
        self.suppress = pressed
        self.power_sent = False

    def edge(self, pressed: bool, now: float) -> None:
        self.raw = pressed
        # Any edge restarts the stability timer, even one that seems to
        # repeat the state (its opposite edge was missed).
        self.changed_at = now

    def poll(self, now: float) -> tuple[list[str], bool]:
        """Keys due at `now`, and whether a timer is still running."""
        out: list[str] = []
        if self.raw != self.stable and now - self.changed_at >= self.bounce_s:
            self.stable = self.raw
            if self.stable:
                self.pressed_at = self.changed_at
                self.power_sent = False
                if not self.suppress and not self.on_release:
                    out.append(self.press_key)
            elif self.suppress:
                self.suppress = False
            elif self.on_release and not self.power_sent:
                held = self.changed_at - self.pressed_at
                long = self.long_s is not None and held >= self.long_s
                out.append(self.long_key if long and self.long_key else self.press_key)
        holding = self.stable and self.raw and not self.suppress and not self.power_sent
        if holding and self.power_s is not None and now - self.pressed_at >= self.power_s:
            out.append(POWER)
            self.power_sent = True
        busy = self.raw != self.stable or (
            self.stable and not self.suppress and self.power_s is not None
            and not self.power_sent)
        return out, busy


class Buttons:
    """GPIO buttons (+ encoder); build with `open_buttons`.

    `start()` runs the ticker thread; tests may instead call `poll()` with
    an injected clock. `close()` releases the pins and stops the thread.
    """

    def __init__(self, bcfg: ButtonsConfig | None, ecfg: EncoderConfig | None,
                 put: Put, *, clock: Callable[[], float] = time.monotonic,
                 pin_factory: Any = None) -> None:
        self._put = put
        self._clock = clock
        self._pin_factory = pin_factory
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._devices: list[Any] = []
        self._switches: dict[str, _Debouncer] = {}
        self.put_errors = 0
        try:
            if bcfg is not None:
                self._open_buttons(bcfg)
            if ecfg is not None:
                self._open_encoder(ecfg, bcfg)
        except BaseException:
            self.close()
            raise

    # --- construction -------------------------------------------------------
    def _button(self, pin: int) -> Any:
        # Lazy import: gpiozero costs start-up time on a Pi Zero. Button's
        # base class, because Button adds a hold thread per pin that we do
        # not need (holds are timed here) and that makes close() wait up to
        # hold_time while a button is down.
        from gpiozero import DigitalInputDevice
        prepare_lgpio()
        return DigitalInputDevice(pin, pull_up=True, bounce_time=None,
                                  pin_factory=self._pin_factory)

    def _add_switch(self, name: str, pin: int, deb_kwargs: dict[str, Any]) -> None:
        dev = self._button(pin)
        self._devices.append(dev)
        self._switches[name] = _Debouncer(name, pressed=bool(dev.is_active), **deb_kwargs)
        dev.when_activated = lambda: self._on_edge(name, True)
        dev.when_deactivated = lambda: self._on_edge(name, False)

    def _open_buttons(self, b: ButtonsConfig) -> None:
        bounce = b.bounce_ms / 1000.0
        for role, pin in b.pins().items():
            kw: dict[str, Any] = {"press_key": ROLE_KEYS[role], "bounce_s": bounce}
            if role == "back":
                kw.update(on_release=True, long_key=MENU, long_s=b.long_press_s,
                          power_s=b.power_press_s)
            elif role == "menu":
                kw.update(on_release=True, long_key=REPEAT, long_s=b.long_press_s, power_s=b.power_press_s)
            self._add_switch(role, pin, kw)
        log.info("buttons on BCM %s", ", ".join(f"{r}={p}" for r, p in b.pins().items()))

    def _open_encoder(self, e: EncoderConfig, b: ButtonsConfig | None) -> None:
        from gpiozero import RotaryEncoder
        prepare_lgpio()
        enc = RotaryEncoder(e.a, e.b, max_steps=0, bounce_time=None,
                            pin_factory=self._pin_factory)
        self._devices.append(enc)
        # The quadrature state machine in RotaryEncoder already rejects
        # contact bounce, so turns go straight to put().
        enc.when_rotated_clockwise = lambda: self._emit(DOWN)
        enc.when_rotated_counter_clockwise = lambda: self._emit(UP)
        if e.push is not None:
            bounce = (b.bounce_ms if b else ButtonsConfig.bounce_ms) / 1000.0
            self._add_switch("push", e.push, {"press_key": OK, "bounce_s": bounce})
        log.info("rotary encoder on BCM a=%s b=%s push=%s", e.a, e.b, e.push)

    # --- callbacks (gpiozero's thread) ----------------------------------------
    def _on_edge(self, name: str, pressed: bool) -> None:
        try:
            with self._lock:
                self._switches[name].edge(pressed, self._clock())
            self._wake.set()
        except Exception:
            log.exception("button %s: edge handling failed", name)

    def _emit(self, key: str) -> None:
        try:
            self._put(key)
        except Exception:
            self.put_errors += 1
            log.exception("button key %r: put failed", key)

    # --- timers ---------------------------------------------------------------
    def poll(self) -> bool:
        """Emit the keys that are due; True while a timer is running."""
        now = self._clock()
        keys: list[str] = []
        busy = False
        with self._lock:
            for sw in self._switches.values():
                out, b = sw.poll(now)
                keys.extend(out)
                busy = busy or b
        for key in keys:
            self._emit(key)
        return busy

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.clear()
            try:
                busy = self.poll()
            except Exception:
                log.exception("buttons: poll failed")
                busy = True
            self._wake.wait(TICK_S if busy else None)

    def start(self) -> None:
        """Start the ticker thread (idempotent)."""
        if self._thread is None and self._switches:
            self._thread = threading.Thread(target=self._run, name="buttons", daemon=True)
            self._thread.start()

    def close(self) -> None:
        """Stop the thread and release the pins (idempotent)."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1.0)
        for dev in self._devices:
            try:
                dev.close()
            except Exception:
                log.exception("closing %r failed", dev)
        self._devices = []

    def __enter__(self) -> "Buttons":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def switches(self) -> tuple[str, ...]:
        """Names of the debounced switches in use (up, down, ..., push)."""
        return tuple(self._switches)


def open_buttons(cfg: Any, put: Put, *,
                 encoder: EncoderConfig | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 pin_factory: Any = None, on_pi: bool | None = None) -> Buttons:
    """Open the configured GPIO buttons (if `buttons_wanted`) and encoder.

    `cfg` is the whole Config or just its buttons section (then pass the
    encoder section as `encoder`). Keys go to `put`. Raises gpiozero's
    errors (e.g. BadPinFactory, GPIOPinInUse) when the pins cannot be had.
    """
    if hasattr(cfg, "buttons"):  # the whole config
        bcfg, encoder = cfg.buttons, cfg.encoder
    else:
        bcfg = cfg
    if not buttons_wanted(bcfg, on_pi):
        if bcfg is not None and bcfg.enabled == "auto":
            log.info("buttons: not on a Raspberry Pi, GPIO buttons not opened")
        bcfg = None
    return Buttons(bcfg, encoder, put, clock=clock, pin_factory=pin_factory)
