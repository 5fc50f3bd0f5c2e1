#!/bin/bash
# SPDX-License-Identifier: MIT
#
# riscv64-dtb.sh DIR MEM SMP: the QEMU virt device tree of a MEM/SMP guest
# plus nodes for e1npu_sim of_node=PATH (tests/kernel/harden-guest.sh):
#   /e1npu-dt-arena  names a 3 MiB no-map "shared-dma-pool" region 32 MiB
#                    below the end of RAM: a memory-region whose size is
#                    not a power of two in pages
#   /e1npu-dt-defer  its "fallback" interrupt on a controller that never
#                    probes: the driver's probe must defer
# Prints the DTB path; exits non-zero (nothing printed) without dtc.
set -e
dir=$1 mem=$2 smp=$3
command -v dtc >/dev/null 2>&1 || exit 1
case "$mem" in
*G) mb=$((${mem%G} * 1024)) ;;
*M) mb=${mem%M} ;;
*) exit 1 ;;
esac
base=$((0x80000000 + (mb - 32) * 1024 * 1024))
qemu-system-riscv64 -M virt,dumpdtb="$dir/virt.dtb" -m "$mem" -smp "$smp" \
	-nographic >/dev/null 2>&1
{
	dtc -q -I dtb -O dts "$dir/virt.dtb"
	cat <<DTS
/ {
	reserved-memory {
		#address-cells = <2>;
		#size-cells = <2>;
		ranges;
		e1npu_arena: e1npu-arena@$(printf %x "$base") {
			compatible = "shared-dma-pool";
			reg = <0x0 $(printf 0x%x "$base") 0x0 0x300000>;
			no-map;
		};
	};
	/* disabled: no platform devices of their own, e1npu_sim uses them */
	e1npu-dt-arena {
		compatible = "eliza,e1npu-sim";
		memory-region = <&e1npu_arena>;
		status = "disabled";
	};
	/* an interrupt controller without a driver: its lines defer */
	e1npu_nointc: e1npu-dt-nointc {
		interrupt-controller;
		#interrupt-cells = <1>;
		status = "disabled";
	};
	e1npu-dt-defer {
		compatible = "eliza,e1npu-sim";
		interrupts-extended = <&e1npu_nointc 1>;
		interrupt-names = "fallback";
		status = "disabled";
	};
};
DTS
} >"$dir/virt-e1npu.dts"
dtc -q -I dts -O dtb -o "$dir/virt-e1npu.dtb" "$dir/virt-e1npu.dts"
echo "$dir/virt-e1npu.dtb"
