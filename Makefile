# SPDX-License-Identifier: MIT
#
# Top-level build of the e1 NPU stack. Each directory contributes a fragment
# (model/model.mk, lib/lib.mk, tools/tools.mk, tests/tests.mk, kernel/kernel.mk,
# tests/vm/vm.mk, ...) that appends to the target lists below, so one
# directory's build never edits another's.
#
#   make            build libraries, tools and tests (the ASan+UBSan builds in
#                   SAN_O only for the check targets that run them)
#   make smoke      npu-smoke smoke on the in-process device model
#   make check      every test (installs its own packages on Debian 12)
#   make bench      benchmarks, numbers printed
#   make install    PREFIX=/usr/local DESTDIR=
#   make uninstall  the same PREFIX/DESTDIR: removes exactly what install put
#   make clean
#   make CROSS_COMPILE=riscv64-linux-gnu- SYSROOT=DIR O=build-riscv64 [install]
#                   the userspace for another architecture
#                   (Documentation/board.md)

.DEFAULT_GOAL := all

PREFIX     ?= /usr/local
DESTDIR    ?=
BINDIR     ?= $(PREFIX)/bin
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR     ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig

CC      ?= cc
AR      ?= ar
# Cross builds: CROSS_COMPILE prefixes the toolchain (unless CC/AR are
# given), SYSROOT holds the target's libdrm (and cmocka, for the test
# suites) as SYSROOT/usr/{include,lib}, found through pkg-config with
# PKG_CONFIG_SYSROOT_DIR/PKG_CONFIG_LIBDIR. A cross build has no libudev
# by default (E1NPU_WITH_UDEV=0: the /dev/accel scan) and builds
# CROSS_TARGETS only: nothing that must run on the build machine.
#
# A Debian multiarch SYSROOT (SYSROOT/usr/lib/TRIPLET/libc.so: Debian's own
# packages of the target unpacked, tests/vm/debian-sysroot.sh) is given to
# the compiler as --sysroot, so the binaries link the target distribution's
# C library, libdrm, libudev, libpng and libjpeg; with one, discovery uses
# libudev and e1npu-classify reads PNG and JPEG when the sysroot has them.
CROSS_COMPILE ?=
SYSROOT ?=
ifneq ($(CROSS_COMPILE),)
ifeq ($(origin CC),default)
CC      := $(CROSS_COMPILE)gcc
endif
ifeq ($(origin AR),default)
AR      := $(CROSS_COMPILE)ar
endif
endif
# The machine the binaries are for: x86_64, riscv64, ... and its triplet
TARGET_TRIPLET := $(shell $(CC) -dumpmachine 2>/dev/null)
TARGET_MACHINE := $(firstword $(subst -, ,$(TARGET_TRIPLET)))
SYSROOT_MULTIARCH := $(if $(SYSROOT),$(wildcard $(SYSROOT)/usr/lib/$(TARGET_TRIPLET)/libc.so))
# sysroot_has NAME: the sysroot's pkg-config knows NAME (1/0)
sysroot_has = $(if $(wildcard $(SYSROOT)/usr/lib/$(TARGET_TRIPLET)/pkgconfig/$(1).pc \
	$(SYSROOT)/usr/share/pkgconfig/$(1).pc $(SYSROOT)/usr/lib/pkgconfig/$(1).pc),1,0)
ifneq ($(CROSS_COMPILE),)
E1NPU_WITH_UDEV ?= $(call sysroot_has,libudev)
endif
PKG_CONFIG ?= pkg-config
ifneq ($(SYSROOT),)
PKG_CONFIG := env PKG_CONFIG_SYSROOT_DIR=$(SYSROOT) \
	PKG_CONFIG_LIBDIR=$(SYSROOT)/usr/lib/$(TARGET_TRIPLET)/pkgconfig:$(SYSROOT)/usr/lib/pkgconfig:$(SYSROOT)/usr/share/pkgconfig $(PKG_CONFIG)
