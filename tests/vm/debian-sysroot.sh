#!/bin/bash
# SPDX-License-Identifier: MIT
#
# debian-sysroot.sh: a riscv64 sysroot of Debian trixie's own packages (the
# -dev packages the userspace builds against, and their dependency
# closure: glibc, libdrm, libudev, libpng, libjpeg-turbo, cmocka), unpacked
# with dpkg-deb; prints its path. Use it as
#   make CROSS_COMPILE=riscv64-linux-gnu- SYSROOT=$(tests/vm/debian-sysroot.sh)
# (the Makefile passes --sysroot: the binaries link the board's libraries,
# which the Debian board then installs from the same archive).
# Cached in $E1NPU_CACHE/debian/sysroot-<hash>: hash of the package
# versions and this script; built under a lock.
. "$(dirname "$0")/common.sh"
. "$VM_DIR/debian-apt.sh"

DEV_PKGS=(libc6-dev libudev-dev libdrm-dev libpng-dev libjpeg62-turbo-dev libcmocka-dev)

_build() {
	local dir=$1 w="$1.tmp" d l t n=0
	[ -f "$dir/.e1npu-built" ] && return 0
	rm -rf "$w" "$dir"
	mkdir -p "$w/debs" "$w/root"
	deb_download "$w/debs" $(cat "$VERS")
	for d in "$w"/debs/*.deb; do
		dpkg-deb -x "$d" "$w/root" || die "debian sysroot: cannot unpack $d"
		n=$((n + 1))
	done
	# merged /usr, as an installed trixie has it
	for l in lib bin sbin; do
		[ -e "$w/root/$l" ] || ln -s "usr/$l" "$w/root/$l"
	done
	# absolute symlinks point into the sysroot, not at the build machine
	find "$w/root" -type l | while read -r l; do
		t=$(readlink "$l")
		case "$t" in
		/*) ln -sfn "$(realpath -m --relative-to="$(dirname "$l")" "$w/root$t")" "$l" ;;
		esac
	done
	[ -f "$w/root/usr/lib/$DEB_TRIPLET/libc.so" ] || die "debian sysroot: no libc.so in $w/root"
	cp "$VERS" "$w/root/.e1npu-packages"
	mv "$w/root" "$dir"
	rm -rf "$w"
	touch "$dir/.e1npu-built"
	msg "debian sysroot: $n packages of $DEB_SUITE/$DEB_ARCH unpacked in $dir" >&2
}

cache_init
mkdir -p "$E1NPU_CACHE/debian"
VERS=$(mktemp)
trap 'rm -f "$VERS"' EXIT
if [ "${E1NPU_OFFLINE:-0}" = 1 ]; then
	dir=$(ls -d "$E1NPU_CACHE"/debian/sysroot-*/ 2>/dev/null | tail -n 1)
	[ -n "$dir" ] || die "debian sysroot: offline and none cached"
	echo "${dir%/}"
	exit 0
fi
deb_versions "${DEV_PKGS[@]}" >"$VERS" || die "debian sysroot: cannot resolve ${DEV_PKGS[*]}"
[ -s "$VERS" ] || die "debian sysroot: apt resolved no packages for ${DEV_PKGS[*]}"
HASH=$( (cat "$VERS" "$0") | sha256sum | cut -c1-12)
DIR="$E1NPU_CACHE/debian/sysroot-$DEB_SUITE-$DEB_ARCH-$HASH"
with_lock debian-sysroot _build "$DIR"
echo "$DIR"
