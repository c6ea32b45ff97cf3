#!/usr/bin/env bash
# update-card.sh: put a new image's system on a box's card and keep its data partition.
#
#   sudo tools/image/update-card.sh [--yes] NEW.img.xz CARD
#
# CARD is the card in a reader (/dev/sdX, /dev/mmcblk0, or any link to one such as
# /dev/disk/by-id/...: it is resolved with readlink -f) or an image file. The image's
# partitions have fixed places (build.sh): 1 boot (FAT), 2 system (ext4, read-only), 3 data
# (the journal, the box's settings; grown at the first start), and on a card that has started
# once, 4 (system slot b, where updates are written: companion/update). This writes the new
# image's partitions 1 and 2 over the card's (the FAT's slot.txt then starts slot a) and leaves
# partitions 3 and 4 as they are, so the game in progress, the history and the settings stay.
# A card written before updates (no partition 4) is updated the same way; it takes no update
# bundle until it is written anew with Raspberry Pi Imager. It refuses a card whose partitions are not
# where the new image has them. Flashing the whole card (Raspberry Pi Imager) starts afresh.
#
# A disk is refused when it is a partition (give the whole card), when it or any of its
# partitions is mounted or used as swap, when it holds the running system (/, /boot or
# /boot/firmware), when something (LVM, RAID, dm-crypt) holds it, and when it is not a card:
# only a disk the kernel calls removable, one behind USB (a USB card reader often says
# removable=0) or an SD card in a built-in MMC slot (device type SD; eMMC is refused) is
# written. Before writing it names the disk (model, size, its partitions with their file
# systems and labels) and asks; --yes answers for scripts. An image file is not asked about.
#
# For the tests only: UPDATE_CARD_SYSFS (instead of /sys), UPDATE_CARD_MOUNTS and
# UPDATE_CARD_SWAPS (instead of /proc/mounts, /proc/swaps) and UPDATE_CARD_SYSTEM_DEVS
# ("MAJ:MIN ...", instead of the devices of /, /boot, /boot/firmware); with UPDATE_CARD_SYSFS
# set, a CARD file whose name is a block device there is taken for that disk.
set -euo pipefail
die() { printf 'update-card: error: %s\n' "$*" >&2; exit 2; }
say() { printf 'update-card: %s\n' "$*"; }

yes=0
[ "${1:-}" = --yes ] && { yes=1; shift; }
[ $# = 2 ] || die "usage: $0 [--yes] NEW.img.xz CARD"
new=$1
[ -r "$new" ] || die "cannot read $new"
[ -e "$2" ] || die "no such card: $2"
card=$(readlink -f "$2")
sysfs=${UPDATE_CARD_SYSFS:-/sys}
name=${card##*/}
disk=0
if [ -b "$card" ] || { [ -n "${UPDATE_CARD_SYSFS:-}" ] && [ -e "$sysfs/class/block/$name" ]; }; then
  disk=1
fi

# the devices (maj:min) the running system is on
system_devs() {
  if [ -n "${UPDATE_CARD_SYSTEM_DEVS+set}" ]; then
    echo "$UPDATE_CARD_SYSTEM_DEVS"
    return
  fi
  local mp
  for mp in / /boot /boot/firmware; do
    mountpoint -q "$mp" 2>/dev/null || [ "$mp" = / ] || continue
    findmnt -no MAJ:MIN -T "$mp" 2>/dev/null || true
  done
}

# check_disk: refuse anything but a whole, unused, removable card; sets `model` and `bytes`.
check_disk() {
  local block=$sysfs/class/block/$name parts=() held p src mdev
  if [ -e "$block/partition" ]; then
    p=$(readlink -f "$block/..")
    die "$card is a partition: give the whole card (/dev/${p##*/})"
  fi
  [ -e "$block/dev" ] || die "$card: not a disk the kernel knows (no $block)"
  for p in "$block"/"$name"*; do
    [ -e "$p/partition" ] && parts+=("${p##*/}")
  done
  # mounted or swap, by any name (/dev/disk/by-uuid/..., /dev/sdb1)
  while read -r src _; do
    case $src in /*) ;; *) continue ;; esac
    mdev=$(readlink -f "$src" 2>/dev/null || echo "$src")
    mdev=${mdev##*/}
    for p in "$name" "${parts[@]}"; do
      [ "$mdev" = "$p" ] && die "$card is in use: /dev/$p is mounted (or swap): unmount it first (sudo umount /dev/$p)"
    done
  done < <(cat "${UPDATE_CARD_MOUNTS:-/proc/mounts}" "${UPDATE_CARD_SWAPS:-/proc/swaps}" 2>/dev/null)
  local ours
  ours=" $(cat "$block/dev")"
  for p in "${parts[@]}"; do ours+=" $(cat "$block/$p/dev")"; done
  for mdev in $(system_devs); do
    case "$ours " in *" $mdev "*) die "$card holds the running system (/ or /boot is on it): not a card to update" ;; esac
  done
  for p in "" "${parts[@]}"; do
    held=("$block/$p/holders"/*)
    if [ -e "${held[0]}" ]; then
      die "$card is in use by ${held[0]##*/} (LVM, RAID or dm-crypt): not a card to update"
    fi
  done
  # a card: removable, or behind USB (card readers often report removable=0), or an SD card in an
  # MMC slot (its type is SD; eMMC soldered on a board says MMC)
  local removable devpath type=
  removable=$(cat "$block/removable" 2>/dev/null || echo 0)
  devpath=$(readlink -f "$block/device" 2>/dev/null || true)
  [ -r "$block/device/type" ] && type=$(cat "$block/device/type")
  if [ "$removable" != 1 ] && [[ $devpath != */usb* ]] && [ "$type" != SD ]; then
    die "$card is not a removable disk, a USB card reader or an SD card slot (a system disk?): refused"
  fi
  model=$({ cat "$block/device/vendor" "$block/device/model" "$block/device/name" 2>/dev/null || true; } \
          | tr -s ' \n' ' ' | sed 's/^ //; s/ $//')
  bytes=$(( $(cat "$block/size") * 512 ))
}

