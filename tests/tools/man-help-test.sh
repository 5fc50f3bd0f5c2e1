#!/bin/sh
# SPDX-License-Identifier: MIT
#
# --help and the man page of each installed tool name the same long
# options (issue 22: a man page for every tool, --help matching it).
# npu-smoke's are the union of its commands' --help.
# Usage: man-help-test.sh NPU-SMOKE E1NPU-CLASSIFY E1NPU-HLO [E1NPU-TFLITE]
set -u
smoke=$1 classify=$2 hlo=$3 tflite=${4:-}
top=$(dirname "$0")/../..
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# long options in text (--help) and in roff (\-\-name, font escapes)
opts_text() { grep -o -- '--[a-z][a-z0-9-]*[a-z0-9]' | sort -u; }
opts_roff() {
	sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' "$1" | grep -o -- '--[a-z][a-z0-9-]*[a-z0-9]' | sort -u
}

same() {
	name=$1 help=$2 man=$3
	opts_roff "$man" >"$tmp/man"
	opts_text <"$help" >"$tmp/help"
	if cmp -s "$tmp/man" "$tmp/help"; then
		pass=$((pass + 1))
		echo "PASS man_help_$name ($(wc -l <"$tmp/help") options)"
	else
		fail=$((fail + 1))
		echo "FAIL man_help_$name: options only in --help (<) or only in $man (>):"
		diff "$tmp/help" "$tmp/man" | grep '^[<>]' | sed 's/^/  /'
	fi
}

"$classify" --help >"$tmp/classify" && same e1npu-classify "$tmp/classify" \
	"$top/tools/e1npu-classify/e1npu-classify.1"
"$hlo" --help >"$tmp/hlo" && same e1npu-hlo "$tmp/hlo" "$top/tools/e1npu-hlo/e1npu-hlo.1"
if [ -n "$tflite" ]; then
	"$tflite" --help >"$tmp/tflite" && same e1npu-tflite "$tmp/tflite" \
		"$top/tools/e1npu-tflite/e1npu-tflite.1"
fi
: >"$tmp/smoke"
for c in "" info ping smoke bench perf ops; do
	# shellcheck disable=SC2086
	E1NPU_DEVICE=sim "$smoke" $c --help >>"$tmp/smoke" || echo "--help of '$c' failed" >>"$tmp/smoke"
done
same npu-smoke "$tmp/smoke" "$top/tools/npu-smoke/npu-smoke.1"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
