#!/bin/sh
# SPDX-License-Identifier: MIT
#
# /tests/t-delegate.sh (x86_64 guest): the TFLite delegate and libe1npu's
# interpreter on e1npu.ko's accel node (over e1npu_sim.ko) against TFLite
# 2.2 on the shipped MobileNet: test-delegate -d /dev/accel/accelN from
# guest-delegate-x86.tar (tests/delegate/delegate.mk). One E1VM result
# per check test-delegate makes.
. /tests/lib.sh

d=/tests/delegate-x86
mkdir -p "$d"
if ! tar -xf /tests/guest-delegate-x86.tar -C "$d"; then
	t_fail delegate-unpack "cannot unpack /tests/guest-delegate-x86.tar"
	exit 0
fi
if [ -f "$d/no-tflite" ]; then
	t_skip delegate "no TFLite 2.2 on the build machine: $(cat "$d/no-tflite")"
	exit 0
fi
t_insmod e1npu_sim || exit 0
if t_insmod e1npu; then
	dev=$(t_accel_node)
	"$d/lib/ld-linux-x86-64.so.2" --library-path "$d/lib" "$d/test-delegate" \
		--tflite "$d/lib/libtensorflowlite_c.so" \
		--delegate "$d/lib/libe1npu_tflite_delegate.so" --interp -d "$dev" \
		-i "$d/grace_hopper_128.bmp" -r 2 -p "$d/mobilenet_v1_0.25_128_logistic.tflite" \
		"$d/mobilenet_v1_0.25_128_quant.tflite" > "$d/out" 2>&1
	rc=$?
	sed 's/^/E1VM-LOG: delegate: /' "$d/out"
	n=0
	while IFS= read -r line; do
		case "$line" in
		"  PASS  "*) n=$((n + 1)); t_pass "delegate-$n" ;;
		"  FAIL  "*) n=$((n + 1)); t_fail "delegate-$n" "${line#  FAIL  }" ;;
		esac
	done < "$d/out"
	if [ "$rc" != 0 ] || [ "$n" -lt 20 ]; then
		t_fail delegate-run "test-delegate exited with $rc after $n checks"
	else
		t_pass delegate-run
	fi
	t_rmmod e1npu
fi
t_rmmod e1npu_sim
exit 0
