"""What an update is doing, for the page and the OLED: status.json in the update directory.

Written by `companion update install` and `companion update check` (root), read by the page and
the daemon (the companion user). Each write replaces the file whole (a power cut leaves the old
one or the new one). `message` is English; `reason` is a code the readers translate.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

UPDATE_DIR = Path(os.environ.get("COMPANION_UPDATE_DIR", "/var/lib/companion/update"))
STATES = ("idle", "checking", "writing", "restarting", "trying", "installed", "refused", "failed")
# Why a new slot was refused (bootstate.REASONS): the one line the OLED and the page show.
REASON_TEXT = {
    "start": "the new system did not finish starting",
    "unit": "a part of the new system failed to start",
    "ready": "the new system did not get ready in time",
    "cut": "the power went off before the new system started",
}


def status_path(update_dir: Path | None = None) -> Path:
    return Path(update_dir or UPDATE_DIR) / "status.json"


def write_status(state: str, update_dir: Path | None = None, **fields: object) -> dict:
    """Replace status.json with `state` and `fields`; the dict written."""
    path = status_path(update_dir)
    body = {"state": state, "at": int(time.time()), **fields}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(body, f)
        f.flush()
        os.fsync(f.fileno())
    os.chmod(tmp, 0o644)
    tmp.replace(path)
    return body


def read_status(update_dir: Path | None = None) -> dict:
    """status.json, or {"state": "idle"} when there is none or it cannot be read."""
    try:
        body = json.loads(status_path(update_dir).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"state": "idle"}
    if not isinstance(body, dict) or body.get("state") not in STATES:
        return {"state": "idle"}
    return body


def request_install(update_dir: str | Path, bundle: str, source: str) -> None:
    """Ask root to install `bundle` (companion-update-install.path watches for request.json)."""
    folder = Path(update_dir)
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / "request.json.tmp"
    tmp.write_text(json.dumps({"bundle": str(bundle), "from": source}), encoding="utf-8")
    tmp.replace(folder / "request.json")
