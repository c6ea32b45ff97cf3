"""Paths that reach the unit's ExecStart=: systemd syntax is refused, '%' escaped (issue 11 item 6)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.box import install_checks, service_install
from companion.box.install_checks import InstallError, unit_path_value
from companion.box.service_install import main, render_unit


@pytest.mark.parametrize("config, words", [
    ('/etc/companion/a"b.yaml', "'\"'"),
    ("/etc/companion/a'b.yaml", '"\'"'),
    ("/etc/companion/${HOME}.yaml", "'$'"),
    ("/etc/companion/$HOME.yaml", "'$'"),
    ("/etc/companion/a\\x20b.yaml", "'\\\\'"),
    ("/etc/companion/a;b.yaml", "';'"),
    ("/etc/companion/a b.yaml", "' '"),
    ("/etc/companion/a\tb.yaml", "'\\t'"),
    ("/etc/companion/a\nExecStartPre=/bin/sh", "'\\n'"),
    ("/etc/companion/é.yaml", "'é'"),
    ("/etc/companion/../shadow", "'.' or '..'"),
    ("etc/companion/config.yaml", "absolute"),
])
def test_unsafe_paths_are_refused(config: str, words: str) -> None:
    with pytest.raises(InstallError) as exc:
        render_unit(Path("/opt/companion/venv"), config)
    msg = str(exc.value)
    assert words in msg, msg
    assert "\n" not in msg.replace(repr(config)[1:-1], ""), msg


@pytest.mark.parametrize("text, words", [("/etc/companion/./config.yaml", "'.' or '..'"),
                                         ("/etc//companion/config.yaml", "'//'"),
                                         ("/etc/companion/", "'//'")])
def test_unplain_strings_are_refused(text: str, words: str) -> None:
    with pytest.raises(InstallError, match=words.replace(".", r"\.")):
        unit_path_value(text, "config path")
    # (a Path given to render_unit is already plain: pathlib drops '.' and '//')
    assert "--config /etc/companion/config.yaml\n" in render_unit(Path("/opt/v"), Path(text) / "config.yaml"
                                                                  if text.endswith("/") else Path(text))


@pytest.mark.parametrize("venv", ['/opt/x"y/venv', "/opt/${X}/venv", "/opt/a/../venv"])
def test_unsafe_venv_paths_are_refused(venv: str) -> None:
    with pytest.raises(InstallError, match="venv path"):
        render_unit(Path(venv))


def test_percent_is_doubled_everywhere() -> None:
    assert unit_path_value("/opt/50%/v%n", "p") == "/opt/50%%/v%%n"
    unit = render_unit(Path("/opt/a%b/venv"), "/etc/companion/%i.yaml")
    assert "ExecStart=/opt/a%%b/venv/bin/companion run --config /etc/companion/%%i.yaml\n" in unit


@pytest.mark.parametrize("path", ["/opt/companion/venv", "/srv/clans-companion_2/venv-3.11",
                                  "/opt/c+c@x,y:z=1/venv"])
def test_ordinary_paths_pass_unchanged(path: str) -> None:
    assert unit_path_value(path, "p") == path


def test_the_cli_refuses_with_one_line_and_writes_nothing(tmp_path: Path, capsys) -> None:
    units = tmp_path / "units"
    assert main(["--unit-dir", str(units), "--no-enable", "--config", "/etc/companion/${X}.yaml"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'$'" in err, err
    assert not units.exists()


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze not installed (Debian package: systemd)")
def test_systemd_reads_the_escaped_path_back(tmp_path: Path, monkeypatch) -> None:
    """systemd-analyze verify on a venv whose path has '%': the '%%' reaches systemd as one '%'."""
    monkeypatch.setattr(install_checks, "TRUSTED_UIDS", (0, os.getuid()))
    venv = tmp_path / "50%venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "companion").write_text("#!/bin/sh\n")
    (venv / "bin" / "companion").chmod(0o755)
    unit = tmp_path / "companion.service"
    unit.write_text(render_unit(venv, "/etc/companion/config.yaml"))
    result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, check=False)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    # Without the escaping, systemd reads '%v' as a specifier (the kernel release).
    unit.write_text(render_unit(venv, "/etc/companion/config.yaml").replace("%%v", "%v"))
    result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, check=False)
    assert result.stderr != ""


def test_dry_run_refuses_too(capsys) -> None:
    assert main(["--dry-run", "--config", "/etc/companion/a'b.yaml"]) == 1
    assert "systemd would interpret" in capsys.readouterr().err


def test_sys_prefix_with_a_quote_is_refused(monkeypatch, tmp_path: Path, capsys) -> None:
    monkeypatch.setattr(service_install, "_HIDDEN_PREFIXES", (Path("/home"),))
    monkeypatch.setattr(sys, "prefix", str(tmp_path / 'we"ird'))
    assert main(["--unit-dir", str(tmp_path / "u"), "--no-enable"]) == 1
    assert "venv path" in capsys.readouterr().err
