"""The display sinks, registered by name: `companion run --display NAME`, `display.driver`.

One line per sink: the module and the factory that opens it (imported only when the sink is
opened, so a headless start loads no sink it does not draw on), and what the rest of the
companion must know of it. Every luma.oled device name (`companion.hw.settings.oled_drivers`)
is a real OLED, opened by `LUMA_OLED`. A factory is called as `factory(dcfg, **options)`
with the DisplayConfig and open_display's options (device_factory, serial_factory, clock,
stream); it takes the ones it needs and returns a `companion.hw.sink.DisplaySink`.
Adding a sink is one module and one line here (or `register(...)`, e.g. from a test).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SinkEntry:
    """A display sink: `module`.`factory` opens it. `terminal`: it draws on the terminal that runs
    it (the log goes to a file, the keys are read from that terminal, a resumed game is said);
    `frames_dir`: it writes files into display.frames_dir (required; --save-frames goes there);
    `size`: it always has this size (width, height; no rotation), whatever the config says;
    `needs_config`: a headless run (--keys) reads the config file for it."""

    module: str
    factory: str
    terminal: bool = False
    frames_dir: bool = False
    size: tuple[int, int] | None = None
    needs_config: bool = True

    def open(self, dcfg: Any, **options: Any) -> Any:
        """The sink for `dcfg` (imports its module now)."""
        return getattr(importlib.import_module(self.module), self.factory)(dcfg, **options)


# The stand-ins (not a real OLED), in the order they are listed.
SINKS: dict[str, SinkEntry] = {
    "dummy": SinkEntry("companion.hw.display", "open_luma", size=(128, 64), needs_config=False),
    "terminal": SinkEntry("companion.hw.terminal_sink", "open_sink", terminal=True),
    "png": SinkEntry("companion.hw.png_sink", "open_sink", frames_dir=True),
}

# Every other name: a luma.oled device on I2C.
LUMA_OLED = SinkEntry("companion.hw.display", "open_luma")


def register(name: str, module: str, factory: str, **flags: Any) -> SinkEntry:
    """Add (or replace) the stand-in sink `name`; `flags` as SinkEntry's."""
    SINKS[name] = entry = SinkEntry(module, factory, **flags)
    return entry


def stand_ins() -> tuple[str, ...]:
    """The names of the registered stand-ins (every sink but luma.oled's devices)."""
    return tuple(SINKS)


def sink_entry(name: str) -> SinkEntry:
    """The entry that opens driver `name`: a stand-in's, else luma.oled's."""
    return SINKS.get(name, LUMA_OLED)


def is_oled(driver: str) -> bool:
    """True for a driver that is a real I2C OLED (not a stand-in)."""
    return driver not in stand_ins()


def on_terminal(name: str | None) -> bool:
    """True when driver `name` draws on the terminal that runs the companion."""
    return name in SINKS and SINKS[name].terminal


def writes_frames(name: str | None) -> bool:
    """True when driver `name` writes its frames into display.frames_dir."""
    return name in SINKS and SINKS[name].frames_dir


def fixed_size(name: str | None) -> tuple[int, int] | None:
    """The size driver `name` always has, None when the config's is used."""
    return SINKS[name].size if name in SINKS else None


def needs_config(name: str | None) -> bool:
    """False for a driver a headless run opens without reading the config file."""
    return name not in SINKS or SINKS[name].needs_config
