"""The kiosk's side of updates: a USB stick's offer and the last update's outcome reach the OLED.

Root writes into the update directory (the state directory's `update/`): `offer.json` when a USB
stick holding a bundle is plugged in (`companion update offer`), `status.json` as an update goes
(companion.update.status). This thread looks every POLL_S seconds and puts, as any adapter puts
keys: an `UpdateOffer` for each new offer (# on the OLED installs it), and an `UpdateNews` once
for an outcome written since the kiosk started (the check at each start writes it after the
kiosk is READY). It only reads; the kiosk's answer is request.json (Daemon.install_update).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from pathlib import Path
from typing import Any, Callable

from companion.hw.keyevents import UpdateNews, UpdateOffer
from companion.update.status import read_status

log = logging.getLogger(__name__)
POLL_S = 2.0
OFFER = "offer.json"


def read_offer(folder: Path) -> UpdateOffer | None:
    """offer.json as an UpdateOffer; None when there is none or it cannot be read."""
    try:
        body = json.loads((folder / OFFER).read_text(encoding="utf-8"))
        return UpdateOffer(str(body["version"])[:64], str(body["bundle"])[:4096], str(body.get("problem", ""))[:300])
    except (OSError, ValueError, KeyError, TypeError):
        return None


class UpdateWatch:
    """Polls the update directory in a thread of its own (start, close: as the other inputs)."""

    def __init__(self, folder: Path, put: Callable[[Any], Any], poll_s: float = POLL_S,
                 started: float | None = None) -> None:
        self.folder, self.put, self.poll_s = Path(folder), put, poll_s
        self.started = time.time() if started is None else started
        self.stop = threading.Event()
        self.offered: tuple[float, UpdateOffer] | None = None
        self.told: float | None = None
        self.thread = threading.Thread(target=self._run, name="update-watch", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def look(self) -> None:
        """One look: what is new goes to `put`."""
        try:
            stamp = (self.folder / OFFER).stat().st_mtime
        except OSError:
            self.offered = None
        else:
            offer = read_offer(self.folder)
            if offer is not None and (self.offered is None or self.offered != (stamp, offer)):
                self.offered = (stamp, offer)
                self.put(offer)
                log.info("update: a USB stick offers %s%s", offer.version, f" ({offer.problem})" if offer.problem else "")
        status = read_status(self.folder)
        at = float(status.get("at", 0) or 0)
        if status["state"] in ("installed", "refused", "failed") and at >= self.started - 1 and at != self.told:
            self.told = at
            self.put(UpdateNews(status["state"], str(status.get("reason", "")), str(status.get("version", ""))))

    def _run(self) -> None:
        while not self.stop.wait(self.poll_s):
            try:
                self.look()
            except Exception:  # a watcher never stops the table
                log.exception("update: the watch failed once")

    def close(self) -> None:
        self.stop.set()
