"""Display sinks are registered by name in one place (companion.hw.sinks): a new sink is one
module plus one line, and `companion run --display NAME` draws through it."""

from __future__ import annotations

import textwrap

import pytest

from companion.box import config_base
from companion.kiosk import daemon
from companion.hw import sinks
from companion.hw.display import LumaSink, open_display

SINK_MODULE = textwrap.dedent('''
    from companion.hw.sink import DisplaySink

    FRAMES = []

    class RecordingSink(DisplaySink):
        def _write(self, image):
            FRAMES.append(image.copy())
            return True

    def open_sink(dcfg, **_):
        return RecordingSink(dcfg.width, dcfg.height)
''')


@pytest.fixture
def recorder(tmp_path, monkeypatch):
    (tmp_path / "recording_sink.py").write_text(SINK_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sinks, "SINKS", dict(sinks.SINKS))
    sinks.register("recorder", "recording_sink", "open_sink", needs_config=False)   # the one line
    import recording_sink
    recording_sink.FRAMES.clear()
    return recording_sink


def test_the_built_in_sinks_are_in_the_registry():
    assert sinks.stand_ins() == ("dummy", "terminal", "png")
    assert config_base.display_drivers()[-3:] == ("dummy", "terminal", "png")
    assert sinks.sink_entry("ssd1306") is sinks.LUMA_OLED
    assert sinks.on_terminal("terminal") and not sinks.on_terminal("png") and not sinks.on_terminal(None)
    assert sinks.writes_frames("png") and not sinks.writes_frames("dummy")
    assert sinks.fixed_size("dummy") == (128, 64) and sinks.fixed_size("ssd1306") is None
    assert not sinks.needs_config("dummy") and sinks.needs_config(None) and sinks.needs_config("ssd1306")


def test_a_registered_sink_is_a_display_driver(recorder):
    assert config_base.is_display_driver("recorder")
    assert "recorder" in config_base.display_drivers()
    assert not config_base.is_oled("recorder")
    sink = open_display(config_base.DisplayConfig(driver="recorder", contrast=99))
    assert isinstance(sink, recorder.RecordingSink) and not isinstance(sink, LumaSink)
    assert sink.contrast == 99


def test_companion_run_draws_through_a_registered_sink(recorder, tmp_path):
    keys = tmp_path / "keys"
    keys.write_text("")
    d = daemon.build(daemon.parse_args(["--display", "recorder", "--players", "2", "--seed", "1",
                                        "--no-journal", "--keys", str(keys)]))
    assert isinstance(d.panel.sink, recorder.RecordingSink)
    assert d.run() == 0
    assert recorder.FRAMES and recorder.FRAMES[0].size == (128, 64)


def test_an_unregistered_name_is_refused(capsys):
    with pytest.raises(SystemExit):
        daemon.parse_args(["--display", "recorder"])
    assert "invalid choice: 'recorder'" in capsys.readouterr().err
