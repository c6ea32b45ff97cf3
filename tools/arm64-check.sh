#!/usr/bin/env bash
# arm64-check.sh: run the README's test command in an aarch64 Debian 13 (trixie) root under
# qemu-user emulation (the Pi's CPU and OS release, about 4x slower than an x86 laptop), so
# tests that assume a fast machine show up before a Pi does.
#
#   tools/arm64-check.sh [ROOT_DIR] [-- PYTEST_ARGS...]
#   DEBIAN_SUITE=bookworm tools/arm64-check.sh ...     (Debian 12 instead)
#
# ROOT_DIR defaults to /var/tmp/arm64root-trixie (/var/tmp/arm64root for bookworm; made once
# with debian-root, then reused). A clean export of the tree (no .venv, no .git) is copied to
# ROOT_DIR/root/companion, a fresh venv is made there and `pip install '.[test]'` + pytest run
# inside. lgpio must import there: on Python 3.13 (trixie) PyPI has no wheel, so swig, gcc
# and python3-dev are installed in the root and `install.sh --lgpio` builds it from its sdist,
# as install.sh does on a box with plain Debian 13.
# Exit: pytest's status; 0 with a SKIP line when this machine cannot do it (not root,
# no Debian package registry, no debian-root tool); 2 on a set-up failure.
set -uo pipefail

me=arm64-check
# shellcheck source=tools/arm64-common.sh
source "$(dirname "$0")/arm64-common.sh" "$@"
pytest_args=("${args[@]}")
[ ${#pytest_args[@]} -gt 0 ] || pytest_args=(-q -p no:cacheprovider)

[ "$(id -u)" = 0 ] || skip "needs root (debootstrap, chroot, binfmt_misc)"
command -v apt-get >/dev/null 2>&1 || skip "no apt-get: not a Debian-like machine"
grep -rqsE '(URIs:|deb) +https?://[^ ]+/debian/?' /etc/apt/sources.list /etc/apt/sources.list.d/ \
  || skip "no Debian package registry in this machine's apt sources"
find_tool

t0=$(date +%s)
"$tool" create arm64 "$root" || die "cannot create the arm64 root in $root"
command -v rsync >/dev/null 2>&1 || { apt-get install -y -qq rsync >/dev/null 2>&1 \
  || { apt-get update -qq >/dev/null 2>&1; apt-get install -y -qq rsync >/dev/null 2>&1; } || die "no rsync"; }
rm -rf "$root/root/companion"
mkdir -p "$root/root/companion"
rsync -a --exclude .venv --exclude .git --exclude '__pycache__' --exclude '*.egg-info' \
  --exclude .pytest_cache --exclude build "$here/" "$root/root/companion/" || die "cannot copy the tree"
echo "arm64-check: tree copied to $root/root/companion; setting up the venv (slow under emulation)"

q=$(printf ' %q' "${pytest_args[@]}")
# Python inside writes its bytecode (the copied tree is thrown away): with PYTHONDONTWRITEBYTECODE set
# (as on some CI machines) each of the suite's ~190 companion processes compiled every module it
# imports again, on the emulated CPU; an installed box has its .pyc files, as pip writes them.
env -u PYTHONDONTWRITEBYTECODE "$tool" run "$root" -- /bin/sh -c "
  set -e
  cd /root/companion
  uname -m
  python3 -c 'import ensurepip' 2>/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv; }
  python3 --version
  need=
  for p in swig gcc python3-dev openssl; do
    dpkg-query -W -f '\${Status}' \$p 2>/dev/null | grep -q 'install ok installed' || need=1
  done
  if [ -n \"\$need\" ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends swig gcc python3-dev openssl >/dev/null
  fi
  python3 -m venv .venv
  pip_start=\$(date +%s)
  .venv/bin/pip install -q '.[test]'
  ./install.sh --lgpio .venv
  echo \"arm64-check: venv and lgpio ready after \$((\$(date +%s) - pip_start)) s\"
  .venv/bin/python -c 'import lgpio, gpiozero; print(\"arm64-check: lgpio\", lgpio.LGPIO_PY_VERSION if hasattr(lgpio, \"LGPIO_PY_VERSION\") else \"\", \"imports\")' \\
    || { echo 'arm64-check: lgpio does not import: the Pi GPIO backend is missing'; exit 3; }
  start=\$(date +%s)
  rc=0
  .venv/bin/python -m pytest$q || rc=\$?
  echo \"arm64-check: pytest exit \$rc after \$((\$(date +%s) - start)) s\"
  exit \$rc
"
rc=$?
echo "arm64-check: done in $(( $(date +%s) - t0 )) s, exit $rc"
exit $rc
