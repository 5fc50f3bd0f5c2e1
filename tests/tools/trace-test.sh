#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The timeline trace (lib/trace.c): `e1npu-tflite run --trace FILE`,
# E1NPU_TRACE=FILE in another program (e1npu-classify, npu-smoke) and the
# lowering layer on both engines (trace-ops.c). Each file parses as
# Chrome trace-event JSON, no track overlaps itself, the device spans' dur
# are cycles / clock, and the per-engine cycle sums equal the perf counters
# of the same run (tests/tools/trace-check.py).
# Usage: trace-test.sh E1NPU-TFLITE E1NPU-CLASSIFY NPU-SMOKE TRACE-OPS
set -u
bin=$1 cls=$2 smoke=$3 ops=$4
. "$(dirname "$0")/lib.sh"
test_init trace
model=$data/mobilenet_v1_0.25_128_quant.tflite
chk="python3 $top/tests/tools/trace-check.py"
export E1NPU_DEVICE=sim

python3 "$top/tests/tools/tflite-tool-check.py" bmp "$data/grace_hopper_128.bmp" "$tmp/img.raw"

# perf counters of the run, from e1npu-tflite run --json
perf() { python3 -c 'import json, sys; p = json.load(open(sys.argv[1]))["perf"]; print(p["wrapper_cycles"], p["dp_cycles"])' "$1"; }

t_tool_run() {
	"$bin" run "$model" -i "$tmp/img.raw" -n 3 --trace "$tmp/run.json" --json >"$tmp/run.out" 2>"$err" &&
	set -- $(perf "$tmp/run.out") && [ "$1" -gt 0 ] &&
	$chk "$tmp/run.json" --wrapper "$1" --dp "$2" --layers 93 >"$out"
}
t_tool_diff() {
	# both paths: the reference path's layers are host ops
	"$bin" diff "$model" -i "$tmp/img.raw" --trace "$tmp/diff.json" >/dev/null 2>"$err" &&
	$chk "$tmp/diff.json" --layers 62 >"$out" &&
	python3 -c 'import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
assert sum(1 for e in ev if e.get("cat") == "host") >= 31' "$tmp/diff.json"
}
t_env_classify() {
	# any program: E1NPU_TRACE, written at exit; classify's per-layer
	# cycles (perf counter deltas) are the same run's counters
	E1NPU_TRACE=$tmp/cls.json "$cls" -m "$model" -i "$data/grace_hopper_128.bmp" --json \
		>"$tmp/cls.out" 2>"$err" &&
	set -- $(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["wrapper_cycles"], d["dp_cycles"])' "$tmp/cls.out") &&
	$chk "$tmp/cls.json" --wrapper "$1" --dp "$2" --layers 31 >"$out"
}
t_both_engines() {
	"$ops" "$tmp/ops.json" >"$tmp/ops.out" 2>"$err" &&
	set -- $(cat "$tmp/ops.out") && [ "$2" -gt 0 ] && [ "$4" -gt 0 ] &&
	$chk "$tmp/ops.json" --wrapper "$2" --dp "$4" --need-dp >"$out"
}
t_env_smoke() {
	E1NPU_TRACE=$tmp/smoke.json "$smoke" smoke >/dev/null 2>"$err" &&
	$chk "$tmp/smoke.json" --need-dp >"$out"
}
t_full_disk() {
	[ -w /dev/full ] || return 0
	"$bin" run "$model" -i "$tmp/img.raw" --trace /dev/full >"$out" 2>"$err"
	[ $? = 1 ] && grep -q -- '--trace /dev/full: No space left on device' "$err"
}
t_bad_dir() {
	"$bin" run "$model" -i "$tmp/img.raw" --trace "$tmp/no/such.json" >"$out" 2>"$err"
	[ $? = 2 ] && grep -q 'no/such.json: No such file or directory' "$err"
}

check tool_run t_tool_run
check tool_diff t_tool_diff
check env_classify t_env_classify
check both_engines t_both_engines
check env_smoke t_env_smoke
check full_disk t_full_disk
check bad_dir t_bad_dir
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
