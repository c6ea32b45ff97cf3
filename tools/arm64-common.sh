# arm64-common.sh: what tools/arm64-check.sh and tools/arm64-bench.sh share; sourced, not run:
#   me=NAME; source "$(dirname "$0")/arm64-common.sh" "$@"
# It reads their arguments ([ROOT_DIR] [-- ARGS...]) into `root` (default /var/tmp/arm64root)
# and the array `args`, sets `here` (the checkout), and gives skip/die (their SKIP and error
# lines, exit 0 and 2) and find_tool (the debian-root tool into `tool`, or SKIP).

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
root=/var/tmp/arm64root
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
