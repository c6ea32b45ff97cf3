"""tools/image/build.sh's host tools, without root (issue 53, item 11): whenever it installs mmdebstrap
it installs arch-test too. Its `need COMMAND PACKAGE` lines install with --no-install-recommends,
and mmdebstrap without arch-test (one of its recommends) refuses a foreign architecture: "E: install
arch-test for foreign architecture support" on a fresh Debian 12 (fixed in fe2c509).

The script's own `need` function and its own `need` lines run here in bash, on a PATH with no tool at
all but an apt-get that only writes down what it was asked to install: the packages a bare machine
gets. The boot of the image itself is tests/image's."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "image" / "build.sh"
NEED_FUNCTION = re.compile(r"^need\(\) \{.*?^\}$", re.S | re.M)
NEED_LINE = re.compile(r"^need \S+ \S+$", re.M)


def installed_on_a_bare_machine(script: str, tmp_path: Path) -> list[str]:
    """The packages `script`'s need lines ask apt-get for when no command is there yet, in order."""
    function = NEED_FUNCTION.search(script)
    assert function, "build.sh no longer defines need() { ... }"
    lines = NEED_LINE.findall(script)
    assert lines, "build.sh has no `need COMMAND PACKAGE` line"
    bin_dir, log = tmp_path / "bin", tmp_path / "apt.log"
    bin_dir.mkdir()
    apt = bin_dir / "apt-get"
    apt.write_text(f'#!/bin/sh\n[ "$1" = install ] && for p; do last=$p; done && echo "$last" >> {log}\nexit 0\n')
    apt.chmod(0o755)
    body = "\n".join(["set -euo pipefail", "say() { :; }", "die() { echo \"die: $*\" >&2; exit 2; }",
                      function.group(0), *lines])
    res = subprocess.run([shutil.which("bash") or "/bin/bash", "-c", body], env={"PATH": str(bin_dir)},
                         capture_output=True, text=True, timeout=60, check=False)
    assert res.returncode == 0, res.stderr
    return log.read_text().split() if log.exists() else []


def test_build_sh_installs_arch_test_whenever_it_installs_mmdebstrap(tmp_path):
    packages = installed_on_a_bare_machine(SCRIPT.read_text(), tmp_path)
    assert "mmdebstrap" in packages, packages
    assert "arch-test" in packages, f"build.sh installs mmdebstrap without arch-test: {packages}"
    assert "qemu-user-static" in packages and "xz-utils" in packages  # the lines did run, each one


def test_no_other_line_installs_mmdebstrap_alone():
    """An apt-get line of its own naming mmdebstrap must name arch-test as well."""
    for n, line in enumerate(SCRIPT.read_text().splitlines(), 1):
        if "apt-get" in line and "install" in line and "mmdebstrap" in line:
            assert "arch-test" in line, f"build.sh line {n}: {line.strip()}"


def test_the_check_catches_the_old_script(tmp_path):
    """build.sh as it was before fe2c509 (no `need arch-test arch-test`) fails the check."""
    old = re.sub(r"^need arch-test arch-test\n", "", SCRIPT.read_text(), flags=re.M)
    assert "arch-test" not in installed_on_a_bare_machine(old, tmp_path)
