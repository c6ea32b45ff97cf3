"""Game records (spec section 1): load, validate, play, summarise and save.

A record is the exchange format of a game: setup, players, moves and (after the
reveal) each player's color. Unknown top-level keys are kept, so a record loads
and saves unchanged. Every problem is a RecordError naming the move number
(1-based) or the field, and why, in one line of at most MAX_MESSAGE characters.

A record is a file the box does not trust: it is read with the bounded reader
(companion.util.bounded: a size cap, no deep nesting, no over-long integers), every
field is checked with exact types (a bool is not an int; setup keys are the ASCII
numbers "1".."60", not anything str.isdigit() accepts), territory numbers are checked
to be 1-60 before the engine sees them, and every value echoed in a message is clipped.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from typing import Any

from companion.games.clans.board import COLORS, N_TERRITORIES
from companion.games.clans.game import Game, IllegalMoveError, Move, check_setup, normalize_color
from companion.util.bounded import BoundedInputError, clip, load_json, read_text, shorten
from companion.table.seatnames import NameRefused, check_names

BOARD_NAME = "clans-2002"
KNOWN_KEYS = ("board", "players", "first_player", "setup", "colors", "moves")
MAX_MESSAGE = 200  # a RecordError's message, without the file's name that callers put in front
TERRITORY_KEY = re.compile(r"[1-9][0-9]?")  # setup keys: ASCII digits only (fullmatch), no sign, no leading 0
_SOURCE = "record"  # the source name given to the bounded reader, cut off again in RecordError messages


class RecordError(ValueError):
    """A record that is not valid; the message is one line: where, and why (values clipped).

    The message is also cut to MAX_MESSAGE characters here: a last guard, the checks
    below clip each value they echo so a message keeps its end (the "why")."""

    def __init__(self, message: str) -> None:
        super().__init__(shorten(message, MAX_MESSAGE))


def _from_bounded(exc: BoundedInputError, source: str) -> RecordError:
    """A BoundedInputError about `source` as a RecordError (callers name the file themselves)."""
    text = str(exc)
    return RecordError(text[len(source) + 2:] if text.startswith(source + ": ") else text)


def _show(value: Any, limit: int = 60) -> str:
    """`value` as JSON (ASCII: safe for any terminal), cut to `limit` characters."""
    try:
        text = json.dumps(value, ensure_ascii=True)
    except (TypeError, ValueError):
        return clip(value, limit)
    return text if len(text) <= limit else text[:limit - 3] + "..."


@dataclass
class Record:
    players: int
    first_player: int
    setup: dict[int, str]
    moves: list[Move] = field(default_factory=list)
    colors: list[str] | None = None
    board: str = BOARD_NAME
    extra: dict[str, Any] = field(default_factory=dict)  # unknown keys, kept for round trips
    key_order: list[str] = field(default_factory=list)

    # ----- reading -----------------------------------------------------------------
    @classmethod
    def from_json(cls, text: str, game_id: int | None = None) -> "Record":
        """Parse and check a record's JSON text (bounded: size, depth, integer length); RecordError if bad.
        This is the door of records from outside (`companion run --load`, `companion replay`): its
        `"names"` must pass the names' rule, and are kept as the rule gives them back. A list of
        records (`companion export --format json`) gives its game `game_id` (`one_of`)."""
        try:
            data = load_json(text, _SOURCE)
        except BoundedInputError as exc:
            raise _from_bounded(exc, _SOURCE) from None
        if game_id is not None or (isinstance(data, list) and data and all(isinstance(i, dict) for i in data)):
            data = one_of(data, game_id)  # a list of records: its game `game_id`, or how to pick one
        record = cls.from_dict(data)
        if "names" in record.extra:
            record.extra["names"] = _check_names(record.extra["names"], record.players)
        return record

    @classmethod
    def load(cls, path: str | os.PathLike, game_id: int | None = None) -> "Record":
        """Read and check a record file (with `game_id`, a list's game: `one_of`): RecordError (never
        anything else) if it is not a valid record."""
        try:
            text = read_text(str(path))
        except OSError as exc:
            raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
        except BoundedInputError as exc:
            raise _from_bounded(exc, str(path)) from None
        return cls.from_json(text, game_id)

    @classmethod
    def from_dict(cls, data: Any) -> "Record":
        if not isinstance(data, dict):
            raise RecordError("a record must be a JSON object with board, players, first_player, setup and moves")
        _check_text(data)
        board = data.get("board", BOARD_NAME)
        if board != BOARD_NAME:
            raise RecordError(f"board: {_show(board)} is not a known board (expected {BOARD_NAME!r})")
        players = data.get("players")
        if type(players) is not int or not 2 <= players <= 4:
            raise RecordError(f"players: must be 2, 3 or 4, got {_show(players)}")
        first = data.get("first_player", 0)
        if type(first) is not int or not 0 <= first < players:
            raise RecordError(f"first_player: must be a player index 0..{players - 1}, got {_show(first)}")
        setup = _parse_setup(data.get("setup"))
        colors = _parse_colors(data.get("colors"), players)
        moves = _parse_moves(data.get("moves", []))
        extra = {k: v for k, v in data.items() if k not in KNOWN_KEYS}
        return cls(players, first, setup, moves, colors, board, extra, list(data.keys()))

    # ----- playing -----------------------------------------------------------------
    def new_game(self) -> Game:
        return Game(self.players, self.setup, self.first_player)

    def play(self, upto: int | None = None) -> Game:
        """Play the moves (all, or the first `upto`); RecordError names the first bad move."""
        game = self.new_game()
        for n, move in enumerate(self.moves[:upto], start=1):
            where = f"move {n} ({move.frm}->{move.to})"  # 1-60 each: checked when read
            order = move.order
            if order is not None and game.is_legal(move.frm, move.to):
                # the engine's check, said here so that a long or huge `order` is clipped in the message
                isolated = game.isolated_by(move.frm, move.to)
                if sorted(order) != isolated or len(set(order)) != len(order):
                    raise RecordError(f"{where}: order lists {_listing(order)}, but move {move.frm}->{move.to} "
                                      f"isolates {', '.join(map(str, isolated)) or 'nothing'}: "
                                      f"the order must list exactly those")
            try:
                game.push(move)
            except IllegalMoveError as exc:
                raise RecordError(f"{where}: {exc}") from None
        return game

    # ----- writing -----------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        known: dict[str, Any] = {
            "board": self.board,
            "players": self.players,
            "first_player": self.first_player,
            "setup": {str(t): c for t, c in sorted(self.setup.items())},
            "colors": list(self.colors) if self.colors is not None else None,
            "moves": [move_to_dict(m) for m in self.moves],
        }
        if known["colors"] is None:
            del known["colors"]
        out: dict[str, Any] = {}
        for k in self.key_order:
            if k in known:
                out[k] = known.pop(k)
            elif k in self.extra:
                out[k] = self.extra[k]
        out.update(known)
        out.update({k: v for k, v in self.extra.items() if k not in out})
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False) + "\n"

    def save(self, path: str | os.PathLike) -> None:
        """Write atomically (temp file, fsync, rename) so a power cut never leaves half a record."""
        from companion.util.fsutil import atomic_write_text

        atomic_write_text(path, self.to_json())

    @classmethod
    def from_game(cls, game: Game, colors: list[str] | None = None, extra: dict | None = None) -> "Record":
        return cls(game.players, game.first_player, dict(game.setup), list(game.moves),
                   list(colors) if colors else None, extra=dict(extra or {}))


def move_to_dict(m: Move) -> dict[str, Any]:
    d: dict[str, Any] = {"from": m.frm, "to": m.to}
    if m.order is not None:
        d["order"] = list(m.order)
    return d


def _check_text(data: dict) -> None:
    """Refuse what JSON parses but cannot be written back as a record: NaN and Infinity, and strings
    holding a lone UTF-16 surrogate ("\\ud800"), which no UTF-8 file (nor a terminal) can take."""
    try:
        json.dumps(data, ensure_ascii=False, allow_nan=False).encode("utf-8")
    except ValueError as exc:  # UnicodeEncodeError is a ValueError too
        if isinstance(exc, UnicodeEncodeError):
            raise RecordError(f"a string holds {exc.object[exc.start:exc.end]!r}, a lone surrogate: "
                              f"not text a record can hold") from None
        raise RecordError("NaN and Infinity are not numbers a record can hold") from None


def _game_id(item: Any) -> Any:
    meta = item.get("companion") if isinstance(item, dict) else None
    return meta.get("game_id") if isinstance(meta, dict) else None


def one_of(data: Any, game_id: int | None) -> Any:
    """Game `game_id` of a list of records (`companion export --format json` writes its `companion.game_id`;
    a list without them is counted 1, 2, ...), the only game of a list of one when `game_id` is None, or
    RecordError saying how to pick one or why none fits."""
    if not isinstance(data, list):
        raise RecordError("--game-id picks a game of a list of records (companion export --format json); "
                          "this file holds one record: leave --game-id out")
    if game_id is None and len(data) == 1:  # an export of one game: that game, as its record alone
        item, which = data[0], "the only game of this file"
    else:
        ids = [_game_id(item) for item in data]
        keyed = any(type(i) is int for i in ids)
        numbers = ids if keyed else list(range(1, len(data) + 1))
        known = sorted(n for n in numbers if type(n) is int)
        shown = ", ".join(str(n) for n in known[:12]) + (", ..." if len(known) > 12 else "")
        if game_id is None:
            raise RecordError(f"this file holds {len(data)} games: add --game-id N to replay one "
                              f"(N one of {shown})" if data else "this file holds an empty list, no game record")
        if game_id not in numbers:
            raise RecordError(f"--game-id {game_id}: no game of this file has that id (its games: {shown or 'none'})")
        item, which = data[numbers.index(game_id)], f"--game-id {game_id}: game {game_id}"
    kind = (item.get("companion") or {}).get("game") if isinstance(item, dict) else None
    if isinstance(kind, str) and kind != "clans":
        raise RecordError(f"{which} is a {kind!r} game: replay reads Clans records")
    return item


def _check_names(names: Any, players: int) -> list[str]:
    """A record's `"names"` by the names' rule (companion.table.seatnames.check_names), or a RecordError
    naming the player, the name and why. (Not in `from_dict`: a journal's record, kept before the
    rule, still loads.)"""
    try:
        return check_names(names, players)
    except NameRefused as exc:
        raise RecordError(str(exc)) from None


def _color(color: Any, where: str) -> str:
    """The normalized color, or a RecordError naming `where` (the value clipped)."""
    if type(color) is not str:
        raise RecordError(f"{where}: color must be a string, got {_show(color)}")
    try:
        return normalize_color(color)
    except IllegalMoveError:
        raise RecordError(f"{where}: unknown color {clip(color)}: use one of {', '.join(COLORS)} "
                          f"(white = black)") from None


def _parse_setup(raw: Any) -> dict[int, str]:
    if type(raw) is not dict:
        raise RecordError('setup: must be an object {"1": color, ..., "60": color}')
    setup: dict[int, str] = {}
    for key, color in raw.items():
        if not (type(key) is str and TERRITORY_KEY.fullmatch(key)):
            raise RecordError(f"setup: key {clip(key)} is not a territory number (1-{N_TERRITORIES})")
        setup[int(key)] = _color(color, f"setup: territory {key}")
    try:
        return check_setup(setup)
    except IllegalMoveError as exc:
        raise RecordError(str(exc)) from None


def _parse_colors(raw: Any, players: int) -> list[str] | None:
    if raw is None:
        return None
    if type(raw) is not list or len(raw) != players:
        raise RecordError(f"colors: must list one color per player ({players}), got {_show(raw)}")
    colors = [_color(c, "colors") for c in raw]
    if len(set(colors)) != len(colors):
        raise RecordError(f"colors: each player owns a different color, got {', '.join(colors)}")
    return colors


def _listing(order: tuple[int, ...], most: int = 6) -> str:
    """'14, 20' / 'nothing' / '1, 2, 3, 4, 5, 6, ... (60 in all)': an order's territories, clipped."""
    shown = [clip(t, 12) for t in order[:most]]
    if len(order) > most:
        shown.append(f"... ({len(order)} in all)")
    return ", ".join(shown) or "nothing"


