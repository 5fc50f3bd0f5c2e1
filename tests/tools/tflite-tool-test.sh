#!/bin/sh
# SPDX-License-Identifier: MIT
#
# e1npu-tflite (tools/e1npu-tflite/) on the small MobileNet v1 0.25 128:
#   run     outputs byte-identical to e1npu-classify --raw-output on the
#           shipped image and to the CPU reference path (--cpu), raw and
#           .npy in and out, input sizes checked (the message names the
#           tensor, expected and actual bytes), latency first/min/median/max
#   report  every operator listed with its shape; per-operator and total
#           MACs equal a count made independently from the model's
#           FlatBuffer (tflite-tool-check.py); its modelled cycles equal
#           the perf counters of a run (e1npu-classify --layers); JSON parses
#   diff    the paths agree on every layer (0 differing bytes); --dump
#           writes both paths' outputs of every layer with their shapes
#           and a difference forced on one layer (E1NPU_TFLITE_DIFF_PERTURB)
#           is reported at that layer; the comparison and its histogram on
#           synthetic tensors: test-tflite-compare.c.
#   compile the artifact's header checked by the test (magic, versions,
#           SHA-256 of the model by hashlib, sizes), run on it byte-identical
#           to the model's run; another device, a truncated or corrupted
#           file, another library version refused with the reason; every
#           zoo model compiled and run byte-identical to its .tflite run
# Usage: tflite-tool-test.sh E1NPU-TFLITE E1NPU-CLASSIFY
set -u
bin=$1
cls=$2
. "$(dirname "$0")/lib.sh"
test_init tflite_tool
need_data
model=$data/mobilenet_v1_0.25_128_quant.tflite
chk="python3 $top/tests/tools/tflite-tool-check.py"
export E1NPU_DEVICE=sim

# The image as the model's input tensor, decoded by the test (not the tool).
$chk bmp "$data/grace_hopper_128.bmp" "$tmp/img.raw"
$chk npy "$tmp/img.raw" "$tmp/img.npy" u1 1,128,128,3

