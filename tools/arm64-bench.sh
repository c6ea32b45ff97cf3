#!/usr/bin/env bash
# arm64-bench.sh: `companion bench` in an aarch64 Debian Bookworm root under qemu-user
# emulation (the Pi's CPU and OS release), so start-up and the bot's turns are judged where
# they matter: by default the cold start to the first frame and `companion replay` as ratios
# to the bare interpreter's start under the same emulation (target: ratio <= 4);
# `-- --only bot` the search bot's iterations per second and its longest turn past the
# box's move time (target: at most 10% over).
#
#   tools/arm64-bench.sh [ROOT_DIR] [-- BENCH_ARGS...]     (default: --only cold --runs 5)
#
# ROOT_DIR defaults to /var/tmp/arm64root, the root tools/arm64-check.sh makes and leaves with
# a venv at ROOT_DIR/root/companion/.venv holding every dependency. The tree (no .venv, .git,
# build) is synced over the copy there, keeping that venv; its catalogs are compiled to .mo as a
# wheel has them, and the bench runs the synced tree with PYTHONPATH (no build, no network: that
# venv has no `wheel` for `pip install .`, and the installed copy there is the last CI run's).
# The bench's JSON object is printed on the last line.
# Exit: the bench's status; 0 with a SKIP line when this machine cannot do it (not root, no
# debian-root tool, no root or venv made by arm64-check.sh yet); 2 on a set-up failure.
set -uo pipefail

me=arm64-bench
# shellcheck source=tools/arm64-common.sh
source "$(dirname "$0")/arm64-common.sh" "$@"
bench_args=("${args[@]}")
[ ${#bench_args[@]} -gt 0 ] || bench_args=(--only cold --runs 5)

[ "$(id -u)" = 0 ] || skip "needs root (chroot, binfmt_misc)"
command -v qemu-aarch64-static >/dev/null 2>&1 || [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] \
  || skip "no qemu-aarch64 (qemu-user-static) on this machine"
find_tool
[ -f "$root/.debian-root" ] || skip "no aarch64 root in $root yet (tools/arm64-check.sh makes it)"
[ -x "$root/root/companion/.venv/bin/python" ] \
  || skip "no venv in $root/root/companion/.venv yet (tools/arm64-check.sh makes it)"
command -v rsync >/dev/null 2>&1 || die "no rsync"

t0=$(date +%s)
"$tool" create arm64 "$root" >/dev/null || die "cannot reuse the arm64 root in $root"
rsync -a --delete --exclude /.venv --exclude .git --exclude '__pycache__' --exclude '*.egg-info' \
  --exclude .pytest_cache --exclude /build "$here/" "$root/root/companion/" || die "cannot copy the tree"
echo "arm64-bench: tree synced to $root/root/companion; benchmarking (a few minutes under emulation)"

q=$(printf ' %q' "${bench_args[@]}")
"$tool" run "$root" -- /bin/sh -c "
  set -e
  cd /root/companion
  echo \"arm64-bench: \$(uname -m), \$(.venv/bin/python -V)\"
  .venv/bin/python -c 'import importlib.util, pathlib
spec = importlib.util.spec_from_file_location(\"i18n_tool\", \"tools/i18n.py\")
tool = importlib.util.module_from_spec(spec); spec.loader.exec_module(tool)
tool.compile_all(pathlib.Path(\"companion/locale\"))'
  cd /tmp
  PYTHONPATH=/root/companion /root/companion/.venv/bin/python -m companion bench$q
"
rc=$?
echo "arm64-bench: done in $(( $(date +%s) - t0 )) s, exit $rc"
exit $rc
