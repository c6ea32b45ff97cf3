"""The daemon lets a finished game's objects go when a new game starts (a full collection then), so its
memory does not creep with the games played; `companion bench --only memory` measures the rest."""

from __future__ import annotations

from companion.bench import path as bench_path
from companion.kiosk import loop
from companion.hw.fake_oled import FakeOledBus


def test_a_new_game_collects_the_last_ones_garbage_and_a_key_does_not(tmp_path, monkeypatch):
    collected = []
    monkeypatch.setattr(loop.gc, "collect", lambda *a: collected.append(a) or 0)
    sink = bench_path._sink(FakeOledBus("ssd1306", model=False))
    d = bench_path._daemon("clans", str(tmp_path), sink, 1)
    d.drain()  # the quick start journals the new game
    assert len(collected) == 1
    d.step("1")
    d.step("*")
    assert len(collected) == 1
    d.journal.journal.close()
