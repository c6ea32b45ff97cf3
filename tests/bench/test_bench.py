"""`companion bench` prints one JSON object: today's fields and the whole path of a key (stages
with the journal's commit among them, key to bus, bytes on the bus per key, a full frame's bytes,
peak memory). Shapes and sense only: the numbers themselves are the benchmark's to print."""

from __future__ import annotations

import json

import pytest

from companion.bench import run as bench


def test_the_whole_path_is_measured_stage_by_stage(capsys, tmp_path):
    assert bench.main(["--only", "path", "--games", "2", "--journal-dir", str(tmp_path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["stages"]) == {"game", "journal", "screen", "render", "panel", "bus"}
    for timing in list(out["stages"].values()) + [out["key_to_bus"]]:
        assert set(timing) == {"p50_ms", "p99_ms"} and 0 <= timing["p50_ms"] <= timing["p99_ms"]
    assert out["stages"]["journal"]["p99_ms"] > 0  # moves were committed to the journal on disk
    assert out["path_keys"] > 100 and 0 < out["bus_bytes_per_key"] < out["full_frame_bytes"]
    assert out["full_frame_bytes"] > 1024  # 8 pages of 128 columns, and their commands
    assert out["peak_rss_mb"] > 10
    assert set(out["bus_bytes_per_key_by_game"]) == {"clans", "mammut"}
    assert out["bus_bytes_per_key"] < out["bus_bytes_per_key_whole_frames"] < out["full_frame_bytes"]
    assert list(tmp_path.iterdir()) == []  # its journals went away with it


def test_the_latency_keeps_todays_fields_and_puts_the_camera_beside_them(capsys):
    assert bench.main(["--only", "latency", "--games", "1", "--camera-fps", "8", "--camera-idle", "0.5"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["key_to_frame"]) >= {"keys", "p50_ms", "p99_ms", "max_ms", "mean_ms"}
    replay = out["replay_whole_game"]
    assert replay["moves"] >= 45 and 0 < replay["median_ms"] <= replay["max_ms"]
    camera = out["key_to_frame_camera"]
    off, on = camera["without_camera"], camera["with_camera"]
    assert off["keys"] == on["keys"] > 100, "the same keys with the camera off and on"
    assert camera["p99_ratio"] == pytest.approx(on["p99_ms"] / off["p99_ms"], rel=0.05)
    assert camera["camera_fps"] == 8 and 0 < camera["camera_cpu_share"] and camera["rss_mb_camera_on"] > 10
    assert camera["frames_fed"] >= 1


def test_the_cold_start_is_measured_next_to_the_bare_interpreter(capsys):
    assert bench.main(["--only", "cold", "--runs", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"cold_start", "bare_interpreter", "ratio", "replay_start"}
    assert set(out["cold_start"]) >= {"runs", "median_s", "min_s", "max_s"} and out["cold_start"]["runs"] == 1
    assert set(out["bare_interpreter"]) == {"median_s", "min_s"}
    assert set(out["replay_start"]) == {"median_s", "min_s", "ratio"}
    assert out["ratio"] > 0 and out["replay_start"]["ratio"] > 0


def test_the_memory_is_read_after_every_whole_game_in_a_process_of_its_own(capsys, tmp_path):
    assert bench.main(["--only", "memory", "--memory-games", "2", "--journal-dir", str(tmp_path)]) == 0
    out = json.loads(capsys.readouterr().out)["memory"]
    assert out["games"] == 2 and len(out["rss_mb_after_each"]) == 2 and min(out["rss_mb_after_each"]) > 10
    assert set(out) >= {"after_first_of_each_mb", "last_mb", "growth_mb", "peak_rss_mb"}
    assert list(tmp_path.iterdir()) == []


def test_the_bot_turns_report_the_search_rate_and_the_longest_overrun(capsys):
    assert bench.main(["--only", "bot", "--bot-games", "1", "--bot-time", "0.002"]) == 0
    out = json.loads(capsys.readouterr().out)["bot"]
    assert out["games"] == 1 and out["move_time"] == 0.002
    assert out["iterations_per_second"] > 0 and out["iterations_per_move"] > 0
    assert isinstance(out["max_overrun"], float)
    levels = out["levels_longest_turn_s"]
    assert set(levels) == {"easy", "normal", "hard"} and levels["normal"] > 0 and levels["hard"] > 0
    assert out["hard_to_normal"] == pytest.approx(levels["hard"] / levels["normal"], abs=0.01)


def test_the_camera_proposal_is_timed_beside_a_jpeg_decode(capsys):
    assert bench.main(["--only", "camera", "--camera-runs", "4"]) == 0
    got = json.loads(capsys.readouterr().out)["camera"]
    assert got["runs"] == 4 and got["photo"] == "1280x960"
    assert 0 < got["jpeg_decode_ms_median"] and got["proposal_ms_median"] <= got["proposal_ms_max"]
    assert got["ratio"] == pytest.approx(got["proposal_ms_median"] / got["jpeg_decode_ms_median"], rel=0.1)
    assert got["named_the_move"] >= 2  # its own plain photographs: the moves are seen
    assert got["stillness_ms_median"] > 0  # what every frame costs the watcher


def test_each_webcam_library_grabs_and_judges_in_a_process_of_its_own(capsys):
    pytest.importorskip("linuxpy.video", reason="linuxpy (the camera extra) is not installed")
    assert bench.main(["--only", "camera", "--camera-runs", "1", "--camera-frames", "3"]) == 0
    libraries = json.loads(capsys.readouterr().out)["camera"]["libraries"]
    assert "linuxpy" in libraries
    for name, got in libraries.items():
        assert got["library"] == name and got["frames"] == 3 and got["import_s"] > 0
        assert got["rss_mb_kiosk"] < got["rss_mb_library"] <= got["peak_rss_mb"]
        assert 0 < got["grab_ms_median"] and 0 < got["judge_ms_median"] <= got["grab_and_judge_ms_max"]
