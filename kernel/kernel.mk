# SPDX-License-Identifier: MIT
#
# kernel/: e1npu.ko (and its KUnit module when the kernel has KUnit)
# against a kernel build tree, out of tree: kernel/compat/stage.sh lays the
# driver out in $(O)/kernel-module with the compat layer.
#   make kernel-modules KDIR=/path/to/linux-headers-<ver> [ARCH=riscv CROSS_COMPILE=...]
# Nothing is built without KDIR; nothing is added to the default targets.

KERNEL_MAKE_ARGS ?= W=1
KERNEL_MOD_DIR = $(abspath $(O))/kernel-module

.PHONY: kernel-modules kernel-clean
kernel-modules:
	@if [ -z "$(KDIR)" ]; then echo "kernel-modules: set KDIR=<kernel build dir>"; exit 1; fi
	kernel/compat/stage.sh $(KERNEL_MOD_DIR)
	$(MAKE) -C $(KDIR) M=$(KERNEL_MOD_DIR) $(KERNEL_MAKE_ARGS) modules

kernel-clean:
	rm -rf $(KERNEL_MOD_DIR)
