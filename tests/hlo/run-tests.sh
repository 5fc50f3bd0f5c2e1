#!/bin/sh
# SPDX-License-Identifier: MIT
#
# run-tests.sh E1NPU_HLO [TESTDIR]: runs every tests/hlo/*.mlir and
# tests/hlo/bad/*.mlir through e1npu-hlo. Directives in a file's comments:
#   // E1-ARGS: ...      extra options of `e1npu-hlo run`
#   // E1-EXIT: N        expected exit status (default 0: every check passed)
#   // E1-EXPECT: text   text the output (stdout + stderr) must contain
#   // E1-NPU: N         exactly N ops ran on an NPU engine (wrapper or
#                        datapath, from --json --report)
#   // E1-LSB: N         the largest requantization difference is N LSB, and
#                        the run fails without E1-ARGS' tolerance
# Prints one line per file and "N passed, M failed".
bin=$1
dir=${2:-$(dirname "$0")}
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../tools/lib.sh"	# pty_sigint

ok() { pass=$((pass + 1)); echo "  PASS  hlo: $1"; }
ko() { fail=$((fail + 1)); echo "  FAIL  hlo: $1: $2"; }

count_npu() {
	python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ops = [o for f in d.get("functions", []) for o in f["ops"]]
npu = [o for o in ops if o["engine"] == "npu" and o["ran_engine"] in ("wrapper", "datapath")]
lsb = max([o["lsb_diff"] for o in ops] + [0])
print(len(npu), lsb, d["passed"], d["failed"])
PY
}

