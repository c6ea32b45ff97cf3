"""install-service refuses a venv that anyone but root could change (issue 11 item 6).

Whoever runs the tests stands in for root (install_checks.TRUSTED_UIDS); a
"stranger" is any other uid, simulated by patching os.lstat/os.stat results
for one path, so the tests need no second account and no chown.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from companion.box import install_checks, service_install
from companion.box.install_checks import InstallError, check_venv

ME = os.getuid()
STRANGER = 4242 if ME != 4242 else 4243


@pytest.fixture(autouse=True)
def trusted_me(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(install_checks, "TRUSTED_UIDS", (0, ME))
    monkeypatch.setattr(service_install, "_HIDDEN_PREFIXES", (Path("/home"),))


def make_venv(tmp_path: Path) -> Path:
    venv = tmp_path / "opt" / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "lib" / "python3" / "site-packages" / "companion").mkdir(parents=True)
    for d in [tmp_path / "opt", venv, *venv.rglob("*")]:
        d.chmod(0o755)
    exe = venv / "bin" / "companion"
    exe.write_text("#!/bin/sh\nexit 0\n")
    exe.chmod(0o755)
    (venv / "bin" / "python").symlink_to(os.path.realpath(sys.executable))
    (venv / "lib" / "python3" / "site-packages" / "companion" / "__init__.py").write_text("")
    (venv / "lib" / "python3" / "site-packages" / "companion" / "__init__.py").chmod(0o644)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (venv / "pyvenv.cfg").chmod(0o644)
    return venv


def owned_by_stranger(monkeypatch: pytest.MonkeyPatch, victim: Path) -> None:
    """os.lstat / os.stat report `victim` as owned by another uid."""
    real_lstat, real_stat = os.lstat, os.stat

    def fake(real):
        def stat(path, *args, **kwargs):
            st = real(path, *args, **kwargs)
            if os.fspath(path) == str(victim):
                fields = list(st)
                fields[4] = STRANGER  # st_uid
                return os.stat_result(fields)
            return st
        return stat

    monkeypatch.setattr(os, "lstat", fake(real_lstat))
    monkeypatch.setattr(os, "stat", fake(real_stat))


def test_a_root_owned_venv_passes(tmp_path: Path) -> None:
    check_venv(make_venv(tmp_path))


@pytest.mark.parametrize("where", ["venv", "bin", "bin/companion", "lib/python3/site-packages/companion/__init__.py",
                                   "lib/python3/site-packages/companion", "pyvenv.cfg"])
def test_group_or_world_writable_anything_in_the_venv_is_refused(tmp_path: Path, where: str) -> None:
    venv = make_venv(tmp_path)
    victim = venv if where == "venv" else venv / where
    for mode, words in ((0o777 if victim.is_dir() else 0o666, "writable by everyone"),
                        (0o775 if victim.is_dir() else 0o664, "writable by the group")):
        victim.chmod(mode)
        if "group" in words and os.stat(victim).st_gid == 0:
            os.chown(victim, -1, STRANGER)  # root's own group counts as root: give it another
        with pytest.raises(InstallError) as exc:
            check_venv(venv)
        msg = str(exc.value)
        assert str(victim) in msg and words in msg, msg
        assert f"sudo chown -R root:root {venv} && sudo chmod -R go-w {venv}" in msg, msg
        assert "\n" not in msg


@pytest.mark.parametrize("where", ["venv", "bin/companion", "lib/python3/site-packages/companion/__init__.py"])
def test_a_venv_file_owned_by_another_user_is_refused(tmp_path: Path, monkeypatch, where: str) -> None:
    venv = make_venv(tmp_path)
    victim = venv if where == "venv" else venv / where
    owned_by_stranger(monkeypatch, victim)
    with pytest.raises(InstallError, match=f"{victim} is owned by uid {STRANGER}"):
        check_venv(venv)


def test_a_writable_directory_above_the_venv_is_refused(tmp_path: Path) -> None:
    venv = make_venv(tmp_path)
    (tmp_path / "opt").chmod(0o777)
    with pytest.raises(InstallError, match=f"{tmp_path / 'opt'} is writable by everyone.*chmod go-w"):
        check_venv(venv)


def test_a_directory_above_owned_by_another_user_is_refused(tmp_path: Path, monkeypatch) -> None:
    venv = make_venv(tmp_path)
    owned_by_stranger(monkeypatch, tmp_path / "opt")
    with pytest.raises(InstallError, match="is owned by uid"):
        check_venv(venv)


def test_sticky_root_directories_above_are_fine(tmp_path: Path) -> None:
    venv = make_venv(tmp_path)
    (tmp_path / "opt").chmod(0o1777)
    check_venv(venv)


def test_the_venvs_python_must_be_root_owned(tmp_path: Path, monkeypatch) -> None:
    venv = make_venv(tmp_path)
    fake_python = tmp_path / "python3"
    fake_python.write_text("")
    fake_python.chmod(0o777)
    (venv / "bin" / "python").unlink()
    (venv / "bin" / "python").symlink_to(fake_python)
    with pytest.raises(InstallError, match="venv's Python .* writable by everyone"):
        check_venv(venv)


def test_install_refuses_an_unsafe_venv_and_writes_nothing(tmp_path: Path, capsys) -> None:
    venv = make_venv(tmp_path)
    (venv / "bin").chmod(0o777)
    units = tmp_path / "units"
    with pytest.raises(InstallError, match="writable by everyone"):
        service_install.install(units, Path("/etc/companion/c.yaml"), enable=False, prefix=venv)
    assert not units.exists()


def test_a_symlinked_venv_is_checked_where_it_leads(tmp_path: Path) -> None:
    venv = make_venv(tmp_path)
    (tmp_path / "public").mkdir()
    (tmp_path / "public").chmod(0o777)
    moved = tmp_path / "public" / "venv"
    venv.rename(moved)
    venv.symlink_to(moved)
    with pytest.raises(InstallError, match=f"{tmp_path / 'public'} is writable by everyone"):
        check_venv(venv)
