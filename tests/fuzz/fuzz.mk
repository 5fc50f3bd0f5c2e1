# SPDX-License-Identifier: MIT
#
# libFuzzer harnesses (Documentation/fuzzing.md), built with clang into
# $(O)/tests/fuzz/:
#
#   make fuzz-build   build the harnesses
#   make check-fuzz   bounded run of each (part of `make check`): seeds from
#                     tests/fuzz/corpus-<name>/, new inputs and crashes go to
#                     $(O)/tests/fuzz/, any crash fails the target
#   make fuzz-long    the same for FUZZ_LONG_TIME seconds each (not in check)
#
# Needs clang and libFuzzer (Debian 12: clang libclang-rt-14-dev); without
# them check-fuzz fails loudly rather than skipping.

FUZZ_CC       ?= $(shell command -v clang-14 2>/dev/null || command -v clang 2>/dev/null)
FUZZ_DIR      := $(O)/tests/fuzz
FUZZ_NAMES    := fuzz-op-check fuzz-model-mmio
# Harnesses of the public API: the whole library, built in (lib.mk's list).
FUZZ_API_NAMES := fuzz-api-seq fuzz-api-ops
FUZZ_NAMES    += $(FUZZ_API_NAMES)
FUZZ_BINS     := $(addprefix $(FUZZ_DIR)/,$(FUZZ_NAMES))
FUZZ_TIME     ?= 30
FUZZ_LONG_TIME ?= 600
# check-fuzz replays this seed (0: a random one); fuzz-long is random.
FUZZ_SEED     ?= 1
FUZZ_RSS_MB   ?= 2048
FUZZ_FLAGS    := -g -O1 -fno-omit-frame-pointer -std=c11 -D_DEFAULT_SOURCE \
		 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		 -Wall -Wextra -Werror -Wno-unused-parameter
FUZZ_CPPFLAGS := -DE1NPU_VERSION='"$(E1NPU_VERSION)"' -Iinclude -Iinclude/hw -Iinclude/uapi/drm -Imodel -Ihw \
		 -Itests/fuzz $(shell pkg-config --cflags libdrm 2>/dev/null)
FUZZ_LIB_SRCS := hw/e1npu_opcheck.c hw/e1npu_cmd_encode.c $(MODEL_SRCS)
FUZZ_HDRS     := $(wildcard tests/fuzz/*.h include/hw/*.h include/uapi/drm/*.h \
		   hw/e1npu_opcheck.h model/*.h)

.PHONY: fuzz-build fuzz-cc check-fuzz fuzz-long

FUZZ_PROBE := $(FUZZ_DIR)/probe
fuzz-cc:
	@if [ -z "$(FUZZ_CC)" ]; then \
		echo "ERROR: check-fuzz needs clang with libFuzzer (Debian 12: apt-get install clang libclang-rt-14-dev)" >&2; \
		exit 1; \
	fi
	@mkdir -p $(FUZZ_DIR)
	@printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n);\nint LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' > $(FUZZ_PROBE).c
	@$(FUZZ_CC) -fsanitize=fuzzer,address,undefined $(FUZZ_PROBE).c -o $(FUZZ_PROBE) || { \
		echo "ERROR: $(FUZZ_CC) cannot link -fsanitize=fuzzer,address,undefined (Debian 12: apt-get install clang libclang-rt-14-dev)" >&2; \
		exit 1; }

$(FUZZ_DIR)/%: tests/fuzz/%.c $(FUZZ_LIB_SRCS) $(FUZZ_HDRS) | fuzz-cc
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CPPFLAGS) $(FUZZ_FLAGS) $< $(FUZZ_LIB_SRCS) -o $@

FUZZ_API_SRCS := $(LIB_SRCS) $(LIB_MODEL_SRCS)
FUZZ_API_HDRS := $(wildcard include/e1npu/*.h lib/*.h lib/*/*.h)
# Every harness built with the whole library: the API ones and those of
# the StableHLO importer and the TFLite interpreter (fuzz-hlo.mk,
# fuzz-tflite.mk, which run them).
FUZZ_LIB_NAMES := $(FUZZ_API_NAMES) fuzz-hlo-parse fuzz-tflite-load
$(addprefix $(FUZZ_DIR)/,$(FUZZ_LIB_NAMES)): $(FUZZ_DIR)/%: tests/fuzz/%.c \
		$(FUZZ_API_SRCS) $(FUZZ_HDRS) $(FUZZ_API_HDRS) | fuzz-cc
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CPPFLAGS) $(LIB_CPPFLAGS) -DE1NPU_WITH_UDEV=$(E1NPU_WITH_UDEV) \
		-D_POSIX_C_SOURCE=200809L $(FUZZ_FLAGS) $< $(FUZZ_API_SRCS) -o $@ $(LIB_LIBS)

