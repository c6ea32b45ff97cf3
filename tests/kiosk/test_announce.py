"""What the table says: `companion run --announce-log FILE` over whole scripted games in two
languages, barge-in and a bounded queue under a key storm, Say again (menu item and the REPEAT
key), the Sound menu journaled like the brightness, and a missing voice never stopping a game."""

from __future__ import annotations

import json
import logging
import random
import threading

import pytest

from companion import i18n
from companion.kiosk import daemon
from companion.hw import sound
from companion.util.errors import UsageError
from companion.table.screen import overflows
from companion.table.sound import SoundMenu, SoundSettings

from tests.support import full_game_script
from tests.kiosk.test_languages import GALLERY, run


def lines(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def clans_game(tmp_path, code: str, script: str) -> tuple[list[dict], bytes]:
    keys, log, out = tmp_path / "game.keys", tmp_path / f"{code}.jsonl", tmp_path / f"{code}.json"
    keys.write_text(script)
    run(["--display", "dummy", "--players", "3", "--seed", "4", "--keys", str(keys), "--lang", code,
         "--announce-log", str(log), "--record-out", str(out)])
    return lines(log), out.read_bytes()


def test_a_whole_clans_game_is_announced_in_two_languages(tmp_path):
    script, moves, _ = full_game_script(3, 4)
    said, records = {}, {}
    for code in ("it", "de"):
        said[code], records[code] = clans_game(tmp_path, code, script)
    it, de = said["it"], said["de"]
    assert records["it"] == records["de"]  # what is said never reaches the record
    assert [(a["kind"], a["event"]) for a in it] == [(a["kind"], a["event"]) for a in de]
    assert {a["lang"] for a in it} == {"it"} and {a["lang"] for a in de} == {"de"}
    assert all(set(a) == {"kind", "event", "lang", "text"} and a["text"] for a in it + de)
    events = [(a["kind"], a["event"]) for a in it]
    assert events.count(("speech", "move")) == len(moves)
    assert events.count(("speech", "village")) == events.count(("beep", "village")) == 12
    assert events.count(("speech", "epoch")) == events.count(("beep", "epoch")) >= 4
    assert events[-3:] == [("beep", "end"), ("speech", "end"), ("speech", "result")]
    assert events[0] == ("speech", "turn")
    first_village = next(a["text"] for a in it if a["event"] == "village" and a["kind"] == "speech")
    assert first_village.startswith("Villaggio sul ")
    assert next(a["text"] for a in de if a["event"] == "village" and a["kind"] == "speech").startswith("Dorf auf ")
    for a, b in zip(it, de):
        if a["kind"] == "speech" and a["event"] in ("move", "village", "epoch", "result"):
            assert a["text"] != b["text"]  # said in each language, not once in English
    for text in (a["text"] for a in it + de):
        assert "->" not in text and "#" not in text and " P1" not in text  # nothing a voice would spell


def test_the_move_result_says_what_to_do_in_order(tmp_path):
    """The issue's example: "Village on 14, epoch 1, forest plus 1. Remove the single green, yellow
    and blue huts. Black and red score 6." (our board and numbers, in English)."""
    from companion.games.clans.speech import say

    text = say("village", {"territory": 14, "epoch": 1, "chip": 3, "terrain": "forest", "bonus": 1,
                           "removed": ["green", "yellow", "blue"], "left": 3, "destroyed": False, "value": 6,
                           "colors": ["black", "red"]})
    assert text == ("Village on 14, epoch 1, forest plus 1. Remove the single green, yellow and blue huts. "
                    "Black and red score 6.")
    assert say("village", {"territory": 7, "epoch": 2, "chip": 5, "terrain": "mountain", "bonus": 0,
                           "removed": [], "left": 4, "destroyed": True, "value": 0, "colors": []}) == \
        "Village on 7, epoch 2, mountain. Hostile terrain: remove all 4 huts. Nobody scores."
    assert say("epoch", {"epoch": 2, "favorable": "steppe", "bonus": 2, "hostile": "forest"}) == \
        "Epoch 2 begins. Favorable: steppe, plus 2. Hostile: forest."


def test_valley_of_the_mammoths_says_each_phase_and_the_dice(tmp_path):
    keys, log = tmp_path / "m.keys", tmp_path / "m.jsonl"
    keys.write_text(GALLERY.mammut_script(3))
    for code in ("en", "it"):
        run(["--display", "dummy", "--game", "mammut", "--seed", "3", "--keys", str(keys), "--lang", code,
             "--announce-log", str(log)])
    said = lines(log)
    en = [a for a in said if a["lang"] == "en"]
    it = [a for a in said if a["lang"] == "it"]
    assert [a["event"] for a in en] == [a["event"] for a in it]
    phases = [a["text"] for a in en if a["event"] == "phase"]
    assert phases[0] == "Setup. Yellow places first."
    assert phases[1].startswith("Year 1, summer, turn 2. Phase 2, new animals. Draw ")  # the first game turn
    assert "Year 1, winter, turn 1. Phase 1, events. Draw an event card and resolve it." in phases
    assert any("Phase 3, animal movement. The direction die shows" in p for p in phases)
    dice = [a["text"] for a in en if a["event"] == "dice"]
    assert dice and all(t.startswith(("Die rolled: ", "Dice rolled: ")) for t in dice)
    assert [a["text"] for a in it if a["event"] == "phase"][1].startswith("Anno 1, estate, turno 2.")


class SlowSpeaker:
    """A voice that speaks until it is cut: the loop must never wait for it."""

    def __init__(self):
        self.started, self.cut = [], 0
        self.lock = threading.Lock()

    def speak(self, text, lang, volume, speed, cut):
        with self.lock:
            self.started.append(text)
        cut.wait()  # never finishes by itself
        with self.lock:
            self.cut += 1


def test_a_key_storm_barges_in_and_the_queue_stays_bounded(tmp_path):
    """Random keys (illegal moves, menus, undo) on a table with speech on and a voice that never
    finishes a sentence: every key is handled, each key's batch cuts the one before, the waiting
    sentences never pass the bound, and the game is the same as without a voice."""
    rnd = random.Random(15)
    storm = "".join(rnd.choice("0123456789#*ABC") for _ in range(600)) + "12#13#" * 5
    keys = tmp_path / "storm.keys"
    keys.write_text(storm)
    quiet_out, loud_out = tmp_path / "quiet.json", tmp_path / "loud.json"
    run(["--display", "dummy", "--players", "2", "--seed", "1", "--keys", str(keys), "--record-out", str(quiet_out)])
    d = daemon.build(daemon.parse_args(["--display", "dummy", "--players", "2", "--seed", "1", "--keys", str(keys),
                                        "--record-out", str(loud_out)]))
    speaker = SlowSpeaker()
    d.announcer.voice = voice = sound.Voice(speaker)
    d.announcer.set(SoundSettings(speech=True))
    longest, barged = [], []
    real_put = voice.worker.put

    def put(items, interrupt):
        real_put(items, interrupt)
        longest.append(len(voice.worker._items))
        barged.append(interrupt)

    voice.worker.put = put
    assert d.run() == 0
    assert quiet_out.read_bytes() == loud_out.read_bytes()
    # how many sentences the voice's thread began before the next key cut them depends on the machine's
    # speed; that every key's batch barged in, and that every sentence begun was cut, does not
    assert sum(barged) > 20 and speaker.started and speaker.cut >= len(speaker.started) - 1
    assert max(longest) <= sound.MAX_WAITING


def test_say_again_repeats_the_last_announcement_from_the_menu_and_the_key(tmp_path):
    log, keys = tmp_path / "a.jsonl", tmp_path / "k"
    keys.write_text("")
    d = daemon.build(daemon.parse_args(["--display", "dummy", "--players", "2", "--seed", "1", "--keys", str(keys),
                                        "--announce-log", str(log)]))
    for key in ["1", "2", "#", "1", "3", "#", "REPEAT", "D", "A", "A", "#"]:  # a move, a long press of MENU,
        d.step(key)                                                          # the item before the last: Say again
    d.announcer.close()
    said = [(a["event"], a["text"]) for a in lines(log)]
    assert said[0] == ("turn", "Player 1 to move.")  # said at the first key (run() says it at the start)
    batch = said[1:3]  # the move's result and whose turn it is
    assert batch == [("move", "Player 1 moves 1 hut from 12 to 13."), ("turn", "Player 2 to move.")]
    assert said[3:] == batch + batch
    assert d.shell.screen().name not in ("menu", "sound")


def test_sound_settings_are_journaled_like_the_brightness(tmp_path):
    state, keys = tmp_path / "state", tmp_path / "k"
    keys.write_text("DAA" + "A#" + "#B#B#*")  # Sound (3rd from the end): speech on, buzzer off, volume 3 -> 4, then leave
    d = run(["--display", "dummy", "--keys", str(keys), "--state-dir", str(state)])
    assert d.shell.sound.settings == SoundSettings(speech=True, buzzer=False, volume=4, speed=3)
    keys.write_text("")
    again = run(["--display", "dummy", "--keys", str(keys), "--state-dir", str(state)])
    assert again.shell.sound.settings == SoundSettings(speech=True, buzzer=False, volume=4, speed=3)


def test_the_sound_menu_fits_and_says_each_change_in_every_language():
    menu = SoundMenu(SoundSettings())
    try:
        for code in i18n.LANGUAGES:
            i18n.set_language(code)
            for _ in range(6):
                for item in range(4):
                    menu.selected = item
                    assert not overflows(menu.screen()), (code, menu.screen())
                    _, effects = menu.key("#")
                    assert effects[0].settings == menu.settings and effects[-1].event == "sound"
    finally:
        i18n.set_language("en")
    assert SoundMenu(SoundSettings(volume=5)).settings.changed("volume").volume == 1  # round


def test_stored_settings_that_make_no_sense_fall_back_to_the_config():
    default = SoundSettings(speech=True, volume=2)
    assert SoundSettings.from_stored({"speech": "yes", "volume": 9, "speed": 5}, default) == \
        SoundSettings(speech=True, volume=2, speed=5)
    assert SoundSettings.from_stored(None, default) == default


def test_an_unwritable_announce_log_is_a_clear_message(tmp_path):
    with pytest.raises(UsageError, match="--announce-log .*cannot open it"):
        daemon.open_announcer(str(tmp_path / "no" / "such" / "dir.jsonl"), None, SoundSettings(), outputs=False)


def test_no_espeak_ng_at_a_real_table_is_a_log_line_and_the_game_goes_on(tmp_path, monkeypatch, caplog):
    monkeypatch.setattr(sound.shutil, "which", lambda name: None)
    with caplog.at_level(logging.WARNING, "companion.sound"):
        announcer = daemon.open_announcer(None, None, SoundSettings(speech=True), outputs=True)
    try:
        assert "not installed" in caplog.text
        from companion.table.effects import Announce

        announcer.add(Announce("clans", "turn", {"seat": 0, "bot": False}))
        announcer.flush()  # nothing raises, nothing is said
        assert announcer.voice.worker.idle.wait(5)
    finally:
        announcer.close()


def test_the_table_hears_the_last_move_while_a_bot_thinks(tmp_path):
    """The announcements before a bot's search go out before it starts, not after its move."""
    log, keys = tmp_path / "b.jsonl", tmp_path / "k"
    keys.write_text("")
    d = daemon.build(daemon.parse_args(["--display", "dummy", "--players", "2", "--seed", "1", "--bots", "2",
                                        "--keys", str(keys), "--announce-log", str(log), "--bot", "random"]))
    heard_while_thinking = []

    class Searcher:
        name = "stand-in"

        def run(self, effect):
            heard_while_thinking.append([a["event"] for a in lines(log)])
            return None  # no move: the bot is asked again after the next key

    d.searchers["clans"] = Searcher()
    while d.shell.screen().name != "move" and d.shell.game.mode() != "move":
        d.step("#")  # through the dealing of the persons' colors
    frm, to = d.shell.game.game.random_move(random.Random(2).random)
    for key in f"{frm}#{to}#":
        d.step(key)
    # the move is heard while the bot thinks; whose turn it is waits for the bot's screen, which
    # shows once the move's result on the panel is gone (the voice is never ahead of the screen)
    assert heard_while_thinking and heard_while_thinking[0][-1] == "move"
    assert d.shell.screen().name == "result"
    d.step("#")
    assert heard_while_thinking[-1][-2:] == ["move", "turn"] and d.shell.screen().name.startswith("bot")
    d.announcer.close()
