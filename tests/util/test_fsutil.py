"""companion.util.fsutil: a file is replaced whole or not at all, with the permissions asked for from
its creation on, and a failed write leaves nothing behind."""

from __future__ import annotations

import contextlib
import os
import stat

import pytest

from companion.util import fsutil
from companion.util.fsutil import atomic_write_bytes, atomic_write_text


def only(directory) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


@contextlib.contextmanager
def umask(mask: int):
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def mode_of(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_atomic_write_text_writes_utf8_and_replaces_the_old_file(tmp_path):
    path = tmp_path / "names.txt"
    atomic_write_text(path, "Łukasz\n")
    assert path.read_bytes() == "Łukasz\n".encode("utf-8")
    atomic_write_text(str(path), "Ben")  # a str path too
    assert path.read_text(encoding="utf-8") == "Ben"
    assert only(tmp_path) == ["names.txt"]  # no temp file left


def test_atomic_write_bytes_writes_exactly_the_bytes(tmp_path):
    data = bytes(range(256)) * 10
    atomic_write_bytes(tmp_path / "pic.bin", data)
    assert (tmp_path / "pic.bin").read_bytes() == data and only(tmp_path) == ["pic.bin"]


def test_the_new_file_is_a_new_inode_never_the_old_one_written_over(tmp_path):
    """A reader holding the old file sees all of it: the new one takes the name by rename."""
    path = tmp_path / "state.json"
    path.write_text("old")
    with open(path) as reader:
        before = os.fstat(reader.fileno()).st_ino
        atomic_write_text(path, "new")
        assert reader.read() == "old"
    assert os.stat(path).st_ino != before and path.read_text() == "new"


def test_mode_is_the_files_from_its_creation_whatever_the_umask(tmp_path):
    with umask(0):
        atomic_write_text(tmp_path / "pin", "1234", mode=0o600)
        atomic_write_text(tmp_path / "open", "x")
    assert (mode_of(tmp_path / "pin"), mode_of(tmp_path / "open")) == (0o600, 0o666)  # no mode: umask 0's


def test_mode_is_given_whole_even_where_the_umask_would_take_bits_away(tmp_path):
    with umask(0o077):
        atomic_write_text(tmp_path / "unit", "x", mode=0o644)
        atomic_write_text(tmp_path / "mine", "x")
    assert (mode_of(tmp_path / "unit"), mode_of(tmp_path / "mine")) == (0o644, 0o600)  # no mode: the umask's


def test_a_leftover_temp_file_is_never_reused(tmp_path):
    """A temp file a crash left (another owner, other permissions) is unlinked, not written into."""
    path = tmp_path / "pin"
    leftover = tmp_path / f".pin.tmp{os.getpid()}"
    leftover.write_text("stale")
    os.chmod(leftover, 0o666)
    with open(leftover) as held:
        atomic_write_text(path, "1234", mode=0o600)
        assert os.fstat(held.fileno()).st_nlink == 0  # that file is gone, a new one took the name
        assert os.fstat(held.fileno()).st_ino != os.stat(path).st_ino and held.read() == "stale"
    assert mode_of(path) == 0o600 and path.read_text() == "1234"
    assert only(tmp_path) == ["pin"]


def test_owner_is_given_before_the_file_takes_the_name(tmp_path, monkeypatch):
    seen = []
    monkeypatch.setattr(fsutil.os, "fchown", lambda fd, uid, gid: seen.append((uid, gid, os.fstat(fd).st_size)))
    atomic_write_text(tmp_path / "unit", "text", owner=(123, 456))
    assert seen == [(123, 456, 0)]  # before the text, on the temp file


def test_a_failed_write_leaves_the_old_file_and_no_temp_file(tmp_path, monkeypatch):
    path = tmp_path / "history.csv"
    path.write_text("old")

    def full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(fsutil.os, "fsync", full)
    with pytest.raises(OSError):
        atomic_write_text(path, "new and longer")
    assert path.read_text() == "old" and only(tmp_path) == ["history.csv"]


def test_an_interrupted_write_leaves_no_temp_file_either(tmp_path, monkeypatch):
    monkeypatch.setattr(fsutil.os, "replace", lambda a, b: (_ for _ in ()).throw(KeyboardInterrupt()))
    with pytest.raises(KeyboardInterrupt):
        atomic_write_bytes(tmp_path / "x", b"data")
    assert only(tmp_path) == []


def test_the_directory_is_synced_after_the_rename(tmp_path, monkeypatch):
    synced = []
    real = os.fsync
    monkeypatch.setattr(fsutil.os, "fsync", lambda fd: (synced.append(stat.S_ISDIR(os.fstat(fd).st_mode)),
                                                        real(fd)))
    atomic_write_text(tmp_path / "f", "x")
    assert synced == [False, True]  # the file's data, then its directory's entry


def test_a_missing_directory_is_an_error_and_nothing_is_made(tmp_path):
    with pytest.raises(FileNotFoundError):
        atomic_write_text(tmp_path / "no" / "such" / "file", "x")
    assert only(tmp_path) == []
