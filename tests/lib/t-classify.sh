#!/bin/sh
# SPDX-License-Identifier: MIT
#
# /tests/t-classify.sh: the shipped MobileNet in the x86_64 guest (the
# riscv64 guest runs guest-classify.sh from t-board.sh): e1npu.ko on
# e1npu_sim.ko, the host's e1npu-classify binary through the loader and
# libraries of guest-lib-x86.tar, output bytes equal to the host's run.
. /tests/lib.sh

lib=/tests/lib-x86
if [ ! -x "$lib/ld-linux-x86-64.so.2" ] && ! tar -xf /tests/guest-lib-x86.tar -C /tests; then
	t_fail classify-unpack "cannot unpack /tests/guest-lib-x86.tar"
	exit 0
fi
t_insmod e1npu_sim || exit 0
if t_insmod e1npu; then
	dev=$(t_accel_node)
	CLASSIFY="$lib/ld-linux-x86-64.so.2 --library-path $lib /tests/e1npu-classify" \
		sh /tests/guest-classify.sh "$dev"
	t_rmmod e1npu
fi
t_rmmod e1npu_sim
exit 0
