"""The sound adapters (companion.hw.sound): buzzer patterns on gpiozero's MockFactory pins, the voice's
worker with a fake speaker (barge-in, a bounded queue), espeak-ng's failures logged once, and one
real espeak-ng writing WAV files checked with the standard library's `wave`."""

from __future__ import annotations

import logging
import shutil
import threading
import wave

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.hw import sound
from companion.hw.sound import PATTERNS, BuzzerOut, EspeakSpeaker, Voice, open_buzzer

from tests.hw.waiting import wait_until


def levels(pin) -> list:
    """The pin's history without its timestamps, repeats folded."""
    out = []
    for state in pin.states:
        if not out or out[-1] != state.state:
            out.append(state.state)
    return out


def pulses(pin) -> list[float]:
    """How long each 'on' lasted, in order (MockPin stamps each change with the time since the last)."""
    states = pin.states
    return [states[i + 1].timestamp for i in range(len(states) - 1) if states[i].state and not states[i + 1].state]


def played(buzzer: BuzzerOut, event: str) -> None:
    buzzer.play(event)
    assert wait_until(lambda: buzzer.worker.idle.is_set())


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.reset()


def test_active_buzzer_patterns_are_distinct_on_the_pin(factory):
    from companion.kiosk.announce import buzzer_patterns

    buzzer = open_buzzer(18, passive=False, pin_factory=factory, patterns=buzzer_patterns())  # the games' too
    pin = factory.pin(18)
    try:
        counts = {}
        for event in ("refused", "on", "clans/epoch"):
            pin.clear_states()
            played(buzzer, event)
            counts[event] = levels(pin).count(True)
            assert levels(pin)[-1] is False  # never left sounding
            assert all(p >= 0.07 for p in pulses(pin))  # each beep lasts its time (at least)
        assert counts == {"refused": 1, "on": 2, "clans/epoch": 3}
        pin.clear_states()
        played(buzzer, "end")  # one long rising run: on an active buzzer, one long beep
        assert levels(pin) == [False, True, False] and pulses(pin)[0] >= 0.8
    finally:
        buzzer.close()


class RecordingPWMPin(MockPWMPin):
    """gpiozero's mock PWM pin, also keeping every frequency the buzzer asked for."""

    def __init__(self, *args, **kwargs):
        self.frequencies = []
        super().__init__(*args, **kwargs)

    def _set_frequency(self, value):
        if value is not None:
            self.frequencies.append(round(value))
        super()._set_frequency(value)


def test_passive_buzzer_plays_the_patterns_tones():
    factory = MockFactory(pin_class=RecordingPWMPin)
    try:
        buzzer = open_buzzer(13, passive=True, pin_factory=factory)
        pin = factory.pin(13)
        pin.frequencies.clear()  # what opening the PWM set
        played(buzzer, "refused")
        played(buzzer, "end")
        tones = [f for i, f in enumerate(pin.frequencies) if i == 0 or pin.frequencies[i - 1] != f]
        assert tones == [220, 523, 659, 784, 1047]  # a low beep, then the end's rising run
        assert buzzer.device.value is None  # silent again
        buzzer.close()
    finally:
        factory.reset()


def test_a_newer_pattern_cuts_the_older_and_play_never_waits(factory):
    buzzer = open_buzzer(18, passive=False, pin_factory=factory)
    pin = factory.pin(18)
    try:
        buzzer.play("end")  # 0.85 s of beeping ...
        assert not buzzer.worker.idle.is_set()  # ... still going: play() returned at once
        assert wait_until(lambda: levels(pin) == [False, True])
        buzzer.play("refused")  # barge-in
        assert wait_until(lambda: buzzer.worker.idle.is_set())
        assert levels(pin) == [False, True, False, True, False]
        assert pulses(pin)[0] < sum(s for _, s in PATTERNS["end"])  # the end's run was cut short
    finally:
        buzzer.close()


def test_a_buzzer_pin_that_cannot_be_opened_is_one_log_line(factory, caplog):
    with caplog.at_level(logging.WARNING, "companion.sound"):
        assert open_buzzer(99, passive=False, pin_factory=factory) is None
    assert "cannot be opened" in caplog.text


class FakeSpeaker:
    """Speaks each sentence until the test releases it or the voice cuts it (barge-in)."""

    def __init__(self, block: bool = True):
        self.block = block
        self.started: list[str] = []
        self.finished: list[str] = []
        self.cut: list[str] = []
        self.release = threading.Event()
        self.lock = threading.Lock()

    def speak(self, text, lang, volume, speed, cut):
        with self.lock:
            self.started.append(text)
        while self.block and not self.release.is_set():
            if cut.wait(0.01):
                with self.lock:
                    self.cut.append(text)
                return
        with self.lock:
            self.finished.append(text)