run_one() {
	f=$1
	name=${f#"$dir"/}
	args=$(sed -n 's|^// E1-ARGS: ||p' "$f")
	want=$(sed -n 's|^// E1-EXIT: ||p' "$f")
	want=${want:-0}
	# shellcheck disable=SC2086
	"$bin" run $args "$f" >"$tmp/out" 2>&1
	rc=$?
	if [ "$rc" != "$want" ]; then
		ko "$name" "exit $rc, expected $want: $(tail -n 3 "$tmp/out")"
		return
	fi
	if [ "$want" = 0 ] && ! grep -q '^checks: [1-9][0-9]* passed, 0 failed' "$tmp/out"; then
		ko "$name" "no check ran"
		return
	fi
	miss=$(sed -n 's|^// E1-EXPECT: ||p' "$f" | while IFS= read -r e; do
		grep -qF -- "$e" "$tmp/out" || echo "$e"
	done)
	if [ -n "$miss" ]; then
		ko "$name" "output lacks: $miss"
		return
	fi
	npu=$(sed -n 's|^// E1-NPU: ||p' "$f")
	lsb=$(sed -n 's|^// E1-LSB: ||p' "$f")
	if [ -n "$npu$lsb" ]; then
		# shellcheck disable=SC2086
		"$bin" run --json --report $args "$f" >"$tmp/json" 2>/dev/null
		set -- $(count_npu "$tmp/json")
		if [ -n "$npu" ] && [ "$1" != "$npu" ]; then
			ko "$name" "$1 ops ran on the NPU, expected $npu"
			return
		fi
		if [ -n "$lsb" ] && [ "$2" != "$lsb" ]; then
			ko "$name" "largest requantization difference $2 LSB, expected $lsb"
			return
		fi
		if [ -n "$lsb" ] && [ "$lsb" != 0 ]; then
			"$bin" run "$f" >"$tmp/out2" 2>&1
			if [ $? != 1 ] || ! grep -q "accepted only with --quant-tolerance=$lsb" "$tmp/out2"; then
				ko "$name" "without the tolerance the run did not fail"
				return
			fi
		fi
	fi
	ok "$name"
}

for f in "$dir"/*.mlir "$dir"/bad/*.mlir; do
	run_one "$f"
done
# --input NAME=FILE.npy: arguments of @main from NumPy files written here
npy() {
	python3 - "$@" <<'PY'
import struct, sys
path, descr, shape = sys.argv[1], sys.argv[2], tuple(int(x) for x in sys.argv[3].split(','))
vals = [int(v) for v in sys.argv[4].split(',')]
hdr = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
    descr, ', '.join(map(str, shape)) + (',' if len(shape) == 1 else ''))
hdr += ' ' * (63 - (10 + len(hdr)) % 64) + '\n'
with open(path, 'wb') as f:
    f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(hdr)) + hdr.encode())
    f.write(struct.pack('<%db' % len(vals), *vals))
PY
}
in_test() {
	f=$dir/inputs/main-args.mlir
	npy "$tmp/x.npy" '|i1' 2,3 1,-2,3,4,5,-6 && npy "$tmp/w.npy" '|i1' 3,2 1,0,0,1,2,-1 || {
		ko inputs "cannot write .npy files"; return; }
	"$bin" run --input arg0="$tmp/x.npy" --input 1="$tmp/w.npy" "$f" >"$tmp/out" 2>&1
	if [ $? != 0 ] || ! grep -q 'checks: 1 passed, 0 failed' "$tmp/out"; then
		ko inputs "$(tail -n 3 "$tmp/out")"
		return
	fi
	"$bin" run --json --report --input arg0="$tmp/x.npy" --input 1="$tmp/w.npy" "$f" \
		>"$tmp/json" 2>/dev/null
	set -- $(count_npu "$tmp/json")
	if [ "$1" != 1 ]; then
		ko inputs "$1 ops ran on the NPU, expected 1"
		return
	fi
	# a shape that does not match the argument is refused before running
	"$bin" run --input arg0="$tmp/w.npy" --input 1="$tmp/w.npy" "$f" >"$tmp/out" 2>&1
	if [ $? != 2 ] || ! grep -q "argument 'arg0': dimension 0 is 3, expected 2" "$tmp/out"; then
		ko inputs "a mismatched shape was not refused: $(tail -n 2 "$tmp/out")"
		return
	fi
	ok "inputs/main-args.mlir (--input .npy)"
}
in_test

# command line: usage errors exit 2 and say what was wrong
cli() {
	name=$1 want=$2 text=$3
	shift 3
	"$bin" "$@" >"$tmp/out" 2>&1
	rc=$?
	if [ "$rc" = "$want" ] && grep -qF -- "$text" "$tmp/out"; then
		ok "cli: $name"
	else
		ko "cli: $name" "exit $rc (expected $want), output: $(head -n 2 "$tmp/out")"
	fi
}
# clix: the same for a whole command (environment, redirections)
clix() {
	name=$1 want=$2 text=$3
	shift 3
	"$@" >"$tmp/out" 2>&1
	rc=$?
	if [ "$rc" = "$want" ] && grep -qF -- "$text" "$tmp/out"; then
		ok "cli: $name"
	else
		ko "cli: $name" "exit $rc (expected $want), output: $(head -n 2 "$tmp/out")"
	fi
}
cli no-command 2 "missing command (run)"
cli unknown-command 2 "unknown command 'walk'" walk x.mlir
cli no-file 2 "missing FILE.mlir" run
cli extra-argument 2 "unexpected argument 'b.mlir'" run a.mlir b.mlir
cli bad-tolerance 2 "--quant-tolerance: 'x1' is not a number" run --quant-tolerance=x1 a.mlir
cli missing-file 2 "/nonexistent.mlir: No such file or directory" run /nonexistent.mlir
cli json-load-error 2 '"error": "' run --json "$dir/bad/unsupported-op.mlir"
cli input-not-name-file 2 "--input 'x': expected NAME=FILE.npy" run --input x a.mlir
cli help 0 "Usage: e1npu-hlo run" --help
# issue 22: no silent empty runs, results shown, the device and work cap named
main=$dir/inputs/main-args.mlir
cli unbound-args 2 "main-args.mlir: @main (line 6): argument %arg0 (0 of 2) is not bound (e1npu_hlo_set_input) (e1npu-hlo --input NAME=FILE.npy)" \
	run "$main"
cli partly-bound 2 "argument %arg1 (1 of 2) is not bound" run --input arg0="$tmp/x.npy" "$main"
: >"$tmp/empty.mlir"
# an empty file: said so by the reader (lib/readfile.c), before any parse
cli empty-module 2 "empty.mlir: empty file" run "$tmp/empty.mlir"
cli cpu-only-device 2 "--cpu-only runs without a device: not with --device 'sim'" \
	run --cpu-only --device sim "$main"
cli device-twice 2 "--device given twice ('sim' and 'sim')" run --device sim --device sim "$main"
cli bad-max-work 2 "--max-work: '0' is not a number of Mi steps in 1..4194304" run --max-work=0 a.mlir
clix env-device 2 "environment variable E1NPU_DEVICE='gpu': expected 'auto', 'sim'" \
	env E1NPU_DEVICE=gpu "$bin" run "$main"
clix env-max-work 2 "environment variable E1NPU_HLO_MAX_WORK='lots': expected Mi steps" \
	env E1NPU_HLO_MAX_WORK=lots "$bin" run "$dir/elementwise.mlir"
cli work-cap-option 1 "the run's CPU work passes 1048576 steps, its cap (1 Mi steps; the max_work_mi option or E1NPU_HLO_MAX_WORK raise it) (e1npu-hlo --max-work=MI)" \
	run --max-work=1 "$dir/bad/run-work-budget.mlir"
clix work-cap-env 1 "passes 2097152 steps, its cap (2 Mi steps" \
	env E1NPU_HLO_MAX_WORK=2 "$bin" run "$dir/bad/run-work-budget.mlir"
cli output-unknown 2 "--output nope: no such result (results: main#0)" \
	run --input arg0="$tmp/x.npy" --input 1="$tmp/w.npy" --output nope="$tmp/o.npy" "$main"
cli output-full 1 "--output main#0: /dev/full: No space left on device" \
	run --input arg0="$tmp/x.npy" --input 1="$tmp/w.npy" --output main=/dev/full "$main"
cli results-printed 0 "result @main#0 tensor<2x2xi32> = [[7, -5], [-8, 11]]" \
	run --input arg0="$tmp/x.npy" --input 1="$tmp/w.npy" "$main"
cli device-named 0 "checks: 1 passed, 0 failed (device sim)" \
	run --device sim --input arg0="$tmp/x.npy" --input 1="$tmp/w.npy" "$main"
clix help-full 1 "write error on stdout: No space left on device" \
	sh -c '"$0" --help >/dev/full' "$bin"
clix version-full 1 "write error on stdout: No space left on device" \
	sh -c '"$0" --version >/dev/full' "$bin"
# a run error is printed once, with the file
"$bin" run "$dir/bad/run-work-budget.mlir" >"$tmp/out" 2>&1
if [ "$(grep -c "CPU work passes" "$tmp/out")" = 1 ] &&
   grep -q "^e1npu-hlo: $dir/bad/run-work-budget.mlir: stablehlo.reduce_window (line 12)" "$tmp/out"; then
	ok "cli: run error once, with the file"
else
	ko "cli: run error once, with the file" "$(cat "$tmp/out")"
fi
# --output NAME=FILE.npy and --json "outputs": the values of @main's result
out_test() {
	"$bin" run --device sim --input arg0="$tmp/x.npy" --input 1="$tmp/w.npy" \
		--output main="$tmp/r.npy" --json "$main" >"$tmp/json" 2>"$tmp/err" || return 1
	python3 - "$tmp/r.npy" "$tmp/json" <<'PY'
import ast, json, struct, sys
b = open(sys.argv[1], "rb").read()
assert b[:8] == b"\x93NUMPY\x01\x00", b[:8]
n = struct.unpack_from("<H", b, 8)[0]
hdr = ast.literal_eval(b[10:10 + n].decode())
assert (10 + n) % 64 == 0 and hdr == {"descr": "<i4", "fortran_order": False, "shape": (2, 2)}, hdr
assert struct.unpack_from("<4i", b, 10 + n) == (7, -5, -8, 11) and len(b) == 10 + n + 16
d = json.load(open(sys.argv[2]))
assert d["device"] == "sim", d
assert d["outputs"] == [{"name": "main#0", "type": "tensor<2x2xi32>", "dtype": "i32",
                         "shape": [2, 2], "values": [[7, -5], [-8, 11]]}], d["outputs"]
PY
}
if out_test; then ok "--output .npy, --json outputs"; else ko "--output .npy, --json outputs" "$(cat "$tmp/err")"; fi
# E1NPU_DEVICE is honoured; auto without an NPU says so, once
env -u E1NPU_DEVICE "$bin" run --json "$dir/elementwise.mlir" >"$tmp/json" 2>"$tmp/err"
if grep -q '"device": "' "$tmp/json" && E1NPU_DEVICE=sim "$bin" run "$dir/elementwise.mlir" \
	>"$tmp/out" 2>&1 && ! grep -q 'no e1 NPU found' "$tmp/out" &&
	{ ! grep -q '"device": "sim"' "$tmp/json" || [ "$(grep -c 'no e1 NPU found' "$tmp/err")" = 1 ]; }; then
	ok "cli: E1NPU_DEVICE, auto notice"
else
	ko "cli: E1NPU_DEVICE, auto notice" "$(cat "$tmp/err")"
fi
# a long run on a terminal: a progress line, erased on Ctrl-C
sed -e 's/65536, 65536/16384, 16384/' -e 's/\[0, 65535\], \[0, 65535\]/[0, 16383], [0, 16383]/' \
	-e '/E1-/d' "$dir/bad/run-work-budget.mlir" >"$tmp/long.mlir"
if pty_sigint 'running: ' 60 '\r\x1b[Krunning: 0.5 s, 0 checks' -- \
	"$bin" run "$tmp/long.mlir" >"$tmp/out" 2>&1
then
	ok "cli: progress line on a terminal, erased on Ctrl-C"
else
	ko "cli: progress line on a terminal, erased on Ctrl-C" "$(tail -n 3 "$tmp/out")"
fi
# not on a pipe
if "$bin" run --device sim "$dir/elementwise.mlir" 2>&1 | grep -q 'running: '; then
	ko "cli: no progress line on a pipe" "drawn"
else
	ok "cli: no progress line on a pipe"
fi
# the generated tests are gen.py's output
if python3 "$dir/gen.py" --check >"$tmp/gen" 2>&1; then
	ok "gen.py --check"
else
	ko "gen.py --check" "$(cat "$tmp/gen")"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
