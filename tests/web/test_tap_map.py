"""Tap the map (issue 43, item 7): while a person is to move, the live Clans map names each territory a tap
target (`data-tap`) and the keys two taps type (`data-tap-keys`, filled by page.js with the two numbers);
they go through the keypad's own door (/api/keys: session, CSRF token, Origin) to the daemon, whose screen
then shows the move entry exactly as after typing the two numbers on the keypad, with the same checks; the
player's # plays the move. The taps themselves, in a real browser: tests/web/test_browser.py."""

from __future__ import annotations

import queue
import re

from companion.hw.keysocket import KeySocket
from companion.table import keys as K
from companion.web.http import VIEWS
from tests.web.webtools import app_for, client, run, table

GAME = ("--players", "2", "--seed", "3", "--bots", "2")  # P1 a person, P2 a bot
PIN = "4711471147"


def tap_keys(html: str, frm: int, to: int) -> str:
    """What page.js sends for a tap on `frm`, then on `to`: the map's data-tap-keys, filled in."""
    template = re.search(r'data-tap-keys="([^"]*)"', html).group(1)
    return template.replace("{from}", str(frm)).replace("{to}", str(to))


def tap_targets(html: str) -> set[int]:
    return {int(n) for n in re.findall(r'<g [^>]*data-tap="(\d+)"', html)}


def next_keys(got: queue.Queue, n: int) -> list[str]:
    """The next `n` keys the key socket handed on (other messages passed over), each waited for as it comes."""
    keys: list[str] = []
    while len(keys) < n:
        item = got.get(timeout=60)
        if isinstance(item, str):
            keys.append(item)
    return keys


def test_two_taps_type_the_move_as_the_keypad_does(tmp_path):
    for side in "ab":
        (tmp_path / side).mkdir()
    d = table(tmp_path / "a" / "state", *GAME)
    typed = table(tmp_path / "b" / "state", *GAME)  # the same game, typed on the keypad
    for t in (d, typed):  # the deal of the colors and the setup walkthrough: # each
        for _ in range(20):
            if t.shell.game.mode() == "move":
                break
            t.step(K.OK)
    game = d.shell.game.game
    assert d.shell.game.mode() == "move" and game.to_move == 0
    frm = game.movable()[0]
    to = game.targets(frm)[0]
    far = next(t for t in sorted(game.board.territories) if t != frm and t not in game.targets(frm))
    got: queue.Queue = queue.Queue()
    sock = KeySocket(str(tmp_path / "keys.sock"), got.put)
    sock.start()
    app = app_for(tmp_path / "a" / "state", pin=PIN, key_socket=str(tmp_path / "keys.sock"))

    async def go():
        async with client(app) as c:
            app[VIEWS].refresh()
            html = (await (await c.get("/api/view")).json())["html"]
            assert tap_targets(html) == set(game.board.territories)  # every territory, the person to move
            origin = {"Origin": f"http://{c.host}:{c.port}"}
            login = await c.post("/api/login", json={"pin": PIN}, headers=origin)
            headers = {**origin, "X-CSRF-Token": (await login.json())["csrf"]}

            async def send(keys: str) -> None:
                assert (await c.post("/api/keys", json={"keys": keys}, headers=headers)).status == 200
                for key in next_keys(got, len(keys)):
                    d.step(key)

            # an illegal move: refused by the controller as typed keys are, with its usual message
            await send(tap_keys(html, frm, far) + K.OK)
            for key in f"{frm}#{far}#":
                typed.step(key)
            assert d.shell.screen().name == typed.shell.screen().name == "illegal"
            assert d.shell.screen() == typed.shell.screen()
            d.step("5")  # and a digit half typed at the box: the taps clear it first (BACK, BACK)
            keys = tap_keys(html, frm, to)
            assert keys == K.BACK + K.BACK + f"{frm}{K.OK}{to}"
            await send(keys)
            for key in f"{frm}#{to}":
                typed.step(key)
            screen = d.shell.screen()
            assert screen == typed.shell.screen()  # the move entry, filled in as typed
            assert screen.name == "entry" and f"{frm} -> {to}" in screen.entry
            assert game.ply == 0  # not played: the player confirms
            await send(K.OK)  # the page's keypad's #
            assert game.ply == 1 and (game.moves[-1].frm, game.moves[-1].to) == (frm, to)
            app[VIEWS].refresh()
            bots_turn = (await (await c.get("/api/view")).json())["html"]
            replay = await (await c.get(f"/replay/{app[VIEWS].live.payload['game_id']}?step=0")).text()
            return bots_turn, replay

    try:
        bots_turn, replay = run(go())
    finally:
        sock.close()
    assert "data-tap" not in bots_turn  # a bot's turn: # there would play the bot's move
    assert "data-tap" not in replay and "data-t=" in replay  # a replay's map is never tapped
