# SPDX-License-Identifier: MIT
#
# kernel/: e1npu.ko (and its KUnit module when the kernel has KUnit)
# against a kernel build tree.
#   make kernel-modules KDIR=/path/to/linux-headers-<ver> [ARCH=riscv CROSS_COMPILE=...]
# Nothing is built without KDIR; nothing is added to the default targets.

KERNEL_MAKE_ARGS ?= W=1

.PHONY: kernel-modules kernel-clean
kernel-modules:
	@if [ -z "$(KDIR)" ]; then echo "kernel-modules: set KDIR=<kernel build dir>"; exit 1; fi
	$(MAKE) -C $(KDIR) M=$(CURDIR)/kernel $(KERNEL_MAKE_ARGS) modules

kernel-clean:
	@if [ -n "$(KDIR)" ]; then $(MAKE) -C $(KDIR) M=$(CURDIR)/kernel clean; fi
