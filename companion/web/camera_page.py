"""The camera's picture on the table's page, behind the PIN, and the board's corners tapped on it.

    GET  /camera               the page: with a PIN session the camera's latest picture, where four
                               taps (the board's corners, in order) are sent as the camera's corners
    GET  /api/camera.jpg       the picture itself: a PIN session only (`pagelink.CAMERA_FRAME`, the
                               kiosk's latest frame in its runtime directory, beside the key socket)
    POST /api/camera/corners   {"corners": [x1, y1, ... y4]} in the picture's pixels -> the daemon's key
                               socket (session, CSRF header, Origin), which checks them, keeps them
                               and hands them to the camera

The picture never leaves the box but to a phone holding the PIN, and is never cached there.
"""

from __future__ import annotations

import os

from aiohttp import web

from companion.games import GAMES
from companion.i18n import N_, _
from companion.table import pagelink as link
from companion.table.gameweb import attrs, esc, tag
from companion.web import pages
from companion.web.history_pages import pin_page, session_csrf
from companion.web.http import KEYS, change_body, json_response, to_daemon

# NOTE: the table's page: the camera page's title (and its menu entry)
CAMERA = N_("Camera")
# NOTE: the table's page: the camera page's button that sends the four corners
CAMERA_SAVE = N_("Save the corners")
# NOTE: the table's page: the camera page's button that clears the taps
CAMERA_AGAIN = N_("Start again")
# NOTE: the table's page: the camera page, after the corners were sent
CAMERA_SAVED = N_("Sent: the box checks the corners and measures the board with them.")
# NOTE: the table's page: the camera page, without a picture (no camera, or the table not running)
CAMERA_NONE = N_("No picture: the box has no camera set up, or the table is not running.")
# NOTE: the table's page: the camera page, before the PIN
CAMERA_WITH_PIN = N_("The camera's picture shows only with the PIN.")


def register(app: web.Application) -> None:
    """Add the camera's routes to `app` (make_app calls it)."""
    app.router.add_get("/camera", camera_page)
    app.router.add_get("/api/camera.jpg", camera_picture)
    app.router.add_post("/api/camera/corners", post_corners)


def frame_path(request: web.Request) -> str | None:
    """Where the kiosk writes the camera's latest frame: beside its key socket (None: no socket)."""
    socket_path = request.app[KEYS].path
    return os.path.join(os.path.dirname(socket_path), link.CAMERA_FRAME) if socket_path else None


def camera_html(pin: bool, csrf: str | None) -> str:
    """The body of /camera: the login, or (with a session) the picture to tap."""
    if not pin:
        return tag("p", esc(_(CAMERA_WITH_PIN)), cls="note")
    picture = f'<img{attrs(id="camera-picture", src="/api/camera.jpg", alt=_(CAMERA))}>'
    taps = tag("div", picture, id="camera-taps", cls="camera-taps")
    buttons = (tag("button", esc(_(CAMERA_SAVE)), id="camera-save", type="button", disabled="disabled")
               + tag("button", esc(_(CAMERA_AGAIN)), id="camera-again", type="button"))
    how = next((_(g.camera_help) for g in GAMES.values() if g.camera and g.camera_help), "")
    shown = tag("div", tag("p", esc(how)) + taps + buttons, id="camera-form",
                hidden=None if csrf else "hidden")
    status = tag("p", "", id="camera-status", role="status", data_saved=_(CAMERA_SAVED), data_none=_(CAMERA_NONE))
    return tag("p", esc(_(CAMERA_WITH_PIN))) + pages.pin_form(hidden=csrf is not None) + shown + status


async def camera_page(request: web.Request) -> web.Response:
    return pin_page(request, _(CAMERA), "/camera", camera_html)


async def camera_picture(request: web.Request) -> web.Response:
    if session_csrf(request) is None:
        return json_response({"error": "the camera's picture needs the PIN"}, status=403)
    path = frame_path(request)
    try:
        with open(path or "", "rb") as fh:
            data = fh.read(8 * 1024 * 1024)
    except OSError:
        return json_response({"error": "no picture: the box has no camera set up, or the table is not running"},
                             status=404)
    return web.Response(body=data, content_type="image/jpeg", headers={"Cache-Control": "no-store"})


async def post_corners(request: web.Request) -> web.Response:
    data = await change_body(request)
    if isinstance(data, web.Response):
        return data
    corners = link.corner_values(data.get("corners"))
    if corners is None:
        return json_response({"error": "corners: give 8 numbers, x1, y1 ... x4, y4, pixels of the picture"},
                             status=400)
    return await to_daemon(request, link.camera_corners(corners), {"corners": list(corners)})
