# SPDX-License-Identifier: MIT
#
# kernel-tree-riscv64: the driver dropped into a kernel tree
# (tools/devel/kernel-tree-drop.sh) and built in-tree, in a scratch copy of
# the cached riscv64 6.12 kernel (tests/vm/riscv64-kernel.sh).
# See Documentation/testing-vm.md.
#
# Scratch: KTREE_O (default $(O)-kernel-tree), deliberately NOT under $(O):
# the top-level Makefile includes every *.d found under $(O), and a kernel
# tree has ~90k files, some named *.d.
KTREE_O ?= $(O)-kernel-tree
CLEAN_DIRS += $(KTREE_O)

.PHONY: kernel-tree-riscv64
# the debug kernel starts building in the background first (it overlaps)
kernel-tree-riscv64: vm-riscv64-debug-kernel-bg vm-riscv64-kernel
	@echo "== kernel-tree-riscv64: driver dropped into drivers/accel/e1npu/ of the riscv64 6.12 tree, built in-tree"
	@KTREE_O=$(abspath $(KTREE_O)) E1NPU_CACHE=$(E1NPU_CACHE) tests/kernel-tree/kernel-tree.sh

CHECK_TARGETS += kernel-tree-riscv64

# check-dt-binding: the binding (Documentation/devicetree/bindings/npu/)
# through dt_binding_check's steps with Debian's dt-schema, and the
# virtual board's device trees validated against it (~3 s).
.PHONY: check-dt-binding
check-dt-binding:
	@$(DEPS) dt
	@echo "== check-dt-binding: eliza,e1-npu.yaml (yamllint, dt-doc-validate, example, board and split trees)"
	@O=$(abspath $(O)) E1NPU_CACHE=$(E1NPU_CACHE) tests/kernel-tree/dt-binding-check.sh

CHECK_TARGETS += check-dt-binding

# kernel-series: the e1 NPU as the 9-patch series an upstream submission
# would be (the DRM core's wedged event on accel nodes, vendor prefix,
# binding, the driver in four steps, docs, MAINTAINERS), made with
# git format-patch --cover-letter against Debian's newest mainline source
# (tests/vm/linux-mainline.sh) into $(O)/kernel-series/; check-kernel-series
# also checks what the cover letter and the driver's message name (the
# open userspace, the hardware status, the sysfs ABI), applies it with
# git am to a clean tree, runs checkpatch --strict on
# every patch, kernel-doc on the UAPI header and builds the driver
# (M=drivers/accel/e1npu) against the mainline object tree at each of its
# steps. ~2.5 min warm;
# cold adds the source download and the base repository (~1 min) and the
# mainline build (~4 min, shared with linux-mainline.sh's other users).
# Scratch: KSERIES_O (default $(O)-kernel-series, not under $(O)).
KSERIES_O ?= $(O)-kernel-series
CLEAN_DIRS += $(KSERIES_O)
ks_env = O=$(abspath $(O)) KSERIES_O=$(abspath $(KSERIES_O)) E1NPU_CACHE=$(E1NPU_CACHE)

.PHONY: kernel-series check-kernel-series
kernel-series check-kernel-series:
	@$(DEPS) dt
	@echo "== $@: e1npu as a patch series against Debian's mainline kernel source ($(O)/kernel-series/)"
	@$(ks_env) tests/kernel-tree/kernel-series.sh

CHECK_TARGETS += check-kernel-series
