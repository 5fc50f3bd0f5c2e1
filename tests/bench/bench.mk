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
