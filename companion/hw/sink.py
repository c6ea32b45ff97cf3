"""The display sinks' base (`DisplaySink`): what every sink does with a finished frame, and the
do-nothing sink. Identical consecutive frames are skipped, `show()` never raises, the picture
moves against burn-in (`set_shift`). The sinks themselves: companion.hw.display (luma: the
OLED and `dummy`, and `open_display`), companion.hw.terminal_sink, companion.hw.png_sink.
"""

from __future__ import annotations

import logging
from typing import Any

from companion.hw.panel import shift_image

log = logging.getLogger("companion.hw.display")


class DisplaySink:
    """Base class; also the do-nothing sink. Subclasses override `_write`."""

    device: Any = None
    shift = (0, 0)  # the picture moved (dx, dy) against burn-in

    def __init__(self, width: int = 128, height: int = 64) -> None:
        self.size = (width, height)
        self.contrast = 255
        self.powered = True
        self.frames_shown = 0
        self._last: Any = None
        self._last_key: bytes | None = None

    @staticmethod
    def _key(image: Any) -> bytes:
        return f"{image.mode}{image.size}".encode() + image.tobytes()

    def show(self, image: Any, force: bool = False) -> None:
        """Show a PIL image of `size`; identical frames are skipped unless
        `force`. Never raises."""
        try:
            key = self._key(image)
            if not force and key == self._last_key:
                return
            self._last = image.copy()
            if self._write(self._last):
                self._last_key = key
                self.frames_shown += 1
        except Exception:
            log.exception("display: cannot show a frame")

    def _write(self, image: Any) -> bool:
        """Put the frame out (moved by `shift`: see `_moved`); False if it was not (so it is retried)."""
        return True

    def set_shift(self, dx: int, dy: int) -> None:
        """Move the picture (burn-in care): the last frame now, and every frame after it."""
        if (dx, dy) != self.shift:
            self.shift = (dx, dy)
            if self._last is not None:
                self.show(self._last, force=True)

    def _moved(self, image: Any) -> Any:
        return shift_image(image, *self.shift)

    def set_contrast(self, level: int) -> None:
        """Set the contrast (0-255); kept across reconnects. Never raises."""
        self.contrast = max(0, min(255, int(level)))

    def set_power(self, on: bool) -> None:
        """Switch the panel on or off (burn-in care when idle)."""
        self.powered = bool(on)

    def set_idle(self, state: str) -> None:
        """The panel's idle state (awake, dim, off): an OLED shows it by its contrast and power alone."""

    def tick(self) -> None:
        """Periodic housekeeping (reconnecting a lost panel)."""

    def close(self, blank: bool | None = None) -> None:
        """Release the display. `blank`: clear the panel and switch it off
        first; None means the sink's own choice (a real OLED blanks)."""