t_run_vs_classify() {
	"$cls" -m "$model" -i "$data/grace_hopper_128.bmp" --raw-output "$tmp/cls.out" >"$out" 2>"$err" &&
	"$bin" run "$model" --input-tensor "$tmp/img.raw" --output "$tmp/run.out" >"$out" 2>"$err" &&
	[ "$(wc -c <"$tmp/run.out")" = 1001 ] && cmp "$tmp/cls.out" "$tmp/run.out"
}
t_run_cpu() {
	"$bin" run "$model" -i "$tmp/img.raw" -o "$tmp/cpu.out" --cpu >"$out" 2>"$err" &&
	grep -q 'path reference' "$out" && cmp "$tmp/cls.out" "$tmp/cpu.out"
}
t_run_npy() {
	"$bin" run "$model" -i "$tmp/img.npy" -o "$tmp/run.npy" >"$out" 2>"$err" &&
	$chk npydata "$tmp/run.npy" "$tmp/npy.out" && cmp "$tmp/cls.out" "$tmp/npy.out" &&
	head -c 80 "$tmp/run.npy" | grep -q "'shape': (1, 1001,\\?)"
}
t_run_latency() {
	"$bin" run "$model" -i "$tmp/img.raw" -n 4 >"$out" 2>"$err" &&
	grep -Eq '^latency: first run [0-9.]+ ms, then 3 runs: min [0-9.]+, median [0-9.]+, max [0-9.]+ ms$' "$out" &&
	grep -Eq '^load: [0-9.]+ ms$' "$out" &&
	[ ! -s "$err" ]	# no progress line: stderr is not a terminal
}
t_run_json() {
	"$bin" run "$model" -i "$tmp/img.raw" -n 3 --json >"$out" 2>"$err" &&
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["latency_ms"]["runs"] == 2 and d["outputs"][0]["shape"] == [1, 1001], d
assert d["outputs"][0]["bytes"] == 1001 and d["path"] == "npu"
assert d["artifact"] is False and d["load_ms"] > 0' "$out"
}
t_run_bad_size() {
	head -c 1000 "$tmp/img.raw" >"$tmp/short.raw"
	"$bin" run "$model" -i "$tmp/short.raw" >"$out" 2>"$err"
	[ $? = 2 ] && grep -q 'short.raw is 1000 bytes' "$err" && grep -q "tensor 'input'" "$err" &&
		grep -q 'is 49152 bytes' "$err"
}
t_run_bad_npy_type() {
	$chk npy "$tmp/img.raw" "$tmp/i8.npy" i1 1,128,128,3
	"$bin" run "$model" -i "$tmp/i8.npy" >"$out" 2>"$err"
	[ $? = 2 ] && grep -q 'i8.npy' "$err" && grep -q '49152 bytes of ui8' "$err"
}
t_run_inputs_count() {
	"$bin" run "$model" -i "$tmp/img.raw" -i "$tmp/img.raw" >"$out" 2>"$err"
	[ $? = 2 ] && grep -q 'has 1 input and 1 output' "$err"
}
t_run_full_disk() {
	[ -w /dev/full ] || return 0
	"$bin" run "$model" -i "$tmp/img.raw" -o /dev/full >"$out" 2>"$err"
	[ $? = 1 ] && grep -q '/dev/full' "$err" && grep -qi 'no space' "$err"
}
t_usage() {
	"$bin" >"$out" 2>"$err"; [ $? = 2 ] || return 1
	"$bin" frobnicate "$model" >"$out" 2>"$err"; [ $? = 2 ] && grep -q "unknown command 'frobnicate'" "$err" || return 1
	"$bin" report "$model" -i "$tmp/img.raw" >"$out" 2>"$err"; [ $? = 2 ] || return 1
	"$bin" run "$model" >"$out" 2>"$err"; [ $? = 2 ] && grep -q 'missing --input-tensor' "$err" || return 1
	"$bin" run "$tmp/none.tflite" -i "$tmp/img.raw" >"$out" 2>"$err"; [ $? = 2 ] && grep -q 'none.tflite' "$err" || return 1
	"$bin" run "$model" -i "$tmp/img.raw" -n 0 >"$out" 2>"$err"; [ $? = 2 ] || return 1
	"$bin" --json run "$model" -i "$tmp/img.raw" --cpu -d sim >"$out" 2>"$err"
	[ $? = 2 ] && python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["error"]' "$out"
}
t_report() {
	"$bin" report "$model" --json >"$tmp/report.json" 2>"$err" &&
	python3 -m json.tool "$tmp/report.json" >/dev/null &&
	$chk report "$model" "$tmp/report.json" >"$out" &&
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["partitions"] == 1 and d["totals"]["refused"] == 0
assert d["arena"]["total_bytes"] > 0 and d["arena"]["total_bytes"] <= d["arena"]["unplanned_bytes"]
assert all(o["modelled_cycles"] > 0 for o in d["operators"] if o["builtin"].endswith("CONV_2D"))' "$tmp/report.json"
}
t_report_text() {
	"$bin" report "$model" >"$out" 2>"$err" &&
	[ "$(grep -Ec '^[0-9]+ +[A-Z_0-9]+ ' "$out")" = 31 ] &&
	grep -q '^total: 31 operators (28 wrapper, 0 datapath, 3 host, 0 refused) in 1 partition, 13570304 MACs' "$out" &&
	grep -q '^arena: [0-9]* bytes for 32 tensors' "$out"
}
t_report_cycles_vs_run() {
	# the cost model's cycles (nothing run) against the perf counters of a run
	"$cls" -m "$model" -i "$data/grace_hopper_128.bmp" --layers --json >"$tmp/cls.json" 2>"$err" &&
	python3 -c 'import json, sys
r = json.load(open(sys.argv[1])); c = json.load(open(sys.argv[2]))
for o, l in zip(r["operators"], c["layers"]):
    if o["modelled_cycles"] is not None:
        assert o["modelled_cycles"] == l["wrapper_cycles"] + l["dp_cycles"], (o, l)
    assert o["engine"] == l["engine"], (o, l)
assert r["totals"]["modelled_cycles"] == c["wrapper_cycles"] + c["dp_cycles"]
assert r["totals"]["macs"] == c["macs"]' "$tmp/report.json" "$tmp/cls.json"
}
t_diff() {
	"$bin" diff "$model" -i "$tmp/img.raw" --dump "$tmp/dump" >"$out" 2>"$err" &&
	grep -q '^the paths agree on every layer (0 differing bytes)$' "$out" &&
	[ "$(ls "$tmp/dump" | wc -l)" = 62 ] &&
	$chk dump "$model" "$tmp/dump" >"$err"
}
t_diff_json() {
	"$bin" diff "$model" -i "$tmp/img.npy" --json >"$out" 2>"$err" &&
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["differing_bytes"] == 0 and d["first_differing_layer"] is None
assert len(d["layers"]) == 31
for l in d["layers"]:
    assert l["differ"] == 0 and l["max_abs"] == 0 and l["histogram"][0] == l["bytes"], l' "$out"
}
t_diff_last_is_output() {
	# the last layer dumped on the NPU path is the run's output
	$chk npydata "$tmp/dump/layer030-SOFTMAX.npu.npy" "$tmp/last.out" &&
	cmp "$tmp/cls.out" "$tmp/last.out"
}
t_diff_perturbed() {
	# the test hook: one step on layer 5's NPU output, propagated downstream
	E1NPU_TFLITE_DIFF_PERTURB=5 "$bin" diff "$model" -i "$tmp/img.raw" --json >"$out" 2>"$err"
	[ $? = 1 ] && python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["first_differing_layer"] == 5, d["first_differing_layer"]
L = d["layers"]
assert all(l["differ"] == 0 for l in L[:5])
assert L[5]["differ"] == 1 and L[5]["max_abs"] == 1 and L[5]["histogram"][:2] == [L[5]["bytes"] - 1, 1]
assert d["differing_bytes"] == sum(l["differ"] for l in L)' "$out" &&
	E1NPU_TFLITE_DIFF_PERTURB=5 "$bin" diff "$model" -i "$tmp/img.raw" >"$out" 2>"$err"
	[ $? = 1 ] && grep -q '^the paths part at layer 5 (DEPTHWISE_CONV_2D): ' "$out"
}
t_compile() {
	"$bin" compile "$model" -o "$tmp/m.e1c" --json >"$out" 2>"$err" &&
	python3 -c 'import hashlib, json, struct, sys
a = open(sys.argv[1], "rb").read(); m = open(sys.argv[2], "rb").read()
d = json.load(open(sys.argv[3]))
assert a[:8] == b"E1NPUCM\n" and struct.unpack_from("<II", a, 8) == (2, 128)
assert a[16:32].rstrip(b"\0").decode() == d["library_version"]
assert a[32:64] == hashlib.sha256(m).digest() and d["model_sha256"] == hashlib.sha256(m).hexdigest()
kind, layers = struct.unpack_from("<II", a, 64)
arena = struct.unpack_from("<I", a, 92)[0]
assert (kind, layers, arena) == (1, 31, d["arena_tensors"]) and arena > 0
assert struct.unpack_from("<Q", a, 96)[0] == len(m) and a[-len(m):] == m
packed = struct.unpack_from("<Q", a, 120)[0]
assert len(a) == 128 + (31 + arena) * 32 + 31 * 16 + packed + len(m) == d["bytes"] and packed > 0
assert struct.unpack_from("<I", a, 72)[0] == d["capabilities"]["engines"] > 0' \
		"$tmp/m.e1c" "$model" "$out" &&
	"$bin" run "$tmp/m.e1c" -i "$tmp/img.raw" -o "$tmp/art.out" >"$out" 2>"$err" &&
	grep -q '^artifact ' "$out" && cmp "$tmp/cls.out" "$tmp/art.out"
}
t_compile_refusals() {
	# another device: the engines differ
	E1NPU_SIM_ENGINES=1 "$bin" run "$tmp/m.e1c" -i "$tmp/img.raw" >"$out" 2>"$err"
	[ $? = 2 ] && grep -q 'compiled for a device with engines 0x6, this device has 0x2' "$err" || return 1
	# truncated, a changed model byte, another library version
	head -c 5000 "$tmp/m.e1c" >"$tmp/t.e1c"
	"$bin" run "$tmp/t.e1c" -i "$tmp/img.raw" >"$out" 2>"$err"
	[ $? = 2 ] && grep -q 't.e1c: truncated or padded' "$err" || return 1
	cp "$tmp/m.e1c" "$tmp/c.e1c"
	printf 'X' | dd of="$tmp/c.e1c" bs=1 seek=300000 conv=notrunc 2>/dev/null
	"$bin" run "$tmp/c.e1c" -i "$tmp/img.raw" >"$out" 2>"$err"
	[ $? = 2 ] && grep -q "checksum differs from the one recorded: the file is corrupted" "$err" || return 1
	cp "$tmp/m.e1c" "$tmp/v.e1c"
	printf '9.9.9' | dd of="$tmp/v.e1c" bs=1 seek=16 conv=notrunc 2>/dev/null
	"$bin" run "$tmp/v.e1c" -i "$tmp/img.raw" >"$out" 2>"$err"
	[ $? = 2 ] && grep -q 'compiled by libe1npu 9.9.9, this is libe1npu ' "$err" || return 1
	"$bin" compile "$model" >"$out" 2>"$err"
	[ $? = 2 ] && grep -q 'give the artifact' "$err" || return 1
	"$bin" compile "$tmp/m.e1c" -o "$tmp/x.e1c" >"$out" 2>"$err"
	[ $? = 2 ] && grep -q 'm.e1c: already a compiled model: compile the .tflite' "$err" &&
		[ ! -e "$tmp/x.e1c" ] || return 1
	"$bin" compile "$model" -o "$tmp/x.e1c" -i "$tmp/img.raw" >"$out" 2>"$err"
	[ $? = 2 ] || return 1
	if [ -w /dev/full ]; then
		"$bin" compile "$model" -o /dev/full >"$out" 2>"$err"
		[ $? = 1 ] && grep -q -- '--output /dev/full: No space left on device' "$err" || return 1
	fi
}

check run_vs_classify t_run_vs_classify
check run_cpu t_run_cpu
check run_npy t_run_npy
check run_latency t_run_latency
check run_json t_run_json
check run_bad_size t_run_bad_size
check run_bad_npy_type t_run_bad_npy_type
check run_inputs_count t_run_inputs_count
check run_full_disk t_run_full_disk
check usage t_usage
check report t_report
check report_text t_report_text
check report_cycles_vs_run t_report_cycles_vs_run
check diff t_diff
check diff_json t_diff_json
check diff_last_is_output t_diff_last_is_output
check diff_perturbed t_diff_perturbed
check compile t_compile
check compile_refusals t_compile_refusals
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
