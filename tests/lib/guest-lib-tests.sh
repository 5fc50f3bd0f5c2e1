#!/bin/sh
# SPDX-License-Identifier: MIT
#
# /tests/guest-lib-tests.sh: the library's cmocka suites (tests/lib/test-*,
# tests/ops/test-*) inside the riscv64 QEMU guests, on the kernel backend
# (E1NPU_DEVICE=DEVICE: e1npu.ko bound to the QEMU board's NPU): the
# binaries of the documented cross build (Documentation/board.md);
# guest-riscv64.tar is a root file system (tests/lib/board-host.sh)
# unpacked at /: libc, libdrm, libcmocka in /usr/lib, the suites in
# /tests/lib-riscv64/, run directly.
#
# Usage: guest-lib-tests.sh [TAG [PROGRAM...]]
#   TAG      appended to the test names (the device configuration the
#            caller set up: nogemmini, datapath-only; "default" adds
#            nothing)
#   PROGRAM  lib-test-api, ops-test-conv, ... (default: all); PROG:FILTER
#            runs only the tests of PROG matching the cmocka FILTER
#            (programs that take one: lib-test-ops)
# The device is the accel node of the board's NPU (t_accel_node;
# E1NPU_GUEST_DEV overrides, e.g. a node of the split device tree).
# One "E1VM: PASS/FAIL libe1npu-PROGRAM[-TAG]" line per program; skipped
# tests (in-process-only hooks, or a device of another shape) are listed
# as E1VM-LOG lines with cmocka's reason. Busybox sh.
. /tests/lib.sh

dir=$(dirname "$0")
tag=${1:-default}
[ "$tag" = default ] && tag= || tag=-$tag
[ $# -gt 0 ] && shift
dev=${E1NPU_GUEST_DEV:-$(t_accel_node)}
bin=$dir/lib-riscv64
if [ ! -d "$bin" ] && ! tar -xf "$dir/guest-riscv64.tar" -C /; then
	t_fail "libe1npu-unpack$tag" "cannot unpack $dir/guest-riscv64.tar"
	exit 0
fi
if [ ! -c "$dev" ]; then
	t_fail "libe1npu-device$tag" "no e1npu accel node ('$dev')"
	exit 0
fi
[ $# -gt 0 ] || set -- $(cd "$bin" && ls lib-test-* ops-test-* 2>/dev/null)
# the debug kernel: the suites that are mostly compute (the device model's
# MACs under TCG, 5-15x slower here) are the base guest's
heavy=" lib-test-lifetime ops-test-conv ops-test-lowp ops-test-matmul ops-test-xformer "
[ $# -gt 0 ] || { t_fail "libe1npu-suites$tag" "no test programs in $bin"; exit 0; }

export E1NPU_DEVICE="$dev"
for a in "$@"; do
	p=${a%%:*}
	f=
	case "$a" in *:*) f=${a#*:} ;; esac
	n=libe1npu-$p${f:+.$f}$tag
	case "$heavy" in
	*" $a "*) ! t_debug_skip "$n" "compute-bound; the base guest runs it" || continue ;;
	esac
	out=/tmp/$n.log
	t0=$(cut -d' ' -f1 /proc/uptime)
	"$bin/$p" $f >"$out" 2>&1
	rc=$?
	t1=$(cut -d' ' -f1 /proc/uptime)
	echo "E1VM-LOG: $n: $(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }') s"
	# cmocka: "[  PASSED  ] N test(s)." / "[  SKIPPED ] N test(s)..." per group
	sed -n 's/^\[  PASSED  \] \(.*\)/passed \1/p; s/^\[  SKIP    \] \(.*\)/skip: \1/p; s/^\[  NOTE    \] \(.*\)/note: \1/p' \
		"$out" | sed "s/^/E1VM-LOG: $n: /"
	if [ "$rc" -eq 0 ]; then
		t_pass "$n"
	else
		grep -E '\[  (FAILED|ERROR)|[Ff]ail|error' "$out" | head -n 30 |
			sed "s/^/E1VM-LOG: $n: /"
		tail -n 10 "$out" | sed "s/^/E1VM-LOG: $n: /"
		t_fail "$n" "exit status $rc on $dev"
	fi
	rm -f "$out"
done
exit 0
