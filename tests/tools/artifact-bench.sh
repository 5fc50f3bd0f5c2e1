#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Load-to-first-output of a model from its .tflite and from its compiled
# artifact (e1npu-tflite compile), with e1npu-tflite run: the library's
# load time ("load:") plus the first invoke ("latency: first run"), the
# median of RUNS runs of each, alternated; and the two files' sizes.
# Numbers printed, nothing asserted. Runs on the host (make bench-artifact)
# and in the riscv64 guest (t-artifact.sh; busybox sh and awk).
# Usage: artifact-bench.sh E1NPU-TFLITE MODEL ARTIFACT INPUT RUNS [DEVICE] [NAME]
set -u
tool=$1 model=$2 art=$3 input=$4 runs=$5 dev=${6:-} name=${7:-$(basename "$2")}

# one run: "LOAD FIRST" in ms, or nothing when it failed
one() {
	if [ -n "$dev" ]; then
		o=$("$tool" run "$1" -i "$input" --device "$dev" 2>&1)
	else
		o=$("$tool" run "$1" -i "$input" 2>&1)
	fi || { echo "artifact-bench: $1: $o" >&2; return 1; }
	l=$(echo "$o" | sed -n 's/^load: \([0-9.]*\) ms$/\1/p')
	f=$(echo "$o" | sed -n 's/^latency: first run \([0-9.]*\) ms.*/\1/p')
	[ -n "$l" ] && [ -n "$f" ] && echo "$l $f"
}

median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR) printf "%.1f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

: >/tmp/artifact-bench.m
: >/tmp/artifact-bench.a
i=0
while [ "$i" -lt "$runs" ]; do
	one "$model" >>/tmp/artifact-bench.m || exit 1
	one "$art" >>/tmp/artifact-bench.a || exit 1
	i=$((i + 1))
done
ml=$(awk '{ print $1 }' /tmp/artifact-bench.m | median)
mf=$(awk '{ print $2 }' /tmp/artifact-bench.m | median)
mt=$(awk '{ print $1 + $2 }' /tmp/artifact-bench.m | median)
al=$(awk '{ print $1 }' /tmp/artifact-bench.a | median)
af=$(awk '{ print $2 }' /tmp/artifact-bench.a | median)
at=$(awk '{ print $1 + $2 }' /tmp/artifact-bench.a | median)
ms=$(wc -c <"$model")
as=$(wc -c <"$art")
rm -f /tmp/artifact-bench.m /tmp/artifact-bench.a
echo "artifact-bench: $name, load to first output, median of $runs runs${dev:+ on $dev}:"
echo "artifact-bench:   from the .tflite   $mt ms (load $ml ms + first run $mf ms), $ms bytes"
echo "artifact-bench:   from the artifact  $at ms (load $al ms + first run $af ms), $as bytes"
awk -v a="$ml" -v b="$al" -v s="$as" -v m="$ms" 'BEGIN {
	r = b > 0 ? a / b : 0; p = m ? 100 * (s - m) / m : 0
	printf "artifact-bench:   load %.2fx faster; the artifact is %d bytes larger than the model (%.2f%%)\n", r, s - m, p }'
