"""Shared pytest fixtures: paths to the spec's example records."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

# Hypothesis draws its examples from a fixed seed per test ("seeded", the default): every run, CI's
# included, tries the same examples, so a failure is reproduced by running the test again.
# COMPANION_HYPOTHESIS=explore draws new ones each run, to look for more (a developer's search).
settings.register_profile("seeded", derandomize=True, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("COMPANION_HYPOTHESIS", "seeded"))

# Tests read the English texts, whatever the developer's locale: the table starts in the
# system locale's language (companion.i18n.choose), and subprocesses inherit this too.
for _var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_var, None)
os.environ["LANG"] = "C.UTF-8"

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
EXAMPLES = SHARED / "spec" / "examples"
# The spec's examples, vendored so tests run without ../shared too.
VENDORED = Path(__file__).resolve().parent / "data" / "examples"


def example_dir() -> Path:
    return EXAMPLES if EXAMPLES.is_dir() else VENDORED


@pytest.fixture
def examples() -> Path:
    return example_dir()


class Clock:
    """A hand-driven monotonic clock for code that takes an injectable `clock()`."""

    def __init__(self, start: float = 100.0) -> None:
        self.t = start

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def factory():
    """gpiozero's MockFactory as the pin factory for one test (gpiozero imported here, not at the top:
    the engine's tests never load a hardware library)."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    old = Device.pin_factory
    Device.pin_factory = MockFactory()
    yield Device.pin_factory
    Device.pin_factory.reset()
    Device.pin_factory = old


@pytest.fixture(autouse=True)
def english_table():
    """Every test starts with the table in English (a test that switches language cannot leak)."""
    from companion import i18n
    i18n.set_language("en")
    yield
    i18n.set_language("en")


@pytest.fixture
def counter():
    """The test-only third game (tests/games/counter_game/), registered for one test by the one
    line a game adds to companion.games."""
    from companion import games

    game = games.register_game("counter_game.about")
    yield game
    del games.GAMES[game.kind]


# The quick run, `pytest -m "not slow"` (README): the pure parts (games, table, journal, history,
# hardware adapters on their mocks, the box's files). Slow are whole processes and what runs for
# seconds on purpose: QEMU boots (image), a booted Debian (system), seeded storms and fuzzing
# (fuzz), the page's servers and a browser (web), whole daemons (kiosk), the benchmarks (bench);
# and, anywhere, a test marked @pytest.mark.slow (seconds of work, measured with --durations).
SLOW_FOLDERS = {"image", "system", "fuzz", "web", "kiosk", "bench"}
# Files elsewhere that take seconds (pytest --durations=0, the whole suite): seeded card fuzzing,
# image files written and read back, ptys fed thousands of bursts, whole games through a pty.
SLOW_FILES = {"box/test_card_fuzz.py", "box/test_update_card.py", "hw/test_oled_window.py",
              "hw/test_keypad_noise.py", "hw/test_terminal_pipe.py", "hw/test_e2e_hardware.py",
              "hw/test_keysocket_clients.py"}
TESTS = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # The QEMU boots first (the order is otherwise kept): .ci/run starts the suite while the aarch64 check
    # still runs, and the boots, with minutes of timeout, absorb that better than the timed tests.
    items.sort(key=lambda item: item.path.relative_to(TESTS).parts[0] != "image")
    for item in items:
        where = item.path.relative_to(TESTS)
        if where.parts[0] in SLOW_FOLDERS or where.as_posix() in SLOW_FILES:
            item.add_marker(pytest.mark.slow)
