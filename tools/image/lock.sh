#!/usr/bin/env bash
# lock.sh: writes tools/image/requirements.lock, the exact Python packages of the SD-card image
# with the SHA-256 of every file PyPI holds for each (pip checks them: --require-hashes).
#
#   tools/image/lock.sh        (after a change of pyproject.toml's dependencies or its extra `camera`;
#                               commit the lock)
#
# One universal lock for Python 3.11 to 3.13 (Bookworm's and Trixie's), every platform's markers
# kept. lgpio's hashes are there too (its marker: Python < 3.13); on 3.13, where PyPI has no
# wheel, install.sh builds its source checked against them. uv resolves it, in a scratch venv.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -m venv "$tmp/venv"
"$tmp/venv/bin/pip" install -q uv
cd "$src"
# The pins of the lock in the repository stay where they are (uv prefers an output file's versions):
# a new dependency adds its own lines, it does not move every other package.
grep -v '^#' "$here/requirements.lock" > "$tmp/lock" || true
# The dependencies and the extra `camera`: a USB camera works on the card (linuxpy reads it) and the
# board is found in its pictures (OpenCV and numpy, imported only then).
"$tmp/venv/bin/uv" pip compile pyproject.toml --extra camera --universal --python-version 3.11 \
  --generate-hashes --no-header --quiet -o "$tmp/lock"
{
  echo "# The SD-card image's Python packages, every file's hash: written by tools/image/lock.sh, read"
  echo "# by install.sh --image (pip install --require-hashes). Do not edit: run tools/image/lock.sh."
  cat "$tmp/lock"
} > "$here/requirements.lock"
echo "lock.sh: $(grep -c '^[a-z]' "$here/requirements.lock") packages in tools/image/requirements.lock"
