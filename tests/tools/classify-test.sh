#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Command-line error paths of e1npu-classify (issue 11): a missing file is
# one message naming it once, operands are rejected, --json errors are JSON
# on stdout, a failed write to stdout exits 1. Issue 22: no silent data
# loss (--raw-output to a full disk, a labels file of the wrong length),
# errors naming the option, variable or file, exit 2 for usage and input
# errors, the device named, per-run latency, --input-tensor.
# Usage: classify-test.sh PATH-TO-E1NPU-CLASSIFY [MODELS-DIR]
set -u
bin=$1
MODELS_DIR=${2:-${MODELS_DIR:-}}
. "$(dirname "$0")/lib.sh"
test_init classify
# the tests that need no model of shared/ run without it
have_data=1
test_data || have_data=0

# A 2x2 24-bit BMP.
python3 - "$tmp/img.bmp" <<'PY'
import struct, sys
row = bytes([0, 0, 255, 0, 255, 0]) + b"\0\0"
pix = row * 2
hdr = struct.pack("<2sIHHI", b"BM", 54 + len(pix), 0, 0, 54)
dib = struct.pack("<IiiHHIIiiII", 40, 2, 2, 1, 24, 0, len(pix), 2835, 2835, 0, 0)
open(sys.argv[1], "wb").write(hdr + dib + pix)
PY

model=mobilenet_v1_0.25_128_quant.tflite
labels=$data/imagenet_labels.txt

# once FILE PATTERN: PATTERN occurs exactly once in FILE.
once() { [ "$(grep -o "$2" "$1" | wc -l)" = 1 ]; }

t_missing_image() {
	E1NPU_DEVICE=sim "$bin" -m "$data/$model" -i "$tmp/none.bmp" >"$out" 2>"$err"
	[ $? = 2 ] && [ "$(wc -l <"$err")" = 1 ] && once "$err" "$tmp/none.bmp" &&
		! grep -q 'device node' "$err"
}
t_missing_model() {
	E1NPU_DEVICE=sim "$bin" -m "$tmp/none.tflite" -i "$tmp/img.bmp" >"$out" 2>"$err"
	[ $? = 2 ] && [ "$(wc -l <"$err")" = 1 ] && once "$err" "$tmp/none.tflite" &&
		grep -qi 'no such file' "$err" && ! grep -q 'device node' "$err"
}
t_json_error() {
	E1NPU_DEVICE=sim "$bin" --json -m "$tmp/none.tflite" -i "$tmp/img.bmp" >"$out" 2>"$err"
	[ $? = 2 ] && python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert "none.tflite" in d["error"]' "$out"
}
t_json_error_first() {
	# the bad option comes before --json: still a JSON error on stdout
	"$bin" --bogus --json -m a.tflite -i b.bmp >"$out" 2>"$err"
	[ $? = 2 ] && python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["error"]' "$out"
}
t_extra_operand() {
	"$bin" -m a.tflite -i b.bmp extra >"$out" 2>"$err"
	[ $? = 2 ] && grep -q "unexpected argument 'extra'" "$err"
}
t_write_error() {
	m=$data/$model
	E1NPU_DEVICE=sim "$bin" -m "$m" -i "$tmp/img.bmp" >"$out" 2>"$err" || return 1
	E1NPU_DEVICE=sim "$bin" -m "$m" -i "$tmp/img.bmp" >/dev/full 2>"$err"
	[ $? = 1 ] && grep -q 'write error' "$err" || return 1
	E1NPU_DEVICE=sim "$bin" -m "$m" -i "$tmp/img.bmp" >&- 2>"$err"
	[ $? = 1 ] && grep -q 'write error' "$err"
}

# expect RC TEXT CMD...: CMD exits RC and its stderr contains TEXT.
expect() {
	want=$1 text=$2
	shift 2
	"$@" >"$out" 2>"$err"
	rc=$?
	[ "$rc" = "$want" ] && { [ -z "$text" ] || grep -qF -- "$text" "$err"; } && return 0
	echo "  exit $rc (expected $want); stderr should contain: $text" >&2
	return 1
}
# cls ARGS...: the small MobileNet and photo on the model (sim).
cls() { E1NPU_DEVICE=sim "$bin" -m "$data/$model" -i "$data/grace_hopper_128.bmp" "$@"; }

