#!/bin/bash
# SPDX-License-Identifier: MIT
#
# frameworks-rootfs.sh: the frameworks people deploy with today, for the
# Debian board -- a Debian sid riscv64 root file system with ONNX Runtime
# 1.23 (C library and Python) and TFLite 2.14 (C library), which trixie
# does not have and whose libraries need sid's C library. The board
# (debian-board.sh) boots trixie as always and runs these in a chroot
# into this image (a third disk, a QEMU snapshot), through the same
# e1npu.ko: Documentation/testing-vm.md, "Frameworks on the board".
# Packed as an ext4 image; prints its path. Cached in
# $E1NPU_CACHE/debian/frameworks-sid-riscv64-<hash>.img: hash of the
# package versions of the closure and of the scripts that build it;
# ~5 min under a lock (the second stage runs under qemu-user).
# --background: start the build detached and return.
E1NPU_DEBIAN_SUITE=sid
. "$(dirname "$0")/common.sh"
. "$VM_DIR/debian-apt.sh"
. "$VM_DIR/debian-bootstrap.sh"

# the frameworks, and the runtime dependencies of the NPU packages the
# board installs into the chroot (libe1npu0, the delegate, the EP)
PKGS=(libonnxruntime1.23 python3-onnxruntime python3-numpy libtensorflow-lite2.14.1
      libdrm2 libudev1 libpng16-16t64 libjpeg62-turbo)
# the framework packages whose versions the board prints
VERSIONED=(libonnxruntime1.23 python3-onnxruntime libtensorflow-lite2.14.1 python3-numpy libc6)

_build() {
	local img=$1 w="$1.tmp" r t0 size closure
	[ -f "$img" ] && return 0
	t0=$(now)
	r="$w/root"
	rm -rf "$w"
	mkdir -p "$w"
	# apt's resolved closure, not PKGS: debootstrap's own resolver does not
	# follow virtual packages (libonnxruntime1.23 depends on
	# libre2-11-absl20260526, which libre2-11 provides)
	mapfile -t closure < <(echo "$VERS" | sed 's/=.*//')
	deb_bootstrap "$r" "$w" "${closure[@]}"
	chroot "$r" apt-get clean
	rm -f "$r"/var/log/*.log
	chroot "$r" dpkg-query -W -f='${Package}=${Version}\n' "${VERSIONED[@]}" >"$r/E1NPU-VERSIONS" ||
		die "frameworks rootfs: a framework package is missing"
	size=$(deb_pack_ext4 "$r" "$w/rootfs.img" e1frameworks)
	mv "$w/rootfs.img" "$img"
	rm -rf "$w"
	msg "frameworks rootfs: sid riscv64, ${size} MiB image, built in $(elapsed "$t0") s: $img" >&2
}

cache_init
mkdir -p "$E1NPU_CACHE/debian"
if [ "${E1NPU_OFFLINE:-0}" = 1 ]; then
	img=$(ls "$E1NPU_CACHE"/debian/frameworks-sid-*.img 2>/dev/null | tail -n 1)
	[ -n "$img" ] || die "frameworks rootfs: offline and none cached"
	echo "$img"
	exit 0
fi
VERS=$(deb_versions "${PKGS[@]}") || die "frameworks rootfs: cannot resolve ${PKGS[*]} in $DEB_SUITE"
HASH=$( (echo "$VERS"; cat "$0" "$VM_DIR/debian-bootstrap.sh") | sha256sum | cut -c1-12)
IMG="$E1NPU_CACHE/debian/frameworks-$DEB_SUITE-$DEB_ARCH-$HASH.img"
if [ "${1:-}" = --background ]; then
	if [ -f "$IMG" ]; then
		msg "frameworks rootfs already cached: $IMG"
		exit 0
	fi
	msg "frameworks rootfs: building in the background (log $IMG.bg.log)"
	setsid nohup "$0" >"$IMG.bg.log" 2>&1 </dev/null &
	exit 0
fi
with_lock frameworks-rootfs _build "$IMG"
[ -f "$IMG" ] || die "frameworks rootfs: not built"
echo "$IMG"
