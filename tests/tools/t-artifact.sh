#!/bin/sh
# SPDX-License-Identifier: MIT
#
# /tests/t-artifact.sh: compiled-model artifacts made on the x86_64 host
# (e1npu-tflite compile, tests/tools/artifact.mk) loaded by the riscv64
# e1npu-tflite (the cross-built tool of guest-riscv64.tar). Each output
# must be byte-identical to the same model's .tflite run there and to the
# host's (art-K-host.txt: the sha256 of the host's output on its
# in-process device): art-small (the shipped MobileNet v1 0.25) through
# e1npu.ko on the board's NPU, art-big (MobileNetV2) on the guest's
# in-process device, whose staging fits where the board's 4 MiB tensor
# arena does not. Then the load-to-first-output of art-big's two files
# (tests/tools/artifact-bench.sh; numbers, not a test). Busybox sh.
# --bench (make bench-artifact-board): the numbers only, 5 runs each (3 in
# the test run). A model absent on the build machine (its art-K-host.txt
# says "SKIP PATH absent"): its checks skipped, naming the path.
. /tests/lib.sh
# the debug kernel checks the driver; this is userspace
t_debug_skip artifact "compiled artifacts in userspace: the base guest runs it" && exit 0

bin=/usr/bin/e1npu-tflite
bench=0
[ "${1:-}" = --bench ] && bench=1
# a model the build machine had no shared/ for (SHARED_DIR absent): its
# art-K-host.txt alone, "SKIP PATH absent ...": K's checks skipped, naming it
skip_big=$(sed -n 's/^SKIP //p' /tests/art-big-host.txt 2>/dev/null)
skip_small=$(sed -n 's/^SKIP //p' /tests/art-small-host.txt 2>/dev/null)
[ -z "$skip_small" ] || [ "$bench" = 1 ] || t_skip artifact-small "$skip_small"
[ -z "$skip_big" ] || [ "$bench" = 1 ] || t_skip artifact-big "$skip_big"
if [ -n "$skip_big" ] && { [ -n "$skip_small" ] || [ "$bench" = 1 ]; }; then
	t_skip artifact-bench "$skip_big"
	exit 0
fi
if { [ -z "$skip_big" ] && [ ! -f /tests/art-big.e1c ]; } ||
	{ [ -z "$skip_small" ] && [ ! -f /tests/art-small.e1c ]; }; then
	t_skip artifact "no /tests/art-*.e1c (host files not packed)"
	exit 0
fi
if [ ! -x "$bin" ] && ! tar -xf /tests/guest-riscv64.tar -C / 2>/dev/null; then
	t_skip artifact "no guest-riscv64.tar to unpack"
	exit 0
fi
[ -x "$bin" ] || { t_fail artifact-tool "no $bin in guest-riscv64.tar"; exit 0; }

# check K DEVICE: both files of art-K on DEVICE, identical to each other and the host
check() {
	k=$1 d=$2
	exp=$(cut -d' ' -f1 /tests/art-$k-host.txt)
	name=$(cut -d' ' -f2 /tests/art-$k-host.txt)
	for f in tflite e1c; do
		t0=$(cut -d' ' -f1 /proc/uptime)
		"$bin" run /tests/art-$k.$f -i /tests/art-$k-input.raw -o /tmp/art-out.$f \
			--device "$d" >/tmp/art.log 2>&1
		rc=$?
		t1=$(cut -d' ' -f1 /proc/uptime)
		echo "E1VM-LOG: artifact $name.$f on $d: $(grep -E '^(load|latency):' /tmp/art.log | tr '\n' ' ')($(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }') s)"
		if [ "$rc" = 0 ]; then
			t_pass "artifact-$k-run-$f"
		else
			t_fail "artifact-$k-run-$f" "$(tail -n 3 /tmp/art.log)"
			rm -f /tmp/art-out.$f
		fi
	done
	if [ -f /tmp/art-out.tflite ] && [ -f /tmp/art-out.e1c ]; then
		got=$(sha256sum </tmp/art-out.e1c | cut -d' ' -f1)
		if cmp -s /tmp/art-out.tflite /tmp/art-out.e1c; then
			t_pass "artifact-$k-identical-to-tflite"
		else
			t_fail "artifact-$k-identical-to-tflite" "$name: the artifact's output differs from the .tflite's on $d"
		fi
		if [ "$got" = "$exp" ]; then
			t_pass "artifact-$k-identical-to-host"
		else
			t_fail "artifact-$k-identical-to-host" "$name on $d: output sha256 $got, the host's $exp"
		fi
	fi
	rm -f /tmp/art-out.tflite /tmp/art-out.e1c /tmp/art.log
}

if [ "$bench" = 0 ] && [ -z "$skip_small" ]; then
	if t_insmod e1npu; then
		dev=$(t_accel_node)
		if [ -n "$dev" ]; then
			check small "$dev"
		else
			t_fail artifact-device "no accel node"
		fi
		t_rmmod e1npu
	fi
fi
if [ "$bench" = 0 ] && [ -z "$skip_big" ]; then
	check big sim
fi
[ -z "$skip_big" ] || { t_skip artifact-bench "$skip_big"; exit 0; }
# the numbers: every line of artifact-bench.sh as a log line
sh /tests/artifact-bench.sh "$bin" /tests/art-big.tflite /tests/art-big.e1c \
	/tests/art-big-input.raw $((3 + 2 * bench)) sim \
	"$(cut -d' ' -f2 /tests/art-big-host.txt) (riscv64 guest, TCG, in-process device)" 2>&1 |
	sed 's/^/E1VM-LOG: /'
exit 0
