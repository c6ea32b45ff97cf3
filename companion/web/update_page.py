"""Updating the box from the table's page, behind the PIN.

    GET  /update               the page: the version that runs, the last update's outcome, and (with
                               a PIN session) a file to send
    GET  /api/update           {"running": ..., "status": {...}}: status.json (companion.update.status)
    POST /api/update           the bundle's bytes (session, CSRF header, Origin; Content-Length) ->
                               UPDATE_DIR/upload.bundle; its signature, board and age are checked at
                               once (400 and one line when refused), then request.json asks root to
                               install it (companion-update-install.path)

The page's process cannot write a system slot: root checks every byte again, writes the other
slot and restarts (companion update install --request). The upload goes to the data partition,
piece by piece; one upload at a time; one that stalls for IDLE_S is dropped.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import time
from pathlib import Path

from aiohttp import web

from companion.box.about import read_about
from companion.i18n import N_, _
from companion.table import texts as T
from companion.table.gameweb import esc, tag
from companion.update import status as update_status
from companion.update.box import load_trusted, running_build
from companion.update.bundle import BundleError, fits, peek
from companion.web import pages
from companion.web.history_pages import pin_page
from companion.web.http import change_refused, json_response

MAX_BUNDLE = 1 << 30
ROOM = 64 << 20  # left free on the data partition after an upload (the journal keeps growing)
IDLE_S = 60.0
STALE_S = 900.0  # a status older than this no longer holds an upload back
UPLOAD = "upload.bundle"
BUSY = web.AppKey("update_busy", asyncio.Lock)

# NOTE: the table's page: the update page's title (and its menu entry)
UPDATE = N_("Update")
# NOTE: the table's page: the update page, the version running ({version})
UPDATE_RUNNING = N_("This box runs {version}.")
# NOTE: the table's page: the update page, how to update
UPDATE_HOW = N_("Choose the update file (clans-companion.bundle) and send it. The box checks it, writes it beside the "
                "system it runs and restarts into it; the game in progress waits on the card. If the new system "
                "does not start well, the box goes back to this one by itself.")
# NOTE: the table's page: the update page's send button
UPDATE_SEND = N_("Send the update")
# NOTE: the table's page: the update page, before the PIN
UPDATE_WITH_PIN = N_("Updating the box needs the PIN.")


def register(app: web.Application) -> None:
    """Add the update's routes to `app` (make_app calls it)."""
    app[BUSY] = asyncio.Lock()
    app.router.add_get("/update", update_page)
    app.router.add_get("/api/update", update_state)
    app.router.add_post("/api/update", post_update)


def _running() -> str:
    about = read_about()
    return about.image or about.package


def update_html(pin: bool, csrf: str | None) -> str:
    running = tag("p", esc(_(UPDATE_RUNNING).format(version=_running())))
    if not pin:
        return running + tag("p", esc(_(UPDATE_WITH_PIN)), cls="note")
    form = tag("div", tag("p", esc(_(UPDATE_HOW)))
               + '<input type="file" id="update-file" accept=".bundle">'
               + tag("button", esc(_(UPDATE_SEND)), id="update-send", type="button")
               + '<progress id="update-progress" max="100" value="0" hidden></progress>',
               id="update-form", hidden=None if csrf else "hidden")
    last = update_status.read_status()
    said = (T.update_news(last["state"], str(last.get("reason", "")), str(last.get("version", "")))
            if last["state"] in ("installed", "refused", "failed") else "")
    status = tag("p", esc(said), id="update-status", role="status")
    return running + tag("p", esc(_(UPDATE_WITH_PIN))) + pages.pin_form(hidden=csrf is not None) + form + status


async def update_page(request: web.Request) -> web.Response:
    return pin_page(request, _(UPDATE), "/update", update_html)


async def update_state(request: web.Request) -> web.Response:
    return json_response({"running": _running(), "status": update_status.read_status()})


def installing(now: float | None = None) -> bool:
    """Root is checking or writing a bundle (status.json says so, and said it lately: a power cut
    leaves "writing", which the next start's check turns into "failed")."""
    st = update_status.read_status()
    return st["state"] in ("checking", "writing") and (now or time.time()) - float(st.get("at", 0)) < STALE_S


async def _receive(request: web.Request, dest: Path, size: int) -> None:
    got = 0
    with open(dest, "wb") as out:
        while True:
            async with asyncio.timeout(IDLE_S):
                chunk = await request.content.readany()
            if not chunk:
                break
            got += len(chunk)
            if got > size:
                raise ValueError("more bytes than Content-Length says")
            out.write(chunk)
        out.flush()
        os.fsync(out.fileno())
    if got != size:
        raise ValueError(f"the upload stopped after {got} of {size} bytes")


async def post_update(request: web.Request) -> web.Response:
    refused = change_refused(request)
    if refused is not None:
        return refused
    size = request.content_length
    if size is None or size <= 0:
        return json_response({"error": "send the bundle's bytes with their length (Content-Length)"}, status=411)
    if size > MAX_BUNDLE:
        return json_response({"error": f"an update bundle is at most {MAX_BUNDLE >> 20} MiB: this is not one"}, status=413)
    folder = update_status.UPDATE_DIR
    if installing():
        return json_response({"error": "an update is being installed: wait until the box has restarted"}, status=409)
    # a new upload takes the place of the last one (kept until then, for `companion update install`)
    (folder / UPLOAD).unlink(missing_ok=True)
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        return json_response({"error": "this box takes updates only on its SD-card image"}, status=503)
    if free < size + ROOM:
        return json_response({"error": f"not enough room on the card for the update ({free >> 20} MiB free)"}, status=507)
    if request.app[BUSY].locked():
        return json_response({"error": "another update is being sent"}, status=409)
    async with request.app[BUSY]:
        part = folder / (UPLOAD + ".part")
        try:
            await _receive(request, part, size)
            board, built = running_build()
            manifest = fits(peek(part, load_trusted()), board, built)
        except (TimeoutError, ValueError, OSError, BundleError) as exc:
            part.unlink(missing_ok=True)
            why = "the upload stalled" if isinstance(exc, TimeoutError) else str(exc)
            response = json_response({"error": f"not installed: {why}"}, status=400)
            response.force_close()
            return response
        bundle = part.replace(folder / UPLOAD)
        update_status.request_install(folder, str(bundle), "page")
        update_status.write_status("checking", folder, percent=0, offered=manifest.version)
    return json_response({"offered": manifest.version, "running": _running()}, status=202)
