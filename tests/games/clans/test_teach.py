"""A family's first game (issue 55): each rule explained once, the moment it first matters, on the
panel (its own pages first in the message it belongs to), aloud and on the page; one log line
`teach {"rule": NAME}` each; never twice in a game (undo, replay, restart); the same keys play the
same game with and without teaching; golden frames of every rule in five languages.

The oracle below reads a finished game's record with the board's chart (RULES.md R4, R5), not the
companion's own teaching code, to find the move where each rule first applies."""

from __future__ import annotations

import json
import logging
import os
import random
from pathlib import Path

import pytest
from PIL import Image

from companion import i18n
from companion.games.clans import texts_teach as TT
from companion.games.clans.board import COLORS
from companion.games.clans.controller import Controller
from companion.games.clans.game import Game
from companion.games.clans.record import Record
from companion.games.clans.teach import RULES
from companion.kiosk import daemon
from companion.table.effects import Announce
from companion.table.render import render
from companion.table.screen import BODY_COLS, BODY_ROWS, SMALL_COLS, paginate
from tests.games.clans.clans_helpers import feed
from tests.support import full_game_script

GOLDEN = Path(__file__).resolve().parent / "golden"
CHIPS_PER_EPOCH = (4, 3, 2, 2, 1)  # the chart: villages 1-4 epoch I, 5-7 II, 8-9 III, 10-11 IV, 12 V


def epoch_of(chip: int) -> int:
    """The epoch of the chip-th village (1-based), from the chart."""
    total = 0
    for epoch, n in enumerate(CHIPS_PER_EPOCH, start=1):
        total += n
        if chip <= total:
            return epoch
    raise ValueError(chip)


def first_moves(record: Record) -> dict[str, int]:
    """Each rule's first move (1-based; 0: before the first move) in a record of a game typed by persons,
    worked out from the huts on the board and the chart: what the rules say, not how the box teaches."""
    game = Game(record.players, record.setup, record.first_player)
    first = {"move": 0}
    board = game.board
    for n, m in enumerate(record.moves, start=1):
        iso = game.isolated_by(m.frm, m.to)
        chips_before = len(game.villages)
        # the order question: several villages whose positions fall in different epochs (or past the 12th)
        positions = [chips_before + i + 1 for i in range(len(iso))]
        kinds = {epoch_of(p) if p <= 12 else None for p in positions}
        founded = []
        order = list(m.order) if m.order else iso
        for i, t in enumerate(order):
            chip = chips_before + i + 1
            if chip > 12:
                break
            huts = dict(game.huts(t))
            if t == m.to:
                for c, k in game.huts(m.frm).items():
                    huts[c] = huts.get(c, 0) + k
            founded.append((t, chip, huts))
        game.push(m.frm, m.to, m.order)
        seen = {"village": bool(founded), "order": len(iso) >= 2 and len(kinds) > 1,
                "seven": any(sum(game.huts(t).values()) >= 7 for t in range(1, 61) if t in game.live)}
        for t, chip, huts in founded:
            epoch = board.epochs[epoch_of(chip) - 1]
            strife = len([c for c in COLORS if huts.get(c)]) == 5
            left = sum(k for k in huts.values() if not (strife and k == 1))
            terrain = board.territories[t].terrain
            seen["strife"] = seen.get("strife") or (strife and any(k == 1 for k in huts.values()))
            if chip == 12:
                seen["twelfth"] = True
            elif left and terrain == epoch.hostile:
                seen["hostile"] = True
            elif left and epoch.favorable in (terrain, "all"):
                seen["favorable"] = True
            seen["epoch"] = seen.get("epoch") or epoch_of(chip) == 2
        for rule, yes in seen.items():
            if yes and rule not in first:
                first[rule] = n
    return first


def taught_per_move(c: Controller, script: str) -> tuple[dict[str, int], list]:
    """Feed a key script; for each rule taught, the number of moves played when it was (0: before the first)."""
    at: dict[str, int] = {}
    frames = []
    for key in script:
        if key == "\n":
            continue
        c.handle(key, 0)
        for e in c.pop_effects():
            if isinstance(e, Announce) and e.event == "teach":
                assert e.fields["rule"] not in at, f"{e.fields['rule']} taught twice"
                at[e.fields["rule"]] = c.game.ply
        if c.info.shown:
            frames.append(c.screen())
    return at, frames


def teaching(players: int, seed: int) -> Controller:
    return Controller.quick_start(players, random.Random(seed), teach=True)


