#!/bin/bash
# SPDX-License-Identifier: MIT
#
# cross-deps.sh [ARCH]: the target libraries the userspace needs (libdrm,
# cmocka), cross-built for ARCH (riscv64) from Debian's own source packages
# (apt-src.sh), installed into a sysroot in the cache; prints its path:
#   SYSROOT/usr/include/{libdrm,xf86drm.h,cmocka.h,...}
#   SYSROOT/usr/lib/{libdrm.so*,libdrm.a,libcmocka.so*,libcmocka-static.a}
#   SYSROOT/usr/lib/pkgconfig/{libdrm,cmocka}.pc
# Use it with `make CROSS_COMPILE=riscv64-linux-gnu- SYSROOT=...`
# (Documentation/board.md). Minimal builds: libdrm core only (no GPU
# drivers, tests, man pages, udev), cmocka shared + static, no examples.
# Cached under $E1NPU_CACHE/cross/ by source versions, the cross gcc
# version and this script's hash; built under a lock.
# libudev is not built: Debian 12's only source of it is systemd, which is
# out of proportion; cross builds use E1NPU_WITH_UDEV=0 (the /dev/accel scan).
. "$(dirname "$0")/common.sh"
. "$VM_DIR/apt-src.sh"

ARCH=${1:-riscv64}
case "$ARCH" in
riscv64) TRIPLET=riscv64-linux-gnu CPU_FAMILY=riscv64 ;;
*) die "cross-deps.sh: unsupported arch '$ARCH' (riscv64)" ;;
esac
CROSS=$TRIPLET-

build_libdrm() {
	local ver=$1 w=$2 root=$3 s="$2/libdrm/src"
	apt_src_fetch libdrm "$ver" "$w/libdrm"
	cat >"$w/cross.ini" <<EOC
[binaries]
c = '${CROSS}gcc'
ar = '${CROSS}ar'
strip = '${CROSS}strip'
pkgconfig = 'false'

[host_machine]
system = 'linux'
cpu_family = '$CPU_FAMILY'
cpu = '$CPU_FAMILY'
endian = 'little'
EOC
	# every optional feature off (GPU drivers, man pages, valgrind, cairo
	# tests), the boolean options too: only libdrm.so/.a and its headers
	meson setup "$w/libdrm/build" "$s" --cross-file "$w/cross.ini" \
		--prefix=/usr --libdir=lib --buildtype=release \
		-Ddefault_library=both -Dauto_features=disabled \
		-Dtests=false -Dudev=false -Dinstall-test-programs=false \
		-Dfreedreno-kgsl=false &&
	ninja -C "$w/libdrm/build" -j2 &&
	DESTDIR="$root" meson install -C "$w/libdrm/build" --no-rebuild
}

build_cmocka() {
	local ver=$1 w=$2 root=$3 s="$2/cmocka/src"
	apt_src_fetch cmocka "$ver" "$w/cmocka"
	cat >"$w/toolchain.cmake" <<EOC
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR $CPU_FAMILY)
set(CMAKE_C_COMPILER ${CROSS}gcc)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
EOC
	cmake -S "$s" -B "$w/cmocka/build" -DCMAKE_TOOLCHAIN_FILE="$w/toolchain.cmake" \
		-DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
		-DCMAKE_INSTALL_LIBDIR=lib -DLIB_INSTALL_DIR=/usr/lib \
		-DWITH_STATIC_LIB=ON -DWITH_EXAMPLES=OFF -DUNIT_TESTING=OFF &&
	make -C "$w/cmocka/build" -j2 &&
	make -C "$w/cmocka/build" install DESTDIR="$root"
}

_build() {
	local dir=$1 drmver=$2 cmver=$3 t0 w="$1.tmp"
	[ -f "$dir/.e1npu-built" ] && return 0
	t0=$(now)
	rm -rf "$w" "$dir"
	mkdir -p "$w"
	msg "$ARCH: cross-building libdrm $drmver and cmocka $cmver (one time; log $w/build.log)" >&2
	{ build_libdrm "$drmver" "$w" "$w/sysroot" &&
	  build_cmocka "$cmver" "$w" "$w/sysroot"; } >"$w/build.log" 2>&1 ||
		{ tail -n 40 "$w/build.log" >&2; die "$ARCH: libdrm/cmocka cross build failed"; }
	for f in libdrm.so.2 libdrm.a libcmocka.so.0 libcmocka-static.a pkgconfig/libdrm.pc pkgconfig/cmocka.pc; do
		[ -e "$w/sysroot/usr/lib/$f" ] || die "$ARCH: cross build installed no usr/lib/$f"
	done
	file -L "$w/sysroot/usr/lib/libdrm.so.2" | grep -q -i 'RISC-V' ||
		die "$ARCH: libdrm.so.2 is not a $ARCH library"
	mv "$w/sysroot" "$dir"
	touch "$dir/.e1npu-built"
	rm -rf "$w"
	msg "$ARCH: libdrm + cmocka built in $(elapsed "$t0") s" >&2
}

cache_init
if [ "${E1NPU_OFFLINE:-0}" = 1 ]; then
	dir=$(ls -d "$E1NPU_CACHE/cross/$ARCH"/deps-*/ 2>/dev/null | sort -V | tail -n 1)
	[ -n "$dir" ] || die "offline and no $ARCH libdrm/cmocka in the cache"
	echo "${dir%/}"
	exit 0
fi
drmver=$(src_version libdrm-dev)
cmver=$(src_version libcmocka-dev)
[ -n "$drmver" ] && [ -n "$cmver" ] || die "apt knows no libdrm-dev / libcmocka-dev source version"
key=$( { ${CROSS}gcc --version | head -n 1; cat "$0" "$VM_DIR/apt-src.sh"; } | sha256sum | cut -c1-12)
dir="$E1NPU_CACHE/cross/$ARCH/deps-libdrm-${drmver//:/_}-cmocka-${cmver//:/_}-$key"
mkdir -p "$E1NPU_CACHE/cross/$ARCH"
with_lock "cross-$ARCH" _build "$dir" "$drmver" "$cmver"
echo "$dir"
