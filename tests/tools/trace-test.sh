#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The timeline trace (lib/trace.c): --trace FILE on every tool
# (e1npu-tflite run and diff, e1npu-classify, npu-smoke, e1npu-hlo: the
# file, its precedence over E1NPU_TRACE, an unwritable FILE named with
# exit 2, a full disk with exit 1, bad input leaving an existing FILE as
# it was), E1NPU_TRACE=FILE in another program
# (e1npu-classify, npu-smoke) and the lowering layer on both engines
# (trace-ops.c, with runs on both engines at once: overlapping when
# independent, one after the other when dependent, on the model's clock). Each file parses as
# Chrome trace-event JSON, no track overlaps itself, the device spans' dur
# are cycles / clock, and the per-engine cycle sums equal the perf counters
# of the same run (tests/tools/trace-check.py).
# Usage: trace-test.sh E1NPU-TFLITE E1NPU-CLASSIFY NPU-SMOKE TRACE-OPS E1NPU-HLO
set -u
bin=$1 cls=$2 smoke=$3 ops=$4 hlo=$5
. "$(dirname "$0")/lib.sh"
test_init trace
need_data
model=$data/mobilenet_v1_0.25_128_quant.tflite
chk="python3 $top/tests/tools/trace-check.py"
export E1NPU_DEVICE=sim

python3 "$top/tests/tools/tflite-tool-check.py" bmp "$data/grace_hopper_128.bmp" "$tmp/img.raw"

# perf counters of the run, from e1npu-tflite run --json
perf() { python3 -c 'import json, sys; p = json.load(open(sys.argv[1]))["perf"]; print(p["wrapper_cycles"], p["dp_cycles"], p["wrapper_macs"], p["dp_macs"], p["bytes"])' "$1"; }

