#!/usr/bin/env bash
# build.sh: the SD-card image of the Clans companion, for Raspberry Pi 3, 4 and Zero 2 W (64-bit).
#
#   sudo tools/image/build.sh [OUT_DIR]        (default: build/image in this checkout)
#
# Debian 13 (trixie) arm64 packages (tools/image/packages.txt, from the mirror this machine's apt
# uses, with -updates, -security and non-free-firmware) and PyPI only. IMAGE_SUITE=bookworm
# builds the Debian 12 image instead. Steps, with their time printed:
#   1. root     mmdebstrap builds the arm64 root under qemu-user (no initrd yet);
#   2. inside   one small initrd, ./install.sh --image (the venv, the units, I2C, the page on),
#               the box's files (tools/image/rootfs: read-only root, settings card, network);
#   3. image    FAT boot + ext4 root + ext4 data partitions from directories (mkfs -d, mtools,
#               sfdisk: no loop devices), then xz.
# Output in OUT_DIR: clans-companion.img (raw), clans-companion.img.xz (what Raspberry Pi Imager
# or `xz -dc ... | sudo dd of=/dev/sdX bs=4M` writes), clans-companion.manifest.txt (every Debian
# and Python package in it, with versions and PyPI's hashes), clans-companion.bundle (the same
# system as a signed update, for boxes running an earlier image: UPDATE_KEY=PRIVATE.pem signs it,
# else this machine's own key, made at the first build in ~/.config/clans-companion/update-key.pem),
# clans-companion.update-key.pem (its public half, the one key the image trusts), signed-with.txt
# (which private key signed), SHA256SUMS (of the four),
# build-times.txt, and boot/ (the kernel, initrd and cmdline.txt, for booting the image in QEMU:
# tests/image).
# Needs root, binfmt_misc and the Debian registry; installs mmdebstrap, arch-test, qemu-user-static,
# dosfstools, mtools, fdisk, e2fsprogs and xz-utils with apt-get when they are missing.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
out=${1:-$src/build/image}
name=clans-companion
say() { printf 'image: %s\n' "$*"; }
die() { printf 'image: error: %s\n' "$*" >&2; exit 2; }

[ "$(id -u)" = 0 ] || die "run it as root: sudo $0"
command -v apt-get >/dev/null || die "apt-get not found: build on Debian or Ubuntu"
need() {  # need COMMAND PACKAGE
  command -v "$1" >/dev/null 2>&1 && return 0
  say "apt-get install $2"
  { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$2" >/dev/null 2>&1; } || {
    apt-get update -qq >/dev/null 2>&1
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$2" >/dev/null 2>&1
  } || die "apt-get install $2 failed"
}
need mmdebstrap mmdebstrap
# mmdebstrap's recommends are not installed: it needs arch-test to build for a foreign architecture
# ("E: install arch-test for foreign architecture support" on a fresh Debian 12)
need arch-test arch-test
need qemu-aarch64-static qemu-user-static
need update-binfmts binfmt-support
need mkfs.vfat dosfstools
need mcopy mtools
need sfdisk fdisk
need mkfs.ext4 e2fsprogs
need xz xz-utils
need openssl openssl
# The key update bundles must be signed with (companion/update), chosen before anything is built:
# UPDATE_KEY, else this machine's own key (tools/image/signing-key.sh says which, and why).
update_key=$("$here/signing-key.sh") || exit 2
pub=$(openssl pkey -in "$update_key" -pubout)
[ -e /proc/sys/fs/binfmt_misc/register ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 \
  || die "cannot register qemu-aarch64 with binfmt_misc (a container without it cannot run arm64 programs)"
# The CPU qemu-user emulates for every arm64 program the build runs (apt's scripts, lgpio's build):
# the Pi 3's Cortex-A53. QEMU's default ("max") has pointer authentication, which Debian 13's
# binaries use on every call and return and QEMU 7.2 computes in software: Python ran 7 times
# slower (3.7 s against 0.52 s for one loop in this build's root). What is built is the same.
export QEMU_CPU=${QEMU_CPU:-cortex-a53}

mirror=$(grep -rhoE '(URIs:|deb) +https?://[^ ]+/debian/?' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null \
  | grep -v security | head -1 | awk '{print $2}' || true)
[ -n "$mirror" ] || die "no Debian mirror in this machine's apt sources"
security=${mirror%/debian*}/debian-security
suite=${IMAGE_SUITE:-trixie}
case $suite in trixie|bookworm) ;; *) die "IMAGE_SUITE must be trixie or bookworm, not '$suite'";; esac

