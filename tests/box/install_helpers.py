"""What the install-service tests share: a venv-shaped directory and a pretend root."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.box import service_install, service_web


def fake_venv(tmp_path: Path) -> Path:
    """A venv-shaped directory whose bin/companion is a real executable."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    exe = venv / "bin" / "companion"
    exe.write_text("#!/bin/sh\nexit 0\n")
    exe.chmod(0o755)
    return venv


def pretend_root(monkeypatch: pytest.MonkeyPatch, venv: Path, *, groups: bool = True) -> list[list[str]]:
    """install-service run as root from `venv`, creating no user (nor groups nor memberships, with `groups`):
    the commands it would run are recorded in the returned list instead."""
    monkeypatch.setattr(sys, "prefix", str(venv))
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    monkeypatch.setattr(shutil, "which", lambda name: f"/usr/bin/{name}")
    monkeypatch.setattr(service_install, "_ensure_user", lambda accounts=None: None)
    # Never the machine's own /etc/avahi/services: tests that want one pass --avahi-dir.
    monkeypatch.setattr(service_web, "DEFAULT_AVAHI_DIR", venv.parent / "no-avahi-here")
    if groups:
        monkeypatch.setattr(service_install, "_ensure_groups", lambda accounts=None: None)
        monkeypatch.setattr(service_install, "_ensure_membership", lambda accounts=None: None)
    ran: list[list[str]] = []
    monkeypatch.setattr(service_install, "_run", ran.append)
    return ran


def security_score(unit: Path) -> float | None:
    """`systemd-analyze security --offline=true` (systemd >= 250) of a unit file; None
    when this systemd-analyze cannot do it offline."""
    result = subprocess.run(["systemd-analyze", "security", "--offline=true", "--no-pager", str(unit)],
                            capture_output=True, text=True, check=False)
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    return float(found.group(1)) if found else None


def parse_unit(text: str) -> dict[str, dict[str, list[str]]]:
    """Sections -> key -> all values (systemd allows a key more than once)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        assert current is not None, f"key outside a section: {line!r}"
        key, _, value = line.partition("=")
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


def no_such_user(name: str):
    """getpwnam for a machine where no account exists (tests never create users)."""
    raise KeyError(name)


def trust_tmp(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fake venvs live in pytest's /tmp, which the real unit hides (PrivateTmp), and belong
    to whoever runs the tests, who stands in for root here; no real account lookups."""
    from companion.box import install_checks

    monkeypatch.setattr(service_install, "_HIDDEN_PREFIXES", (Path("/home"), Path("/root"), Path("/run/user")))
    monkeypatch.setattr(install_checks, "TRUSTED_UIDS", (0, os.getuid()))
    monkeypatch.setattr(install_checks, "default_accounts", lambda: install_checks.Accounts(getpwnam=no_such_user))
