# SPDX-License-Identifier: MIT
#
# The virtual board's system tests and kernel lint (tests/vm/). Included by
# the top-level Makefile. The board is QEMU's riscv64 `virt` built from
# Debian's qemu source with the e1 NPU device (model/qemu/, qemu-build.sh);
# e1npu.ko binds to board.md's device-tree node there. Targets:
#   vm-riscv64    build the module against our trimmed riscv64 6.12 kernel,
#                 boot the board, run the guest tests
#   vm-riscv64-split  the same NPU as two one-window nodes (short boot)
#   vm-riscv64-debug  the board on the debug kernel (lockdep, KASAN,
#                 kmemleak, UBSAN, DEBUG_OBJECTS, DMA_API_DEBUG, KUnit)
#   lint-kernel   W=1 + sparse (C=2) + checkpatch --strict, both arches and
#                 the mainline kernel (Debian's linux-source-7.3)
#   lint-kernel-mainline  the mainline part alone (tests/vm/linux-mainline.sh:
#                 ~4 min the first time, then ~30 s)
#   check-vm      all of them (appended to CHECK_TARGETS)
#   vm-riscv64-debian  the board running Debian trixie riscv64
#                 (tests/vm/debian-board.sh): the kernel and the stack as
#                 packages, installed with apt, e1npu.ko built by DKMS,
#                 board.md's Debian commands, TFLite 2.14.1 and ONNX
#                 Runtime 1.23.2 in a sid chroot on the board, purge
#   board         the virtual board with the driver and the userspace: a
#                 shell on this terminal, or CMD='npu-smoke smoke' run there
#                 (exit status: the command's); OS=debian: the Debian board
#                 with the packages installed and the module loaded (a login
#                 shell, or CMD)
#   bench-board   (make bench) NOP and 1024^3 matmul timing on the board
#   vm-qemu       the board's QEMU alone (cached; ~6 min the first time)
# Other fragments may append (host paths, relative to the top or absolute):
#   VM_GUEST_FILES        files for /tests/ in every guest (e.g. the
#                         driver team's run-guest.sh, modules.conf, t-*.sh)
#   BOARD_BENCH_MORE      guest benchmark commands for bench-board's boot,
#                         each followed by "&&"
#   VM_RISCV_GUEST_FILES  riscv64 files for /tests/ (static binaries, the
#                         cross-built userspace of tests/lib/guest-lib.mk)
# These are also make goals: they are built (sub-make) before packing.
# Each must exist, or have a rule, without shared/ (SHARED_DIR absent): a
# file made from shared/ is then a "SKIP PATH absent" file, or left out
# (make check-noshared checks it).
# Cache: E1NPU_CACHE (default /var/cache/e1npu). See Documentation/testing-vm.md.

VM_SCRIPTS := tests/vm
E1NPU_CACHE ?= /var/cache/e1npu

vm_env = O=$(abspath $(O)) E1NPU_CACHE=$(E1NPU_CACHE) \
	VM_GUEST_FILES="$(abspath $(VM_GUEST_FILES))" \
	VM_RISCV_GUEST_FILES="$(abspath $(VM_RISCV_GUEST_FILES))"

# vm_guest_goals FILES: build guest files that have make rules
vm_guest_goals = $(if $(strip $(1)),$(MAKE) --no-print-directory $(1))

# the guest file lists, one a line (tests/data/noshared-check.sh)
.PHONY: vm-guest-files
vm-guest-files:
	@printf '%s\n' $(VM_GUEST_FILES) $(VM_RISCV_GUEST_FILES)

.PHONY: vm-deps vm-riscv64 vm-riscv64-debian vm-riscv64-kernel vm-riscv64-kernel-bg \
	vm-riscv64-debug vm-riscv64-debug-kernel vm-riscv64-debug-kernel-bg \
	vm-riscv64-split vm-qemu vm-qemu-bg vm-debian-rootfs-bg lint-kernel lint-kernel-mainline check-vm \
	board bench-board

vm-deps:
	@$(DEPS) vm

vm-riscv64: vm-deps
	@echo "== vm-riscv64: the virtual board (QEMU riscv64 virt + the e1 NPU) on a trimmed 6.12 kernel"
	@$(call vm_guest_goals,$(VM_GUEST_FILES) $(VM_RISCV_GUEST_FILES))
	@$(vm_env) $(VM_SCRIPTS)/run-vm.sh riscv64

vm-riscv64-debug: vm-deps
	@echo "== vm-riscv64-debug: the virtual board on the debug kernel (lockdep, KASAN, kmemleak, UBSAN, KUnit)"
	@$(call vm_guest_goals,$(VM_GUEST_FILES) $(VM_RISCV_GUEST_FILES))
	@$(vm_env) $(VM_SCRIPTS)/run-vm.sh riscv64 debug