model="" bytes=0
[ $disk = 1 ] && check_disk

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
case $new in
  *.xz) xz -dc "$new" > "$work/new.img" ;;
  *) cp "$new" "$work/new.img" ;;
esac
# start,size of partition N (sectors) in a disk or image
part() { sfdisk -d "$1" 2>/dev/null | awk -v n="$2" -F'[=,]' '/start=/ { i++; if (i == n) { gsub(/ /, ""); print $2 "," $4 } }'; }
for n in 1 2 3; do
  a=$(part "$work/new.img" $n) b=$(part "$card" $n)
  [ -n "$a" ] || die "$new has no partition $n: not a companion image"
  [ -n "$b" ] || die "$card has no partition $n: not a card of the companion's image"
  if [ $n = 3 ]; then
    [ "${a%,*}" = "${b%,*}" ] || die "the data partition starts elsewhere on $card (${b%,*}) than in $new (${a%,*}): flash the whole card instead"
  else
    [ "$a" = "$b" ] || die "partition $n of $card ($b) is not where $new has it ($a): flash the whole card instead"
  fi
done

# "vfat 'COMPANION'" for the file system at sector START of the card (read from the card itself)
fs_at() {
  local out type label
  out=$(blkid -p -O $(($1 * 512)) -o export "$card" 2>/dev/null || true)
  type=$(sed -n 's/^TYPE=//p' <<<"$out") label=$(sed -n 's/^LABEL=//p' <<<"$out")
  printf '%s' "${type:-no file system}"
  [ -z "$label" ] || printf " '%s'" "$label"
}

if [ $disk = 1 ]; then
  say "$card: ${model:-unknown model}, $((bytes / 1000000000)).$((bytes / 100000000 % 10)) GB"
  for n in 1 2 3; do
    p=$(part "$card" $n)
    what=(overwritten overwritten "kept as it is")
    say "  partition $n: $(( ${p#*,} / 2048 )) MiB, $(fs_at "${p%,*}"): ${what[n - 1]}"
  done
  if [ $yes = 0 ]; then
    printf 'update-card: write the new system over partitions 1 and 2 of %s? Type yes: ' "$card"
    read -r answer || die "no answer: nothing written (--yes writes without asking)"
    [ "$answer" = yes ] || die "not confirmed: nothing written"
  fi
fi

for n in 1 2; do
  p=$(part "$work/new.img" $n)
  start=${p%,*} size=${p#*,}
  dd if="$work/new.img" of="$card" bs=4M iflag=skip_bytes,count_bytes oflag=seek_bytes conv=notrunc,fsync \
    skip=$((start * 512)) seek=$((start * 512)) count=$((size * 512)) status=none
  say "partition $n written ($((size / 2048)) MiB)"
done
sync
say "done: $card has the new system; its data partition (the journal, the settings) is as it was"
