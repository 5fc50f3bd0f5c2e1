#!/bin/bash
# SPDX-License-Identifier: MIT
#
# dt-binding-check.sh: the kernel's dt_binding_check of the e1 NPU binding
# (Documentation/devicetree/bindings/npu/eliza,e1-npu.yaml), with Debian's
# dt-schema tools run directly (the kernel's Makefile wants dt-schema
# >= 2023.9; bookworm has 2022.08), and the project's own device trees
# validated against it. In $DTB_O (default $O/dt-binding):
#
#   1. a bindings directory: vendor-prefixes.yaml and .yamllint of the
#      cached linux-source-6.12 (tests/vm/common.sh), with the binding and
#      our vendor prefix added by tools/devel/kernel-tree-drop.sh
#      --part vendor-prefix,binding (what the kernel series carries)
#   2. yamllint with the kernel's .yamllint, dt-doc-validate (meta-schema),
#      dt-mk-schema (processed schema)
#   3. the binding's examples: dt-extract-example, cpp with the kernel's
#      include/ (dt-bindings headers), dtc with dt_binding_check's flags,
#      dt-validate
#   4. the device trees the virtual board boots (tests/vm/riscv64-dtb.sh
#      board and split, on a stub of QEMU virt's bus and PLIC), dtc and
#      dt-validate; the board tree's driver-hardening fixture node has no
#      clock, and that one error is expected
#   5. nodes the binding must reject (names out of order, an interrupt
#      name the windows do not have, the bare fallback compatible, a SoC
#      compatible it does not list, no clock, dma-coherent with
#      dma-noncoherent, an unknown property): each must get its own error
#
# Prints "N passed, M failed" (.ci/summarize.awk counts it).
# Any output of a tool (error or warning) fails the check: the dt-schema
# tools exit 0 after most errors.
. "$(dirname "$0")/../vm/common.sh"

