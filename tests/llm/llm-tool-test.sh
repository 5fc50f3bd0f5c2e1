#!/bin/sh
# SPDX-License-Identifier: MIT
#
# e1npu-llm's command line: bad arguments named with exit 2, a bad
# checkpoint named, --help = the man page's options, and on stories260K
# (skipped, naming the file, when $SHARED_DIR/llm is absent): the float
# path's greedy sample, --json's fields, seeded sampling reproducible.
# Each binary given (normal, ASan+UBSan) is run through the same checks.
# Usage: llm-tool-test.sh E1NPU-LLM [E1NPU-LLM-SAN]
set -u
top=$(dirname "$0")/../..
shared=${SHARED_DIR:-$top/../shared}
model=$shared/llm/stories260K.bin
tok=$shared/llm/tok512.bin
pass=0 fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/e1npu-llm-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
export E1NPU_DEVICE=sim

ok() { pass=$((pass + 1)); echo "PASS llm_tool_$1"; }
ko() { fail=$((fail + 1)); echo "FAIL llm_tool_$1"; sed 's/^/  /' "$tmp/out" "$tmp/err" 2>/dev/null | head -20; }
# expect NAME STATUS REGEX-ON-STDERR+STDOUT -- CMD...
expect() {
	name=$1 want=$2 re=$3; shift 4
	"$@" >"$tmp/out" 2>"$tmp/err"; st=$?
	if [ "$st" = "$want" ] && cat "$tmp/out" "$tmp/err" | grep -Eq -- "$re"; then ok "$name"; else
		echo "  status $st (want $want), pattern '$re'" >>"$tmp/err"; ko "$name"; fi
}

