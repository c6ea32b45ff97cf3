#!/usr/bin/env bash
# Install (or upgrade) the Clans companion from this checkout as a systemd kiosk service.
#
#   sudo ./install.sh
#
# On Raspberry Pi OS Bookworm (64-bit is the target; 32-bit works through piwheels) and on
# plain Debian Bookworm. Re-run it after `git pull` to upgrade: every step leaves what is
# already right alone. It never touches the state directory (/var/lib/companion: the
# journal and the game in progress), and a running service is restarted on the new code
# and resumes that game.
#
# Steps: apt packages; the venv /opt/companion/venv (root-owned) with this checkout
# pip-installed into it; on a Raspberry Pi only, the firmware fragment
# (firmware_config/config.txt into /boot/firmware/config.txt, once) and the i2c-dev
# module at boot; then `companion install-service --allow-poweroff` (the unit, the
# `companion` user, the hardware groups, the starter config, the polkit rule, and the phone
# view: its unit, on with the avahi announcement only when the config has web: {enabled: true}).
#
# Internal, for the tests: ./install.sh --firmware-only CONFIG_TXT MODULES_CONF
# runs only the firmware step against those two files (no root needed).
# Internal, for tools/image/build.sh: ./install.sh --image runs inside the image's root
# (a chroot, no systemd running): the same steps as on a Pi, lgpio from PyPI's wheel.
set -euo pipefail
umask 022

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PREFIX=/opt/companion
VENV=$PREFIX/venv
BEGIN_MARK="# >>> companion (install.sh writes this block; a re-run replaces it)"
END_MARK="# <<< companion"

say() { printf 'install.sh: %s\n' "$*"; }
die() { printf 'install.sh: error: %s\n' "$*" >&2; exit 1; }

# --- firmware (Raspberry Pi only) -----------------------------------------------------------

# put_block CONFIG_TXT FRAGMENT: the fragment between the markers, exactly once. Prints
# "unchanged", "added" or "replaced".
put_block() {
  python3 - "$1" "$2" "$BEGIN_MARK" "$END_MARK" <<'EOF'
import os, sys, time
path, fragment, begin, end = sys.argv[1:5]
with open(fragment, encoding="utf-8") as f:
    block = begin + "\n" + f.read().rstrip("\n") + "\n" + end + "\n"
try:
    with open(path, encoding="utf-8") as f:
        text = f.read()
except FileNotFoundError:
    text = ""
lines = text.splitlines(keepends=True)
starts = [i for i, l in enumerate(lines) if l.startswith(begin.split(" (")[0])]
if starts:
    i = starts[0]
    j = next((k for k in range(i, len(lines)) if lines[k].rstrip("\n") == end), None)
    if j is None:
        sys.exit(f"{path}: '{begin}' without '{end}': fix the file by hand")
    new = "".join(lines[:i]) + block + "".join(lines[j + 1:])
    what = "replaced"
elif "# Clans companion: append to /boot/firmware/config.txt" in text:
    print("by-hand")  # appended by the old manual steps: the same settings, leave them
    sys.exit(0)
else:
    if text and not text.endswith("\n"):
        text += "\n"
    new = text + ("\n" if text else "") + block
    what = "added"
if new == text:
    print("unchanged")
    sys.exit(0)
if os.path.exists(path):
    backup = path + ".bak-" + time.strftime("%Y%m%dT%H%M%S")
    with open(path, "rb") as src, open(backup, "wb") as dst:
        dst.write(src.read())
tmp = path + ".companion-tmp"
with open(tmp, "w", encoding="utf-8") as f:
    f.write(new)
    f.flush()
    os.fsync(f.fileno())
try:  # keep the file's mode (chmod may be refused on the FAT boot partition)
    os.chmod(tmp, os.stat(path).st_mode & 0o7777 if os.path.exists(path) else 0o644)
except OSError:
    pass
os.replace(tmp, path)
print(what)
EOF
}

