"""Every sentence of the table's own screens (the shell's): the menu's common items,
brightness, language, shutting down, switching games, the phone view. Games keep theirs in their own texts.py.

The constants are looked up in the table's language when read (`T.MENU_TITLE` goes
through the module's `__getattr__`), so a language switch shows at once and callers
need no `_()` of their own.
"""

from __future__ import annotations

from companion.i18n import N_, _, ngettext

_CONSTANTS = {
    # NOTE: title bar, max 25 characters
    "MENU_TITLE": N_("Menu"),
    # NOTE: menu item and title, max 18 characters
    "BRIGHTNESS": N_("Brightness"),
    # NOTE: menu item and title, max 18 characters
    "LANGUAGE": N_("Language"),
    # NOTE: menu item, max 18 characters: the table says its last announcement again
    "REPEAT": N_("Say again"),
    # NOTE: menu item and title, max 18 characters
    "SOUND": N_("Sound"),
    # NOTE: menu item, max 18 characters
    "SHUT_DOWN": N_("Shut down"),
    # NOTE: menu item and title, max 18 characters: which version the box runs
    "ABOUT": N_("About"),
    # NOTE: title bar, max 25 characters
    "SHUTDOWN_TITLE": N_("Shut down?"),
    "SHUTDOWN_QUESTION": N_("Turn the companion off safely."),
    # NOTE: title bar, max 25 characters
    "SWITCH_TITLE": N_("Other game?"),
    "ABANDON": N_("This game will be abandoned."),
    # NOTE: title bar, max 25 characters
    "BYE_TITLE": N_("Shutting down"),
    "BYE": N_("Wait until the screen is dark, then unplug."),
    # NOTE: menu item and title, max 18 characters
    "HISTORY": N_("History"),
    "NO_HISTORY": N_("No finished game yet."),
    # NOTE: a heading in the History pages, before the statistics per player; max 21 characters
    "STATISTICS": N_("Statistics"),
    # NOTE: menu item, max 18 characters: shown only while a USB stick is plugged in
    "COPY_TO_USB": N_("History to USB"),
    "COPYING": N_("Copying the history to the USB stick..."),
    # NOTE: the last line of the History pages: the C key opens the list of games to take one out; max 3 lines
    # of 21 characters
    "REMOVE_HINT": N_("C: take a game out of the history."),
    # NOTE: title bar, max 25 characters: the list of games, one of which leaves the history
    "REMOVE_TITLE": N_("Take a game out"),
    # NOTE: title bar, max 25 characters
    "USB_TITLE": N_("USB stick"),
    # NOTE: title bar, max 25 characters
    "UNSAVED_TITLE": N_("Cannot save"),
    "UNSAVED": N_("Storage full or damaged: the last key was not taken, nothing changed. "
                  "Free space or replace the SD card; play goes on once saving works."),
    "NO_JOURNAL": N_("The storage cannot be opened: nothing can be saved, so keys that change the game are "
                     "refused. Free space or replace the SD card; play starts as soon as saving works."),
    # NOTE: title bar, max 25 characters
    "REPAIRED_TITLE": N_("Journal repaired"),
    # NOTE: title bar, max 25 characters: the program itself failed (a bug), the game is kept
    "FAILED_TITLE": N_("Something went wrong"),
    # NOTE: max 6 lines of 25 characters; C and D are the keypad's keys
    "FAILED": N_("The game is kept. C takes back the last key, D opens the menu."),
    # NOTE: title bar, max 25 characters
    "NO_POWER_OFF_TITLE": N_("Cannot shut down"),
    # NOTE: title bar, max 25 characters: the serial keypad's cable carries bytes that are no keys
    "NOISE_TITLE": N_("Keypad cable: noise"),
    # NOTE: max 6 lines of 25 characters
    "NOISE": N_("Noise never types a key. Check the keypad's cable; a yes that cannot be undone is asked again."),
    # NOTE: menu item and the title of a half-width bar, max 12 characters: the table's page on a phone
    "PHONE_VIEW": N_("Phone view"),
    # NOTE: max 3 lines of 21 characters
    "PHONE_OFF": N_("Phone view is off."),
    # NOTE: max 3 lines of 21 characters; keep "README: Phone view" in English (the README's section)
    "PHONE_HOW": N_("Turn on the web service (see README: Phone view)."),
    # NOTE: menu item and title, max 18 characters: a new PIN for the phones (the table's web page)
    "NEW_PIN": N_("New PIN"),
    # NOTE: title bar, max 25 characters
    "NEW_PIN_TITLE": N_("New PIN?"),
    # NOTE: max 5 lines of 25 characters: the question before the box makes a new PIN for the phones
    "NEW_PIN_QUESTION": N_("Phones then need the new PIN; the old one stops working."),
    # NOTE: one line, max 25 characters: above the new PIN (shown in big digits)
    "PIN_LINE": N_("Phones: type this PIN"),
    # NOTE: one line, max 25 characters: under the new PIN
    "PIN_HINT": N_("Any key: done"),
    # NOTE: title bar, max 25 characters: the camera above the board
    "CAMERA_TROUBLE_TITLE": N_("Camera"),
    # NOTE: title bar, max 25 characters: an update of the box's system
    "UPDATE_TITLE": N_("Update"),
    # NOTE: the OLED, after # confirmed an update from a USB stick
    "UPDATE_STARTED": N_("Installing the update. The box restarts by itself in a few minutes: leave it on. "
                         "The game waits on the card."),
}


