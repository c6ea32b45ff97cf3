"""What an update is doing, for the page and the OLED: status.json in the update directory.

Written by `companion update install` and `companion update check` (root), read by the page and
the daemon (the companion user). Each write replaces the file whole (a power cut leaves the old
one or the new one). `message` is English; `reason` is a code the readers translate
(companion.table.texts.update_news). slots.json beside it keeps what each system slot holds, as
RAUC's slot status does: the version, its build time, the SHA-256 of the bundle it came from, and
whether it was written, kept or refused.
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
# Why an install refused a bundle before switching (companion.update.bundle.BundleError.code).
INSTALL_REASONS = ("unreadable", "short", "bundle", "manifest", "key", "nokey", "changed", "board", "older",
                   "nofit", "noslot", "busy")


def status_path(update_dir: Path | None = None) -> Path:
    return Path(update_dir or UPDATE_DIR) / "status.json"


def write_status(state: str, update_dir: Path | None = None, **fields: object) -> dict:
    """Replace status.json with `state` and `fields`; the dict written."""
    body = {"state": state, "at": int(time.time()), **fields}
    _replace_json(status_path(update_dir), body)
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


def _replace_json(path: Path, body: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(body, f)
        f.flush()
        os.fsync(f.fileno())
    os.chmod(tmp, 0o644)
    tmp.replace(path)


def read_slots(update_dir: Path | None = None) -> dict[str, dict]:
    """slots.json: {"a": {...}, "b": {...}} for the slots an update wrote or judged; {} when unreadable."""
    try:
        body = json.loads(status_path(update_dir).with_name("slots.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(body, dict):
        return {}
    return {slot: body[slot] for slot in ("a", "b") if isinstance(body.get(slot), dict)}


def record_slot(slot: str, update_dir: Path | None = None, **fields: object) -> None:
    """Merge `fields` into slot `slot`'s record in slots.json (a record is never worth an install:
    a file that cannot be written is left as it was)."""
    slots = read_slots(update_dir)
    slots[slot] = {**(slots.get(slot, {}) if fields.get("state") != "written" else {}), **fields, "at": int(time.time())}
    try:
        _replace_json(status_path(update_dir).with_name("slots.json"), slots)
    except OSError:
        pass


def request_install(update_dir: str | Path, bundle: str, source: str) -> None:
    """Ask root to install `bundle` (companion-update-install.path watches for request.json)."""
    folder = Path(update_dir)
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / "request.json.tmp"
    tmp.write_text(json.dumps({"bundle": str(bundle), "from": source}), encoding="utf-8")
    tmp.replace(folder / "request.json")
