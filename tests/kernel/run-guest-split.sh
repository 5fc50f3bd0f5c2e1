#!/bin/sh
# SPDX-License-Identifier: MIT
#
# /tests/run-guest-split.sh: the e1npu system tests of the second, short
# riscv64 boot (kernel command line e1vm.dt=split; /init runs this script
# instead of run-guest.sh and the t-*.sh scripts). The same QEMU NPU is
# described by two device tree nodes instead of board.md's one:
#   npu@10020000  reg-names "wrapper" only (interrupts npu, fallback), a
#                 3 MiB no-map shared-dma-pool as its memory-region
#   npu@10021000  reg-names "datapath" only (interrupt datapath), its own
#                 2 MiB region
# insmod e1npu binds a driver instance to each: a wrapper-only and a
# datapath-only device, as a SoC with only one of the engines has. Each
# runs its engine checks against its own accel node, and the
# arena check: the size the binding gives its memory-region (a no-map
# region: the largest power of two of pages it holds; a reusable one:
# whole), all of it allocatable and its end reachable by the device; mmap
# and quota again on the wrapper node's region arena. The module is
# loaded with arena_size=3145728: a node without a memory-region gets a
# 3 MiB (768 pages, not a power of two) coherent arena, the case issue 9
# asked for ("arena-not-pow2").
. /tests/lib.sh

ST=/tests/e1npu-systest
WR=10020000.npu
DP=10021000.npu
ARENA_PARAM=3145728

strs() { tr '\0' ' ' <"$1" 2>/dev/null | sed 's/ $//'; }

# arena_bytes DT-NODE: the arena the binding gives the node's
# memory-region (t_dt_arena; the device tree is the test's input), or the
# arena_size the module was given when it has none
arena_bytes() {
	if _a=$(t_dt_arena "$1"); then
		echo "${_a#* }"
	else
		echo "$ARENA_PARAM"
	fi
}

# arena_check ACCEL BYTES: the whole arena in three buffers, not a page
# more, its last bytes reachable by the device ("arena-not-pow2" when
# BYTES is not a power of two in pages, else "arena-whole")
arena_check() {
	echo "E1VM: RUN e1npu-systest harden arena $2 on $1"
	E1T_DEV=$1 systest harden arena "$2"
}

if [ ! -x "$ST" ] || [ ! -f "$E1VM_MODDIR/e1npu.ko" ]; then
	t_fail e1npu-split "no $ST or $E1VM_MODDIR/e1npu.ko in the guest"
	exit 0
fi
wn=/proc/device-tree/soc/npu@10020000
dn=/proc/device-tree/soc/npu@10021000
if [ "$(strs $wn/reg-names)" = wrapper ] && [ "$(strs $dn/reg-names)" = datapath ]; then
	t_pass split-dt
else
	t_fail split-dt "reg-names '$(strs $wn/reg-names)' and '$(strs $dn/reg-names)', want 'wrapper' and 'datapath'"
	exit 0
fi
t_dev_defaults || t_fail dev-defaults "cannot reset the device's fault properties"

t_insmod e1npu arena_size=$ARENA_PARAM || exit 0
wr=$(t_accel_node $WR)
dp=$(t_accel_node $DP)
if [ -n "$wr" ]; then t_pass probe-wrapper-only; else t_fail probe-wrapper-only "no accel node under $(t_npu_sys $WR)"; fi
if [ -n "$dp" ]; then t_pass probe-datapath-only; else t_fail probe-datapath-only "no accel node under $(t_npu_sys $DP)"; fi
[ -n "$wr" ] && [ -n "$dp" ] || dmesg | tail -n 20 | sed 's/^/E1VM-LOG: probe-split: /'

# ---- the wrapper alone ------------------------------------------------------
if [ -n "$wr" ]; then
	E1T_DEV=$wr systest engines 0x1
	arena_check "$wr" "$(arena_bytes $wn)"
	E1T_DEV=$wr systest harden mmap
	E1T_DEV=$wr systest harden quota
fi

# ---- the datapath alone -----------------------------------------------------
if [ -n "$dp" ]; then
	E1T_DEV=$dp systest engines 0x2
	E1T_DEV=$dp systest dp
	[ ! -f /tests/guest-lib-tests.sh ] ||
		E1NPU_GUEST_DEV=$dp sh /tests/guest-lib-tests.sh datapath-only ops-test-fallback lib-test-ops:test_engine_absent
	arena_check "$dp" "$(arena_bytes $dn)"
fi

t_rmmod e1npu
for d in $WR $DP; do
	[ ! -e "$(t_npu_sys $d)/driver" ] || t_fail unbind "$d still bound after rmmod e1npu"
done

t_dmesg_check e1npu-dmesg-clean
exit 0
