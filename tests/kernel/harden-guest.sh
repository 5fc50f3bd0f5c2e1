#!/bin/sh
# SPDX-License-Identifier: MIT
#
# /tests/harden-guest.sh: the driver-hardening checks (issue 9), sourced by
# run-guest.sh (its load/unload/bind_npu/systest helpers): bounded SUBMIT,
# sync and DEV_QUERY struct sizes, mmap of buffers at arena
# offsets, the per-file arena quota, fdinfo, runtime PM, arena space of
# finished jobs reusable at once, reset-then-verify at probe, and a probe
# that defers on an interrupt controller without a driver. The arena that
# is not a power of two in pages, and the arena from a memory-region other
# than board.md's, are run-guest-split.sh's (the split device tree).

if load harden; then
	for c in sizes mmap quota fdinfo rpm reuse; do
		echo "E1VM: RUN e1npu-systest harden $c"
		systest harden "$c"
	done

	# reset-then-verify: the wrapper ID reads 0 once the probe has
	# flushed (reset) the block; probe must refuse, then bind again
	echo "$E1VM_NPU" >"$E1VM_NPU_DRV/unbind"
	if ! t_dev_set inject-bad-id 1; then
		t_fail probe-bad-id-after-reset "cannot set inject-bad-id"
	elif echo "$E1VM_NPU" >"$E1VM_NPU_DRV/bind" 2>/dev/null; then
		t_fail probe-bad-id-after-reset "bound with the wrapper ID reading 0 after reset"
		echo "$E1VM_NPU" >"$E1VM_NPU_DRV/unbind"
	elif [ -e "$NPU_SYS/driver" ]; then
		t_fail probe-bad-id-after-reset "driver link present after a failed probe"
	elif dmesg | grep -q "$E1VM_NPU: .*wrapper ID 0x00000000 after reset"; then
		t_pass probe-bad-id-after-reset
	else
		dmesg | tail -n 5 | sed 's/^/E1VM-LOG: probe-bad-id: /'
		t_fail probe-bad-id-after-reset "no '$E1VM_NPU: wrapper ID ... after reset' message"
	fi
	t_dev_set inject-bad-id 0
	if ! bind_npu; then
		t_fail probe-rebind-after-bad-id "bind $E1VM_NPU failed with a good ID"
	elif probed rebind-after-bad-id; then
		systest engines 0x3
	fi
fi

# an enabled NPU node (board DT of tests/vm/riscv64-dtb.sh) whose
# interrupts are on a controller without a driver: every insmod e1npu above
# probed it too; -EPROBE_DEFER must defer the probe (the device listed in
# devices_deferred), never bind it without its lines
defer=10030000.npu
if [ -d /proc/device-tree/soc/npu@10030000 ]; then
	if [ -e "$(t_npu_sys $defer)/driver" ] ||
		ls -d "$(t_npu_sys $defer)"/accel/accel* >/dev/null 2>&1; then
		t_fail probe-irq-defer "$defer bound without its interrupts"
	elif grep -q "^$defer" /sys/kernel/debug/devices_deferred 2>/dev/null; then
		echo "E1VM-LOG: probe-irq-defer: $(grep "^$defer" /sys/kernel/debug/devices_deferred)"
		t_pass probe-irq-defer
	else
		sed 's/^/E1VM-LOG: probe-irq-defer: deferred: /' /sys/kernel/debug/devices_deferred 2>/dev/null
		t_fail probe-irq-defer "$defer neither bound nor in /sys/kernel/debug/devices_deferred"
	fi
else
	t_fail probe-irq-defer "no /soc/npu@10030000 node (the interrupt-deferral case) in the board's device tree"
fi
unload
