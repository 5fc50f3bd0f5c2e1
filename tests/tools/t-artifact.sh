#!/bin/sh
# SPDX-License-Identifier: MIT
#
# /tests/t-artifact.sh: a compiled-model artifact made on the x86_64 host
# (e1npu-tflite compile, tests/tools/artifact.mk) loaded by the riscv64
# e1npu-tflite (the cross-built tool of guest-riscv64.tar) on the board's
# NPU through e1npu.ko: its output must be byte-identical to the same
# model's .tflite run there and to the host's run (art-host.txt, the
# sha256 of the host's output on its in-process device); then the load-to-
# first-output of both files (tests/tools/artifact-bench.sh). Busybox sh.
# With --bench (make bench-artifact-board): the numbers only, more runs.
. /tests/lib.sh

bin=/usr/bin/e1npu-tflite
runs=1
[ "${1:-}" = --bench ] && runs=3
if [ ! -f /tests/art-model.e1c ]; then
	t_skip artifact "no /tests/art-model.e1c (host files not packed)"
	exit 0
fi
if [ ! -x "$bin" ] && ! tar -xf /tests/guest-riscv64.tar -C / 2>/dev/null; then
	t_skip artifact "no guest-riscv64.tar to unpack"
	exit 0
fi
[ -x "$bin" ] || { t_fail artifact-tool "no $bin in guest-riscv64.tar"; exit 0; }
t_insmod e1npu || exit 0
dev=$(t_accel_node)
if [ -z "$dev" ]; then
	t_fail artifact-device "no accel node"
	t_rmmod e1npu
	exit 0
fi
exp=$(cut -d' ' -f1 /tests/art-host.txt)
name=$(cut -d' ' -f2 /tests/art-host.txt)
for f in tflite e1c; do
	t0=$(cut -d' ' -f1 /proc/uptime)
	"$bin" run /tests/art-model.$f -i /tests/art-input.raw -o /tmp/art-out.$f \
		--device "$dev" >/tmp/art.log 2>&1
	rc=$?
	t1=$(cut -d' ' -f1 /proc/uptime)
	echo "E1VM-LOG: artifact $name.$f: $(grep -E '^(load|latency):' /tmp/art.log | tr '\n' ' ')($(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }') s)"
	[ "$rc" = 0 ] || { t_fail "artifact-run-$f" "$(tail -n 3 /tmp/art.log)"; continue; }
	t_pass "artifact-run-$f"
done
if [ -f /tmp/art-out.tflite ] && [ -f /tmp/art-out.e1c ]; then
	got=$(sha256sum </tmp/art-out.e1c | cut -d' ' -f1)
	if cmp -s /tmp/art-out.tflite /tmp/art-out.e1c; then
		t_pass artifact-identical-to-tflite
	else
		t_fail artifact-identical-to-tflite "the artifact's output differs from the .tflite's on $dev"
	fi
	if [ "$got" = "$exp" ]; then
		t_pass artifact-identical-to-host
	else
		t_fail artifact-identical-to-host "output sha256 $got, the host's $exp"
	fi
fi
# numbers, not a test: every line of artifact-bench.sh as a log line
sh /tests/artifact-bench.sh "$bin" /tests/art-model.tflite /tests/art-model.e1c \
	/tests/art-input.raw "$runs" "$dev" "$name (riscv64 guest, TCG)" 2>&1 |
	sed 's/^/E1VM-LOG: /'
rm -f /tmp/art-out.tflite /tmp/art-out.e1c /tmp/art.log
t_rmmod e1npu
exit 0
