#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Command-line tests of npu-smoke on the in-process model: exit status
# (0 success, 1 a run failed, 2 usage or input), diagnostics and output
# format of every subcommand.
# Usage: npu-smoke-test.sh PATH-TO-NPU-SMOKE
set -u
bin=$1
pass=0
fail=0
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$out.json" "$err"' EXIT
. "$(dirname "$0")/lib.sh"	# pty_sigint

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
t_no_command() { run 2 && grep -q '^npu-smoke: missing command' "$err"; }
t_unknown_command() { run 2 frobnicate && grep -q "unknown command 'frobnicate'" "$err"; }
t_bad_device() {
	run 1 --device /nonexistent/accel9 info &&
		grep -q '^npu-smoke: ' "$err" && grep -q '/nonexistent/accel9' "$err"
}
t_info() { run 0 info && grep -qi 'wrapper' "$out" && grep -qi 'datapath' "$out"; }
t_info_json() { run 0 --json info && python3 -m json.tool "$out" >/dev/null; }
t_ping() { run 0 ping && grep -q 'NOP job completed' "$out"; }
t_smoke() {
	run 0 smoke && ! grep -q 'FAIL' "$out" && grep -q 'matmul' "$out" &&
		grep -q '^LOWERED OPERATION' "$out" &&
		grep -Eq '^[0-9]+/[0-9]+ passed \(32 hardware, [0-9]+ lowered\) in [0-9.]+ ms$' "$out"
}
# The lowered operations issue 8 lists, by e1npu_ops_kind_name().
kinds="matmul_s8 matmul_s4 matmul_s2 matmul_ternary matmul_sparse_s4_2_4
	matmul_fp8_e4m3 matmul_fp16_q8_8 matmul_bf16_q8_8 matmul_group_scaled_s4
	batch_matmul_s8 conv2d depthwise_conv2d grouped_conv2d max_pool_2d
	average_pool_2d relu bias_add residual_add softmax softmax_exp2
	attention_qk attention_av attention qkv_projection kv_cache_append
	decode_attention mlp_relu swiglu silu_exp2 quick_gelu_exp2 rms_norm rope
	transformer_block decoder_block"
