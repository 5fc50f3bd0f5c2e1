# SPDX-License-Identifier: MIT
#
# Device model: libe1model.a (normal and ASan+UBSan) from model/*.c, one
# cmocka executable per tests/model/test-*.c (picked up by wildcard), and
# `make check-model` running all of them in both builds.

MODEL_SRCS := $(sort $(wildcard model/*.c))

MODEL_LIB     := $(O)/libe1model.a
MODEL_SAN_LIB := $(SAN_O)/libe1model.a

# The model is compiled -O3 (the GEMM kernel relies on vectorization), no
# -march: the user-space build picks AVX2/AVX-512 clones at run time.
MODEL_OPT := -O3 -g
$(call objs,$(MODEL_SRCS)): OPT := $(MODEL_OPT)
# Freestanding limits (Documentation/device-model.md): the same code runs in
# the library, the unit tests and the QEMU device.
$(call objs,$(MODEL_SRCS)) $(call sanobjs,$(MODEL_SRCS)): CFLAGS += -Wvla
$(call objs,$(MODEL_SRCS)): CFLAGS += -Wframe-larger-than=512

$(MODEL_LIB): $(call objs,$(MODEL_SRCS))
	@mkdir -p $(@D)
	$(AR) rcs $@ $^

$(MODEL_SAN_LIB): $(call sanobjs,$(MODEL_SRCS))
	@mkdir -p $(@D)
	$(AR) rcs $@ $^

# Tests: tests/model/test-*.c, plus the shared helpers if present.
MODEL_TEST_SRCS := $(wildcard tests/model/test-*.c)
MODEL_TEST_HELPERS := $(wildcard tests/model/model-tests-helpers.c)
MODEL_TESTS     := $(patsubst %.c,$(O)/%,$(MODEL_TEST_SRCS))
MODEL_SAN_TESTS := $(patsubst %.c,$(SAN_O)/%,$(MODEL_TEST_SRCS))

$(O)/tests/model/test-%: $(O)/tests/model/test-%.o $(call objs,$(MODEL_TEST_HELPERS)) \
		$(MODEL_LIB)
	$(CC) $(CFLAGS) -o $@ $^ -lcmocka $(LDLIBS)

$(SAN_O)/tests/model/test-%: $(SAN_O)/tests/model/test-%.o \
		$(call sanobjs,$(MODEL_TEST_HELPERS)) $(MODEL_SAN_LIB)
	$(CC) $(CFLAGS) $(SANFLAGS) -o $@ $^ -lcmocka $(LDLIBS)

.PHONY: model check-model
model: $(MODEL_LIB) $(MODEL_SAN_LIB) $(MODEL_TESTS) $(MODEL_SAN_TESTS)

check-model: $(MODEL_TESTS) $(MODEL_SAN_TESTS)
	@fail=0; for t in $^; do \
		echo "== $$t"; \
		$$t || { echo "FAILED: $$t"; fail=1; }; \
	done; exit $$fail

# The ASan+UBSan builds: made by check-model, which runs them.
ALL_TARGETS   += $(MODEL_LIB) $(MODEL_TESTS)
CHECK_TARGETS += check-model

# Keep the test objects (they are intermediate files of the pattern rules).
.SECONDARY: $(patsubst %.c,$(O)/%.o,$(MODEL_TEST_SRCS) $(MODEL_TEST_HELPERS)) \
	$(patsubst %.c,$(SAN_O)/%.o,$(MODEL_TEST_SRCS) $(MODEL_TEST_HELPERS))
