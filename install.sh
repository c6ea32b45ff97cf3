#!/usr/bin/env bash
# Install (or upgrade) the Clans companion from this checkout as a systemd kiosk service.
#
#   sudo ./install.sh
#
# On Raspberry Pi OS Trixie and plain Debian 13 (trixie), the targets (64-bit; 32-bit works
# through piwheels); Bookworm (Debian 12) still works. Re-run it after `git pull` to upgrade:
# every step leaves what is already right alone. It never touches the state directory
# (/var/lib/companion: the journal and the game in progress), and a running service is
# restarted on the new code and resumes that game.
#
# Steps: apt packages; the venv /opt/companion/venv (root-owned) with this checkout
# pip-installed into it; on a Raspberry Pi only, lgpio in the venv (apt's python3-lgpio,
# PyPI's wheel, or on Python 3.13 without either its sdist built with swig and gcc, which
# are removed again), the udev rule that gives /dev/gpiochip* to group gpio, the firmware
# fragment (firmware_config/config.txt into /boot/firmware/config.txt, once) and the i2c-dev
# module at boot; then `companion install-service --allow-poweroff` (the unit, the
# `companion` user, the hardware groups, the starter config, the polkit rule, and the phone
# view: its unit, on with the avahi announcement only when the config has web: {enabled: true}).
#
# Internal, for the tests: ./install.sh --firmware-only CONFIG_TXT MODULES_CONF
# runs only the firmware step against those two files (no root needed), and
# ./install.sh --udev-only RULES_DIR only puts the udev rule into RULES_DIR.
# Internal, for tools/image/build.sh: ./install.sh --image runs inside the image's root
# (a chroot, no systemd running): the same steps as on a Pi.
# Internal, for the image and tools/arm64-check.sh: ./install.sh --lgpio VENV (as root) only
# makes lgpio import in VENV, the way the install does.
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

# --- the Pi's own devices for the service's user ---------------------------------------------

# udev_rule RULES_DIR: /dev/gpiochip* to group gpio (Debian has no rule: root-only 0600). The
# i2c side comes from Debian's i2c-tools (60-i2c-tools.rules, group i2c). Sets UDEV_CHANGED=1.
UDEV_RULE=60-companion-gpio.rules
UDEV_CHANGED=0
udev_rule() {
  local dir=$1
  if cmp -s "$SRC/systemd/$UDEV_RULE" "$dir/$UDEV_RULE"; then
    say "$dir/$UDEV_RULE: unchanged"
  else
    mkdir -p "$dir"
    install -m 644 "$SRC/systemd/$UDEV_RULE" "$dir/$UDEV_RULE"
    say "wrote $dir/$UDEV_RULE (/dev/gpiochip* to group gpio, for the buttons)"
    UDEV_CHANGED=1
  fi
}

