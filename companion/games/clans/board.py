"""The Clans board: territories, terrain, regions, adjacency and the epoch chart.

Loaded from package data and validated on load, so a broken board file is refused with a
message naming the territory and the problem instead of producing wrong scores later.
`clans.yaml` is the board's source; the shipped board is read from `clans.json`, its copy
written by `write_json_copy` (python -m companion.games.clans.board; a test keeps the two
equal), because the standard library's json is already loaded at start and yaml is not:
yaml is imported only for a user's board file (`load_board_file`). Territory sets elsewhere are int bitmasks
with bit t for territory t; this module precomputes the neighbor masks.
"""

from __future__ import annotations

import dataclasses
import importlib.resources
import json
import os
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

COLORS: tuple[str, ...] = ("red", "blue", "green", "yellow", "black")
COLOR_ALIASES: dict[str, str] = {"white": "black"}
TERRAINS: tuple[str, ...] = ("forest", "mountain", "steppe", "grassland")
N_TERRITORIES = 60
N_REGIONS = 12
REGION_SIZE = 5
N_CHIPS = 12


class BoardError(ValueError):
    """The board file is malformed; the message names the territory and the problem."""


@dataclass(frozen=True)
class Territory:
    number: int
    terrain: str
    region: int
    xy: tuple[int, int]
    neighbors: tuple[int, ...]
    # its polygon in the xy frame (the camera's masks); () on a board file without outlines
    outline: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class Epoch:
    number: int
    chips: int
    favorable: str  # a terrain, or "all"
    hostile: str  # a terrain, or "none"
    bonus: int


@dataclass(frozen=True)
class Board:
    name: str
    territories: dict[int, Territory]
    epochs: tuple[Epoch, ...]
    last_village_bonus: int

    @property
    def numbers(self) -> range:
        return range(1, N_TERRITORIES + 1)

    def region_members(self, region: int) -> list[int]:
        return sorted(t.number for t in self.territories.values() if t.region == region)

    def neighbor_masks(self) -> list[int]:
        """masks[t] has bit n set for every neighbor n of t (index 0 unused)."""
        masks = [0] * (N_TERRITORIES + 1)
        for t in self.territories.values():
            for n in t.neighbors:
                masks[t.number] |= 1 << n
        return masks

    def chip_epochs(self) -> list[int]:
        """Epoch number of the village founded with chip i (0-based), for i in 0..11."""
        out: list[int] = []
        for e in self.epochs:
            out += [e.number] * e.chips
        return out

    def epoch(self, number: int) -> Epoch:
        return self.epochs[number - 1]


def _fail(where: str, problem: str) -> BoardError:
    return BoardError(f"board file: {where}: {problem}")


def parse_board(data: object) -> Board:
    """Build and validate a Board from the parsed YAML mapping."""
    if not isinstance(data, dict):
        raise _fail("top level", "expected a mapping with name, epochs and territories")
    raw_terr = data.get("territories")
    if not isinstance(raw_terr, dict):
        raise _fail("territories", "missing or not a mapping of number -> territory")
    territories: dict[int, Territory] = {}
    for key, spec in raw_terr.items():
        if not isinstance(key, int) or not 1 <= key <= N_TERRITORIES:
            raise _fail(f"territory {key!r}", f"numbers must be 1..{N_TERRITORIES}")
        if not isinstance(spec, dict):
            raise _fail(f"territory {key}", "expected a mapping with terrain, region, xy, neighbors")
        terrain = spec.get("terrain")
        if terrain not in TERRAINS:
            raise _fail(f"territory {key}", f"unknown terrain {terrain!r} (known: {', '.join(TERRAINS)})")
        region = spec.get("region")
        expected_region = (key - 1) // REGION_SIZE + 1
        if region != expected_region:
            raise _fail(f"territory {key}", f"region is {region!r}, expected {expected_region}")
        xy = spec.get("xy")
        if not (isinstance(xy, list) and len(xy) == 2 and all(isinstance(v, int) for v in xy)):
            raise _fail(f"territory {key}", f"xy must be two integers, got {xy!r}")
        nbrs = spec.get("neighbors")
        if not isinstance(nbrs, list) or not nbrs:
            raise _fail(f"territory {key}", "neighbors must be a non-empty list")
        for n in nbrs:
            if not isinstance(n, int) or not 1 <= n <= N_TERRITORIES:
                raise _fail(f"territory {key}", f"neighbor {n!r} is not a territory number 1..{N_TERRITORIES}")
            if n == key:
                raise _fail(f"territory {key}", "lists itself as a neighbor")
        if len(set(nbrs)) != len(nbrs):
            raise _fail(f"territory {key}", "lists a neighbor twice")
        territories[key] = Territory(key, terrain, region, (xy[0], xy[1]), tuple(sorted(nbrs)))
    missing = sorted(set(range(1, N_TERRITORIES + 1)) - set(territories))
    if missing:
        raise _fail(f"territory {missing[0]}", f"missing ({len(missing)} of {N_TERRITORIES} territories absent)")
    for t in territories.values():
        for n in t.neighbors:
            if t.number not in territories[n].neighbors:
                raise _fail(f"territory {t.number}", f"lists {n} as a neighbor but {n} does not list {t.number}")
    for number, polygon in _parse_outlines(data.get("outlines")).items():
        territories[number] = dataclasses.replace(territories[number], outline=polygon)
    epochs = _parse_epochs(data.get("epochs"))
    bonus = data.get("last_village_bonus", 5)
    if not isinstance(bonus, int) or bonus < 0:
        raise _fail("last_village_bonus", f"must be a non-negative integer, got {bonus!r}")
    name = str(data.get("name", "clans-2002"))
    return Board(name, territories, epochs, bonus)


