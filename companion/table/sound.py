"""The table's sound settings and the menu that changes them (the shell's "Sound" item).

`SoundSettings` says whether the table speaks and beeps, how loud (1..5) and how fast
(1..5) it speaks. They start from the config's `sound:` section, and a change in the
menu is journaled like the brightness (a `SetSound` effect, setting "sound"), so a
restart keeps it. `SoundMenu` is the list of the four settings: A/B (or a digit) pick
one, # switches it (on/off) or steps it (1..5, round), * leaves. Every change says
itself aloud (an `Announce` of the table's "sound" message), so a listener hears the
new volume at once.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any

from companion.i18n import N_, _
from companion.table import keys as K
from companion.table import texts as T
from companion.table.effects import Announce, Effect, SetSound, beep
from companion.table.screen import MENU, Screen
from companion.table.speech import on_off

LEVELS = 5
ITEMS = ("speech", "buzzer", "volume", "speed")


@dataclass(frozen=True)
class SoundSettings:
    speech: bool = False
    buzzer: bool = True  # the buzzer sounds when one is fitted (config sound.buzzer_pin)
    volume: int = 3
    speed: int = 3

    def as_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_stored(cls, stored: Any, default: "SoundSettings") -> "SoundSettings":
        """The journaled settings over `default`; anything unreadable in them is left at the default."""
        if not isinstance(stored, dict):
            return default
        values = default.as_dict()
        for key in ("speech", "buzzer"):
            if type(stored.get(key)) is bool:
                values[key] = stored[key]
        for key in ("volume", "speed"):
            if type(stored.get(key)) is int and 1 <= stored[key] <= LEVELS:
                values[key] = stored[key]
        return cls(**values)

    def changed(self, item: str) -> "SoundSettings":
        """`item` switched (speech, buzzer) or one level up, round from 5 to 1 (volume, speed)."""
        value = getattr(self, item)
        return replace(self, **{item: (not value) if isinstance(value, bool) else value % LEVELS + 1})


LABELS = {
    # NOTE: a line of the Sound menu, max 18 characters with the value ("on", "off", "3/5")
    "speech": N_("Speech: {value}"),
    # NOTE: a line of the Sound menu, max 18 characters with the value
    "buzzer": N_("Buzzer: {value}"),
    # NOTE: a line of the Sound menu, max 18 characters with the value
    "volume": N_("Volume: {value}"),
    # NOTE: a line of the Sound menu, max 18 characters with the value
    "speed": N_("Voice speed: {value}"),
}


def value_text(value: bool | int) -> str:
    return on_off(value) if isinstance(value, bool) else f"{value}/{LEVELS}"


class SoundMenu:
    """The Sound list of the menu; `key` returns the effects of a change (empty: nothing changed)."""

    def __init__(self, settings: SoundSettings) -> None:
        self.settings = settings
        self.selected = 0

    def key(self, key: str) -> tuple[bool, list[Effect]]:
        """(still open, effects) after `key`."""
        moved = K.select(key, self.selected, len(ITEMS))
        if moved is not None:
            self.selected = moved
            return True, []
        if key == K.BACK or key == K.MENU:
            return False, []
        if key != K.OK:
            return True, []
        item = ITEMS[self.selected]
        self.settings = self.settings.changed(item)
        effects: list[Effect] = [SetSound(self.settings)]
        if item == "buzzer" and self.settings.buzzer:
            effects.append(beep("on"))  # a buzzer just switched on says so itself
        effects.append(Announce("table", "sound", {"item": item, "value": getattr(self.settings, item)}))
        return True, effects

    def screen(self) -> Screen:
        return Screen(MENU, "sound", T.SOUND, selected=self.selected,
                      choices=tuple(f"{i + 1} " + _(LABELS[item]).format(value=value_text(getattr(self.settings, item)))
                                    for i, item in enumerate(ITEMS)))
