"""Where the page's PIN comes from, and taking a new one at once.

The box's menu, New PIN, has the daemon write a random PIN to `web-pin` in its state
directory (the journal's directory: /var/lib/companion under systemd, which the page's
unit reads; companion.table.effects.NewPin). While that file exists it is the PIN; else
the config's `web.pin_file` (or --pin-file); else there is none and the page is read-only.
The page looks at both files (a `stat` each) every `LOOK_S`; when either changed, the PIN
is read again and handed to the guard (`PinGuard.set_pin`), which ends every session
opened with the old one. A PIN file that stops being valid closes the page to changes
(fails closed) until it is fixed; one that is not a regular file (a FIFO) is never read
(`read_pin` opens without blocking and looks first), so it cannot hang the page's one thread.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from companion.table.pagelink import PIN_FILE
from companion.web.guard import PinGuard, read_pin, short_pin_warning
from companion.web.watch import FilesWatch

log = logging.getLogger(__name__)

LOOK_S = 0.25


class PinSource:
    """The PIN of a page serving the journal in `state_dir` with the config's `pin_file` (or None)."""

    def __init__(self, state_dir: str | Path, pin_file: str | None) -> None:
        self.box = Path(state_dir) / PIN_FILE
        self.pin_file = Path(pin_file) if pin_file else None
        self.files = FilesWatch([self.box, self.pin_file])

    def path(self) -> Path | None:
        """The file the PIN comes from now: the box's when it exists, else the config's."""
        try:
            os.stat(self.box)
            return self.box
        except FileNotFoundError:
            return self.pin_file
        except OSError:
            return self.box  # there but not reachable: read_pin says why

    def read(self) -> tuple[str | None, Path | None]:
        """(PIN, its file); (None, None) without one; ValueError saying what is wrong with the file."""
        where = self.path()
        return (read_pin(str(where)), where) if where is not None else (None, None)

    def moved(self) -> bool:
        """True when either file changed (made, replaced, edited, removed) since the last look."""
        return self.files.moved()

    def warn_if_short(self, pin: str | None, where: Path | None) -> None:
        warning = short_pin_warning(pin, str(where)) if pin is not None else None
        if warning is not None:
            log.warning("%s", warning)

    def follow(self, guard: PinGuard) -> None:
        """Hand the PIN as the files now hold it to `guard` (every session ends)."""
        try:
            pin, where = self.read()
        except ValueError as exc:
            if guard.pin is not None:
                guard.set_pin(None)
            log.error("web: %s: no phone can log in until it is fixed", exc)
            return
        guard.set_pin(pin)
        if pin is None:
            log.info("web: no PIN any more: the page is read-only")
            return
        log.info("web: the PIN in %s is in force: phones log in again with it", where)
        self.warn_if_short(pin, where)
