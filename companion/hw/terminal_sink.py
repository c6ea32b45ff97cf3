"""The OLED drawn on a text terminal: a display sink for laptops and the emulated box.

The frame is drawn in block or braille characters (companion.hw.terminal_screen), redrawn
in place, with the key legend under it; a dimmed panel is drawn faint and a dark one blank,
each with a line saying what the next key does (on a terminal no contrast can be seen).
"""

from __future__ import annotations

import logging
import sys
from typing import Any, Callable, TextIO

from companion.hw import terminal_screen as screen_text
from companion.hw.sink import DisplaySink

log = logging.getLogger("companion.hw.display")


class TerminalSink(DisplaySink):
    """Draws frames on a text terminal (`companion.hw.terminal_screen`), redrawn in place with
    ANSI cursor movement, the key legend under them. With ``cells="auto"`` the mode is chosen
    from the terminal's real size at every frame (half blocks, quadrants, else braille: 66x18
    cells, so 80x24 shows the whole screen); when nothing fits, one line says so.

    When nothing fits the terminal, only the one line saying the size it needs is shown, not a
    garbled frame.

    When the stream is not a terminal (a pipe, a file) no escape code is written: each distinct
    screen is printed as its text lines (the words `companion.table.render` gives the frame in
    `image.info["text"]`), followed by an empty line, with no legend; a frame without words
    (drawn by hand) is printed in half blocks."""

    _HALF = screen_text.HALF
    _QUAD = screen_text.QUAD

    def __init__(self, width: int, height: int, stream: TextIO | None = None, cells: str = "auto",
                 size: Callable[[], tuple[int, int]] | None = None, tty: bool | None = None) -> None:
        super().__init__(width, height)
        self._stream = stream if stream is not None else sys.stdout
        self._lines_drawn = 0
        self._broken = False
        self._size = size or (lambda: screen_text.terminal_size(self._stream))
        if tty is None:
            try:
                tty = bool(self._stream.isatty())
            except (AttributeError, ValueError):
                tty = False
        self.tty = tty
        if cells not in screen_text.MODES + ("auto",):
            raise ValueError(f"terminal cells must be 'half', 'quad', 'braille' or 'auto', got {cells!r}")
        self.auto = cells == "auto"
        self.idle = "awake"
        self.fits = True
        self.cells = cells if not self.auto else ("half" if not tty else self._choose()[0])
        self._text_written: str | None = None  # the last screen's words written to a pipe

    def _choose(self) -> tuple[str, bool]:
        columns, rows = self._size()
        return screen_text.choose_cells(columns, rows, *self.size)

    def render(self, image: Any) -> list[str]:
        """The frame as text lines, framed by a border."""
        return screen_text.render(image, self.cells)

    def screen_lines(self, image: Any) -> tuple[list[str], int]:
        """What a terminal shows for `image`: the frame, the legend, and the too-small line when
        nothing fits; and the terminal rows they take."""
        columns, rows = self._size()
        if self.auto:
            cells, self.fits = screen_text.choose_cells(columns, rows, *self.size)
            if cells != self.cells:
                log.info("display terminal: %dx%d, drawn in %s cells", columns, rows, cells)
            self.cells = cells
        if self.auto and not self.fits:  # a frame that does not fit would wrap into garble: the size it needs
            need = screen_text.frame_size(self.cells, *self.size)
            lines = [screen_text.too_small(columns, rows, need[0], need[1] + screen_text.EXTRA_ROWS)]
            return lines, screen_text.physical_rows(lines, columns)
        frame = self.render(image)
        awake = self.idle == "awake"  # else the frame faint, and what the next key does under it
        lines = frame + [screen_text.legend() if awake else screen_text.idle_note(self.idle)]
        rows_taken = screen_text.physical_rows(lines, columns)
        return (lines if awake else screen_text.faint(frame) + lines[len(frame):]), rows_taken

    def set_idle(self, state: str) -> None:
        """Dimmed: drawn faint, saying the next key counts; dark: blank, saying it only wakes the panel."""
        if state != self.idle:
            self.idle = state
            if self._last is not None:
                self.show(self._last, force=True)

    def _write(self, image: Any) -> bool:
        if self._broken:
            return False
        words = image.info.get("text")
        if not self.tty and isinstance(words, str):
            if words == self._text_written:  # the same screen moved, dimmed or redrawn: said already
                return True
            self._text_written = words
            return self._put(words.strip("\n") + "\n\n", 0)  # a screen without a title starts with its header
        image = self._moved(image)
        if self.idle == "off":
            image = image.point(lambda _: 0)
        if self.tty:
            lines, drawn = self.screen_lines(image)
            # Move back up over the previous frame, clear it, then draw this one.
            prefix = f"\x1b[{self._lines_drawn}A\r\x1b[J" if self._lines_drawn else ""
            text = prefix + "\n".join(lines) + "\n"
        else:
            lines, drawn = self.render(image), 0
            text = "\n".join(lines) + "\n\n"
        return self._put(text, drawn)

    def _put(self, text: str, drawn: int) -> bool:
        """Write `text` (taking `drawn` terminal rows); False, and no more frames, once the stream broke."""
        try:
            self._stream.write(text)
            self._stream.flush()
        except (OSError, ValueError) as e:
            self._broken = True
            if isinstance(e, BrokenPipeError):  # `companion run | head`: the reader is gone, quietly
                log.info("display terminal: the pipe closed; frames dropped")
            else:
                log.warning("display terminal: cannot write (%s); frames dropped", e)
            return False
        self._lines_drawn = drawn
        return True


def open_sink(dcfg: Any, stream: TextIO | None = None, **_: Any) -> TerminalSink:
    """The `terminal` sink of a DisplayConfig (companion.hw.sinks); `stream` defaults to stdout."""
    return TerminalSink(dcfg.width, dcfg.height, stream)