endif
# Data files from public repositories (models, weights, images) are never
# in the tree: they live in shared/ beside the checkout (CI lays it there).
# Tests read them from SHARED_DIR and skip, naming it, where it is absent.
SHARED_DIR ?= $(abspath $(CURDIR)/../shared)
export SHARED_DIR
# Its parts: the MobileNets, their labels and the photo (models/), the model
# zoo (zoo/); the test inputs the suites share: the small MobileNet, its
# labels and the photo at the model's 128x128 (made in the build tree by
# tests/data/mkimage.py, tests/data/data.mk).
MODELS_DIR ?= $(SHARED_DIR)/models
ZOO_DIR    ?= $(SHARED_DIR)/zoo
export MODELS_DIR ZOO_DIR
TEST_MODEL  := $(MODELS_DIR)/mobilenet_v1_0.25_128_quant.tflite
TEST_LABELS := $(MODELS_DIR)/imagenet_labels.txt
TEST_PHOTO  := $(MODELS_DIR)/grace_hopper.bmp
ifeq ($(MAKELEVEL)$(wildcard $(SHARED_DIR)),0)
ifneq ($(filter check% bench% vm-% board,$(filter-out vm-guest-files,$(MAKECMDGOALS))),)
$(info NOTE: SHARED_DIR=$(SHARED_DIR) is absent: every check on models from public repositories is SKIPPED, naming the file (CI lays shared/ beside the checkout))
endif
endif
# shared_skip NAME,FILE...: recipe text: unless every FILE exists, say which
# is absent, print NAME's result line and end the recipe (exit 0).
shared_skip = for f in $(2); do [ -e "$$f" ] || { \
	echo "SKIP: $(1): $$f absent (CI lays shared/ beside the checkout: SHARED_DIR=$(SHARED_DIR))"; \
	echo "$(1): 0 passed, 0 failed, 1 skipped"; exit 0; }; done