W=${DTB_O:-$O/dt-binding}
case "$W" in /*) ;; *) W="$TOP/$W" ;; esac
t_all=$(now)
SRC=$(linux_source_tree)
B="$W/tree/Documentation/devicetree/bindings"
YAML="$B/npu/eliza,e1-npu.yaml"
DTC_FLAGS=(-Wno-avoid_unnecessary_addr_size -Wno-graph_child_address
	-Wno-interrupt_provider -Wno-unique_unit_address
	-Wunique_unit_address_if_enabled)
fail=0
npass=0
nfail=0

rm -rf "$W"
mkdir -p "$B"
cp "$SRC/Documentation/devicetree/bindings/vendor-prefixes.yaml" \
	"$SRC/Documentation/devicetree/bindings/.yamllint" "$B/"
"$TOP/tools/devel/kernel-tree-drop.sh" --part vendor-prefix,binding "$W/tree" >"$W/drop.log" ||
	die "kernel-tree-drop.sh --part vendor-prefix,binding failed"

# quiet NAME CMD...: CMD must succeed and print nothing (stdout to NAME.out
# when the caller redirects it elsewhere, stderr always checked)
quiet() {
	local name=$1 rc=0
	shift
	"$@" 2>"$W/$name.log" || rc=$?
	if [ "$rc" != 0 ] || [ -s "$W/$name.log" ]; then
		warn "dt-binding: $name: exit $rc, output:"
		sed 's/^/    | /' "$W/$name.log" >&2
		fail=1
		nfail=$((nfail + 1))
		return 1
	fi
	npass=$((npass + 1))
	msg "dt-binding: $name clean"
}

# 2. lint, meta-schema, processed schema
quiet yamllint sh -c 'yamllint -f parsable -c "$1/.yamllint" "$2" "$1/vendor-prefixes.yaml" >&2' _ "$B" "$YAML"
quiet dt-doc-validate sh -c 'dt-doc-validate -u "$1" "$2" "$1/vendor-prefixes.yaml" >&2' _ "$B" "$YAML"
quiet dt-mk-schema sh -c 'dt-mk-schema -j "$1" >"$2"' _ "$B" "$W/processed-schema.json"
grep -q '"http://devicetree.org/schemas/npu/eliza,e1-npu.yaml#"' "$W/processed-schema.json" ||
	{ warn "dt-binding: the processed schema lacks the binding"; fail=1; }

# dtb NAME DTS: preprocess and compile DTS to NAME.dtb (dtc must be quiet)
dtb() {
	local name=$1 dts=$2
	quiet "$name-cpp" cpp -nostdinc -I "$SRC/include" -I "$SRC/scripts/dtc/include-prefixes" \
		-undef -D__DTS__ -x assembler-with-cpp -P "$dts" -o "$W/$name.pp.dts" &&
	quiet "$name-dtc" dtc -q "${DTC_FLAGS[@]}" -O dtb -o "$W/$name.dtb" "$W/$name.pp.dts"
}
validate() {
	local name=$1
	quiet "$name-validate" sh -c 'dt-validate -s "$1" "$2" >&2' _ "$W/processed-schema.json" "$W/$name.dtb"
}

# 3. the examples
dt-extract-example "$YAML" >"$W/example.dts"
dtb example "$W/example.dts" && validate example
grep -q 'eliza,e1-npu' "$W/example.pp.dts" || { warn "dt-binding: no example node"; fail=1; }

# 4. the virtual board's device trees, on a stub of QEMU virt's bus
stub='/dts-v1/;
/ {
	#address-cells = <2>;
	#size-cells = <2>;
	compatible = "riscv-virtio";
	model = "riscv-virtio,qemu";

	soc {
		#address-cells = <2>;
		#size-cells = <2>;
		compatible = "simple-bus";
		ranges;

		plic: interrupt-controller@c000000 {
			compatible = "sifive,plic-1.0.0", "riscv,plic0";
			reg = <0x0 0xc000000 0x0 0x600000>;
			interrupt-controller;
			#interrupt-cells = <1>;
			#address-cells = <0>;
		};
	};
};'
# The board tree's second node, npu@10030000, is the driver-hardening
# tests' fixture (riscv64-dtb.sh): its interrupts sit on a controller that
# never probes, so its probe defers, and it has no clock, which the
# binding requires. That one error is expected (and its absence fails:
# the exception would be stale); the page's node must be clean.
BOARD_EXPECT="npu@10030000: 'clocks' is a required property"
for mode in board split; do
	{ echo "$stub"; "$VM_DIR/riscv64-dtb.sh" "$mode" 512M; } >"$W/$mode.dts"
	n=$(grep -c 'eliza,e1-npu' "$W/$mode.dts" || true)
	dtb "$mode" "$W/$mode.dts" || continue
	if [ "$mode" = split ]; then
		validate "$mode" && msg "dt-binding: riscv64-dtb.sh $mode: $n e1 NPU node(s) valid"
		continue
	fi
	dt-validate -s "$W/processed-schema.json" "$W/$mode.dtb" >"$W/$mode-validate.log" 2>&1 || true
	if [ "$(grep -cF -- "$BOARD_EXPECT" "$W/$mode-validate.log")" = 1 ] &&
		! grep -vF -e "$BOARD_EXPECT" -e "From schema: $YAML" "$W/$mode-validate.log" | grep -q .; then
		npass=$((npass + 1))
		msg "dt-binding: riscv64-dtb.sh $mode: $n e1 NPU node(s), valid but for the fixture's expected \"$BOARD_EXPECT\""
	else
		warn "dt-binding: $mode-validate: not exactly the expected \"$BOARD_EXPECT\":"
		sed 's/^/    | /' "$W/$mode-validate.log" >&2
		fail=1
		nfail=$((nfail + 1))
	fi
done

# 5. nodes the binding must reject, each with its own error
cat >"$W/reject.dts" <<'DTS'
/dts-v1/;
/plugin/;
/ {
	compatible = "foo";
	model = "foo";
	#address-cells = <1>;
	#size-cells = <1>;
	intc: interrupt-controller {
		interrupt-controller;
		#interrupt-cells = <1>;
	};
	clk: clock {
		#clock-cells = <0>;
	};
	soc {
		#address-cells = <1>;
		#size-cells = <1>;
		/* the fallback compatible alone */
		npu@1000 {
			compatible = "eliza,e1-npu";
			reg = <0x1000 0x1000>;
			reg-names = "wrapper";
			interrupt-parent = <&intc>;
			clocks = <&clk>;
			interrupts = <1>;
			interrupt-names = "npu";
		};
		/* two windows without the datapath's line */
		npu@2000 {
			compatible = "eliza,e1-npu-ref", "eliza,e1-npu";
			reg = <0x2000 0x1000>, <0x3000 0x1000>;
			reg-names = "wrapper", "datapath";
			interrupt-parent = <&intc>;
			clocks = <&clk>;
			interrupts = <1>, <2>;
			interrupt-names = "npu", "fallback";
		};
		/* the datapath alone with the wrapper's line */
		npu@4000 {
			compatible = "eliza,e1-npu-ref", "eliza,e1-npu";
			reg = <0x4000 0x1000>;
			reg-names = "datapath";
			interrupt-parent = <&intc>;
			clocks = <&clk>;
			interrupts = <1>;
			interrupt-names = "npu";
		};
		/* lines out of order */
		npu@5000 {
			compatible = "eliza,e1-npu-ref", "eliza,e1-npu";
			reg = <0x5000 0x1000>;
			reg-names = "wrapper";
			interrupt-parent = <&intc>;
			clocks = <&clk>;
			interrupts = <1>, <2>;
			interrupt-names = "fallback", "npu";
		};
		/* windows out of order */
		npu@6000 {
			compatible = "eliza,e1-npu-ref", "eliza,e1-npu";
			reg = <0x6000 0x1000>, <0x7000 0x1000>;
			reg-names = "datapath", "wrapper";
			interrupt-parent = <&intc>;
			clocks = <&clk>;
			interrupts = <1>, <2>;
			interrupt-names = "npu", "datapath";
		};
		/* a property the binding does not have */
		npu@8000 {
			compatible = "eliza,e1-npu-ref", "eliza,e1-npu";
			reg = <0x8000 0x1000>;
			reg-names = "wrapper";
			interrupt-parent = <&intc>;
			clocks = <&clk>;
			interrupts = <1>;
			interrupt-names = "npu";
			eliza,arena-size = <0x400000>;
		};
		/* no clock */
		npu@9000 {
			compatible = "eliza,e1-npu-ref", "eliza,e1-npu";
			reg = <0x9000 0x1000>;
			reg-names = "wrapper";
			interrupt-parent = <&intc>;
			interrupts = <1>;
			interrupt-names = "npu";
		};
		/* coherent and non-coherent at once */
		npu@a000 {
			compatible = "eliza,e1-npu-ref", "eliza,e1-npu";
			reg = <0xa000 0x1000>;
			reg-names = "wrapper";
			interrupt-parent = <&intc>;
			clocks = <&clk>;
			interrupts = <1>;
			interrupt-names = "npu";
			dma-coherent;
			dma-noncoherent;
		};
		/* a SoC compatible the binding does not list */
		npu@b000 {
			compatible = "eliza,e9-npu", "eliza,e1-npu";
			reg = <0xb000 0x1000>;
			reg-names = "wrapper";
			interrupt-parent = <&intc>;
			clocks = <&clk>;
			interrupts = <1>;
			interrupt-names = "npu";
		};
	};
};
DTS
dtc -q -O dtb -o "$W/reject.dtb" "$W/reject.dts" 2>"$W/reject-dtc.log" ||
	{ warn "dt-binding: reject.dts does not compile"; fail=1; }
dt-validate -s "$W/processed-schema.json" "$W/reject.dtb" >"$W/reject.log" 2>&1 || true
# each node's error must be its own (the property named), not another's
nrej=0
ncase=0
while read -r n want; do
	ncase=$((ncase + 1))
	if grep -F "npu@$n: " "$W/reject.log" | grep -qF -- "$want"; then
		nrej=$((nrej + 1))
		npass=$((npass + 1))
	else
		warn "dt-binding: npu@$n of reject.dts was accepted or rejected for another reason (want: $want)"
		fail=1
		nfail=$((nfail + 1))
	fi
done <<'WANT'
1000 compatible
2000 interrupt-names
4000 interrupt-names
5000 interrupt-names
6000 reg-names
8000 'eliza,arena-size'
9000 'clocks' is a required property
a000 {'required': ['dma-coherent', 'dma-noncoherent']}
b000 'eliza,e9-npu' is not one of
WANT
msg "dt-binding: $nrej of $ncase invalid nodes rejected, each for its own error"

echo "$npass passed, $nfail failed"
[ "$fail" = 0 ] || die "check-dt-binding FAILED (logs in $W)"
msg "dt-binding: PASS in $(elapsed "$t_all") s (dt-schema $(dt-doc-validate --version))"