def _territory(value: int) -> bool:
    return 1 <= value <= N_TERRITORIES


def _parse_moves(raw: Any) -> list[Move]:
    if type(raw) is not list:
        raise RecordError("moves: must be a list of {\"from\": n, \"to\": m} objects")
    moves = []
    for n, m in enumerate(raw, start=1):
        if type(m) is not dict or type(m.get("from")) is not int or type(m.get("to")) is not int:
            raise RecordError(f"move {n}: must be an object with integer \"from\" and \"to\", got {_show(m)}")
        frm, to = m["from"], m["to"]
        for t in (frm, to):
            if not _territory(t):  # the engine's own words, with the number clipped
                raise RecordError(f"move {n} ({clip(frm, 12)}->{clip(to, 12)}): {clip(t, 12)} is not a territory: "
                                  f"use 1-{N_TERRITORIES}")
        order = m.get("order")
        if order is not None:
            if type(order) is not list or not all(type(t) is int for t in order):
                raise RecordError(f"move {n}: order must be a list of territory numbers, got {_show(order)}")
            order = tuple(order)
        moves.append(Move(frm, to, order))
    return moves


def summary(game: Game, colors: list[str] | None = None) -> dict[str, Any]:
    """The `companion replay --json` object (spec section 2)."""
    out: dict[str, Any] = {
        "status": game.status,
        "to_move": None if game.is_over else game.to_move,
        "epoch": game.epoch,
        "villages": [v.as_dict() for v in game.villages],
        "scores": {c: game.scores[i] for i, c in enumerate(COLORS)},
        "chips": list(game.chips),
        "huts": {str(t): game.huts(t) for t in game.board.numbers if game.total[t]},
    }
    if colors is not None and game.is_over:
        out["totals"], out["winners"] = game.winners(colors)
    return out
