# SPDX-License-Identifier: MIT
#
# e1npu system tests that run inside the riscv64 QEMU guests (tests/vm/)
# through real ioctls on the e1 NPU of the QEMU board (a device of QEMU's
# virt machine, bound by e1npu.ko through its device tree node): two
# static riscv64 programs, e1npu-systest and e1npu-proof, and the guest
# scripts: run-guest.sh (the board's default device tree; it sources
# harden-guest.sh and runs run-proof.sh), run-guest-split.sh (the boot with
# e1vm.dt=split: a wrapper-only and a datapath-only node), t-kunit.sh.
# Picked up by tests/tests.mk (tests/*/*.mk); feeds tests/vm/vm.mk through
# VM_GUEST_FILES and VM_RISCV_GUEST_FILES. Nothing on the build machine
# runs the programs, so they are built for riscv64 only.
#
#   make kernel-tests     build the guest programs (riscv64-linux-gnu-gcc)
#   make vm-riscv64       build them, the modules, boot, run

# hw/e1npu_opcheck.c and hw/e1npu_cmd_encode.c: the shared encoder that
# turns the tests' operations into hardware commands, as libe1npu does
E1T_SRCS := $(sort $(wildcard tests/kernel/e1t_*.c)) hw/e1npu_opcheck.c \
	hw/e1npu_cmd_encode.c
E1T_DEPS := $(E1T_SRCS) tests/kernel/e1t.h include/uapi/drm/e1npu_accel.h \
	include/hw/e1npu_hw.h hw/e1npu_opcheck.h model/e1_model_shim.h \
	model/e1_model_shim_user.h tests/kernel/kernel-tests.mk
# drm.h (arch independent) from the kernel uapi headers of libdrm-dev
E1T_DRM_INC ?= /usr/include/libdrm
E1T_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
	-Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-O2 -g0 -static -Iinclude/uapi/drm -Iinclude/hw -Ihw -Imodel \
	-I$(E1T_DRM_INC)

E1T_RISCV_CC ?= riscv64-linux-gnu-gcc
E1T_RISCV_BIN := $(O)/tests/kernel/riscv64/e1npu-systest

$(E1T_RISCV_BIN): $(E1T_DEPS)
	@mkdir -p $(@D)
	$(E1T_RISCV_CC) $(E1T_CFLAGS) -o $@ $(E1T_SRCS)

# e1npu-proof: the ioctl fuzzer, the stress run, the NOP latency, the DMA
# isolation self-test and the canary victim (tests/kernel/e1p_*.c), sharing
# e1t_lib.c and e1t_ref.c
E1P_SRCS := $(sort $(wildcard tests/kernel/e1p_*.c)) tests/kernel/e1t_lib.c \
	tests/kernel/e1t_ref.c hw/e1npu_opcheck.c hw/e1npu_cmd_encode.c
E1P_DEPS := $(E1P_SRCS) tests/kernel/e1p.h $(E1T_DEPS)
E1P_RISCV_BIN := $(O)/tests/kernel/riscv64/e1npu-proof

$(E1P_RISCV_BIN): $(E1P_DEPS)
	@mkdir -p $(@D)
	$(E1T_RISCV_CC) $(E1T_CFLAGS) -o $@ $(E1P_SRCS)

E1T_BINS := $(E1T_RISCV_BIN) $(E1P_RISCV_BIN)
VM_GUEST_FILES += tests/kernel/run-guest.sh tests/kernel/harden-guest.sh \
	tests/kernel/run-proof.sh tests/kernel/run-guest-split.sh \
	tests/kernel/t-kunit.sh
VM_RISCV_GUEST_FILES += $(E1T_BINS)

.PHONY: kernel-tests
kernel-tests: $(E1T_BINS)
