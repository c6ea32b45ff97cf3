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
