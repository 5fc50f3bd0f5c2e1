#!/bin/sh
# SPDX-License-Identifier: MIT
#
# /tests/guest-lib-tests.sh: the library's cmocka suites (tests/lib/test-*,
# tests/ops/test-*) inside the QEMU guests, on the kernel backend
# (E1NPU_DEVICE=DEVICE: e1npu.ko on e1npu_sim.ko).
#   x86_64: the binaries the host runs on the in-process model;
#     guest-lib-x86.tar (tests/lib/guest-lib.mk) holds them and the dynamic
#     loader plus shared libraries they need, unpacked into /tests/lib-x86/.
#   riscv64: the binaries of the documented cross build
#     (Documentation/board.md); guest-riscv64.tar is a root file system
#     (tests/lib/board-host.sh) unpacked at /: libc, libdrm, libcmocka in
#     /usr/lib, the suites in /tests/lib-riscv64/, run directly.
#
# Usage: guest-lib-tests.sh [TAG [PROGRAM...]]
#   TAG      appended to the test names (the simulator configuration
#            run-guest.sh loaded; "default" adds nothing)
#   PROGRAM  lib-test-api, ops-test-conv, ... (default: all); PROG:FILTER
#            runs only the tests of PROG matching the cmocka FILTER
#            (programs that take one: lib-test-ops)
# The device is the accel node of the e1npu-sim platform device
# (E1NPU_GUEST_DEV overrides).
# One "E1VM: PASS/FAIL libe1npu-PROGRAM[-TAG]" line per program; skipped
# tests (sim-only hooks, or a device of another shape) are listed as
# E1VM-LOG lines with cmocka's reason. Busybox sh.
. /tests/lib.sh

dir=$(dirname "$0")
tag=${1:-default}
[ "$tag" = default ] && tag= || tag=-$tag
[ $# -gt 0 ] && shift
dev=${E1NPU_GUEST_DEV:-}
if [ -z "$dev" ]; then
	for _d in /sys/devices/platform/e1npu-sim/accel/accel*; do
		[ -d "$_d" ] && dev=/dev/accel/${_d##*/}
	done
fi
case "${E1VM_ARCH:-$(uname -m)}" in
riscv64)
	bin=$dir/lib-riscv64
	if [ ! -d "$bin" ] && ! tar -xf "$dir/guest-riscv64.tar" -C /; then
		t_fail "libe1npu-unpack$tag" "cannot unpack $dir/guest-riscv64.tar"
		exit 0
	fi
	run() { "$@"; }
	;;
*)
	bin=$dir
	lib=$dir/lib-x86
	if [ ! -x "$lib/ld-linux-x86-64.so.2" ] &&
		! tar -xf "$dir/guest-lib-x86.tar" -C "$dir"; then
		t_fail "libe1npu-unpack$tag" "cannot unpack $dir/guest-lib-x86.tar"
		exit 0
	fi
	run() { "$lib/ld-linux-x86-64.so.2" --library-path "$lib" "$@"; }
	;;
esac
if [ ! -c "$dev" ]; then
	t_fail "libe1npu-device$tag" "no e1npu accel node ('$dev')"
	exit 0
fi
[ $# -gt 0 ] || set -- $(cd "$bin" && ls lib-test-* ops-test-* 2>/dev/null)
[ $# -gt 0 ] || { t_fail "libe1npu-suites$tag" "no test programs in $bin"; exit 0; }

export E1NPU_DEVICE="$dev"
for a in "$@"; do
	p=${a%%:*}
	f=
	case "$a" in *:*) f=${a#*:} ;; esac
	n=libe1npu-$p${f:+.$f}$tag
	out=/tmp/$n.log
	t0=$(cut -d' ' -f1 /proc/uptime)
	run "$bin/$p" $f >"$out" 2>&1
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
