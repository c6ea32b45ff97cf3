"""From journal rows to what the page shows: each game rebuilt by its own engine, through the registry.

`Views.refresh()` asks the reader whether anything changed (`signature`) and, if so,
rebuilds the newest game with its `from_actions` and asks the game's web module
(`GameType.web_view()`, companion.table.gameweb) for the public state and the live HTML.
The result (`Live`) is shared by every request and event stream until the next change,
so twenty phones cost one rebuild a move. A finished game's live view ends with its
"Add to BG Stats" link (companion.history). Replays are rebuilt on demand and kept for
the few games last asked for. No game is named here. The seats' names go to the game's
views as the page shows them (`page_names`): a name kept before the names' rule has what a
name may not hold written as its code, so no bidirectional control turns a line around.

The table's language: the journal's setting (the menu's choice), else the one given at
start (--lang, the config's, the system's). Rendering switches the process's language
(companion.i18n), which is safe because every rebuild runs on the one event-loop thread.
"""

from __future__ import annotations

import json
import logging
import random
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from companion import i18n
from companion.games import GAMES
from companion.journal.reader import GameRows, JournalReader, JournalUnavailable
from companion.util.safe_text import surrogates_escaped
from companion.table import seatnames
from companion.table.gameweb import name_text, tag
from companion.table import entries

log = logging.getLogger(__name__)

REPLAYS_KEPT = 4


def page_names(names: list[str] | None) -> list[str] | None:
    """The seats' names as the page shows them (`gameweb.name_text`: the same, for every name the rule
    accepts), or None without names."""
    return None if names is None else [name_text(n) for n in names]


@dataclass
class Live:
    """The game at the table now, as the page shows it; `problem` when it cannot be shown."""

    payload: dict | None = None  # the /api/state object (spec section 7)
    html: str = ""
    problem: str | None = None
    version: int = 0  # counts rebuilds: an event stream sends when it grows

    _text: str | None = field(default=None, repr=False, compare=False)

    def json(self) -> str:
        """The /api/state text, made once per rebuild (every stream sends the same)."""
        if self._text is None:
            self._text = json.dumps(self.payload if self.payload is not None else {"problem": self.problem},
                                    separators=(",", ":"))
        return self._text


@dataclass
class Replay:
    """One game of the journal for the replay pages."""

    rows: GameRows
    steps: list[str] = field(default_factory=list)
    table: Any = None
    web: Any = None

    def html(self, k: int) -> str:
        with seatnames.using(page_names(self.table.names)):
            return self.web.step_html(self.table, k)

    def record(self) -> str | None:
        """The game's record to download: the real names (a lone surrogate kept before the names'
        rule as its JSON escape, so the answer can be written)."""
        text = self.web.record(self.table)
        return None if text is None else surrogates_escaped(text)


class Views:
    """The page's view of the journal (see the module docstring)."""

    def __init__(self, reader: JournalReader, language: str = i18n.DEFAULT) -> None:
        self.reader = reader
        self.default_language = language
        self.live = Live(problem="not read yet")
        self._signature: Any = object()
        self._replays: OrderedDict[tuple, Replay] = OrderedDict()

    def _language(self, stored: Any) -> None:
        i18n.set_language(stored if stored in i18n.LANGUAGES else self.default_language)

    def use_table_language(self) -> None:
        """Switch to the table's language (the journal's setting, else the default); JournalUnavailable."""
        self._language(self.reader.setting("language"))

    def _bgstats_html(self, game_id: int) -> str:
        """The "Add to BG Stats" link of a finished game (its colours are revealed), or "" when not listed."""
        from companion.history.bgstats import create_play_link
        from companion.history.plays import read_history
        from companion.web.pages import bgstats_link

        play = next(iter(read_history(self.reader.path.parent, full=False, game_id=game_id).finished), None)
        return "" if play is None else tag("p", bgstats_link(create_play_link(play)), cls="final-links")

    def refresh(self) -> bool:
        """Rebuild the live view when the journal changed; True when it did."""
        try:
            signature = self.reader.signature()
        except JournalUnavailable as exc:
            signature = ("unavailable", str(exc))
        if signature == self._signature:
            return False
        self._signature = signature
        version = self.live.version + 1
        try:
            self.live = self._build_live()
        except JournalUnavailable as exc:
            self.live = Live(problem=str(exc))
        self.live.version = version
        return True

    def _build_live(self) -> Live:
        self._language(self.reader.setting("language"))
        game_id = self.reader.latest_id()
        if game_id is None:
            return Live(problem="no game in the journal yet: start one at the table")
        rows = self.reader.game(game_id)
        if rows is None:
            raise JournalUnavailable("the newest game went away while it was read")
        built = self._rebuild(rows)
        if isinstance(built, str):
            return Live(problem=built)
        table, web = built
        with seatnames.using(page_names(table.names)):
            payload = {"game": rows.kind, "game_id": rows.game_id, "actions": len(rows.actions),
                       "finished": rows.finished is not None, "state": web.public_state(table)}
            html = web.live_html(table)
        if rows.finished is not None:
            html += self._bgstats_html(rows.game_id)
        return Live(payload=payload, html=html)

    def _rebuild(self, rows: GameRows) -> tuple[Any, Any] | str:
        """The game's table object and web module, or why it cannot be shown."""
        entry = GAMES.get(rows.kind)
        web = entry.web_view() if entry is not None else None
        if web is None:
            return f"game {rows.game_id} is a {rows.kind!r} game, which this page cannot show"
        try:
            table = entries.rebuild_game(entry.load(), rows.actions, random.Random(0))
        except Exception as exc:  # a damaged or foreign journal must give a page, never a traceback
            log.warning("web: game %d cannot be rebuilt: %s", rows.game_id, exc)
            return f"game {rows.game_id} cannot be rebuilt from the journal ({type(exc).__name__})"
        return table, web

    def replay(self, game_id: int) -> Replay | str:
        """Game `game_id` for the replay pages, or why not (kept for the next steps)."""
        try:
            self._language(self.reader.setting("language"))
            rows = self.reader.game(game_id)
        except JournalUnavailable as exc:
            return str(exc)
        if rows is None:
            return f"there is no game {game_id} in the journal (see the list of games: /games)"
        key = (rows.game_id, len(rows.actions), rows.finished)
        if key in self._replays:
            self._replays.move_to_end(key)
            return self._replays[key]
        built = self._rebuild(rows)
        if isinstance(built, str):
            return built
        table, web = built
        with seatnames.using(page_names(table.names)):
            replay = Replay(rows, web.steps(table), table, web)
        self._replays[key] = replay
        while len(self._replays) > REPLAYS_KEPT:
            self._replays.popitem(last=False)
        return replay

    def games(self) -> list[GameRows] | str:
        try:
            return self.reader.games()
        except JournalUnavailable as exc:
            return str(exc)
