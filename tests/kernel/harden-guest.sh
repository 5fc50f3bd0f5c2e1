#!/bin/sh
# SPDX-License-Identifier: MIT
#
# /tests/harden-guest.sh: the driver-hardening checks (issue 9), sourced by
# run-guest.sh (its load/unload/systest helpers): bounded SUBMIT and
# DEV_QUERY sizes, capped unread results, mmap of buffers at arena
# offsets, the per-file arena quota, fdinfo, runtime PM, arena space of
# finished jobs reusable at once, reset-then-verify at probe and an arena
# that is not a power of two in pages.

if load harden; then
	for c in sizes results mmap quota fdinfo rpm reuse; do
		echo "E1VM: RUN e1npu-systest harden $c"
		systest harden "$c"
	done

	# reset-then-verify: the wrapper ID reads 0 once the probe has
	# flushed (reset) the block; probe must refuse, then bind again
	drv=/sys/bus/platform/drivers/e1npu
	echo e1npu-sim >"$drv/unbind"
	echo 1 >"$SIM/inject_bad_id"
	if echo e1npu-sim >"$drv/bind" 2>/dev/null; then
		t_fail probe-bad-id-after-reset "bound with the wrapper ID reading 0 after reset"
		echo e1npu-sim >"$drv/unbind"
	elif [ -e /sys/devices/platform/e1npu-sim/driver ]; then
		t_fail probe-bad-id-after-reset "driver link present after a failed probe"
	elif dmesg | grep -q 'wrapper ID 0x00000000 after reset'; then
		t_pass probe-bad-id-after-reset
	else
		dmesg | tail -n 5 | sed 's/^/E1VM-LOG: probe-bad-id: /'
		t_fail probe-bad-id-after-reset "no 'wrapper ID ... after reset' message"
	fi
	echo 0 >"$SIM/inject_bad_id"
	if echo e1npu-sim >"$drv/bind" && ls -d /sys/devices/platform/e1npu-sim/accel/accel* >/dev/null 2>&1; then
		t_pass probe-rebind-after-bad-id
		systest engines 0x3
	else
		t_fail probe-rebind-after-bad-id "no accel node after binding with a good ID"
	fi
fi
unload

# behind the simulator's toy IOMMU (x86_64: CONFIG_ARCH_HAS_DMA_OPS): the
# arena is scattered pages at an I/O virtual address and mmap maps like
# iommu-dma, so a buffer must be mapped through the whole arena's mapping
# with its own page offset
if [ "$E1VM_ARCH" = x86_64 ]; then
	if load fake-iommu fake_iommu=1; then
		systest basic
		systest harden mmap
	fi
	unload
fi

# an arena of 3 MiB: 768 pages, not a power of two
if t_insmod e1npu_sim && t_insmod e1npu arena_size=3145728; then
	_i=0
	while ! ls -d /sys/devices/platform/e1npu-sim/accel/accel* >/dev/null 2>&1 && [ $_i -lt 50 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	systest harden arena 3145728
fi
unload

# riscv64 only, where tests/vm/riscv64-dtb.sh adds DT nodes for e1npu_sim
# of_node=PATH:
# - the arena from a DT memory-region of 3 MiB (no-map shared-dma-pool),
#   which the region's pool allocator could not hand out whole (768 pages)
# - an optional interrupt whose controller never probes: -EPROBE_DEFER
#   must defer the probe, not be taken for "absent"
if [ -d /proc/device-tree/e1npu-dt-arena ]; then
	if load dt-arena of_node=/e1npu-dt-arena; then
		systest harden arena 3145728
		systest harden mmap
		systest harden quota
	fi
	unload
	if t_insmod e1npu_sim of_node=/e1npu-dt-defer && t_insmod e1npu; then
		sleep 1
		if ls -d /sys/devices/platform/e1npu-sim/accel/accel* >/dev/null 2>&1; then
			t_fail probe-irq-defer "bound without its deferred fallback interrupt"
		elif grep -q e1npu-sim /sys/kernel/debug/devices_deferred 2>/dev/null; then
			t_pass probe-irq-defer
		else
			t_fail probe-irq-defer "not bound and not in devices_deferred"
		fi
	fi
	unload
elif [ "$E1VM_ARCH" = riscv64 ]; then
	t_skip dt-arena "no /proc/device-tree/e1npu-dt-arena (booted with VM_BOARD_DTB=0?)"
fi
