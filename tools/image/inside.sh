#!/bin/bash
# inside.sh: the image's steps inside its arm64 root (run by build.sh through chroot, under
# qemu-user): one initrd, the companion as install.sh installs it, the box's units.
set -euo pipefail
say() { printf 'inside: %s\n' "$*"; }
t=$(date +%s)
lap() { say "$1 in $(( $(date +%s) - t )) s"; t=$(date +%s); }

# --- one initrd, small (/etc/initramfs-tools/conf.d/companion-box, hooks/companion-box) -----------
rm -f /usr/sbin/update-initramfs
dpkg-divert --quiet --local --rename --remove /usr/sbin/update-initramfs
# raspi-firmware's kernel hook writes /boot/firmware/cmdline.txt each time it runs, from this
# file as it is then: set before the one update-initramfs below (it ran once already while the
# kernel installed, found no initrd and stopped before cmdline.txt, so nothing stale is left).
cat > /etc/default/raspi-firmware <<'EOF'
# The SD-card image (tools/image/build.sh): the root by its label (a Pi's mmcblk0p2, QEMU's vda2),
# boot logs on the serial console (the UART on pins 8 and 10, ttyS1 on a Pi 3, 4, Zero 2 W).
ROOTPART="LABEL=clans-root"
CONSOLES="tty0 ttyS1,115200"
EOF
kver=$(ls /lib/modules | sort -V | tail -1)
update-initramfs -c -k "$kver"
# The hook writes "rw"; the root is read-only (/etc/fstab), so say so from the first mount.
sed -i 's/ rw / ro /' /boot/firmware/cmdline.txt
say "cmdline.txt: $(cat /boot/firmware/cmdline.txt)"
say "initrd: $(du -h "/boot/initrd.img-$kver" | cut -f1), $(lsinitramfs "/boot/initrd.img-$kver" | grep -c '\.ko') modules"
lap initrd

# --- the companion, as install.sh installs it ---------------------------------------------------
cd /root/companion-src
./install.sh --image
lap companion

# --- the box ------------------------------------------------------------------------------------
# `companion` on root's PATH (SSH, the serial console): `companion update install FILE`, `doctor`
ln -sf /opt/companion/venv/bin/companion /usr/local/bin/companion
systemctl enable systemd-networkd.service systemd-resolved.service systemd-timesyncd.service \
  avahi-daemon.service companion-card.service companion-data.service companion-journal-dir.service \
  companion-update-check.service companion-update-install.path
systemctl mask systemd-firstboot.service
# wpa_supplicant for wlan0 when there is one (a Pi), from the settings card's file; the D-Bus
# one that Debian enables is not used.
systemctl disable wpa_supplicant.service 2>/dev/null || true
mkdir -p /etc/systemd/system/sys-subsystem-net-devices-wlan0.device.wants
ln -sf /lib/systemd/system/wpa_supplicant@.service \
  /etc/systemd/system/sys-subsystem-net-devices-wlan0.device.wants/wpa_supplicant@wlan0.service
# No host keys baked into an image every box shares: ssh makes its own on the data partition.
rm -f /etc/ssh/ssh_host_*
# Each boot gets a machine id in RAM (the root is read-only); the settings hold the rest.
: > /etc/machine-id
rm -f /var/lib/dbus/machine-id
ln -s /etc/machine-id /var/lib/dbus/machine-id
ln -sf /data/box/localtime /etc/localtime
ln -sf /data/box/timezone /etc/timezone
passwd -l root >/dev/null
# What a read-only box never uses: documentation and apt's caches.
rm -rf /usr/share/doc/* /usr/share/man/* /usr/share/info/* /var/cache/apt/archives/*.deb
lap box

# --- which bytes: the manifest (build.sh copies it beside the image) ----------------------------
/opt/companion/venv/bin/python /root/companion-src/tools/image/manifest.py \
  /root/companion-src/tools/image/requirements.lock > /usr/share/companion-box/manifest.txt
say "manifest: $(grep -vc '^#' /usr/share/companion-box/manifest.txt) packages"