# ----- each rule once, at the move where it first applies ---------------------------------------------
@pytest.mark.parametrize("game_no", range(6))
def test_each_rule_is_taught_at_the_move_where_it_first_applies(game_no):
    seed = random.SystemRandom().randrange(10 ** 9)  # a hidden seed: said on failure
    players = 2 + game_no % 3
    script, _moves, _colors = full_game_script(players, seed)
    c = teaching(players, seed)
    at = {"move": 0} if "move" in c.state.taught else {}
    got, frames = taught_per_move(c, script)
    at.update(got)
    record = c.record()
    want = first_moves(record)
    assert at == want, f"players {players} seed {seed}"
    assert c.state.taught == sorted(want, key=lambda r: (want[r], RULES.index(r))), f"seed {seed}"
    for s in frames:  # every explanation fits the panel, at most three pages each
        assert len(s.title) <= SMALL_COLS - (4 if s.pages > 1 else 0), (seed, s.title)
        assert all(len(line) <= BODY_COLS for line in s.lines) and len(s.lines) <= BODY_ROWS
    # the same keys, without teaching: the same game
    plain = Controller.quick_start(players, random.Random(seed))
    feed(plain, script.replace("\n", ""))
    assert plain.record().to_json() == record.to_json() and not plain.state.taught


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_explanation_is_at_most_three_pages_in_every_language(lang):
    i18n.set_language(lang)
    try:
        values = {"territory": 14, "terrain": "mountain", "epoch": 2, "bonus": 2, "favorable": "mountain",
                  "hostile": "grassland"}
        for rule in RULES:
            pages = paginate(TT.paragraphs(rule, values))
            assert 1 <= len(pages) <= 3, (lang, rule, len(pages))
            assert len(TT.title(rule)) <= SMALL_COLS - 4, (lang, rule)
    finally:
        i18n.set_language("en")


# ----- the log line, the voice, the journal, undo and restart -------------------------------------------
GOLDEN_GAME = (3, 13)  # players, seed: a typed game whose moves show every rule a move can show


def script_with_a_refusal(players: int, seed: int) -> str:
    """The seed's whole-game keys with, after the first move, a move onto the territory it emptied
    (refused: nothing changes in the game)."""
    script, moves, _colors = full_game_script(players, seed)
    lines = script.splitlines()
    frm, _to = moves[0]
    c = Controller.quick_start(players, random.Random(seed))
    feed(c, lines[0])
    neighbour = next(t for t in c.game.rules.nb_list[frm] if t in c.game.live)
    return "\n".join([lines[0], f"{neighbour}#{frm}#", *lines[1:]]) + "\n"


def run_table(tmp_path: Path, *argv: str, keys: str):
    path = tmp_path / f"keys{len(list(tmp_path.glob('keys*')))}"
    path.write_text(keys)
    d = daemon.build(daemon.parse_args(["--display", "dummy", "--keys", str(path), *argv]))
    assert d.run() == 0
    return d


def teach_lines(caplog) -> list[dict]:
    return [json.loads(r.getMessage()[len("teach "):]) for r in caplog.records if r.getMessage().startswith("teach ")]


