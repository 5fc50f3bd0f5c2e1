# SPDX-License-Identifier: MIT
#
# End-to-end quantized networks (lib/tflite; the CLI e1npu-classify is
# built by tools/e1npu-classify/classify.mk):
#   check-models   reader on the 4 real models vs an independent Python
#       walk, malformed-input fuzz loop (ASan+UBSan), end-to-end top-1 and
#       NPU vs CPU-reference byte equality (tests/models/run-models.sh),
#   bench-models   modelled cycles, utilization, descriptors, host time vs
#       TFLite 2.2 and 2.14.1 (tests/models/bench-models.sh).
# The models live beside the repository: MODELS_DIR (the top-level
# Makefile's $(SHARED_DIR)/models); without it the model tests are SKIPPED
# loudly.


MODELS_TEST_SRCS := tests/models/test-tflite.c
MODELS_CPPFLAGS  := -Ilib -Ilib/tflite -Ilib/ops -Ilib/ref
MODELS_TEST      := $(O)/tests/models/test-tflite
MODELS_TEST_SAN  := $(SAN_O)/tests/models/test-tflite
MODELS_BENCH     := $(O)/tests/models/bench-models
MODELS_BENCH_SRCS := tests/models/bench-models.c tests/models/bench-host.c \
		     tests/models/bench-tflite.c \
		     tests/models/bench-layers.c tests/models/bench-timing.c \
		     tests/models/bench-kinds.c

$(call objs,$(MODELS_TEST_SRCS) $(MODELS_BENCH_SRCS)) \
$(call sanobjs,$(MODELS_TEST_SRCS)): CPPFLAGS += $(MODELS_CPPFLAGS)

$(MODELS_TEST): $(call objs,$(MODELS_TEST_SRCS)) $(LIB_A)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(LIB_LIBS)

$(MODELS_TEST_SAN): $(call sanobjs,$(MODELS_TEST_SRCS)) $(LIB_SAN_A)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SANFLAGS) -o $@ $^ $(LIB_LIBS)

$(MODELS_BENCH): $(call objs,$(MODELS_BENCH_SRCS)) $(LIB_A)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(LIB_LIBS) -ldl

.PHONY: check-models bench-models
check-models: $(CLASSIFY) $(CLASSIFY_SAN) $(MODELS_TEST) $(MODELS_TEST_SAN)
	MODELS_DIR='$(MODELS_DIR)' CLASSIFY='$(CLASSIFY)' CLASSIFY_SAN='$(CLASSIFY_SAN)' \
	TEST_TFLITE='$(MODELS_TEST)' TEST_TFLITE_SAN='$(MODELS_TEST_SAN)' \
		sh tests/models/run-models.sh

# The small MobileNet, then MODELS_DIR's others; real TFLite 2.2 from
# tools/devel/fetch-tflite.sh (x86_64 only) and TFLite 2.14.1 from the
# Debian sid root (tests/vm/sid-root.sh) as the speed references, all in
# one process inside that root (tests/models/bench-models.sh; without the
# root the bench runs here and the 2.14 columns say why they are n/a).
# BENCH_MODELS_ARGS="--reps N": more runs; BENCH_MODELS_SID=0: not in the
# root (no 2.14 columns).
bench-models: $(MODELS_BENCH)
	@$(call shared_skip,$@,$(TEST_MODEL)); \
	O='$(O)' BENCH_MODELS_ARGS='$(BENCH_MODELS_ARGS)' BENCH_MODELS_SID='$(BENCH_MODELS_SID)' \
	sh tests/models/bench-models.sh $(MODELS_BENCH) $(TEST_MODEL) \
		$(filter-out %/mobilenet_v1_0.25_128_quant.tflite,$(sort $(wildcard $(MODELS_DIR)/*.tflite)))

CHECK_TARGETS   += check-models
BENCH_TARGETS   += bench-models

