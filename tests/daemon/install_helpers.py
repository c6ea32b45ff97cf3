"""What the install-service tests share: a venv-shaped directory and a pretend root."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from companion import service_install


def fake_venv(tmp_path: Path) -> Path:
    """A venv-shaped directory whose bin/companion is a real executable."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    exe = venv / "bin" / "companion"
    exe.write_text("#!/bin/sh\nexit 0\n")
    exe.chmod(0o755)
    return venv


def pretend_root(monkeypatch: pytest.MonkeyPatch, venv: Path, *, groups: bool = True) -> list[list[str]]:
    """install-service run as root from `venv`, creating no user (nor groups, with `groups`):
    the commands it would run are recorded in the returned list instead."""
    monkeypatch.setattr(sys, "prefix", str(venv))
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    monkeypatch.setattr(shutil, "which", lambda name: f"/usr/bin/{name}")
    monkeypatch.setattr(service_install, "_ensure_user", lambda accounts=None: None)
    if groups:
        monkeypatch.setattr(service_install, "_ensure_groups", lambda accounts=None: None)
    ran: list[list[str]] = []
    monkeypatch.setattr(service_install, "_run", ran.append)
    return ran
