"""Every sentence of the table's own screens (the shell's): the menu's common items,
brightness, shutting down, switching games. Games keep theirs in their own texts.py."""

from __future__ import annotations

MENU_TITLE = "Menu"
BRIGHTNESS = "Brightness"
SHUT_DOWN = "Shut down"


def play_item(title: str) -> str:
    return f"Play {title}"


def menu_choice(number: int, item: str) -> str:
    return f"{number} {item}"


def brightness_choice(level: int, current: bool) -> str:
    return f"{level}" + (" (now)" if current else "")


SHUTDOWN_TITLE = "Shut down?"
SHUTDOWN_QUESTION = "Turn the companion off safely."
SWITCH_TITLE = "Other game?"
ABANDON = "This game will be abandoned."
BYE_TITLE = "Shutting down"
BYE = "Wait until the screen is dark, then unplug."


HISTORY = "History"
NO_HISTORY = "No finished game yet."


def history_line(when: str, title: str, result: str) -> str:
    return f"{when} {title}: {result}" if result else f"{when} {title}"


def totals_and_winners(totals: list[int], winners: list[int]) -> str:
    """"P1 34, P2 28; P1 won" (players 0-based in, 1-based out); shared wins name every winner."""
    scores = ", ".join(f"P{i + 1} {t}" for i, t in enumerate(totals))
    won = " ".join(f"P{w + 1}" for w in winners)
    return f"{scores}; {won} won" if won else scores


UNSAVED_TITLE = "Cannot save"
UNSAVED = ("Storage full or damaged: the last key was not taken, nothing changed. "
           "Free space or replace the SD card; play goes on once saving works.")
NO_JOURNAL = ("The storage cannot be opened: nothing can be saved, so keys that change the game are "
              "refused. Free space or replace the SD card; play starts as soon as saving works.")
REPAIRED_TITLE = "Journal repaired"

NO_POWER_OFF_TITLE = "Cannot shut down"


def no_power_off(why: str) -> str:
    return (f"The system refused to power off ({why}). The game goes on. Run the installer with "
            "--allow-poweroff, or wait for updates to finish.")