# ensure_lgpio VENV: make `import lgpio` work in VENV. Raspberry Pi OS's python3-lgpio (seen through
# --system-site-packages) or PyPI's wheel (CPython <= 3.12) need nothing more. PyPI has no
# wheel for Python 3.13 (Debian 13) and Debian no python3-lgpio, so the sdist is built with
# PYPI=1: a module linked statically with lgpio's own C library (without it, setup.py wants a
# system liblgpio that Debian lacks). The build packages it installs are removed afterwards.
ensure_lgpio() {
  local venv=$1 before added=() p
  if "$venv/bin/python" -c 'import lgpio' 2>/dev/null; then
    say "lgpio: imports in $venv"
    return 0
  fi
  if "$venv/bin/pip" install -q --disable-pip-version-check --root-user-action=ignore \
       --only-binary lgpio "${PIP_EXTRA[@]}" 'lgpio>=0.2.2' 2>/dev/null; then
    say "lgpio: PyPI's wheel installed into $venv"
    return 0
  fi
  say "lgpio: no wheel for $("$venv/bin/python" -c 'import sys; print("Python %d.%d" % sys.version_info[:2])'):" \
    "building it from PyPI's source with its own C library (swig, gcc, python3-dev; a few minutes)"
  before=$(dpkg-query -W -f '${Package}\n' | sort)
  for p in swig gcc python3-dev; do
    dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || added+=("$p")
  done
  if [ ${#added[@]} -gt 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${added[@]}" >/dev/null \
      || die "apt-get install ${added[*]} failed: lgpio (the GPIO buttons) cannot be built"
  fi
  local rc=0 want=('lgpio>=0.2.2') lock=$SRC/tools/image/requirements.lock
  if [ $IMAGE = 1 ] && [ -f "$lock" ]; then
    # the image: the lock's lgpio, its source checked against PyPI's SHA-256 there (its marker,
    # Python < 3.13, left out: this is the Python it has no wheel for)
    awk '/^lgpio==/ {on=1; sub(/ *;[^\\]*/, " ")} on && !/^ *#/ {print} on && !/\\$/ {exit}' "$lock" > "$BUILD/lgpio.req"
    grep -q -- '--hash=sha256:' "$BUILD/lgpio.req" || die "tools/image/requirements.lock has no lgpio: run tools/image/lock.sh"
    want=(--require-hashes -r "$BUILD/lgpio.req")
  fi
  PYPI=1 "$venv/bin/pip" install -q --disable-pip-version-check --root-user-action=ignore --no-cache-dir \
    --no-binary lgpio "${PIP_EXTRA[@]}" "${want[@]}" || rc=$?
  if [ ${#added[@]} -gt 0 ]; then
    # exactly what this step brought in (build packages and their dependencies), nothing else
    mapfile -t added < <(comm -13 <(echo "$before") <(dpkg-query -W -f '${Package}\n' | sort))
    say "removing the build packages again: ${added[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq "${added[@]}" >/dev/null \
      || say "warning: could not remove ${added[*]}; sudo apt-get purge them by hand"
  fi
  if [ $rc != 0 ] || ! "$venv/bin/python" -c 'import lgpio'; then
    die "lgpio did not build in $venv: the GPIO buttons cannot work (see docs/box.md, lgpio)"
  fi
  say "lgpio: built and installed into $venv"
}

REBOOT=0
if [ "${1:-}" = --udev-only ]; then
  [ $# = 2 ] || die "usage: $0 --udev-only RULES_DIR"
  udev_rule "$2"
  exit 0
fi
if [ "${1:-}" = --firmware-only ]; then
  [ $# = 3 ] || die "usage: $0 --firmware-only CONFIG_TXT MODULES_CONF"
  firmware "$2" "$3"
  echo "reboot=$REBOOT"
  exit 0
fi
IMAGE=0
LGPIO_ONLY=
case ${1:-} in
  -h|--help) sed -n '2,/^# Internal/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  --image) IMAGE=1 ;;
  --lgpio) [ $# = 2 ] || die "usage: $0 --lgpio VENV"; LGPIO_ONLY=$2 ;;
  "") ;;
  *) die "unknown argument $1 (see --help)" ;;
esac

# --- checks ---------------------------------------------------------------------------------
[ "$(id -u)" = 0 ] || die "run it as root: sudo $0"
command -v apt-get >/dev/null || die "apt-get not found: install.sh is for Debian / Raspberry Pi OS"
if [ $IMAGE = 0 ] && [ -z "$LGPIO_ONLY" ] && { ! command -v systemctl >/dev/null || [ ! -d /run/systemd/system ]; }; then
  die "systemd is not running here: the companion is a systemd service"
fi
# shellcheck disable=SC1091
. /etc/os-release
case ${VERSION_CODENAME:-} in
  trixie|bookworm) ;;
  *) say "warning: made for Debian 13 / Raspberry Pi OS Trixie (Bookworm works too), this is" \
       "${PRETTY_NAME:-unknown}; trying anyway" ;;
esac

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
if [ -n "$LGPIO_ONLY" ]; then
  ensure_lgpio "$LGPIO_ONLY"
  exit 0
fi

# --- apt --------------------------------------------------------------------------------------
# python3-venv: the venv; i2c-tools: i2cdetect, to see the OLED; polkitd: lets the service
# power the machine off (the rule install-service writes); espeak-ng: the table's voice (offline,
# en it es fr de; off until the config or the menu turns speech on); i2c-tools also brings
# Debian's udev rule for /dev/i2c-* (group i2c). On a Pi, python3-lgpio where the archive has it
# (Raspberry Pi OS; plain Debian has none: the lgpio step below builds it): gpiozero's backend.
# Off x86_64, python3-evdev (the USB number pad): PyPI has no wheel there, so pip would need
# gcc and python3-dev; the venv sees apt's (--system-site-packages) and takes it instead.
# Not avahi-daemon: Raspberry Pi OS has it (it publishes <hostname>.local), and install-service
# puts the phone view's announcement into /etc/avahi/services when that directory exists;
# elsewhere `apt-get install avahi-daemon` and run this again.
PKGS=(python3 python3-venv i2c-tools polkitd espeak-ng)
if [ $PI = 1 ] && [ $IMAGE = 0 ] && apt-cache show python3-lgpio >/dev/null 2>&1; then
  PKGS+=(python3-lgpio)
fi
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
LOCK=$SRC/tools/image/requirements.lock
if [ $IMAGE = 1 ] && [ -f "$LOCK" ]; then
  # The image: exactly the lock's packages, each file checked against PyPI's SHA-256 in the lock
  # (tools/image/lock.sh), then the companion itself without dependencies.
  say "pip install --require-hashes -r tools/image/requirements.lock into $VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check --root-user-action=ignore --require-hashes \
    -r "$LOCK"
  say "pip install $SRC into $VENV (its dependencies from the lock)"
  "$VENV/bin/pip" install -q --upgrade --disable-pip-version-check --root-user-action=ignore --no-deps "$BUILD"
else
  # With the camera's libraries, as the image has them (the extra `camera`): linuxpy reads a USB
  # webcam, OpenCV and numpy find the board in its pictures. They come only as wheels (a build of
  # OpenCV from source would take hours on a Pi); where none fits, the webcam's library alone.
  say "pip install $SRC[camera] into $VENV (a USB camera's libraries with it)"
  "$VENV/bin/pip" install -q --upgrade --disable-pip-version-check --root-user-action=ignore \
    --only-binary opencv-python-headless,numpy "${PIP_EXTRA[@]}" "$BUILD[camera]" \
  || { say "no OpenCV wheel here: the webcam's library alone (the board's corners are tapped on the page)"
       "$VENV/bin/pip" install -q --upgrade --disable-pip-version-check --root-user-action=ignore \
         "${PIP_EXTRA[@]}" "$BUILD[webcam]"; }
fi
# gpiozero's backend on a Pi (Python 3.13 without python3-lgpio: built from its source)
[ $PI = 1 ] && ensure_lgpio "$VENV"
chown -R root:root "$PREFIX"
chmod -R go-w "$PREFIX"
say "installed: $("$VENV/bin/python" -c 'from importlib.metadata import version; print("clans-companion", version("clans-companion"))')"

# --- the GPIO chips' udev rule, the firmware ------------------------------------------------------
if [ $PI = 1 ]; then
  udev_rule /etc/udev/rules.d
  if [ $UDEV_CHANGED = 1 ] && [ $IMAGE = 0 ] && command -v udevadm >/dev/null; then
    udevadm control --reload-rules || true
    udevadm trigger --subsystem-match=gpio --action=change || true
  fi
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
