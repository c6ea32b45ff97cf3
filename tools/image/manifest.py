"""The SD-card image's manifest: which bytes a user flashed.

Run inside the image's root by inside.sh (with the venv's Python), it prints the image's
version lines (/usr/share/companion-box/image-version), every Debian package as
`name=version arch`, and every Python package in the venv as `name==version`, followed by
PyPI's SHA-256 of each of that release's files as the lock (tools/image/requirements.lock)
names them: pip checked the installed file against those (--require-hashes). build.sh copies
the manifest beside the .img.xz and names it in SHA256SUMS.

    python tools/image/manifest.py LOCK [--version-file F] [--no-dpkg]
"""

from __future__ import annotations

import argparse
import importlib.metadata as md
import re
import subprocess
import sys
from pathlib import Path

VERSION_FILE = "/usr/share/companion-box/image-version"


def normalise(name: str) -> str:
    """PEP 503's form of a distribution name: lower case, runs of -_. as one -."""
    return re.sub(r"[-_.]+", "-", name).lower()


def lock_hashes(text: str) -> dict[tuple[str, str], list[str]]:
    """(name, version) -> ['sha256:...', ...] from a pip requirements file with --hash options."""
    hashes: dict[tuple[str, str], list[str]] = {}
    for block in re.split(r"\n(?=[A-Za-z0-9])", text):
        m = re.match(r"([A-Za-z0-9._-]+)==([^\s;\\]+)", block)
        if m:
            hashes[(normalise(m[1]), m[2])] = re.findall(r"--hash=(sha256:[0-9a-f]{64})", block)
    return hashes


def python_lines(lock: dict[tuple[str, str], list[str]]) -> list[str]:
    """Each installed distribution as `name==version` and the lock's hashes for that release."""
    lines = []
    for dist in sorted(md.distributions(), key=lambda d: normalise(d.metadata["Name"])):
        name, version = dist.metadata["Name"], dist.version
        hashes = lock.get((normalise(name), version), [])
        lines.append(f"{name}=={version}" + "".join(f" --hash={h}" for h in hashes))
    return lines


def debian_lines() -> list[str]:
    out = subprocess.run(["dpkg-query", "-W", "-f=${Package}=${Version} ${Architecture}\n"],
                         capture_output=True, text=True, check=True).stdout
    return sorted(out.splitlines())


def manifest(lock_text: str, version_text: str, dpkg: bool = True) -> str:
    lines = ["# The Clans companion's SD-card image: what is in it (tools/image/build.sh)."]
    lines += [f"# {line}" for line in version_text.splitlines() if line.strip()]
    if dpkg:
        lines.append("# Debian packages (name=version architecture)")
        lines += debian_lines()
    lines.append("# Python packages of /opt/companion/venv (name==version and PyPI's SHA-256 of that release's")
    lines.append("# files, from tools/image/requirements.lock, which pip checked; the companion is built from the checkout)")
    lines += python_lines(lock_hashes(lock_text))
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lock", type=Path)
    parser.add_argument("--version-file", type=Path, default=Path(VERSION_FILE))
    parser.add_argument("--no-dpkg", action="store_true", help="leave the Debian packages out (not on Debian)")
    args = parser.parse_args(argv)
    version = args.version_file.read_text(encoding="utf-8") if args.version_file.exists() else ""
    sys.stdout.write(manifest(args.lock.read_text(encoding="utf-8"), version, dpkg=not args.no_dpkg))
    return 0


if __name__ == "__main__":
    sys.exit(main())
