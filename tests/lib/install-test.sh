#!/bin/sh
# SPDX-License-Identifier: MIT
#
# make install into a temporary DESTDIR, then build tests/lib/example.c
# against the installed libe1npu.pc (shared and static) and run both;
# every installed tool has its man page; make uninstall (same PREFIX and
# DESTDIR, and another PREFIX) removes exactly what install put there;
# `make all` builds no ASan+UBSan tree (those are for the checks).
# Usage: install-test.sh MAKE O SAN_O CC
set -eu
make_cmd=$1 o=$2 san_o=$3 cc=$4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/e1npu-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
prefix=/usr/local

$make_cmd --no-print-directory O="$o" SAN_O="$san_o" install \
	DESTDIR="$tmp/root" PREFIX="$prefix" >"$tmp/install.log" 2>&1 || {
	cat "$tmp/install.log" >&2
	echo "install-test: make install failed" >&2
	exit 1
}
root=$tmp/root
for f in "$prefix/lib/libe1npu.so.0" "$prefix/lib/libe1npu.so" \
	 "$prefix/lib/libe1npu.a" "$prefix/include/e1npu/e1npu.h" \
	 "$prefix/lib/pkgconfig/libe1npu.pc"; do
	[ -e "$root$f" ] || { echo "install-test: missing $f" >&2; exit 1; }
done
soname=$(readelf -d "$root$prefix/lib/libe1npu.so.0" | sed -n 's/.*SONAME.*\[\(.*\)\].*/\1/p')
[ "$soname" = libe1npu.so.0 ] || { echo "install-test: soname '$soname'" >&2; exit 1; }
# Only the API is exported.
if nm -D --defined-only "$root$prefix/lib/libe1npu.so.0" | awk '{print $3}' |
	grep -v '^e1npu_' | grep -v '^LIBE1NPU' | grep -q .; then
	echo "install-test: non-API symbols exported:" >&2
	nm -D --defined-only "$root$prefix/lib/libe1npu.so.0" | grep -v ' e1npu_' >&2
	exit 1
fi
# Every installed program has its man page.
for b in "$root$prefix"/bin/*; do
	[ -e "$b" ] || continue
	f=$prefix/share/man/man1/$(basename "$b").1
	[ -e "$root$f" ] || { echo "install-test: missing $f" >&2; exit 1; }
done
for t in npu-smoke e1npu-classify e1npu-hlo; do
	[ -e "$root$prefix/bin/$t" ] || { echo "install-test: missing $prefix/bin/$t" >&2; exit 1; }
done

# The TFLite delegate (delegate/): installed, exporting the external-
# delegate entry points and nothing else.
if [ -e delegate/delegate.c ]; then
	d=$root$prefix/lib/libe1npu_tflite_delegate.so
	[ -e "$d" ] || { echo "install-test: missing $prefix/lib/libe1npu_tflite_delegate.so" >&2; exit 1; }
	syms=$(nm -D --defined-only "$d" | awk '{print $3}' | sort | tr '\n' ' ')
	[ "$syms" = "tflite_plugin_create_delegate tflite_plugin_destroy_delegate " ] || {
		echo "install-test: libe1npu_tflite_delegate.so exports: $syms" >&2
		exit 1
	}
fi

export PKG_CONFIG_PATH="$root$prefix/lib/pkgconfig"
pc="pkg-config --define-variable=prefix=$root$prefix"
cflags=$($pc --cflags libe1npu)
libs=$($pc --libs libe1npu)
slibs=$($pc --static --libs libe1npu)
# shellcheck disable=SC2086
$cc -std=c11 -Wall -Werror $cflags tests/lib/example.c -o "$tmp/example" $libs
# shellcheck disable=SC2086
$cc -std=c11 -Wall -Werror $cflags tests/lib/example.c -o "$tmp/example-static" \
	-Wl,-Bstatic -le1npu -Wl,-Bdynamic $(echo "$slibs" | sed 's/-le1npu//')
E1NPU_DEVICE=sim LD_LIBRARY_PATH="$root$prefix/lib" "$tmp/example"
E1NPU_DEVICE=sim "$tmp/example-static"

# make uninstall: exactly what install put, with the same PREFIX/DESTDIR
# (a file of someone else's in the same directories stays).
uninstall_test() {
	r=$1 p=$2
	mkdir -p "$r$p/bin" "$r$p/include"
	echo keep >"$r$p/bin/other-tool"
	echo keep >"$r$p/include/other.h"
	$make_cmd --no-print-directory O="$o" SAN_O="$san_o" uninstall \
		DESTDIR="$r" PREFIX="$p" >"$tmp/uninstall.log" 2>&1 || {
		cat "$tmp/uninstall.log" >&2
		echo "install-test: make uninstall failed" >&2
		exit 1
	}
	left=$(find "$r" \( -type f -o -type l \) ! -name other-tool ! -name other.h | sort)
	[ -z "$left" ] || { echo "install-test: uninstall (PREFIX=$p) left: $left" >&2; exit 1; }
	[ -e "$r$p/bin/other-tool" ] && [ -e "$r$p/include/other.h" ] ||
		{ echo "install-test: uninstall removed files it did not install" >&2; exit 1; }
	[ ! -e "$r$p/include/e1npu" ] ||
		{ echo "install-test: $p/include/e1npu left" >&2; exit 1; }
}
uninstall_test "$root" "$prefix"
$make_cmd --no-print-directory O="$o" SAN_O="$san_o" install \
	DESTDIR="$tmp/root2" PREFIX=/opt/e1 UDEVRULESDIR=/opt/e1/udev >"$tmp/install.log" 2>&1 &&
	[ -e "$tmp/root2/opt/e1/bin/e1npu-hlo" ] || {
	cat "$tmp/install.log" >&2
	echo "install-test: make install PREFIX=/opt/e1 failed" >&2
	exit 1
}
$make_cmd --no-print-directory O="$o" SAN_O="$san_o" uninstall \
	DESTDIR="$tmp/root2" PREFIX=/opt/e1 UDEVRULESDIR=/opt/e1/udev >"$tmp/uninstall.log" 2>&1
left=$(find "$tmp/root2" \( -type f -o -type l \) | sort)
[ -z "$left" ] || { echo "install-test: uninstall (PREFIX=/opt/e1) left: $left" >&2; exit 1; }

# `make` builds what a user needs: no sanitizer tree.
n=$($make_cmd --no-print-directory -n O="$o" SAN_O="$tmp/san-tree" all 2>/dev/null |
	grep -c "$tmp/san-tree") || true
[ "$n" = 0 ] || { echo "install-test: make all builds $n things in SAN_O" >&2; exit 1; }
echo "install-test: ok (DESTDIR install, pkg-config, shared + static example, man pages, uninstall, no SAN_O in make all)"