opts_text() { grep -o -- '--[a-z][a-z0-9-]*[a-z0-9]' | sort -u; }
opts_roff() { sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' "$1" | grep -o -- '--[a-z][a-z0-9-]*[a-z0-9]' | sort -u; }

for bin in "$@"; do
	v=$(basename "$(dirname "$(dirname "$(dirname "$bin")")")")	# build tree name
	"$bin" --help | opts_text >"$tmp/help"
	opts_roff "$top/tools/e1npu-llm/e1npu-llm.1" >"$tmp/man"
	if cmp -s "$tmp/help" "$tmp/man"; then ok "${v}_man_help"; else
		diff "$tmp/help" "$tmp/man" >"$tmp/out"; ko "${v}_man_help"; fi
	expect "${v}_no_model" 2 "-m/--model is required" -- "$bin" -z x
	expect "${v}_no_tokenizer" 2 "-z/--tokenizer is required" -- "$bin" -m x
	expect "${v}_bad_steps" 2 "-n/--steps '0': expected a whole number from 1" -- "$bin" -m x -z y -n 0
	expect "${v}_bad_temperature" 2 "--temperature 'hot'" -- "$bin" -m x -z y --temperature hot
	expect "${v}_bad_top_p" 2 "--top-p '1.5': expected a number from 0 to 1" -- "$bin" -m x -z y --top-p 1.5
	expect "${v}_bad_seed" 2 "--seed '-3'" -- "$bin" -m x -z y --seed -3
	expect "${v}_bad_group" 2 "--group '0'" -- "$bin" -m x -z y --group 0
	expect "${v}_bad_engine" 2 "--engine 'gpu': expected auto, wrapper, datapath or cpu" -- "$bin" -m x -z y --engine gpu
	expect "${v}_bad_ops_on" 2 "--ops-on 'gpu': expected e1, host, default or OP=e1\|host" -- "$bin" -m x -z y --ops-on gpu
	expect "${v}_bad_ops_op" 2 "--ops-on 'rope=e1,conv=e1': unknown op 'conv'" -- "$bin" -m x -z y --ops-on rope=e1,conv=e1
	expect "${v}_bad_ops_place" 2 "--ops-on 'rope=gpu': op 'rope' placed on 'gpu': expected e1 or host" -- "$bin" -m x -z y --ops-on rope=gpu
	expect "${v}_ops_twice" 2 "op 'rope' given twice" -- "$bin" -m x -z y --ops-on rope=e1,rope=host
	expect "${v}_float_ops" 2 "--ops-on is for the int8 path: not with --float" -- "$bin" -m x -z y --float --ops-on e1
	expect "${v}_float_device" 2 "--float runs on the CPU" -- "$bin" -m x -z y --float -d sim
	expect "${v}_twice" 2 "given twice" -- "$bin" -m x -m y -z y
	expect "${v}_unknown_option" 2 "Try" -- "$bin" --bogus
	expect "${v}_missing_file" 2 "checkpoint '$tmp/none.bin'" -- "$bin" -m "$tmp/none.bin" -z y
	printf '\100\0\0\0\254\0\0\0' >"$tmp/bad.bin"	# 8 bytes: shorter than the header
	expect "${v}_short_file" 2 "file size 8 bytes is shorter than the 28-byte header" -- "$bin" -m "$tmp/bad.bin" -z "$tmp/bad.bin"
	expect "${v}_json_error" 2 '^\{"error": ?"-m/--model is required' -- "$bin" --json -z x
	expect "${v}_version" 0 "^e1npu-llm [0-9]" -- "$bin" --version
	if [ ! -r "$model" ] || [ ! -r "$tok" ]; then
		echo "SKIP llm_tool_${v}_stories: $model or $tok absent (SHARED_DIR)"
		continue
	fi
	expect "${v}_float_sample" 0 "We can help you\.$" -- "$bin" -m "$model" -z "$tok" --float
	expect "${v}_float_stats" 0 "float32 on cpu: prompt 1 tokens, .* \(256 tokens\)" -- "$bin" -m "$model" -z "$tok" --float
	expect "${v}_int8_stats" 0 "int8 on sim: prompt 5 tokens, prefill .* ms, decode .* tok/s \(28 tokens\), modelled [0-9]+ tok/s, 21\.0 jobs/token, placement qkv=wrapper" -- \
		"$bin" -m "$model" -z "$tok" -p "Once upon a time" -n 32
	expect "${v}_int8_batch" 0 "int8 on sim: .* 62\.0 jobs/token, placement qkv=wrapper" -- \
		"$bin" -m "$model" -z "$tok" -p "Once upon a time" -n 32 --engine wrapper --batch
	expect "${v}_int8_ops_e1" 0 "int8 on sim: .*placement .*rmsnorm=datapath,rope=datapath,attention=wrapper,softmax=datapath,swiglu=cpu" -- \
		"$bin" -m "$model" -z "$tok" -p "Once upon a time" -n 16 --engine wrapper --ops-on rmsnorm=e1,rope=e1,attention=e1,softmax=e1
	expect "${v}_float_batch" 2 "--batch is for the int8 path: not with --float" -- "$bin" -m x -z y --float --batch
	expect "${v}_json" 0 '^\{"device": "sim", "path": "int8", "prompt_ids": \[1, [0-9, ]+\], "generated_ids": \[[0-9, ]+\], "text": "Once upon a time.*"stats": \{"prompt_tokens": 5, "generated_tokens": 12,.*"ops": \[\{"name": "qkv", "engine": "(wrapper|datapath)"' -- \
		"$bin" -m "$model" -z "$tok" -p "Once upon a time" -n 16 --json
	"$bin" -m "$model" -z "$tok" -n 40 --temperature 1.0 --top-p 0.9 --seed 7 --float >"$tmp/a" 2>/dev/null
	"$bin" -m "$model" -z "$tok" -n 40 --temperature 1.0 --top-p 0.9 --seed 7 --float >"$tmp/b" 2>/dev/null
	"$bin" -m "$model" -z "$tok" -n 40 --temperature 1.0 --top-p 0.9 --seed 8 --float >"$tmp/c" 2>/dev/null
	head -n -1 "$tmp/a" >"$tmp/a1"; head -n -1 "$tmp/b" >"$tmp/b1"; head -n -1 "$tmp/c" >"$tmp/c1"
	: >"$tmp/out"; : >"$tmp/err"
	if [ -s "$tmp/a1" ] && cmp -s "$tmp/a1" "$tmp/b1" && ! cmp -s "$tmp/a1" "$tmp/c1"; then ok "${v}_seeded"; else
		cat "$tmp/a" "$tmp/c" >"$tmp/out"; ko "${v}_seeded"; fi
	expect "${v}_prompt_too_long" 2 "prompt of 5 tokens is longer than -n/--steps 3" -- \
		"$bin" -m "$model" -z "$tok" -p "Once upon a time" -n 3
	"$bin" -m "$model" -z "$tok" -n 8 --trace "$tmp/t.json" >/dev/null 2>&1
	: >"$tmp/out"; : >"$tmp/err"
	if [ -s "$tmp/t.json" ] && grep -q '"traceEvents"\|"ph"' "$tmp/t.json"; then ok "${v}_trace"; else ko "${v}_trace"; fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
