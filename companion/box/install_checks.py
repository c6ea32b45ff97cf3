"""The checks and the file writing behind `companion install-service`.

Each check raises `InstallError` with one line that says what is wrong and
what to do. They guard against what a hostile tester found (issue 11):

- `unit_path_value`: a path that goes into the unit's ExecStart= must not
  carry systemd syntax (quotes, `$` expansion, backslash escapes, spaces),
  nor '.' / '..' parts; '%' is written '%%'.
- `check_account`: an existing `companion` account is reused only if it is
  a locked system account (uid 1..SYS_UID_MAX, no login shell, no password)
  in no group beyond the hardware ones (systemd applies the account's groups).
- `check_venv`: the venv, everything in it, the directories above it and
  its Python must be writable by root only: whoever can write there runs
  code as the service (which may power the machine off).
- `write_file`: atomic and symlink-proof: a fresh temp file (O_EXCL |
  O_NOFOLLOW, random name) in the target directory, explicit modes whatever
  the umask, fsync, rename, fsync of the directory; a replaced file is kept
  as NAME.bak-TIMESTAMP.
"""

from __future__ import annotations

import grp
import os
import pwd
import re
import secrets
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable


class InstallError(Exception):
    """Installation cannot proceed; the message tells the user what to do."""


# --- paths in the unit --------------------------------------------------------

# What a path in ExecStart= may contain. systemd would read quotes (" '),
# backslash escapes, $VAR / ${VAR} expansion, ';' and whitespace; '%' starts a
# specifier and is escaped as '%%'. Anything else is refused, not escaped.
_UNIT_PATH_CHARS = re.compile(r"[A-Za-z0-9._/+@%,:=-]+")


def unit_path_value(path: str | Path, what: str) -> str:
    """`path` as written in the unit, or InstallError naming what to change."""
    text = str(path)
    if not text.startswith("/"):
        raise InstallError(f"{what} {text!r} must be an absolute path")
    bad = sorted({ch for ch in text if not _UNIT_PATH_CHARS.fullmatch(ch)})
    if bad:
        shown = " ".join(repr(ch) for ch in bad[:5])
        raise InstallError(f"{what} {text!r} contains {shown}, which systemd would interpret "
                           "(quotes, $, \\, spaces): use a path of letters, digits and . _ - + / only")
    parts = text.split("/")[1:]
    if any(p in (".", "..") for p in parts):
        raise InstallError(f"{what} {text!r} contains '.' or '..': give the plain path "
                           f"(e.g. {os.path.normpath(text)})")
    if any(p == "" for p in parts) and text != "/":
        raise InstallError(f"{what} {text!r} contains '//' or ends with '/': give the plain path")
    return text.replace("%", "%%")


# --- the service account ------------------------------------------------------

NOLOGIN_SHELLS = ("/usr/sbin/nologin", "/sbin/nologin", "/bin/false", "/usr/bin/false")
# Groups the account may be in beyond its own: the unit adds these anyway.
HARDWARE_GROUPS = ("gpio", "i2c", "dialout", "input", "audio", "video", "spi")


def sys_uid_max(login_defs: str | Path = "/etc/login.defs") -> int:
    """SYS_UID_MAX from login.defs (999 when unset, as useradd assumes)."""
    try:
        text = Path(login_defs).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return 999
    for line in text.splitlines():
        fields = line.split()
        if len(fields) >= 2 and fields[0] == "SYS_UID_MAX" and fields[1].isdigit():
            return int(fields[1])
    return 999


def shadow_password(name: str, shadow: str | Path = "/etc/shadow") -> str | None:
    """The password field of `name` in /etc/shadow, None when there is no entry.

    Read directly: the spwd module is gone from Python 3.13."""
    try:
        with open(shadow, encoding="utf-8", errors="replace") as f:
            for line in f:
                fields = line.rstrip("\n").split(":")
                if len(fields) >= 2 and fields[0] == name:
                    return fields[1]
    except PermissionError:
        raise InstallError(f"cannot read {shadow} to check that {name!r} has no password: "
                           "run as root") from None
    except FileNotFoundError:
        return None
    return None


def _is_locked(password: str | None) -> bool:
    # '!' / '*' prefixes (usermod -L, useradd --system) and '' never validate.
    # An empty field means "no password needed" to some PAM setups: refused.
    return password is not None and password[:1] in ("!", "*")


