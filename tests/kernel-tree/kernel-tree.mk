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
