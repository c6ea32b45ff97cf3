"""The table's announcements, from effects to words: the announce log, speech and the buzzer.

The loop hands every `Announce` effect to `Announcer.add` and calls `flush` after a
key's effects (and before a bot starts thinking, so the table hears the last move
while it waits). `flush` says each announcement in the table's language of that
moment (the game's `say` through the registry, the table's own through
companion.table.speech), writes one JSON line per announcement to the announce log
(`companion run --announce-log FILE`, spec section 6: kind, event, lang, text), and
feeds the sound adapters (companion.hw.sound), which play on their own threads: the
loop never waits for a voice or a beep.

Barge-in: the first batch after a key interrupts whatever is still being said; a
bot's move after it is queued behind it. The last spoken batch is kept for `repeat`
(the menu's item, a long press). The settings (speech, buzzer, volume, speed) only
switch the outputs: the log gets every announcement, for a deaf player's tablet.
"""

from __future__ import annotations

import json
import logging
from typing import Any, Callable, TextIO

from companion import i18n
from companion.table import seatnames
from companion.table.effects import Announce
from companion.table.sound import SoundSettings
from companion.table import speech as table_speech

log = logging.getLogger("companion.sound")


def say(effect: Announce) -> str:
    """The words of one announcement in the table's language."""
    if effect.kind == "beep" and effect.source == "table":
        return table_speech.beep_text(effect.event)
    if effect.kind == "beep":
        from companion.games import find_game

        return find_game(effect.source).sound_text(effect.event)
    if effect.source == "table":
        return table_speech.say(effect.event, effect.fields)
    from companion.games import find_game

    return find_game(effect.source).say(effect.event, effect.fields)


def pattern_name(effect: Announce) -> str:
    """The buzzer's name of a beep's pattern: the table's own by its event, a game's as "kind/event"."""
    return effect.event if effect.source == "table" else f"{effect.source}/{effect.event}"


def buzzer_patterns() -> dict[str, Any]:
    """Every registered game's buzzer patterns (`GameType.sounds`), named as `pattern_name` names them."""
    from companion.games import GAMES

    return {f"{game.kind}/{event}": pattern for game in GAMES.values() for event, pattern in game.sounds.items()}


class Announcer:
    """Announcements in, words out: the log, the voice, the buzzer (each optional)."""

    def __init__(self, settings: SoundSettings, log_file: TextIO | None = None, voice: Any = None,
                 buzzer: Any = None, words: Callable[[Announce], str] = say) -> None:
        self.settings = settings
        self.log_file = log_file
        self.voice = voice  # companion.hw.sound.Voice or a stand-in: say(texts, lang, interrupt), stop(), close()
        self.buzzer = buzzer  # companion.hw.sound.BuzzerOut or a stand-in: play(event), close()
        self.words = words
        self.pending: list[Announce] = []
        self.last: list[Announce] = []  # the last batch that had speech in it, for repeat
        self.interrupt = False
        self.names: Callable[[], Any] = lambda: None  # the seats' names now (the loop sets it)

    def key_pressed(self) -> None:
        """A key came in: the next batch interrupts whatever is still being said."""
        self.interrupt = True

    def add(self, effect: Announce) -> None:
        self.pending.append(effect)

    def set(self, settings: SoundSettings) -> None:
        """New settings; speech switched off stops the voice at once."""
        if self.voice is not None and self.settings.speech and not settings.speech:
            self.voice.stop()
        self.settings = settings

    def flush(self) -> None:
        """Say, beep and log what was added since the last flush."""
        batch, self.pending = self.pending, []
        if not batch:
            return
        if any(a.kind == "speech" for a in batch):
            self.last = batch
        self._out(batch, self.interrupt)
        self.interrupt = False

    def repeat(self) -> None:
        """The last spoken batch again, in the language of now (its beeps stay quiet)."""
        self._out([a for a in self.last if a.kind == "speech"], True)

    def _out(self, batch: list[Announce], interrupt: bool) -> None:
        lang = i18n.language()
        texts = []
        with seatnames.using(self.names()):  # "Anna to move", in the voice and the log alike
            self._words(batch, lang, texts)
        if texts and self.voice is not None and self.settings.speech:
            self.voice.say(texts, lang, self.settings.volume, self.settings.speed, interrupt)

    def _words(self, batch: list[Announce], lang: str, texts: list[str]) -> None:
        for effect in batch:
            try:
                text = self.words(effect)
            except Exception:
                log.exception("announcement %s/%s cannot be said", effect.source, effect.event)
                continue
            self._log(effect, lang, text)
            if effect.kind == "beep":
                if self.buzzer is not None and self.settings.buzzer:
                    self.buzzer.play(pattern_name(effect))
            else:
                texts.append(text)

    def _log(self, effect: Announce, lang: str, text: str) -> None:
        if self.log_file is None:
            return
        line = {"kind": effect.kind, "event": effect.event, "lang": lang, "text": text}
        try:
            self.log_file.write(json.dumps(line, ensure_ascii=False) + "\n")
            self.log_file.flush()  # a tablet (or a test) reads it while the game goes on
        except (OSError, ValueError) as exc:
            log.error("announce log: cannot write (%s); it stops", exc)
            self.log_file = None

    def close(self) -> None:
        for out in (self.voice, self.buzzer):
            if out is not None:
                try:
                    out.close()
                except Exception:
                    log.exception("closing %r", out)
        if self.log_file is not None:
            try:
                self.log_file.close()
            except OSError:
                pass