mkdir -p "$out"
work=$out/work
root=$work/root
t_start=$(date +%s)
lap() { local now; now=$(date +%s); printf '%-8s %5d s\n' "$1" $((now - t_lap)) >> "$out/build-times.txt"; say "$1: $((now - t_lap)) s"; t_lap=$now; }
: > "$out/build-times.txt"
t_lap=$t_start

unmount_all() {
  for m in dev/pts dev sys proc run; do mountpoint -q "$root/$m" 2>/dev/null && umount -l "$root/$m"; done
  return 0
}
trap unmount_all EXIT

# --- 1. the root ------------------------------------------------------------------------------
# A build stopped half-way can leave its chroot's mounts behind: unmount them before removing.
grep -o " $work/[^ ]*" /proc/mounts | sort -r | xargs -r -n1 umount -l 2>/dev/null || true
rm -rf "$work"
mkdir -p "$work"
pkgs=$(grep -v '^#' "$here/packages.txt" | grep . | paste -sd, -)
stamp=$( (cat "$here/packages.txt"; echo "$mirror $suite") | sha256sum | cut -c1-16)
cache=${IMAGE_ROOT_CACHE:-}  # developers: a directory that keeps step 1's root between builds
if [ -n "$cache" ] && [ "$(cat "$cache/.image-root" 2>/dev/null)" = "$stamp" ]; then
  say "step 1 from the cache $cache (packages.txt unchanged)"
  cp -a "$cache" "$root"
  rm -f "$root/.image-root"
  lap root
else
say "mmdebstrap arm64 $suite from $mirror (under qemu-user: slow)"
# update-initramfs is diverted while the packages install: the kernel and raspi-firmware would
# each build an initrd with every driver (MODULES=most), twice the build's longest step.
mmdebstrap --architectures=arm64 --variant=minbase --components=main,non-free-firmware \
  --include="$pkgs" --aptopt='APT::Install-Recommends "false"' \
  --essential-hook='chroot "$1" dpkg-divert --quiet --local --rename --add /usr/sbin/update-initramfs;
    printf "#!/bin/sh\nexit 0\n" > "$1/usr/sbin/update-initramfs"; chmod 755 "$1/usr/sbin/update-initramfs";
    mkdir -p "$1/boot/firmware"' \
  "$suite" "$root" "deb $mirror $suite main non-free-firmware" \
  "deb $mirror $suite-updates main non-free-firmware" \
  "deb $security $suite-security main non-free-firmware" > "$work/mmdebstrap.log" 2>&1 \
  || { tail -20 "$work/mmdebstrap.log" >&2; die "mmdebstrap failed: see $work/mmdebstrap.log"; }
lap root
if [ -n "$cache" ]; then
  rm -rf "$cache"; cp -a "$root" "$cache"; echo "$stamp" > "$cache/.image-root"
fi
fi

