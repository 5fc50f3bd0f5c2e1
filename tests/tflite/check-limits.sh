#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The TFLite loader's limits (lib/tflite/tflite_reader.h): each file of
# tests/tflite/mklimits.py (a count one past TFL_MAX_BUFFERS,
# TFL_MAX_OPCODES, TFL_MAX_SUBGRAPHS, TFL_MAX_TENSORS, TFL_MAX_OPERATORS;
# operators sharing one table past the memory budget, in the parser and in
# the loader) is refused by `e1npu-tflite report` with the text
# mklimits.py expects, naming the limit, in bounded memory (peak resident
# size at most MAXRSS KiB: before the limits, such files of ~250 KB took
# 250 to 290 MB);
# a small model within every limit loads (its counts reported).
# Usage: check-limits.sh E1NPU-TFLITE [MAXRSS KiB, default 65536]
set -u
tool=$1
maxrss=${2:-65536}
# rss CMD...: run CMD, its peak resident size (KiB) in $tmp/rss; CMD's status
rss() {
	python3 -c 'import resource, subprocess, sys
r = subprocess.run(sys.argv[2:])
open(sys.argv[1], "w").write("%d\n" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(r.returncode)' "$tmp/rss" "$@"
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
python3 "$(dirname "$0")/mklimits.py" "$tmp" || exit 1
while IFS='	' read -r name want; do
	# (report shows what it parsed: a model the loader refuses has its
	# reason on the "arena: not planned:" line of stdout, status 0)
	E1NPU_DEVICE=sim rss "$tool" report "$tmp/$name.tflite" >"$tmp/out" 2>"$tmp/err"
	cat "$tmp/out" >>"$tmp/err"
	if [ "$(cat "$tmp/rss")" -gt "$maxrss" ]; then
		fail=$((fail + 1)); echo "FAIL tflite_limit_$name: peak resident size $(cat "$tmp/rss") KiB > $maxrss KiB"
	elif grep -qF -- "$want" "$tmp/err"; then
		pass=$((pass + 1)); echo "PASS tflite_limit_$name"
	else
		fail=$((fail + 1)); echo "FAIL tflite_limit_$name: expected '$want'"
		sed 's/^/  stderr: /' "$tmp/err"
	fi
done <"$tmp/expect.txt"
E1NPU_DEVICE=sim "$tool" report "$tmp/within.tflite" >"$tmp/out" 2>"$tmp/err"
if grep -q '4 operators, 8 tensors' "$tmp/out" && ! grep -q 'limit' "$tmp/err"; then
	pass=$((pass + 1)); echo "PASS tflite_limit_within"
else
	fail=$((fail + 1)); echo "FAIL tflite_limit_within"; sed 's/^/  /' "$tmp/out" "$tmp/err"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
