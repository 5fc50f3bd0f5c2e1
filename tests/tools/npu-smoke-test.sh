#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Command-line tests of npu-smoke on the in-process model: exit status,
# diagnostics and output format of every subcommand.
# Usage: npu-smoke-test.sh PATH-TO-NPU-SMOKE
set -u
bin=$1
pass=0
fail=0
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

# run EXPECTED-STATUS ARGS...: run npu-smoke, keep stdout/stderr.
run() {
	want=$1
	shift
	E1NPU_DEVICE=sim "$bin" "$@" >"$out" 2>"$err"
	got=$?
	[ "$got" = "$want" ] && return 0
	echo "  exit status $got, expected $want: npu-smoke $*" >&2
	sed 's/^/  stderr: /' "$err" >&2
	return 1
}
ok() { pass=$((pass + 1)); echo "PASS $1"; }
ko() { fail=$((fail + 1)); echo "FAIL $1"; }
check() { name=$1; shift; if "$@"; then ok "$name"; else ko "$name"; fi; }

t_help() { run 0 --help && grep -q '^Usage: npu-smoke' "$out" && grep -q 'ops' "$out"; }
t_version() { run 0 --version && grep -Eq '[0-9]+\.[0-9]+' "$out"; }
t_no_command() { run 1 && grep -q '^npu-smoke: missing command' "$err"; }
t_unknown_command() { run 1 frobnicate && grep -q "unknown command 'frobnicate'" "$err"; }
t_bad_device() {
	run 1 --device /nonexistent/accel9 info &&
		grep -q '^npu-smoke: ' "$err" && grep -q '/nonexistent/accel9' "$err"
}
t_info() { run 0 info && grep -qi 'wrapper' "$out" && grep -qi 'datapath' "$out"; }
t_info_json() { run 0 --json info && python3 -m json.tool "$out" >/dev/null; }
t_ping() { run 0 ping && grep -q 'NOP job completed' "$out"; }
t_smoke() { run 0 smoke && ! grep -q 'FAIL' "$out" && grep -q 'matmul' "$out"; }
t_smoke_json() {
	run 0 smoke --json || return 1
	# One document; every operation passed and names where it ran.
	python3 - "$out" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
ops = doc["ops"]
ok = len(ops) > 10 and all(o["result"] == "pass" and o["engine"] for o in ops)
sys.exit(0 if ok else 1)
PY
}
t_ops() {
	run 0 ops && grep -Eq '^matmul_s8 +wrapper +yes' "$out" &&
		grep -Eq 'datapath +no ' "$out"
}
t_ops_json() { run 0 --json ops && python3 -m json.tool "$out" >/dev/null; }
t_perf() { run 0 perf && grep -qi 'cycles' "$out"; }
t_bench() { run 0 bench -n 5 && grep -qi 'p50' "$out"; }
t_bench_bad_n() { run 1 bench -n notanumber && grep -q 'notanumber' "$err"; }

for t in help version no_command unknown_command bad_device info info_json \
	ping smoke smoke_json ops ops_json perf bench bench_bad_n; do
	check "$t" "t_$t"
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
