#!/bin/bash
# SPDX-License-Identifier: MIT
#
# riscv64-dtb.sh MEM: prints the device-tree source fragment of the test
# nodes for e1npu_sim of_node=PATH (tests/kernel/harden-guest.sh), which
# riscv64_board_dtb (kernel-riscv64.sh) appends to QEMU virt's tree and
# board.md's node:
#   /e1npu-dt-arena  names a 3 MiB no-map "shared-dma-pool" region 32 MiB
#                    below the end of RAM: a memory-region whose size is
#                    not a power of two in pages
#   /e1npu-dt-defer  its "fallback" interrupt on a controller that never
#                    probes: the driver's probe must defer
set -e
mem=$1
case "$mem" in
*G) mb=$((${mem%G} * 1024)) ;;
*M) mb=${mem%M} ;;
*) echo "riscv64-dtb.sh: memory size '$mem' is not NNNM or NG" >&2; exit 1 ;;
esac
base=$((0x80000000 + (mb - 32) * 1024 * 1024))
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