@dataclass
class Accounts:
    """The account database, injectable for tests."""

    getpwnam: Callable[[str], pwd.struct_passwd] = pwd.getpwnam
    getgrnam: Callable[[str], grp.struct_group] = grp.getgrnam
    getgrall: Callable[[], list] = grp.getgrall
    getgrgid: Callable[[int], grp.struct_group] = grp.getgrgid
    shadow_password: Callable[[str], str | None] = shadow_password
    sys_uid_max: Callable[[], int] = sys_uid_max


def default_accounts() -> Accounts:
    """The machine's own account database (tests replace this function)."""
    return Accounts()


def check_account(name: str, accounts: Accounts | None = None) -> bool:
    """False when `name` does not exist; True when it is a safe service account.

    Raises InstallError for an existing account the service must not run as."""
    acc = accounts or default_accounts()
    try:
        pw = acc.getpwnam(name)
    except KeyError:
        return False
    fix = (f"fix it (sudo usermod -L -s /usr/sbin/nologin {name}) or, if it is someone's "
           f"account, pick another setup; then re-run install-service")
    limit = acc.sys_uid_max()
    if not 0 < pw.pw_uid <= limit:
        raise InstallError(f"user {name!r} exists with uid {pw.pw_uid}, not a system account "
                           f"(1-{limit}): remove it (sudo userdel {name}) and re-run install-service, "
                           "which creates a system user")
    if pw.pw_shell not in NOLOGIN_SHELLS:
        raise InstallError(f"user {name!r} exists with the login shell {pw.pw_shell!r}: {fix}")
    password = pw.pw_passwd
    if password in ("x", "*", "!", "!*", "*!"):
        password = acc.shadow_password(name) if password == "x" else password
    if not _is_locked(password):
        raise InstallError(f"user {name!r} exists with a password that is not locked: {fix}")
    try:
        own_group = acc.getgrgid(pw.pw_gid).gr_name
    except KeyError:
        own_group = None
    if own_group not in (name, *HARDWARE_GROUPS):
        raise InstallError(f"user {name!r} has the primary group {own_group or pw.pw_gid!r}, not "
                           f"{name!r}: sudo usermod -g {name} {name} (groupadd --system {name} first)")
    extra = sorted(g.gr_name for g in acc.getgrall()
                   if name in g.gr_mem and g.gr_name not in (name, *HARDWARE_GROUPS))
    if extra:
        groups = ", ".join(extra[:5])
        raise InstallError(f"user {name!r} is in the groups {groups}, which the service would get "
                           f"too: sudo gpasswd -d {name} GROUP for each, then re-run install-service")
    return True


# --- the venv -------------------------------------------------------------------

TRUSTED_UIDS: tuple[int, ...] = (0,)
MAX_VENV_ENTRIES = 200_000


def _owner(uid: int) -> str:
    try:
        return f"uid {uid} ({pwd.getpwuid(uid).pw_name})"
    except KeyError:
        return f"uid {uid}"


def _unsafe(st: os.stat_result, trusted: Iterable[int], *, ancestor: bool) -> str | None:
    """Why a file with this stat may be changed by someone untrusted, or None."""
    if st.st_uid not in trusted:
        return f"is owned by {_owner(st.st_uid)}"
    if stat.S_ISLNK(st.st_mode):
        return None  # a symlink's own mode means nothing; its target is checked
    if st.st_mode & stat.S_IWOTH:
        # /tmp-style: world-writable but sticky and root-owned is safe for what is below it.
        if ancestor and stat.S_ISDIR(st.st_mode) and st.st_mode & stat.S_ISVTX:
            return None
        return "is writable by everyone"
    if st.st_mode & stat.S_IWGRP and st.st_gid != 0:
        try:
            group = grp.getgrgid(st.st_gid).gr_name
        except KeyError:
            group = str(st.st_gid)
        return f"is writable by the group {group}"
    return None


def _check_ancestors(path: Path, trusted: tuple[int, ...]) -> None:
    for parent in reversed(path.parents):
        try:
            st = os.stat(parent)
        except OSError as exc:
            raise InstallError(f"cannot check {parent}: {exc.strerror or exc}") from None
        why = _unsafe(st, trusted, ancestor=True)
        if why:
            raise InstallError(f"{parent} {why}: whoever can write there can replace the venv the "
                               f"service runs; sudo chown root:root {parent} && sudo chmod go-w {parent}")


