"""The repository's root holds only what belongs there (issue 53, item 10: a debugging shell line,
`in.fifo`, had been committed at the root). Every entry git tracks at the root is one of ROOT_ENTRIES,
and every entry on disk there is tracked or ignored by .gitignore (the venv, build/, caches): a stray
file fails here, committed or not. A new entry at the root is added to ROOT_ENTRIES on purpose."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ROOT_ENTRIES = {
    ".ci", ".gitignore", "README.md", "hardware.md", "install.sh", "pyproject.toml", "setup.py",
    "companion", "docs", "firmware", "firmware_config", "systemd", "tests", "tools",
}


def git(*args: str) -> list[str]:
    """`git ARGS -z` at the repository's root: its NUL-separated paths (skips outside a git checkout)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout (an unpacked sdist): nothing to compare with")
    res = subprocess.run(["git", *args, "-z"], cwd=ROOT, capture_output=True, timeout=60, check=False)
    if res.returncode != 0:
        pytest.skip(f"git {' '.join(args)}: {res.stderr.decode(errors='replace').strip()}")
    return [p for p in res.stdout.decode("utf-8", "surrogateescape").split("\0") if p]


def test_git_tracks_only_known_entries_at_the_root():
    tracked = {path.split("/")[0] for path in git("ls-files")}
    stray = sorted(tracked - ROOT_ENTRIES)
    assert stray == [], f"tracked at the repository's root, but not one of ROOT_ENTRIES: {stray} (git rm it, or add it)"
    assert {"companion", "tests", "README.md", "pyproject.toml"} <= tracked


def test_every_entry_at_the_root_is_tracked_or_ignored():
    untracked = git("ls-files", "--others", "--exclude-standard", "--directory", "--no-empty-directory")
    at_root = sorted(p.rstrip("/") for p in untracked if "/" not in p.rstrip("/"))
    assert at_root == [], f"at the repository's root, neither tracked nor ignored: {at_root}"

