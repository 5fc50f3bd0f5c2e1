#!/bin/sh
# SPDX-License-Identifier: MIT
#
# make install into a temporary DESTDIR, then build tests/lib/example.c
# against the installed libe1npu.pc (shared and static) and run both.
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
[ ! -e tools/npu-smoke/main.c ] ||
for f in "$prefix/bin/npu-smoke" "$prefix/share/man/man1/npu-smoke.1"; do
	[ -e "$root$f" ] || { echo "install-test: missing $f" >&2; exit 1; }
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
echo "install-test: ok (DESTDIR install, pkg-config, shared + static example)"
