"""The keypad's frames: the sketch's C framing and the daemon's decoder against the same vectors
(firmware/serial-keypad/frames.txt), and seeded noise that never forms a key."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.hw.keyframe import FRAME_LEN, FrameDecoder, crc8, decode, encode, years_per_false_key
from companion.table.keys import KEYPAD

SKETCH = Path(__file__).resolve().parents[2] / "firmware" / "serial-keypad"
C_MAIN = r"""
#include <stdio.h>
#include "keyframe.h"
int main(void) {
  char key; unsigned seq; uint8_t frame[KEYFRAME_LEN];
  const uint8_t check[] = "123456789";
  printf("%02X\n", keyframe_crc8(check, 9));
  while (scanf(" %c %u", &key, &seq) == 2) {
    keyframe_encode(key, (uint8_t)seq, frame);
    fwrite(frame, 1, KEYFRAME_LEN, stdout);
  }
  return 0;
}
"""


def vectors() -> list[tuple[str, int, bytes]]:
    out = []
    for line in (SKETCH / "frames.txt").read_text().splitlines():
        if line and not line.startswith(";"):
            key, seq, frame = line.split()
            out.append((key, int(seq), frame.encode() + b"\n"))
    return out


def test_vectors_cover_every_key_and_sequence_number():
    got = vectors()
    assert {(k, s) for k, s, _ in got} == {(k, s) for k in KEYPAD for s in range(16)}


def test_the_decoder_reads_every_vector_and_encode_writes_it():
    assert crc8(b"123456789") == 0xF4  # the CRC-8/SMBUS check value
    for key, seq, frame in vectors():
        assert encode(key, seq) == frame
        assert decode(frame) == (key, seq)
        assert FrameDecoder().feed(frame) == [key]


def test_the_sketchs_c_framing_writes_the_vectors(tmp_path):
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler (cc, gcc or clang) on this machine: firmware/serial-keypad/keyframe.h "
                    "not compiled; the Python side is still checked against frames.txt")
    main = tmp_path / "main.c"
    main.write_text(C_MAIN)
    exe = tmp_path / "keyframe"
    subprocess.run([cc, "-std=c99", "-Wall", "-Werror", "-I", str(SKETCH), "-o", str(exe), str(main)],
                   check=True, capture_output=True, timeout=120)
    cases = vectors()
    done = subprocess.run([str(exe)], input="".join(f"{k} {s}\n" for k, s, _ in cases).encode(),
                          capture_output=True, check=True, timeout=60)
    check, frames = done.stdout.split(b"\n", 1)
    assert check == b"F4"
    assert frames == b"".join(f for _, _, f in cases)
    assert FrameDecoder().feed(frames) == [k for k, _, _ in cases]


def test_any_one_wrong_byte_is_refused():
    for key, seq, frame in vectors()[::7]:
        for i in range(FRAME_LEN):
            for b in range(256):
                if b != frame[i]:
                    assert decode(frame[:i] + bytes([b]) + frame[i + 1:]) is None


def test_seeded_noise_never_forms_a_key_and_keys_survive_it():
    rng = random.Random(45)
    d = FrameDecoder()
    noise = rng.randbytes(4_000_000)
    for i in range(0, len(noise), 4000):  # bursts of 4,000 bytes, as on the cable
        assert d.feed(noise[i:i + 4000]) == []
    typed, sent = [], bytearray()
    for n in range(2000):  # real frames between bursts of noise: every one is still read
        key = rng.choice(KEYPAD)
        typed.append(key)
        sent += rng.randbytes(rng.randrange(40)) + encode(key, n)
    got: list[str] = []
    for i in range(0, len(sent), 97):
        got += d.feed(sent[i:i + 97])
    assert got == typed


def test_the_noise_figure_in_the_docs():
    # 2**40 offsets of random bytes per false frame: at 9600 baud about 36 years, at 115200 about 3
    assert 35 < years_per_false_key(9600) < 37
    assert 2.9 < years_per_false_key(115200) < 3.1
    docs = (SKETCH.parents[1] / "hardware.md").read_text()
    assert "36 years" in docs
