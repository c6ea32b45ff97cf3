"""At every start: does a new slot stay, and what does the table hear about the last update.

`companion update check` runs as root once the companion's units have started
(companion-update-check.service). By try.txt (bootstate):
- `try B ...` and B runs: the first start of a new system. It stays (`ok B`, slot.txt already
  says B) when the companion reached READY (its unit is active: Type=notify) and the page
  answers; a unit that fails or keeps restarting, or no READY within the deadline, sends the
  card back: slot.txt says A, try.txt `refused B A REASON`, reboot.
- `try B ...` and A runs: the power went off between try.txt and slot.txt: refused, "cut".
- `writing B`: the install was cut off while it wrote: nothing changed.
- `refused B A REASON` (the initramfs or an earlier check wrote it): said once, then `none`.
Each outcome goes to status.json, which the page and the OLED show.
"""

from __future__ import annotations

import subprocess
import time
import urllib.error
import urllib.request
from typing import Callable

from companion.update.bootstate import BootState, Try
from companion.update.box import Box
from companion.update.status import REASON_TEXT, read_status, record_slot, write_status

UNITS = ("companion.service", "companion-web.service")
MAX_RESTARTS = 3
DEADLINE_S = 900.0  # a Pi Zero 2 W's first start of a new system, with room to spare
PAGE = "http://127.0.0.1:8080/api/state"


def unit_state(unit: str) -> tuple[str, int]:
    """(ActiveState, NRestarts) of a systemd unit."""
    out = subprocess.run(["systemctl", "show", "-p", "ActiveState,NRestarts", unit],
                         capture_output=True, text=True).stdout
    values = dict(line.partition("=")[::2] for line in out.splitlines())
    restarts = values.get("NRestarts", "0")
    return values.get("ActiveState", "unknown"), int(restarts) if restarts.isdigit() else 0


def page_answers(url: str = PAGE) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5):
            return True
    except urllib.error.HTTPError:
        return True  # 503 before a game: it answers
    except OSError:
        return False


def wait_ready(units=unit_state, page=page_answers, deadline_s: float = DEADLINE_S,
               clock: Callable[[], float] = time.monotonic, pause: Callable[[float], None] = time.sleep) -> str | None:
    """None once every unit is active and the page answers; else the refusal's reason code."""
    end = clock() + deadline_s
    while True:
        states = [units(u) for u in UNITS]
        if any(active == "failed" or restarts >= MAX_RESTARTS for active, restarts in states):
            return "unit"
        if all(active == "active" for active, _ in states) and page():
            return None
        if clock() >= end:
            return "ready"
        pause(2.0)


def boot_check(box: Box, ready: Callable[[], str | None], reboot: Callable[[], None], say: Callable[[str], None] = print) -> str:
    """Act on try.txt for this start (module docstring); the state written to status.json."""
    state = BootState(box.fat)
    t = state.read_try()
    if t.state == "ok" and read_status()["state"] == "trying":  # the power went off as it was kept
        write_status("installed", version=box.version)
        return "installed"
    if t.state == "none" or t.state == "ok":
        return "idle"
    box.remount(box.fat, "rw")
    try:
        if t.state == "try" and t.slot == box.running:
            write_status("trying", version=box.version)
            say(f"update: first start of system {t.slot}: waiting for the companion and the page")
            reason = ready()
            if reason is None:
                state.write_try(Try("ok", t.slot))
                record_slot(t.slot, state="kept", version=box.version)
                write_status("installed", version=box.version)
                say(f"update: system {t.slot} ({box.version}) started well: it stays")
                return "installed"
            state.write_slot(t.fallback)
            state.write_try(Try("refused", t.slot, fallback=t.fallback, reason=reason))
            record_slot(t.slot, state="refused", reason=reason)
            say(f"update: system {t.slot} refused: {REASON_TEXT[reason]}; back to system {t.fallback}")
            write_status("refused", reason=reason, message=REASON_TEXT[reason], version=box.version)
            reboot()
            return "refused"
        if t.state == "writing":
            say("update: the last install was cut off while it wrote: nothing changed")
            write_status("failed", reason="cut", message="the install was cut off: nothing changed; install it again",
                         version=box.version)
            state.write_try(Try())
            return "failed"
        reason = t.reason if t.state == "refused" else "cut"
        record_slot(t.slot, state="refused", reason=reason)
        say(f"update: the new system was refused: {REASON_TEXT.get(reason, reason)}; this is system {box.running}")
        write_status("refused", reason=reason, message=REASON_TEXT.get(reason, reason), version=box.version)
        state.write_try(Try())
        return "refused"
    finally:
        box.remount(box.fat, "ro")
