"""What the table itself says aloud, and the words every game's speech texts share.

Games keep their spoken sentences in their own `speech.py` (a `say(event, fields)`
function, named by the registry); this module holds the table's own messages (a
changed sound setting), the buzzer patterns' words for the announce log (so a deaf
player's tablet reads what the table beeped) and `spoken_list` ("green, yellow and
blue"). Sentences are short and whole, numbers stay digits (espeak-ng says them in
the voice's language), and no abbreviation a voice would spell out.
"""

from __future__ import annotations

from typing import Iterable

from companion.i18n import N_, _

BEEPS = {
    # NOTE: the announce log's words for a buzzer pattern (not spoken)
    "refused": N_("Beep: refused."),
    # NOTE: the announce log's words for a buzzer pattern (not spoken)
    "village": N_("Beep: village founded."),
    # NOTE: the announce log's words for a buzzer pattern (not spoken)
    "epoch": N_("Beep: new epoch."),
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