fuzz-build: $(FUZZ_BINS)

# $(1): harness name, $(2): seconds, $(3): libFuzzer seed (0: random).
# Seeds are read from the tree and never written: libFuzzer adds new inputs
# to the first corpus directory, the build one. A run with a fixed seed
# starts from an empty build corpus, so its start does not depend on what
# earlier runs kept (runs still diverge: the library's deadlines give
# timing-dependent coverage, Documentation/fuzzing.md); the long runs take
# a random seed and keep their corpus to search further.
define fuzz_run
	@$(if $(filter-out 0,$(3)),rm -rf $(FUZZ_DIR)/corpus-$(1);) \
		mkdir -p $(FUZZ_DIR)/corpus-$(1) $(FUZZ_DIR)/artifacts-$(1)
	@echo "  FUZZ    $(1) for $(2)s, seed $(3)"
	@$(FUZZ_DIR)/$(1) -max_total_time=$(2) -rss_limit_mb=$(FUZZ_RSS_MB) \
		-seed=$(3) -timeout=60 -print_final_stats=1 \
		-artifact_prefix=$(FUZZ_DIR)/artifacts-$(1)/ \
		$(FUZZ_DIR)/corpus-$(1) tests/fuzz/corpus-$(1) \
		> $(FUZZ_DIR)/$(1).log 2>&1 || { \
		tail -n 60 $(FUZZ_DIR)/$(1).log >&2; \
		grep -m1 '^INFO: Seed:' $(FUZZ_DIR)/$(1).log >&2; \
		echo "FAILED: $(1) (seed $(3)), crash input in $(FUZZ_DIR)/artifacts-$(1)/" >&2; \
		exit 1; }
	@grep -E '^stat::(number_of_executed_units|average_exec_per_sec)' \
		$(FUZZ_DIR)/$(1).log | sed 's/^/  /'
endef

check-fuzz: fuzz-build
	$(call fuzz_run,fuzz-op-check,$(FUZZ_TIME),$(FUZZ_SEED))
	$(call fuzz_run,fuzz-model-mmio,$(FUZZ_TIME),$(FUZZ_SEED))
	$(call fuzz_run,fuzz-api-seq,$(FUZZ_TIME),$(FUZZ_SEED))
	$(call fuzz_run,fuzz-api-ops,$(FUZZ_TIME),$(FUZZ_SEED))
	@echo "$(words $(FUZZ_NAMES)) passed, 0 failed (check-fuzz: every harness ran clean)"

fuzz-long: fuzz-build
	$(call fuzz_run,fuzz-op-check,$(FUZZ_LONG_TIME),0)
	$(call fuzz_run,fuzz-model-mmio,$(FUZZ_LONG_TIME),0)
	$(call fuzz_run,fuzz-api-seq,$(FUZZ_LONG_TIME),0)
	$(call fuzz_run,fuzz-api-ops,$(FUZZ_LONG_TIME),0)

CHECK_TARGETS += check-fuzz
