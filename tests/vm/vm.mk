# SPDX-License-Identifier: MIT
#
# QEMU system tests and kernel lint (tests/vm/). Included by the top-level
# Makefile. Targets:
#   vm-x86_64     build the modules against Debian's 6.12 amd64 kernel, boot
#                 them in qemu-system-x86_64 (TCG), run the guest tests
#   vm-riscv64    same on our trimmed riscv64 6.12 kernel, qemu -M virt
#   vm-riscv64-debug  same on the riscv64 debug kernel (lockdep, KASAN,
#                 kmemleak, UBSAN, DEBUG_OBJECTS, DMA_API_DEBUG, KUnit)
#   lint-kernel   W=1 + sparse (C=2) + checkpatch --strict, both arches
#   check-vm      all four (appended to CHECK_TARGETS)
# Other fragments may append (host paths, relative to the top or absolute):
#   VM_GUEST_FILES        files for /tests/ in every guest (e.g. the
#                         driver team's run-guest.sh, modules.conf, t-*.sh)
#   VM_X86_GUEST_FILES    static x86_64 binaries for /tests/
#   VM_RISCV_GUEST_FILES  riscv64 files for /tests/ (static binaries, the
#                         cross-built userspace of tests/lib/guest-lib.mk)
# These are also make goals: they are built (sub-make) before packing.
# Cache: E1NPU_CACHE (default /var/cache/e1npu). See Documentation/testing-vm.md.

VM_SCRIPTS := tests/vm
E1NPU_CACHE ?= /var/cache/e1npu

vm_env = O=$(abspath $(O)) E1NPU_CACHE=$(E1NPU_CACHE) \
	VM_GUEST_FILES="$(abspath $(VM_GUEST_FILES))" \
	VM_X86_GUEST_FILES="$(abspath $(VM_X86_GUEST_FILES))" \
	VM_RISCV_GUEST_FILES="$(abspath $(VM_RISCV_GUEST_FILES))"

# vm_guest_goals FILES: build guest files that have make rules
vm_guest_goals = $(if $(strip $(1)),$(MAKE) --no-print-directory $(1))

.PHONY: vm-deps vm-x86_64 vm-riscv64 vm-riscv64-kernel vm-riscv64-kernel-bg \
	vm-riscv64-debug vm-riscv64-debug-kernel vm-riscv64-debug-kernel-bg \
	lint-kernel check-vm

vm-deps:
	@$(DEPS) vm

vm-x86_64: vm-deps
	@echo "== vm-x86_64: QEMU x86_64 system tests on Debian's 6.12 kernel"
	@$(call vm_guest_goals,$(VM_GUEST_FILES) $(VM_X86_GUEST_FILES))
	@$(vm_env) $(VM_SCRIPTS)/run-vm.sh x86_64

vm-riscv64: vm-deps
	@echo "== vm-riscv64: QEMU riscv64 (virt) system tests on a trimmed 6.12 kernel"
	@$(call vm_guest_goals,$(VM_GUEST_FILES) $(VM_RISCV_GUEST_FILES))
	@$(vm_env) $(VM_SCRIPTS)/run-vm.sh riscv64

vm-riscv64-debug: vm-deps
	@echo "== vm-riscv64-debug: QEMU riscv64 system tests on the debug kernel (lockdep, KASAN, kmemleak, UBSAN, KUnit)"
	@$(call vm_guest_goals,$(VM_GUEST_FILES) $(VM_RISCV_GUEST_FILES))
	@$(vm_env) $(VM_SCRIPTS)/run-vm.sh riscv64 debug

# the riscv64 kernel alone (cached; ~4 min the first time)
vm-riscv64-kernel: vm-deps
	@$(vm_env) $(VM_SCRIPTS)/riscv64-kernel.sh

# start it in the background (flock'ed in the cache) so it overlaps x86_64
vm-riscv64-kernel-bg: vm-deps
	@$(vm_env) $(VM_SCRIPTS)/riscv64-kernel.sh --background

vm-riscv64-debug-kernel: vm-deps
	@$(vm_env) $(VM_SCRIPTS)/riscv64-kernel.sh debug

vm-riscv64-debug-kernel-bg: vm-deps
	@$(vm_env) $(VM_SCRIPTS)/riscv64-kernel.sh debug --background

lint-kernel: vm-deps
	@echo "== lint-kernel: W=1, sparse C=2, checkpatch --strict (x86_64 + riscv64 + riscv64 debug)"
	@$(vm_env) $(VM_SCRIPTS)/lint-kernel.sh

# All of them; runs every step and fails at the end if any failed.
check-vm: vm-deps
	@$(MAKE) --no-print-directory vm-riscv64-kernel-bg
	@$(MAKE) --no-print-directory vm-riscv64-debug-kernel-bg
	@failed=""; \
	for t in vm-x86_64 vm-riscv64 vm-riscv64-debug lint-kernel; do \
		$(MAKE) --no-print-directory $$t || failed="$$failed $$t"; \
	done; \
	if [ -n "$$failed" ]; then echo "== check-vm: FAILED:$$failed"; exit 1; fi; \
	echo "== check-vm: all passed (vm-x86_64 vm-riscv64 vm-riscv64-debug lint-kernel)"

CHECK_TARGETS += check-vm
