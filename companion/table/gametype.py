"""A game's one typed description, `GameType`: what it is, and where its code is.

Everything the rest of the companion needs to know of a game, written once in the game's
own folder (`companion/games/<kind>/about.py`, `GAME = GameType(...)`) and registered by
one line in `companion.games` (models: OpenSpiel's `GameType` with `register_game`,
python-chess's variants with `find_variant`):

* its facts: `kind` (the `--game` name and the journal's), `title` (menus, the page),
  `name` (the published name, for the history and the exports), designers, players,
  who wins (`highest_wins`), whether its totals are points (`no_points`), the
  BoardGameGeek id and year, playing time and age (0: nobody could confirm it), the
  bots `--bot` may name and the one it plays by default (`default_bot`);
* what it brings along, in its own folder: its buzzer patterns (`sounds`, event -> pattern)
  and the announce log's words for them (`sound_words`, marked with `N_`), its page's
  stylesheet and its board file (`stylesheet`, `board`: "package:file" resources);
* its hooks, named as "module" or "module:function" strings so that nothing of a game is
  imported until it is used: the table game (`module` defines `TABLE_GAME`, the
  `TableGame` of companion.table.protocol), the bots' searcher, its subcommands of
  `companion`, its speech (`GameSpeech`), its page (companion.table.gameweb.GameWeb) and
  its history (`GameHistory`). `register_game` checks every hook's form and that its module
  and resources can be found, without importing a game's code;
* its statistics (`statistics`, each a `Statistic`: per player or per game, computed by a hook
  of its own from its plays and the extras its history module keeps of them), and the words
  `companion history` shows for what its plays hold (`total_words`, `no_winner`).

A light module (the standard library only): the registry, `companion.cli` and the
configuration load it without any screen, effect or text of the table.
"""

from __future__ import annotations

import importlib
import importlib.resources
import importlib.util
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Protocol

if TYPE_CHECKING:  # the annotation only: the page's helpers are not loaded with the registry
    from companion.table.gameweb import GameWeb

KIND = re.compile(r"[a-z][a-z0-9_]{0,19}$")
MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
HOOK = re.compile(MODULE.pattern[:-1] + r":[A-Za-z_][A-Za-z0-9_]*$")
RESOURCE = re.compile(MODULE.pattern[:-1] + r":[A-Za-z0-9_][A-Za-z0-9_.-]*$")
# a buzzer pattern: (frequency in Hz or None for silence, seconds) steps; an active buzzer sounds its own tone
Pattern = tuple[tuple[float | None, float], ...]