# firmware CONFIG_TXT MODULES_CONF: sets REBOOT=1 when something changed.
firmware() {
  local config_txt=$1 modules_conf=$2 result
  result=$(put_block "$config_txt" "$SRC/firmware_config/config.txt") || die "could not update $config_txt"
  case $result in
    unchanged) say "$config_txt: the companion block is already there" ;;
    by-hand) say "$config_txt: has the fragment appended by hand before; left as it is" ;;
    *) say "$config_txt: companion block $result (the previous file kept as $config_txt.bak-*)"; REBOOT=1 ;;
  esac
  if cmp -s "$SRC/firmware_config/modules-load.conf" "$modules_conf"; then
    say "$modules_conf: unchanged"
  else
    mkdir -p "$(dirname "$modules_conf")"
    install -m 644 "$SRC/firmware_config/modules-load.conf" "$modules_conf"
    say "wrote $modules_conf (loads i2c-dev at boot, for /dev/i2c-1)"
    REBOOT=1
  fi
}

REBOOT=0
if [ "${1:-}" = --firmware-only ]; then
  [ $# = 3 ] || die "usage: $0 --firmware-only CONFIG_TXT MODULES_CONF"
  firmware "$2" "$3"
  echo "reboot=$REBOOT"
  exit 0
fi
IMAGE=0
case ${1:-} in
  -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  --image) IMAGE=1 ;;
  "") ;;
  *) die "unknown argument $1 (see --help)" ;;
esac

# --- checks ---------------------------------------------------------------------------------
[ "$(id -u)" = 0 ] || die "run it as root: sudo $0"
command -v apt-get >/dev/null || die "apt-get not found: install.sh is for Debian / Raspberry Pi OS"
if [ $IMAGE = 0 ] && { ! command -v systemctl >/dev/null || [ ! -d /run/systemd/system ]; }; then
  die "systemd is not running here: the companion is a systemd service"
fi
# shellcheck disable=SC1091
. /etc/os-release
[ "${VERSION_CODENAME:-}" = bookworm ] \
  || say "warning: made for Debian / Raspberry Pi OS Bookworm, this is ${PRETTY_NAME:-unknown}; trying anyway"

PI=0
if [ -r /proc/device-tree/model ] && tr -d '\0' < /proc/device-tree/model | grep -q '^Raspberry Pi'; then
  PI=1
  MODEL=$(tr -d '\0' < /proc/device-tree/model)
elif [ $IMAGE = 1 ]; then
  PI=1
  MODEL="the SD-card image (Raspberry Pi 3, 4, Zero 2 W)"
