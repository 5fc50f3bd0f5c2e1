#!/bin/sh
# SPDX-License-Identifier: MIT
#
# /tests/guest-classify.sh DEVICE: e1npu-classify on the small MobileNet
# (from ../shared/models, Documentation/board.md copies it) in a QEMU guest, three ways: through the kernel driver
# (DEVICE), on the in-process device model (--device sim: the model's GEMM
# as compiled for this arch) and on the CPU reference path (--cpu). Each
# output tensor's sha256 must equal the host's in-process run
# (classify-host.txt, built by tests/lib/guest-lib.mk); without the model
# the three checks are skipped, naming the file. Busybox sh.
# Environment: CLASSIFY (the command, default e1npu-classify), DATA (the
# directory with the model, image and labels, default /tests).
. /tests/lib.sh

dev=$1
cls=${CLASSIFY:-e1npu-classify}
data=${DATA:-/tests}
exp=$(cut -d' ' -f1 /tests/classify-host.txt)
# without the model, labels or photo on the build machine (shared/ absent)
# classify-host.txt is "SKIP PATH absent ...": each check skipped, naming it
skip=$(sed -n 's/^SKIP //p' /tests/classify-host.txt)
for mode in kernel sim cpu; do
	if [ -n "$skip" ]; then
		t_skip "classify-$mode" "$skip"
		continue
	fi
	case "$mode" in
	kernel) o="--device $dev" ;;
	sim) o="--device sim" ;;
	cpu) o="--cpu" ;;
	esac
	t0=$(cut -d' ' -f1 /proc/uptime)
	# shellcheck disable=SC2086
	$cls $o -m "$data/mobilenet_v1_0.25_128_quant.tflite" -i "$data/grace_hopper_128.bmp" \
		-l "$data/imagenet_labels.txt" -n 1 --raw-output /tmp/classify-$mode.raw \
		>/tmp/classify.log 2>&1
	rc=$?
	t1=$(cut -d' ' -f1 /proc/uptime)
	got=$(sha256sum </tmp/classify-$mode.raw 2>/dev/null | cut -d' ' -f1)
	echo "E1VM-LOG: classify-$mode: $(tail -n 1 /tmp/classify.log) ($(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }') s)"
	echo "E1VM-LOG: classify-$mode: output sha256 $got"
	if [ "$rc" = 0 ] && [ "$got" = "$exp" ]; then
		t_pass "classify-$mode"
	else
		t_fail "classify-$mode" "e1npu-classify $o: exit $rc, output sha256 '$got', host's '$exp'"
	fi
	rm -f /tmp/classify-$mode.raw
done
exit 0
