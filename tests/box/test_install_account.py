"""install-service and an existing `companion` account (issue 11 item 6).

The account database is injected (install_checks.Accounts): no user is ever
created or looked up on the machine running the tests.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from tests.box.install_helpers import fake_venv

from companion.box import install_checks, service_install
from companion.box.install_checks import Accounts, InstallError, check_account


# Plain namespaces with the pwd/grp attribute names (CPython 3.11 complains at exit
# about struct_passwd instances made from Python that live until then).
def passwd(uid: int = 998, shell: str = "/usr/sbin/nologin", password: str = "x", gid: int = 998):
    return SimpleNamespace(pw_name="companion", pw_passwd=password, pw_uid=uid, pw_gid=gid,
                           pw_gecos="", pw_dir="/nonexistent", pw_shell=shell)


def group(name: str, gid: int, members: list[str]):
    return SimpleNamespace(gr_name=name, gr_passwd="x", gr_gid=gid, gr_mem=members)


def accounts(user=None, shadow: str | None = "!", groups=(), sys_uid_max: int = 999) -> Accounts:
    all_groups = [group("companion", 998, []), *groups]

    def getpwnam(name: str):
        if user is None or name != "companion":
            raise KeyError(name)
        return user

    def getgrgid(gid: int):
        for g in all_groups:
            if g.gr_gid == gid:
                return g
        raise KeyError(gid)

    return Accounts(getpwnam=getpwnam, getgrall=lambda: all_groups, getgrgid=getgrgid,
                    shadow_password=lambda name: shadow, sys_uid_max=lambda: sys_uid_max)


def test_a_missing_account_is_reported_as_missing() -> None:
    assert check_account("companion", accounts(None)) is False


@pytest.mark.parametrize("shadow", ["!", "*", "!*", "!$6$salt$hash"])
def test_a_locked_system_account_is_reused(shadow: str) -> None:
    acc = accounts(passwd(), shadow=shadow, groups=[group("gpio", 997, ["companion"]),
                                                   group("dialout", 20, ["companion", "pi"])])
    assert check_account("companion", acc) is True


@pytest.mark.parametrize("user, shadow, groups, words", [
    (passwd(uid=1000), "!", [], "uid 1000, not a system account (1-999)"),
    (passwd(uid=0), "!", [], "uid 0"),
    (passwd(uid=60000), "!", [], "not a system account"),
    (passwd(shell="/bin/bash"), "!", [], "login shell '/bin/bash'"),
    (passwd(shell="/bin/sh"), "!", [], "login shell"),
    (passwd(), "$6$salt$hash", [], "password that is not locked"),
    (passwd(), "", [], "password that is not locked"),
    (passwd(), None, [], "password that is not locked"),
    (passwd(password="$1$in$passwd"), "!", [], "password that is not locked"),
    (passwd(), "!", [group("sudo", 27, ["companion"])], "groups sudo"),
    (passwd(), "!", [group("adm", 4, ["companion"]), group("shadow", 42, ["companion"])], "groups adm, shadow"),
    (passwd(gid=0), "!", [group("root", 0, [])], "primary group 'root'"),
])
def test_an_unsafe_existing_account_is_refused(user, shadow, groups, words) -> None:
    with pytest.raises(InstallError) as exc:
        check_account("companion", accounts(user, shadow=shadow, groups=groups))
    msg = str(exc.value)
    assert words in msg, msg
    assert "\n" not in msg
    assert "usermod" in msg or "userdel" in msg or "gpasswd" in msg, msg


def test_sys_uid_max_comes_from_login_defs(tmp_path: Path) -> None:
    defs = tmp_path / "login.defs"
    defs.write_text("# comment\nSYS_UID_MAX\t\t  499\nUID_MAX 60000\n")
    assert install_checks.sys_uid_max(defs) == 499
    assert install_checks.sys_uid_max(tmp_path / "absent") == 999
    with pytest.raises(InstallError, match="not a system account"):
        check_account("companion", accounts(passwd(uid=500), sys_uid_max=install_checks.sys_uid_max(defs)))


def test_shadow_is_read_directly(tmp_path: Path) -> None:
    shadow = tmp_path / "shadow"
    shadow.write_text("root:$6$x:19000:0:99999:7:::\ncompanion:!*:19000::::::\n")
    assert install_checks.shadow_password("companion", shadow) == "!*"
    assert install_checks.shadow_password("nobody-here", shadow) is None


# --- through install(): an unsafe account stops it before anything is written --



@pytest.fixture
def as_root(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    monkeypatch.setattr(service_install, "_HIDDEN_PREFIXES", (Path("/home"),))
    monkeypatch.setattr(install_checks, "TRUSTED_UIDS", (0, os.getuid()))
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    monkeypatch.setattr(shutil, "which", lambda name: f"/usr/bin/{name}")
    ran: list[list[str]] = []
    monkeypatch.setattr(service_install, "_run", ran.append)
    return ran


def test_install_refuses_a_login_account_and_writes_nothing(tmp_path: Path, as_root) -> None:
    acc = accounts(passwd(uid=1001, shell="/bin/bash"), shadow="$6$x")
    with pytest.raises(InstallError, match="uid 1001"):
        service_install.install(tmp_path / "units", Path("/etc/companion/c.yaml"),
                                prefix=fake_venv(tmp_path), accounts=acc)
    assert not (tmp_path / "units").exists()
    assert as_root == []


def test_install_reuses_a_safe_account_without_useradd(tmp_path: Path, as_root) -> None:
    service_install.install(tmp_path / "units", tmp_path / "etc" / "c.yaml",
                            prefix=fake_venv(tmp_path), accounts=accounts(passwd()))
    assert ["useradd"] not in [cmd[:1] for cmd in as_root]
    assert as_root[-1] == ["systemctl", "enable", "--now", "companion"]


def test_install_creates_a_locked_system_user(tmp_path: Path, as_root, monkeypatch) -> None:
    created = []

    def run(cmd: list[str]) -> None:
        as_root.append(cmd)
        if cmd[0] == "useradd":
            created.append(passwd(uid=997))

    monkeypatch.setattr(service_install, "_run", run)
    acc = accounts(None)
    acc.getpwnam = lambda name: created[-1] if created else (_ for _ in ()).throw(KeyError(name))
    service_install.install(tmp_path / "units", tmp_path / "etc" / "c.yaml",
                            prefix=fake_venv(tmp_path), accounts=acc)
    useradd = as_root[0]
    assert useradd[0] == "useradd" and "--system" in useradd and useradd[-1] == "companion"
    assert useradd[useradd.index("--shell") + 1] == "/usr/sbin/nologin"


def test_the_cli_prints_one_line(tmp_path: Path, as_root, monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "prefix", str(fake_venv(tmp_path)))
    monkeypatch.setattr(install_checks, "default_accounts",
                        lambda: accounts(passwd(shell="/bin/bash")))
    assert service_install.main(["--unit-dir", str(tmp_path / "u")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("companion install-service: error: user 'companion'"), err
