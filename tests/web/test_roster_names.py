"""Players' names on the table's page: the roster's save is a door of the names' rule (a refused
name answers 400 with one line the page shows, naming it; an accepted one reaches the daemon as
written), and names an old journal kept against the rule never break a page: what a name may not
hold shows as its code ("\\u202eAnna 18", never "81 annA"), JSON and downloads stay well-formed.
"""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET

import pytest

from companion.hw.keysocket import KeySocket, RosterUpdate
from companion.table.seatnames import shorten
from companion.util.safe_text import printable
from tests.history.test_names_history import OLD, old_journal
from tests.hw.waiting import wait_until
from tests.web.webtools import advance, app_for, client, run, table

BIDI_AND_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


async def post_names(state_dir, sock_path, batches):
    """Log in with the PIN, then post each batch of names to /api/roster: [(status, answer)]."""
    async with client(app_for(state_dir, pin="4711", roster=["Anna"], key_socket=sock_path)) as c:
        origin = {"Origin": f"http://{c.host}:{c.port}"}
        csrf = (await (await c.post("/api/login", json={"pin": "4711"}, headers=origin)).json())["csrf"]
        out = []
        for names in batches:
            r = await c.post("/api/roster", json={"names": names}, headers={**origin, "X-CSRF-Token": csrf})
            out.append((r.status, await r.json()))
        return out


@pytest.fixture
def socket_and_sent(tmp_path):
    sent: list = []
    path = str(tmp_path / "keys.sock")
    sock = KeySocket(path, sent.append)
    sock.start()
    yield path, sent
    sock.close()


@pytest.mark.parametrize("names, said", [
    (["Anna", "Ana\u200b"], '"Ana\\u200b" holds U+200B ZERO WIDTH SPACE (character 4), an invisible formatting '
                             "character: leave it out of the name"),
    (["\u202eAnna"], '"\\u202eAnna" holds U+202E RIGHT-TO-LEFT OVERRIDE (character 1), a bidirectional control, '
                     "which turns the text around it: leave it out of the name"),
    (["An\x00na"], '"An\\u0000na" holds U+0000 (character 3), a control character: leave it out of the name'),
    (["👨\u200d👩\u200d👧"], "U+200D ZERO WIDTH JOINER (character 2)"),
    (["x" * 25], "has 25 characters: a name has at most 24; shorten it"),
])
def test_the_roster_save_refuses_a_bad_name_with_one_line_the_page_shows(tmp_path, socket_and_sent, names, said):
    sock_path, sent = socket_and_sent
    state_dir = tmp_path / "state"
    table(state_dir, "--players", "2", "--seed", "1")
    ((status, answer),) = run(post_names(state_dir, sock_path, [names]))
    assert status == 400 and said in answer["error"] and "\n" not in answer["error"]
    assert not BIDI_AND_CONTROLS.search(answer["error"])
    assert not any(isinstance(e, RosterUpdate) for e in sent)  # refused before it was sent to the daemon


def test_the_roster_save_keeps_accepted_names_as_written(tmp_path, socket_and_sent):
    sock_path, sent = socket_and_sent
    state_dir = tmp_path / "state"
    table(state_dir, "--players", "2", "--seed", "1")
    names = ["Łukasz", " שלום ", "Ana😀", "Zoe\u0308", "<b>&amp;", '"Q"']
    ((status, answer),) = run(post_names(state_dir, sock_path, [names]))
    kept = ["Łukasz", "שלום", "Ana😀", "Zoë", "<b>&amp;", '"Q"']
    assert status == 200 and answer == {"roster": kept}
    assert wait_until(lambda: RosterUpdate(tuple(kept)) in sent)


def test_the_daemon_takes_the_roster_from_the_page_and_asks_with_it(tmp_path):
    """The page's roster reaches the table's names question, drawn on the OLED (issue 31's crash)."""
    from companion.table.render import render

    state_dir = tmp_path / "state"
    d = table(state_dir, "--players", "2", "--seed", "1")
    d.step(RosterUpdate(("Łukasz", "שלום", "Ana😀")))  # what the key socket hands the loop
    assert d.shell.roster == ["Łukasz", "שלום", "Ana😀"]
    d.journal.journal.close()
    again = table(state_dir, "--players", "2", "--seed", "2")  # a new game: who is P1?
    screen = again.shell.screen()
    assert screen.name == "names" and screen.choices == ("1 Łukasz", "2 שלום", "3 Ana😀", "4 Guest")
    assert again.failures.count == 0 and not again.failed
    assert again.panel.sink.device.image.tobytes() == render(screen).tobytes()


