"""Updating from the table's page (companion.web.update_page): a bundle is taken only with a PIN
session, its CSRF token and the page's Origin; its signature is checked the moment it arrives; only
then does request.json ask root to install it. Anything else leaves nothing behind and says why."""

from __future__ import annotations

import json
import random

import pytest

from companion.update.status import write_status
from tests.update.bundles import TEST_PUBLIC, make, needs_openssl, other_key
from tests.web.webtools import app_for, client, run, table

pytestmark = needs_openssl
PIN = "4711471147"


@pytest.fixture
def update_dir(tmp_path, monkeypatch):
    folder = tmp_path / "update"
    folder.mkdir()
    monkeypatch.setattr("companion.update.status.UPDATE_DIR", folder)
    monkeypatch.setattr("companion.update.box.TRUSTED_KEY", TEST_PUBLIC)
    return folder


def send(state_dir, bodies: list[bytes], login: bool = True, csrf_ok: bool = True) -> list[tuple[int, dict]]:
    app = app_for(state_dir, pin=PIN)

    async def go():
        async with client(app) as c:
            origin = {"Origin": f"http://{c.host}:{c.port}"}
            headers = dict(origin)
            if login:
                csrf = (await (await c.post("/api/login", json={"pin": PIN}, headers=origin)).json())["csrf"]
                headers["X-CSRF-Token"] = csrf if csrf_ok else "wrong"
            out = []
            for body in bodies:
                r = await c.post("/api/update", data=body, headers={**headers, "Content-Type": "application/octet-stream"})
                out.append((r.status, await r.json()))
            state = await (await c.get("/api/update")).json()
            page = await (await c.get("/update")).text()
            return out, state, page

    return run(go())


def test_a_signed_bundle_is_taken_and_asked_for(tmp_path, update_dir) -> None:
    table(tmp_path / "state", "--players", "2", "--seed", "1")
    bundle = make(tmp_path).read_bytes()
    (answer,), state, page = send(tmp_path / "state", [bundle])
    assert answer == (202, {"offered": "1.0-test", "running": answer[1]["running"]})
    assert (update_dir / "upload.bundle").read_bytes() == bundle
    assert json.loads((update_dir / "request.json").read_text())["bundle"] == str(update_dir / "upload.bundle")
    assert state["status"]["state"] == "checking" and state["status"]["offered"] == "1.0-test"
    assert 'id="update-file"' in page and "runs" in page
    write_status("refused", update_dir, reason="unit", version="1.0")
    page = send(tmp_path / "state", [])[2]
    assert "The update was refused (a part of the new system failed to start)" in page, "the last outcome, said"


def test_without_the_pin_or_with_a_bad_bundle_nothing_is_asked_for(tmp_path, update_dir) -> None:
    table(tmp_path / "state", "--players", "2", "--seed", "1")
    good = make(tmp_path).read_bytes()
    assert [s for s, _ in send(tmp_path / "state", [good], login=False)[0]] == [403]
    assert [s for s, _ in send(tmp_path / "state", [good], csrf_ok=False)[0]] == [403]
    rnd = random.Random(3)
    flipped = bytearray(good)
    flipped[600] ^= 0x40  # inside the manifest
    # (a bundle cut inside its payload passes this first look; root's check of every byte refuses it:
    # tests/update)
    lying = bytearray(good)
    lying[lying.index(b'"built": ') + 9:lying.index(b'"built": ') + 19] = b"1e999     "  # unsigned, and a lie
    bad = [make(tmp_path, "other.bundle", key=other_key(tmp_path)).read_bytes(), good[:300],
           bytes(flipped), rnd.randbytes(5000), b"x", bytes(lying),
           make(tmp_path, "board.bundle", board="x86-64").read_bytes()]
    answers, _, _ = send(tmp_path / "state", bad)
    assert [s for s, _ in answers] == [400] * len(bad), answers
    assert all(a["error"].startswith("not installed:") and "\n" not in a["error"] for _, a in answers)
    assert "another key" in answers[0][1]["error"]
    assert "another board" in answers[-1][1]["error"], "refused on the page, not only later by root"
    assert sorted(p.name for p in update_dir.iterdir()) == [], "nothing is left behind, nothing is asked for"


def test_seeded_junk_uploads_are_refused_and_leave_nothing(tmp_path, update_dir) -> None:
    """Random bytes of random lengths, some cut from a real bundle's start: each refused with one line,
    nothing asked for, nothing left; then a real bundle is still taken (the page did not get stuck)."""
    table(tmp_path / "state", "--players", "2", "--seed", "1")
    good = make(tmp_path).read_bytes()
    rnd = random.Random(44)
    junk = []
    for _ in range(30):
        if rnd.random() < 0.5:
            junk.append(good[:rnd.randrange(1, 1400)] + rnd.randbytes(rnd.randrange(0, 4096)))  # cut before the signature
        else:
            junk.append(rnd.randbytes(rnd.randrange(1, 70000)))
    answers, _, _ = send(tmp_path / "state", junk + [good])
    assert [s for s, _ in answers[:-1]] == [400] * len(junk), answers
    assert answers[-1][0] == 202
    assert sorted(p.name for p in update_dir.iterdir()) == ["request.json", "status.json", "upload.bundle"]