# Build trees: O for the normal build, SAN_O for ASan+UBSan.
O       ?= build
SAN_O   ?= build-san
# The photo at 128x128, made from TEST_PHOTO (tests/data/data.mk)
TEST_IMAGE := $(O)/tests/data/grace_hopper_128.bmp
export TEST_IMAGE
# SHARED_STATE: a file that changes when the set of files under SHARED_DIR
# (MODELS_DIR, ZOO_DIR) does, and only then: what is made from shared/
# (or, without it, the SKIP lines naming what is absent) depends on it, so
# a build tree never keeps a stale skip after shared/ appears, nor stale
# results after it goes (e.g. the guests' classify-host.txt, llm-host.txt).
SHARED_STATE := $(O)/shared-state.txt
SHARED_STATE_TEXT = SHARED_DIR=$(SHARED_DIR) $(sort $(wildcard $(SHARED_DIR)/*/* $(MODELS_DIR)/* $(ZOO_DIR)/*))
.PHONY: shared-state-force
$(SHARED_STATE): shared-state-force
	@mkdir -p $(@D)
	@printf '%s\n' $(foreach w,$(SHARED_STATE_TEXT),'$(w)') > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

# The project's version: the library's (soname stays libe1npu.so.0), the
# tools' --version, libe1npu.pc. Written here only.
E1NPU_VERSION := 0.1.0

WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CSTD     := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
OPT      ?= -O2 -g
CPPFLAGS += -DE1NPU_VERSION='"$(E1NPU_VERSION)"'
CPPFLAGS += -Iinclude -Iinclude/hw -Imodel $(if $(SYSROOT),-I$(SYSROOT)/usr/include)
CFLAGS   += $(CSTD) $(WARN) $(OPT) -fPIC -fvisibility=hidden $(if $(SYSROOT_MULTIARCH),--sysroot=$(SYSROOT))
SANFLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
LDLIBS   +=

# Lists the fragments append to.
ALL_TARGETS   :=
CHECK_TARGETS :=
CHECK_EARLY :=
BENCH_TARGETS :=
INSTALL_TARGETS :=
UNINSTALL_TARGETS :=
CLEAN_DIRS    := $(O) $(SAN_O)

# objs/sanobjs: object files of a list of sources in each build tree.
objs    = $(addprefix $(O)/,$(patsubst %.c,%.o,$(1)))
sanobjs = $(addprefix $(SAN_O)/,$(patsubst %.c,%.o,$(1)))

$(O)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

$(SAN_O)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(SANFLAGS) -MMD -MP -c $< -o $@

# Packages a target needs on Debian 12; installed on demand (root + apt).
DEPS := tools/devel/install-deps.sh
.PHONY: deps-build deps-check deps-bench
deps-build:
	@$(DEPS) build
deps-check:
	@$(DEPS) check
deps-bench:
	@$(DEPS) bench

-include model/model.mk
-include lib/lib.mk
-include tools/common/common.mk
-include tools/tools.mk
-include delegate/delegate.mk
-include ort-ep/ort-ep.mk
-include tools/e1npu-hlo/hlo.mk
-include tools/e1npu-tflite/tflite-tool.mk
-include tools/e1npu-llm/llm-tool.mk
-include tests/tests.mk
-include kernel/kernel.mk
-include tests/vm/vm.mk
-include tests/bench/bench.mk
-include tools/deb/deb.mk

# A cross build: the library, the tools and the cmocka suites (no
# sanitizer builds, fuzzers, benchmarks or outputs made by running them).
# (npu-smoke-static is for the busybox guest; a Debian sysroot's packages
# are the dynamic tools: its libc.a does not link with Debian 12's binutils)
CROSS_TARGETS := $(LIB_SO) $(LIB_A) $(LIB_PUB_A) $(LIB_PC) $(NPU_SMOKE) \
	$(if $(SYSROOT_MULTIARCH),,$(NPU_SMOKE_STATIC)) $(CLASSIFY) $(HLO_TOOL) $(TFLITE_TOOL) $(LLM_TOOL) $(DELEGATE_SO) \
	$(LIBT_TESTS) $(OPS_BINS)

.PHONY: all check check-unit smoke bench install uninstall clean
ifneq ($(CROSS_COMPILE),)
all: $(CROSS_TARGETS)
else
all: $(ALL_TARGETS)
endif

# CHECK_PARALLEL: check targets whose parts are independent and run two at
# a time (-j2, each part's output kept together): the fuzzers, whose
# harnesses are one long clang run each.
CHECK_PARALLEL := check-fuzz

# Unit tests first (fast), then whatever the fragments add (VM, lint);
# CHECK_EARLY starts long builds in the background first (the virtual
# board's kernels and QEMU) so they overlap the unit tests. Each target
# runs even when one before it failed, and says how long it took (where
# CI's time goes); the failed ones are named at the end.
check: deps-check
	$(if $(CHECK_EARLY),$(MAKE) --no-print-directory $(CHECK_EARLY))
	$(MAKE) --no-print-directory all
	@failed=""; for t in $(CHECK_TARGETS); do \
		t0=$$(date +%s); \
		$(MAKE) --no-print-directory $(if $(CHECK_PARALLEL),$$(case " $(CHECK_PARALLEL) " in *" $$t "*) echo -j2 -Otarget;; esac)) $$t || \
			failed="$$failed $$t"; \
		echo "== check: $$t took $$(( $$(date +%s) - t0 )) s"; \
	done; \
	if [ -n "$$failed" ]; then echo "== check: FAILED:$$failed"; exit 1; fi

bench: deps-bench
	$(MAKE) --no-print-directory $(BENCH_TARGETS)

install: $(INSTALL_TARGETS)

uninstall: $(UNINSTALL_TARGETS)

clean:
	rm -rf $(CLEAN_DIRS)

# Our compilers' dependency files only: not the kernel trees and module
# builds the VM harness keeps under $(O)/vm.
-include $(shell find $(O) $(SAN_O) -path '*/vm' -prune -o -type f -name '*.d' -print 2>/dev/null)
