# SPDX-License-Identifier: MIT
#
# e1npu system tests that run inside the QEMU guests (tests/vm/) through
# real ioctls: one static program, e1npu-systest, per guest arch, and the
# guest script run-guest.sh that loads e1npu_sim.ko + e1npu.ko and runs it.
# Picked up by tests/tests.mk (tests/*/*.mk); feeds tests/vm/vm.mk through
# VM_GUEST_FILES, VM_X86_GUEST_FILES and VM_RISCV_GUEST_FILES.
#
#   make kernel-tests     build the guest programs (x86_64; riscv64 when
#                         riscv64-linux-gnu-gcc exists)
#   make vm-x86_64        build them, the modules, boot, run

E1T_SRCS := $(sort $(wildcard tests/kernel/e1t_*.c))
E1T_DEPS := $(E1T_SRCS) tests/kernel/e1t.h include/uapi/drm/e1npu_accel.h \
	include/hw/e1npu_hw.h tests/kernel/kernel-tests.mk
# drm.h (arch independent) from the kernel uapi headers of libdrm-dev
E1T_DRM_INC ?= /usr/include/libdrm
E1T_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
	-Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-O2 -g0 -static -Iinclude/uapi/drm -Iinclude/hw -I$(E1T_DRM_INC)

E1T_X86_CC ?= $(if $(filter x86_64,$(shell uname -m)),gcc,x86_64-linux-gnu-gcc)
E1T_RISCV_CC ?= riscv64-linux-gnu-gcc
E1T_X86_BIN := $(O)/tests/kernel/x86_64/e1npu-systest
E1T_RISCV_BIN := $(O)/tests/kernel/riscv64/e1npu-systest

$(E1T_X86_BIN): $(E1T_DEPS)
	@mkdir -p $(@D)
	$(E1T_X86_CC) $(E1T_CFLAGS) -o $@ $(E1T_SRCS)

$(E1T_RISCV_BIN): $(E1T_DEPS)
	@mkdir -p $(@D)
	$(E1T_RISCV_CC) $(E1T_CFLAGS) -o $@ $(E1T_SRCS)

# e1npu-proof: the ioctl fuzzer, the stress run and the NOP latency
# (tests/kernel/e1p_*.c), sharing e1t_lib.c and e1t_ref.c
E1P_SRCS := $(sort $(wildcard tests/kernel/e1p_*.c)) tests/kernel/e1t_lib.c \
	tests/kernel/e1t_ref.c
E1P_DEPS := $(E1P_SRCS) tests/kernel/e1p.h $(E1T_DEPS)
E1P_X86_BIN := $(O)/tests/kernel/x86_64/e1npu-proof
E1P_RISCV_BIN := $(O)/tests/kernel/riscv64/e1npu-proof

$(E1P_X86_BIN): $(E1P_DEPS)
	@mkdir -p $(@D)
	$(E1T_X86_CC) $(E1T_CFLAGS) -o $@ $(E1P_SRCS)

$(E1P_RISCV_BIN): $(E1P_DEPS)
	@mkdir -p $(@D)
	$(E1T_RISCV_CC) $(E1T_CFLAGS) -o $@ $(E1P_SRCS)

E1T_BINS := $(E1T_X86_BIN) $(E1P_X86_BIN)
VM_GUEST_FILES += tests/kernel/run-guest.sh tests/kernel/harden-guest.sh \
	tests/kernel/run-proof.sh \
	tests/kernel/t-kunit.sh
VM_X86_GUEST_FILES += $(E1T_X86_BIN) $(E1P_X86_BIN)
ifneq ($(shell command -v $(E1T_RISCV_CC) 2>/dev/null),)
E1T_BINS += $(E1T_RISCV_BIN) $(E1P_RISCV_BIN)
VM_RISCV_GUEST_FILES += $(E1T_RISCV_BIN) $(E1P_RISCV_BIN)
endif

.PHONY: kernel-tests
kernel-tests: $(E1T_BINS)
