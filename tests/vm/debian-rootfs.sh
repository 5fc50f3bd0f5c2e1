#!/bin/bash
# SPDX-License-Identifier: MIT
#
# debian-rootfs.sh: the Debian board's root file system -- Debian trixie
# riscv64 from Debian's own packages (debootstrap --foreign on this
# machine, the second stage in a chroot under qemu-user-static through
# binfmt_misc), plus what a board engineer installs before the e1 NPU
# packages: kmod, udev, and dkms with its compiler. Packed as an ext4
# image the virtual board boots read-write from a snapshot (QEMU
# snapshot=on: the image itself never changes). Prints the image's path.
# Cached in $E1NPU_CACHE/debian/rootfs-<hash>.img: hash of the package
# versions of the closure, this script and the board's init; built under
# a lock (~2.5 min: the second stage is ~2 min under qemu-user).
# --background: start the build detached and return.
. "$(dirname "$0")/common.sh"
. "$VM_DIR/debian-apt.sh"
. "$VM_DIR/debian-bootstrap.sh"

# the board's packages beyond minbase (their dependencies come along):
# what DKMS needs, udev, and every dependency of the NPU packages -- a
# board's apt fetches those from the archive; the virtual board has no
# network, so they are in the image (a dependency missing here fails
# board.md's `apt install` in the test, as it would offline)
PKGS=(kmod udev dkms gcc make libc6-dev libdrm-dev libudev-dev
      libdrm2 libudev1 libpng16-16t64 libjpeg62-turbo libcmocka0)
INIT="$VM_DIR/debian/board-init"

_build() {
	local img=$1 w="$1.tmp" r t0 size
	[ -f "$img" ] && return 0
	t0=$(now)
	r="$w/root"
	rm -rf "$w"
	mkdir -p "$w"
	deb_bootstrap "$r" "$w" "${PKGS[@]}"
	# the board's identity, a root login without password on the console,
	# its init, and apt's archive emptied (the image carries no .debs)
	echo e1board >"$r/etc/hostname"
	printf '127.0.0.1\tlocalhost\n127.0.1.1\te1board\n' >"$r/etc/hosts"
	echo '/dev/vda / ext4 defaults 0 1' >"$r/etc/fstab"
	chroot "$r" passwd -d root >/dev/null || die "debian rootfs: passwd -d root failed"
	install -m 0755 "$INIT" "$r/sbin/e1board-init"
	echo "deb $DEB_MIRROR $DEB_SUITE main" >"$r/etc/apt/sources.list"
	chroot "$r" apt-get clean
	rm -f "$r"/var/log/*.log
	chroot "$r" dpkg-query -W -f '${Package} ${Version}\n' | LC_ALL=C sort >"$w/packages.txt"
	# room for the kernel packages, the headers DKMS builds against and
	# the NPU packages
	size=$(deb_pack_ext4 "$r" "$w/rootfs.img" e1board)
	mv "$w/packages.txt" "${img%.img}.packages"
	mv "$w/rootfs.img" "$img"
	echo "$(elapsed "$t0")" >"${img%.img}.build-seconds"
	rm -rf "$w"
	msg "debian rootfs: $(wc -l <"${img%.img}.packages") packages, ${size} MiB image, built in $(elapsed "$t0") s: $img" >&2
}

cache_init
mkdir -p "$E1NPU_CACHE/debian"
if [ "${E1NPU_OFFLINE:-0}" = 1 ]; then
	img=$(ls "$E1NPU_CACHE"/debian/rootfs-*.img 2>/dev/null | tail -n 1)
	[ -n "$img" ] || die "debian rootfs: offline and none cached"
	echo "$img"
	exit 0
fi
VERS=$(deb_versions "${PKGS[@]}") || die "debian rootfs: cannot resolve ${PKGS[*]}"
HASH=$( (echo "$VERS"; cat "$0" "$INIT" "$VM_DIR/debian-bootstrap.sh") | sha256sum | cut -c1-12)
IMG="$E1NPU_CACHE/debian/rootfs-$DEB_SUITE-$DEB_ARCH-$HASH.img"
if [ "${1:-}" = --background ]; then
	# make check starts it early, beside the host's tests (vm.mk CHECK_EARLY)
	if [ -f "$IMG" ]; then
		msg "debian rootfs already cached: $IMG"
		exit 0
	fi
	msg "debian rootfs: building in the background (log $IMG.bg.log)"
	setsid nohup "$0" >"$IMG.bg.log" 2>&1 </dev/null &
	exit 0
fi
with_lock debian-rootfs _build "$IMG"
[ -f "$IMG" ] || die "debian rootfs: not built"
echo "$IMG"
