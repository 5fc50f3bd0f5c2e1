#!/bin/bash
# SPDX-License-Identifier: MIT
#
# riscv64-dtb.sh board|split MEM: prints the device-tree source that
# riscv64_board_dtb (kernel-riscv64.sh) puts beside QEMU virt's own tree.
#   board  the ```dts block of Documentation/board.md (the NPU node and its
#          reserved-memory tensor arena, as a board has them), plus the
#          driver-hardening tests' node: npu@10030000, a second e1 NPU
#          whose interrupts sit on a controller that never probes, so its
#          probe must defer before it touches a register
#   split  the same NPU described as two nodes, one window each, as a SoC
#          that integrates only one of the engines would describe it:
#          npu@10020000 (wrapper; a 3 MiB no-map region, of which the
#          binding's pool gives the largest power of two, 2 MiB) and
#          npu@10021000 (datapath; no memory-region: the driver's
#          arena_size from CMA, which run-guest-split.sh sets to 3 MiB,
#          not a power of two in pages)
# The split wrapper's region sits 32 MiB below the end of RAM.
set -e
mode=$1
mem=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
case "$mem" in
*G) mb=$((${mem%G} * 1024)) ;;
*M) mb=${mem%M} ;;
*) echo "riscv64-dtb.sh: memory size '$mem' is not NNNM or NG" >&2; exit 1 ;;
esac
hex() { printf 0x%x "$1"; }
case "$mode" in
board)
	awk '/^```dts$/ { on = 1; next } /^```/ { on = 0 } on' "$top/Documentation/board.md"
	cat <<DTS
/ {
	/* an interrupt controller without a driver: its lines defer */
	e1npu_nointc: e1npu-dt-nointc {
		interrupt-controller;
		#interrupt-cells = <1>;
		status = "disabled";
	};
	soc {
		npu@10030000 {
			compatible = "eliza,e1-npu-ref", "eliza,e1-npu";
			reg = <0x0 0x10030000 0x0 0x1000>;
			reg-names = "wrapper";
			interrupts-extended = <&e1npu_nointc 1>, <&e1npu_nointc 2>;
			interrupt-names = "npu", "fallback";
		};
	};
};
DTS
	;;
split)
	w=$((0x80000000 + (mb - 32) * 1024 * 1024))
	cat <<DTS
/ {
	npu_clk: clock-npu {
		compatible = "fixed-clock";
		#clock-cells = <0>;
		clock-frequency = <100000000>;
	};
	reserved-memory {
		#address-cells = <2>;
		#size-cells = <2>;
		ranges;
		npu_wrapper_mem: npu-tensor@$(printf %x $w) {
			compatible = "shared-dma-pool";
			reg = <0x0 $(hex $w) 0x0 0x300000>;
			no-map;
		};
	};
	soc {
		npu@10020000 {
			compatible = "eliza,e1-npu-ref", "eliza,e1-npu";
			reg = <0x0 0x10020000 0x0 0x1000>;
			reg-names = "wrapper";
			interrupt-parent = <&plic>;
			interrupts = <40>, <41>;
			interrupt-names = "npu", "fallback";
			clocks = <&npu_clk>;
			clock-names = "core";
			memory-region = <&npu_wrapper_mem>;
		};
		npu@10021000 {
			compatible = "eliza,e1-npu-ref", "eliza,e1-npu";
			reg = <0x0 0x10021000 0x0 0x1000>;
			reg-names = "datapath";
			interrupt-parent = <&plic>;
			interrupts = <42>;
			interrupt-names = "datapath";
			clocks = <&npu_clk>;
			clock-names = "core";
		};
	};
};
DTS
	;;
*)
	echo "riscv64-dtb.sh: mode '$mode' is not board or split" >&2
	exit 1
	;;
esac
