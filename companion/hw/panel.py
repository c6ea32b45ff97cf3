"""The panel: what stands between a rendered frame and the display sink on a kiosk.

- brightness level 1..5 -> the OLED's contrast;
- idle: dim after `dim_after` seconds without a key, off after `off_after`. The key that
  wakes a dark panel is swallowed (nobody acts on a key they could not see); on a dimmed
  panel the screen was readable, so the key counts. The sink is told the idle state
  (`set_idle`): the terminal shows a dimmed or dark panel as such;
- pixel shift against burn-in: every SHIFT_EVERY_S the frame moves by one pixel in
  a small square (the screens keep a 1-pixel margin). The sink moves it (`set_shift`):
  an SSD1306 or SH1106 moves the rows itself, so its RAM stays aligned to its pages and a
  key costs the same bytes on the bus whatever the shift (`companion.hw.oled_window`);
  other sinks draw the moved picture (`shift_image`).

Pure timing from an injected clock; the sink does the I/O (and survives unplugging).
"""

from __future__ import annotations

import time
from typing import Any, Callable

CONTRAST = (16, 64, 128, 200, 255)  # brightness level 1..5
SHIFTS = ((0, 0), (1, 0), (1, 1), (0, 1))  # pixel-shift positions, cycled against OLED burn-in
SHIFT_EVERY_S = 120.0


class Panel:
    def __init__(self, sink: Any, *, brightness: int = 4, dim_after: float | None = None,
                 off_after: float | None = None, dim_contrast: int = 16, pixel_shift: bool = False,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.sink = sink
        self.brightness = brightness
        self.dim_after = dim_after
        self.off_after = off_after
        self.dim_contrast = dim_contrast
        self.pixel_shift = pixel_shift
        self.clock = clock
        self.idle = "awake"  # awake | dim | off
        self.last_key = clock()
        self.shift_index = 0
        self.shifted_at = clock()
        self.last_image: Any = None

    @classmethod
    def from_config(cls, sink: Any, cfg: Any, *, headless: bool, brightness: int,
                    clock: Callable[[], float] = time.monotonic) -> "Panel":
        """The kiosk's panel as the config says; headless runs never dim nor shift."""
        kiosk = cfg is not None and not headless
        return cls(sink, brightness=brightness, clock=clock,
                   dim_after=cfg.idle_dim_seconds if kiosk else None,
                   off_after=getattr(cfg, "idle_off_seconds", None) if kiosk else None,
                   dim_contrast=cfg.display.dim_contrast if cfg is not None else 16,
                   pixel_shift=bool(getattr(cfg, "pixel_shift", False)) and kiosk)

    def start(self) -> None:
        self.sink.set_contrast(CONTRAST[self.brightness - 1])

    def show(self, image: Any) -> None:
        self.last_image = image
        self.sink.show(image)

    def set_brightness(self, level: int) -> None:
        self.brightness = level
        if self.idle == "awake":
            self.sink.set_contrast(CONTRAST[level - 1])

    def key(self) -> bool:
        """A key was pressed; True when it only woke a dark panel (the caller drops it)."""
        self.last_key = self.clock()
        if self.idle == "awake":
            return False
        was_off = self.idle == "off"
        if was_off:
            self.sink.set_power(True)
        self.sink.set_contrast(CONTRAST[self.brightness - 1])
        self._set_idle("awake")
        return was_off

    def _set_idle(self, state: str) -> None:
        self.idle = state
        tell = getattr(self.sink, "set_idle", None)  # a sink that shows it (the terminal)
        if tell is not None:
            tell(state)

    def tick(self) -> None:
        """Between keys: dim or switch off when idle, shift the picture now and then."""
        idle_for = self.clock() - self.last_key
        if self.idle == "awake" and self.dim_after is not None and idle_for >= self.dim_after:
            self.sink.set_contrast(self.dim_contrast)
            self._set_idle("dim")
        if self.idle != "off" and self.off_after is not None and idle_for >= self.off_after:
            self.sink.set_power(False)
            self._set_idle("off")
        if self.pixel_shift and self.last_image is not None and self.clock() - self.shifted_at >= SHIFT_EVERY_S:
            self.shift_index = (self.shift_index + 1) % len(SHIFTS)
            self.shifted_at = self.clock()
            self.sink.set_shift(*SHIFTS[self.shift_index])  # the sink shows its last frame moved
        self.sink.tick()

    def set_power(self, on: bool) -> None:
        """The panel on or off now (shutting down: dark before the power goes)."""
        self.sink.set_power(on)
        self._set_idle("awake" if on else "off")

    def close(self) -> None:
        self.sink.close()


def shift_image(image: Any, dx: int, dy: int) -> Any:
    """`image` moved dx pixels right and dy down (negative: left, up); what leaves it is lost,
    what comes in is dark."""
    if not (dx or dy):
        return image
    from PIL import Image

    out = Image.new(image.mode, image.size)
    out.paste(image, (dx, dy))
    return out
