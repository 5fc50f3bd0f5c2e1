# SPDX-License-Identifier: MIT
#
# Top-level build of the e1 NPU stack. Each directory contributes a fragment
# (model/model.mk, lib/lib.mk, tools/tools.mk, tests/tests.mk, kernel/kernel.mk,
# tests/vm/vm.mk, ...) that appends to the target lists below, so one
# directory's build never edits another's.
#
#   make            build libraries, tools and tests
#   make smoke      npu-smoke smoke on the in-process device model
#   make check      every test (installs its own packages on Debian 12)
#   make bench      benchmarks, numbers printed
#   make install    PREFIX=/usr/local DESTDIR=
#   make clean

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
# Build trees: O for the normal build, SAN_O for ASan+UBSan.
O       ?= build
SAN_O   ?= build-san

WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CSTD     := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
OPT      ?= -O2 -g
CPPFLAGS += -Iinclude -Iinclude/hw -Imodel
CFLAGS   += $(CSTD) $(WARN) $(OPT) -fPIC -fvisibility=hidden
SANFLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
LDLIBS   +=

# Lists the fragments append to.
ALL_TARGETS   :=
CHECK_TARGETS :=
BENCH_TARGETS :=
INSTALL_TARGETS :=
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
-include tools/tools.mk
-include tests/tests.mk
-include kernel/kernel.mk
-include tests/vm/vm.mk
-include tests/bench/bench.mk

.PHONY: all check check-unit smoke bench install clean
all: $(ALL_TARGETS)

# Unit tests first (fast), then whatever the fragments add (VM, lint).
check: deps-check
	$(MAKE) --no-print-directory all
	$(MAKE) --no-print-directory $(CHECK_TARGETS)

bench: deps-bench
	$(MAKE) --no-print-directory $(BENCH_TARGETS)

install: $(INSTALL_TARGETS)

clean:
	rm -rf $(CLEAN_DIRS)

# Our compilers' dependency files only: not the kernel trees and module
# builds the VM harness keeps under $(O)/vm.
-include $(shell find $(O) $(SAN_O) -path '*/vm' -prune -o -type f -name '*.d' -print 2>/dev/null)
