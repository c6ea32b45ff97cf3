"""Reading files the box does not trust (configs, records, key scripts) in bounded time and memory.

Every failure is a `BoundedInputError` (a ValueError) with one short line that names the
source and what to do, never a traceback: too big, not UTF-8 text, nested too deep, a
number too long, a YAML syntax error (one line, with its position) or a YAML alias
(aliases are refused: a few hundred bytes of them expand to gigabytes, the "billion
laughs"). Values echoed in messages go through `clip`.
"""

from __future__ import annotations

import functools
import json
import os
import stat
from typing import Any


MAX_BYTES = 1 << 20  # a record of a whole game is a few KB; a config, a few hundred bytes
MAX_DEPTH = 32
CLIP = 60


class BoundedInputError(ValueError):
    """A file the box cannot take, said in one line."""


def clip(value: Any, limit: int = CLIP) -> str:
    """repr(value), cut to `limit` characters so a huge value never floods a message or a log."""
    try:
        text = repr(value)
    except ValueError:  # an int too long for repr
        return "<a number too long>"
    return text if len(text) <= limit else text[:limit - 3] + "..."


def shorten(text: str, limit: int = 80) -> str:
    """`text` on one line, cut to `limit` characters."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def read_text(path: str, max_bytes: int = MAX_BYTES) -> str:
    """The UTF-8 text of file `path`, at most `max_bytes` long; OSError when it cannot be read."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO must not block the box
    with open(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            raise BoundedInputError(f"{path}: not a regular file")
        data = f.read(max_bytes + 1)
    return decode(data, path, max_bytes)


def decode(data: bytes, source: str, max_bytes: int = MAX_BYTES) -> str:
    if len(data) > max_bytes:
        raise BoundedInputError(f"{source}: larger than {max_bytes // 1024} KB: not a file the companion writes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BoundedInputError(f"{source}: not UTF-8 text (byte {exc.start}): save it as UTF-8") from None


def _depth(value: Any, limit: int = MAX_DEPTH) -> int:
    """How deeply `value` nests lists and dicts (iterative: no recursion limit to hit)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (list, dict)):
            deepest = max(deepest, d)
            if deepest > limit:
                return deepest
            stack.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))
    return deepest


def _check_depth(value: Any, source: str) -> Any:
    if _depth(value) > MAX_DEPTH:
        raise BoundedInputError(f"{source}: nested more than {MAX_DEPTH} levels deep")
    return value


def load_json(text: str, source: str) -> Any:
    """Parse JSON `text` (BoundedInputError in one line if it is not JSON the box can take)."""
    if len(text) > MAX_BYTES:
        raise BoundedInputError(f"{source}: larger than {MAX_BYTES // 1024} KB")
    try:
        value = json.loads(text)
    except RecursionError:
        raise BoundedInputError(f"{source}: nested too deep") from None
    except json.JSONDecodeError as exc:
        raise BoundedInputError(f"{source}: not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") \
            from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise BoundedInputError(f"{source}: not valid JSON: {shorten(str(exc))}") from None
    return _check_depth(value, source)


@functools.lru_cache(maxsize=1)
def _no_alias_loader() -> type:
    """PyYAML's safe loader, refusing anchors' aliases (see the module docstring). Made on first
    use: yaml is imported only when a YAML file is read (a config or a board file), so a start
    without one does not pay for it."""
    import yaml

    class _NoAliasLoader(yaml.SafeLoader):
        def compose_node(self, parent: Any, index: Any) -> Any:
            if self.check_event(yaml.AliasEvent):
                mark = self.peek_event().start_mark
                raise yaml.MarkedYAMLError(problem="aliases (*name) are not allowed", problem_mark=mark)
            return super().compose_node(parent, index)

    return _NoAliasLoader


def load_yaml(text: str, source: str) -> Any:
    """Parse YAML `text` safely: no aliases, no deep nesting, errors in one line."""
    if len(text) > MAX_BYTES:
        raise BoundedInputError(f"{source}: larger than {MAX_BYTES // 1024} KB")
    import yaml  # lazy: see _no_alias_loader

    try:
        value = yaml.load(text, Loader=_no_alias_loader())  # noqa: S506 - a SafeLoader subclass
    except RecursionError:
        raise BoundedInputError(f"{source}: nested too deep") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f" at line {mark.line + 1} column {mark.column + 1}" if mark is not None else ""
        raise BoundedInputError(f"{source}: not valid YAML: {shorten(exc.problem or exc.context or 'syntax error')}"
                                f"{where}") from None
    except (yaml.YAMLError, ValueError) as exc:  # ValueError: an integer too long to convert
        raise BoundedInputError(f"{source}: not valid YAML: {shorten(str(exc))}") from None
    return _check_depth(value, source)
