"""Which key signs a build's bundles (tools/image/signing-key.sh, run by build.sh before anything is
built): UPDATE_KEY when given; else the builder's own key, made once outside the repository and reused;
never the repository's test key, whose private half anyone has."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.update.bundles import REPO, TEST_KEY, needs_openssl, other_key

pytestmark = needs_openssl
SCRIPT = REPO / "tools" / "image" / "signing-key.sh"


def choose(tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k != "UPDATE_KEY"}
    return subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True, timeout=60,
                          env={**clean, "HOME": str(tmp_path / "home"), **env})


def public(key: str) -> str:
    return subprocess.run(["openssl", "pkey", "-in", key, "-pubout"], capture_output=True, text=True, check=True).stdout


def test_without_update_key_the_builder_gets_a_key_of_its_own_once(tmp_path: Path) -> None:
    first = choose(tmp_path)
    assert first.returncode == 0, first.stderr
    key = first.stdout.strip()
    assert key == str(tmp_path / "home" / ".config" / "clans-companion" / "update-key.pem")
    assert "made this machine's update key" in first.stderr and key in first.stderr
    assert not key.startswith(str(REPO)), "kept outside the repository"
    assert os.stat(key).st_mode & 0o077 == 0, "only its owner reads it"
    again = choose(tmp_path)
    assert again.returncode == 0 and again.stdout.strip() == key and "made" not in again.stderr
    assert public(key) == public(again.stdout.strip()), "later builds reuse it"
    assert public(key) != public(str(TEST_KEY))


def test_update_key_is_taken_and_the_test_key_refused(tmp_path: Path) -> None:
    mine = other_key(tmp_path)
    chosen = choose(tmp_path, UPDATE_KEY=str(mine))
    assert chosen.returncode == 0 and chosen.stdout.strip() == str(mine)
    refused = choose(tmp_path, UPDATE_KEY=str(TEST_KEY))
    assert refused.returncode == 2 and "TEST key" in refused.stderr and refused.stdout == ""
    junk = tmp_path / "junk.pem"
    junk.write_text("not a key\n")
    for bad in (junk, tmp_path / "missing.pem", tmp_path):
        out = choose(tmp_path, UPDATE_KEY=str(bad))
        assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1 and out.stdout == "", out.stderr
