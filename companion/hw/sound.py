"""The table's sound outputs: a voice (espeak-ng) and a buzzer (gpiozero), each on its own thread.

The loop only feeds them (`Voice.say`, `BuzzerOut.play` return at once); a worker
thread plays. A newer batch interrupts an older one still sounding (barge-in: the
espeak-ng process is ended, a buzzer pattern is cut), and what waits is bounded
(`MAX_WAITING` sentences; the oldest go first). Nothing here may stop a game: a
missing espeak-ng, an unplugged USB speaker or a buzzer that cannot be opened is
one log line (another when it works again) and a silent table.

Speech goes through the `espeak-ng` command of Debian's package (offline, voices for
en, it, es, fr, de): `-v VOICE -a AMPLITUDE -s WORDS_PER_MINUTE [-d DEVICE]`, or `-w
FILE.wav` when `wav_dir` is given (tests, a recording of what the table said).
espeak-ng exits 0 even when ALSA has no device, so its error output counts too.

The buzzer: an active buzzer (`gpiozero.Buzzer`, its own fixed tone: a pattern is
on/off times) or a passive one (`gpiozero.TonalBuzzer`: a pattern also has pitches).
Patterns: the table's own `PATTERNS` (refused: one short low beep; on: two rising, the
buzzer just switched on; end: a rising run), and the games' (their `GameType.sounds`,
handed in by the daemon as "kind/event").
"""

from __future__ import annotations

import collections
import logging
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

log = logging.getLogger("companion.sound")

MAX_WAITING = 8
VOICES = {"en": "en-gb", "it": "it", "es": "es", "fr": "fr-fr", "de": "de"}
AMPLITUDE = (0, 40, 70, 100, 140, 180)  # volume level 1..5 -> espeak-ng -a (0-200, default 100)
WORDS_PER_MINUTE = (0, 120, 145, 170, 195, 220)  # speed level 1..5 -> espeak-ng -s (default 175)
# (frequency in Hz or None for silence, seconds); an active buzzer sounds its own tone for any frequency
PATTERNS: dict[str, tuple[tuple[float | None, float], ...]] = {
    "refused": ((220.0, 0.15),),
    "on": ((880.0, 0.08), (None, 0.06), (1175.0, 0.12)),
    "end": ((523.0, 0.15), (659.0, 0.15), (784.0, 0.15), (1047.0, 0.4)),
}
DEFAULT_PATTERN = ((440.0, 0.1),)


class _Worker:
    """One daemon thread that plays items from a bounded queue; `interrupt` cuts the current one."""

    def __init__(self, name: str, play: Callable[[Any, threading.Event], None]) -> None:
        self._play = play
        self._items: collections.deque = collections.deque(maxlen=MAX_WAITING)
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._cut = threading.Event()  # set: stop what is playing now
        self._closed = False
        self.idle = threading.Event()  # set while nothing plays or waits (tests wait for it)
        self.idle.set()
        self.dropped = 0
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def put(self, items: Sequence[Any], interrupt: bool) -> None:
        with self._lock:
            if interrupt:
                self._items.clear()
                self._cut.set()
            for item in items:
                if len(self._items) == self._items.maxlen:
                    self.dropped += 1  # the oldest waiting one goes: the queue never grows
                self._items.append(item)
            if self._items:
                self.idle.clear()
            self._wake.notify()

    def stop(self) -> None:
        self.put((), True)

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._items and not self._closed:
                    self.idle.set()
                    self._wake.wait()
                if self._closed:
                    self.idle.set()
                    return
                item = self._items.popleft()
                self._cut.clear()
            try:
                self._play(item, self._cut)
            except Exception:
                log.exception("sound: playing %r failed", item)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._items.clear()
            self._cut.set()
            self._wake.notify()
        self._thread.join(timeout=2)