vm-riscv64-split: vm-deps
	@echo "== vm-riscv64-split: the virtual board's NPU as two one-window device-tree nodes"
	@$(call vm_guest_goals,$(VM_GUEST_FILES) $(VM_RISCV_GUEST_FILES))
	@$(vm_env) $(VM_SCRIPTS)/run-vm.sh riscv64 split

# the Debian board: the host's e1npu-classify and e1npu-llm compute the
# checksums and token ids the board's must equal
vm-riscv64-debian: vm-deps $(CLASSIFY) $(LLM_TOOL)
	@echo "== vm-riscv64-debian: the virtual board running Debian trixie riscv64, the stack installed as packages"
	@$(vm_env) $(VM_SCRIPTS)/debian-board.sh run

# make board [OS=debian] [CMD='npu-smoke smoke']: Documentation/board.md
ifeq ($(OS),debian)
board: vm-deps $(CLASSIFY)
	@$(vm_env) VM_BOARD_CMD='$(subst ','\'',$(CMD))' $(VM_SCRIPTS)/debian-board.sh shell
else
board: vm-deps
	@$(call vm_guest_goals,$(VM_GUEST_FILES) $(VM_RISCV_GUEST_FILES))
	@$(vm_env) VM_BOARD_CMD='$(subst ','\'',$(CMD))' $(VM_SCRIPTS)/run-vm.sh riscv64 board
endif

# make bench: the virtual board's own numbers (the driver's NOP SUBMIT +
# wait against DRM_IOCTL_VERSION, a 1024^3 int8 matmul's wall time against
# its modelled cycles at the device's 100 MHz, and MobileNetV2's load to
# first output from its .tflite and its artifact: tests/tools/artifact.mk),
# in one boot
bench-board: vm-deps
	@echo "== bench-board: latency and timing on the virtual board"
	@$(MAKE) --no-print-directory board \
		CMD="npu-smoke bench -n 500 --matmul 1024 && /tests/e1npu-proof perf 2000 && $(BOARD_BENCH_MORE) true"

vm-qemu: vm-deps
	@$(vm_env) $(VM_SCRIPTS)/qemu-build.sh

# the Debian board's root file systems (trixie, and sid's for the
# frameworks' chroot), in the background (~3 and ~15 min once)
vm-debian-rootfs-bg: vm-deps
	@$(vm_env) $(VM_SCRIPTS)/debian-rootfs.sh --background
	@$(vm_env) $(VM_SCRIPTS)/frameworks-rootfs.sh --background

vm-qemu-bg: vm-deps
	@$(vm_env) $(VM_SCRIPTS)/qemu-build.sh --background

# the riscv64 kernel alone (cached; ~4 min the first time)
vm-riscv64-kernel: vm-deps
	@$(vm_env) $(VM_SCRIPTS)/riscv64-kernel.sh

# start it in the background (flock'ed in the cache) so it overlaps the
# host's tests
vm-riscv64-kernel-bg: vm-deps
	@$(vm_env) $(VM_SCRIPTS)/riscv64-kernel.sh --background

vm-riscv64-debug-kernel: vm-deps
	@$(vm_env) $(VM_SCRIPTS)/riscv64-kernel.sh debug

vm-riscv64-debug-kernel-bg: vm-deps
	@$(vm_env) $(VM_SCRIPTS)/riscv64-kernel.sh debug --background

lint-kernel: vm-deps
	@echo "== lint-kernel: W=1, sparse C=2, checkpatch --strict (x86_64 + riscv64 + riscv64 debug + mainline)"
	@$(vm_env) $(VM_SCRIPTS)/lint-kernel.sh

# today's kernel alone: W=1 + sparse against Debian's newest mainline
# source, 6.12's and its checkpatch
lint-kernel-mainline: vm-deps
	@echo "== lint-kernel-mainline: W=1, sparse C=2, checkpatch --strict against Debian's newest mainline kernel"
	@$(vm_env) $(VM_SCRIPTS)/lint-kernel.sh mainline checkpatch

# All of them; runs every step and fails at the end if any failed.
check-vm: vm-deps
	@$(MAKE) --no-print-directory vm-qemu-bg
	@$(MAKE) --no-print-directory vm-riscv64-kernel-bg
	@$(MAKE) --no-print-directory vm-riscv64-debug-kernel-bg
	@failed=""; \
	for t in vm-riscv64 vm-riscv64-split vm-riscv64-debian vm-riscv64-debug lint-kernel; do \
		$(MAKE) --no-print-directory $$t || failed="$$failed $$t"; \
	done; \
	if [ -n "$$failed" ]; then echo "== check-vm: FAILED:$$failed"; exit 1; fi; \
	echo "== check-vm: all passed (vm-riscv64 vm-riscv64-split vm-riscv64-debian vm-riscv64-debug lint-kernel)"

CHECK_TARGETS += check-vm
BENCH_TARGETS += bench-board
CHECK_EARLY += vm-qemu-bg vm-riscv64-kernel-bg vm-riscv64-debug-kernel-bg vm-debian-rootfs-bg