t_tool_run() {
	"$bin" run "$model" -i "$tmp/img.raw" -n 3 --trace "$tmp/run.json" --json >"$tmp/run.out" 2>"$err" &&
	set -- $(perf "$tmp/run.out") && [ "$1" -gt 0 ] &&
	$chk "$tmp/run.json" --wrapper "$1" --dp "$2" --wrapper-macs "$3" --dp-macs "$4" \
		--bytes "$5" --layers 93 >"$out"
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
	set -- $(head -n 1 "$tmp/ops.out") && [ "$2" -gt 0 ] && [ "$4" -gt 0 ] &&
	$chk "$tmp/ops.json" --wrapper "$2" --dp "$4" --wrapper-macs "$6" --dp-macs "$8" \
		--bytes "${10}" --need-dp >"$out" &&
	python3 - "$tmp/ops.json" "$tmp/ops.out" <<'PY'
# a run on both engines, on the global clock: independent work overlaps
# (both spans start at the clock before the run), the GEMM that reads the
# matmul's output starts when the matmul ends
import json, sys
d = json.load(open(sys.argv[1]))
mhz = d["otherData"]["device_clock_mhz"]
spans = {(e["args"]["engine"], round(e["ts"] * 1000), round(e["dur"] * 1000))
         for e in d["traceEvents"] if e["ph"] == "X" and e["pid"] == 2}
mixed = [ln.split() for ln in open(sys.argv[2]) if ln.startswith("mixed ")]
assert len(mixed) == 2, mixed
for _, dep, g0, w, dp in mixed:
    dep, g0, w, dp = int(dep), int(g0), int(w), int(dp)
    assert w > 0 and dp > 0, (w, dp)
    ns = lambda c: c * 1000 // mhz
    want = {("wrapper", ns(g0), ns(w)), ("datapath", ns(g0 + (w if dep else 0)), ns(dp))}
    assert want <= spans, ("dependent" if dep else "independent", want, sorted(spans))
PY
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

# --trace on the other tools; given, it wins over E1NPU_TRACE (never opened)
t_cls_trace() {
	E1NPU_TRACE=$tmp/cls-env.json "$cls" -m "$model" -i "$data/grace_hopper_128.bmp" --json \
		--trace "$tmp/cls-opt.json" >"$tmp/cls2.out" 2>"$err" &&
	[ ! -e "$tmp/cls-env.json" ] &&
	set -- $(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["wrapper_cycles"], d["dp_cycles"])' "$tmp/cls2.out") &&
	$chk "$tmp/cls-opt.json" --wrapper "$1" --dp "$2" --layers 31 >"$out"
}
t_smoke_trace() {
	E1NPU_TRACE=$tmp/smoke-env.json "$smoke" smoke --trace "$tmp/smoke-opt.json" >/dev/null 2>"$err" &&
	[ ! -e "$tmp/smoke-env.json" ] &&
	$chk "$tmp/smoke-opt.json" --need-dp >"$out"
}
t_hlo_trace() {
	E1NPU_TRACE=$tmp/hlo-env.json "$hlo" run --trace "$tmp/hlo.json" \
		"$top/tests/hlo/gen-dot.mlir" >/dev/null 2>"$err" &&
	[ ! -e "$tmp/hlo-env.json" ] &&
	$chk "$tmp/hlo.json" --need-dp >"$out" &&
	python3 -c 'import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
assert sum(1 for e in ev if e.get("cat") == "submit") >= 1' "$tmp/hlo.json"
}
# FILE that cannot be created: exit 2, the file named, no output file
bad_file() {
	want=$1
	shift
	"$@" >"$out" 2>"$err"
	rc=$?
	[ "$rc" = "$want" ] || { echo "exit $rc, expected $want" >>"$err"; return 1; }
}
t_cls_bad() {
	bad_file 2 "$cls" -m "$model" -i "$data/grace_hopper_128.bmp" --trace "$tmp/no/c.json" &&
	grep -q -- "--trace $tmp/no/c.json: No such file or directory" "$err"
}
t_smoke_bad() {
	bad_file 2 "$smoke" ping --trace "$tmp/no/s.json" &&
	grep -q -- "--trace $tmp/no/s.json: No such file or directory" "$err"
}
t_hlo_bad() {
	bad_file 2 "$hlo" run --trace "$tmp/no/h.json" "$top/tests/hlo/gen-dot.mlir" &&
	grep -q -- "--trace $tmp/no/h.json: No such file or directory" "$err"
}
t_full_disk_tools() {
	[ -w /dev/full ] || return 0
	bad_file 1 "$cls" -m "$model" -i "$data/grace_hopper_128.bmp" --trace /dev/full &&
	grep -q -- '--trace /dev/full: No space left on device' "$err" &&
	bad_file 1 "$smoke" ping --trace /dev/full &&
	grep -q -- '--trace /dev/full: No space left on device' "$err" &&
	bad_file 1 "$hlo" run --trace /dev/full "$top/tests/hlo/gen-dot.mlir" &&
	grep -q -- '--trace /dev/full: No space left on device' "$err"
}

# bad input changes nothing: FILE keeps its bytes, no temporary is left
unchanged() {
	[ "$(cat "$tmp/keep/t.json")" = "old trace" ] && [ "$(ls "$tmp/keep")" = "t.json" ]
}
t_bad_input_keeps() {
	rm -rf "$tmp/keep" && mkdir "$tmp/keep" && echo "old trace" >"$tmp/keep/t.json" &&
	printf 'not a model' >"$tmp/bad.tflite" &&
	bad_file 2 "$bin" run "$tmp/bad.tflite" -i "$tmp/img.raw" --trace "$tmp/keep/t.json" && unchanged &&
	bad_file 2 "$bin" run "$model" -i "$tmp/bad.tflite" --trace "$tmp/keep/t.json" && unchanged &&
	bad_file 2 "$cls" -m "$tmp/bad.tflite" -i "$data/grace_hopper_128.bmp" --trace "$tmp/keep/t.json" &&
	unchanged &&
	bad_file 2 "$hlo" run --trace "$tmp/keep/t.json" "$tmp/bad.tflite" && unchanged &&
	bad_file 2 "$smoke" --trace "$tmp/keep/t.json" bench -n 0 && unchanged &&
	E1NPU_SIM_ARENA_MB=0 bad_file 2 "$smoke" --trace "$tmp/keep/t.json" ping && unchanged
}
# a good run replaces FILE, with the mode a new file gets (not mkstemp's)
t_good_run_writes() {
	rm -rf "$tmp/keep" && mkdir "$tmp/keep" && echo "old trace" >"$tmp/keep/t.json" &&
	chmod 644 "$tmp/keep/t.json" &&
	"$bin" run "$model" -i "$tmp/img.raw" --trace "$tmp/keep/t.json" >"$out" 2>"$err" &&
	[ "$(ls "$tmp/keep")" = "t.json" ] && [ "$(stat -c %a "$tmp/keep/t.json")" = 644 ] &&
	$chk "$tmp/keep/t.json" --layers 31 >"$out" &&
	(umask 022 && "$smoke" ping --trace "$tmp/keep/new.json" >/dev/null 2>"$err") &&
	[ "$(stat -c %a "$tmp/keep/new.json")" = 644 ] && $chk "$tmp/keep/new.json" >"$out"
}

check tool_run t_tool_run
check tool_diff t_tool_diff
check env_classify t_env_classify
check both_engines t_both_engines
check env_smoke t_env_smoke
check full_disk t_full_disk
check bad_dir t_bad_dir
check classify_trace t_cls_trace
check smoke_trace t_smoke_trace
check hlo_trace t_hlo_trace
check classify_bad_file t_cls_bad
check smoke_bad_file t_smoke_bad
check hlo_bad_file t_hlo_bad
check full_disk_tools t_full_disk_tools
check bad_input_keeps_file t_bad_input_keeps
check good_run_writes_file t_good_run_writes
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
