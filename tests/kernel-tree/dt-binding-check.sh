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
#      dt-validate
#   5. nodes the binding must reject (names out of order, an interrupt
#      name the windows do not have, the bare fallback compatible, an
#      unknown property): each must get an error
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
for mode in board split; do
	{ echo "$stub"; "$VM_DIR/riscv64-dtb.sh" "$mode" 512M; } >"$W/$mode.dts"
	n=$(grep -c 'eliza,e1-npu' "$W/$mode.dts" || true)
	dtb "$mode" "$W/$mode.dts" && validate "$mode" &&
		msg "dt-binding: riscv64-dtb.sh $mode: $n e1 NPU node(s) valid"
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
	soc {
		#address-cells = <1>;
		#size-cells = <1>;
		/* the fallback compatible alone */
		npu@1000 {
			compatible = "eliza,e1-npu";
			reg = <0x1000 0x1000>;
			reg-names = "wrapper";
			interrupt-parent = <&intc>;
			interrupts = <1>;
			interrupt-names = "npu";
		};
		/* two windows without the datapath's line */
		npu@2000 {
			compatible = "eliza,e1-npu-ref", "eliza,e1-npu";
			reg = <0x2000 0x1000>, <0x3000 0x1000>;
			reg-names = "wrapper", "datapath";
			interrupt-parent = <&intc>;
			interrupts = <1>, <2>;
			interrupt-names = "npu", "fallback";
		};
		/* the datapath alone with the wrapper's line */
		npu@4000 {
			compatible = "eliza,e1-npu-ref", "eliza,e1-npu";
			reg = <0x4000 0x1000>;
			reg-names = "datapath";
			interrupt-parent = <&intc>;
			interrupts = <1>;
			interrupt-names = "npu";
		};
		/* lines out of order */
		npu@5000 {
			compatible = "eliza,e1-npu-ref", "eliza,e1-npu";
			reg = <0x5000 0x1000>;
			reg-names = "wrapper";
			interrupt-parent = <&intc>;
			interrupts = <1>, <2>;
			interrupt-names = "fallback", "npu";
		};
		/* windows out of order */
		npu@6000 {
			compatible = "eliza,e1-npu-ref", "eliza,e1-npu";
			reg = <0x6000 0x1000>, <0x7000 0x1000>;
			reg-names = "datapath", "wrapper";
			interrupt-parent = <&intc>;
			interrupts = <1>, <2>;
			interrupt-names = "npu", "datapath";
		};
		/* a property the binding does not have */
		npu@8000 {
			compatible = "eliza,e1-npu-ref", "eliza,e1-npu";
			reg = <0x8000 0x1000>;
			reg-names = "wrapper";
			interrupt-parent = <&intc>;
			interrupts = <1>;
			interrupt-names = "npu";
			eliza,arena-size = <0x400000>;
		};
	};
};
DTS
dtc -q -O dtb -o "$W/reject.dtb" "$W/reject.dts" 2>"$W/reject-dtc.log" ||
	{ warn "dt-binding: reject.dts does not compile"; fail=1; }
dt-validate -s "$W/processed-schema.json" "$W/reject.dtb" >"$W/reject.log" 2>&1 || true
nrej=0
for n in 1000 2000 4000 5000 6000 8000; do
	if grep -q "npu@$n: " "$W/reject.log"; then
		nrej=$((nrej + 1))
		npass=$((npass + 1))
	else
		warn "dt-binding: npu@$n of reject.dts was accepted"
		fail=1
		nfail=$((nfail + 1))
	fi
done
msg "dt-binding: $nrej of 6 invalid nodes rejected"

echo "$npass passed, $nfail failed"
[ "$fail" = 0 ] || die "check-dt-binding FAILED (logs in $W)"
msg "dt-binding: PASS in $(elapsed "$t_all") s (dt-schema $(dt-doc-validate --version))"
