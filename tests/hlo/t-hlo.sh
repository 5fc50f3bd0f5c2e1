#!/bin/sh
# SPDX-License-Identifier: MIT
#
# /tests/t-hlo.sh: the StableHLO importer's NPU tests in the riscv64 guest,
# through e1npu.ko on the QEMU board's NPU: e1npu-hlo (the cross-built
# tool board.md installs, from guest-riscv64.tar) runs each module on the
# accel node; every check must pass and the ops the module's E1-NPU line
# counts must have run on a hardware engine (wrapper or datapath).
. /tests/lib.sh
# the debug kernel checks the driver; this is userspace
t_debug_skip hlo "StableHLO in userspace: the base guest runs it" && exit 0

bin=/usr/bin/e1npu-hlo
if [ ! -x "$bin" ] && ! tar -xf /tests/guest-riscv64.tar -C /; then
	t_fail hlo-unpack "cannot unpack /tests/guest-riscv64.tar"
	exit 0
fi
if [ ! -x "$bin" ]; then
	t_fail hlo-tool "no $bin in guest-riscv64.tar"
	exit 0
fi
ls /tests/hlo-*.mlir >/dev/null 2>&1 || { t_fail hlo-modules "no /tests/hlo-*.mlir"; exit 0; }
if t_insmod e1npu; then
	dev=$(t_accel_node)
	for f in /tests/hlo-*.mlir; do
		[ -f "$f" ] || continue
		n=$(basename "$f" .mlir)
		args=$(sed -n 's|^// E1-ARGS: ||p' "$f")
		want=$(sed -n 's|^// E1-NPU: ||p' "$f")
		t0=$(cut -d' ' -f1 /proc/uptime)
		# shellcheck disable=SC2086
		t_run "$n" "$bin" run --device "$dev" $args "$f"
		# shellcheck disable=SC2086
		got=$("$bin" run --device "$dev" --json --report $args "$f" 2>/dev/null |
			grep -o '"ran_engine": "\(wrapper\|datapath\)"' | wc -l)
		echo "E1VM-LOG: $n: $(echo "$t0 $(cut -d' ' -f1 /proc/uptime)" | awk '{ printf "%.2f", $2 - $1 }') s (two runs)"
		if [ -n "$want" ] && [ "$got" -eq "$want" ]; then
			t_pass "$n-npu-engine"
		else
			t_fail "$n-npu-engine" "$got ops ran on the NPU through $dev, expected ${want:-?}"
		fi
	done
	t_rmmod e1npu
fi
exit 0
