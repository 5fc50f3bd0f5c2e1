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
cli no-command 2 "missing command (run)"
cli unknown-command 2 "unknown command 'walk'" walk x.mlir
cli no-file 2 "missing FILE.mlir" run
cli extra-argument 2 "unexpected argument 'b.mlir'" run a.mlir b.mlir
cli bad-tolerance 2 "--quant-tolerance: 'x1' is not a number" run --quant-tolerance=x1 a.mlir
cli missing-file 2 "/nonexistent.mlir: No such file or directory" run /nonexistent.mlir
cli json-load-error 2 '"error": "' run --json "$dir/bad/unsupported-op.mlir"
cli input-not-name-file 2 "--input 'x': expected NAME=FILE.npy" run --input x a.mlir
cli help 0 "Usage: e1npu-hlo run" --help
# the generated tests are gen.py's output
if python3 "$dir/gen.py" --check >"$tmp/gen" 2>&1; then
	ok "gen.py --check"
else
	ko "gen.py --check" "$(cat "$tmp/gen")"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
