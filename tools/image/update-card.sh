#!/usr/bin/env bash
# update-card.sh: put a new image's system on a box's card and keep its data partition.
#
#   sudo tools/image/update-card.sh NEW.img.xz CARD
#
# CARD is the card in a reader (/dev/sdX, /dev/mmcblk0; not mounted) or an image file. The
# image's partitions have fixed places (build.sh): 1 boot (FAT), 2 system (ext4, read-only),
# 3 data (the journal, the box's settings; grown to the end of the card). This writes the
# new image's partitions 1 and 2 over the card's and leaves partition 3 as it is, so the game
# in progress, the history and the settings stay. It refuses a card whose partitions are not
# where the new image has them. Flashing the whole card (Raspberry Pi Imager) starts afresh.
set -euo pipefail
die() { printf 'update-card: error: %s\n' "$*" >&2; exit 2; }
say() { printf 'update-card: %s\n' "$*"; }
[ $# = 2 ] || die "usage: $0 NEW.img.xz CARD"
new=$1 card=$2
[ -r "$new" ] || die "cannot read $new"
[ -e "$card" ] || die "no such card: $card"
if [ -b "$card" ] && grep -q "^$card" /proc/mounts; then
  die "$card is mounted: unmount its partitions first (sudo umount ${card}*)"
fi
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
for n in 1 2; do
  p=$(part "$work/new.img" $n)
  start=${p%,*} size=${p#*,}
  dd if="$work/new.img" of="$card" bs=4M iflag=skip_bytes,count_bytes oflag=seek_bytes conv=notrunc,fsync \
    skip=$((start * 512)) seek=$((start * 512)) count=$((size * 512)) status=none
  say "partition $n written ($((size / 2048)) MiB)"
done
sync
say "done: $card has the new system; its data partition (the journal, the settings) is as it was"