# ----- speech -------------------------------------------------------------------------------
class EspeakSpeaker:
    """Says one sentence through espeak-ng; `speak` returns when it is said or `cut` is set."""

    def __init__(self, device: str | None = None, wav_dir: str | None = None, program: str = "espeak-ng") -> None:
        self.device = device
        self.wav_dir = Path(wav_dir) if wav_dir else None
        self.path = shutil.which(program)
        self.written = 0
        self.working = True
        if self.path is None:
            log.warning("sound: %s is not installed (apt install espeak-ng): the table will not speak", program)

    def command(self, text: str, lang: str, volume: int, speed: int) -> list[str]:
        cmd = [self.path or "espeak-ng", "-v", VOICES.get(lang, lang), "-a", str(AMPLITUDE[volume]),
               "-s", str(WORDS_PER_MINUTE[speed])]
        if self.wav_dir is not None:
            self.written += 1
            cmd += ["-w", str(self.wav_dir / f"say_{self.written:05d}.wav")]
        elif self.device:
            cmd += ["-d", self.device]
        return cmd + [text]

    def speak(self, text: str, lang: str, volume: int, speed: int, cut: threading.Event) -> None:
        if self.path is None:
            return
        try:
            proc = subprocess.Popen(self.command(text, lang, volume, speed), stdin=subprocess.DEVNULL,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        except (OSError, ValueError) as exc:  # ValueError: a NUL or lone surrogate a text must never hold
            self._failed(f"cannot start espeak-ng: {exc}")
            return
        while proc.poll() is None:
            if cut.wait(0.05):
                proc.terminate()
                proc.wait()
                return
        err = proc.stderr.read().decode("utf-8", "replace") if proc.stderr else ""
        errors = [line for line in err.splitlines() if "error" in line.lower()]
        if proc.returncode or errors:
            self._failed((errors or err.splitlines() or [f"exit status {proc.returncode}"])[-1])
        elif not self.working:
            self.working = True
            log.warning("sound: speech works again")

    def _failed(self, why: str) -> None:
        if self.working:  # once per outage: an unplugged speaker must not flood the journal
            self.working = False
            log.warning("sound: no audio output (%s); the table stays silent until it works", why.strip())


class Voice:
    """The table's voice: sentences in, spoken one after another on a worker thread."""

    def __init__(self, speaker: Any) -> None:
        self.speaker = speaker
        self.worker = _Worker("speech", self._play)

    def _play(self, item: tuple, cut: threading.Event) -> None:
        text, lang, volume, speed = item
        self.speaker.speak(text, lang, volume, speed, cut)

    def say(self, texts: Sequence[str], lang: str, volume: int, speed: int, interrupt: bool) -> None:
        """Queue `texts`; `interrupt`: cut what is being said and anything waiting first (barge-in)."""
        self.worker.put([(t, lang, volume, speed) for t in texts], interrupt)

    def stop(self) -> None:
        self.worker.stop()

    def close(self) -> None:
        self.worker.close()


# ----- the buzzer ---------------------------------------------------------------------------
class BuzzerOut:
    """Plays `PATTERNS` on a gpiozero buzzer, on a worker thread; a newer pattern cuts the older."""

    def __init__(self, device: Any, tonal: bool, patterns: Mapping[str, Sequence] | None = None) -> None:
        self.device = device
        self.tonal = tonal
        self.patterns = {**PATTERNS, **(patterns or {})}
        self.worker = _Worker("buzzer", self._play)

    def play(self, event: str) -> None:
        self.worker.put([self.patterns.get(event, DEFAULT_PATTERN)], True)

    def _play(self, pattern: tuple, cut: threading.Event) -> None:
        try:
            for frequency, seconds in pattern:
                if frequency is None:
                    self._off()
                elif self.tonal:
                    self.device.play(frequency)
                else:
                    self.device.on()
                if cut.wait(seconds):
                    break
        finally:
            self._off()

    def _off(self) -> None:
        if self.tonal:
            self.device.stop()
        else:
            self.device.off()

    def close(self) -> None:
        self.worker.close()
        try:
            self.device.close()
        except Exception:
            log.exception("sound: closing the buzzer")


def open_buzzer(pin: int, passive: bool, pin_factory: Any = None,
                patterns: Mapping[str, Sequence] | None = None) -> BuzzerOut | None:
    """The configured buzzer, or None (logged) when its pin cannot be opened; `patterns`: more
    than the table's own (the games', "kind/event")."""
    try:
        if passive:
            from gpiozero import TonalBuzzer

            return BuzzerOut(TonalBuzzer(pin, octaves=2, pin_factory=pin_factory), tonal=True, patterns=patterns)
        from gpiozero import Buzzer

        return BuzzerOut(Buzzer(pin, pin_factory=pin_factory), tonal=False, patterns=patterns)
    except Exception as exc:
        log.warning("sound: the buzzer on BCM %d cannot be opened (%s): the table will not beep", pin, exc)
        return None


def open_voice(device: str | None = None) -> Voice:
    """The espeak-ng voice (silent, with one log line, when espeak-ng is missing)."""
    return Voice(EspeakSpeaker(device=device))