def test_each_explanation_logs_one_line_and_is_said(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    players, seed = GOLDEN_GAME
    keys = script_with_a_refusal(players, seed)
    log = tmp_path / "said.jsonl"
    d = run_table(tmp_path, "--players", str(players), "--seed", str(seed), "--teach", "--announce-log", str(log),
                  "--record-out", str(tmp_path / "taught.json"), keys=keys)
    lines = teach_lines(caplog)
    assert [x["rule"] for x in lines] == d.shell.game.state.taught and set(x for x in lines[0]) == {"rule"}
    assert sorted(x["rule"] for x in lines) == sorted(RULES)  # every rule once: the refusal taught `empty`
    said = [json.loads(line) for line in log.read_text().splitlines()]
    taught = [s for s in said if s["event"] == "teach"]
    assert [s["text"] for s in taught][:1] == [" ".join(TT.paragraphs("move", {}))]
    assert len(taught) == len(RULES)
    # without --teach: the same keys, no line, the same game
    caplog.clear()
    run_table(tmp_path, "--players", str(players), "--seed", str(seed), "--record-out", str(tmp_path / "plain.json"),
              keys=keys)
    assert teach_lines(caplog) == []
    assert (tmp_path / "plain.json").read_text() == (tmp_path / "taught.json").read_text()


def test_undo_replay_and_restart_never_teach_twice(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    players, seed = GOLDEN_GAME
    script, moves, _colors = full_game_script(players, seed)
    lines = script.splitlines()
    first = first_moves_of_script(players, seed)
    village = first["village"]  # the move that founds the first village: typed, undone, typed again
    keys = "\n".join(lines[:village]) + "\nC#" + lines[village - 1] + "\n"
    state = tmp_path / "state"
    run_table(tmp_path, "--players", str(players), "--seed", str(seed), "--teach", "--state-dir", str(state), keys=keys)
    assert [x["rule"] for x in teach_lines(caplog)].count("village") == 1
    # a restart: the journal knows what was taught; the game goes on and teaches only what is new
    caplog.clear()
    rest = "\n".join(lines[village:]) + "\n"
    d = run_table(tmp_path, "--state-dir", str(state), keys=rest)
    again = [x["rule"] for x in teach_lines(caplog)]
    assert d.shell.game.state.teach and "village" not in again and "move" not in again
    assert sorted(d.shell.game.state.taught) == sorted(set(first))
    assert d.shell.game.game.is_over


def first_moves_of_script(players: int, seed: int) -> dict[str, int]:
    script, _moves, _colors = full_game_script(players, seed)
    c = Controller.quick_start(players, random.Random(seed))
    feed(c, script.replace("\n", ""))
    return first_moves(c.record())


def test_seven_huts_refused_is_taught_with_the_refusal():
    c = teaching(2, 5)
    c.pop_effects()
    rnd = random.Random(5)
    while not c.game.big:  # play on until a group of 7 stands (taught then, as it could refuse)
        frm, to = c.game.random_move(rnd.random)
        feed(c, f"{frm}#{to}#")
        while c.mode() == "order":
            feed(c, f"{rnd.choice(c.order_choices())}#")
        if c.game.is_over:
            pytest.skip("no group of 7 in this game")
    assert "seven" in c.state.taught
    c2 = Controller.quick_start(2, random.Random(5), teach=True)
    for m in c.game.moves:  # the same position in a fresh teaching game, "seven" not yet taught there
        c2.state.game.push(m.frm, m.to, m.order)
    big = next(t for t in c2.game.live if sum(c2.game.huts(t).values()) >= 7)
    small = next((t for t in c2.game.rules.nb_list[big] if t in c2.game.live
                  and sum(c2.game.huts(t).values()) < 7), None)
    if small is None:
        pytest.skip("the big group has no smaller neighbour")
    c2.pop_effects()
    feed(c2, "*")  # how to move (taught as play began) goes
    feed(c2, f"{big}#")  # refused at once when the group has nowhere to go, else at its smaller neighbour
    if c2.screen().name == "entry":
        feed(c2, f"{small}#")
    s = c2.screen()
    assert s.name == "teach-seven" and s.title == TT.title("seven") and c2.state.taught[-1] == "seven"
    feed(c2, "#")
    assert c2.screen().name == "illegal"


# ----- the table: the question, the page, the end ----------------------------------------------------------
def test_the_bots_screen_asks_first_game_and_journals_it():
    c = Controller(random.Random(2))
    feed(c, "2#0#")
    assert c.screen().choices[-2:] == ("0 teach rules: no", "Start")
    feed(c, "0")
    assert c.screen().choices[-2] == "0 teach rules: yes"
    said = [e.fields for e in c.pop_effects() if getattr(e, "event", None) == "teach-choice"]
    assert said == [{"on": True}]
    feed(c, "#")
    new = next(a for e in c.pop_effects() if hasattr(e, "actions") for a in e.actions if a["a"] == "new")
    assert new["teach"] is True and c.state.teach
    rebuilt = Controller.from_actions([{"a": "players", "n": 2}, new, {"a": "ready"}, {"a": "taught", "rule": "move"}])
    assert rebuilt.state.teach and rebuilt.state.taught == ["move"]
    c = Controller(random.Random(2))
    c.teach_default = True  # the config's game.teach / --teach
    feed(c, "2#0#")
    assert c.ui.teach_choice


def test_a_first_game_ends_with_what_decided_it_and_the_offer():
    players, seed = GOLDEN_GAME
    script, _moves, colors = full_game_script(players, seed)
    c = teaching(players, seed)
    c.teach_default = True
    feed(c, script.replace("\n", ""))
    while c.info.shown:
        feed(c, "*")
    from companion.games.clans.screens import final_pages
    pages = final_pages(c.state)
    assert [p[0] for p in pages][-1] == "decided"
    text = " ".join(pages[-1][2])
    totals, winners = c.game.winners(colors)
    assert f"won with {totals[winners[0]]}" in text and "# = play again without" in text
    for _ in pages:
        feed(c, "#")
    assert c.screen().name == "players" and c.teach_default is False
    from companion.games.clans.web import live_html, public_state
    assert public_state(c)["teach"] is True


def test_the_page_lists_the_rules_taught_so_far():
    from companion.games.clans.web import live_html
    players, seed = GOLDEN_GAME
    script, _moves, _colors = full_game_script(players, seed)
    c = teaching(players, seed)
    feed(c, "".join(script.splitlines()[:23]))
    page = live_html(c)
    assert "First game: the rules so far" in page
    for rule in c.state.taught:
        assert TT.title(rule) in page
    plain = Controller.quick_start(players, random.Random(seed))
    assert "First game" not in live_html(plain)


# ----- golden frames: every rule's first page in five languages --------------------------------------------
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_golden_frames_of_every_rule(lang):
    players, seed = GOLDEN_GAME
    keys = script_with_a_refusal(players, seed).replace("\n", "")
    i18n.set_language(lang)
    try:
        c = teaching(players, seed)
        seen: dict[str, Image.Image] = {}
        for key in ["", *keys]:
            if key:
                c.handle(key, 0)
            info = c.info
            for i, name in enumerate(info.names if info.shown else []):
                if name.startswith("teach-") and (i == 0 or info.names[i - 1] != name) and name not in seen:
                    page = info.page
                    info.page = i
                    seen[name] = render(c.screen())
                    info.page = page
        assert sorted(seen) == sorted(f"teach-{r}" for r in RULES)
        for name, img in seen.items():
            path = GOLDEN / f"{name}-{lang}.png"
            if os.environ.get("UPDATE_GOLDEN"):
                img.save(path, optimize=True)
            assert img.tobytes() == Image.open(path).convert("1").tobytes(), (name, lang)
    finally:
        i18n.set_language("en")