# Silent data loss: every written file is checked up to fclose().
t_raw_output_full() {
	expect 1 "--raw-output /dev/full: No space left on device" cls --raw-output /dev/full &&
		[ ! -s "$out" ]
}
t_raw_output_dir() {
	expect 1 "--raw-output $tmp: Is a directory" cls --raw-output "$tmp"
}
# Labels: the count must match the classes (1001), or be one short with no
# "background" line (said on stderr); empty and binary files are refused.
t_labels_short() {
	head -n 998 "$labels" >"$tmp/l998"
	expect 2 "labels file $tmp/l998 has 998 lines but the model has 1001 classes" \
		cls -l "$tmp/l998"
}
t_labels_line_missing() {
	head -n 1000 "$labels" >"$tmp/l1000"
	expect 2 'this one starts with "background": a line is missing' cls -l "$tmp/l1000"
}
t_labels_no_background() {
	tail -n 1000 "$labels" >"$tmp/nobg"
	expect 0 'has 1000 lines for 1001 classes: assuming it has no "background" line' \
		cls -l "$tmp/nobg" -n 1 && grep -q '401  academic gown' "$out"
}
t_labels_empty() {
	: >"$tmp/empty"
	expect 2 "labels file $tmp/empty is empty" cls -l "$tmp/empty"
}
t_labels_binary() {
	expect 2 "labels file $data/$model is not text" cls -l "$data/$model"
}
t_labels_missing() {
	expect 2 "labels file $tmp/none.txt: No such file or directory" cls -l "$tmp/none.txt"
}
t_labels_control_bytes() {
	# class 401 named with an escape sequence: printed as \x1b, not sent raw
	awk 'NR == 402 { printf "evil\033[2J\n"; next } { print }' "$labels" >"$tmp/esc"
	expect 0 "" cls -l "$tmp/esc" -n 1 && grep -qF 'evil\x1b[2J' "$out" &&
		! grep -q "$(printf '\033')" "$out"
}
t_no_labels_hint() {
	expect 0 "no labels: classes are shown by index; -l FILE names them" cls -n 1
}
# The device is named in text and JSON; auto without an NPU says so.
t_device_named() {
	cls -n 1 >"$out" 2>"$err" && grep -q ', device sim, ' "$out" &&
	cls -n 1 --json >"$out" 2>"$err" && grep -q '"device":"sim"' "$out" &&
	"$bin" --cpu -m "$data/$model" -i "$data/grace_hopper_128.bmp" --json >"$out" 2>"$err" &&
		grep -q '"device":"cpu"' "$out" &&
	E1NPU_DEVICE=sim "$bin" -m "$data/$model" --plan >"$out" 2>"$err" &&
		grep -q "^tensor arena plan of $data/$model on device sim: " "$out" &&
	E1NPU_DEVICE=sim "$bin" -m "$data/$model" --plan --json >"$out" 2>"$err" &&
		grep -q '"device":"sim","tensor_arena_plan"' "$out"
}
t_auto_notice() {
	env -u E1NPU_DEVICE "$bin" -m "$data/$model" -i "$data/grace_hopper_128.bmp" \
		--json >"$out" 2>"$err" || return 1
	grep -q '"device":"' "$out" || return 1
	if ! grep -q '"device":"sim"' "$out"; then
		echo "SKIP classify_auto_notice: an NPU is present"
		return 0
	fi
	[ "$(grep -c 'no e1 NPU found' "$err")" = 1 ] &&
		E1NPU_DEVICE=sim "$bin" -m "$data/$model" -i "$data/grace_hopper_128.bmp" \
			>"$out" 2>"$err" && ! grep -q 'no e1 NPU found' "$err"
}
# Environment variables: the name and the accepted values.
t_env_arena() {
	E1NPU_SIM_ARENA_MB=abc expect 2 \
		"E1NPU_SIM_ARENA_MB='abc': expected a whole number of MiB from 1 to 3072" cls
}
t_env_lowering() {
	E1NPU_OPS_LOWERING=fast expect 2 \
		"E1NPU_OPS_LOWERING='fast': expected 'auto', 'conv2d', 'matmul' or 'first'" cls
}
t_env_device() {
	E1NPU_DEVICE=gpu expect 2 "E1NPU_DEVICE='gpu': expected 'auto', 'sim' or an accel node" \
		"$bin" -m "$data/$model" -i "$data/grace_hopper_128.bmp"
}
# Numeric options: the option and its range.
t_top_zero() {
	expect 2 "-n/--top: '0' is not a whole number from 1 to 100000" cls --top 0
}
t_repeat_range() {
	expect 2 "--repeat: '100001' is not a whole number from 1 to 100000" cls --repeat 100001
}
t_crop_range() {
	expect 2 "--crop: '0.01' is not a fraction above 0.05 and at most 1" cls --crop 0.01
}
# Conflicting options are refused.
t_cpu_and_device() {
	expect 2 "--cpu runs without a device: not with -d/--device 'sim'" cls --cpu --device sim
}
t_plan_and_image() {
	expect 2 "--plan prints the model's arena plan and runs nothing: not with -i/--image" \
		cls --plan
}
t_model_twice() {
	expect 2 "-m/--model given twice ('a.tflite' and 'b.tflite')" \
		"$bin" -m a.tflite -m b.tflite -i x.bmp
}
t_image_and_tensor() {
	expect 2 "-i/--image and --input-tensor are two inputs: give one" \
		cls --input-tensor "$tmp/img.bmp"
}
# --help and --version to a full disk fail; to a pipe they succeed.
t_help_full() {
	expect 1 "write error on stdout: No space left on device" sh -c '"$0" --help >/dev/full' "$bin" &&
	expect 1 "write error on stdout: No space left on device" sh -c '"$0" --version >/dev/full' "$bin" &&
	"$bin" --help >"$out" && grep -q -- '--input-tensor' "$out"
}
# Latency: the first run, then min/median/max of the others.
t_latency() {
	cls --repeat 3 --json >"$out" 2>"$err" &&
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))["latency_ms"]
assert d["runs"] == 2 and 0 < d["min"] <= d["median"] <= d["max"] and d["first"] > 0, d' "$out" &&
	cls --repeat 3 >"$out" 2>"$err" && grep -q '^latency: first run .* ms, then 2 runs: min .*, median .*, max .* ms$' "$out"
}
# --input-tensor: the raw bytes of the input tensor (128x128x3 uint8).
t_input_tensor() {
	head -c 49151 /dev/zero >"$tmp/t.bin"
	expect 2 "--input-tensor $tmp/t.bin is 49151 bytes, the model's input tensor [1,128,128,3] uint8 is 49152 bytes" \
		env E1NPU_DEVICE=sim "$bin" -m "$data/$model" --input-tensor "$tmp/t.bin" || return 1
	python3 - "$data/grace_hopper_128.bmp" "$tmp/t.bin" <<'PY2'
import struct, sys
b = open(sys.argv[1], "rb").read()
off, (w, h) = struct.unpack_from("<I", b, 10)[0], struct.unpack_from("<ii", b, 18)
stride = (w * 3 + 3) & ~3
out = bytearray()
for y in range(abs(h)):
    r = b[off + stride * (abs(h) - 1 - y if h > 0 else y):][:w * 3]
    for i in range(w):
        out += bytes((r[3 * i + 2], r[3 * i + 1], r[3 * i]))
open(sys.argv[2], "wb").write(out)
PY2
	# the photo is 128x128 already: its pixels are the input tensor
	E1NPU_DEVICE=sim "$bin" -m "$data/$model" --input-tensor "$tmp/t.bin" --raw-output "$tmp/o.t" \
		>"$out" 2>"$err" && cls --raw-output "$tmp/o.i" >"$out" 2>"$err" && cmp -s "$tmp/o.t" "$tmp/o.i"
}
# Ctrl-C during --repeat on a terminal: the progress line is erased.
t_progress_sigint() {
	pty_sigint 'invoke' 20 '/100000] invoke' -- \
		"$bin" -m "$data/$model" -i "$data/grace_hopper_128.bmp" --repeat 100000
}

