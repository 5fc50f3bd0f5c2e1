# SPDX-License-Identifier: MIT
#
# libe1npu unit tests: one cmocka executable per tests/lib/test-*.c, linked
# against libe1npu.a (normal build) and the ASan+UBSan libe1npu.a, all on
# the in-process backend. `make check-lib` runs both builds, then the
# install + pkg-config example test.


LIBT_SRCS     := $(wildcard tests/lib/test-*.c)
LIBT_TESTS    := $(patsubst %.c,$(O)/%,$(LIBT_SRCS))
LIBT_SAN      := $(patsubst %.c,$(SAN_O)/%,$(LIBT_SRCS))

$(call objs,$(LIBT_SRCS)) $(call sanobjs,$(LIBT_SRCS)): CPPFLAGS += $(LIB_CPPFLAGS)

$(O)/tests/lib/test-%: $(O)/tests/lib/test-%.o $(LIB_A)
	$(CC) $(CFLAGS) -o $@ $^ -lcmocka $(LIB_LIBS)

$(SAN_O)/tests/lib/test-%: $(SAN_O)/tests/lib/test-%.o $(LIB_SAN_A)
	$(CC) $(CFLAGS) $(SANFLAGS) -o $@ $^ -lcmocka $(LIB_LIBS)

.PHONY: check-lib check-lib-unit check-lib-install
check-lib-unit: $(LIBT_TESTS) $(LIBT_SAN)
	@fail=0; for t in $^; do \
		echo "== $$t"; \
		E1NPU_DEVICE=sim $$t || { echo "FAILED: $$t"; fail=1; }; \
	done; exit $$fail

# Install into a temporary DESTDIR, build tests/lib/example.c against the
# installed pkg-config file, run it.
check-lib-install: $(LIB_SO) $(LIB_A)
	@tests/lib/install-test.sh "$(MAKE)" "$(O)" "$(SAN_O)" "$(CC)"

check-lib: check-lib-unit check-lib-install

# make bench: library overhead and throughput on the in-process backend.
BENCH_LIB := $(O)/tests/lib/bench-lib
$(call objs,tests/lib/bench-lib.c): CPPFLAGS += $(LIB_CPPFLAGS)
$(BENCH_LIB): $(O)/tests/lib/bench-lib.o $(LIB_A)
	$(CC) $(CFLAGS) -o $@ $^ $(LIB_LIBS)

.PHONY: bench-lib
bench-lib: $(BENCH_LIB)
	$(BENCH_LIB)

ALL_TARGETS   += $(LIBT_TESTS) $(BENCH_LIB)
CHECK_TARGETS += check-lib
BENCH_TARGETS += bench-lib

