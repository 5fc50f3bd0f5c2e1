#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Command-line error paths of e1npu-classify (issue 11): a missing file is
# one message naming it once, operands are rejected, --json errors are JSON
# on stdout, a failed write to stdout exits 1.
# Usage: classify-test.sh PATH-TO-E1NPU-CLASSIFY [MODELS-DIR]
set -u
bin=$1
models=${2:-}
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out
err=$tmp/err

ok() { pass=$((pass + 1)); echo "PASS classify_$1"; }
ko() { fail=$((fail + 1)); echo "FAIL classify_$1"; sed 's/^/  stderr: /' "$err" >&2; }
check() { name=$1; shift; if "$@"; then ok "$name"; else ko "$name"; fi; }

# A 2x2 24-bit BMP.
python3 - "$tmp/img.bmp" <<'PY'
import struct, sys
row = bytes([0, 0, 255, 0, 255, 0]) + b"\0\0"
pix = row * 2
hdr = struct.pack("<2sIHHI", b"BM", 54 + len(pix), 0, 0, 54)
dib = struct.pack("<IiiHHIIiiII", 40, 2, 2, 1, 24, 0, len(pix), 2835, 2835, 0, 0)
open(sys.argv[1], "wb").write(hdr + dib + pix)
PY

# once FILE PATTERN: PATTERN occurs exactly once in FILE.
once() { [ "$(grep -o "$2" "$1" | wc -l)" = 1 ]; }

t_missing_image() {
	E1NPU_DEVICE=sim "$bin" -m "$tmp/none.tflite" -i "$tmp/none.bmp" >"$out" 2>"$err"
	[ $? = 1 ] && [ "$(wc -l <"$err")" = 1 ] && once "$err" "$tmp/none.bmp" &&
		! grep -q 'device node' "$err"
}
t_missing_model() {
	E1NPU_DEVICE=sim "$bin" -m "$tmp/none.tflite" -i "$tmp/img.bmp" >"$out" 2>"$err"
	[ $? = 1 ] && [ "$(wc -l <"$err")" = 1 ] && once "$err" "$tmp/none.tflite" &&
		grep -qi 'no such file' "$err" && ! grep -q 'device node' "$err"
}
t_json_error() {
	E1NPU_DEVICE=sim "$bin" --json -m "$tmp/none.tflite" -i "$tmp/img.bmp" >"$out" 2>"$err"
	[ $? = 1 ] && python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert "none.tflite" in d["error"]' "$out"
}
t_json_error_first() {
	# the bad option comes before --json: still a JSON error on stdout
	"$bin" --bogus --json -m a.tflite -i b.bmp >"$out" 2>"$err"
	[ $? != 0 ] && python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["error"]' "$out"
}
t_extra_operand() {
	"$bin" -m a.tflite -i b.bmp extra >"$out" 2>"$err"
	[ $? = 2 ] && grep -q "unexpected argument 'extra'" "$err"
}
t_write_error() {
	m=$models/mobilenet_v1_0.25_128_quant.tflite
	if [ ! -f "$m" ]; then
		echo "SKIP classify_write_error: no $m"
		return 0
	fi
	E1NPU_DEVICE=sim "$bin" -m "$m" -i "$tmp/img.bmp" >"$out" 2>"$err" || return 1
	E1NPU_DEVICE=sim "$bin" -m "$m" -i "$tmp/img.bmp" >/dev/full 2>"$err"
	[ $? = 1 ] && grep -q 'write error' "$err" || return 1
	E1NPU_DEVICE=sim "$bin" -m "$m" -i "$tmp/img.bmp" >&- 2>"$err"
	[ $? = 1 ] && grep -q 'write error' "$err"
}

for t in missing_image missing_model json_error json_error_first extra_operand write_error; do
	check "$t" "t_$t"
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