t_smoke_json() {
	run 0 smoke --json || return 1
	cp "$out" "$out.json"
	run 0 smoke || return 1
	# One document; every case passed, says where it ran and why, and has
	# its row in the table; every listed lowered kind is there.
	python3 - "$out.json" "$out" $kinds <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
table = open(sys.argv[2]).read().splitlines()
ops = doc["ops"]
hw = [o for o in ops if o["part"] == "hw"]
lo = [o for o in ops if o["part"] == "lowered"]
err = []
if len(hw) != 32 or len(lo) + len(hw) != len(ops):
    err.append("parts: %d hw, %d lowered, %d in all" % (len(hw), len(lo), len(ops)))
if doc["passed"] != len(ops) or doc["failed"] != 0:
    err.append("totals %d/%d" % (doc["passed"], doc["failed"]))
if len({o["name"] for o in ops}) != len(ops):
    err.append("case names repeat")
for o in ops:
    if o["result"] != "pass" or o["engine"] not in ("wrapper", "datapath", "cpu"):
        err.append("%s: %s on %s" % (o["name"], o["result"], o["engine"]))
for o in lo:
    if o["reason"] == "unknown" or not o["why"] or o["note"] or o["error"]:
        err.append("%s: reason %r why %r" % (o["name"], o["reason"], o["why"]))
    if o["engine"] != "cpu" and o["hw_ops"] == 0:
        err.append("%s: ran on %s with no hardware op" % (o["name"], o["engine"]))
    row = [l for l in table if l.startswith(o["name"] + " ")]
    if len(row) != 1 or (" %s " % o["engine"]) not in row[0] \
       or (" pass " not in row[0]) or (o["reason"] + ": ") not in row[0]:
        err.append("%s: table row %r" % (o["name"], row))
missing = set(sys.argv[3:]) - {o["op"] for o in lo}
if missing:
    err.append("lowered kinds missing: " + " ".join(sorted(missing)))
if {o["engine"] for o in lo} != {"wrapper", "datapath", "cpu"}:
    err.append("lowered engines: %s" % sorted({o["engine"] for o in lo}))
for e in err:
    print("  " + e, file=sys.stderr)
sys.exit(1 if err else 0)
PY
}
# part=hw|lowered N: every JSON case is of that part, and there are N.
only_part() {
	python3 - "$out" "$1" "$2" <<'PY'
import json, sys
ops = json.load(open(sys.argv[1]))["ops"]
n = int(sys.argv[3]) if sys.argv[3] != "any" else len(ops)
sys.exit(0 if ops and len(ops) == n and all(o["part"] == sys.argv[2] and o["result"] == "pass" for o in ops) else 1)
PY
}
t_smoke_hw_only() {
	run 0 smoke --hw-only && grep -Eq '^32/32 passed \(32 hardware, 0 lowered\) in [0-9.]+ ms$' "$out" &&
		! grep -q '^LOWERED' "$out" && run 0 smoke --hw-only --json && only_part hw 32
}
t_smoke_lowered_only() {
	run 0 smoke --lowered-only && grep -Eq '^([0-9]+)/\1 passed \(0 hardware, \1 lowered\) in [0-9.]+ ms$' "$out" &&
		! grep -q '^HARDWARE' "$out" && run 0 --json smoke --lowered-only && only_part lowered any
}
# Without the systolic array (CAPS.gemmini_present = 0) every case still
# passes; no lowered case claims the wrapper, and the hardware MATMUL and
# CONV2D ops are rejected and run on the CPU.
t_smoke_nogemmini() {
	E1NPU_SIM_GEMMINI=0 run 0 smoke --json || return 1
	python3 - "$out" <<'PY'
import json, sys
ops = json.load(open(sys.argv[1]))["ops"]
lo = [o for o in ops if o["part"] == "lowered"]
ok = all(o["result"] == "pass" for o in ops) and lo and \
     all(o["engine"] != "wrapper" and o["wrapper"] == 0 for o in lo) and \
     any(o["reason"] == "no_engine" for o in lo) and \
     all(o["engine"] == "cpu" for o in ops if o["part"] == "hw" and o["op"] in ("matmul_s8", "conv2d_s8"))
sys.exit(0 if ok else 1)
PY
}
t_smoke_only_conflict() {
	run 2 smoke --hw-only --lowered-only && grep -q 'exclude each other' "$err"
}
# tests/lib/guest-smoke.sh (the QEMU guests' comparison) run here on the
# model against a host JSON made by this binary: equal passes; one changed
# lowered checksum, or a host JSON without lowered cases, fails.
t_guest_smoke_script() {
	g=$(mktemp -d) || return 1
	cp "$(dirname "$0")/../lib/guest-smoke.sh" "$g/" && ln -s "$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")" "$g/npu-smoke-static" &&
		E1NPU_DEVICE=sim "$bin" smoke --json >"$g/smoke-host.json" &&
		sh "$g/guest-smoke.sh" sim >"$out" 2>"$err" &&
		grep -Eq '^guest-smoke: [0-9]+ cases \(32 hardware, [1-9][0-9]* lowered\) on sim match' "$out" &&
		sed -i '/"part":"lowered"/{s/"checksum":"[0-9a-f]/"checksum":"x/;}' "$g/smoke-host.json" &&
		! sh "$g/guest-smoke.sh" sim >"$out" 2>"$err" && grep -q 'MISMATCH' "$err" &&
		E1NPU_DEVICE=sim "$bin" smoke --json --hw-only >"$g/smoke-host.json" &&
		! sh "$g/guest-smoke.sh" sim >"$out" 2>"$err" && grep -q '0 lowered cases' "$err"
	r=$?
	rm -rf "$g"
	return $r
}
t_ops() {
	run 0 ops && grep -Eq '^matmul_s8 +wrapper +yes' "$out" &&
		grep -Eq 'datapath +no ' "$out"
}
t_ops_json() { run 0 --json ops && python3 -m json.tool "$out" >/dev/null; }
t_perf() { run 0 perf && grep -qi 'cycles' "$out"; }
t_bench() { run 0 bench -n 5 && grep -qi 'p50' "$out"; }
t_bench_bad_n() { run 2 bench -n notanumber && grep -q 'notanumber' "$err"; }
# Hostile input (issue 11): errno names, operands, JSON errors, write
# errors, bad environment.
t_device_dir() {
	run 1 --device /tmp info && grep -qi 'is a directory' "$err" &&
		! grep -q 'unknown error' "$err"
}
t_extra_operand() {
	run 2 info extra && grep -q "unexpected argument 'extra'" "$err" &&
		run 2 smoke --hw-only extra && grep -q "'extra'" "$err"
}
t_json_error() {
	run 1 --json --device /nonexistent/accel9 info &&
		python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert "accel9" in d["error"]' "$out" &&
		grep -q 'accel9' "$err"
}
t_json_error_first() {
	# the bad option comes before --json: still a JSON error on stdout
	run 2 info --bogus --json &&
		python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert "--help" in d["error"]' "$out"
}
t_write_full() {
	E1NPU_DEVICE=sim "$bin" info >/dev/full 2>"$err"
	[ $? = 1 ] && grep -q 'write error' "$err"
}
t_stdout_closed() {
	E1NPU_DEVICE=sim "$bin" info >&- 2>"$err"
	[ $? = 1 ] && grep -q 'write error' "$err"
}
t_arena_env() {
	for v in 0 -5 abc 99999999999999999999 4096; do
		E1NPU_SIM_ARENA_MB=$v E1NPU_DEVICE=sim "$bin" info >"$out" 2>"$err"
		[ $? = 2 ] && grep -q "E1NPU_SIM_ARENA_MB='$v': expected a whole number of MiB from 1 to 3072" "$err" || {
			echo "  E1NPU_SIM_ARENA_MB=$v accepted or not named" >&2
			return 1
		}
	done
	E1NPU_SIM_ARENA_MB=8 E1NPU_DEVICE=sim "$bin" info >"$out" 2>"$err" &&
		grep -q 'tensor arena: *8 MiB' "$out"
}