def __getattr__(name: str) -> str:
    if name in _CONSTANTS:
        return _(_CONSTANTS[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def capital(text: str) -> str:
    """The first letter in capitals, the rest as translated (str.capitalize would lower it)."""
    return text[:1].upper() + text[1:]


def sentence(text: str) -> str:
    """`text` as a sentence: capitalised, with a full stop."""
    return capital(text) + ("" if text.endswith(".") else ".")


def play_item(title: str) -> str:
    # NOTE: menu item, max 18 characters with the game's title
    return _("Play {game}").format(game=title)


def menu_choice(number: int, item: str) -> str:
    return f"{number} {item}"


def brightness_choice(level: int, current: bool) -> str:
    # NOTE: a menu line, max 18 characters
    return _("{level} (now)").format(level=level) if current else f"{level}"


def language_choice(number: int, name: str, current: bool) -> str:
    """A line of the language list: each language named in itself, the current one marked."""
    return f"{number} {name}" + (" *" if current else "")


def history_line(when: str, title: str, result: str) -> str:
    return f"{when} {title}: {result}" if result else f"{when} {title}"


def remove_choice(game_id: object, when: str, title: str) -> str:
    """A line of the list of games to take out: its number, when it ended, the game ("12 16/11 23:13 Clans")."""
    return f"{game_id} {when} {title}"


def remove_question(game_id: object) -> str:
    # NOTE: max 4 lines of 25 characters: asked before game {id} leaves the history (the journal keeps it)
    return _("Take game {id} out of the history and the statistics? The journal keeps it.").format(id=game_id)


def removed(game_id: object) -> str:
    # NOTE: max 5 lines of 21 characters, after game {id} left the history
    return _("Game {id} is out of the history and the statistics.").format(id=game_id)


def unreadable_game(game_id: object) -> str:
    """A History line for a game whose row cannot be read (its times, its result): named, left out."""
    # NOTE: a line of the History list on the OLED, {id}: the game's number; max 40 characters
    return _("Game {id}: unreadable, left out").format(id=game_id)


def totals_and_winners(totals: list[int], winners: list[int]) -> str:
    """"P1 34, P2 28; P1 won" (players 0-based in, 1-based out); shared wins name every winner."""
    scores = ", ".join(_("P{seat} {total}").format(seat=i + 1, total=t) for i, t in enumerate(totals))
    won = " ".join(_("P{seat}").format(seat=w + 1) for w in winners)
    return _("{scores}; {winners} won").format(scores=scores, winners=won) if won else scores


def no_power_off(why: str) -> str:
    return _("The system refused to power off ({why}). The game goes on. Run the installer with "
             "--allow-poweroff, or wait for updates to finish.").format(why=why)


def camera_trouble(why: str) -> str:
    """The camera above the board does not answer (once per cause; it is tried again every few seconds)."""
    return _("The camera does not answer ({why}). Type the moves; the box tries it again every few seconds. "
             "companion doctor says more.").format(why=why)


def update_question(version: str) -> str:
    """A USB stick holds an update the box may install (# installs it)."""
    return _("Install update {version} from the USB stick? The box restarts; the game waits.").format(version=version)


def update_not_taken(problem: str) -> str:
    """A USB stick holds a bundle this box must not install (`problem`: English, from the check)."""
    return _("The update on the USB stick cannot be installed: {problem}").format(problem=problem)


_REFUSED = {
    # NOTE: the OLED: why an update was refused (the box went back to the system it ran)
    "start": N_("the new system did not finish starting"),
    # NOTE: the OLED: why an update was refused (the box went back to the system it ran)
    "unit": N_("a part of the new system failed to start"),
    # NOTE: the OLED: why an update was refused (the box went back to the system it ran)
    "ready": N_("the new system did not get ready in time"),
    # NOTE: the OLED: why an update was refused (the box went back to the system it ran)
    "cut": N_("the power went off before the new system started"),
}
_NOT_INSTALLED = {  # companion.update.status.INSTALL_REASONS: why an install wrote nothing that starts
    # NOTE: the OLED and the page: why an update file was not installed (nothing changed)
    "unreadable": N_("the file could not be read"),
    # NOTE: the OLED and the page: why an update file was not installed (nothing changed)
    "short": N_("the file is cut short"),
    # NOTE: the OLED and the page: why an update file was not installed (nothing changed)
    "bundle": N_("the file is not an update"),
    # NOTE: the OLED and the page: why an update file was not installed (nothing changed)
    "manifest": N_("the update is for a newer companion"),
    # NOTE: the OLED and the page: why an update file was not installed (nothing changed)
    "key": N_("it is not signed with this box's key"),
    # NOTE: the OLED and the page: why an update file was not installed (nothing changed)
    "nokey": N_("this box trusts no update key"),
    # NOTE: the OLED and the page: why an update file was not installed (nothing changed)
    "changed": N_("the file changed or is damaged"),
    # NOTE: the OLED and the page: why an update file was not installed (nothing changed)
    "board": N_("it is for another kind of box"),
    # NOTE: the OLED and the page: why an update file was not installed (nothing changed)
    "older": N_("it is older than what the box runs"),
    # NOTE: the OLED and the page: why an update file was not installed (nothing changed)
    "nofit": N_("the new system does not fit the card"),
    # NOTE: the OLED and the page: why an update file was not installed (nothing changed)
    "noslot": N_("this card has no second system slot"),
    # NOTE: the OLED and the page: why an update file was not installed (nothing changed)
    "busy": N_("an update is already being tried"),
}


def update_news(state: str, reason: str, version: str) -> str:
    """What the last update did, said once at the start after it."""
    if state == "installed":
        return _("Update installed: the box runs {version}.").format(version=version)
    if state == "refused":
        why = _(_REFUSED[reason]) if reason in _REFUSED else reason
        return _("The update was refused ({why}): the box runs as before. Nothing was lost.").format(why=why)
    if reason in _NOT_INSTALLED:
        return _("The update was not installed ({why}): the box runs as before. Nothing was lost.").format(
            why=_(_NOT_INSTALLED[reason]))
    return _("The update stopped before it was written whole: nothing changed. Install it again.")


def pin_not_saved(why: str) -> str:
    """The menu's New PIN could not be written where the page reads it."""
    return _("The new PIN was not saved ({why}). The old PIN still works.").format(why=why)


def taken_back(set_aside: int) -> str:
    """What C on the failure screen did: keys not saved undone, or saved actions set aside (kept)."""
    if not set_aside:
        return _("Back at the last saved move: the keys since then are taken back.")
    return ngettext("The last saved action is set aside (kept in the journal). Play goes on before it.",
                    "The last {n} saved actions are set aside (kept in the journal). Play goes on before them.",
                    set_aside).format(n=set_aside)
