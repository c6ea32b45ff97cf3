"""What both games' controllers share: the effects the daemon reads (journal outbox, shutdown,
switch game), the power key, information screens, the menu's navigation, and the questions
brightness, shut down and switching to the other game.

A mixin: the controller calls `_init_shared()` in its constructor and provides `overlay`, `info`
(title, pages, name), `info_page`, `menu_sel`, `bright_sel` and `_do(action)` (which appends to
`_outbox`); the brightness change is journaled like any other action.
"""

from __future__ import annotations

from typing import Collection, Sequence

from companion.table import keys as K
from companion.table import screen as S

BRIGHTNESS_LEVELS = 5
DEFAULT_BRIGHTNESS = 4


class SharedOverlays:
    OTHER_GAME = ""  # "mammut" from Clans, "clans" from Mammut

    def _init_shared(self) -> None:
        self.brightness = DEFAULT_BRIGHTNESS
        # effects for the daemon
        self.shutdown_requested = False
        self.switch_game: str | None = None  # the other game, once the table asks for it
        self.now = 0.0
        self._outbox: list[dict] = []

    def pop_actions(self) -> list[dict]:
        """Actions accepted since the last call (persist them before showing their result)."""
        out, self._outbox = self._outbox, []
        return out

    def _power_or_info_key(self, key: str, dismissing: Collection[str]) -> bool:
        """POWER asks to shut down; an information screen pages with A/B and goes away at any other
        key, which then counts as usual unless it is one of `dismissing`. True when the key is used up."""
        if key == K.POWER:
            self.info, self.overlay = None, "shutdown?"
            return True
        if self.info is None:
            return False
        pages = self.info[1]
        if key in (K.UP, K.DOWN) and len(pages) > 1:
            step = 1 if key == K.DOWN else -1
            self.info_page = max(0, min(len(pages) - 1, self.info_page + step))
            return True
        self.info = None
        return key in dismissing

    def _menu_choice(self, key: str, items: Sequence[str]) -> str | None:
        """Move through the menu with A/B or an item's digit; returns the item chosen with #.

        * or D leave the menu; # leaves it too, and the caller acts on the item returned.
        """
        if key in (K.UP, K.DOWN):
            self.menu_sel = (self.menu_sel + (1 if key == K.DOWN else -1)) % len(items)
        elif key in K.DIGITS and 1 <= int(key) <= len(items):
            self.menu_sel = int(key) - 1
        elif key in (K.BACK, K.MENU):
            self.overlay = None
        elif key == K.OK:
            self.overlay = None
            return items[self.menu_sel]
        return None

    def _open_brightness(self) -> None:
        self.overlay, self.bright_sel = "brightness", self.brightness - 1

    def _overlay_brightness(self, key: str) -> None:
        if key in (K.UP, K.DOWN):
            self.bright_sel = max(0, min(BRIGHTNESS_LEVELS - 1, self.bright_sel + (1 if key == K.DOWN else -1)))
        elif key in K.DIGITS and 1 <= int(key) <= BRIGHTNESS_LEVELS:
            self.bright_sel = int(key) - 1
        elif key == K.OK:
            self.overlay = None
            if self.bright_sel + 1 != self.brightness:
                self._do({"a": "brightness", "level": self.bright_sel + 1})
        elif key == K.BACK:
            self.overlay = None

    def _overlay_shutdown(self, key: str) -> None:
        if key == K.OK:
            self.overlay, self.shutdown_requested = None, True
        elif key == K.BACK:
            self.overlay = None

    def _overlay_switch(self, key: str) -> None:
        if key == K.OK:
            self.overlay, self.switch_game = None, self.OTHER_GAME
        elif key == K.BACK:
            self.overlay = None

    def _common_screen(self) -> S.Screen | None:
        """The screen that comes before the controller's own: shutting down, a message, a menu or question."""
        if self.shutdown_requested:
            return S.Screen(S.TEXT, "bye", "Shutting down",
                            tuple(S.wrap(["Wait until the screen is dark, then unplug."])))
        if self.info is not None:
            title, pages, name = self.info
            return S.Screen(S.TEXT, name, title, pages[self.info_page], self.info_page, len(pages))
        if self.overlay is not None:
            return self._overlay_screen()
        return None

    def _shared_overlay_screen(self) -> S.Screen | None:
        """The screen of a shared question (confirmations, brightness), or None for the controller's own."""
        if self.overlay == "brightness":
            return S.Screen(S.MENU, "brightness", "Brightness",
                            choices=tuple(f"{i}" + (" (now)" if i == self.brightness else "")
                                          for i in range(1, BRIGHTNESS_LEVELS + 1)),
                            selected=self.bright_sel)
        return S.common_confirm(self.overlay)
