"""The adapters' events that are not keys: where the table's page is, the page's roster, a game the
page takes out of the history (all three from the key socket), and noise on the serial keypad's line.

Kept apart from `companion.hw.keysocket` (which re-exports them) so the loop can tell them
from keys without importing the socket adapter: a table without its page, or a headless run,
never loads `socket`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RosterUpdate:
    """The page set the table's roster to `names` (checked again by the daemon before it keeps them)."""

    names: tuple[str, ...]


@dataclass(frozen=True)
class RemoveGame:
    """The page (with the PIN, confirmed) takes finished game `game_id` out of the history: the daemon
    does it through `Journal.remove_game`, as `companion history --remove N` does."""

    game_id: int


@dataclass(frozen=True)
class PhoneUrl:
    """The table's page is at `url` (None: the web service is gone)."""

    url: str | None


@dataclass(frozen=True)
class LineNoise:
    """The serial keypad's line carried bytes that are no key (`count` such bytes so far): the OLED
    says so, and for a few seconds a confirmation the table cannot take back asks again."""

    source: str
    count: int

    def __str__(self) -> str:
        return "noise"  # what `companion doctor --keys` shows for it: "got noise"


@dataclass(frozen=True)
class CameraSaw:
    """The camera above the board saw something the table should know (companion.kiosk.camera):
    `kind` "proposal" (the move `move` was made on the board at ply `ply`: # confirms it),
    "mismatch" (after the move of ply `ply`, the board shows `move` instead) or "moved" (the camera
    moved: the board no longer lies where its corners say; no move), "setup-missing" or "setup-colour"
    (before the first move, `territories` show no hut, or one of another colour than the setup's)."""

    kind: str
    ply: int
    move: tuple[int, int] | None
    territories: tuple[int, ...] = ()


@dataclass(frozen=True)
class CameraCorners:
    """The page (with the PIN) says where the board's corners are in the camera's picture: 8 numbers,
    x1, y1 ... x4, y4 (the daemon checks they make a board, keeps them, and hands them to the camera)."""

    corners: tuple[float, ...]


@dataclass(frozen=True)
class CameraTrouble:
    """The camera above the board cannot be opened or read (`why`, one short line): the OLED says so
    once per cause, and the moves come from the keys until it answers again."""

    why: str


@dataclass(frozen=True)
class UpdateOffer:
    """A USB stick holds an update bundle (companion update offer wrote offer.json): version `version`
    at `bundle`, signed by the trusted key; `problem` says why it cannot be installed ("" when it can)."""

    version: str
    bundle: str
    problem: str = ""


@dataclass(frozen=True)
class UpdateNews:
    """The last update's outcome (status.json, written at this start): `state` installed, refused or
    failed; `reason` a refusal's code (companion.update.status.REASON_TEXT); `version` what runs now."""

    state: str
    reason: str = ""
    version: str = ""
