#!/bin/sh
# SPDX-License-Identifier: MIT
#
# E1NPU_TRACE=FILE in an application that links libe1npu only through the
# TFLite delegate: real TFLite 2.2 (tests/delegate/test-delegate.c) with
# libe1npu_tflite_delegate.so, on the shipped MobileNet (every node
# delegated) and on the zoo models that TFLite and the delegate share
# (some nodes left to TFLite). Each trace passes trace-check.py, its layer
# spans are the delegated nodes: as many as expect.txt's "delegated N"
# (checked against TFLite by check-zoo), their operators in the model's
# order, counted from the FlatBuffer here (tests/models/tflite_dump.py's
# walk), and every device cycle is a layer's.
# Usage: trace-delegate-test.sh TEST-DELEGATE DELEGATE.so FETCH-TFLITE
set -u
harness=$1 so=$2 fetch=$3
. "$(dirname "$0")/lib.sh"
test_init trace_delegate
need_data "${ZOO_DIR:-${SHARED_DIR:-$top/../shared}/zoo}"
chk="python3 $top/tests/tools/trace-check.py"
export E1NPU_DEVICE=sim

if ! tfl=$("$fetch" 2>"$err"); then
	echo "trace-delegate: SKIPPED: no TFLite 2.2 reference: $(cat "$err")"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi

# The delegated nodes' operators: those expect.txt's count ($2) says: every
# node when it is the model's node count, else the nodes whose tensors are
# all integer (TFLite keeps the float ones).
ops_of() {
	python3 - "$1" "$top" "$2" <<'PY'
import os, sys
sys.path.insert(0, os.path.join(sys.argv[2], "tests", "models"))
sys.path.insert(0, os.path.join(sys.argv[2], "tests", "zoo"))
from tflite_dump import FB
from zoo_info import OPS
fb = FB(open(sys.argv[1], "rb").read())
root = fb.u32(0)
codes = [max(fb.scalar(oc, 0, "b"), fb.scalar(oc, 3, "i")) for oc in fb.tables(root, 1)]
sg = fb.tables(root, 2)[0]
tensors = fb.tables(sg, 0)
ops = []
nodes = fb.tables(sg, 3)
for op in nodes:
    ts = [t for t in list(fb.ints(op, 1)) + list(fb.ints(op, 2)) if t >= 0]
    if len(nodes) == int(sys.argv[3]) or \
       all(fb.scalar(tensors[t], 1, "b") in (2, 3, 9) for t in ts):
        ops.append(OPS[codes[fb.scalar(op, 0, "I")]])
print(",".join(ops))
PY
}

t_model() {
	model=$1 n=$2
	trace=$tmp/$(basename "$model" .tflite).json
	E1NPU_TRACE=$trace "$harness" --tflite "$tfl/lib/libtensorflowlite_c.so" --delegate "$so" \
		--no-skip-ops -r 1 "$model" >"$out" 2>"$err" &&
	grep -q "delegated $n of" "$out" &&
	ops=$(ops_of "$model" "$n") &&
	[ "$(echo "$ops" | tr ',' '\n' | grep -c .)" = "$n" ] &&
	$chk "$trace" --need-device --layer-sums --layers "$n" --ops "$ops" >"$out"
}

check mobilenet_v1 t_model "$data/mobilenet_v1_0.25_128_quant.tflite" 31
# zoo models the delegate runs in part or whole: N from expect.txt
grep -v '^#' "$top/tests/data/zoo/expect.txt" | while IFS='|' read -r name interp counts rest; do
	name=$(echo "$name" | tr -d ' ')
	n=${counts%%/*}
	n=$(echo "$n" | tr -d ' ')
	[ "$n" -gt 0 ] || continue
	echo "$name $n"
done >"$tmp/zoo.list"
while read -r name n; do
	case $name in
	tiny_ad_toycar_fullint_micro.tflite|tiny_ad01_int8.tflite|tfm_hello_world_int8.tflite)
		check "${name%.tflite}" t_model "$data/zoo/$name" "$n" ;;
	esac
done <"$tmp/zoo.list"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
