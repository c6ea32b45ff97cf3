# arm64-common.sh: what tools/arm64-check.sh and tools/arm64-bench.sh share; sourced, not run:
#   me=NAME; source "$(dirname "$0")/arm64-common.sh" "$@"
# It reads their arguments ([ROOT_DIR] [-- ARGS...]) into `root` and the array `args`, sets
# `here` (the checkout), and gives skip/die (their SKIP and error lines, exit 0 and 2) and
# find_tool (the debian-root tool into `tool`, or SKIP).
# DEBIAN_SUITE picks the release (exported for debian-root): trixie (Debian 13, the stable
# release and the box's target; the default, root /var/tmp/arm64root-trixie) or bookworm
# (Debian 12; root /var/tmp/arm64root, the one made before trixie).

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export DEBIAN_SUITE=${DEBIAN_SUITE:-trixie}
# The CPU qemu-user emulates: the Pi 3's and Zero 2 W's Cortex-A53. Its default ("max") has
# pointer authentication, which Debian 13's arm64 binaries use on every call and return
# (-mbranch-protection) and which QEMU 7.2 computes in software: Python ran 8.5 times slower
# there (3.3 s against 0.39 s for the same loop, measured here). An A53 has none, as the Pi.
export QEMU_CPU=${QEMU_CPU:-cortex-a53}
case $DEBIAN_SUITE in
  trixie) root=/var/tmp/arm64root-trixie ;;
  bookworm) root=/var/tmp/arm64root ;;
  *) echo "${me:-arm64}: DEBIAN_SUITE must be trixie or bookworm, not '$DEBIAN_SUITE'" >&2; exit 2 ;;
esac
if [ $# -gt 0 ] && [ "$1" != -- ]; then root=$1; shift; fi
[ "${1:-}" = -- ] && shift
args=("$@")

skip() { echo "$me: SKIP: $*"; exit 0; }
die() { echo "$me: $*" >&2; exit 2; }

find_tool() {
  tool=${DEBIAN_ROOT:-}
  local t
  for t in "$tool" "$here/../shared/tools/debian-root" "$(command -v debian-root 2>/dev/null)"; do
    [ -n "$t" ] && [ -x "$t" ] && { tool=$t; break; }
  done
  [ -n "$tool" ] && [ -x "$tool" ] || skip "no debian-root tool (set DEBIAN_ROOT=/path/to/debian-root)"
}