fi
ARCH=$(uname -m)
PIP_EXTRA=()
case $ARCH in
  armv7l|armv6l)
    say "32-bit ARM ($ARCH): Pillow and friends come from piwheels (https://www.piwheels.org);"
    say "64-bit Raspberry Pi OS is the tested target"
    PIP_EXTRA=(--extra-index-url https://www.piwheels.org/simple) ;;
esac

# --- apt --------------------------------------------------------------------------------------
# python3-venv: the venv; i2c-tools: i2cdetect, to see the OLED; polkitd: lets the service
# power the machine off (the rule install-service writes); espeak-ng: the table's voice (offline,
# en it es fr de; off until the config or the menu turns speech on). On a Pi, python3-lgpio (from the
# Raspberry Pi archive): the only GPIO backend that works on the Pi 5, with its C library.
# Off x86_64, python3-evdev (the USB number pad): PyPI has no wheel there, so pip would need
# gcc and python3-dev; the venv sees apt's (--system-site-packages) and takes it instead.
# Not avahi-daemon: Raspberry Pi OS has it (it publishes <hostname>.local), and install-service
# puts the phone view's announcement into /etc/avahi/services when that directory exists;
# elsewhere `apt-get install avahi-daemon` and run this again.
PKGS=(python3 python3-venv i2c-tools polkitd espeak-ng)
# (Debian has no python3-lgpio: the image takes lgpio's aarch64 wheel from PyPI, as pip does off a Pi.)
[ $PI = 1 ] && [ $IMAGE = 0 ] && PKGS+=(python3-lgpio)
[ "$ARCH" != x86_64 ] && PKGS+=(python3-evdev)
MISSING=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || MISSING+=("$p")
done
if [ ${#MISSING[@]} -gt 0 ]; then
  say "apt-get install ${MISSING[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${MISSING[@]}" >/dev/null
else
  say "apt packages already installed: ${PKGS[*]}"
fi

# --- the venv and the package -----------------------------------------------------------------
# Under /opt (the service's ProtectHome= hides /home), owned by root (install-service refuses
# a venv anyone else could change). --system-site-packages: the apt python3-lgpio.
if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c 'import sys; sys.exit(sys.prefix == sys.base_prefix)' 2>/dev/null; then
  say "venv $VENV: reused"
else
  [ -e "$VENV" ] && say "venv $VENV is broken (Python upgraded?): making it again"
  rm -rf "$VENV"
  mkdir -p "$PREFIX"
  python3 -m venv --system-site-packages "$VENV"
  say "venv $VENV: created"
fi
WAS_ACTIVE=0
systemctl is-active --quiet companion 2>/dev/null && WAS_ACTIVE=1
WEB_WAS_ACTIVE=0
systemctl is-active --quiet companion-web 2>/dev/null && WEB_WAS_ACTIVE=1

# Build from a copy: pip builds in the source tree, and root-owned build/ and *.egg-info
# would be left in the user's checkout.
BUILD=$(mktemp -d /tmp/companion-install.XXXXXX)
trap 'rm -rf "$BUILD"' EXIT
tar -C "$SRC" --exclude=./.git --exclude=./.venv --exclude=./build --exclude='./*.egg-info' \
  -cf - . | tar -C "$BUILD" -xf -
say "pip install $SRC into $VENV"
"$VENV/bin/pip" install -q --upgrade --disable-pip-version-check --root-user-action=ignore \
  "${PIP_EXTRA[@]}" "$BUILD"
chown -R root:root "$PREFIX"
chmod -R go-w "$PREFIX"
say "installed: $("$VENV/bin/python" -c 'from importlib.metadata import version; print("clans-companion", version("clans-companion"))')"

# --- firmware -----------------------------------------------------------------------------------
if [ $PI = 1 ]; then
  say "$MODEL: firmware steps"
  BOOT_CONFIG=/boot/firmware/config.txt
  [ -f $BOOT_CONFIG ] || BOOT_CONFIG=/boot/config.txt
  firmware "$BOOT_CONFIG" /etc/modules-load.d/companion.conf
  modprobe i2c-dev 2>/dev/null || true
else
  say "not a Raspberry Pi: skipping the firmware steps (config.txt, i2c-dev); the service runs"
  say "without an OLED or buttons and waits for a display to appear"
fi

# --- the service ----------------------------------------------------------------------------------
"$VENV/bin/companion" install-service --allow-poweroff
if [ $WAS_ACTIVE = 1 ]; then
  # It kept running the old code through the upgrade; the journal brings the game back.
  systemctl restart companion
  say "restarted companion on the new code (the game in progress resumes)"
fi
if [ $WEB_WAS_ACTIVE = 1 ] && systemctl is-enabled --quiet companion-web 2>/dev/null; then
  systemctl restart companion-web
  say "restarted companion-web (the phone view) on the new code"
fi

cat <<EOF

The companion is installed: systemctl status companion; journalctl -u companion -f
Config: /etc/companion/config.yaml (then: sudo systemctl restart companion)
Phone view: web: {enabled: true} in the config, then sudo ./install.sh again (http://$(hostname).local:8080)
Wire (hardware.md has the diagram; BCM GPIO numbers, header pins in brackets):
  OLED      VCC 3V3 [1], GND [9], SDA GPIO2 [3], SCL GPIO3 [5]   (3V3, not 5V)
  buttons   to GND: UP GPIO17 [11], DOWN GPIO27 [13], OK GPIO22 [15], BACK GPIO23 [16], MENU GPIO24 [18]
  keypad    USB; put its /dev/serial/by-id/... name into keypad.port
EOF
if [ $PI = 1 ]; then
  if [ $REBOOT = 1 ]; then
    echo "Reboot now to enable I2C (sudo reboot); then i2cdetect -y 1 shows the OLED at 3c."
  else
    echo "Firmware unchanged: no reboot needed. i2cdetect -y 1 shows the OLED at 3c."
  fi
fi