def _parse_outlines(raw: object) -> dict[int, tuple[tuple[int, int], ...]]:
    """The optional `outlines:` block: territory -> polygon of 3 or more [x, y] in the 1200 x 800 frame."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise _fail("outlines", "expected a mapping of territory number -> polygon")
    out = {}
    for key, poly in raw.items():
        key = int(key) if isinstance(key, str) and key.isdigit() else key
        if not isinstance(key, int) or not 1 <= key <= N_TERRITORIES:
            raise _fail(f"outline {key!r}", f"numbers must be 1..{N_TERRITORIES}")
        if not (isinstance(poly, list) and len(poly) >= 3 and all(
                isinstance(p, list) and len(p) == 2 and all(isinstance(v, int) and 0 <= v <= 1200 for v in p)
                for p in poly)):
            raise _fail(f"outline {key}", "must be a list of 3 or more [x, y] points in 0..1200")
        out[key] = tuple((p[0], p[1]) for p in poly)
    return out


def _parse_epochs(raw: object) -> tuple[Epoch, ...]:
    if not isinstance(raw, list) or not raw:
        raise _fail("epochs", "missing or not a list")
    epochs = []
    for i, e in enumerate(raw, start=1):
        if not isinstance(e, dict):
            raise _fail(f"epoch {i}", "expected a mapping")
        if e.get("epoch") != i:
            raise _fail(f"epoch {i}", f"epochs must be numbered 1.. in order, got {e.get('epoch')!r}")
        chips, bonus = e.get("chips"), e.get("bonus")
        if not isinstance(chips, int) or chips < 1:
            raise _fail(f"epoch {i}", f"chips must be a positive integer, got {chips!r}")
        if not isinstance(bonus, int) or bonus < 0:
            raise _fail(f"epoch {i}", f"bonus must be a non-negative integer, got {bonus!r}")
        fav, hos = e.get("favorable"), e.get("hostile")
        if fav not in TERRAINS + ("all",):
            raise _fail(f"epoch {i}", f"unknown favorable terrain {fav!r}")
        if hos not in TERRAINS + ("none",):
            raise _fail(f"epoch {i}", f"unknown hostile terrain {hos!r}")
        epochs.append(Epoch(i, chips, fav, hos, bonus))
    total = sum(e.chips for e in epochs)
    if total != N_CHIPS:
        raise _fail("epochs", f"the chart must hold {N_CHIPS} chips in all, it holds {total}")
    return tuple(epochs)


def _yaml_data(path: str | Path) -> object:
    """A board file's YAML, parsed with the bounded reader (a regular file of at most 1 MB, UTF-8, no
    aliases, nested at most 32 deep): BoardError in one line ("board file: not valid YAML: ... at line 4
    column 54") if it is not; OSError if it cannot be opened. yaml is imported only here: for a board
    file given by name, or the JSON copy's writer."""
    from companion.util.bounded import BoundedInputError, load_yaml, read_text

    try:
        return load_yaml(read_text(str(path)), "board file")
    except BoundedInputError as exc:
        message = str(exc).removeprefix(f"{path}: ").removeprefix("board file: ")  # read_text names the path
        raise BoardError(f"board file: {message}") from None


def load_board_file(path: str | Path) -> Board:
    """A board from a YAML file (a user's board; the shipped one is `load_board`): BoardError in one line,
    starting "board file: ", for any file that is not a board (text, binary, YAML of another shape)."""
    return parse_board(_yaml_data(path))


HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_YAML = os.path.join(HERE, "clans.yaml")
# The shipped board, as Clans's GameType declares it (about.py: board=BOARD_FILE), and the file it is.
BOARD_FILE = "companion.games.clans:clans.json"
SHIPPED_JSON = os.path.join(HERE, BOARD_FILE.partition(":")[2])


def json_copy_text(yaml_path: str | Path = SOURCE_YAML) -> str:
    """The JSON copy of a YAML board file, as `clans.json` holds it (territory numbers as keys)."""
    data = _yaml_data(yaml_path)
    territories = data.pop("territories", {}) if isinstance(data, dict) else {}
    outlines = data.pop("outlines", None) if isinstance(data, dict) else None
    head = json.dumps(data)[:-1]  # one line for the chart, one line a territory (readable diffs)

    def rows(block: dict, separators: tuple[str, str] = (", ", ": ")) -> str:
        return ",\n".join(f" {json.dumps(str(k))}: {json.dumps(v, separators=separators)}" for k, v in block.items())

    tail = f', "outlines": {{\n{rows(outlines, (",", ":"))}\n}}' if outlines else ""
    return f'{head}, "territories": {{\n{rows(territories)}\n}}{tail}}}\n'


def write_json_copy() -> None:
    """Rewrite `clans.json` from `clans.yaml` (after editing the board's source)."""
    with open(SHIPPED_JSON, "w", encoding="utf-8") as fh:
        fh.write(json_copy_text())


@lru_cache(maxsize=1)
def load_board() -> Board:
    """The shipped Clans board (its GameType's `board`, the JSON copy), validated once per process."""
    package, _, name = BOARD_FILE.partition(":")
    data = json.loads(importlib.resources.files(package).joinpath(name).read_text(encoding="utf-8"))
    if isinstance(data, dict) and isinstance(data.get("territories"), dict):  # JSON keys are strings
        data["territories"] = {int(k) if k.isdigit() else k: v for k, v in data["territories"].items()}
    return parse_board(data)


if __name__ == "__main__":
    write_json_copy()
