#!/bin/sh
# SPDX-License-Identifier: MIT
#
# check-delegate-newer's part inside the Debian sid root (tests/vm/sid-root.sh,
# the repository at /src, ../shared at /shared): TFLite 2.14's C API
# (libtensorflow-lite-dev) alone vs TFLite 2.14 + the e1npu delegate, and
# libe1npu's own interpreter with E1NPU_TFLITE_REF=2.14, byte for byte:
#   the small MobileNet, exact; /shared/models (MobileNets) and /shared/zoo,
#   as tests/delegate/expect-2.14.txt says (test-delegate --expect);
#   tests/tflite/mkmodels.py's models (built here), as
#   tests/delegate/expect-2.14-built.txt says; its dynamic-* ones, exact.
# Built here with sid's compiler and headers (sid's libraries need sid's
# C library): newer-sid.sh O (the build directory, relative to /src).
set -u
O=$1
tfl=$(ls /usr/lib/*/libtensorflow-lite.so.2.* 2>/dev/null | head -n 1)
if [ -z "$tfl" ]; then
	echo "check-delegate-newer: SKIPPED: no libtensorflow-lite.so.2.* in the sid root"
	echo "check-delegate-newer: 0 passed, 0 failed, 1 skipped"
	exit 0
fi
mkdir -p "$O"
if ! make -s O="$O" -j2 "$O/tests/delegate/test-delegate" \
	"$O/delegate/libe1npu_tflite_delegate.so" >"$O/newer-build.log" 2>&1; then
	cat "$O/newer-build.log"
	echo "check-delegate-newer: FAILED: building in the sid root (log $O/newer-build.log)"
	exit 1
fi
models="$O/tests/tflite/models"
mkdir -p "$models"
(cd tests/tflite && python3 mkmodels.py "/src/$models") || {
	echo "check-delegate-newer: FAILED: tests/tflite/mkmodels.py"; exit 1; }
echo "check-delegate-newer: $(sed -n 's/^libtensorflow-lite-dev=/TFLite /p' /E1NPU-VERSIONS) ($tfl)"
T="$O/tests/delegate/test-delegate --tflite $tfl --delegate $O/delegate/libe1npu_tflite_delegate.so"
export E1NPU_TFLITE_REF=2.14
fail=0
imgs="-i /shared/models/grace_hopper.bmp"
$T --interp $imgs -r "${DELEGATE_RANDOM:-3}" /shared/models/mobilenet_v1_0.25_128_quant.tflite || fail=1
$T --interp --expect tests/delegate/expect-2.14.txt $imgs -r "${DELEGATE_RANDOM:-3}" \
	/shared/models/*.tflite /shared/zoo/*.tflite || fail=1
$T --interp --no-skip-ops --ramp -r 4 --expect tests/delegate/expect-2.14-built.txt \
	$(ls "$models"/*.tflite | grep -v '/dynamic-') || fail=1
$T --no-skip-ops -r 4 "$models"/dynamic-*.tflite || fail=1
exit $fail
