#!/bin/bash
# SPDX-License-Identifier: MIT
#
# board-host.sh WORK OUT.tar: the build-machine half of
# Documentation/board.md, then the riscv64 guest's root file system.
#  1. runs every ```sh board-host block of board.md verbatim (bash, set -e)
#     with BUILD=WORK/build-riscv64, ROOTFS=WORK/rootfs, SYSROOT from
#     tests/vm/cross-deps.sh: the cross build, make install DESTDIR=, the
#     example built through the cross pkg-config;
#  2. checks what they produced (riscv64 ELF, sonames, the installed
#     libe1npu.pc, udev rule, the example linked against libe1npu.so.0);
#  3. packs OUT.tar for the guest (unpacked at /): ROOTFS without headers,
#     archives and pkg-config files, the C library from the cross toolchain
#     (what a board's rootfs already has), and the cmocka suites of BUILD
#     in /tests/lib-riscv64/.
# Prints "N passed, M failed (board-host)" (counted by make check); exits 1
# on a failure.
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
W=$1 OUT=$2
case "$W" in /*) ;; *) W="$TOP/$W" ;; esac
case "$OUT" in /*) ;; *) OUT="$TOP/$OUT" ;; esac
CROSS=riscv64-linux-gnu-
TC_LIB=/usr/riscv64-linux-gnu/lib
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "  PASS  board-host: $*"; }
ko() { fail=$((fail + 1)); echo "  FAIL  board-host: $*"; }
finish() {
	echo "$pass passed, $fail failed (board-host)"
	[ "$fail" = 0 ]
	exit
}

cd "$TOP"
# as a user runs them: not as part of this make
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES GNUMAKEFLAGS
mkdir -p "$W"
export BUILD="$W/build-riscv64" ROOTFS="$W/rootfs"
rm -rf "$ROOTFS"
t0=$(date +%s.%N)
SYSROOT=$(tests/vm/cross-deps.sh riscv64) || { ko "tests/vm/cross-deps.sh riscv64"; finish; }
export SYSROOT
echo "board-host: sysroot $SYSROOT ($(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s)"

# ---- 1. the board-host blocks of board.md ----------------------------------
awk '/^```sh board-host$/ { on = 1; next } /^```/ { on = 0 } on' \
	Documentation/board.md >"$W/board-host-blocks.sh"
n=$(grep -c -v -E '^\s*(#|$)' "$W/board-host-blocks.sh" || true)
[ "$n" -ge 5 ] || { ko "board.md has only $n board-host commands"; finish; }
# The lines that read SHARED_DIR copy the model, labels and photo from
# shared/ (beside the checkout) to the board's /root. When a file they
# read is absent they are left out, named, and board-shared-absent.txt
# ("NAME REASON" a line; the guest's /tests/) lists what they would have
# put there: the guest skips the commands on those, naming the path.
SD=${SHARED_DIR:-../shared}
rm -f "$W/board-shared-absent.txt"
absent=
# shellcheck disable=SC2016
while IFS= read -r line; do
	for w in $(printf '%s\n' "$line" | grep -o '"${SHARED_DIR[^}]*}[^"]*"[^ ]*'); do
		eval "set -- $w"
		for f; do [ -r "$f" ] || absent="$absent $f"; done
	done
done < <(grep 'SHARED_DIR' "$W/board-host-blocks.sh")
blocks=$W/board-host-blocks.sh
if [ -n "$absent" ]; then
	why="not on the board:$absent absent on the build machine (CI lays shared/ beside the checkout: SHARED_DIR=$SD)"
	# shellcheck disable=SC2016
	grep 'SHARED_DIR' "$blocks" | grep -o -E '"\$\{SHARED_DIR[^}]*}[^"]*"[^ ]*|"\$ROOTFS/root/[^"]+"' |
		while IFS= read -r w; do
			eval "set -- $w"
			for f; do echo "$(basename "$f") $why"; done
		done | sort -u >"$W/board-shared-absent.txt"
	grep -v 'SHARED_DIR' "$blocks" >"$W/board-host-blocks-run.sh"
	blocks=$W/board-host-blocks-run.sh
	echo "  SKIP  board-host: board.md's $(grep -c 'SHARED_DIR' "$W/board-host-blocks.sh") board-host commands that copy from shared/ to /root:$absent absent (SHARED_DIR=$SD)"
fi
t0=$(date +%s.%N)
if bash -e -x "$blocks" >"$W/board-host.log" 2>&1; then
	ok "the $(grep -c -v -E '^\s*(#|$)' "$blocks") commands of board.md's board-host blocks ($(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s)"
else
	tail -n 40 "$W/board-host.log" | sed 's/^/    | /'
	ko "board.md board-host blocks failed (log $W/board-host.log)"
	finish
fi

# ---- 2. what they produced --------------------------------------------------
is_rv() {
	case "$1" in
	*.a) ${CROSS}objdump -f "$1" 2>/dev/null | grep -q 'architecture: riscv:rv64' ;;
	*) file -L "$1" 2>/dev/null | grep -q 'UCB RISC-V' ;;
	esac
}
r=$ROOTFS/usr
for f in "$r/lib/libe1npu.so.0" "$r/lib/libe1npu.a" "$r/bin/npu-smoke" \
	 "$r/bin/e1npu-classify" "$r/bin/e1npu-llm" "$r/bin/e1npu-example" "$BUILD/tools/npu-smoke/npu-smoke-static"; do
	if is_rv "$f"; then ok "riscv64: ${f#"$W"/}"; else ko "not a riscv64 file: $f"; fi
done
soname=$(${CROSS}readelf -d "$r/lib/libe1npu.so.0" | sed -n 's/.*SONAME.*\[\(.*\)\].*/\1/p')
if [ "$soname" = libe1npu.so.0 ]; then ok "soname $soname"; else ko "soname '$soname'"; fi
if ${CROSS}readelf -d "$r/bin/e1npu-example" | grep -q 'NEEDED.*\[libe1npu.so.0\]'; then
	ok "e1npu-example needs libe1npu.so.0 (linked through the installed libe1npu.pc)"
