# SPDX-License-Identifier: MIT
#
# libe1npu operation lowering: unit tests (check-ops) and the lowering
# benchmark (bench-lowering). Owned by the lowering layer (lib/ops, lib/ref).
#
# The test binaries link the lowering sources (lib/ops, lib/ref) directly;
# everything else comes from libe1npu when its fragment provides it.

OPS_TEST_SRCS := $(wildcard tests/ops/test-*.c)
OPS_TESTS     := $(patsubst tests/ops/%.c,%,$(OPS_TEST_SRCS))
OPS_CPPFLAGS  := -Ilib -Ilib/ops -Ilib/ref -Itests/ops
OPS_LDLIBS    := -lcmocka

OPS_BINS      := $(addprefix $(O)/tests/ops/,$(OPS_TESTS))
OPS_SANBINS   := $(addprefix $(SAN_O)/tests/ops/,$(OPS_TESTS))

# Only the tests' own objects: the library's are built with lib.mk's flags.
$(call objs,$(OPS_TEST_SRCS)): CPPFLAGS += $(OPS_CPPFLAGS)
$(call sanobjs,$(OPS_TEST_SRCS)): CPPFLAGS += $(OPS_CPPFLAGS)

# libe1npu holds lib/ops and lib/ref: link the static archives.
$(O)/tests/ops/%: $(O)/tests/ops/%.o $(LIB_A)
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS) $(OPS_LDLIBS) $(LIB_LIBS)

$(SAN_O)/tests/ops/%: $(SAN_O)/tests/ops/%.o $(LIB_SAN_A)
	$(CC) $(CFLAGS) $(SANFLAGS) $^ -o $@ $(LDLIBS) $(OPS_LDLIBS) $(LIB_LIBS)

.PHONY: check-ops check-ops-normal check-ops-san
check-ops: check-ops-normal check-ops-san

check-ops-normal: $(OPS_BINS)
	@set -e; for t in $(OPS_BINS); do echo "  TEST    $$t"; $$t; done

check-ops-san: $(OPS_SANBINS)
	@set -e; for t in $(OPS_SANBINS); do echo "  TEST    $$t"; \
		ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 $$t; done

CHECK_TARGETS += check-ops

# Lowering benchmark (make bench): modelled cycles, utilization, descriptors
# and host lowering time per operation.
OPS_BENCH := $(O)/tests/ops/bench-lowering
$(call objs,tests/ops/bench-lowering.c): CPPFLAGS += $(OPS_CPPFLAGS)

.PHONY: bench-lowering
bench-lowering: $(OPS_BENCH)
	$(OPS_BENCH)

BENCH_TARGETS += bench-lowering
