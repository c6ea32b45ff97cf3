"""Checks of one settings file's values, each saying in the reader's language what is wrong.

A check is `check(ctx, path, value) -> value`: it returns the value (perhaps normalised) or
raises `ConfigError` through `ctx.fail`, whose message names the file and the key path, e.g.
``config.yaml: buttons.up: 99 is not a BCM pin (0-27)``. `section(ctx, path, raw, cls, checks)`
builds a settings dataclass from a mapping, one check per key. The checks here know no
adapter: the hardware's own (pins, devices, drivers) live beside the adapters in
`companion.hw.settings_checks`, the box's sections in `companion.box.config`.
"""

from __future__ import annotations

import os
import re
from dataclasses import MISSING, fields
from typing import Any, Callable

from companion.i18n import N_, _
from companion.util.bounded import clip, shorten

# Directories the config may never point frames_dir or state_dir into
# (the paths themselves and everything under them).
FORBIDDEN_DIRS = ("/proc", "/sys", "/dev", "/boot", "/etc", "/usr", "/bin", "/sbin",
                  "/lib", "/lib32", "/lib64", "/libx32", "/run/systemd", "/run/dbus",
                  "/var/lib/dpkg", "/var/lib/apt", "/var/lib/systemd", "/var/log",
                  "/var/cache", "/var/spool", "/var/mail")
MAX_PATH_CHARS = 1024
# What a device's name (a path under /dev, an ALSA name) may contain.
DEVICE_CHARS = re.compile(r"[A-Za-z0-9._:+@=,/-]+")


class ConfigError(ValueError):
    """A config file that cannot be used; the message names the key path."""


class Ctx:
    """Where a value came from, for error messages."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, path: str, msg: str) -> ConfigError:
        return ConfigError(f"{self.source}: {shorten(path, 32)}: {msg}")


Check = Callable[[Ctx, str, Any], Any]  # check(ctx, key path, value) -> the value, or raises ConfigError


def is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def int_range(lo: int, hi: int, sentence: str = N_("{value} is not an integer ({lo}-{hi})")
               ) -> Callable[[Ctx, str, Any], int]:
    """A check of an integer in lo..hi; `sentence` (marked with N_) says what it is not."""
    def check(ctx: Ctx, path: str, v: Any) -> int:
        if not is_int(v) or not lo <= v <= hi:
            raise ctx.fail(path, _(sentence).format(value=clip(v), lo=lo, hi=hi))
        return v
    return check


def opt(check: Check) -> Check:
    def opt(ctx: Ctx, path: str, v: Any) -> Any:
        return None if v is None else check(ctx, path, v)
    return opt


def seconds(lo: float, hi: float) -> Callable[[Ctx, str, Any], float]:
    def check(ctx: Ctx, path: str, v: Any) -> float:
        if not is_num(v) or not lo <= v <= hi:
            raise ctx.fail(path, _("{value} is not a number of seconds ({lo}-{hi})").format(
                value=clip(v), lo=lo, hi=hi))
        return v
    return check


def boolean(ctx: Ctx, path: str, v: Any) -> bool:
    if not isinstance(v, bool):
        raise ctx.fail(path, _("{value} is not true or false").format(value=clip(v)))
    return v


def choice(choices: tuple | Callable[[], tuple]) -> Check:
    """A check that `v` is one of `choices` (or of what `choices()` says when the check runs)."""
    def check(ctx: Ctx, path: str, v: Any) -> Any:
        options = choices() if callable(choices) else choices
        # bool is an int in Python: `true` must not pass for a baud rate of 1.
        if isinstance(v, bool) or v not in options:
            raise ctx.fail(path, _("{value} is not one of {options}").format(
                value=clip(v), options=", ".join(map(str, options))))
        return v
    return check


def text(ctx: Ctx, path: str, v: Any) -> str:
    if not isinstance(v, str) or not v.strip():
        raise ctx.fail(path, _("{value} is not a non-empty string").format(value=clip(v)))
    return v


def no_control_chars(ctx: Ctx, path: str, v: str) -> None:
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in v):
        raise ctx.fail(path, _("{value} contains a control character").format(value=clip(v, 40)))
    if len(v) > MAX_PATH_CHARS:
        raise ctx.fail(path, _("is longer than {n} characters").format(n=MAX_PATH_CHARS))


def is_under(path: str, top: str) -> bool:
    return path == top or path.startswith(top.rstrip("/") + "/")


def normal_absolute(ctx: Ctx, path: str, v: str) -> None:
    """An absolute path written plainly: no '.' or '..' part, no '//', no trailing '/'."""
    if not v.startswith("/"):
        raise ctx.fail(path, _("{value} is not an absolute path (start it with /)").format(value=clip(v, 40)))
    parts = v.split("/")[1:]
    if any(p in (".", "..") for p in parts):
        raise ctx.fail(path, _("{value} contains '.' or '..': write the path without them").format(
            value=clip(v, 40)))
    if v != "/" and any(p == "" for p in parts):
        raise ctx.fail(path, _("{value} contains '//' or ends with '/': write it plainly").format(value=clip(v, 40)))


def data_dir(ctx: Ctx, path: str, v: Any) -> str:
    """A directory the daemon writes into: absolute, plain, and outside the system's own trees."""
    v = text(ctx, path, v)
    no_control_chars(ctx, path, v)
    normal_absolute(ctx, path, v)
    # Also where it leads today: a symlink must not smuggle it into /etc.
    for candidate in (v, os.path.realpath(v)):
        if candidate == "/":
            raise ctx.fail(path, _("{value} is the root directory: use a directory of its own, "
                                   "e.g. {example}").format(value=clip(v, 40), example="/var/lib/companion"))
        for top in FORBIDDEN_DIRS:
            if is_under(candidate, top):
                if candidate == v:
                    raise ctx.fail(path, _("{value} is under {top}: use a directory of its own, "
                                           "e.g. {example}").format(value=clip(v, 40), top=top,
                                                                    example="/var/lib/companion"))
                raise ctx.fail(path, _("{value} is under {top} (it leads to {target}): use a directory of "
                                       "its own, e.g. {example}").format(
                    value=clip(v, 40), top=top, target=clip(candidate, 40), example="/var/lib/companion"))
    return v


def file_path(ctx: Ctx, path: str, v: Any) -> str:
    """A file the program reads or a socket it opens: an absolute, plain path."""
    v = text(ctx, path, v)
    no_control_chars(ctx, path, v)
    normal_absolute(ctx, path, v)
    return v


def enabled(ctx: Ctx, path: str, v: Any) -> bool | str:
    if v is True or v is False or v == "auto":
        return v
    raise ctx.fail(path, _("{value} is not auto, true or false").format(value=clip(v)))


def section(ctx: Ctx, path: str, raw: Any, cls: type,
             checks: dict[str, Check]) -> Any:
    """Build dataclass `cls` from mapping `raw`, checking each key."""
    if not isinstance(raw, dict):
        raise ctx.fail(path, _("expected a mapping of keys, got {value}").format(value=clip(raw)))
    names = {f.name for f in fields(cls)}
    kwargs = {}
    for key, value in raw.items():
        if key not in names:
            raise ctx.fail(f"{path}.{key}", _("unknown key (known: {keys})").format(keys=", ".join(sorted(names))))
        kwargs[key] = checks[key](ctx, f"{path}.{key}", value)
    required = [f.name for f in fields(cls)
                if f.default is MISSING and f.default_factory is MISSING and f.name not in kwargs]
    if required:
        raise ctx.fail(f"{path}.{required[0]}", _("is required"))
    return cls(**kwargs)

