"""install-service writes its files atomically and never through a planted symlink (issue 11 item 6)."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest
from tests.box.install_helpers import fake_venv, pretend_root

from companion.box import install_checks, service_install
from companion.box.install_checks import InstallError, write_file


@pytest.fixture(autouse=True)
def trusted_me(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(install_checks, "TRUSTED_UIDS", (0, os.getuid()))
    monkeypatch.setattr(service_install, "_HIDDEN_PREFIXES", (Path("/home"),))
    monkeypatch.setattr(install_checks, "default_accounts",
                        lambda: install_checks.Accounts(getpwnam=lambda name: (_ for _ in ()).throw(KeyError(name))))




def mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def victim_file(tmp_path: Path) -> Path:
    victim = tmp_path / "secret"
    victim.write_text("do not touch\n")
    victim.chmod(0o600)
    return victim


def test_symlink_planted_at_the_old_temp_name_is_left_alone(tmp_path: Path) -> None:
    """The reported attack: <dir>/companion.service.tmp -> a 0600 file was overwritten and left 0644."""
    victim = victim_file(tmp_path)
    units = tmp_path / "units"
    units.mkdir()
    (units / "companion.service.tmp").symlink_to(victim)
    write_file(units / "companion.service", "[Unit]\n", 0o644)
    assert victim.read_text() == "do not touch\n" and mode(victim) == 0o600
    assert (units / "companion.service").read_text() == "[Unit]\n"
    assert not (units / "companion.service").is_symlink()


def test_symlink_planted_at_the_temp_name_is_refused(tmp_path: Path, monkeypatch) -> None:
    """Even a planted symlink at the very name chosen (O_EXCL | O_NOFOLLOW) is not followed."""
    victim = victim_file(tmp_path)
    units = tmp_path / "units"
    units.mkdir()
    monkeypatch.setattr(install_checks, "_temp_name", lambda name: "planted.tmp")
    (units / "planted.tmp").symlink_to(victim)
    with pytest.raises(InstallError, match="planted.tmp already exists"):
        write_file(units / "companion.service", "[Unit]\n", 0o644)
    assert victim.read_text() == "do not touch\n" and mode(victim) == 0o600
    assert not (units / "companion.service").exists()


def test_the_target_itself_being_a_symlink_is_refused(tmp_path: Path) -> None:
    victim = victim_file(tmp_path)
    units = tmp_path / "units"
    units.mkdir()
    (units / "companion.service").symlink_to(victim)
    with pytest.raises(InstallError, match="is a symlink; move it away"):
        write_file(units / "companion.service", "[Unit]\n", 0o644, backup=True)
    assert victim.read_text() == "do not touch\n" and mode(victim) == 0o600


def test_temp_names_are_unpredictable() -> None:
    names = {install_checks._temp_name("companion.service") for _ in range(50)}
    assert len(names) == 50 and all(n.startswith(".companion.service.") for n in names)


@pytest.mark.parametrize("umask", [0o000, 0o077, 0o027])
def test_modes_are_explicit_whatever_the_umask(tmp_path: Path, monkeypatch, umask: int) -> None:
    """umask 000 once made 0777 directories; 077 would hide the polkit rule from polkitd."""
    monkeypatch.setattr(sys, "prefix", str(fake_venv(tmp_path)))
    old = os.umask(umask)
    try:
        units = tmp_path / "a" / "b" / "units"
        polkit = tmp_path / "p" / "rules.d"
        assert service_install.main(["--unit-dir", str(units), "--no-enable", "--allow-poweroff",
                                     "--polkit-dir", str(polkit)]) == 0
    finally:
        os.umask(old)
    for d in (tmp_path / "a", tmp_path / "a" / "b", units, tmp_path / "p", polkit):
        assert mode(d) == 0o755, (d, oct(mode(d)))
    assert mode(units / "companion.service") == 0o644
    assert mode(polkit / "50-companion-poweroff.rules") == 0o644


@pytest.mark.parametrize("umask", [0o000, 0o077])
def test_starter_config_mode_whatever_the_umask(tmp_path: Path, monkeypatch, umask: int) -> None:
    pretend_root(monkeypatch, fake_venv(tmp_path), groups=False)
    config = tmp_path / "etc" / "companion" / "config.yaml"
    old = os.umask(umask)
    try:
        assert service_install.main(["--unit-dir", str(tmp_path / "u"), "--config", str(config)]) == 0
    finally:
        os.umask(old)
    assert mode(config) == 0o644 and mode(config.parent) == 0o755


def test_an_existing_mode_is_reset(tmp_path: Path) -> None:
    target = tmp_path / "companion.service"
    target.write_text("[Unit]\n")
    target.chmod(0o666)
    write_file(target, "[Unit]\n", 0o644)
    assert mode(target) == 0o644


def test_no_temp_file_is_left_behind(tmp_path: Path) -> None:
    write_file(tmp_path / "companion.service", "one\n", 0o644, backup=True)
    write_file(tmp_path / "companion.service", "two\n", 0o644, backup=True)
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_fsync_and_rename_are_used(tmp_path: Path, monkeypatch) -> None:
    calls: list[str] = []
    real_fsync, real_rename = os.fsync, os.rename
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(os, "rename", lambda *a, **k: (calls.append("rename"), real_rename(*a, **k))[1])
    write_file(tmp_path / "companion.service", "x\n", 0o644)
    assert calls == ["fsync", "rename", "fsync"]  # the file, then the directory entry


# --- replacing an existing unit: keep a backup, restart a running service ------

def run_install(tmp_path: Path, monkeypatch, units: Path) -> list[list[str]]:
    ran = pretend_root(monkeypatch, tmp_path / "venv")
    config = tmp_path / "config.yaml"
    config.write_text("")
    assert service_install.main(["--unit-dir", str(units), "--config", str(config)]) == 0
    return ran


def test_a_replaced_unit_is_backed_up_and_the_service_restarted(tmp_path: Path, monkeypatch, capsys) -> None:
    fake_venv(tmp_path)
    units = tmp_path / "units"
    units.mkdir()
    old = units / "companion.service"
    old.write_text("[Service]\nExecStart=/usr/local/bin/my-own-companion\n")
    old.chmod(0o640)
    ran = run_install(tmp_path, monkeypatch, units)
    backups = sorted(units.glob("companion.service.bak-*"))
    assert len(backups) == 1
    assert backups[0].read_text() == "[Service]\nExecStart=/usr/local/bin/my-own-companion\n"
    assert mode(backups[0]) == 0o640
    assert "Type=notify" in old.read_text()
    assert ran == [["systemctl", "daemon-reload"], ["systemctl", "try-restart", "companion"],
                   ["systemctl", "enable", "--now", "companion"]]
    assert f"the previous one is kept as {backups[0]}" in capsys.readouterr().out


def test_an_identical_unit_is_left_as_it_is(tmp_path: Path, monkeypatch, capsys) -> None:
    fake_venv(tmp_path)
    units = tmp_path / "units"
    run_install(tmp_path, monkeypatch, units)
    ran = run_install(tmp_path, monkeypatch, units)
    assert not list(units.glob("*.bak-*"))
    assert ["systemctl", "try-restart", "companion"] not in ran
    assert "unchanged" in capsys.readouterr().out


def test_no_enable_says_how_to_restart_on_the_new_unit(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "prefix", str(fake_venv(tmp_path)))
    units = tmp_path / "units"
    units.mkdir()
    (units / "companion.service").write_text("old\n")
    assert service_install.main(["--unit-dir", str(units), "--no-enable"]) == 0
    assert "try-restart companion" in capsys.readouterr().out
    assert len(list(units.glob("companion.service.bak-*"))) == 1


def test_offline_it_enables_without_starting(tmp_path: Path, monkeypatch, capsys) -> None:
    """The SD-card image installs into a chroot (SYSTEMD_OFFLINE=1): enable, never --now, which
    systemctl refuses there with no systemd running."""
    fake_venv(tmp_path)
    monkeypatch.setenv("SYSTEMD_OFFLINE", "1")
    ran = run_install(tmp_path, monkeypatch, tmp_path / "units")
    assert ["systemctl", "enable", "companion"] in ran
    assert not [cmd for cmd in ran if "--now" in cmd]
    assert "companion is enabled and starts at boot" in capsys.readouterr().out
