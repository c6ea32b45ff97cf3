"""Small filesystem helpers for durable writes (a kiosk loses power without warning)."""

from __future__ import annotations

import os
from pathlib import Path


def atomic_write_text(path: str | Path, text: str, mode: int | None = None,
                      owner: tuple[int, int] | None = None) -> None:
    """Write text to path so that a reader sees the old file or the new one, never half of it.
    `mode`: the new file's permissions from its creation on (a secret: 0o600), else the umask's;
    `owner`: (uid, gid) given to the file before it takes the name (root writing for a service).

    On any failure the temp file is removed and the error re-raised: nothing is left behind."""
    atomic_write_bytes(path, text.encode("utf-8"), mode, owner)


def atomic_write_bytes(path: str | Path, data: bytes, mode: int | None = None,
                       owner: tuple[int, int] | None = None) -> None:
    """`atomic_write_text` for bytes (a picture)."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    try:
        if mode is not None:
            try:
                os.unlink(tmp)  # a leftover would keep its own permissions
            except FileNotFoundError:
                pass
        opener = None if mode is None else (lambda p, flags: os.open(p, flags, mode))
        with open(tmp, "wb", opener=opener) as fh:
            if mode is not None:
                os.fchmod(fh.fileno(), mode)  # whatever the umask let through
            if owner is not None:
                os.fchown(fh.fileno(), *owner)
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:  # a full disk or a pulled stick must not leave a half temp file behind
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:
        dir_fd = os.open(path.parent or ".", os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)