async def fetch(app, paths):
    async with client(app) as c:
        out = {}
        for path in paths:
            r = await c.get(path)
            out[path] = (r.status, await r.text())
        return out


def test_names_an_old_journal_kept_show_as_codes_and_every_answer_stays_well_formed(tmp_path):
    state_dir = tmp_path / "state"
    old_journal(state_dir, [OLD[:2], OLD[2:4], OLD[4:]])
    got = run(fetch(app_for(state_dir), ("/history", "/stats", "/api/history", "/api/stats", "/export/bgg",
                                         "/export/bgstats", "/export/json", "/export/csv")))
    assert all(status == 200 for status, _ in got.values()), {p: s for p, (s, _) in got.items()}
    history = got["/history"][1]
    assert "\\u202eAnna <b>30</b>" in history and "\\u0000" in history and "\\ud800Cy" in history
    assert "\\u001b[2JDee" in history and "Eve\\u000aline" in history
    for path in ("/history", "/stats"):
        assert not BIDI_AND_CONTROLS.search(got[path][1].replace("\n", "")), path
    assert [n for g in json.loads(got["/api/history"][1]) for n in g["players"]] == OLD  # the data keeps them
    assert "\u202eAnna" in json.loads(got["/api/stats"][1])["players"]
    ET.fromstring(got["/export/bgg"][1].encode("utf-8"))
    assert [n for r in json.loads(got["/export/json"][1]) for n in r["names"]] == OLD
    json.loads(got["/export/bgstats"][1])


def test_a_live_game_with_old_names_shows_them_as_codes(tmp_path):
    state_dir = tmp_path / "state"
    d = table(state_dir, "--players", "3", "--seed", "2")
    old = ["\u202eAnna", "B\x00\ud800", "Cy\u200b"]
    d.shell._give_names(old)  # as a version before the rule journaled them
    d.drain()
    rnd = random.Random(4)
    for _ in range(3):  # the replay's steps name the movers
        advance(d, rnd)
    got = run(fetch(app_for(state_dir), ("/", "/api/state", "/replay/1", "/api/record/1")))
    assert all(status == 200 for status, _ in got.values()), {p: s for p, (s, _) in got.items()}
    page = got["/"][1] + got["/replay/1"][1]
    assert not BIDI_AND_CONTROLS.search(page.replace("\n", ""))
    steps = re.findall(r'step=\d+"[^>]*>\d+\. (\S+) ', got["/replay/1"][1])  # "3. Cy\u20. 24 → 22"
    assert steps and set(steps) <= {shorten(printable(n)) for n in old}, steps
    json.loads(got["/api/state"][1])
    assert json.loads(got["/api/record/1"][1])["names"] == old  # the record keeps the names as kept


def test_a_roster_an_old_journal_kept_shows_as_codes(tmp_path):
    from companion.journal.store import Journal

    state_dir = tmp_path / "state"
    journal = Journal(state_dir)
    journal.set_setting("roster", ["\u202eAnna", "B\x00"])
    journal.close()
    got = run(fetch(app_for(state_dir, pin="4711"), ("/roster",)))
    status, page = got["/roster"]
    assert status == 200 and "<li>\\u202eAnna</li><li>B\\u0000</li>" in page
    assert not BIDI_AND_CONTROLS.search(page.replace("\n", ""))


def test_a_total_after_a_right_to_left_name_stays_on_its_right(tmp_path):
    """"שלום 18" must not read "18 שלום": the total is a bidirectional isolate in the page's style."""
    css = run(fetch(app_for(tmp_path / "state"), ("/static/style.css",)))["/static/style.css"][1]
    assert re.search(r"ul\.seats b[^{]*\{[^}]*unicode-bidi: isolate", css)