# The shipped 128x128 photo as a PNG (written with zlib here): classifies
# to the same output tensor as the BMP; a PNG with a bad CRC is an error
# naming the file and the chunk.
[ "$have_data" = 0 ] || python3 - "$data/grace_hopper_128.bmp" "$tmp/gh.png" "$tmp/bad.png" <<'PY'
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
	[ $? = 2 ] && grep -q "$tmp/bad.png: PNG: IDAT: CRC error" "$err"
}

tests="missing_image missing_model json_error json_error_first extra_operand write_error
	raw_output_full raw_output_dir labels_short labels_line_missing labels_no_background
	labels_empty labels_binary labels_missing labels_control_bytes no_labels_hint
	device_named auto_notice env_arena env_lowering env_device top_zero repeat_range
	crop_range cpu_and_device plan_and_image model_twice image_and_tensor help_full
	latency input_tensor progress_sigint"
# a build without libpng (E1NPU_WITH_PNG=0) reads BMP only
"$bin" -m "$tmp/none.tflite" -i "$tmp/gh.png" >/dev/null 2>"$err"
if grep -q 'E1NPU_WITH_PNG=0' "$err"; then
	echo "SKIP classify_png_*: built without libpng"
else
	tests="$tests png_same_as_bmp png_bad_crc"
fi
if [ "$have_data" = 0 ]; then
	tests="missing_model json_error json_error_first extra_operand"
	echo "SKIP classify: the tests on the small MobileNet (its model of shared/ is absent); these only: $tests"
fi
for t in $tests; do
	check "$t" "t_$t"
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