def _findable(module: str) -> bool:
    """Whether `module` can be imported (its parent packages are imported; the module itself is not)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def hook_problems(what: str, hook: str | None, function: bool) -> list[str]:
    """What is wrong with a hook: a "module" (function False) or "module:function" string whose
    module must be found (the function is looked up when the hook is used)."""
    if hook is None:
        return []
    form = HOOK if function else MODULE
    if not isinstance(hook, str) or not form.match(hook):
        return [f"{what} {hook!r}: give " + ('"module:function"' if function else '"module"')]
    if not _findable(hook.partition(":")[0]):
        return [f"{what} {hook!r}: no module {hook.partition(':')[0]!r}"]
    return []


def resource_problems(what: str, resource: str | None) -> list[str]:
    """What is wrong with a "package:file" resource of a game (its folder's file)."""
    if resource is None:
        return []
    if not isinstance(resource, str) or not RESOURCE.match(resource):
        return [f'{what} {resource!r}: give "package:file"']
    package, _, name = resource.partition(":")
    try:
        found = importlib.resources.files(package).joinpath(name).is_file()
    except (ImportError, TypeError, ValueError):
        found = False
    return [] if found else [f"{what} {resource!r}: no such file"]


def read_resource(resource: str) -> str:
    """The text of a "package:file" resource (a game's stylesheet, its board file)."""
    package, _, name = resource.partition(":")
    return importlib.resources.files(package).joinpath(name).read_text(encoding="utf-8")


class GameSpeech(Protocol):
    """A game's speech module (`GameType.speech`)."""

    def say(self, event: str, fields: dict) -> str:
        """The spoken sentence of one of the game's `Announce` effects (KeyError: none for it)."""


class GameHistory(Protocol):
    """A game's history module (`GameType.history`), read by companion.history. It may also name
    `HEAVY`, the parts of its results (dotted keys: "record.moves") that a list or a statistic never
    reads: a lean read of the history leaves them in the journal (companion.history.plays.lean_parts)."""

    def facts(self, result: dict) -> dict[str, Any]:
        """What the history keeps of a finished game's journal result: totals, winners, first_player,
        names, record (and colors where the game deals them), and `extras`: a dict of the game's own
        facts (a `Play`'s `extras`, read by its statistics' hooks)."""

    def import_result(self, data: Any) -> dict[str, Any] | None:
        """The journal result of a record from elsewhere (ValueError saying why when it is not one);
        None when that game is not finished."""

    def color_name(self, color: str) -> str:
        """A colour the game dealt, in the table's language (the colour itself when it has none)."""


PER = ("player", "game")


@dataclass(frozen=True)
class Statistic:
    """One statistic a game brings (`GameType.statistics`), counted by companion.history.stats.

    `per` "player": a key of every player's entry (`player_stats`, after "by_game"); `compute` is
    function(plays) with plays the player's plays of this game as (Play, the player's seats) pairs.
    `per` "game": a key of every game and player count's entry (`game_stats`, after "seat_win_rate");
    `compute` is function(plays) with the group's plays of this game. Play is companion.history's:
    players, totals, winners, and `extras`, what the game's history module keeps (`GameHistory.facts`).
    Given no play of the game (a player who never played it, another game's group), it gives the
    statistic's nothing (0). The statistics of every registered game are in every entry, in the
    registry's order, so a name is one game's only.

    `column`: `companion stats`' words for it (English, as all its output): a player's column heading,
    or a game's ", {column} {value}" when the value is not 0 ("" : not printed). `title`: the page's
    column heading (marked with N_, translated when shown; "" : no column on the page).
    """

    name: str  # its key in the JSON (`companion stats --json`, /api/stats)
    per: str  # "player" or "game"
    compute: str  # "module:function"
    column: str = ""
    title: str = ""

    def problems(self) -> list[str]:
        """What is wrong with this statistic (empty: nothing)."""
        out = [] if KIND.match(self.name) else [f"statistic {self.name!r}: lower-case letters, digits and _"]
        if self.per not in PER:
            out.append(f"statistic {self.name!r}: per is one of {', '.join(PER)}")
        return out + hook_problems(f"statistic {self.name!r}", self.compute, True)

    def value(self, plays: list) -> Any:
        """The statistic over `plays` (see the class docstring for their form)."""
        module, _, function = self.compute.partition(":")
        return getattr(importlib.import_module(module), function)(plays)


@dataclass(frozen=True)
class GameType:
    """One game, described once (see the module docstring); `companion.games.register_game` checks it."""

    kind: str
    title: str
    name: str
    module: str
    designers: str = ""
    min_players: int = 0
    max_players: int = 0
    highest_wins: bool = True
    no_points: bool = False  # its "total" is no score (Mammut: the camps held at the end)
    bgg_id: int = 0
    bgg_year: int = 0
    min_play_time: int = 0  # minutes
    max_play_time: int = 0
    min_age: int = 0
    bots: tuple[str, ...] = ()  # the names `--bot` and `game.bot` accept for it
    quick_start: bool = False  # `companion run --players N` starts it without the questions (N its player counts)
    default_bot: str = ""  # the bot of its bot seats when neither --bot nor game.bot names one
    bot_options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # bot -> what it is made with
    searcher: str | None = None  # "module:function(options)" -> an object with run(effect) -> answer
    # "module:function(corners or None, still_s=S)" -> the camera's watcher: frame(photo, now, position) -> what
    # it saw or None, load_empty(picture), kept_empty(), set_corners(corners), corners_problem(corners, size),
    # outlined(photo);
    # its TableGame then has camera_position() and camera_seen(kind, ply, move)
    camera: str | None = None
    camera_help: str = ""  # (N_) the page's words for tapping the board's corners in the camera's picture, in order
    commands: Mapping[str, tuple[str, str]] = field(default_factory=dict)  # name -> ("module:function", help)
    speech: str | None = None  # a GameSpeech module
    web: str | None = None  # a GameWeb module (companion.table.gameweb)
    history: str | None = None  # a GameHistory module
    sounds: Mapping[str, Pattern] = field(default_factory=dict)  # event -> its buzzer pattern (beep(event, kind))
    sound_words: Mapping[str, str] = field(default_factory=dict)  # event -> the announce log's words (N_)
    stylesheet: str | None = None  # "package:file.css": its part of the page's stylesheet
    board: str | None = None  # "package:file": its board file, when the table knows its board
    statistics: tuple[Statistic, ...] = ()  # what companion.history.stats counts of it besides wins and totals
    total_words: tuple[str, str] = ()  # `companion history`'s words after a total that is no points: one, more
    no_winner: tuple[str, str] = ()  # (an extra, `companion history`'s words when it is set and nobody won)

    def problems(self) -> list[str]:
        """What is wrong with this description (empty: nothing)."""
        out = []
        if not KIND.match(self.kind):
            out.append(f"kind {self.kind!r}: lower-case letters, digits and _, a letter first, at most 20")
        if not self.title or not self.name or not self.module:
            out.append("title, name and module are required")
        if not 0 <= self.min_players <= self.max_players:
            out.append(f"players {self.min_players}-{self.max_players}: give 0 <= min_players <= max_players")
        if self.bgg_id < 0 or self.bgg_year < 0 or self.min_play_time > self.max_play_time:
            out.append("bgg_id and bgg_year are 0 or more, min_play_time at most max_play_time")
        if self.bots and self.searcher is None:
            out.append("bots need a searcher")
        if self.default_bot and self.default_bot not in self.bots:
            out.append(f"default_bot {self.default_bot!r} is not one of its bots")
        if self.bots and not self.default_bot:
            out.append("bots need a default_bot")
        for bot, options in self.bot_options.items():
            if bot not in self.bots:
                out.append(f"bot_options {bot!r}: not one of its bots")
            elif not isinstance(options, Mapping) or not all(isinstance(k, str) and k.isidentifier() for k in options):
                out.append(f"bot_options {bot!r}: a mapping of keyword names to values")
        out += hook_problems("module", self.module, False) if self.module else []
        out += hook_problems("searcher", self.searcher, True)
        out += hook_problems("camera", self.camera, True)
        for name, (hook, _help) in self.commands.items():
            out += hook_problems(f"command {name}", hook, True)
        for what in ("speech", "web", "history"):
            out += hook_problems(what, getattr(self, what), False)
        out += resource_problems("stylesheet", self.stylesheet) + resource_problems("board", self.board)
        for event, pattern in self.sounds.items():
            if not KIND.match(event) or event not in self.sound_words:
                out.append(f"sound {event!r}: a lower-case name, with its words in sound_words")
            if not pattern or not all(len(step) == 2 and step[1] > 0 and (step[0] is None or step[0] > 0)
                                      for step in pattern):
                out.append(f"sound {event!r}: a pattern is (frequency in Hz or None, seconds > 0) steps")
        out += [f"sound_words {event!r}: no such sound" for event in self.sound_words if event not in self.sounds]
        for stat in self.statistics:
            out += stat.problems() if isinstance(stat, Statistic) else [f"statistics: {stat!r} is no Statistic"]
        named = [(s.per, s.name) for s in self.statistics if isinstance(s, Statistic)]
        out += [f"statistic {name!r} per {per} is named twice" for per, name in sorted(set(named))
                if named.count((per, name)) > 1]
        if self.total_words and len(self.total_words) != 2 or self.no_winner and len(self.no_winner) != 2:
            out.append("total_words is (one, more) and no_winner (an extra, words)")
        return out

    @property
    def player_counts(self) -> tuple[int, ...]:
        """The numbers of players it takes (`--players`)."""
        return tuple(range(max(self.min_players, 1), self.max_players + 1))

    @property
    def description(self) -> str:
        """Name and designers, for help texts: "Clans (Leo Colovini)"."""
        return f"{self.name} ({self.designers})" if self.designers else self.name

    def load(self) -> type:
        """The game's `TableGame` class (imports its code)."""
        return importlib.import_module(self.module).TABLE_GAME

    def say(self, event: str, fields: dict) -> str:
        """The game's sentence for an `Announce` of its (KeyError when it has none)."""
        if self.speech is None:
            raise KeyError(event)
        speech: GameSpeech = importlib.import_module(self.speech)  # type: ignore[assignment]
        return speech.say(event, fields)

    def web_view(self) -> GameWeb | None:
        """The game's module for the table's page (companion.table.gameweb.GameWeb); None when it has none."""
        return importlib.import_module(self.web) if self.web else None  # type: ignore[return-value]

    def history_module(self) -> GameHistory | None:
        """The game's module for the table's history (companion.history); None when it has none."""
        return importlib.import_module(self.history) if self.history else None  # type: ignore[return-value]

    def sound_text(self, event: str) -> str:
        """The announce log's words for one of its buzzer patterns, in the table's language (KeyError: none)."""
        from companion.i18n import _

        return _(self.sound_words[event])

    def stylesheet_text(self) -> str:
        """Its part of the page's stylesheet ("" when it has none)."""
        return read_resource(self.stylesheet) if self.stylesheet else ""

    def bot_for(self, asked: str | None) -> str:
        """The bot its bot seats play: `asked` (--bot, game.bot) when it is one of its bots, else its default."""
        return asked if asked in self.bots else self.default_bot

    def make_camera_watcher(self, corners: list[tuple[float, float]] | None, still_s: float) -> Any:
        """The camera's watcher for this game (None: it has no camera); ValueError for corners that make no board."""
        if self.camera is None:
            return None
        module, _, function = self.camera.partition(":")
        return getattr(importlib.import_module(module), function)(corners, still_s=still_s)

    def make_searcher(self, options: Mapping[str, Any]) -> Any:
        """The bots' searcher made from the daemon's bot options (the bot asked for, its budget and
        seed): the bot is `bot_for(options["bot"])`, made with its `bot_options`. None for a game
        without bots."""
        if self.searcher is None:
            return None
        bot = self.bot_for(options.get("bot"))
        mine = {**options, "bot": bot, "bot_options": dict(self.bot_options.get(bot, {}))}
        module, _, function = self.searcher.partition(":")
        return getattr(importlib.import_module(module), function)(mine)
