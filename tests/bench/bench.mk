# SPDX-License-Identifier: MIT
#
# bench-model: the device model's INT8 GEMM against oneDNN (libdnnl-dev),
# single thread. Numbers printed, not a timed test.

BENCH_MODEL := $(O)/tests/bench/bench-model

$(BENCH_MODEL): $(O)/tests/bench/bench-model.o $(O)/libe1model.a
	$(CC) $(CFLAGS) -o $@ $^ -ldnnl $(LDLIBS)

.PHONY: bench-model
bench-model: $(BENCH_MODEL)
	OMP_NUM_THREADS=1 DNNL_VERBOSE=0 $(BENCH_MODEL)

BENCH_TARGETS += bench-model

# bench-hybrid: each MobileNet/transformer layer's best split between the
# wrapper and the datapath, from cycles measured on the in-process model
# (Documentation/device-model.md, "Engine concurrency").
BENCH_HYBRID := $(O)/tests/bench/bench-hybrid
$(call objs,tests/bench/bench-hybrid.c): CPPFLAGS += $(LIB_CPPFLAGS)
$(BENCH_HYBRID): $(O)/tests/bench/bench-hybrid.o $(LIB_A)
	$(CC) $(CFLAGS) -o $@ $^ $(LIB_LIBS)

.PHONY: bench-hybrid
bench-hybrid: $(BENCH_HYBRID)
	$(BENCH_HYBRID)

ALL_TARGETS   += $(BENCH_HYBRID)
BENCH_TARGETS += bench-hybrid
