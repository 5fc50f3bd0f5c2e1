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

ifeq ($(LIB_ENABLED),1)
ifeq ($(shell uname -m),x86_64)

GUEST_LIB_BINS := $(patsubst %.c,$(O)/%,$(sort $(wildcard tests/lib/test-*.c tests/ops/test-*.c)))
GUEST_LIB_TAR  := $(O)/tests/lib/guest-lib-x86.tar

$(GUEST_LIB_TAR): $(GUEST_LIB_BINS) tests/lib/guest-lib.mk
	@rm -rf $@.d && mkdir -p $@.d/lib-x86
	@set -e; for b in $(GUEST_LIB_BINS); do \
		d=$$(basename $$(dirname $$b)); \
		cp $$b $@.d/$$d-$$(basename $$b); \
		ldd $$b | awk '$$2 == "=>" && $$3 ~ /^\// { print $$3 } \
			$$1 ~ /^\/.*ld-linux/ { print $$1 }'; \
	done | sort -u | while read -r l; do cp -L $$l $@.d/lib-x86/; done
	@strip --strip-debug $@.d/lib-x86/* $@.d/*-test-*
	@test -e $@.d/lib-x86/ld-linux-x86-64.so.2 || \
		{ echo "guest-lib: no ld-linux-x86-64.so.2 in ldd's output"; exit 1; }
	tar -C $@.d -cf $@ .
	@rm -rf $@.d

VM_X86_GUEST_FILES += $(GUEST_LIB_TAR) tests/lib/guest-lib-tests.sh
ALL_TARGETS        += $(GUEST_LIB_TAR)

endif
endif # LIB_ENABLED
