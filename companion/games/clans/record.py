"""Game records (spec section 1): load, validate, play, summarise and save.

A record is the exchange format of a game: setup, players, moves and (after the
reveal) each player's color. Unknown top-level keys are kept, so a record loads
and saves unchanged. Every problem is a RecordError naming the move number
(1-based) or the field, and why.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.games.clans.board import COLORS
from companion.games.clans.game import Game, IllegalMoveError, Move, check_setup, normalize_color

BOARD_NAME = "clans-2002"
KNOWN_KEYS = ("board", "players", "first_player", "setup", "colors", "moves")


class RecordError(ValueError):
    """A record that is not valid; the message is one line: where, and why."""


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
    def from_json(cls, text: str) -> "Record":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: str | Path) -> "Record":
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise RecordError(f"{path} is not UTF-8 text") from None
        return cls.from_json(text)

    @classmethod
    def from_dict(cls, data: Any) -> "Record":
        if not isinstance(data, dict):
            raise RecordError("a record must be a JSON object with board, players, first_player, setup and moves")
        board = data.get("board", BOARD_NAME)
        if board != BOARD_NAME:
            raise RecordError(f"board: {board!r} is not a known board (expected {BOARD_NAME!r})")
        players = data.get("players")
        if type(players) is not int or not 2 <= players <= 4:
            raise RecordError(f"players: must be 2, 3 or 4, got {players!r}")
        first = data.get("first_player", 0)
        if type(first) is not int or not 0 <= first < players:
            raise RecordError(f"first_player: must be a player index 0..{players - 1}, got {first!r}")
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
            try:
                game.push(move)
            except IllegalMoveError as exc:
                raise RecordError(f"move {n} ({move.frm}->{move.to}): {exc}") from None
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

    def save(self, path: str | Path) -> None:
        """Write atomically (temp file, fsync, rename) so a power cut never leaves half a record."""
        from companion.table.fsutil import atomic_write_text

        atomic_write_text(Path(path), self.to_json())

    @classmethod
    def from_game(cls, game: Game, colors: list[str] | None = None, extra: dict | None = None) -> "Record":
        return cls(game.players, game.first_player, dict(game.setup), list(game.moves),
                   list(colors) if colors else None, extra=dict(extra or {}))


def move_to_dict(m: Move) -> dict[str, Any]:
    d: dict[str, Any] = {"from": m.frm, "to": m.to}
    if m.order is not None:
        d["order"] = list(m.order)
    return d


def _parse_setup(raw: Any) -> dict[int, str]:
    if not isinstance(raw, dict):
        raise RecordError('setup: must be an object {"1": color, ..., "60": color}')
    setup: dict[int, str] = {}
    for key, color in raw.items():
        if not (isinstance(key, str) and key.isdigit()):
            raise RecordError(f"setup: key {key!r} is not a territory number")
        if not isinstance(color, str):
            raise RecordError(f"setup: territory {key}: color must be a string, got {color!r}")
        setup[int(key)] = color
    try:
        return check_setup(setup)
    except IllegalMoveError as exc:
        raise RecordError(str(exc)) from None


def _parse_colors(raw: Any, players: int) -> list[str] | None:
    if raw is None:
        return None
    if not isinstance(raw, list) or len(raw) != players:
        raise RecordError(f"colors: must list one color per player ({players}), got {raw!r}")
    try:
        colors = [normalize_color(c) if isinstance(c, str) else normalize_color(repr(c)) for c in raw]
    except IllegalMoveError as exc:
        raise RecordError(f"colors: {exc}") from None
    if len(set(colors)) != len(colors):
        raise RecordError(f"colors: each player owns a different color, got {', '.join(colors)}")
    return colors


def _parse_moves(raw: Any) -> list[Move]:
    if not isinstance(raw, list):
        raise RecordError("moves: must be a list of {\"from\": n, \"to\": m} objects")
    moves = []
    for n, m in enumerate(raw, start=1):
        if not isinstance(m, dict) or type(m.get("from")) is not int or type(m.get("to")) is not int:
            raise RecordError(f"move {n}: must be an object with integer \"from\" and \"to\", got {json.dumps(m)}")
        order = m.get("order")
        if order is not None:
            if not isinstance(order, list) or not all(type(t) is int for t in order):
                raise RecordError(f"move {n}: order must be a list of territory numbers, got {json.dumps(order)}")
            order = tuple(order)
        moves.append(Move(m["from"], m["to"], order))
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
