"""The `png` display sink: each changed frame as a PNG file (headless runs, docs, tests)."""

from __future__ import annotations

import logging
import os
import re
from typing import Any

from companion.hw.sink import DisplaySink

log = logging.getLogger("companion.hw.display")


class PngSink(DisplaySink):
    """Writes each changed frame to frames_dir/frame_NNNNN.png, numbering on
    after any frames already there."""

    _NAME = re.compile(r"frame_(\d+)\.png$")

    def __init__(self, width: int, height: int, frames_dir: str) -> None:
        super().__init__(width, height)
        self.frames_dir = frames_dir
        os.makedirs(frames_dir, exist_ok=True)
        numbers = [int(m.group(1)) for n in os.listdir(frames_dir)
                   if (m := self._NAME.match(n))]
        self._next = max(numbers, default=0) + 1
        self._failed = False

    def _write(self, image: Any) -> bool:
        path = os.path.join(self.frames_dir, f"frame_{self._next:05d}.png")
        try:
            self._moved(image).save(path, format="PNG")
        except OSError as e:
            if not self._failed:
                log.warning("display png: cannot write %s: %s", path, e)
                self._failed = True
            return False
        self._failed = False
        self._next += 1
        return True


def open_sink(dcfg: Any, **_: Any) -> PngSink:
    """The `png` sink of a DisplayConfig (companion.hw.sinks)."""
    if not dcfg.frames_dir:
        raise ValueError(f"display driver {dcfg.driver} needs frames_dir")
    return PngSink(dcfg.width, dcfg.height, dcfg.frames_dir)
