"""The camera on the table's page (companion.web.camera_page): its picture only with the PIN, never
cached; four tapped corners reach the daemon's key socket only with a session, its CSRF token and
the page's Origin, and only as 8 plain numbers; anything else is refused with a line that says what."""

from __future__ import annotations

import io

from PIL import Image

from companion.hw.keysocket import CameraCorners, KeySocket
from companion.table import pagelink as link

from tests.web.test_guard import wait_until
from tests.web.webtools import app_for, client, run, table


def _jpeg() -> bytes:
    data = io.BytesIO()
    Image.new("RGB", (64, 48), (10, 200, 30)).save(data, "JPEG")
    return data.getvalue()


def test_the_picture_shows_only_with_the_pin_and_is_never_cached(tmp_path):
    table(tmp_path / "state", "--players", "2", "--seed", "1")
    app = app_for(tmp_path / "state", pin="4711471147", key_socket=str(tmp_path / "keys.sock"))

    async def go():
        async with client(app) as c:
            origin = {"Origin": f"http://{c.host}:{c.port}"}
            before = await c.get("/api/camera.jpg")
            page_before = await (await c.get("/camera")).text()
            await c.post("/api/login", json={"pin": "4711471147"}, headers=origin)
            none = await c.get("/api/camera.jpg")
            (tmp_path / link.CAMERA_FRAME).write_bytes(_jpeg())
            shown = await c.get("/api/camera.jpg")
            page = await (await c.get("/camera")).text()
            return before.status, page_before, none.status, shown.status, shown.headers, await shown.read(), page

    before, page_before, none, shown, headers, body, page = run(go())
    assert before == 403 and 'id="camera-picture"' in page_before and 'id="camera-form" hidden' in page_before
    assert none == 404  # no camera set up (nothing written beside the socket)
    assert shown == 200 and headers["Content-Type"] == "image/jpeg" and "no-store" in headers["Cache-Control"]
    assert body == _jpeg() and 'id="camera-form" hidden' not in page


def test_four_tapped_corners_reach_the_daemon_and_nothing_else_does(tmp_path):
    table(tmp_path / "state", "--players", "2", "--seed", "1")
    got: list = []
    sock = KeySocket(str(tmp_path / "keys.sock"), got.append)
    sock.start()
    app = app_for(tmp_path / "state", pin="4711471147", key_socket=str(tmp_path / "keys.sock"))
    good = [10, 12.5, 600, 11, 610, 450, 8, 440]

    async def go():
        async with client(app) as c:
            origin = {"Origin": f"http://{c.host}:{c.port}"}
            answers = [(await c.post("/api/camera/corners", json={"corners": good}, headers=origin)).status]
            csrf = (await (await c.post("/api/login", json={"pin": "4711471147"}, headers=origin)).json())["csrf"]
            sent = {**origin, "X-CSRF-Token": csrf}
            for bad in (good[:7], good + [1], [True] * 8, ["10"] * 8, [1e9] * 8, {"x": 1}, None):
                reply = await c.post("/api/camera/corners", json={"corners": bad}, headers=sent)
                answers.append((reply.status, (await reply.json())["error"][:8]))
            answers.append((await c.post("/api/camera/corners", json={"corners": good},
                                         headers={"Origin": "http://evil.example", "X-CSRF-Token": csrf})).status)
            answers.append((await c.post("/api/camera/corners", json={"corners": good}, headers=sent)).status)
            return answers

    try:
        answers = run(go())
        assert answers[0] == 403 and answers[-2] == 403 and answers[-1] == 200
        assert answers[1:-2] == [(400, "corners:")] * 7
        assert wait_until(lambda: any(isinstance(e, CameraCorners) for e in got))
        assert [e for e in got if isinstance(e, CameraCorners)] == [CameraCorners(tuple(float(v) for v in good))]
    finally:
        sock.close()


def test_the_key_socket_takes_corners_only_as_eight_plain_numbers():
    assert link.decode(b'{"camera_corners": [1, 2, 3, 4, 5, 6, 7, 8]}') == link.CameraCorners((1.0, 2, 3, 4, 5, 6, 7, 8))
    for line in (b'{"camera_corners": [1, 2, 3]}', b'{"camera_corners": [NaN, 2, 3, 4, 5, 6, 7, 8]}',
                 b'{"camera_corners": [1, 2, 3, 4, 5, 6, 7, 8], "x": 1}', b'{"camera_corners": "1,2,3,4,5,6,7,8"}',
                 b'{"camera_corners": [Infinity, 2, 3, 4, 5, 6, 7, 8]}'):
        assert link.decode(line) is None, line
