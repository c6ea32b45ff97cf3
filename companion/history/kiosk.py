"""The table's memory at the kiosk: statistics for the OLED's menu and a copy of the history to a USB stick.

Everything heavy is imported when first used: the kiosk's start-up stays as it was.
The daemon makes one `KioskMemory` for its state directory and hands it to the shell
(`Shell.memory`). The shell only asks what to show (`stats_paragraphs`) and which
sticks are mounted (`sticks`, read from /proc/mounts when the menu opens); the copy
itself is a `CopyHistory` effect the daemon carries out (`copy`), so nothing is
written to a stick unasked and the shell stays free of I/O on a key.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

from companion.i18n import N_, _, ngettext

log = logging.getLogger(__name__)

REASONS = {
    # NOTE: why a copy to a USB stick failed, max 30 characters
    "full": N_("the stick is full"),
    # NOTE: why a copy to a USB stick failed, max 30 characters
    "read-only": N_("the stick is read-only"),
    # NOTE: why a copy to a USB stick failed, max 30 characters
    "not mounted": N_("the stick is gone"),
}


class KioskMemory:
    """Reads the journal in `state_dir` (read only) for statistics; copies the history to sticks."""

    def __init__(self, state_dir: str | Path, mounts: str | Path = "/proc/mounts",
                 media_roots: tuple[str, ...] = ("/media", "/run/media", "/mnt")) -> None:
        self.state_dir = Path(state_dir)
        self.mounts = Path(mounts)
        self.media_roots = media_roots
        self._stats: tuple[Any, list[str]] = (None, [])  # (the finished games' signature, the paragraphs)

    def stats_paragraphs(self) -> list[str]:
        """The statistics as short paragraphs for the OLED's pager (empty: no finished game yet).
        Kept until another game finishes: thousands of games take a moment to read on a Pi."""
        from companion.history.plays import read_history
        from companion.history.stats import stats_pages
        from companion.journal.reader import JournalReader

        try:
            signature = JournalReader(self.state_dir).history_signature()
            if signature != self._stats[0]:
                plays = read_history(self.state_dir, full=False).finished
                self._stats = (signature, [f"{title}: " + ", ".join(lines) for title, lines in stats_pages(plays)])
        except Exception as exc:  # the journal unreadable: say nothing rather than fail a key
            log.warning("statistics: %s", exc)
            return []
        return self._stats[1]

    def sticks(self) -> list[Path]:
        """The USB sticks mounted now (none when /proc/mounts cannot be read)."""
        from companion.history.export import usb_mounts

        try:
            return usb_mounts(self.mounts.read_text(encoding="utf-8", errors="replace"), self.media_roots)
        except OSError:
            return []

    def copy(self, target: str | Path, now: float | None = None) -> tuple[bool, str]:
        """Copy the whole history in every format to a new dated folder on `target`: (done, what to say)."""
        from companion.history.export import ExportError, copy_to_folder
        from companion.history.plays import read_history
        from companion.history.where import ensure_box_id

        try:
            ensure_box_id(self.state_dir)
            history = read_history(self.state_dir)
            folder = copy_to_folder(history, target, time.time() if now is None else now)
        except ExportError as exc:
            reason = str(exc)
            log.error("copy to %s failed: %s", target, reason)
            return False, _("Nothing copied: {reason}.").format(
                reason=_(REASONS[reason]) if reason in REASONS else reason)
        except Exception as exc:
            log.error("copy to %s failed: %s", target, exc)
            return False, _("Nothing copied: the history cannot be read.")
        log.info("history copied to %s", folder)
        # NOTE: {games}: how many games, {folder}: the new folder's name on the stick
        count = len(history.finished)
        return True, ngettext("{games} game copied to {folder}.", "{games} games copied to {folder}.",
                              count).format(games=count, folder=folder.name)
