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

# The shipped 128x128 photo as a PNG (written with zlib here): classifies
# to the same output tensor as the BMP; a PNG with a bad CRC is an error
# naming the file and the chunk.
data=$(dirname "$0")/../data
python3 - "$data/grace_hopper_128.bmp" "$tmp/gh.png" "$tmp/bad.png" <<'PY'
import struct, sys, zlib
b = open(sys.argv[1], "rb").read()
off, w, h = struct.unpack_from("<I", b, 10)[0], *struct.unpack_from("<ii", b, 18)
stride = (w * 3 + 3) & ~3
rows = []
for y in range(abs(h)):
    r = b[off + stride * (abs(h) - 1 - y if h > 0 else y):][:w * 3]
    rows.append(b"\0" + bytes(v for i in range(w) for v in (r[3 * i + 2], r[3 * i + 1], r[3 * i])))
def chunk(k, d):
    return struct.pack(">I", len(d)) + k + d + struct.pack(">I", zlib.crc32(k + d))
png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, abs(h), 8, 2, 0, 0, 0)) +
       chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b""))
open(sys.argv[2], "wb").write(png)
bad = bytearray(png)
bad[-13] ^= 1        # last byte of the IDAT CRC
open(sys.argv[3], "wb").write(bytes(bad))
PY
t_png_same_as_bmp() {
	m=$data/mobilenet_v1_0.25_128_quant.tflite
	E1NPU_DEVICE=sim "$bin" -m "$m" -i "$data/grace_hopper_128.bmp" --raw-output "$tmp/o.bmp" \
		>"$out" 2>"$err" &&
	E1NPU_DEVICE=sim "$bin" -m "$m" -i "$tmp/gh.png" --raw-output "$tmp/o.png" >"$out" 2>"$err" &&
	cmp -s "$tmp/o.bmp" "$tmp/o.png"
}
t_png_bad_crc() {
	E1NPU_DEVICE=sim "$bin" -m "$data/mobilenet_v1_0.25_128_quant.tflite" -i "$tmp/bad.png" \
		>"$out" 2>"$err"
	[ $? = 1 ] && grep -q "$tmp/bad.png: PNG: IDAT: CRC error" "$err"
}

tests="missing_image missing_model json_error json_error_first extra_operand write_error"
# a build without libpng (E1NPU_WITH_PNG=0) reads BMP only
"$bin" -m "$tmp/none.tflite" -i "$tmp/gh.png" >/dev/null 2>"$err"
if grep -q 'E1NPU_WITH_PNG=0' "$err"; then
	echo "SKIP classify_png_*: built without libpng"
else
	tests="$tests png_same_as_bmp png_bad_crc"
fi
for t in $tests; do
	check "$t" "t_$t"
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