def test_barge_in_cuts_what_is_said_and_drops_what_waited():
    speaker = FakeSpeaker()
    voice = Voice(speaker)
    try:
        voice.say(["one", "two"], "en", 3, 3, interrupt=False)
        assert wait_until(lambda: speaker.started == ["one"])
        voice.say(["three"], "en", 3, 3, interrupt=True)
        assert wait_until(lambda: speaker.started == ["one", "three"])
        assert speaker.cut == ["one"]  # "two" was never said
        voice.say(["four"], "en", 3, 3, interrupt=False)  # queued behind "three"
        speaker.release.set()
        assert wait_until(lambda: voice.worker.idle.is_set())
        assert speaker.started == ["one", "three", "four"] and speaker.finished == ["three", "four"]
    finally:
        voice.close()


def test_the_queue_never_grows_past_its_bound():
    speaker = FakeSpeaker()
    voice = Voice(speaker)
    try:
        voice.say(["first"], "en", 3, 3, interrupt=False)
        assert wait_until(lambda: speaker.started == ["first"])
        for i in range(100):
            voice.say([f"n{i}"], "en", 3, 3, interrupt=False)
            assert len(voice.worker._items) <= sound.MAX_WAITING
        assert voice.worker.dropped == 100 - sound.MAX_WAITING
        speaker.release.set()
        assert wait_until(lambda: voice.worker.idle.is_set())
        assert speaker.started[1:] == [f"n{i}" for i in range(100 - sound.MAX_WAITING, 100)]  # the newest
    finally:
        voice.close()


def test_espeak_missing_is_one_log_line_and_silence(caplog):
    with caplog.at_level(logging.WARNING, "companion.sound"):
        speaker = EspeakSpeaker(program="no-such-espeak-ng")
        speaker.speak("hello", "en", 3, 3, threading.Event())
    assert caplog.text.count("not installed") == 1


def _fake_espeak(path, stderr: str, status: int = 0):
    path.write_text(f"#!/bin/sh\necho '{stderr}' >&2\nexit {status}\n")
    path.chmod(0o755)
    return str(path)


def test_no_audio_device_is_logged_once_per_outage(tmp_path, caplog):
    """espeak-ng exits 0 when ALSA has no device: its error output counts; an unplugged speaker
    logs once, not once a sentence, and says when it works again."""
    program = _fake_espeak(tmp_path / "espeak-ng", "ALSA lib pcm.c: Unknown PCM default\nerror: No such file")
    speaker = EspeakSpeaker(program=program)
    with caplog.at_level(logging.WARNING, "companion.sound"):
        for _ in range(3):
            speaker.speak("hello", "it", 3, 3, threading.Event())
        assert caplog.text.count("no audio output") == 1 and "No such file" in caplog.text
        _fake_espeak(tmp_path / "espeak-ng", "")  # plugged back in
        speaker.speak("hello", "it", 3, 3, threading.Event())
    assert "works again" in caplog.text and speaker.working


def test_espeak_command_names_voice_volume_speed_and_device():
    speaker = EspeakSpeaker(device="plughw:CARD=Device,DEV=0", program="sh")
    cmd = speaker.command("Ciao", "it", 5, 1)
    assert cmd[1:] == ["-v", "it", "-a", "180", "-s", "120", "-d", "plughw:CARD=Device,DEV=0", "Ciao"]
    assert EspeakSpeaker(program="sh").command("x", "en", 1, 5)[1:7] == ["-v", "en-gb", "-a", "40", "-s", "220"]


def test_real_espeak_ng_writes_speech_of_a_plausible_length(tmp_path):
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed (.ci/run installs it from Debian: apt-get install espeak-ng)")
    speaker = EspeakSpeaker(wav_dir=str(tmp_path))
    sentences = [("it", "Villaggio sul 14, epoca 1, foresta più 1."),
                 ("de", "Dorf auf 14, Epoche 1, Wald plus 1. Entferne die einzelnen grünen Hütten."),
                 ("en", "Player 2 to move.")]
    seconds = []
    for lang, text in sentences:
        speaker.speak(text, lang, 3, 3, threading.Event())
    for i in range(len(sentences)):
        with wave.open(str(tmp_path / f"say_{i + 1:05d}.wav")) as w:
            assert w.getnchannels() == 1 and w.getframerate() > 8000
            seconds.append(w.getnframes() / w.getframerate())
    assert all(0.5 < s < 15 for s in seconds), seconds  # about 150 words a minute
    assert seconds[1] > seconds[2]  # more words take longer
    slow, fast = EspeakSpeaker(wav_dir=str(tmp_path / "slow")), EspeakSpeaker(wav_dir=str(tmp_path / "fast"))
    (tmp_path / "slow").mkdir(), (tmp_path / "fast").mkdir()
    slow.speak(sentences[1][1], "de", 3, 1, threading.Event())
    fast.speak(sentences[1][1], "de", 3, 5, threading.Event())
    with wave.open(str(tmp_path / "slow" / "say_00001.wav")) as a, \
            wave.open(str(tmp_path / "fast" / "say_00001.wav")) as b:
        assert a.getnframes() > b.getnframes() * 1.3  # the speed setting reaches the voice
    assert speaker.working