# Issue 22: exit 2 for usage and input errors, options and variables named
# with their ranges, the device named, progress erased on Ctrl-C.
t_help_full() {
	"$bin" --help >/dev/full 2>"$err"
	[ $? = 1 ] && grep -q 'write error on stdout: No space left on device' "$err" &&
		"$bin" --version >/dev/full 2>"$err"
	[ $? = 1 ] && grep -q 'write error' "$err"
}
t_bench_n_range() {
	run 2 bench -n 0 && grep -q "bench -n/--iterations: '0' is not a whole number from 1 to 1000000" "$err" &&
		run 2 bench -n 1000001 && grep -q "'1000001' is not a whole number from 1 to 1000000" "$err" &&
		run 2 bench --matmul 0 && grep -q "bench -m/--matmul: '0' is not a whole number from 1 to 65536" "$err"
}
t_env_lowering() {
	E1NPU_OPS_LOWERING=fast run 2 ops &&
		grep -q "E1NPU_OPS_LOWERING='fast': expected 'auto', 'conv2d', 'matmul' or 'first'" "$err"
}
t_env_device() {
	E1NPU_DEVICE=gpu "$bin" info >"$out" 2>"$err"
	[ $? = 2 ] && grep -q "E1NPU_DEVICE='gpu': expected 'auto', 'sim' or an accel node path" "$err"
}
t_device_twice() {
	run 2 --device sim info --device /dev/accel/accel0 &&
		grep -q "device given twice ('sim' and '/dev/accel/accel0')" "$err"
}
t_device_named() {
	run 0 ping && grep -q '(device sim)' "$out" &&
		run 0 --json ping && grep -q '"device":"sim"' "$out" &&
		run 0 --json perf && grep -q '"device":"sim"' "$out" &&
		run 0 --json ops && grep -q '"device":"sim"' "$out" &&
		run 0 ops && grep -q '^device sim$' "$out"
}
t_auto_notice() {
	env -u E1NPU_DEVICE "$bin" --json info >"$out" 2>"$err" || return 1
	grep -q '"backend":"sim"' "$out" || { echo "SKIP auto_notice: an NPU is present"; return 0; }
	[ "$(grep -c 'no e1 NPU found' "$err")" = 1 ] &&
		run 0 info && ! grep -q 'no e1 NPU found' "$err"
}
t_progress_sigint() {
	pty_sigint '[2/3] matmul' 60 '[1/3] nop round trips 0/1000000' \
		'[2/3] matmul 64x64x64 round trips' -- "$bin" bench -n 1000000
}

for t in help version no_command unknown_command bad_device info info_json \
	ping smoke smoke_json smoke_hw_only smoke_lowered_only smoke_only_conflict \
	smoke_nogemmini guest_smoke_script \
	ops ops_json perf bench bench_bad_n \
	device_dir extra_operand json_error json_error_first write_full stdout_closed arena_env \
	help_full bench_n_range env_lowering env_device device_twice device_named auto_notice \
	progress_sigint; do
	check "$t" "t_$t"
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
