# SPDX-License-Identifier: MIT
#
# The library's cmocka suites (tests/lib/test-*, tests/ops/test-*) inside
# the x86_64 QEMU guest, against e1npu.ko on e1npu_sim.ko: the very same
# binaries `make check-lib check-ops` run on the in-process model, with
# the dynamic loader and every shared library `ldd` lists (libcmocka,
# libdrm, libudev, libc, ...; there is no static libcmocka), packed into
# $(O)/tests/lib/guest-lib-x86.tar:
#   lib-x86/ld-linux-x86-64.so.2, lib-x86/lib*.so.*   the guest's loader
#   lib-test-api, ops-test-conv, ...                  the test programs
# tests/lib/guest-lib-tests.sh unpacks it into /tests/ and runs each
# program with E1NPU_DEVICE=/dev/accel/accelN; tests/kernel/run-guest.sh
# calls it with each simulator configuration it loads.

ifeq ($(CROSS_COMPILE)$(TARGET_MACHINE),x86_64)

GUEST_LIB_BINS := $(patsubst %.c,$(O)/%,$(sort $(wildcard tests/lib/test-*.c tests/ops/test-*.c)))
# e1npu-classify too (t-classify.sh), under its own name
GUEST_LIB_TOOLS := $(O)/tools/e1npu-classify/e1npu-classify
GUEST_LIB_TAR  := $(O)/tests/lib/guest-lib-x86.tar

$(GUEST_LIB_TAR): $(GUEST_LIB_BINS) $(GUEST_LIB_TOOLS) tests/lib/guest-lib.mk
	@rm -rf $@.d && mkdir -p $@.d/lib-x86
	@set -e; for b in $(GUEST_LIB_BINS) $(GUEST_LIB_TOOLS); do \
		d=$$(basename $$(dirname $$b)); \
		case " $(GUEST_LIB_TOOLS) " in *" $$b "*) d=;; esac; \
		cp $$b $@.d/$${d:+$$d-}$$(basename $$b); \
		ldd $$b | awk '$$2 == "=>" && $$3 ~ /^\// { print $$3 } \
			$$1 ~ /^\/.*ld-linux/ { print $$1 }'; \
	done | sort -u | while read -r l; do cp -L $$l $@.d/lib-x86/; done
	@strip --strip-debug $@.d/lib-x86/* $@.d/*-test-* $@.d/e1npu-classify
	@test -e $@.d/lib-x86/ld-linux-x86-64.so.2 || \
		{ echo "guest-lib: no ld-linux-x86-64.so.2 in ldd's output"; exit 1; }
	tar -C $@.d -cf $@ .
	@rm -rf $@.d

VM_X86_GUEST_FILES += $(GUEST_LIB_TAR) tests/lib/guest-lib-tests.sh \
	tests/lib/t-classify.sh tests/lib/guest-classify.sh $(O)/tests/lib/classify-host.txt \
	tests/data/mobilenet_v1_0.25_128_quant.tflite tests/data/grace_hopper_128.bmp \
	tests/data/imagenet_labels.txt
ALL_TARGETS        += $(GUEST_LIB_TAR)

endif

# ---- the riscv64 guest: Documentation/board.md on the board's arch --------
# tests/lib/board-host.sh runs board.md's build-machine commands (the cross
# build through tests/vm/cross-deps.sh's libdrm/cmocka, make install
# DESTDIR=, the example through the cross pkg-config) in $(O)/vm/board and
# packs the guest's root file system; the guest runs the very binaries a
# board would get (dynamic, with the toolchain's C library), which
# exercises libe1npu.so itself. t-board.sh runs board.md's board commands
# and the checks; guest-lib-tests.sh the cmocka suites; guest-smoke.sh the
# static npu-smoke against the host's smoke-host.json.
# classify-host.txt: the sha256 of e1npu-classify's output tensor on the
# host (in-process model; must equal the CPU reference path's), for both
# guests to compare against.
ifeq ($(CROSS_COMPILE),)
BOARD_W          := $(O)/vm/board
GUEST_RV_TAR     := $(BOARD_W)/guest-riscv64.tar
GUEST_RV_SMOKE   := $(BOARD_W)/build-riscv64/tools/npu-smoke/npu-smoke-static
GUEST_RV_BLOCKS  := $(BOARD_W)/board-blocks.sh
CLASSIFY_HOST    := $(O)/tests/lib/classify-host.txt
# models.mk's $(CLASSIFY), which is included after this file
CLASSIFY_BIN     := $(O)/tools/e1npu-classify/e1npu-classify
BOARD_DATA       := tests/data/mobilenet_v1_0.25_128_quant.tflite tests/data/grace_hopper_128.bmp

.PHONY: guest-riscv64-force
$(GUEST_RV_TAR): guest-riscv64-force
	@mkdir -p $(@D)
	E1NPU_CACHE=$(or $(E1NPU_CACHE),/var/cache/e1npu) tests/lib/board-host.sh $(BOARD_W) $@

$(GUEST_RV_SMOKE): $(GUEST_RV_TAR)
	@test -f $@

$(GUEST_RV_BLOCKS): Documentation/board.md
	@mkdir -p $(@D)
	awk '/^```sh board$$/ { on = 1; next } /^```/ { on = 0 } on' $< > $@

$(CLASSIFY_HOST): $(CLASSIFY_BIN) $(BOARD_DATA)
	@mkdir -p $(@D)
	E1NPU_DEVICE=sim $(CLASSIFY_BIN) -m $(word 1,$(BOARD_DATA)) -i $(word 2,$(BOARD_DATA)) \
		-l tests/data/imagenet_labels.txt -n 1 --raw-output $@.npu > $@.log
	$(CLASSIFY_BIN) --cpu -m $(word 1,$(BOARD_DATA)) -i $(word 2,$(BOARD_DATA)) \
		-n 1 --raw-output $@.cpu >> $@.log
	@cmp $@.npu $@.cpu || { echo "classify-host: NPU path != CPU reference path"; exit 1; }
	@echo "$$(sha256sum < $@.npu | cut -d' ' -f1) $$(tail -n 1 $@.log)" > $@
	@echo "classify-host: $$(cat $@)"
	@rm -f $@.npu $@.cpu $@.log

ifneq ($(SMOKE_HOST_JSON),)
VM_RISCV_GUEST_FILES += $(GUEST_RV_TAR) $(GUEST_RV_SMOKE) $(GUEST_RV_BLOCKS) \
	$(CLASSIFY_HOST) $(SMOKE_HOST_JSON) tests/lib/guest-smoke.sh \
	tests/lib/guest-lib-tests.sh tests/lib/t-board.sh tests/lib/guest-classify.sh
endif
endif
