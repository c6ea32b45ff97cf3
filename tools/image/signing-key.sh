#!/usr/bin/env bash
# signing-key.sh: print the path of the private key that signs this build's update bundles.
#
#   tools/image/signing-key.sh          (build.sh runs it; so can you, to see which key it would use)
#
# UPDATE_KEY=PRIVATE.pem when it is set; else this machine's own key, made at the first build in
# ${COMPANION_KEY_DIR:-~/.config/clans-companion}/update-key.pem (outside the repository: a key in a
# checkout is a key anyone can copy) and reused by every later build here. Refused, exit 2: a key
# openssl cannot read, and the repository's TEST key (tests/update/keys), whose private half anyone
# has. What it made or chose is said on standard error; only the path goes to standard output.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
die() { printf 'image: error: %s\n' "$*" >&2; exit 2; }
say() { printf 'image: %s\n' "$*" >&2; }
command -v openssl >/dev/null || die "openssl is missing (apt-get install openssl)"
if [ -n "${UPDATE_KEY:-}" ]; then
  key=$UPDATE_KEY
  [ -r "$key" ] && [ -f "$key" ] || die "UPDATE_KEY $key cannot be read"
else
  dir=${COMPANION_KEY_DIR:-${HOME:-/root}/.config/clans-companion}
  key=$dir/update-key.pem
  if [ ! -e "$key" ]; then
    mkdir -p "$dir" && chmod 700 "$dir" || die "cannot make $dir for the update key (set UPDATE_KEY=PRIVATE.pem)"
    (umask 077 && openssl genpkey -algorithm ed25519 -out "$key.tmp" 2>/dev/null && mv "$key.tmp" "$key") \
      || die "cannot make an update key in $dir (set UPDATE_KEY=PRIVATE.pem)"
    say "made this machine's update key $key: keep a copy somewhere safe; boxes built with it take only bundles it signs"
  fi
  say "signing with this machine's update key $key (UPDATE_KEY=PRIVATE.pem signs with another)"
fi
pub=$(openssl pkey -in "$key" -pubout 2>/dev/null) \
  || die "UPDATE_KEY $key is not a private key openssl reads (make one: openssl genpkey -algorithm ed25519 -out key.pem)"
test_pub=$(openssl pkey -in "$src/tests/update/keys/test-update-key.pem" -pubout 2>/dev/null || true)
[ "$pub" != "$test_pub" ] || die "$key is the repository's TEST key, whose private half anyone has: use a key of your own"
printf '%s\n' "$key"