def check_venv(venv: Path, trusted: tuple[int, ...] | None = None) -> None:
    """Refuse a venv that anyone but root (`trusted`) could change."""
    trusted = TRUSTED_UIDS if trusted is None else trusted
    fix = f"sudo chown -R root:root {venv} && sudo chmod -R go-w {venv}"
    _check_ancestors(venv, trusted)
    real_venv = Path(os.path.realpath(venv))
    if real_venv != venv:  # the venv path is (or passes through) a symlink: check where it leads too
        _check_ancestors(real_venv, trusted)
        venv = real_venv
    count = 0
    for top, dirs, files in os.walk(venv, followlinks=False):
        for entry in [top, *(os.path.join(top, n) for n in dirs + files)]:
            if entry == top and top != str(venv):
                continue  # each directory is checked once, as a child of its parent
            count += 1
            if count > MAX_VENV_ENTRIES:
                raise InstallError(f"{venv} has more than {MAX_VENV_ENTRIES} files: is it really a venv?")
            try:
                st = os.lstat(entry)
            except OSError as exc:
                raise InstallError(f"cannot check {entry}: {exc.strerror or exc}") from None
            why = _unsafe(st, trusted, ancestor=False)
            if why:
                raise InstallError(f"the venv is not safe for a service: {entry} {why} (whoever can "
                                   f"write in the venv runs code as the service): {fix}")
    # The interpreter the venv points at (bin/python -> /usr/bin/python3.11).
    python = venv / "bin" / "python"
    if python.exists():
        real = Path(os.path.realpath(python))
        _check_ancestors(real, trusted)
        why = _unsafe(os.stat(real), trusted, ancestor=False)
        if why:
            raise InstallError(f"the venv's Python {real} {why}: use a Python installed by root "
                               "(apt install python3-venv) for the service's venv")


# --- writing files ----------------------------------------------------------------

def _mkdirs(directory: Path, mode: int = 0o755) -> None:
    """Create missing directories with exactly `mode`, whatever the umask."""
    missing = []
    d = directory
    while not d.exists() and not d.is_symlink():
        missing.append(d)
        d = d.parent
    for d in reversed(missing):
        try:
            os.mkdir(d, mode)
        except FileExistsError:
            continue
        os.chmod(d, mode)


def _temp_name(name: str) -> str:
    """The temp file's name: random, so nobody can plant a file or symlink at it in advance."""
    return f".{name}.{secrets.token_hex(8)}.tmp"


def _backup_name(name: str) -> str:
    return f"{name}.bak-{time.strftime('%Y%m%dT%H%M%S')}"


@dataclass
class Written:
    """What `write_file` did: `changed` False when the content was already there."""

    path: Path
    changed: bool
    backup: Path | None = None


def write_file(path: Path, text: str, mode: int = 0o644, *, backup: bool = False) -> Written:
    """Write `text` to `path` atomically with exactly `mode`; never through a symlink.

    With `backup`, an existing different file is kept (hard link) as NAME.bak-TIMESTAMP."""
    data = text.encode("utf-8")
    _mkdirs(path.parent)
    dir_fd = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        try:
            old = os.lstat(path.name, dir_fd=dir_fd)
        except FileNotFoundError:
            old = None
        if old is not None and not stat.S_ISREG(old.st_mode):
            kind = "a symlink" if stat.S_ISLNK(old.st_mode) else "not a regular file"
            raise InstallError(f"{path} is {kind}; move it away (sudo mv {path} {path}.old) and re-run")
        if old is not None and stat.S_IMODE(old.st_mode) == mode:
            fd = os.open(path.name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd)
            with os.fdopen(fd, "rb") as f:
                if f.read(len(data) + 1) == data:
                    return Written(path, changed=False)
        tmp = _temp_name(path.name)
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                         0o600, dir_fd=dir_fd)
        except FileExistsError:
            raise InstallError(f"{path.parent / tmp} already exists (planted?): remove it and re-run") from None
        try:
            os.fchmod(fd, mode)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        except BaseException:
            os.close(fd)
            os.unlink(tmp, dir_fd=dir_fd)
            raise
        os.close(fd)
        saved = None
        if backup and old is not None:
            saved_name = _backup_name(path.name)
            try:
                os.link(path.name, saved_name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd, follow_symlinks=False)
            except OSError as exc:
                os.unlink(tmp, dir_fd=dir_fd)
                raise InstallError(f"cannot keep a backup of {path} as {saved_name}: "
                                   f"{exc.strerror or exc}") from None
            saved = path.parent / saved_name
        os.rename(tmp, path.name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
    return Written(path, changed=True, backup=saved)