# --- 2. inside: initrd, the companion, the box's files ----------------------------------------
cp -a "$here/rootfs/." "$root/"
# Which bytes: the image's version and date, read by the About screen, the page and the manifest.
pkg_version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$src/pyproject.toml" | head -1)
commit=$(git -C "$src" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
git -C "$src" diff --quiet HEAD 2>/dev/null || commit="$commit+changes"
built=$(date +%s)
printf 'IMAGE_VERSION=%s\nIMAGE_DATE=%s\nIMAGE_DEBIAN=%s\nIMAGE_BUILT=%s\nIMAGE_BOARD=rpi-arm64\n' "$pkg_version-$commit" \
  "$(date -u +%Y-%m-%d)" "$suite" "$built" > "$root/usr/share/companion-box/image-version"
# The one key the image trusts: the public half of the key chosen at the start.
printf '%s\n' "$pub" > "$root/usr/share/companion-box/update-key.pem"
# Mount points: the root is read-only at boot, so systemd could not make them then.
mkdir -p "$root/root/companion-src" "$root/etc/companion" "$root/data" "$root/var/lib/companion"
tar -C "$src" --exclude=./.git --exclude=./.venv --exclude=./build --exclude='./*.egg-info' \
  --exclude='*/__pycache__' --exclude=./.pytest_cache -cf - . | tar -C "$root/root/companion-src" -xf -
cp "$here/config.yaml" "$root/etc/companion/config.yaml"
mv "$root/etc/resolv.conf" "$work/resolv.conf.image" 2>/dev/null || true
cp -L /etc/resolv.conf "$root/etc/resolv.conf"
[ -f /etc/ssl/certs/ca-certificates.crt ] && cp /etc/ssl/certs/ca-certificates.crt "$root/tmp/host-ca.crt"
mount -t proc proc "$root/proc"
mount -t sysfs sys "$root/sys"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
mount -t tmpfs tmpfs "$root/run"
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 SYSTEMD_OFFLINE=1 QEMU_CPU="$QEMU_CPU" \
  PIP_CERT=/tmp/host-ca.crt SSL_CERT_FILE=/tmp/host-ca.crt /bin/bash /root/companion-src/tools/image/inside.sh \
  > "$work/inside.log" 2>&1 || { tail -30 "$work/inside.log" >&2; die "the steps inside the root failed: see $work/inside.log"; }
unmount_all
rm -f "$root/tmp/host-ca.crt" "$root/etc/resolv.conf"
if [ -e "$work/resolv.conf.image" ] || [ -L "$work/resolv.conf.image" ]; then mv "$work/resolv.conf.image" "$root/etc/resolv.conf"; fi
rm -rf "$root/root/companion-src" "$root/var/cache/apt/"*.bin "$root/var/lib/apt/lists/"* "$root/tmp/"*
cp "$root/usr/share/companion-box/manifest.txt" "$work/manifest.txt"
lap inside

# --- 3. the partitions and the image ----------------------------------------------------------
fw=$work/firmware
data=$work/data
mv "$root/boot/firmware" "$fw"
mkdir -p "$root/boot/firmware"
cp "$root/usr/share/companion-box/companion.txt" "$fw/companion.txt"
# Two system slots (companion/update/bootstate.py): the firmware starts the kernel and initramfs
# slot.txt names (config.txt includes it where raspi-firmware named the kernel); the initramfs
# mounts that slot (2 for a, 4 for b: the first start makes 4 at the end of the card).
kver=$(ls "$root/lib/modules" | sort -V | tail -1)
mv "$fw/vmlinuz-$kver" "$fw/vmlinuz-a"
mv "$fw/initrd.img-$kver" "$fw/initrd-a.img"
grep -q "^kernel=vmlinuz-$kver\$" "$fw/config.txt" || die "config.txt does not name the kernel vmlinuz-$kver"
sed -i -e "s/^kernel=vmlinuz-$kver\$/include slot.txt/" -e "/^initramfs initrd.img-$kver/d" "$fw/config.txt"
printf 'kernel=vmlinuz-a\ninitramfs initrd-a.img\n' > "$fw/slot.txt"
printf '%-63s\n' none > "$fw/try.txt"
# A kernel that panics restarts after 10 s: the initramfs's count then sends a new slot back.
sed -i 's/ rootwait/ rootwait panic=10/' "$fw/cmdline.txt"
rm -f "$fw"/config.txt.bak-*  # install.sh keeps a copy of config.txt it changes: not on a new card
# The data partition's first contents: what the read-only root binds from it (/etc/fstab).
cid=$(chroot "$root" id -u companion) gid=$(chroot "$root" id -g companion)
mkdir -p "$data/companion" "$data/box/etc-companion" "$data/box/systemd" "$data/box/log-journal"
chown "$cid:$gid" "$data/companion"; chmod 700 "$data/companion"
cp -a "$root/etc/companion/." "$data/box/etc-companion/"
find "$root/etc/companion" -mindepth 1 -delete
cp -a "$root/var/lib/systemd/." "$data/box/systemd/"
ln -s /usr/share/zoneinfo/UTC "$data/box/localtime"
echo UTC > "$data/box/timezone"
# The same first contents on the root: companion-data puts them on a stand-in in RAM when a card
# has no data partition, so the box still plays.
cp -a "$data" "$root/usr/share/companion-box/data-skel"
mkdir -p "$out/boot"
cp "$root/boot/vmlinuz-$kver" "$out/boot/vmlinuz"
cp "$root/boot/initrd.img-$kver" "$out/boot/initrd.img"
cp "$fw/cmdline.txt" "$out/boot/cmdline.txt"

mib() { echo $(( ($1 + 1048575) / 1048576 )); }
# Fixed sizes and places, the same in every version: update-card.sh writes a new image's
# partitions 1 and 2 over a card's and keeps its data partition (3, grown at first boot).
boot_mb=256
root_mb=1536
data_mb=64
root_used=$(du -sb --apparent-size "$root" | cut -f1)
[ $(( $(mib "$root_used") * 110 / 100 )) -lt $root_mb ] \
  || die "the root holds $(mib "$root_used") MiB: more than the ${root_mb} MiB partition keeps room for"
rm -f "$work"/*.part
mkfs.vfat -n CLANSBOOT -F 32 -C "$work/boot.part" $((boot_mb * 1024)) >/dev/null
mcopy -s -p -m -i "$work/boot.part" "$fw"/* ::/
mkfs.ext4 -q -L clans-root -d "$root" -m 0 "$work/root.part" "${root_mb}M" >/dev/null
mkfs.ext4 -q -L clans-data -d "$data" -m 0 "$work/data.part" "${data_mb}M" >/dev/null
img=$out/$name.img
rm -f "$img" "$img.xz"
start=4  # MiB before the first partition, as Raspberry Pi OS leaves it
total=$((start + boot_mb + root_mb + data_mb))
truncate -s "${total}M" "$img"
sfdisk -q "$img" <<EOF
label: dos
start=${start}MiB, size=${boot_mb}MiB, type=c, bootable
start=$((start + boot_mb))MiB, size=${root_mb}MiB, type=83
start=$((start + boot_mb + root_mb))MiB, size=${data_mb}MiB, type=83
EOF
dd if="$work/boot.part" of="$img" bs=1M seek=$start conv=notrunc,sparse status=none
dd if="$work/root.part" of="$img" bs=1M seek=$((start + boot_mb)) conv=notrunc,sparse status=none
dd if="$work/data.part" of="$img" bs=1M seek=$((start + boot_mb + root_mb)) conv=notrunc,sparse status=none
lap image
xz -T0 -3 -k "$img"
lap xz
# The update bundle of this very system: what a box already running an earlier image installs
# (companion update; README, "Updates"), signed with UPDATE_KEY.
python3 "$here/bundle.py" --system "$work/root.part" --kernel "$out/boot/vmlinuz" --initrd "$out/boot/initrd.img" \
  --version "$pkg_version-$commit" --built "$built" --key "$update_key" --out "$out/$name.bundle"
lap bundle
# Beside the image: what is in it (every Debian package and Python package, with PyPI's hashes)
# and the SHA-256 of what a user flashes (`sha256sum -c SHA256SUMS` in OUT_DIR checks both).
cp "$work/manifest.txt" "$out/$name.manifest.txt"
# The public half of the signing key, for `companion update verify --key` on another computer, and
# which key signed (tests/image signs its own bundles with it).
printf '%s\n' "$pub" > "$out/$name.update-key.pem"
printf 'UPDATE_KEY=%s\n' "$update_key" > "$out/signed-with.txt"
(cd "$out" && sha256sum "$name.img.xz" "$name.bundle" "$name.manifest.txt" "$name.update-key.pem" > SHA256SUMS)
rm -rf "$work"
raw=$(stat -c %s "$img") packed=$(stat -c %s "$img.xz")
bundle=$(stat -c %s "$out/$name.bundle")
printf 'total    %5d s\nraw      %5d MB\nxz       %5d MB\nbundle   %5d MB\nkernel   %s\n' $(( $(date +%s) - t_start )) \
  $((raw / 1000000)) $((packed / 1000000)) $((bundle / 1000000)) "$kver" >> "$out/build-times.txt"
say "done in $(( $(date +%s) - t_start )) s: $img.xz ($((packed / 1000000)) MB; raw $((raw / 1000000)) MB)"
cat "$out/build-times.txt"