else
	ko "e1npu-example is not linked against libe1npu.so.0"
fi
if file -L "$BUILD/tools/npu-smoke/npu-smoke-static" | grep -q 'statically linked'; then
	ok "npu-smoke-static is static"
else
	ko "npu-smoke-static is not static"
fi
pc=$(PKG_CONFIG_SYSROOT_DIR="$ROOTFS" PKG_CONFIG_LIBDIR="$r/lib/pkgconfig" pkg-config --cflags --libs libe1npu)
case "$pc" in
*"-I$r/include"*"-L$r/lib"*"-le1npu"*) ok "cross pkg-config: $pc" ;;
*) ko "cross pkg-config gives '$pc'" ;;
esac
# discovery without libudev: the cross build must not need libudev.so.1
if ${CROSS}readelf -d "$r/lib/libe1npu.so.0" | grep -q 'NEEDED.*libudev'; then
	ko "libe1npu.so.0 needs libudev (E1NPU_WITH_UDEV=0 expected)"
else
	ok "libe1npu.so.0 does not need libudev"
fi
# the installed rule is the one board.md shows (and gives group render rw)
rule="$ROOTFS/etc/udev/rules.d/70-e1npu.rules"
doc=$(sed -n 's/^    \(SUBSYSTEM==.*\)$/\1/p' Documentation/board.md)
inst=$(grep -v '^#' "$rule" 2>/dev/null | grep .)
if [ -n "$doc" ] && [ "$inst" = "$doc" ] && echo "$inst" | grep -q 'GROUP="render", MODE="0660"'; then
	ok "udev rule installed as board.md shows it: ${rule#"$ROOTFS"}"
else
	ko "udev rule '$inst' in $rule, board.md shows '$doc'"
fi
# the device model's x86 variants (mm_micro.avx2, mm_micro8 on the x86-64
# host) must not be in the riscv64 library, the portable kernel must
syms=$(${CROSS}nm "$r/lib/libe1npu.a" 2>/dev/null || true)
if echo "$syms" | grep -E 'mm_micro8|\.avx|\.arch_' >/dev/null ||
	! echo "$syms" | grep -E ' [Tt] e1_mm_run$' >/dev/null; then
	ko "riscv64 libe1npu.a holds x86 GEMM variants"
else
	ok "riscv64 libe1npu.a: portable GEMM only"
fi

# ---- 3. the guest's root file system -----------------------------------------
S="$W/stage"
rm -rf "$S"
mkdir -p "$S/lib" "$S/tests/lib-riscv64"
[ ! -f "$W/board-shared-absent.txt" ] || cp "$W/board-shared-absent.txt" "$S/tests/"
(cd "$ROOTFS" && find . -path ./usr/include -prune -o -path ./usr/lib/pkgconfig -prune \
	-o -path ./usr/share -prune -o -path ./usr/lib/cmake -prune -o -name '*.a' -o -name .e1npu-built -o -print |
	cpio -pdm --quiet "$S")
for t in "$BUILD"/tests/lib/test-* "$BUILD"/tests/ops/test-*; do
	case "$t" in *.o | *.d) continue ;; esac
	d=$(basename "$(dirname "$t")")
	cp "$t" "$S/tests/lib-riscv64/$d-$(basename "$t")"
done
# the C library: every NEEDED of every ELF file, from the toolchain (three
# rounds: libraries need libraries)
needed() { ${CROSS}readelf -d "$1" 2>/dev/null | sed -n 's/.*NEEDED.*\[\(.*\)\].*/\1/p'; }
for _ in 1 2 3; do
	find "$S" -type f | while read -r f; do is_rv "$f" && needed "$f"; done | sort -u |
	while read -r l; do
		[ -e "$S/usr/lib/$l" ] && continue
		[ -e "$TC_LIB/$l" ] || { echo "board-host: no $l in $TC_LIB" >&2; continue; }
		cp -L "$TC_LIB/$l" "$S/usr/lib/$l"
	done
done
cp -L "$TC_LIB/ld-linux-riscv64-lp64d.so.1" "$S/lib/"
find "$S" -type f | while read -r f; do
	if is_rv "$f"; then ${CROSS}strip --strip-debug "$f" 2>/dev/null || true; fi
done
missing=$(find "$S" -type f | while read -r f; do is_rv "$f" && needed "$f"; done | sort -u |
	while read -r l; do [ -e "$S/usr/lib/$l" ] || echo "$l"; done)
[ -z "$missing" ] && ok "guest rootfs: every NEEDED library present" || ko "guest rootfs lacks: $missing"
mkdir -p "$(dirname "$OUT")"
tar -C "$S" -cf "$OUT.tmp" . && mv "$OUT.tmp" "$OUT"
echo "board-host: $(du -h "$OUT" | cut -f1) $OUT"
finish
