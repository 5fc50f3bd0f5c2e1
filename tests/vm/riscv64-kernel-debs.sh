#!/bin/bash
# SPDX-License-Identifier: MIT
#
# riscv64-kernel-debs.sh: the board kernel (riscv64-kernel.sh's build,
# which has kernel/e1npu.config) as Debian packages, the way a board vendor
# ships theirs: `make bindeb-pkg` gives linux-image-<release> (the Image and
# its modules) and linux-headers-<release> (what DKMS builds e1npu.ko
# against; its host programs rebuilt for riscv64 by the kernel's
# install-extmod-build). Debian's own riscv64 kernel lacks CONFIG_DRM_ACCEL.
# Cached in the kernel's cache directory ($KC/debs/); prints that path.
. "$(dirname "$0")/common.sh"

KC=$("$VM_DIR/riscv64-kernel.sh") || die "riscv64 kernel build failed"

_debs() {
	local src kver t0 d
	[ -f "$KC/debs/.e1npu-built" ] && return 0
	src=$(linux_source_tree)
	kver=$(cat "$KC/kernel.release")
	t0=$(now)
	msg "riscv64 kernel: packaging $kver with bindeb-pkg (one time, ~1 min; log $KC/bindeb-pkg.log)" >&2
	rm -rf "$KC/debs" "$KC"/*.deb "$KC"/*.buildinfo "$KC"/*.changes
	run_logged "$KC/bindeb-pkg.log" make -C "$src" O="$KC/obj" ARCH=riscv \
		CROSS_COMPILE=riscv64-linux-gnu- KBUILD_PKG_ROOTCMD=fakeroot \
		KDEB_PKGVERSION="$kver-1" KDEB_COMPRESS=xz DPKG_FLAGS=-d -j2 bindeb-pkg ||
		die "riscv64 kernel: bindeb-pkg failed (log $KC/bindeb-pkg.log)"
	mkdir -p "$KC/debs"
	for d in "$KC"/linux-image-"$kver"_*.deb "$KC"/linux-headers-"$kver"_*.deb; do
		[ -f "$d" ] || die "riscv64 kernel: bindeb-pkg made no ${d##*/}"
		mv "$d" "$KC/debs/"
	done
	rm -f "$KC"/*.deb "$KC"/*.buildinfo "$KC"/*.changes
	touch "$KC/debs/.e1npu-built"
	msg "riscv64 kernel: $(cd "$KC/debs" && ls ./*.deb | sed 's,^\./,,' | tr '\n' ' ')in $(elapsed "$t0") s" >&2
}

with_lock riscv64-kernel _debs
echo "$KC/debs"
