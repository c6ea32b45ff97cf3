"""An information screen a game shows after an event (a move's result, an error, a help page):
it pages with A/B (and # before its last page, as Enter reads "go on") and goes away at
any other key, so nobody has to dismiss it. Other parts may come first, on their own pages
under their own titles (a first game's explanation of the rule the result shows: read as the
message appears, then # goes on to the message itself).
Composed into a game, never inherited."""

from __future__ import annotations

from typing import Collection, Sequence

from companion.table import keys as K
from companion.table.screen import TEXT, Screen, paginate


class InfoPager:
    def __init__(self) -> None:
        self.title = ""
        self.name = ""
        self.pages: list[tuple[str, ...]] = []
        self.titles: list[str] = []  # each page's title
        self.names: list[str] = []  # and screen name
        self.page = 0

    @property
    def shown(self) -> bool:
        return bool(self.pages)

    def show(self, title: str, paragraphs: Sequence[str], name: str,
             first: Sequence[tuple[str, Sequence[str], str]] = ()) -> None:
        """Each of `first` (title, paragraphs, screen name) from a new page, then the message (`paragraphs`
        under `title`, named `name`)."""
        self.title, self.name, self.page = title, name, 0
        self.pages, self.titles, self.names = [], [], []
        for part_title, part, part_name in (*first, (title, paragraphs, name)):
            pages = paginate(part)
            self.pages += pages
            self.titles += [part_title] * len(pages)
            self.names += [part_name] * len(pages)

    def clear(self) -> None:
        self.pages, self.page = [], 0

    def key(self, key: str, dismissing: Collection[str]) -> bool:
        """A key while the message shows: A/B page a long message, # goes to the next page until
        the last; any other key (and # on the last page) dismisses it and is then used up only if
        it is one of `dismissing`. True when the key is used up."""
        if not self.pages:
            return False
        last = len(self.pages) - 1
        if (key in (K.UP, K.DOWN) and last > 0) or (key == K.OK and self.page < last):
            step = -1 if key == K.UP else 1
            self.page = max(0, min(len(self.pages) - 1, self.page + step))
            return True
        self.clear()
        return key in dismissing

    def screen(self) -> Screen | None:
        if not self.pages:
            return None
        return Screen(TEXT, self.names[self.page], self.titles[self.page], self.pages[self.page], self.page,
                      len(self.pages))
