"""What the table itself says aloud, and the words every game's speech texts share.

Games keep their spoken sentences in their own `speech.py` (a `say(event, fields)`
function, named by the registry); this module holds the table's own messages (a
changed sound setting), the words of its own buzzer patterns for the announce log (so a deaf
player's tablet reads what the table beeped), `spoken_list` ("green, yellow and
blue") and `OwnScreenWords`, which keeps the voice from running ahead of the screen.
Sentences are short and whole, numbers stay digits (espeak-ng says them in the voice's
language), and no abbreviation a voice would spell out.
"""

from __future__ import annotations

from typing import Any, Iterable

from companion.i18n import N_, _
from companion.table.effects import Announce

BEEPS = {
    # NOTE: the announce log's words for a buzzer pattern (not spoken)
    "refused": N_("Beep: refused."),
    # NOTE: the announce log's words for a buzzer pattern (not spoken): the buzzer was just switched on
    "on": N_("Beep: buzzer on."),
    # NOTE: the announce log's words for a buzzer pattern (not spoken)
    "end": N_("Beep: game over."),
}
SETTING_SAID = {  # a changed setting said aloud; {value} is "on", "off" or a level 1-5
    "speech": N_("Speech {value}."),
    "buzzer": N_("Buzzer {value}."),
    "volume": N_("Volume {value}."),
    "speed": N_("Voice speed {value}."),
}


def on_off(value: bool) -> str:
    # NOTE: max 5 characters; a setting that is on / off
    return _("on") if value else _("off")


def spoken_list(items: Iterable[object]) -> str:
    """"a", "a and b", "a, b and c" in the table's language."""
    words = [str(i) for i in items]
    if len(words) < 2:
        return "".join(words)
    # NOTE: a spoken list: {items} is "a, b", {last} the last one ("a, b and c")
    return _("{items} and {last}").format(items=", ".join(words[:-1]), last=words[-1])


def beep_text(event: str) -> str:
    return _(BEEPS[event]) if event in BEEPS else _("Beep.")


def say(event: str, fields: dict) -> str:
    """The table's own spoken messages."""
    if event == "sound":
        value = fields["value"]
        word = on_off(value) if isinstance(value, bool) else str(value)
        said = SETTING_SAID[fields["item"]]
        return _(said).format(value=word)
    raise KeyError(event)


class OwnScreenWords:
    """Words that belong to a game's own screen (whose turn it is, a bot's move, a new phase) while
    a message may cover it (a move's result paged, a report): said when that screen shows.

    `say` puts them in the outbox at once when nothing covers the game's screen, else holds them;
    `release`, called after every event, lets them go once the cover is gone. The loop says a
    key's words after it drew that key's screen, so the voice is never ahead of the panel."""

    def __init__(self) -> None:
        self.held: list[Announce] = []

    def say(self, outbox: Any, said: Iterable[Announce], covered: bool, fresh: bool = False) -> None:
        """`fresh`: these words start anew (a new turn): what was held for an earlier one is stale."""
        if fresh:
            self.held = []
        if covered:
            self.held += said
        else:
            outbox.extend(said)

    def release(self, outbox: Any, covered: bool) -> None:
        if self.held and not covered:
            outbox.extend(self.held)
            self.held = []
